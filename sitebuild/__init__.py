"""The static site's build: `dist/` runs the explorer in Pyodide, every file served by the site itself
(docs/site.md says what ships and why). `build.py` at the root is its command; this package is the build,
by concern:

  pins.py       every pinned input (Pyodide, wheels, sdists) with its sha256; the lock's dependencies
  fetch.py      downloads from npm and PyPI into .cache/site/, each checked against its pin
  slimming.py   what leaves each wheel and the standard library; the source patches
  pyc.py        byte-compiling for Pyodide's CPython 3.12
  wheels.py     wheels slimmed, compiled and repacked deterministically; the standard library
  rebuild.py    wheels built here: pure wheels from sdists, the project's own wheel
  preludes.py   the app run here: its page as a Bokeh document, every example's steps recorded
  lessons.py    a teacher's own lessons (--lessons DIR) beside the built-in ones; every lesson's steps recorded
  page.py       index.html: the page rendered, its URLs made local, its scripts deferred
  ids.py        the same ids on every build
  snapshot.py   the first-paint picture of the prerendered page, taken in Chromium
  manifest.py   the lock, gzip copies, manifest.json, the service worker's list, the page's own manifest
  output.py     dist/'s files, written so that unchanged files are not touched
  assemble.py   the build, step by step
  base.py, urls.py: paths, errors, the log, hashing; where Panel's and BokehJS's files are served
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sitebuild.base import DIST
from sitebuild.urls import PANEL_ROOT_URL

# The page is rendered by running the app in the build's process. A fixed hash seed makes set orderings in
# its document (and so index.html and the snapshot) the same on every build; Panel reads PANEL_CDN_ROOT
# when it is imported, and then names its files under the site's own copy.
ENVIRONMENT = {"PYTHONHASHSEED": "0", "PANEL_CDN_ROOT": PANEL_ROOT_URL, "BOKEH_RESOURCES": "cdn"}


def build(dist: Path = DIST, *, test_wheels: bool = True, lessons: Path | None = None) -> dict:
    """Build the site into `dist` (pytest & co. for tests/pyodide into .cache/site/test-wheels unless
    `test_wheels` is False); returns its manifest. Meant for a program's main: a process whose environment
    is not ENVIRONMENT runs its command again with it (os.execv). `lessons`: a folder of a teacher's own lessons
    (sitebuild/lessons.py)."""
    if any(os.environ.get(name) != value for name, value in ENVIRONMENT.items()):
        os.environ.update(ENVIRONMENT)
        os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])
    # Imported here, not above: only the process that builds imports the app and Panel (3 s).
    from sitebuild.assemble import assemble

    return assemble(dist, test_wheels, lessons)
