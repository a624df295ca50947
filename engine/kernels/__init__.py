"""torch's float32/float64 CPU arithmetic as pure numpy functions (see each module)."""
