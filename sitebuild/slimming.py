"""What leaves each wheel and Pyodide's standard library, and the source patches applied to pinned files.

Bump base.BUILD_VERSION when these rules change (processed wheels are cached by it)."""

from __future__ import annotations

import ast
import re

from sitebuild.base import BuildError

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
                        r"random/_examples|typing/tests|doc|ma|polynomial)/"),
    "pandas": re.compile(r"^pandas/tests/|^pandas/pyproject\.toml$"),
}
# numpy's ma and polynomial are imported only when asked for by name; neither the engine nor a program
# (engine/trace/numpy_view.py) can reach them. (numpy.fft stays: torch.fft and a program's np.fft run on it.)
# Modules that import, at module level, a package no browser tab has (a web server's, a docs builder's) could
# never be imported in the site: bokeh.server, panel.io.server, the sphinx extensions and the like.
NOT_IN_A_BROWSER = frozenset({"tornado", "sphinx", "docutils", "django", "jupyter_server"})
# Keep these even though the rules above would drop them.
KEEP = re.compile(r"^panel/package\.json$|^bokeh/_sri/")
# Of a wheel's .dist-info, only these files ship (RECORD is written anew).
DIST_INFO_KEPT = ("METADATA", "WHEEL", "entry_points.txt", "top_level.txt")

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

# Standard-library modules that an app in a browser tab never imports (a tab has no processes); pytest inside
# Pyodide (tests/pyodide) does not need them either. tarfile (Pyodide's loadPackage), pdb and doctest (pytest)
# stay.
STDLIB_DROP = re.compile(
    r"^(pydoc_data|lib2to3|ensurepip|idlelib|turtledemo|venv|tkinter|test|unittest/test|distutils|"
    r"xmlrpc|wsgiref|curses|dbm|sqlite3|msilib)(/|$)|^(pydoc|turtle|tabnanny|imaplib|nntplib|"
    r"smtplib|poplib|ftplib|telnetlib|mailbox|cgi|cgitb|pickletools|_pydecimal|"
    r"_pyio|optparse|trace|zipapp)\.py$|^multiprocessing/"
)


def slimmed(files: dict[str, bytes], package: str, dist_info: str) -> dict[str, bytes]:
    """A wheel's {path: data} without what the site does not need, its patches applied."""
    per_package = DROP_PER_PACKAGE.get(package)
    kept = {}
    for path, data in files.items():
        if path.startswith(dist_info + "/"):
            if path.split("/")[-1] in DIST_INFO_KEPT:
                kept[path] = data
            continue
        if not KEEP.search(path) and (DROP_ALWAYS.search(path) or (per_package and per_package.search(path))):
            continue
        if path.endswith(".py") and needs_a_server(data):
            continue
        kept[path] = data
    for path, edits in PATCHES.items():
        if path in kept:
            kept[path] = apply_patch(path, kept[path].decode(), edits).encode()
    return kept


def needs_a_server(source: bytes) -> bool:
    """Whether a module imports, at its top level, one of NOT_IN_A_BROWSER."""
    if not any(name.encode() in source for name in NOT_IN_A_BROWSER):
        return False
    imported = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Import):
            imported |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.partition(".")[0])
    return bool(imported & NOT_IN_A_BROWSER)


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
