"""The build, step by step: every file of dist/ gathered in a Site, then written at once."""

from __future__ import annotations

import io
import re
import shutil
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from app.site.hooks import site_hooks
from sitebuild import manifest as mf
from sitebuild import pins
from sitebuild.base import CACHE, BuildError, log, sha256_bytes
from sitebuild.fetch import fetch_pypi, official_wheels, prefetch_all, pyodide_core
from sitebuild.ids import stabilize
from sitebuild.lessons import Lessons, build_lessons, lesson_file, lesson_prelude_file
from sitebuild.output import Site
from sitebuild.page import defer_scripts, local_urls, localize, render_page, take_loader_scripts
from sitebuild.preludes import example_preludes
from sitebuild.rebuild import project_wheel, sdist_wheel
from sitebuild.snapshot import snapshot
from sitebuild.urls import BOKEH_URL, PANEL_ROOT_URL
from sitebuild.wheels import process_stdlib, process_wheel, wheel_tree

HIDE_SPINNER = "<style>#loader { display: none !important; }</style>"  # the snapshot is the first paint


@dataclass
class Page:
    """index.html before the loader goes in (`<!--site:head-->`, `<!--site:body-->` still there), and what
    the manifest says of it."""
    html: str
    prerendered: str  # the same page with the app's document in it: what the snapshot shows
    roots: int
    preludes: dict[str, str]  # slug: the example's recorded steps (JSON)
    default_example: str | None
    scripts: list[str]  # what static/loader.js loads, in order
    icon: bytes  # favicon.ico
    examples: tuple[str, ...] = ()  # every example's slug (the longest has no prelude)
    lessons: Lessons | None = None  # a teacher's lesson files and every lesson's prelude


def assemble(dist: Path, test_wheels: bool = True, lessons: Path | None = None) -> dict:
    """Build the site into `dist` (with a teacher's own lessons from the folder `lessons`); returns its manifest."""
    t0 = time.time()
    prefetch_all(test_wheels)
    core, official_lock = pyodide_core()
    site = Site(dist)
    packages, pure = add_wheels(site, official_lock)
    write_test_wheels(official_lock if test_wheels else None)
    for name in ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm"):
        site.add(f"pyodide/{name}", core[name].read_bytes())
    site.add("pyodide/python_stdlib.zip", process_stdlib(core["python_stdlib.zip"]))
    site.add("pyodide/pyodide-lock.json", mf.lock_json(official_lock, packages))
    add_bokeh_js(site)
    page = add_page(site, lessons)
    log("compressing")
    files = mf.compress(site)
    mf.add_loader(site, files)
    manifest = mf.site_manifest(files, packages, pure, page)
    mf.add_manifest(site, manifest)
    page_html = mf.with_loader(page.html, manifest)
    site.add(".nojekyll", b"")
    site.add("favicon.ico", page.icon)
    site.add("index.html", page_html.replace("<!--site:snapshot-->", "").encode())
    log("writing")
    site.write()
    add_snapshot(site, page_html, page.prerendered)
    total = sum(len(d) for r, d in site.files.items())
    log(f"wrote {dist} ({len(site.files)} files, {total / 1e6:.1f} MB on disk) in {time.time() - t0:.1f}s")
    for problem in page.lessons.problems:
        log(f"lessons: {problem}")  # said again at the end, where a teacher looks
    return manifest


def add_wheels(site: Site, official_lock: dict) -> tuple[dict[str, dict], set[str]]:
    """Every wheel of the site, processed, under pyodide/; returns their lock entries and the names of the
    pure ones (no shared library)."""
    sources: list[tuple[Path, bool]] = []  # (wheel, is the project's)
    sources += [(path, False) for path in official_wheels(official_lock, pins.OFFICIAL_PACKAGES).values()]
    sources += [(fetch_pypi(*pin), False) for pin in pins.PURE_WHEELS]
    sources += [(sdist_wheel(*pin), False) for pin in pins.SDISTS]
    sources.append((project_wheel(), True))
    packages: dict[str, dict] = {}
    pure: set[str] = set()
    for wheel, project in sources:
        name, version, data, imports = process_wheel(wheel)
        file_name = f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
        depends = pins.PROJECT_DEPENDS if project else pins.DEPENDS.get(name)
        if depends is None:
            raise BuildError(f"no DEPENDS entry for {name} ({wheel.name}) in sitebuild/pins.py")
        packages[name] = mf.lock_entry(name, version, file_name, data, imports, depends)
        site.add(f"pyodide/{file_name}", data)
        if not any(n.endswith(".so") for n in zipfile.ZipFile(io.BytesIO(data)).namelist()):
            pure.add(name)
    return packages, pure


