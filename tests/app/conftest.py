"""Fixtures for the app tests: timelines recorded by the engine; the served app (one `panel serve` for the whole
run: starting one takes seconds) and Chromium (one for the whole run; each test opens its own contexts) for the
browser tests."""

from __future__ import annotations

import pytest

from app import timeline as tl


@pytest.fixture
def record():
    """record(source) -> Timeline, exactly as the app records programs."""
    return tl.run


@pytest.fixture(scope="session")
def url():
    from browser import panel_server

    with panel_server() as u:
        yield u


@pytest.fixture(scope="session")
def browser(playwright_driver):
    from browser import CHROMIUM, CHROMIUM_ARGS

    b = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture
def page(browser, request):
    """A page in a fresh context at the tests' viewport, screenshotted into test-artifacts/ when the test ends;
    the test fails on any error the page raised."""
    from browser import ARTIFACTS, VIEWPORT

    context = browser.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{request.node.name.replace('/', '_')}.png"))
    context.close()
    assert not errors, errors
