// The page side of the site. The page shows a prerendered view of the default example at once (rendered by
// build.py), while a Web Worker (static/worker.mjs) loads Pyodide and the app. As soon as BokehJS has run,
// the example's recorded document (its prelude) replaces the picture and steps without Python;
// then the live document replaces it at the step reached, and every change is sent both ways (Panel's
// worker protocol). site.interactive / site.ready: when each came (ms since navigation).
(() => {
  'use strict';
  const manifest = window.SITE_MANIFEST;
  const base = new URL('.', document.baseURI).href;
  const STORE = 'autograd-explorer:query';
  const site = (window.site = {
    ready: false, errors: [], logs: [], timings: {}, prerendered: null, interactive: null, wall: null,
  });

  // The first paint is a snapshot of the default page (taken by build.py), shown until a document (the
  // prelude's, or the live app's) replaces it. site.prerendered: when it is on screen (ms since navigation start), for the benchmark and tests.
  const snapshot = document.getElementById('site-snapshot');
  if (snapshot) {
    const shown = () => requestAnimationFrame(() => { site.prerendered = Math.round(performance.now()); });
    if (snapshot.complete) shown(); else snapshot.addEventListener('load', shown, { once: true });
  }
  // A file of the site, inflated when build.py gzipped it; a copy goes to the service worker's cache, which
  // controls the next visit only.
  const pageCache = 'caches' in window
    ? caches.open(`autograd-explorer-${manifest.version}`).catch(() => null) : Promise.resolve(null);
  async function fetchFile(rel) {
    const entry = manifest.files[rel];
    const url = `${rel}${entry.gz ? '.gz' : ''}?v=${entry.sha256.slice(0, 12)}`;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`could not load ${rel}: HTTP ${response.status}`);
    const cache = await pageCache;
    if (cache) cache.put(url, response.clone()).catch(() => {});
    return new Response(entry.gz ? response.body.pipeThrough(new DecompressionStream('gzip')) : response.body);
  }
  // BokehJS, Panel's bundle and Ace (build.py took them out of the page), run in order.
  const scriptsLoaded = (async () => {
    const texts = await Promise.all(manifest.page_scripts.map(async (rel) => (await fetchFile(rel)).text()));
    manifest.page_scripts.forEach((rel, i) => {
      const script = document.createElement('script');
      script.text = texts[i];
      document.head.appendChild(script);
      // Ace finds the files it loads later (the editor's Python mode) beside its own <script src>, which an
      // inline script has not: it is told where they are.
      if (rel.endsWith('/ace.js') && window.ace) ace.config.set('basePath', new URL(rel.slice(0, rel.lastIndexOf('/') + 1), base).href);
    });
    window.dispatchEvent(new Event('site-scripts'));
  })();
  scriptsLoaded.catch((e) => showError(String(e)));
  const domReady = Promise.all([scriptsLoaded, new Promise((resolve) => {
    if (document.readyState !== 'loading') resolve(); else document.addEventListener('DOMContentLoaded', resolve);
  })]);

  // --- the program and step survive a reload -------------------------------------------------------
  // The URL's query follows the program and step shown (?example= / ?code= / &step=, reported by the worker);
  // the last one is remembered and restored when the site is opened with no query at all.
  const KEYS = ['example', 'code', 'lesson', 'step'];
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

  // --- steps before Python: the prelude -----------------------------------------------------------
  // For each example (but the longest), build.py recorded the page's document and, for every step, the
  // patches that move it there (app/site/prelude.py). The page shows that document as soon as BokehJS runs and
  // steps it itself (keys, player, slider, backward-call buttons; another example from the menu) until
  // Python takes over where the learner got to.
  async function loadPrelude(slug, lesson = false) {
    const rel = (lesson ? manifest.lesson_preludes || {} : manifest.preludes || {})[slug];
    return rel ? (await fetchFile(rel)).json() : null;
  }
  // A learner's link (?code=) has no prelude from the build: after a visit, Python records one in the page's
  // cache (app.site.hooks.link_prelude), under the program's hash, and the next visit of the link steps at once.
  async function linkPreludeRequest(code) {
    if (!crypto.subtle) return null; // not a secure context: no hash, nothing kept
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code)));
    const hex = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
    return new Request(new URL(`static/prelude/link-${hex}.json`, base).href);
  }
  const linkCache = query.code ? Promise.all([pageCache, linkPreludeRequest(query.code)]) : null;
  async function cachedLinkPrelude() {
    const [cache, request] = await linkCache;
    const hit = cache && request ? await cache.match(request) : null;
    return hit ? hit.json() : null;
  }
  async function keepLinkPrelude(json) {
    const [cache, request] = await linkCache;
    if (cache && request) await cache.put(request, new Response(json, { headers: { 'Content-Type': 'application/json' } }));
    site.linkPrelude = 'kept';
  }
  // A lesson (?lesson=) steps its own prelude (build.py records every lesson's), never the default example's: that
  // would be the wrong program, and stepping it would be carried over into the page Python builds.
  const preludeLoaded = (query.code ? cachedLinkPrelude()
    : query.lesson ? loadPrelude(query.lesson, true) : loadPrelude(query.example || manifest.default_example))
    .catch((e) => { console.warn('prelude:', e); return null; });
  preludeLoaded.then((prelude) => {
    site.linkPrelude = query.code ? (prelude ? 'shown' : 'none') : null;
    if (query.code && !prelude) showLinkCode(query.code);
    else if (query.lesson && !query.code && !prelude) showLessonComing(query.lesson);
  });

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
  const note = overlay.querySelector('.site-loading-note');
  const text = overlay.querySelector('.site-loading-text');
  const PHASES = { 'Downloading': 0, 'Installing packages': 0.8, 'Starting the app': 0.9 };
  const mb = (n) => (n / 1e6).toFixed(1);
  // A link's program with no recorded steps yet: its own code at once (not the default example's snapshot), and
  // that its graph is coming. A link that does not decode is left to Python, which says what is wrong with it.
  function showLinkCode(code) {
    let source;
    try {
      const bytes = Uint8Array.from(atob(code.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
      source = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch (e) { return; }
    if (snapshot) snapshot.style.visibility = 'hidden';
    overlay.classList.add('site-link');
    overlay.querySelector('.site-loading-title').textContent = 'The program of this link';
    const pre = document.createElement('pre');
    pre.className = 'site-link-code';
    pre.textContent = source;
    overlay.querySelector('.site-loading-card').prepend(pre);
    note.textContent = 'Its graph is coming: Python is starting in your browser and then runs it (a few seconds).';
    site.linkCode = true;
  }
  function showLessonComing(slug) {
    if (snapshot) snapshot.style.visibility = 'hidden';
    overlay.querySelector('.site-loading-title').textContent = `The lesson “${slug}”`;
    note.textContent = 'It opens once Python has started in your browser and run its code (a few seconds).';
    site.lessonComing = true;
  }
  if (query.example && !query.code && manifest.examples && !manifest.examples.includes(query.example)) {
    overlay.querySelector('.site-loading-title').textContent = `No example is called “${query.example}”`;
    note.textContent = 'The default example is shown instead; the menu lists the examples.';
    site.unknownExample = true;
  }
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

  // A change made with {sync: false} (the camera's glide: nothing in Python reads the view's ranges) stays here.
  function sendChange(event) {
    if ((event.setter_id != null && event.setter_id === 'py') || patching > 0 || event.sync === false) return;
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
    live = true;
    await serially(async () => {
      const carry = carryOver();
      still = null;
      // The view the learner had (zoomed, or where the camera glided) is the live page's first view too.
      const keepView = (doc) => {
        const ranges = carry && carry.view && graphRanges(doc);
        if (ranges) {
          ranges[0].setv({ start: carry.view[0], end: carry.view[1] });
          ranges[1].setv({ start: carry.view[2], end: carry.view[3] });
        }
      };
      jsdoc = await embed(JSON.parse(msg.docs_json), JSON.parse(msg.render_items), JSON.parse(msg.root_ids), keepView);
      jsdoc.on_change(sendChange, false);
      worker.postMessage({ type: 'rendered', carry });
    });
  }

  // One document is embedded at a time; once Python's has been asked for, no prelude is shown any more.
  let live = false, embedding = Promise.resolve();
  function serially(job) {
    const run = embedding.then(job);
    embedding = run.catch(() => {});
    return run;
  }

  // Shows a document in the page's root slots, in place of the snapshot or of the document shown before. The new
  // one is built out of sight, in slots of its own laid out as the page's, and takes the old one's place in one go
  // once BokehJS has painted it: no frame shows neither.
  let embeds = 0;
  async function embed(docs_json, render_items, root_ids, before = () => {}) {
    const slots = [...document.querySelectorAll('[data-root-id]')]
      .sort((a, b) => (a.getAttribute('data-root-id') < b.getAttribute('data-root-id') ? -1 : 1));
    if (slots.length !== root_ids.length) {
      throw new Error(`the page has ${slots.length} slots but the app made ${root_ids.length} roots`);
    }
    const stage = document.createElement('div');
    stage.style.cssText = 'position: fixed; inset: 0; visibility: hidden; pointer-events: none; overflow: hidden';
    embeds += 1;
    const fresh = slots.map((old) => {
      const slot = document.createElement('div');
      slot.id = `${old.id.split('~')[0]}~${embeds}`;
      slot.style.display = 'contents';
      stage.appendChild(slot);
      return slot;
    });
    document.body.appendChild(stage);
    const roots = {};
    root_ids.forEach((id, i) => { roots[id] = fresh[i].id; });
    render_items[0].roots = roots;
    render_items[0].root_ids = root_ids;
    const shown = [...Bokeh.index.roots];
    let views;
    try {
      [views] = await Bokeh.embed.embed_items(docs_json, render_items);
      const doc = [...views.roots.values()][0].model.document;
      before(doc);
      const built = [...views.roots.values()];
      for (let frames = 0; frames < 60 && !built.every((view) => view.is_idle); frames++) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    } catch (e) {
      stage.remove();
      throw e;
    }
    for (const view of shown) view.remove();
    slots.forEach((old, i) => {
      fresh[i].setAttribute('data-root-id', root_ids[i]);
      old.replaceWith(fresh[i]);
    });
    stage.remove();
    if (snapshot) snapshot.remove();
    return [...views.roots.values()][0].model.document;
  }

  // The graph's figure (the plot whose glyphs draw the nodes, keyed), as [x_range, y_range], or null.
  function graphRanges(doc) {
    for (const model of doc.all_models) {
      const keyed = (r) => r.data_source && r.data_source.data && r.data_source.data.key;
      if (model.x_range && Array.isArray(model.renderers) && model.renderers.some(keyed)) {
        return [model.x_range, model.y_range];
      }
    }
    return null;
  }

  // --- stepping with the prelude while Python starts ------------------------------------------------
  let still = null; // {prelude, k, selected, taps} while a prelude's document is the one shown

  function stepOf(prelude, step) {
    return step === undefined ? prelude.k : step === 'end' ? prelude.last
      : /^\d+$/.test(step) ? Number(step) - 1 : null; // step=n is the counter's n: n events happened
  }

  async function showPrelude(prelude, step) {
    if (!prelude || step === null) return; // no prelude, or a malformed step: Python explains it
    await domReady;
    await serially(async () => {
      if (live) return;
      still = null;
      jsdoc = await embed(prelude.docs_json, prelude.render_items, prelude.root_ids);
      // The graph's node sources, by the id of their selection (which a click on a node changes).
      const sources = [prelude.ids.boxes, prelude.ids.sinks].map((id) => jsdoc.get_model_by_id(id));
      const taps = new Map(sources.map((source) => [source.selected.id, source]));
      still = { prelude, k: prelude.k, selected: null, taps };
      stillGoto(step);
      jsdoc.on_change(stillChange, false);
    });
    if (!still) return;
    overlay.classList.add('site-still');
    const what = prelude.lesson ? 'this lesson, block by block,'
      : prelude.example ? 'the examples and click their nodes' : 'this program and click its nodes';
    note.textContent = `You can step through ${what} now; running code and the builder start once Python is ready.`;
    site.interactive = site.interactive || Math.round(performance.now());
  }

  async function switchExample(slug) {
    const prelude = slug ? await loadPrelude(slug).catch(() => null) : null;
    if (!prelude) return nudge();
    await showPrelude(prelude, prelude.k);
    if (still) history.replaceState(history.state, '', `${location.pathname}?example=${slug}${location.hash}`);
  }

  // What the page shows while it steps without Python, for Python to build its page there and to go on
  // from there once it is shown (the editor's text is kept, not run).
  function carryOver() {
    if (!still) return null;
    const ranges = graphRanges(jsdoc);
    const player = jsdoc.get_model_by_id(still.prelude.ids.player);
    return { example: still.prelude.example, lesson: still.prelude.lesson, k: still.k, source: editorText(), selected: still.selected,
             predicting: predicting(), playing: player ? player.direction : 0, run: Boolean(still.run),
             view: ranges && [ranges[0].start, ranges[0].end, ranges[1].start, ranges[1].end] };
  }

  // Run pressed before Python: the program in the editor runs as soon as Python has started (carried over).
  function queueRun() {
    still.run = true;
    const run = still.prelude.ids.run && jsdoc.get_model_by_id(still.prelude.ids.run);
    if (run) {
      patching += 1;
      try { run.label = 'Queued…'; } finally { patching -= 1; }
    }
    note.textContent = 'Run: your program runs as soon as Python has started.';
    site.queued = true;
  }

  function holdForPython() {
    note.textContent = 'The next step asks for your prediction: Python checks it, and it is still starting. '
      + 'The step waits for it.';
    nudge();
  }

  function nudge() {
    overlay.classList.remove('site-nudge');
    void overlay.offsetWidth; // restart the animation
    overlay.classList.add('site-nudge');
  }

  // The predict-then-reveal toggle, ticked before Python: the mode is on once Python runs the page.
  function predicting() {
    const toggle = still && jsdoc.get_model_by_id(still.prelude.ids.predict);
    return Boolean(toggle && toggle.active);
  }

  function editorText() {
    const editor = still && jsdoc.get_model_by_id(still.prelude.ids.editor);
    return editor ? editor.code : null;
  }

  function stillGoto(target) {
    const { prelude } = still;
    target = Math.max(-1, Math.min(Math.round(target), prelude.last));
    // Predict-then-reveal ticked: no step that asks for a prediction is shown before Python can ask and judge
    // it; the page stops just before it and says that Python is coming.
    const ask = predicting() && (prelude.asks || []).find((at) => at > still.k && at <= target);
    if (ask !== undefined && ask !== false) {
      stillGoto(ask - 1);
      // The player, moved past it by the learner, goes back (after the change that moved it is handled).
      const player = jsdoc.get_model_by_id(prelude.ids.player);
      setTimeout(() => { if (still && player && player.value !== still.k) player.value = still.k; });
      return holdForPython();
    }
    if (target === still.k) return;
    patching += 1;
    try {
      const selected = still.selected;
      if (selected) stillSelect(null);
      while (still.k < target) {
        jsdoc.apply_json_patch(structuredClone(prelude.forward[still.k + 1]));
        still.k += 1;
      }
      while (still.k > target) {
        jsdoc.apply_json_patch(structuredClone(prelude.backward[still.k]));
        still.k -= 1;
      }
      if (selected) stillSelect(selected);
    } finally {
      patching -= 1;
    }
  }

  // The node shown in the inspector (null: none), with the patches recorded for a click on it at this step.
  function stillSelect(key) {
    const at = still.prelude.select[still.k + 1];
    patching += 1;
    try {
      if (still.selected) jsdoc.apply_json_patch(structuredClone(at[still.selected][1]));
      if (key) jsdoc.apply_json_patch(structuredClone(at[key][0]));
      still.selected = key;
    } finally {
      patching -= 1;
    }
  }

  // A click on a node of the graph (Bokeh's tap selects its row; Python empties the selection again).
  function stillTap(source, indices) {
    if (!indices.length) return;
    const key = source.data.key[indices[0]];
    patching += 1;
    try { source.selected.indices = []; } finally { patching -= 1; }
    if (!still.prelude.select) return nudge(); // a program too big to record every click: Python shows it
    if (still.prelude.tappable[still.k + 1].includes(key)) stillSelect(key);
  }

  // The page's own changes while the prelude is shown: steps are answered here, the rest waits for Python.
  function stillChange(event) {
    if (patching > 0 || !still) return;
    const { ids } = still.prelude;
    const id = event.model && event.model.id;
    if (id === ids.player && event.attr === 'value') return stillGoto(event.model.value);
    if (id === ids.player && event.attr === 'value_throttled') return;
    if (id === ids.keys && (event.attr === 'left' || event.attr === 'right')) {
      return stillGoto(still.k + (event.attr === 'right' ? 1 : -1));
    }
    const name = event.msg_type === 'bokeh_event' && event.msg_data ? event.msg_data.event_name : null;
    const clicked = name === 'button_click' && event.msg_data.origin ? event.msg_data.origin.id : null;
    if (clicked === ids.next_call) return stillGoto(still.prelude.next_call[still.k + 1]);
    if (clicked === ids.prev_call) return stillGoto(still.prelude.prev_call[still.k + 1]);
    if (clicked && clicked === ids.next_block && still.prelude.next_block) {
      return stillGoto(still.prelude.next_block[still.k + 1]);
    }
    if (clicked && clicked === ids.prev_block && still.prelude.prev_block) {
      return stillGoto(still.prelude.prev_block[still.k + 1]);
    }
    if (clicked && clicked === ids.run) return queueRun();
    if (id === ids.editor) return; // typing is kept and handed to Python
    const tapped = event.attr === 'indices' && still.taps.get(id);
    if (tapped) return stillTap(tapped, event.model.indices);
    if (id === ids.examples && event.attr === 'value') {
      return switchExample(event.model.value); // the menu's values are the examples' slugs
    }
    // Anything else the learner does (Run, the canvas builder's `action`, a node) needs Python: say it is coming.
    if (['button_click', 'tap', 'menu_item_click'].includes(name) || ['value', 'indices', 'action'].includes(event.attr)) {
      nudge();
    }
  }

  // The program and step shown, as a share query: the URL follows it, and so does the saved copy. Writing them
  // costs the page's thread and the browser's a few ms: it is done once the steps pause (a key held, the player).
  const QUERY_CALM_MS = 250;
  let pendingQuery = null, queryTimer = null;
  window.addEventListener('pagehide', () => followQuery()); // a reload right after a step keeps that step
  function followSoon() {
    clearTimeout(queryTimer);
    queryTimer = setTimeout(followQuery, QUERY_CALM_MS);
  }
  function followQuery() {
    clearTimeout(queryTimer);
    const query = pendingQuery;
    pendingQuery = null;
    if (query !== null && `?${query}` !== location.search) {
      history.replaceState(history.state, '', `${location.pathname}?${query}${location.hash}`);
    }
  }

  worker.onmessage = async (event) => {
    const msg = event.data;
    switch (msg.type) {
      case 'progress': showProgress(msg); break;
      case 'carry?': worker.postMessage({ type: 'carry', carry: carryOver() }); break;
      case 'render':
        try { await render(msg); } catch (e) { showError(String(e)); }
        break;
      case 'ready':
        site.timings = { ...msg.timings, ready: Math.round(performance.now()) };
        site.ready = true;
        overlay.remove();
        document.documentElement.classList.add('site-ready');
        window.dispatchEvent(new CustomEvent('site-ready', { detail: site.timings }));
        if (site.linkPrelude === 'none') worker.postMessage({ type: 'record', query });
        break;
      case 'prelude': keepLinkPrelude(msg.json).catch((e) => console.warn('prelude:', e)); break;
      case 'patch':
        patching += 1;
        try { jsdoc.apply_json_patch(msg.patch, msg.buffers); } finally { patching -= 1; }
        break;
      case 'idle':
        if (pendingQuery !== null) followSoon();
        if (queue.length) {
          const patch = jsdoc.create_json_patch(queue);
          queue = [];
          worker.postMessage({ type: 'patch', patch });
        } else {
          busy = false;
        }
        break;
      case 'query':
        pendingQuery = msg.query;
        followSoon();
        break;
      case 'log':
        site.logs.push(msg.text);
        (msg.error ? console.warn : console.log)(msg.text);
        break;
      case 'wall': site.wall = { runs: msg.runs, stopped: msg.stopped, why: msg.why }; break;
      case 'error': showError(msg.message); break;
    }
  };
  worker.onerror = (e) => showError(e.message || 'the Python worker failed to start');
  // Python starts once the prelude is on screen: on two cores, compiling Pyodide's wasm beside the page's
  // first render slows both, and Python gets no slower for starting a second later.
  preludeLoaded.then((prelude) => prelude && showPrelude(prelude, stepOf(prelude, query.step)))
    .catch((e) => console.warn('prelude:', e))
    .then(() => worker.postMessage({ type: 'init', manifest, base, query, programSeconds: window.SITE_PROGRAM_SECONDS,
      // The program worker's test-only entry (static/wall.mjs): set only by a test, before the page's scripts.
      unguarded: window.SITE_TEST_UNGUARDED === true }));

  // --- a faster second visit, and offline: the service worker keeps every file --------------------
  if ('serviceWorker' in navigator && location.protocol !== 'file:') {
    window.addEventListener('load', () => {
      navigator.serviceWorker.register('sw.js').catch((e) => console.warn('service worker:', e));
    });
  }
})();
