"""The inspector: what it lists for the clicked node (pure) and the view."""
