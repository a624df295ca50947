"""What tells the browser which files there are: the Pyodide lock (exactly the wheels shipped), the gzip
copies for the wire, manifest.json (every file's size and sha256, what to preload, the preludes), the
service worker's list and the part of the manifest the page carries inline."""

from __future__ import annotations

import gzip
import json
import re
import tomllib

from engine.trace import isolated
from sitebuild.base import CACHE, ROOT, STATIC, sha256_bytes
from sitebuild.lessons import lesson_file, lesson_prelude_file
from sitebuild.output import Site
from sitebuild.pins import PYODIDE_VERSION
from sitebuild.urls import PANEL_ROOT_URL

GZIP_MIN = 1024  # files above this size also ship as <name>.gz
NOT_GZIPPED = (".png", ".ico", ".woff", ".woff2", ".jpg", ".gif")
# from static/, added after the gzip step
LOADER_FILES = ("loader.js", "loader.css", "worker.mjs", "python.mjs", "wall.mjs", "program.mjs", "boot.py")
SITE_PACKAGES = "/lib/python3.12/site-packages"


def lock_entry(name: str, version: str, file_name: str, data: bytes, imports: list[str],
               depends: list[str]) -> dict:
    """A package's entry in pyodide-lock.json: a pure-Python install into site-packages."""
    return {
        "name": name, "version": version, "file_name": file_name, "install_dir": "site",
        "sha256": sha256_bytes(data), "package_type": "package", "imports": imports,
        "depends": sorted(depends), "unvendored_tests": False, "shared_library": False,
    }


def lock_json(official_lock: dict, packages: dict[str, dict]) -> bytes:
    lock = {"info": official_lock["info"], "packages": dict(sorted(packages.items()))}
    return json.dumps(lock, indent=1, sort_keys=True).encode()


def gzip_bytes(data: bytes) -> bytes:
    key = sha256_bytes(data)
    cached = CACHE / "gzip" / f"{key}.gz"
    if cached.exists():
        return cached.read_bytes()
    out = gzip.compress(data, compresslevel=9, mtime=0)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(out)
    return out


def compress(site: Site) -> dict[str, dict]:
    """Add a gzipped copy of every large file under pyodide/ and static/ (when it saves 5%); returns the
    manifest's entries of the files there were: {rel: {"size", "sha256", "gz"?}}."""
    files = {}
    for rel in sorted(site.files):
        data = site.files[rel]
        entry = {"size": len(data), "sha256": sha256_bytes(data)}
        if len(data) >= GZIP_MIN and rel.startswith(("pyodide/", "static/")) and not rel.endswith(NOT_GZIPPED):
            gz = gzip_bytes(data)
            if len(gz) < len(data) * 0.95:
                site.add(rel + ".gz", gz)
                entry["gz"] = len(gz)
        files[rel] = entry
    return files


def add_loader(site: Site, files: dict[str, dict]) -> None:
    """static/'s loader, its worker and boot.py, served as they are (each in `files` too)."""
    for name in LOADER_FILES:
        data = (STATIC / name).read_bytes()
        site.add(f"static/{name}", data)
        files[f"static/{name}"] = {"size": len(data), "sha256": sha256_bytes(data)}


