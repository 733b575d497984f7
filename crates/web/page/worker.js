// Parlor's Web Worker: the same wasm module as the page, answering the computer's think requests off the page's
// thread (issue 27). A request and its answer are JSON texts (parlor::mid::elsewhere); the worker keeps each
// game's tables and trees between requests, so a table is solved once per visit.
import init, * as parlor from "./parlor_web.js";

const ready = init();
self.onmessage = async (e) => {
  await ready;
  self.postMessage(parlor.parlorWorkerAnswer(e.data));
};
