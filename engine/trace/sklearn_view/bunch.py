"""sklearn.utils.Bunch: a dict whose keys are also attributes (what load_iris returns)."""
from __future__ import annotations


class Bunch(dict):
    def __init__(self, **kwargs):
        super().__init__(kwargs)

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __dir__(self):
        return list(self.keys())
