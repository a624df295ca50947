// The program worker: runs learner programs, nothing else. Pyodide, numpy and the project's engine (no
// Panel), in a worker of its own that the app's worker (static/wall.mjs) terminates when a program runs
// past its time or dies, and replaces for the next program.
//
// Messages (wall -> here):  init {manifest, base, memoryMB, shared?} · run {id, source?, query?, seconds, snapshots}
// Messages (here -> wall):  ready {timings} · started {id, source} · line {id, line} · ended {id}
//                           · recorded {id, json} · ran {id, source, json, heap} · failed {message}
//   `line`: the program's line, posted when it changes (at most every 10 ms, at the budget's time checks);
//   `recorded`: what the program has recorded so far, as a timeline's JSON, now and then while it runs
//   (engine/trace/so_far.py: from 0.5 s, paced by what they cost, none past ~0.7 MB); the wall keeps the last, for
//   a program it ends;
//   `ended`: its budget has ended, and the worker is fitting and sending its timeline.
//   `query` (a URL query) stands for the program it shows (app.program.links), so a link's program can run here
//   before the app's own worker has Python; `json` is the timeline as engine.trace's to_json writes it.
//   `shared`: the app worker's compiled wasm and downloads of the files this worker needs (static/python.mjs).
//
// Once Pyodide has started and before any program runs, the worker locks itself down (lockDown): should a
// program get past the guard, it finds no way to the network, to the origin's storage, to code from text or to
// other workers (docs/security.md). Its only way out is postMessage to the wall, which checks every message.
// `unguarded` (init; only the page's tests set it): a program whose first line is `# unguarded` runs with Pyodide
// and no guard, to test that lockdown (its result, a string, is sent as the timeline's JSON).
//
// The wasm memory is capped at memoryMB: above it an allocation fails (Python's MemoryError, which the
// guard reports at the program's line) instead of growing the tab without bound.

const T0 = performance.now();
const timings = {};
// mark(name): ms from this worker's start; mark(name, ms): a duration
const mark = (name, ms) => { timings[name] = Math.round(ms ?? performance.now() - T0); };

let runner = null;
let unguarded = false;

// What a program that got past the guard could use to reach beyond this worker: the network (and nested workers,
// which would have it), the origin's storage (Cache Storage keeps the wasm, wheels and link preludes a later visit
// trusts; IndexedDB; the storage manager's private file system; localStorage where a worker has it), cross-context
// channels and locks, and code made from text (eval, Function and its kin, string timers: import() needs them).
const NETWORK = ['fetch', 'XMLHttpRequest', 'XMLHttpRequestUpload', 'XMLHttpRequestEventTarget', 'WebSocket',
  'WebSocketStream', 'WebTransport', 'EventSource', 'importScripts', 'Worker', 'SharedWorker', 'RTCPeerConnection',
  'webkitRTCPeerConnection'];
const STORAGE = ['caches', 'CacheStorage', 'Cache', 'indexedDB', 'webkitIndexedDB', 'IDBFactory', 'localStorage',
  'sessionStorage', 'webkitRequestFileSystem', 'webkitRequestFileSystemSync', 'webkitResolveLocalFileSystemURL',
  'webkitResolveLocalFileSystemSyncURL', 'cookieStore', 'BroadcastChannel'];
const NAVIGATOR = ['storage', 'serviceWorker', 'locks', 'sendBeacon', 'storageBuckets', 'permissions'];

function remove(object, name) {
  for (let o = object; o; o = Object.getPrototypeOf(o)) {
    if (Object.hasOwn(o, name)) delete o[name];
  }
  Object.defineProperty(object, name, { value: undefined, writable: false, configurable: false });
}

export function lockDown() {
  for (const name of [...NETWORK, ...STORAGE]) remove(self, name);
  for (const name of NAVIGATOR) remove(self.navigator, name);
  const refuse = () => { throw new EvalError('code from text is not run in the program worker'); };
  for (const f of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    Object.defineProperty(Object.getPrototypeOf(f), 'constructor', { value: refuse, writable: false, configurable: false });
  }
  refuse.prototype = Function.prototype;
  Object.defineProperty(self, 'Function', { value: refuse, writable: false, configurable: false });
  Object.defineProperty(self, 'eval', { value: refuse, writable: false, configurable: false });
  for (const name of ['setTimeout', 'setInterval']) {
    const native = self[name];
    const timer = (callback, ...rest) => (typeof callback === 'function' ? native(callback, ...rest) : refuse());
    Object.defineProperty(self, name, { value: timer, writable: false, configurable: false });
  }
}

