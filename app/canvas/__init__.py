"""The canvas builder: its graph and program (pure), the board drawn in the browser, and the builder."""
