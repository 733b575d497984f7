// Parlor's Web Worker: the same wasm module as the page, answering the computer's think requests off the page's
// thread (issue 27). A request and its answer are JSON texts (parlor::mid::elsewhere); the worker keeps each
// game's tables and trees between requests, so a table is solved once per visit, and keeps what it solved or built
// in IndexedDB (database "parlor-kept", store "kept", one entry per table or tree: its file's bytes, versioned,
// with a checksum), so that the next visit reads it instead of solving. A damaged, newer or foreign entry is refused
// by the wasm module, deleted, and made again when needed. Besides the answers (texts) the worker posts
// `{kept: {event, key, ms, bytes, why}}` objects, which the page counts in `window.parlorKept`.
//
// A tree too slow to build between two answers (Bulls and Cows' optimal tree, minutes) is built by a builder worker,
// this same script loaded as `worker.js?role=builder`, so that the hints go on meanwhile (a heuristic's, which say
// so). The PAGE owns the builder, not this worker: the page ends a thinking worker to stop a think, and the build
// must outlive it. This worker asks the page for the tree (`{build: key}`); the page hands the built bytes to the
// thinking worker of the moment (`{built: {key, bytes}}`), which checks them (every secret replayed), takes and
// keeps them.
//
// The page may also ask, as a request `{"fetch": key}`, for a table its value overlay needs (Nocca's `v`): the
// worker posts `{gave: {key, bytes}}` (the table it holds, or solves now; never solved on the page's thread) or
// `{gave: {key, why}}`, then an empty answer `{}` so that the page's queue moves on.
import init, * as parlor from "./parlor_web.js";

const DB = "parlor-kept";
const STORE = "kept";
const asPromise = (r) => new Promise((ok, no) => {
  r.onsuccess = () => ok(r.result);
  r.onerror = () => no(r.error);
});
const openDb = () => {
  const r = indexedDB.open(DB, 1);
  r.onupgradeneeded = () => r.result.createObjectStore(STORE);
  return asPromise(r);
};
const tell = (kept) => self.postMessage({ kept });
let db = null;

// Every kept entry, read and checked before the first request is answered (the page never waits for it).
const readKept = async () => {
  try {
    db = await openDb();
  } catch (e) {
    tell({ event: "unavailable", why: String(e) });
    return;
  }
  const t0 = performance.now();
  const tx = db.transaction(STORE, "readonly");
  const keys = await asPromise(tx.objectStore(STORE).getAllKeys());
  for (const key of keys) {
    const t1 = performance.now();
    const value = await asPromise(db.transaction(STORE, "readonly").objectStore(STORE).get(key));
    const bytes = value instanceof Uint8Array ? value : new Uint8Array(value || []);
    const readMs = performance.now() - t1;
    const why = parlor.parlorWorkerKept(String(key), bytes);
    const ms = performance.now() - t1;
    if (why === "") {
      tell({ event: "loaded", key: String(key), ms, readMs, bytes: bytes.length });
    } else {
      tell({ event: "refused", key: String(key), why, bytes: bytes.length });
      await asPromise(db.transaction(STORE, "readwrite").objectStore(STORE).delete(key)).catch(() => {});
    }
  }
  tell({ event: "read", ms: performance.now() - t0, entries: keys.length });
};

// `bytes` put in IndexedDB under `key`; the event says how long it took, or why it was not kept.
const put = async (key, bytes, event) => {
  if (!db) {
    tell({ ...event, key, bytes: bytes.length, why: "not kept: no IndexedDB" });
    return;
  }
  try {
    const t0 = performance.now();
    await asPromise(db.transaction(STORE, "readwrite").objectStore(STORE).put(bytes, key));
    tell({ ...event, key, storeMs: performance.now() - t0, bytes: bytes.length });
  } catch (e) {
    tell({ ...event, key, bytes: bytes.length, why: "not kept: " + e });
  }
};

// Every table solved for the last answer, put in IndexedDB.
const keepNew = async () => {
  for (let k = parlor.parlorWorkerToKeep(); k; k = parlor.parlorWorkerToKeep()) {
    await put(k.key, k.bytes, { event: "solved", ms: k.ms });
  }
};

// A tree the page's builder worker built (`{key, bytes, ms, wallMs}`), or could not (`{key, why}`), handed over by
// the page: checked (every secret replayed), taken and kept; or the hints told why there is none.
const takeBuilt = async (b) => {
  if (b.why) {
    parlor.parlorWorkerBuildFailed(b.key, b.why);
    tell({ event: "failed", key: b.key, why: b.why });
    return;
  }
  const t0 = performance.now();
  const why = parlor.parlorWorkerKept(b.key, b.bytes);
  const checkMs = performance.now() - t0;
  if (why !== "") {
    parlor.parlorWorkerBuildFailed(b.key, why);
    tell({ event: "failed", key: b.key, why });
    return;
  }
  await put(b.key, b.bytes, { event: "solved", ms: b.ms, wallMs: b.wallMs, checkMs });
};
// Every tree the last answer needed, asked of the page, which owns the builder (and asks it once per tree, however
// many thinking workers want it).
const buildWanted = () => {
  for (let key = parlor.parlorWorkerWanted(); key; key = parlor.parlorWorkerWanted()) {
    self.postMessage({ build: key });
  }
};

// The page's request for a kept table (its value overlay).
const give = async (key) => {
  const t0 = performance.now();
  try {
    const bytes = parlor.parlorWorkerFetch(key);
    const n = bytes.length;
    self.postMessage({ gave: { key, bytes } }, [bytes.buffer]);
    tell({ event: "gave", key, ms: performance.now() - t0, bytes: n });
  } catch (e) {
    self.postMessage({ gave: { key, why: String(e) } });
    tell({ event: "gave", key, why: String(e) });
  }
  self.postMessage("{}");
  await keepNew();
};

if (new URL(import.meta.url).searchParams.get("role") === "builder") {
  // The builder: one tree at a time, each as its file's bytes (or why not).
  const ready = init();
  self.onmessage = async (e) => {
    await ready;
    const key = e.data && e.data.build;
    const t0 = performance.now();
    try {
      const bytes = parlor.parlorBuildTree(key);
      self.postMessage({ built: { key, bytes, ms: performance.now() - t0 } }, [bytes.buffer]);
    } catch (err) {
      self.postMessage({ built: { key, why: String(err) } });
    }
  };
} else {
  const ready = init().then(() => readKept().catch((e) => tell({ event: "unavailable", why: String(e) })));
  self.onmessage = async (e) => {
    await ready;
    if (e.data && e.data.built) {
      await takeBuilt(e.data.built);
      return;
    }
    if (typeof e.data === "string" && e.data.startsWith('{"fetch"')) {
      await give(JSON.parse(e.data).fetch);
      return;
    }
    self.postMessage(parlor.parlorWorkerAnswer(e.data));
    buildWanted();
    await keepNew();
  };
}
