// The program worker: runs learner programs, nothing else. Pyodide, numpy and the project's engine (no
// Panel), in a worker of its own that the app's worker (static/wall.mjs) terminates when a program runs
// past its time or dies, and replaces for the next program.
//
// Messages (wall -> here):  init {manifest, base, memoryMB, shared?} · run {id, source?, query?, seconds}
// Messages (here -> wall):  ready {timings} · started {id, source} · line {id, line} · ended {id}
//                           · ran {id, source, json, heap} · failed {message}
//   `line`: the program's line, posted when it changes (at most every 10 ms, at the budget's time checks);
//   `ended`: its budget has ended, and the worker is fitting and sending its timeline.
//   `query` (a URL query) stands for the program it shows (app.links), so a link's program can run here
//   before the app's own worker has Python; `json` is the timeline as engine.trace's to_json writes it.
//   `shared`: the app worker's compiled wasm and downloads of the files this worker needs (static/python.mjs).
//
// The wasm memory is capped at memoryMB: above it an allocation fails (Python's MemoryError, which the
// guard reports at the program's line) instead of growing the tab without bound.

const T0 = performance.now();
const timings = {};
// mark(name): ms from this worker's start; mark(name, ms): a duration
const mark = (name, ms) => { timings[name] = Math.round(ms ?? performance.now() - T0); };

let runner = null;

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
from app.links import parse

def program(query_json):
    return parse(json.loads(query_json)).source
`, { globals: ns });
  runner = { pyodide, program: ns.get('program'), run: ns.get('browser_json') };
  mark('ready');
  self.postMessage({ type: 'ready', timings });
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'init') {
    try {
      await start(msg);
    } catch (err) {
      self.postMessage({ type: 'failed', message: String(err && err.message ? err.message : err) });
    }
  } else if (msg.type === 'run') {
    // Pyodide's own failures (a fatal error: its runtime is gone) end up here; the wall replaces the worker.
    try {
      const source = msg.source ?? runner.program(JSON.stringify(msg.query));
      self.postMessage({ type: 'started', id: msg.id, source });
      const watch = (kind, line) => self.postMessage(kind === 'line' ? { type: 'line', id: msg.id, line } : { type: 'ended', id: msg.id });
      const json = runner.run.callKwargs(source, { max_seconds: msg.seconds, memory_mb: msg.memoryMB, watch });
      self.postMessage({ type: 'ran', id: msg.id, source, json, heap: runner.pyodide._module.HEAPU8.length });
    } catch (err) {
      self.postMessage({ type: 'failed', id: msg.id, message: String(err && err.message ? err.message : err) });
    }
  }
};
