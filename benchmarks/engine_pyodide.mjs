// benchmarks/engine.py inside Pyodide under Node: the engine's own times as the site's Python runs them.
//
//   node benchmarks/engine_pyodide.mjs [--quick] [--no-trace]
//
// Uses dist/pyodide and its numpy when the site is built (SITE_DIST to point elsewhere), else the Pyodide and
// numpy wheel build.py downloads into .cache/site; mounts the repository at /repo and runs the script with
// --engine-only (no torch, no micrograd in Pyodide): read the tiny graph's time against the native torch time
// that `.venv-torch/bin/python benchmarks/engine.py` prints. Node is not Chromium, but both run the same wasm.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.env.SITE_DIST || path.join(repo, 'dist'));
const cache = path.join(repo, '.cache', 'site');
let indexURL = path.join(dist, 'pyodide');
let numpy = 'numpy';
if (!existsSync(path.join(indexURL, 'pyodide.mjs'))) {
  const core = existsSync(cache) ? readdirSync(cache).filter((f) => f.startsWith('pyodide-')).sort().pop() : null;
  const official = path.join(cache, 'official');
  const wheel = existsSync(official) ? readdirSync(official).find((f) => /^numpy-.*wasm32\.whl$/.test(f)) : null;
  if (!core || !wheel) {
    console.error('no dist/pyodide and no Pyodide in .cache/site: run build.py first');
    process.exit(2);
  }
  indexURL = path.join(cache, core);
  numpy = path.join(official, wheel);
}
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, 'pyodide.mjs')).href);
const pyodide = await loadPyodide({ indexURL: indexURL + path.sep });
pyodide.setStdout({ batched: (line) => console.log(line) });
pyodide.setStderr({ batched: (line) => console.error(line) });
await pyodide.loadPackage([numpy], { messageCallback: () => {} });
pyodide.FS.mkdirTree('/repo');
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, '/repo');
pyodide.globals.set('bench_args', pyodide.toPy(['--engine-only', ...process.argv.slice(2)]));
await pyodide.runPythonAsync(`
import os, runpy, sys
os.chdir("/repo")
sys.path.insert(0, "/repo")
sys.dont_write_bytecode = True
sys.argv = ["benchmarks/engine.py", *bench_args]
runpy.run_path("benchmarks/engine.py", run_name="__main__")
`);