function capMemory(megabytes) {
  const Native = WebAssembly.Memory;
  const pages = Math.floor((megabytes * 2 ** 20) / 65536);
  function Capped(descriptor) {
    if (descriptor && !descriptor.shared && (descriptor.maximum === undefined || descriptor.maximum > pages)) {
      descriptor = { ...descriptor, maximum: Math.max(pages, descriptor.initial) };
    }
    return new Native(descriptor);
  }
  Capped.prototype = Native.prototype;
  WebAssembly.Memory = Capped;
}

async function start(msg) {
  const { manifest, base } = msg;
  capMemory(msg.memoryMB);
  const { startPython } = await import(new URL(`static/python.mjs?v=${manifest.version}`, base).href);
  const { programFiles } = await import(new URL(`static/wall.mjs?v=${manifest.version}`, base).href);
  const { pyodide } = await startPython({
    manifest, base, files: programFiles(manifest), packages: ['numpy', manifest.project], mark, shared: msg.shared,
    stdout: () => {}, stderr: () => {},
  });
  const ns = pyodide.globals.get('dict')();
  mark('installed');
  pyodide.runPython(`
import json
from engine.trace.isolated import browser_json
from app.program.links import parse

def program(query_json):
    return parse(json.loads(query_json)).source
`, { globals: ns });
  runner = { pyodide, program: ns.get('program'), run: ns.get('browser_json'), dict: pyodide.globals.get('dict') };
  unguarded = msg.unguarded === true;
  lockDown();
  mark('ready');
  self.postMessage({ type: 'ready', timings });
}

// Only the wall's messages (not events a program dispatches itself), and only one init.
let initialised = false;
self.addEventListener('message', async (event) => {
  const msg = event.data;
  if (!event.isTrusted) return;
  if (msg.type === 'init' && !initialised) {
    initialised = true;
    try {
      await start(msg);
    } catch (err) {
      self.postMessage({ type: 'failed', message: String(err && err.message ? err.message : err) });
    }
  } else if (msg.type === 'run' && runner && msg.unguarded && unguarded && /^# unguarded\n/.test(msg.source)) {
    try { // the test-only entry: Pyodide without the guard, as a program that got past it
      const globals = runner.dict();
      globals.set('run_id', msg.id);
      globals.set('source', msg.source);
      self.postMessage({ type: 'started', id: msg.id, source: msg.source }); // the wall's clock runs
      const json = await runner.pyodide.runPythonAsync(msg.source, { globals });
      self.postMessage({ type: 'ran', id: msg.id, source: msg.source, json, heap: runner.pyodide._module.HEAPU8.length });
    } catch (err) {
      self.postMessage({ type: 'failed', id: msg.id, message: String(err && err.message ? err.message : err) });
    }
  } else if (msg.type === 'run' && runner) {
    // Pyodide's own failures (a fatal error: its runtime is gone) end up here; the wall replaces the worker.
    try {
      const source = msg.source ?? runner.program(JSON.stringify(msg.query));
      self.postMessage({ type: 'started', id: msg.id, source });
      const watch = (kind, line) => self.postMessage(kind === 'line' ? { type: 'line', id: msg.id, line } : { type: 'ended', id: msg.id });
      const recorded = msg.snapshots === false ? undefined : (json) => self.postMessage({ type: 'recorded', id: msg.id, json });
      const json = runner.run.callKwargs(source, { max_seconds: msg.seconds, memory_mb: msg.memoryMB, watch, recorded });
      self.postMessage({ type: 'ran', id: msg.id, source, json, heap: runner.pyodide._module.HEAPU8.length });
    } catch (err) {
      self.postMessage({ type: 'failed', id: msg.id, message: String(err && err.message ? err.message : err) });
    }
  }
});
