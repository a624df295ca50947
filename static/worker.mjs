// The Python side of the site: Pyodide, the packages and the app run here, off the page's thread.
//
// Messages (page -> worker):  init {manifest, base, query} · patch {patch}
//                             carry {carry}, the answer to carry?, and rendered {carry}: carry is null or
//                             {example, k, source, selected}, what the page shows while it steps without
//                             Python
// Messages (worker -> page):  progress {phase, loaded, total} · carry? · render {docs_json, render_items, root_ids}
//                             query {query: the share query of the program and step shown}
//                             ready {timings} · patch {patch, buffers} · idle · log {text} · error {message}
//
// Every file is fetched once, all at the same time, as soon as the worker starts (gzipped where the
// build made a .gz, inflated with the browser's DecompressionStream), and checked against the sha256 in
// the build's manifest. Pyodide's own fetches are answered from these downloads.

const T0 = performance.now();
const timings = {};
const mark = (name) => { timings[name] = Math.round(performance.now() - T0); };

let manifest, base, pyodide, boot;
let carried = null; // resolves the page's answer to 'carry?' 
const originalFetch = globalThis.fetch.bind(globalThis);
const downloads = new Map(); // absolute URL (no query) -> Promise<ArrayBuffer | Response>
let loaded = 0, total = 0, phase = 'Downloading';

function progress(next) {
  if (next) phase = next;
  self.postMessage({ type: 'progress', phase, loaded, total });
}

let lastReport = 0;
function counted(stream) {
  return stream.pipeThrough(new TransformStream({
    transform(chunk, controller) {
      loaded += chunk.byteLength;
      const now = performance.now();
      if (now - lastReport > 50) { lastReport = now; progress(); }
      controller.enqueue(chunk);
    },
  }));
}

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function fileURL(rel) {
  const entry = manifest.files[rel];
  return new URL(`${rel}${entry.gz ? '.gz' : ''}?v=${entry.sha256.slice(0, 12)}`, base).href;
}

// Everything downloaded is also kept in the service worker's cache, so a second visit reads it from there.
let store = null;
async function cacheStore() {
  if (store === null) {
    store = ('caches' in self ? caches.open(`autograd-explorer-${manifest.version}`) : Promise.resolve(undefined))
      .catch(() => undefined);
  }
  return store;
}

async function openStream(rel) {
  const entry = manifest.files[rel];
  const url = fileURL(rel);
  const response = await originalFetch(url);
  if (!response.ok) throw new Error(`could not load ${rel}: HTTP ${response.status}`);
  const cache = await cacheStore();
  if (cache) {
    const copy = response.clone();
    cache.match(url).then((hit) => (hit ? copy.body.cancel() : cache.put(url, copy))).catch(() => {});
  }
  let stream = counted(response.body);
  if (entry.gz) stream = stream.pipeThrough(new DecompressionStream('gzip'));
  return stream;
}

async function download(rel) {
  const entry = manifest.files[rel];
  const buffer = await new Response(await openStream(rel)).arrayBuffer();
  const digest = hex(await crypto.subtle.digest('SHA-256', buffer));
  if (digest !== entry.sha256) throw new Error(`${rel} is damaged (sha256 ${digest}, expected ${entry.sha256})`);
  return buffer;
}

const TYPES = { wasm: 'application/wasm', json: 'application/json', js: 'text/javascript', mjs: 'text/javascript' };

function prefetch() {
  // pyodide.asm.js and the wasm come first, alone: on a slow link or a busy server they are the critical
  // path (Python starts while the rest downloads). The others start as soon as pyodide.asm.js is in.
  let first = null;
  manifest.preload.forEach((rel, i) => {
    const entry = manifest.files[rel];
    total += entry.gz || entry.size;
    const url = new URL(rel, base).href;
    const gate = i < 2 || first === null ? Promise.resolve() : first.catch(() => {});
    let job;
    if (rel.endsWith('.wasm')) {
      // Compiled while it streams in: hand Pyodide the live stream.
      job = gate.then(() => openStream(rel)).then((s) => new Response(s, { headers: { 'Content-Type': TYPES.wasm } }));
    } else {
      job = gate.then(() => download(rel));
    }
    if (i === 0) first = job;
    downloads.set(url, job);
  });
  for (const p of downloads.values()) p.catch(() => {});
  Promise.allSettled([...downloads.values()]).then(() => mark('downloaded'));
}

// Pyodide fetches the wasm, the standard library, the lock and every wheel: answer from the downloads.
globalThis.fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input), base);
  const key = url.origin + url.pathname;
  if (downloads.has(key)) {
    const got = await downloads.get(key);
    downloads.delete(key);
    if (got instanceof Response) return got;
    const ext = key.split('.').pop();
    return new Response(got, { headers: { 'Content-Type': TYPES[ext] || 'application/octet-stream' } });
  }
  return originalFetch(input, init);
};

