// Runs the engine's test suite inside Pyodide under Node, with the Pyodide and numpy that dist/ ships.
//
//   node tests/pyodide/run_tests.mjs [pytest args...]      (default: the torch-free tests, see DEFAULT)
//
// Loads Pyodide from dist/pyodide (build.py), installs numpy from the site's lock and pytest & co. from
// .cache/site/test-wheels (pinned in sitebuild/pins.py, never shipped in dist/), mounts the repository at /repo
// (NODEFS) and runs pytest there. Real PyTorch does not exist in Pyodide, and neither do processes: any
// `import torch` or `import multiprocessing` (in a test module, a helper, a test or the code it calls)
// skips what needs it, so the test files need no convention for it. Exits with pytest's exit code.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = path.resolve(process.env.SITE_DIST || path.join(repo, 'dist'));
const testWheels = path.join(repo, '.cache', 'site', 'test-wheels');
const indexURL = path.join(dist, 'pyodide') + path.sep;

if (!existsSync(path.join(indexURL, 'pyodide.mjs'))) {
  console.error(`no ${indexURL}pyodide.mjs: run build.py first`);
  process.exit(2);
}
if (!existsSync(testWheels)) {
  console.error(`no ${testWheels}: run build.py (without --no-test-wheels) first`);
  process.exit(2);
}

const t0 = performance.now();
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, 'pyodide.mjs')).href);
const pyodide = await loadPyodide({ indexURL });
pyodide.setStdout({ write: (buf) => { process.stdout.write(buf); return buf.length; } });
pyodide.setStderr({ write: (buf) => { process.stderr.write(buf); return buf.length; } });

const wheels = readdirSync(testWheels).filter((f) => f.endsWith('.whl')).map((f) => path.join(testWheels, f));
await pyodide.loadPackage(['numpy', ...wheels], { messageCallback: () => {} });
pyodide.FS.mkdirTree('/repo');
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, '/repo');
console.log(`[pyodide] Pyodide ${pyodide.version} and packages ready in ${((performance.now() - t0) / 1000).toFixed(1)}s`);

// Only the files of the tests that need no PyTorch (tests/engine/conftest.py's TORCH_FREE; test_engine_in_pyodide.py
// checks the two lists agree): collecting the whole suite there, to skip the rest of it, took most of the run.
const DEFAULT = ['tests/engine/test_goldens.py', 'tests/engine/test_gradcheck.py', 'tests/engine/test_printing.py'];
const args = process.argv.slice(2);
pyodide.globals.set('pytest_args', pyodide.toPy(args.length ? args : DEFAULT));
const code = await pyodide.runPythonAsync(`
import os, sys
os.chdir("/repo")
sys.path.insert(0, "/repo")
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
sys.dont_write_bytecode = True
import importlib.abc
import numpy, pytest


class NotInPyodide(importlib.abc.MetaPathFinder):
    """Whatever imports torch (the engine compared with real PyTorch) or multiprocessing (a browser tab has
    no processes) is skipped."""

    MISSING = {"torch": "real PyTorch", "multiprocessing": "processes"}

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in self.MISSING:
            raise pytest.skip.Exception(f"needs {self.MISSING[top]} (not in Pyodide)", allow_module_level=True)
        return None


assert "multiprocessing" not in sys.modules
sys.meta_path.insert(0, NotInPyodide())
print(f"[pyodide] Python {sys.version.split()[0]} on {sys.platform}, numpy {numpy.__version__}")
int(pytest.main(["-p", "no:cacheprovider", "-q", "-o", "addopts=", *pytest_args]))
`);
process.exit(code);
