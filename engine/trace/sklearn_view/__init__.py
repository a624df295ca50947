"""`import sklearn` / `from sklearn.datasets import make_moons`: the parts of scikit-learn 1.6.1 PyTorch
tutorials use to make and prepare their data and score their models (datasets.py, iris.py, diabetes.py,
model_selection.py, preprocessing.py, metrics.py, scores.py, ranking.py), computed with numpy as scikit-learn computes
them; nothing of scikit-learn is imported. What they draw with random_state=None comes from the run's own
numpy RandomState (np.random.seed seeds it)."""
from __future__ import annotations

import functools
import math

from ..arrays import charge
from ..module_views import SafeModule
from .bunch import Bunch
from .checks import NotFittedError
from .datasets import GENERATORS, SIZES
from .diabetes import load_diabetes
from .handout import arrays_out, handing_out_arrays
from .indexing import shuffled
from .iris import load_iris
from .metrics import METRICS
from .model_selection import KFold, train_test_split
from .preprocessing import LabelEncoder, MinMaxScaler, OneHotEncoder, StandardScaler
from .random_state import check_random_state
from .ranking import RANKING
from .scores import SCORES, UndefinedMetricWarning

VERSION = "1.6.1"
ADMITTED = {
    "sklearn.datasets": [*GENERATORS, "load_iris", "load_diabetes"],
    "sklearn.model_selection": ["train_test_split", "KFold"],
    "sklearn.preprocessing": ["StandardScaler", "MinMaxScaler", "LabelEncoder", "OneHotEncoder"],
    "sklearn.metrics": [*METRICS, *SCORES, *RANKING],
    "sklearn.utils": ["shuffle", "Bunch"],
    "sklearn.exceptions": ["NotFittedError", "UndefinedMetricWarning"],
}
ESTIMATORS = [StandardScaler, MinMaxScaler, LabelEncoder, OneHotEncoder, KFold]
for _cls in ESTIMATORS:
    handing_out_arrays(_cls)


def _size(value):
    return math.prod(getattr(value, "shape", None) or (len(value),)) if hasattr(value, "__len__") else 1


def _generator(name, seeding):
    fn, size = GENERATORS[name], SIZES[name]

    @functools.wraps(fn)
    def generate(n_samples=100, *args, random_state=None, **kwargs):
        charge(size(n_samples, *args, **kwargs))
        return fn(seeding(random_state), n_samples, *args, **kwargs)

    return arrays_out(generate)


def sklearn_views(runtime, package):
    """The sklearn modules for the run of `runtime`: random_state=None draws from its numpy RandomState."""
    def seeding(random_state):
        return check_random_state(random_state, runtime.numpy_state())

    @arrays_out
    def split(*arrays, test_size=None, train_size=None, random_state=None, shuffle=True, stratify=None):
        charge(sum(_size(a) for a in arrays))
        return train_test_split(seeding, *arrays, test_size=test_size, train_size=train_size,
                                random_state=random_state, shuffle=shuffle, stratify=stratify)

    @arrays_out
    def shuffle(*arrays, random_state=None, n_samples=None):
        if not arrays:
            return None
        charge(sum(_size(a) for a in arrays))
        out = shuffled(list(arrays), seeding(random_state), n_samples)
        return out[0] if len(out) == 1 else out

    split.__name__ = split.__qualname__ = "train_test_split"
    kfold = type("KFold", (KFold,), {"_seeding": staticmethod(seeding), "__module__": KFold.__module__,
                                     "__qualname__": "KFold"})
    names = {
        "sklearn.datasets": {**{name: _generator(name, seeding) for name in GENERATORS},
                             "load_iris": arrays_out(load_iris), "load_diabetes": arrays_out(load_diabetes)},
        "sklearn.model_selection": {"train_test_split": split, "KFold": kfold},
        "sklearn.preprocessing": {"StandardScaler": StandardScaler, "MinMaxScaler": MinMaxScaler,
                                  "LabelEncoder": LabelEncoder, "OneHotEncoder": OneHotEncoder},
        "sklearn.metrics": {name: arrays_out(fn) for name, fn in {**METRICS, **SCORES, **RANKING}.items()},
        "sklearn.utils": {"shuffle": shuffle, "Bunch": Bunch},
        "sklearn.exceptions": {"NotFittedError": NotFittedError, "UndefinedMetricWarning": UndefinedMetricWarning},
    }
    views = {name: SafeModule(name, attrs, hint=hint(name)) for name, attrs in names.items()}
    top = {name.rpartition(".")[2]: view for name, view in views.items()}
    views["sklearn"] = SafeModule("sklearn", {**top, "__version__": VERSION}, hint=hint("sklearn"))
    return views


def hint(module):
    """What a program is told when it asks `module` for a name it lacks."""
    if module == "sklearn":
        return f"the explorer has these modules of scikit-learn: {', '.join(ADMITTED)}"
    return f"the explorer has these names of {module}: {', '.join(ADMITTED[module])}"
