"""One static server and one Chromium for the site's tests; a fresh watched page on it, and the page the Stop and
defence tests share (opened once: loading the site is most of their time)."""

from __future__ import annotations

import pytest

from tests.site import sitekit


@pytest.fixture(scope="session")
def served_site():
    dist = sitekit.ensure_built()
    with sitekit.static_server(dist) as (url, served):
        yield url, served


@pytest.fixture(scope="session")
def chromium(playwright_driver):
    browser = sitekit.launch(playwright_driver)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def site(served_site):
    """The static site's URL (the session's one server)."""
    return served_site[0]


@pytest.fixture
def page(chromium, site, request):
    """A fresh context on the site, screenshotted into test-artifacts/ when the test ends; the test fails on a
    request to another host or an error the page raised."""
    context = chromium.new_context(viewport=sitekit.VIEWPORT)
    watch = sitekit.watch_context(context, site)
    pg = context.new_page()
    sitekit.watch_page(pg, watch)
    yield pg
    sitekit.ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(sitekit.ARTIFACTS / f"site-{request.node.name}.png"))
    context.close()
    assert watch.external == [] and watch.errors == [], (watch.external, watch.errors)


def open_page(chromium, url, init_script=""):
    context = chromium.new_context(viewport=sitekit.VIEWPORT)
    watch = sitekit.watch_context(context, url)
    page = context.new_page()
    if init_script:
        page.add_init_script(init_script)
    sitekit.watch_page(page, watch)
    page.goto(url + "?example=accumulate")
    sitekit.wait_ready(page)
    return context, page, watch


@pytest.fixture(scope="session")
def plain_page(chromium, served_site):
    """The site as a visitor gets it (no test-only entry)."""
    context, page, watch = open_page(chromium, served_site[0])
    yield page
    context.close()
    assert watch.external == [] and watch.errors == [], (watch.external, watch.errors)
