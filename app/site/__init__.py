"""What the static site takes from the app: its hooks and the steps recorded without Python (preludes)."""
