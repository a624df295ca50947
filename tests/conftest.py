"""One Playwright driver for the whole run: the app's and the site's browser tests launch their Chromium from it
(starting the driver and a browser took seconds in every test module that had its own).

The app's and the site's files that open no browser, serve nothing and are one core's work are marked `no_browser`:
bin/test runs them beside tests/trace (a core each), and the rest after both. (Not the engine's suite in Pyodide:
Node compiles the wasm on threads of its own.)"""

from __future__ import annotations

from pathlib import Path

import pytest

NO_BROWSER = {
    "app/test_app_layers.py", "app/test_canvas_model.py", "app/test_graph_read.py", "app/test_html_box.py",
    "app/test_iterations.py", "app/test_jupyter_magic.py", "app/test_layout.py", "app/test_learner_path.py",
    "app/test_lessons_model.py", "app/test_links_and_builder.py", "app/test_page.py", "app/test_plots.py",
    "app/test_predict_model.py", "app/test_predict_store.py", "app/test_prelude.py", "app/test_site_hooks.py",
    "app/test_teaching_models.py", "app/test_timeline_check.py", "app/test_view_models.py",
    "app/test_views_follow_the_store.py", "site/test_lessons_build.py",
}
_BROWSING = {"playwright_driver", "url", "served_site"}  # a browser, the app's `panel serve`, the site's server
_TESTS = Path(__file__).parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.is_relative_to(_TESTS) and item.path.relative_to(_TESTS).as_posix() in NO_BROWSER:
            if _BROWSING & set(item.fixturenames):
                raise pytest.UsageError(f"{item.nodeid} opens a browser or a server: take its file out of NO_BROWSER "
                                        "(tests/conftest.py)")
            item.add_marker(pytest.mark.no_browser)


@pytest.fixture(scope="session")
def playwright_driver():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p
