// Pyodide started from the site's own files, in a Web Worker: the app's worker (static/worker.mjs) and the
// program worker (static/program.mjs) both start it this way, each with the packages it needs.
//
// Every file is fetched once, all at the same time, as soon as the worker starts (gzipped where the
// build made a .gz, inflated with the browser's DecompressionStream), and checked against the sha256 in
// the build's manifest. Pyodide's own fetches are answered from these downloads.

const TYPES = { wasm: 'application/wasm', json: 'application/json', js: 'text/javascript', mjs: 'text/javascript' };

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// files: the manifest's paths to download (in the order they are needed), pyodide.asm.js and the wasm first.
// packages: the wheels to install. progress(phase, loaded, total) is told how it goes.
// share {files, to}: to() is called at once with {module: Promise<WebAssembly.Module>, files: Promise<{rel:
//   ArrayBuffer}>} for share.files: what another worker needs to start from this one's downloads and wasm.
// shared: what share() gave (the program worker): those files are not downloaded, the wasm not compiled.
export async function startPython({ manifest, base, files, packages, env = {}, stdout, stderr, progress, mark,
  share, shared }) {
  const originalFetch = globalThis.fetch.bind(globalThis);
  const downloads = new Map(); // absolute URL (no query) -> Promise<ArrayBuffer | Response>
  let loaded = 0, total = 0, phase = 'Downloading', lastReport = 0;
  const report = (next) => {
    if (next) phase = next;
    if (progress) progress(phase, loaded, total);
  };

  function counted(stream) {
    return stream.pipeThrough(new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        const now = performance.now();
        if (now - lastReport > 50) { lastReport = now; report(); }
        controller.enqueue(chunk);
      },
    }));
  }

  function fileURL(rel) {
    const entry = manifest.files[rel];
    return new URL(`${rel}${entry.gz ? '.gz' : ''}?v=${entry.sha256.slice(0, 12)}`, base).href;
  }

  // Everything downloaded is also kept in the service worker's cache, so a second visit reads it from there.
  const store = ('caches' in self ? caches.open(`autograd-explorer-${manifest.version}`) : Promise.resolve(undefined))
    .catch(() => undefined);

  async function openStream(rel, keep = true) {
    const entry = manifest.files[rel];
    const url = fileURL(rel);
    const response = await originalFetch(url);
    if (!response.ok) throw new Error(`could not load ${rel}: HTTP ${response.status}`);
    const cache = keep && await store;
    if (cache) {
      const copy = response.clone();
      cache.match(url).then((hit) => (hit ? copy.body.cancel() : cache.put(url, copy))).catch(() => {});
    }
    let stream = counted(response.body);
    if (entry.gz) stream = stream.pipeThrough(new DecompressionStream('gzip'));
    return stream;
  }

  async function checked(rel, buffer) {
    const entry = manifest.files[rel];
    const digest = hex(await crypto.subtle.digest('SHA-256', buffer));
    if (digest !== entry.sha256) throw new Error(`${rel} is damaged (sha256 ${digest}, expected ${entry.sha256})`);
    return buffer;
  }

  async function download(rel, keep = true) {
    return checked(rel, await new Response(await openStream(rel, keep)).arrayBuffer());
  }

  // The wasm is compiled from a Response of the cache (its inflated copy, stored under the plain file's URL):
  // Chromium compiles only such a Response, one with a URL, into V8's wasm code cache, so a later visit
  // takes the compiled code instead of compiling it again. A copy taken from the cache is checked too
  // (beside the compile; wasmChecks fail the start if it is damaged, and the copy is dropped). With no cache
  // (no Cache Storage), it is compiled as it streams in, as before.
  const wasmChecks = [];
  async function wasmResponse(rel, after) {
    const entry = manifest.files[rel];
    const key = new URL(`${rel}?v=${entry.sha256.slice(0, 12)}`, base).href;
    const cache = await store;
    if (!cache) return new Response(await openStream(rel), { headers: { 'Content-Type': TYPES.wasm } });
    const hit = await cache.match(key).catch(() => undefined);
    if (hit) {
      total -= entry.gz || entry.size; // nothing to download
      wasmChecks.push(hit.clone().arrayBuffer().then((buffer) => checked(rel, buffer))
        .catch((err) => cache.delete(key).then(() => { throw err; })));
    } else {
      await after; // pyodide.asm.js is needed first: the wasm does not compete with its download
      const buffer = await download(rel, false);
      const stored = await cache.put(key, new Response(buffer, { headers: { 'Content-Type': TYPES.wasm } }))
        .then(() => cache.match(key), () => undefined);
      return stored || new Response(buffer, { headers: { 'Content-Type': TYPES.wasm } });
    }
    return hit;
  }

  // pyodide.asm.js and the wasm come first (the wasm once pyodide.asm.js is in): on a slow link or a busy
  // server they are the critical path (Python starts while the rest downloads). The others start as soon as
  // pyodide.asm.js is in.
  let first = null;
  const given = shared ? Object.keys(shared.files) : [];
  for (const rel of given) downloads.set(new URL(rel, base).href, Promise.resolve(shared.files[rel]));
  if (shared) {
    // Pyodide instantiates its wasm with instantiateStreaming(response, imports): the module is compiled already.
    downloads.set(new URL('pyodide/pyodide.asm.wasm', base).href, Promise.resolve(new Response(new ArrayBuffer(0))));
    WebAssembly.instantiateStreaming = async (response, imports) => ({
      module: shared.module, instance: await WebAssembly.instantiate(shared.module, imports),
    });
  }
  files.filter((rel) => !given.includes(rel) && !(shared && rel.endsWith('.wasm'))).forEach((rel, i) => {
    const entry = manifest.files[rel];
    total += entry.gz || entry.size;
    const url = new URL(rel, base).href;
    const gate = i < 2 || first === null ? Promise.resolve() : first.catch(() => {});
    let job;
    if (rel.endsWith('.wasm')) {
      job = gate.then(() => wasmResponse(rel, first && first.catch(() => {})));
    } else {
      job = gate.then(() => download(rel));
    }
    if (i === 0) first = job;
    downloads.set(url, job);
  });
  for (const p of downloads.values()) p.catch(() => {});
  if (share) {
    const native = WebAssembly.instantiateStreaming;
    let compiled;
    const module = new Promise((resolve) => { compiled = resolve; });
    WebAssembly.instantiateStreaming = async (response, imports) => {
      const asked = performance.now();
      const result = await native(response, imports);
      if (mark) { mark('wasm'); mark('wasm_compile', performance.now() - asked); }
      compiled(result.module);
      return result;
    };
    const kept = share.files.filter((rel) => !rel.endsWith('.wasm'));
    const buffers = Promise.all(kept.map((rel) => downloads.get(new URL(rel, base).href)))
      .then((got) => Object.fromEntries(kept.map((rel, i) => [rel, got[i]])));
    share.to({ module, files: buffers });
  }
  Promise.allSettled([...downloads.values()]).then(() => mark && mark('downloaded'));
  const take = async (url) => {
    const got = await downloads.get(url);
    downloads.delete(url);
    return got;
  };

  // Pyodide fetches the wasm, the standard library, the lock and every wheel: answer from the downloads.
  globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), base);
    const key = url.origin + url.pathname;
    if (downloads.has(key)) {
      const got = await take(key);
      if (got instanceof Response) return got;
      const ext = key.split('.').pop();
      return new Response(got, { headers: { 'Content-Type': TYPES[ext] || 'application/octet-stream' } });
    }
    return originalFetch(input, init);
  };
  report('Downloading');

  // pyodide.asm.js defines _createPyodideModule; loading it ourselves lets it come gzipped.
  const asm = await take(new URL('pyodide/pyodide.asm.js', base).href);
  const blobURL = URL.createObjectURL(new Blob([asm], { type: 'text/javascript' }));
  await import(blobURL);
  URL.revokeObjectURL(blobURL);
  if (mark) mark('asm_js');

  const { loadPyodide } = await import(new URL(`pyodide/pyodide.mjs?v=${manifest.files['pyodide/pyodide.mjs'].sha256.slice(0, 12)}`, base).href);
  let pyodide;
  try {
    pyodide = await loadPyodide({ indexURL: new URL('pyodide/', base).href, env, stdout, stderr });
  } finally {
    await Promise.all(wasmChecks); // a damaged copy of the wasm says so, whatever its compile did
  }
  if (mark) mark('pyodide');
  report('Installing packages');
  // Wheels with compiled modules go through Pyodide's installer (it preloads their shared libraries);
  // pure ones are stored uncompressed, so copying their files into site-packages is all there is to do.
  const compiled = packages.filter((name) => !manifest.pure.includes(name));
  const installing = pyodide.loadPackage(compiled, { messageCallback: () => {}, checkIntegrity: false });
  for (const name of packages.filter((name) => manifest.pure.includes(name))) {
    unpack(pyodide.FS, await take(new URL(`pyodide/${manifest.wheels[name]}`, base).href), manifest.site_packages);
  }
  if (mark) mark('pure_unpacked');
  await installing;
  pyodide.runPython('import importlib; importlib.invalidate_caches()');
  if (mark) mark('packages');
  return { pyodide, take };
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
