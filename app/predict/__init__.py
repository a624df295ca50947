"""Predict, then reveal: the rules (pure) and the view."""
