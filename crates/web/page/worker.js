// Parlor's Web Worker: the same wasm module as the page, answering the computer's think requests off the page's
// thread (issue 27). A request and its answer are JSON texts (parlor::mid::elsewhere); the worker keeps each
// game's tables and trees between requests, so a table is solved once per visit, and keeps what it solved in
// IndexedDB (database "parlor-kept", store "kept", one entry per table: its file's bytes, versioned, with a
// checksum), so that the next visit reads it instead of solving. A damaged, newer or foreign entry is refused by
// the wasm module, deleted, and solved again when needed. Besides the answers (texts) the worker posts
// `{kept: {event, key, ms, bytes, why}}` objects, which the page counts in `window.parlorKept`.
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

// Every table solved for the last answer, put in IndexedDB.
const keepNew = async () => {
  for (let k = parlor.parlorWorkerToKeep(); k; k = parlor.parlorWorkerToKeep()) {
    if (!db) {
      tell({ event: "solved", key: k.key, ms: k.ms, bytes: k.bytes.length, why: "not kept: no IndexedDB" });
      continue;
    }
    try {
      const t0 = performance.now();
      await asPromise(db.transaction(STORE, "readwrite").objectStore(STORE).put(k.bytes, k.key));
      tell({ event: "solved", key: k.key, ms: k.ms, storeMs: performance.now() - t0, bytes: k.bytes.length });
    } catch (e) {
      tell({ event: "solved", key: k.key, ms: k.ms, bytes: k.bytes.length, why: "not kept: " + e });
    }
  }
};

const ready = init().then(() => readKept().catch((e) => tell({ event: "unavailable", why: String(e) })));
self.onmessage = async (e) => {
  await ready;
  self.postMessage(parlor.parlorWorkerAnswer(e.data));
  await keepNew();
};
