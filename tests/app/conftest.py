"""Fixtures for the app tests: timelines recorded by the engine."""

from __future__ import annotations

import pytest

from app import timeline as tl


@pytest.fixture
def record():
    """record(source) -> Timeline, exactly as the app records programs."""
    return tl.run
