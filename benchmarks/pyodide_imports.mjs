// Where Python's start goes inside Pyodide: loads dist/'s Pyodide and packages under Node, imports what the
// site's two workers import, timing each phase, and prints the slowest imports (CPython's -X importtime).
//
//   node benchmarks/pyodide_imports.mjs [--top 25] [--modules numpy,engine,panel,app.site.hooks]
//
// Node is not Chromium, but both run the same wasm and the same byte-compiled files: the shares hold.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.env.SITE_DIST || path.join(repo, 'dist'));
const indexURL = path.join(dist, 'pyodide') + path.sep;
const args = process.argv.slice(2);
const option = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const top = Number(option('--top', 25));
const noGC = args.includes('--no-gc'); // imports with the cyclic garbage collector paused, as static/boot.py does
const modules = option('--modules', 'numpy,engine,engine.trace.isolated,app.program.links,bokeh.models,param,panel,app.site.hooks').split(',');
const manifest = JSON.parse(readFileSync(path.join(dist, 'manifest.json'), 'utf8'));

globalThis.XMLHttpRequest ??= class XMLHttpRequest {}; // panel.io.pyodide imports it (a browser worker has it)
const t0 = performance.now();
const at = () => `${((performance.now() - t0) / 1000).toFixed(2)} s`;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, 'pyodide.mjs')).href);
let stderr = '';
const pyodide = await loadPyodide({ indexURL, env: { PYTHONPROFILEIMPORTTIME: '1' } });
pyodide.setStderr({ batched: (line) => { stderr += `${line}\n`; } });
console.log(`Pyodide up at ${at()}`);
await pyodide.loadPackage(['numpy'], { messageCallback: () => {} });
console.log(`numpy installed at ${at()}`);
await pyodide.loadPackage(manifest.pure.map((name) => path.join(indexURL, manifest.wheels[name])), { messageCallback: () => {} });
console.log(`pure wheels installed at ${at()}`);
pyodide.runPython('import pyodide.ffi\nif not hasattr(pyodide.ffi, "jsnull"): pyodide.ffi.jsnull = object()');
stderr = '';
let times;
try {
  times = pyodide.runPython(`
import gc, importlib, time
if ${noGC ? 'True' : 'False'}:
    gc.disable()
_times = {}
for _name in ${JSON.stringify(modules)}:
    _s = time.perf_counter()
    importlib.import_module(_name)
    _times[_name] = round(time.perf_counter() - _s, 3)
gc.enable()
_times
`).toJs();
} catch (err) {
  console.error(String(err.message).split('\n').slice(-15).join('\n'));
  process.exit(1);
}
console.log(`imports (s, each after the ones before): ${JSON.stringify(Object.fromEntries(times))} · done at ${at()}`);
if (process.env.IMPORTTIME_LOG) (await import('node:fs')).writeFileSync(process.env.IMPORTTIME_LOG, stderr);
// -X importtime lines: "import time: self [us] | cumulative | imported package"
const rows = stderr.split('\n').filter((l) => l.startsWith('import time:') && !l.includes('self [us]')).map((l) => {
  const [self, cumulative, name] = l.slice(12).split('|');
  return { self: Number(self), cumulative: Number(cumulative), name: name.trimEnd(), depth: name.length - name.trimStart().length };
});
const show = (title, key) => {
  console.log(`\n${title}`);
  for (const r of [...rows].sort((a, b) => b[key] - a[key]).slice(0, top)) {
    console.log(`${(r[key] / 1000).toFixed(0).padStart(7)} ms  ${r.name.trim()}`);
  }
};
show('slowest imports, cumulative', 'cumulative');
show('slowest modules, self', 'self');
const byPackage = {};
for (const r of rows) { const p = r.name.trim().split('.')[0]; byPackage[p] = (byPackage[p] || 0) + r.self; }
console.log('\nself time by top-level package (ms):', Object.fromEntries(Object.entries(byPackage).sort((a, b) => b[1] - a[1]).slice(0, 20).map(([k, v]) => [k, Math.round(v / 1000)])));
