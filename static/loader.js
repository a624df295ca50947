// The page side of the site. The page shows a prerendered view of the default example at once (rendered by
// build.py), while a Web Worker (static/worker.mjs) loads Pyodide and the app; then the live document
// replaces the prerendered one and every change is sent both ways (Panel's worker protocol).
(() => {
  'use strict';
  const manifest = window.SITE_MANIFEST;
  const base = new URL('.', document.baseURI).href;
  const STORE = 'autograd-explorer:query';
  const site = (window.site = { ready: false, errors: [], logs: [], timings: {}, prerendered: null });

  // The first paint is a snapshot of the default page (taken by build.py), shown until the live app replaces
  // it. site.prerendered: when it is on screen (ms since navigation start), for the benchmark and tests.
  const snapshot = document.getElementById('site-snapshot');
  if (snapshot) {
    const shown = () => requestAnimationFrame(() => { site.prerendered = Math.round(performance.now()); });
    if (snapshot.complete) shown(); else snapshot.addEventListener('load', shown, { once: true });
  }
  // BokehJS and Panel's bundle, gzipped (build.py took them out of the page), run in order; a copy goes to the
  // service worker's cache for the next visit.
  const scriptsLoaded = (async () => {
    const cache = 'caches' in window ? await caches.open(`autograd-explorer-${manifest.version}`).catch(() => null) : null;
    const texts = await Promise.all(manifest.page_scripts.map(async (rel) => {
      const entry = manifest.files[rel];
      const url = entry.gz ? `${rel}.gz?v=${entry.sha256.slice(0, 12)}` : `${rel}?v=${entry.sha256.slice(0, 12)}`;
      const response = await fetch(url);
      if (!response.ok) throw new Error(`could not load ${rel}: HTTP ${response.status}`);
      if (cache) cache.put(url, response.clone()).catch(() => {});
      const body = entry.gz ? response.body.pipeThrough(new DecompressionStream('gzip')) : response.body;
      return new Response(body).text();
    }));
    for (const text of texts) {
      const script = document.createElement('script');
      script.text = text;
      document.head.appendChild(script);
    }
    window.dispatchEvent(new Event('site-scripts'));
  })();
  scriptsLoaded.catch((e) => showError(String(e)));
  const domReady = Promise.all([scriptsLoaded, new Promise((resolve) => {
    if (document.readyState !== 'loading') resolve(); else document.addEventListener('DOMContentLoaded', resolve);
  })]);

  // --- the program and step survive a reload -------------------------------------------------------
  // The URL's query follows the program and step shown (?example= / ?code= / &step=, reported by the worker);
  // the last one is remembered and restored when the site is opened with no query at all.
  const KEYS = ['example', 'code', 'step'];
  const params = new URLSearchParams(location.search);
  if (![...params.keys()].some((k) => KEYS.includes(k))) {
    try {
      const saved = localStorage.getItem(STORE);
      if (saved) history.replaceState(history.state, '', `${location.pathname}?${saved}${location.hash}`);
    } catch (e) { /* storage disabled */ }
  }
  const remember = () => {
    const p = new URLSearchParams(location.search);
    const kept = new URLSearchParams();
    for (const k of KEYS) if (p.has(k)) kept.set(k, p.get(k));
    try {
      if ([...kept.keys()].length) localStorage.setItem(STORE, kept.toString());
    } catch (e) { /* storage disabled */ }
  };
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name].bind(history);
    history[name] = (...args) => { const r = original(...args); remember(); return r; };
  }
  remember();
  const query = Object.fromEntries(new URLSearchParams(location.search));

  // --- loading screen ----------------------------------------------------------------------------
  const overlay = document.createElement('div');
  overlay.id = 'site-loading';
  overlay.setAttribute('role', 'status');
  overlay.innerHTML = `
    <div class="site-loading-card">
      <div class="site-loading-title">Starting Python in your browser…</div>
      <div class="site-loading-bar"><div class="site-loading-fill"></div></div>
      <div class="site-loading-text">Downloading</div>
      <div class="site-loading-note">This preview is a snapshot: it comes alive once Python has started.</div>
    </div>`;
  document.body.appendChild(overlay);
  const fill = overlay.querySelector('.site-loading-fill');
  const text = overlay.querySelector('.site-loading-text');
  const PHASES = { 'Downloading': 0, 'Installing packages': 0.8, 'Starting the app': 0.9 };
  const mb = (n) => (n / 1e6).toFixed(1);
  function showProgress(msg) {
    const bytes = msg.total ? msg.loaded / msg.total : 0;
    const start = PHASES[msg.phase] ?? 0;
    const fraction = msg.phase === 'Downloading' ? 0.8 * bytes : Math.max(start, 0.8 * bytes);
    fill.style.width = `${Math.round(100 * fraction)}%`;
    text.textContent = `${msg.phase} · ${mb(msg.loaded)} / ${mb(msg.total)} MB`;
    site.phase = msg.phase;
  }
  function showError(message) {
    overlay.classList.add('site-error');
    overlay.querySelector('.site-loading-title').textContent = 'The explorer could not start';
    text.textContent = message;
    site.errors.push(message);
  }

  // --- the worker and the document sync (as Panel's pyodide-worker handler) ------------------------
  const worker = new Worker(new URL(`static/worker.mjs?v=${manifest.version}`, base), { type: 'module' });
  let jsdoc = null, busy = false, queue = [], patching = 0;

  function sendChange(event) {
    if ((event.setter_id != null && event.setter_id === 'py') || patching > 0) return;
    if (busy && event.model && event.attr) {
      queue = queue.filter((old) => !(old.model === event.model && old.attr === event.attr));
      queue.push(event);
      return;
    }
    busy = true;
    worker.postMessage({ type: 'patch', patch: jsdoc.create_json_patch([event]) });
  }

  async function render(msg) {
    await domReady; // the deferred Bokeh and Panel scripts have run
    const docs_json = JSON.parse(msg.docs_json);
    const render_items = JSON.parse(msg.render_items);
    const root_ids = JSON.parse(msg.root_ids);
    const els = [...document.querySelectorAll('[data-root-id]')];
    const slots = els.map((el) => [el.getAttribute('data-root-id'), el.id]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    if (slots.length !== root_ids.length) {
      throw new Error(`the page has ${slots.length} slots but the app made ${root_ids.length} roots`);
    }
    const roots = {};
    root_ids.forEach((id, i) => { roots[id] = slots[i][1]; });
    render_items[0].roots = roots;
    render_items[0].root_ids = root_ids;
    for (const view of [...Bokeh.index.roots]) view.remove();
    for (const el of els) el.innerHTML = '';
    const [views] = await Bokeh.embed.embed_items(docs_json, render_items);
    if (snapshot) snapshot.remove();
    jsdoc = [...views.roots.values()][0].model.document;
    jsdoc.on_change(sendChange, false);
    worker.postMessage({ type: 'rendered' });
  }

  worker.onmessage = async (event) => {
    const msg = event.data;
    switch (msg.type) {
      case 'progress': showProgress(msg); break;
      case 'render':
        try { await render(msg); } catch (e) { showError(String(e)); }
        break;
      case 'ready':
        site.timings = { ...msg.timings, ready: Math.round(performance.now()) };
        site.ready = true;
        overlay.remove();
        document.documentElement.classList.add('site-ready');
        window.dispatchEvent(new CustomEvent('site-ready', { detail: site.timings }));
        break;
      case 'patch':
        patching += 1;
        try { jsdoc.apply_json_patch(msg.patch, msg.buffers); } finally { patching -= 1; }
        break;
      case 'idle':
        if (queue.length) {
          const patch = jsdoc.create_json_patch(queue);
          queue = [];
          worker.postMessage({ type: 'patch', patch });
        } else {
          busy = false;
        }
        break;
      case 'query':
        // The program and step shown, as a share query: the URL follows it, and so does the saved copy.
        if (`?${msg.query}` !== location.search) {
          history.replaceState(history.state, '', `${location.pathname}?${msg.query}${location.hash}`);
        }
        break;
      case 'log':
        site.logs.push(msg.text);
        (msg.error ? console.warn : console.log)(msg.text);
        break;
      case 'error': showError(msg.message); break;
    }
  };
  worker.onerror = (e) => showError(e.message || 'the Python worker failed to start');
  worker.postMessage({ type: 'init', manifest, base, query });

  // --- a faster second visit, and offline: the service worker keeps every file --------------------
  if ('serviceWorker' in navigator && location.protocol !== 'file:') {
    window.addEventListener('load', () => {
      navigator.serviceWorker.register('sw.js').catch((e) => console.warn('service worker:', e));
    });
  }
})();
