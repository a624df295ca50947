// Service worker: every file of the site is kept after the first visit, so a second visit (and one with
// no network at all) loads from the cache. Files requested with ?v=<hash> never change, so the cache
// answers them directly; the page itself and manifest-free URLs go to the network first.
const CACHE = 'autograd-explorer-__SITE_VERSION__';

// At install, the page's own files are stored; the Python worker (static/worker.mjs) stores what it
// downloads in the same cache as it goes.
self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const manifest = await (await fetch('manifest.json?v=__SITE_VERSION__')).json();
    const cache = await caches.open(CACHE);
    // The page has just loaded these: take them from the HTTP cache rather than download them again.
    await cache.addAll(manifest.precache.map((url) => new Request(url, { cache: 'force-cache' })));
    await self.skipWaiting();
  })());
});
self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE && key.startsWith('autograd-explorer-')) await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== location.origin) return;
  const immutable = url.searchParams.has('v') || url.pathname.includes('/static/panel/') ||
    url.pathname.includes('/static/bokeh/');
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    if (immutable) {
      const hit = await cache.match(request);
      if (hit) return hit;
      const response = await fetch(request);
      if (response.ok) cache.put(request, response.clone());
      return response;
    }
    try {
      const response = await fetch(request);
      if (response.ok) cache.put(request, response.clone());
      return response;
    } catch (err) {
      const hit = await cache.match(request, { ignoreSearch: true });
      if (hit) return hit;
      throw err;
    }
  })());
});
