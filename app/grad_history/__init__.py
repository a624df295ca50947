"""Each leaf's .grad after every backward call: the history (pure) and the view."""