async function start(msg) {
  manifest = msg.manifest;
  base = msg.base;
  prefetch();
  progress('Downloading');

  // pyodide.asm.js defines _createPyodideModule; loading it ourselves lets it come gzipped.
  const asmURL = new URL('pyodide/pyodide.asm.js', base).href;
  const asm = await downloads.get(asmURL);
  downloads.delete(asmURL);
  const blobURL = URL.createObjectURL(new Blob([asm], { type: 'text/javascript' }));
  await import(blobURL);
  URL.revokeObjectURL(blobURL);
  mark('asm_js');

  const { loadPyodide } = await import(new URL(`pyodide/pyodide.mjs?v=${manifest.files['pyodide/pyodide.mjs'].sha256.slice(0, 12)}`, base).href);
  pyodide = await loadPyodide({
    indexURL: new URL('pyodide/', base).href,
    env: { PANEL_CDN_ROOT: new URL(manifest.panel_cdn_root, base).href },
    stdout: (text) => self.postMessage({ type: 'log', text }),
    stderr: (text) => self.postMessage({ type: 'log', text, error: true }),
  });
  mark('pyodide');
  progress('Installing packages');
  // Wheels with compiled modules go through Pyodide's installer (it preloads their shared libraries);
  // pure ones are stored uncompressed, so copying their files into site-packages is all there is to do.
  const compiled = manifest.packages.filter((name) => !manifest.pure.includes(name));
  const installing = pyodide.loadPackage(compiled, { messageCallback: () => {}, checkIntegrity: false });
  for (const name of manifest.pure) {
    const url = new URL(`pyodide/${manifest.wheels[name]}`, base).href;
    const buffer = await downloads.get(url);
    downloads.delete(url);
    unpack(pyodide.FS, buffer, manifest.site_packages);
  }
  await installing;
  pyodide.runPython('import importlib; importlib.invalidate_caches()');
  mark('packages');

  progress('Starting the app');
  const bootURL = new URL('static/boot.py', base).href;
  const source = new TextDecoder().decode(await downloads.get(bootURL));
  downloads.delete(bootURL);
  const ns = pyodide.globals.get('dict')();
  pyodide.runPython(source, { globals: ns, filename: 'boot.py' });
  boot = ns;
  mark('boot');
  const postQuery = (query) => self.postMessage({ type: 'query', query });
  // Where the page got to while it stepped without Python: the page is built there.
  const carry = await new Promise((resolve) => {
    carried = resolve;
    self.postMessage({ type: 'carry?' });
  });
  const result = await ns.get('render')(JSON.stringify(msg.query), postQuery,
    carry ? JSON.stringify(carry) : null);
  const [docs_json, render_items, root_ids, imported] = result.toJs();
  result.destroy();
  timings.import = imported;
  mark('render');
  self.postMessage({ type: 'render', docs_json, render_items, root_ids });
}

// Extract a stored (uncompressed) zip into the Emscripten file system.
function unpack(FS, buffer, target) {
  const view = new DataView(buffer);
  let end = buffer.byteLength - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('not a zip file');
  const count = view.getUint16(end + 10, true);
  let p = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  const made = new Set();
  for (let i = 0; i < count; i += 1) {
    const method = view.getUint16(p + 10, true);
    const size = view.getUint32(p + 20, true);
    const nameLength = view.getUint16(p + 28, true);
    const skip = nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
    const local = view.getUint32(p + 42, true);
    const name = decoder.decode(new Uint8Array(buffer, p + 46, nameLength));
    p += 46 + skip;
    if (name.endsWith('/')) continue;
    if (method !== 0) throw new Error(`${name} is compressed in its wheel`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const path = `${target}/${name}`;
    const dir = path.slice(0, path.lastIndexOf('/'));
    if (!made.has(dir)) { FS.mkdirTree(dir); made.add(dir); }
    FS.writeFile(path, new Uint8Array(buffer, start, size));
  }
}

function sendPatch(patch, buffers) {
  self.postMessage({ type: 'patch', patch, buffers });
}

self.onmessage = async (event) => {
  const msg = event.data;
  try {
    if (msg.type === 'init') {
      await start(msg);
    } else if (msg.type === 'rendered') {
      boot.get('link')(sendPatch);
      if (msg.carry) {
        try {
          boot.get('carry_over')(JSON.stringify(msg.carry));
        } catch (err) { // the live app works anyway, at the step it was built at
          self.postMessage({ type: 'log', text: `could not carry the step over: ${err}`, error: true });
        }
      }
      mark('linked');
      timings.heap = pyodide._module.HEAPU8.length;
      self.postMessage({ type: 'ready', timings });
    } else if (msg.type === 'carry') {
      if (carried) carried(msg.carry);
      carried = null;
    } else if (msg.type === 'patch') {
      try {
        await boot.get('apply_patch')(msg.patch);
      } finally {
        self.postMessage({ type: 'idle' });
      }
    }
  } catch (err) {
    self.postMessage({ type: 'error', message: String(err && err.message ? err.message : err) });
    throw err;
  }
};