def write_test_wheels(official_lock: dict | None) -> None:
    """pytest & co. for tests/pyodide, beside the cache, never in dist/ (none without a lock)."""
    test_dir = CACHE / "test-wheels"
    shutil.rmtree(test_dir, ignore_errors=True)
    test_dir.mkdir(parents=True)
    if official_lock is None:
        return
    wheels = [*official_wheels(official_lock, pins.OFFICIAL_TEST_PACKAGES).values()]
    wheels += [fetch_pypi(*pin) for pin in pins.TEST_WHEELS]
    for wheel in wheels:
        name, version, data, _ = process_wheel(wheel)
        (test_dir / f"{name.replace('-', '_')}-{version}-py3-none-any.whl").write_bytes(data)


def add_bokeh_js(site: Site) -> None:
    """BokehJS, served as plain files."""
    for rel, data in wheel_tree(fetch_pypi(*pins.pure_wheel("bokeh")), "bokeh/server/static/").items():
        if re.fullmatch(r"js/bokeh(-[a-z]+)?\.min\.js", rel):
            site.add(BOKEH_URL + rel.removeprefix("js/"), data)


def add_page(site: Site, lesson_folder: Path | None = None) -> Page:
    """The app's page, every example's and lesson's prelude (the app run here), a teacher's lesson files (before the
    page is rendered: its menu lists them), and Panel's files the page uses."""
    hooks = site_hooks()
    log("recording the lessons' steps" + (f" (and adding the lessons of {lesson_folder})" if lesson_folder else ""))
    lessons = build_lessons(hooks, lesson_folder)
    for slug, (name, data) in lessons.files.items():
        site.add(lesson_file(slug, name), data)
    for slug, text in lessons.preludes.items():
        site.add(lesson_prelude_file(slug), text.encode())
    log("rendering the default page (prerendered view)")
    page_html, prerendered, roots, prelude, default_example = render_page(hooks, {})
    prerendered, page_html, prelude = stabilize([prerendered, page_html, prelude])
    log("recording the examples' steps (preludes)")
    preludes = {default_example: prelude} if prelude else {}
    preludes.update(example_preludes(hooks, default_example))
    for slug, text in preludes.items():
        site.add(f"static/prelude/{slug}.json", text.encode())
    page_html = defer_scripts(localize(page_html))
    prerendered = localize(prerendered).replace("<!--site:head-->", HIDE_SPINNER)
    icon = add_panel_files(site, prerendered)
    missing = [u for u in local_urls(page_html) if u.removeprefix("./") not in site.files]
    if missing:
        raise BuildError("index.html refers to files the site does not have: " + ", ".join(missing))
    page_html, scripts = take_loader_scripts(page_html)
    return Page(page_html, prerendered, roots, preludes, default_example, scripts, icon, hooks.examples, lessons)


def add_panel_files(site: Site, prerendered: str) -> bytes:
    """Panel's own JS/CSS, and of its vendored libraries (dist/bundled/<name>/) those the page refers to
    (in the prerendered document's stylesheets) plus the templates' themes; returns Panel's icon."""
    pin = pins.pure_wheel("panel")
    url = f"{PANEL_ROOT_URL}{pin.requirement.split('==')[1]}/dist/"
    used = set(re.findall(r"bundled/([^/\"']+)/", prerendered)) | {"theme"}
    files = wheel_tree(fetch_pypi(*pin), "panel/dist/")
    for rel, data in files.items():
        if re.search(r"\.(map|ts)$|^(dts|lib)/|^panel\.js$|^panel\.json$", rel):
            continue
        if not rel.startswith("bundled/") or rel.split("/")[1] in used:
            site.add(url + rel, data)
    return files["images/favicon.ico"]


def add_snapshot(site: Site, page_html: str, prerendered: str) -> None:
    """The first-paint picture, and index.html showing it (both written at once: dist/ is on disk)."""
    picture = snapshot(site.dist, prerendered)
    if picture is None:
        return
    site.add("static/snapshot.png", picture)
    img = ('<img id="site-snapshot" src="static/snapshot.png?v=' + sha256_bytes(picture)[:12]
           + '" alt="The explorer, as it looks once Python has started" width="1280" height="800">')
    site.add("index.html", page_html.replace("<!--site:snapshot-->", img).encode())
    for rel in ("static/snapshot.png", "index.html"):
        (site.dist / rel).write_bytes(site.files[rel])
