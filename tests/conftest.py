"""One Playwright driver for the whole run: the app's and the site's browser tests launch their Chromium from it
(starting the driver and a browser took seconds in every test module that had its own)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def playwright_driver():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p
