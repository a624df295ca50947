#!/usr/bin/env python3
"""Build the static site: `dist/` runs the explorer in Pyodide, every file served by the site itself.

    .venv/bin/python build.py            # build dist/ (downloads are cached under .cache/site/)
    .venv/bin/python build.py --lessons my-lessons/   # with your own lessons (.md, .ipynb) beside the built-in ones
    python -m http.server -d dist        # preview at http://localhost:8000/

Every input is pinned with its sha256 (sitebuild/pins.py); a download that fails or a file whose hash
differs stops the build with a message naming the file. A second run with a warm cache writes
byte-identical files. The build itself is the package sitebuild/; docs/site.md says what ships.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import sitebuild
from sitebuild.base import DIST


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=DIST, help="output folder (default: dist/)")
    parser.add_argument("--no-test-wheels", dest="test_wheels", action="store_false",
                        help="leave out pytest (used only by tests/pyodide)")
    parser.add_argument("--lessons", type=Path, default=None, metavar="DIR",
                        help="a folder of your own lessons (.md, .ipynb; docs/lessons.md), offered beside the "
                        "built-in ones and recorded to step before Python starts; a file that cannot be built is "
                        "named and left out")
    args = parser.parse_args()
    sitebuild.build(args.dist, test_wheels=args.test_wheels,
                    lessons=args.lessons.resolve() if args.lessons else None)


if __name__ == "__main__":
    main()
