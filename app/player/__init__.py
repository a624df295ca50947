"""The player: stepping controls, the training loop's iterations and bar, the keys, and the step in words."""
