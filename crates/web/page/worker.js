// Parlor's Web Worker: the same wasm module as the page, answering the computer's think requests off the page's
// thread (issue 27). A request and its answer are JSON texts (parlor::mid::elsewhere); the worker keeps each
// game's tables and trees between requests, and keeps what was solved or built in IndexedDB (database
// "parlor-kept", store "kept", one entry per table or tree: its file's bytes, versioned, with a checksum), so that
// the next visit reads it instead of solving. A damaged, newer or foreign entry is refused by the wasm module,
// deleted, and made again when needed. Besides the answers (texts) the worker posts `{kept: {event, key, ...}}`
// objects, which the page counts in `window.parlorKept`.
//
// What is too slow to make between two answers is made by a builder worker, this same script loaded as
// `worker.js?role=builder`: Nocca's tables (the 4x4 one: tens of seconds in the page) and Mastermind's trees too
// slow to build at once (Bulls and Cows' optimal tree: minutes). The PAGE owns the builder, not this worker: the
// page ends a thinking worker to stop a think (a key that cancels it, leaving the game), and the solve must
// outlive it. This worker asks the page for what its answers need (`{build: key}`); the page asks the builder once
// per key however many thinking workers want it (one job at a time, the others queued), forwards the builder's
// progress (`{progress: {key, text}}`, "ply 7, 40%", for the hints and status lines), and hands the bytes to the
// thinking worker of the moment (`{built: {key, bytes}}`), which checks them (a tree: every secret replayed),
// takes and keeps them. A worker started after that reads them from IndexedDB (the page holds the bytes until
// they are kept there).
//
// Meanwhile: a hint is a search's (Nocca) or a heuristic's (Mastermind) and says so, with the solve's progress; a
// move of Nocca's perfect level waits for its table (a perfect level that played a search's move would not be
// one), without blocking this worker: the request is held (`{kept: {event: "waiting"}}`) and answered when the
// table comes, or when its solve failed (no move, then). A stopped think loses nothing: the next worker asks
// again, and the page, already solving that key, does not solve it twice. The events the page counts for this:
// `building` and `began` (the page's: asked of the builder, started by it), `waiting` and `resumed` (a move held,
// then answered, with `waitedMs`), `solved` (taken and kept: the builder's `ms`, the page's `wallMs`).
//
// The same script loaded as `worker.js?role=reviewer` is the page's reviewer: the reviews of finished games and the
// judgements of the puzzles' moves (crates/web/src/coach.rs), asked as JSON texts and answered as JSON texts, with
// `{reviewing: {id, done, of}}` posted as a review goes.
//
// The page may also ask, as a request `{"fetch": key}`, for a table its value overlay needs (Nocca's `v`): the
// worker posts `{gave: {key, bytes}}` (the table it holds, or once the builder has solved it) or
// `{gave: {key, why}}`, and at once an empty answer `{}` so that the page's queue moves on.
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

// A table or tree the page's builder worker made (`{key, bytes, ms, wallMs}`), or could not (`{key, why}`),
// handed over by the page: checked, taken and kept; or the answers told why there is none. A request or a fetch
// waiting for it is answered first, then the bytes are kept.
const takeBuilt = async (b) => {
  if (b.why) {
    parlor.parlorWorkerBuildFailed(b.key, b.why);
    tell({ event: "failed", key: b.key, why: b.why });
    resume(b.key);
    return;
  }
  const t0 = performance.now();
  const why = parlor.parlorWorkerKept(b.key, b.bytes);
  const checkMs = performance.now() - t0;
  if (why !== "") {
    parlor.parlorWorkerBuildFailed(b.key, why);
    tell({ event: "failed", key: b.key, why });
    resume(b.key);
    return;
  }
  resume(b.key);
  await put(b.key, b.bytes, { event: "solved", ms: b.ms, wallMs: b.wallMs, checkMs });
};
// Everything the last answer needed, asked of the page, which owns the builder (and asks it once per key, however
// many thinking workers want it).
const buildWanted = () => {
  for (let key = parlor.parlorWorkerWanted(); key; key = parlor.parlorWorkerWanted()) {
    self.postMessage({ build: key });
  }
};

// The request held until the table it waits for comes ([text, key, since]), and the keys the page's overlay
// asked for that the builder is still solving.
let waiting = null;
const fetching = new Set();
const respond = (text) => {
  self.postMessage(parlor.parlorWorkerAnswer(text));
  buildWanted();
};
// `key` has come (or failed): the request waiting for it is answered, the overlay given it.
const resume = (key) => {
  if (waiting && waiting[1] === key) {
    const [text, , since] = waiting;
    waiting = null;
    tell({ event: "resumed", key, waitedMs: performance.now() - since });
    respond(text);
  }
  if (fetching.delete(key)) giveNow(key, false);
};

// The page's request for a kept table (its value overlay): given now if held, else when the builder has solved it.
// `answer`: the empty answer that moves the page's queue on is posted too (once per request, so not when a table
// asked earlier comes).
const giveNow = (key, answer) => {
  const t0 = performance.now();
  try {
    const bytes = parlor.parlorWorkerFetch(key);
    if (bytes) {
      const n = bytes.length;
      self.postMessage({ gave: { key, bytes } }, [bytes.buffer]);
      tell({ event: "gave", key, ms: performance.now() - t0, bytes: n });
    } else {
      fetching.add(key);
      buildWanted();
    }
  } catch (e) {
    self.postMessage({ gave: { key, why: String(e) } });
    tell({ event: "gave", key, why: String(e) });
  }
  if (answer) self.postMessage("{}");
};

const role = new URL(import.meta.url).searchParams.get("role");
if (self.name === "reviewer" || role === "reviewer") {
  // The reviewer: a finished game's review or a puzzle's judgement (crates/web/src/coach.rs), one at a time (the
  // page's messages wait their turn), a review's progress posted at most every 100 ms and at its end.
  const ready = init();
  self.onmessage = async (e) => {
    await ready;
    const id = JSON.parse(e.data).id;
    let said = 0;
    const progress = (done, of) => {
      const now = performance.now();
      if (now - said < 100 && done < of) return;
      said = now;
      self.postMessage({ reviewing: { id, done, of } });
    };
    self.postMessage(parlor.parlorReviewerAnswer(e.data, progress));
  };
} else if (self.name === "builder" || role === "builder") {
  // The builder: one job at a time (the page's messages wait their turn), each as its file's bytes (or why not),
  // a table's progress posted at most every 200 ms.
  const ready = init();
  self.onmessage = async (e) => {
    await ready;
    const key = e.data && e.data.build;
    self.postMessage({ began: key });
    const t0 = performance.now();
    let said = 0;
    const progress = (text) => {
      const now = performance.now();
      if (now - said < 200) return;
      said = now;
      self.postMessage({ progress: { key, text } });
    };
    try {
      const bytes = parlor.parlorBuild(key, progress);
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
    if (e.data && e.data.progress) {
      parlor.parlorBuildProgress(e.data.progress.key, e.data.progress.text);
      return;
    }
    if (typeof e.data === "string" && e.data.startsWith('{"fetch"')) {
      giveNow(JSON.parse(e.data).fetch, true);
      return;
    }
    const key = parlor.parlorWorkerWaits(e.data);
    if (key) {
      // Held, not answered: this worker goes on taking messages (the table among them).
      waiting = [e.data, key, performance.now()];
      tell({ event: "waiting", key });
      buildWanted();
      return;
    }
    respond(e.data);
  };
}
