// Parlor's service worker: after one visit the page opens and plays with no network. It keeps every file of the
// page in a cache named by the build (scripts/web-build.sh writes the build's hash in place of the placeholder
// below) and answers the page's requests from it, the page's own address whatever its query (`?seed=7`).
//
// Updates never break a game in progress: a new build's worker installs beside the running one and waits (no
// skipWaiting at install); the page, at its next load and before it starts anything, finds it waiting, tells it to
// take over ("take-over") and loads again from it (index.html). The old build's cache goes when the new one is active.
const BUILD = "@PARLOR_BUILD@";
const CACHE = "parlor-" + BUILD;
const FILES = [
  "./",
  "parlor_web.js",
  "parlor_web_bg.wasm",
  "worker.js",
  "manifest.webmanifest",
  "icon.svg",
  "icon-192.png",
  "icon-512.png",
  "icon-maskable-512.png",
];

self.addEventListener("install", (event) => {
  // `cache: "reload"`: the files as the server has them now, not a copy in the browser's HTTP cache.
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" })))),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith("parlor-") && key !== CACHE) await caches.delete(key);
      }
      // The first visit's page is served by this worker from now on (its Web Workers and wasm too).
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "take-over") self.skipWaiting();
  if (event.data === "build" && event.source) event.source.postMessage({ build: BUILD });
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const hit =
        (await cache.match(request, { ignoreSearch: true })) ||
        (request.mode === "navigate" ? await cache.match("./") : undefined);
      return hit || fetch(request);
    })(),
  );
});
