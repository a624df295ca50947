"""Pieces the views share: HTML that changes every step, CSS for narrow windows, accessibility."""