def site_manifest(files: dict[str, dict], packages: dict[str, dict], pure: set[str], page) -> dict:
    """manifest.json for `page` (assemble.Page); its version is a hash of every file's entry, so a new
    build's URLs (?v=) never mix with an old one's."""
    version = files_version(files)
    return {
        "version": version,
        "pyodide": PYODIDE_VERSION,
        "roots": page.roots,
        "packages": sorted(packages),
        "pure": sorted(n for n in packages if n in pure),
        # The browser's wall (static/wall.mjs): the program worker's time budget, the margin after which the
        # page stops it, the time it has to send its timeline once its budget ended, and its memory cap.
        "program": {"seconds": isolated.BROWSER_SECONDS, "margin": isolated.BROWSER_MARGIN,
                    "send_margin": isolated.BROWSER_SEND_MARGIN, "memory_mb": isolated.BROWSER_MEMORY_MB},
        "project": tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"],  # its wheel
        "wheels": {n: e["file_name"] for n, e in sorted(packages.items())},
        "site_packages": SITE_PACKAGES,
        # In the order they are needed: the browser opens only a few connections to one host at a time.
        "preload": ["pyodide/pyodide.asm.js", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
                    "pyodide/pyodide-lock.json", "static/boot.py"]
        + sorted((r for r in files if r.startswith("pyodide/") and r.endswith(".whl")),
                 key=lambda r: (not r.startswith("pyodide/numpy"), -files[r].get("gz", 0), r)),
        "files": files,
        "panel_cdn_root": PANEL_ROOT_URL,
        "page_scripts": page.scripts,
        "preludes": {slug: f"static/prelude/{slug}.json" for slug in sorted(page.preludes)},
        # A teacher's lessons (build.py --lessons): slug -> the file and its name; every lesson's recorded steps
        "lessons": {slug: {"file": lesson_file(slug, name), "name": name}
                    for slug, (name, _) in page.lessons.files.items()},
        "lesson_preludes": {slug: lesson_prelude_file(slug) for slug in page.lessons.preludes},
        "default_example": page.default_example,
        "examples": list(page.examples),
        "precache": precache(page.html, version),
    }


def files_version(files: dict[str, dict]) -> str:
    return sha256_bytes(json.dumps(files, sort_keys=True).encode())[:16]


def precache(page_html: str, version: str) -> list[str]:
    """What the service worker stores at install: the page's own files, by the exact URLs the page requests
    (the Python worker stores what it downloads itself)."""
    page_refs = re.findall(r"""(?:src|href)=["'](static/[^"'#]+)""", page_html)
    return sorted({u for u in page_refs if not u.startswith("static/loader.")}
                  | {f"static/{name}?v={version}" for name in LOADER_FILES if name != "boot.py"})


def add_manifest(site: Site, manifest: dict) -> None:
    """manifest.json, and the service worker with the build's version."""
    stored = [{"url": url, "gz": gzipped_url(manifest, url.split("?")[0])} for url in manifest["precache"]]
    sw = (STATIC / "sw.js").read_text().replace("__SITE_VERSION__", manifest["version"])
    sw = sw.replace("__SITE_PRECACHE__", json.dumps(stored, sort_keys=True))
    site.add("sw.js", sw.encode())
    site.add("manifest.json", json.dumps(manifest, indent=1, sort_keys=True).encode())


def gzipped_url(manifest: dict, rel: str) -> str | None:
    """The URL of the build's gzipped copy of `rel` (as static/python.mjs and static/loader.js request it)."""
    entry = manifest["files"].get(rel)
    return f"{rel}.gz?v={entry['sha256'][:12]}" if entry and entry.get("gz") else None


def with_loader(page_html: str, manifest: dict) -> str:
    """The page with the loader's stylesheet and script, and the part of the manifest its loader and worker
    need (manifest.json has every file); `<!--site:snapshot-->` is left for the first-paint picture."""
    needed = (set(manifest["preload"]) | set(manifest["page_scripts"]) | set(manifest["preludes"].values())
              | set(manifest["lesson_preludes"].values()) | {e["file"] for e in manifest["lessons"].values()}
              | {"pyodide/pyodide.mjs"})
    page_manifest = {**manifest, "files": {r: e for r, e in manifest["files"].items() if r in needed}}
    page_manifest.pop("precache")
    head = (f'<link rel="stylesheet" href="static/loader.css?v={manifest["version"]}">\n'
            f'<script>window.SITE_MANIFEST = {json.dumps(page_manifest, sort_keys=True)};</script>')
    body = "<!--site:snapshot-->\n" + f'<script src="static/loader.js?v={manifest["version"]}"></script>'
    return page_html.replace("<!--site:head-->", head, 1).replace("<!--site:body-->", body, 1)
