// Service worker: every file of the site is kept after the first visit, so a second visit (and one with
// no network at all) loads from the cache. Files requested with ?v=<hash> never change, so the cache
// answers them directly; the page itself and manifest-free URLs go to the network first.
const CACHE = 'autograd-explorer-__SITE_VERSION__';

// At install, the page's own files are stored (the build writes their list here: {url, gz}, gz the URL of
// the build's gzipped copy, if any); the Python worker (static/worker.mjs) stores what it downloads in the
// same cache as it goes.
const PRECACHE = __SITE_PRECACHE__;
self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(PRECACHE.map((file) => precache(cache, file)));
    await self.skipWaiting();
  })());
});
const TYPES = { js: 'text/javascript', mjs: 'text/javascript', css: 'text/css', json: 'application/json',
  png: 'image/png', ico: 'image/x-icon', svg: 'image/svg+xml', html: 'text/html' };

// One of the page's files, stored under the URL the page requests. The page has just loaded it, but that copy
// cannot be had here (an HTTP cache may have it, or not): the gzipped copy is downloaded instead, and stored
// inflated.
async function precache(cache, { url, gz }) {
  if (!gz) {
    await cache.add(new Request(url, { cache: 'force-cache' }));
    return;
  }
  const response = await fetch(gz, { cache: 'force-cache' });
  if (!response.ok) throw new Error(`could not store ${url}: HTTP ${response.status}`);
  const type = TYPES[url.split('?')[0].split('.').pop()] || 'application/octet-stream';
  const body = await new Response(response.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  await cache.put(url, new Response(body, { headers: { 'Content-Type': type } }));
}

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
