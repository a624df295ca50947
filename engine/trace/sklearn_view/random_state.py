"""scikit-learn's `random_state=` argument: None draws from the run's own numpy RandomState (what
`np.random.seed` seeds in a program), an int seeds a new one, a RandomState is used as it is."""
from __future__ import annotations

import numbers

import numpy as np

from ..numpy_view import RandomState


def check_random_state(seed, run_state):
    """numpy's RandomState behind `seed` (sklearn.utils.check_random_state), `run_state` for None."""
    if seed is None:
        return run_state
    if isinstance(seed, numbers.Integral):
        return np.random.RandomState(seed)
    if isinstance(seed, RandomState):
        return seed._state  # noqa: SLF001 - the numpy view's RandomState keeps it for us
    if isinstance(seed, np.random.RandomState):
        return seed
    raise ValueError(f"{seed!r} cannot be used to seed a numpy.random.RandomState instance")
