"""The explorer's scikit-learn (engine/trace/sklearn_view) against scikit-learn 1.6.1: seeded calls give the same
arrays (values, dtypes, shapes) and the same errors; a program that makes its data with sklearn trains through
the runner; the rest of sklearn is refused saying what is there."""
from __future__ import annotations

import numpy as np
import pytest
import sklearn
import sklearn.datasets as real_datasets
import sklearn.metrics as real_metrics
import sklearn.model_selection as real_model_selection
import sklearn.preprocessing as real_preprocessing
import sklearn.utils as real_utils

from engine.trace.arrays import as_array, ndarray
from engine.trace.runner import run
from engine.trace.sklearn_view import sklearn_views
from tests.engine.difftest import run_source


class _Run:
    """What sklearn_views needs of a run: its numpy RandomState."""

    def __init__(self):
        self.state = np.random.RandomState(0)

    def numpy_state(self):
        return self.state


VIEWS = sklearn_views(_Run(), "sklearn")
ours = {name.rpartition(".")[2]: view for name, view in VIEWS.items()}


def same(mine, theirs):
    if isinstance(theirs, (tuple, list)):
        assert type(mine) is type(theirs) and len(mine) == len(theirs)
        for a, b in zip(mine, theirs):
            same(a, b)
    elif isinstance(theirs, np.ndarray):
        assert isinstance(mine, ndarray), type(mine)
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
        np.testing.assert_array_equal(np.asarray(mine), theirs)
    else:
        assert type(mine) is type(theirs) and (mine == theirs or mine != mine and theirs != theirs), (mine, theirs)


def test_version():
    assert sklearn.__version__ == VIEWS["sklearn"].__version__ == "1.6.1"


@pytest.mark.parametrize("name, kwargs", [
    ("make_moons", {"n_samples": 101, "noise": 0.1, "random_state": 0}),
    ("make_moons", {"n_samples": (3, 5), "shuffle": False}),
    ("make_circles", {"n_samples": 50, "noise": 0.05, "factor": 0.5, "random_state": 3}),
    ("make_blobs", {"n_samples": 61, "centers": 4, "cluster_std": 0.5, "random_state": 7}),
    ("make_blobs", {"n_samples": [5, 7], "centers": [[0, 0], [3, 3]], "random_state": 1, "return_centers": True}),
    ("make_classification", {"n_samples": 40, "random_state": 0}),
    ("make_classification", {"n_samples": 33, "n_features": 6, "n_informative": 5, "n_redundant": 0,
                             "n_repeated": 1, "n_classes": 3, "weights": [0.2, 0.3], "hypercube": False,
                             "shift": None, "scale": None, "random_state": 2}),
    ("make_classification", {"n_samples": 20, "n_features": 40, "n_informative": 35, "n_redundant": 0,
                             "random_state": 5}),
    ("make_classification", {"n_samples": 50, "n_features": 12, "n_informative": 10, "n_classes": 4,
                             "random_state": 6}),
    ("make_regression", {"n_samples": 30, "n_features": 4, "noise": 0.5, "bias": 2.0, "coef": True,
                         "random_state": 0}),
    ("make_regression", {"n_samples": 10, "n_features": 3, "n_targets": 2, "random_state": 4}),
    ("make_swiss_roll", {"n_samples": 20, "noise": 0.1, "random_state": 0}),
    ("make_swiss_roll", {"n_samples": 20, "hole": True, "random_state": 0}),
    ("make_s_curve", {"n_samples": 20, "noise": 0.1, "random_state": 0}),
])
def test_generators_draw_as_sklearn(name, kwargs):
    same(getattr(ours["datasets"], name)(**kwargs), getattr(real_datasets, name)(**kwargs))


def test_random_state_none_draws_from_the_run_state():
    run_state = _Run()
    views = sklearn_views(run_state, "sklearn")
    run_state.state.seed(3)
    np.random.seed(3)
    same(views["sklearn.datasets"].make_moons(20, noise=0.1), real_datasets.make_moons(20, noise=0.1))
    same(views["sklearn.model_selection"].train_test_split(np.arange(9)),
         real_model_selection.train_test_split(np.arange(9)))


@pytest.mark.parametrize("name, kwargs", [("load_iris", {}), ("load_diabetes", {}),
                                          ("load_diabetes", {"scaled": False})])
def test_loaded_data_is_sklearns(name, kwargs):
    mine, theirs = getattr(ours["datasets"], name)(**kwargs), getattr(real_datasets, name)(**kwargs)
    assert list(mine) == list(theirs)
    for key in theirs:
        same(mine[key], theirs[key])
    same(mine.data, theirs.data)
    same(getattr(ours["datasets"], name)(return_X_y=True), getattr(real_datasets, name)(return_X_y=True))


X = np.arange(40.0).reshape(20, 2) ** 1.5
Y = np.arange(20) % 3


@pytest.mark.parametrize("kwargs", [
    {"random_state": 0}, {"test_size": 0.3, "random_state": 1}, {"train_size": 5, "test_size": 4, "random_state": 2},
    {"shuffle": False, "test_size": 3}, {"stratify": Y, "random_state": 0, "test_size": 0.25},
])
def test_train_test_split(kwargs):
    same(ours["model_selection"].train_test_split(X, Y, **kwargs),
         real_model_selection.train_test_split(X, Y, **kwargs))
    same(ours["model_selection"].train_test_split(list(range(20)), **kwargs),
         real_model_selection.train_test_split(list(range(20)), **kwargs))


def test_kfold_and_shuffle():
    for kwargs in ({"n_splits": 3}, {"n_splits": 4, "shuffle": True, "random_state": 0}):
        mine = list(ours["model_selection"].KFold(**kwargs).split(X))
        same(mine, list(real_model_selection.KFold(**kwargs).split(X)))
        assert repr(ours["model_selection"].KFold(**kwargs)) == repr(real_model_selection.KFold(**kwargs))
    same(ours["utils"].shuffle(X, Y, random_state=4), real_utils.shuffle(X, Y, random_state=4))
    same(ours["utils"].shuffle(X, random_state=4, n_samples=5), real_utils.shuffle(X, random_state=4, n_samples=5))


@pytest.mark.parametrize("name, kwargs", [
    ("StandardScaler", {}), ("StandardScaler", {"with_mean": False}), ("MinMaxScaler", {}),
    ("MinMaxScaler", {"feature_range": (-1, 1), "clip": True}),
])
def test_scalers(name, kwargs):
    data = np.random.RandomState(0).normal(2.0, 3.0, size=(30, 3))
    data[:, 2] = 4.0  # a constant feature: scale 1
    for dtype in (np.float64, np.float32, np.int64):
        mine, theirs = getattr(ours["preprocessing"], name)(**kwargs), getattr(real_preprocessing, name)(**kwargs)
        fit = data.astype(dtype)
        same(mine.fit_transform(fit), theirs.fit_transform(fit))
        same(mine.transform(fit[:4] + 1), theirs.transform(fit[:4] + 1))
        same(mine.inverse_transform(fit[:4]), theirs.inverse_transform(fit[:4]))
        for attr in ("mean_", "var_", "scale_", "min_", "data_min_", "data_range_", "n_samples_seen_"):
            if hasattr(theirs, attr):
                got, want = getattr(mine, attr), getattr(theirs, attr)
                same(as_array(got), want)
        assert repr(mine) == repr(theirs) and mine.n_features_in_ == theirs.n_features_in_


def _error(fn, *args, **kwargs):
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    return type(info.value).__name__, str(info.value)


@pytest.mark.parametrize("call", [
    lambda m: m.preprocessing.StandardScaler().fit(np.arange(3.0)),
    lambda m: m.preprocessing.StandardScaler().transform(X),
    lambda m: m.preprocessing.StandardScaler().fit(X).transform(np.ones((2, 3))),
    lambda m: m.preprocessing.MinMaxScaler(feature_range=(1, 0)).fit(X),
    lambda m: m.model_selection.train_test_split(X, Y[:5]),
    lambda m: m.model_selection.train_test_split(X, test_size=1.5),
    lambda m: m.model_selection.train_test_split(X, test_size=25),
    lambda m: m.model_selection.train_test_split(),
    lambda m: m.preprocessing.LabelEncoder().fit(["a", "b"]).transform(["c"]),
    lambda m: m.preprocessing.LabelEncoder().fit([1, 2]).transform([3]),
    lambda m: m.metrics.accuracy_score([0, 1, 0], [1, 0]),
    lambda m: m.metrics.accuracy_score([0, 1, 0], [0.5, 1, 0.2]),
    lambda m: m.datasets.make_classification(n_features=3),
    lambda m: m.metrics.precision_score([0, 1, 2], [0, 1, 1]),
    lambda m: m.model_selection.train_test_split(X, Y, 0.2),
    lambda m: m.metrics.roc_auc_score([0, 1, 2], [0.1, 0.2, 0.3]),
    lambda m: m.metrics.roc_curve([1, 2, 2], [0.1, 0.2, 0.3]),
    lambda m: m.metrics.auc([0, 1, 0.5], [1, 2, 3]),
    lambda m: m.preprocessing.StandardScaler().fit([["a"]]),
    lambda m: m.model_selection.train_test_split(X, np.arange(20), test_size=0.2, stratify=np.arange(20)),
    lambda m: m.metrics.f1_score(["a", "b"], ["a", "b"]),
    lambda m: m.metrics.classification_report([0, 1, 2], [0, 1, 1], target_names=["x"]),
])
def test_errors_as_sklearn(call):
    class Real:
        preprocessing, model_selection, metrics, datasets = (real_preprocessing, real_model_selection, real_metrics,
                                                             real_datasets)

    class Mine:
        preprocessing, model_selection, metrics, datasets = (ours["preprocessing"], ours["model_selection"],
                                                             ours["metrics"], ours["datasets"])

    assert _error(call, Mine) == _error(call, Real)


def test_encoders_and_metrics():
    labels = ["cat", "dog", "cat", "bird"]
    mine, theirs = ours["preprocessing"].LabelEncoder(), real_preprocessing.LabelEncoder()
    same(mine.fit_transform(labels), theirs.fit_transform(labels))
    same(as_array(mine.classes_), theirs.classes_)  # (the runner hands attributes out as the program's arrays)
    same(mine.inverse_transform([2, 0]), theirs.inverse_transform([2, 0]))
    same(ours["preprocessing"].LabelEncoder().fit([3, 1, 3]).transform([1, 3]),
         real_preprocessing.LabelEncoder().fit([3, 1, 3]).transform([1, 3]))
    table = np.array([[0, 1], [2, 1], [0, 3]])
    same(ours["preprocessing"].OneHotEncoder(sparse_output=False).fit_transform(table),
         real_preprocessing.OneHotEncoder(sparse_output=False).fit_transform(table))
    for kwargs, rows in (({"handle_unknown": "ignore"}, [[2, 5], [0, 1]]), ({"dtype": np.float32}, [[2, 1], [0, 3]])):
        same(ours["preprocessing"].OneHotEncoder(sparse_output=False, **kwargs).fit(table).transform(rows),
             real_preprocessing.OneHotEncoder(sparse_output=False, **kwargs).fit(table).transform(rows))
    words = np.array([["b"], ["a"], ["b"]])
    same(ours["preprocessing"].OneHotEncoder(sparse_output=False).fit_transform(words),
         real_preprocessing.OneHotEncoder(sparse_output=False).fit_transform(words))
    assert _error(ours["preprocessing"].OneHotEncoder(sparse_output=False).fit(table).transform, [[2, 5]]) == \
        _error(real_preprocessing.OneHotEncoder(sparse_output=False).fit(table).transform, [[2, 5]])
    same(ours["datasets"].make_blobs(7, centers=2, cluster_std=[0.5, 2.0], random_state=0),
         real_datasets.make_blobs(7, centers=2, cluster_std=[0.5, 2.0], random_state=0))
    truth, guess = np.array([0, 1, 2, 2, 1, 0]), np.array([0, 2, 2, 1, 1, 0])
    for name in ("accuracy_score", "confusion_matrix"):
        same(getattr(ours["metrics"], name)(truth, guess), getattr(real_metrics, name)(truth, guess))
    same(ours["metrics"].accuracy_score(truth, guess, normalize=False),
         real_metrics.accuracy_score(truth, guess, normalize=False))
    for kwargs in ({}, {"target_names": ["a", "bb", "a long name"], "digits": 4}, {"labels": [0, 1]},
                   {"output_dict": True}):
        assert ours["metrics"].classification_report(truth, guess, **kwargs) == \
            real_metrics.classification_report(truth, guess, **kwargs)
    binary = ([0, 1, 1, 0, 1], [0, 1, 0, 0, 0])
    for name in ("precision_score", "recall_score", "f1_score"):
        same(getattr(ours["metrics"], name)(*binary), getattr(real_metrics, name)(*binary))
        for average in ("macro", "micro", "weighted", None):
            same(getattr(ours["metrics"], name)(truth, guess, average=average),
                 getattr(real_metrics, name)(truth, guess, average=average))
    with pytest.warns(Warning, match="Precision is ill-defined and being set to 0.0 due to no predicted samples"):
        assert ours["metrics"].precision_score([0, 0, 1], [0, 0, 0]) == 0.0
    labels, scores = np.array([0, 1, 1, 0, 1, 0, 1, 1]), np.array([0.1, 0.8, 0.4, 0.4, 0.9, 0.3, 0.35, 0.8])
    for name, args in (("roc_curve", (labels, scores)), ("roc_auc_score", (labels, scores)),
                       ("roc_auc_score", (labels * 2 - 1, scores)), ("roc_curve", (labels + 1, scores, 2)),
                       ("auc", ([0, 0.5, 1], [0, 0.7, 1]))):
        kwargs = {"pos_label": args[2]} if len(args) == 3 else {}
        same(getattr(ours["metrics"], name)(*args[:2], **kwargs), getattr(real_metrics, name)(*args[:2], **kwargs))
    a, b = np.array([1.0, 2.5, 3.0, 7.0]), np.array([1.5, 2.0, 3.5, 6.0])
    for name in ("mean_squared_error", "mean_absolute_error", "r2_score"):
        same(getattr(ours["metrics"], name)(a, b), getattr(real_metrics, name)(a, b))


PROGRAM = """import torch
import torch.nn as nn
from sklearn.datasets import make_moons
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.metrics import accuracy_score
X, y = make_moons(n_samples=120, noise=0.2, random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=42)
scaler = StandardScaler()
X_train = torch.tensor(scaler.fit_transform(X_train), dtype=torch.float32)
X_test = torch.from_numpy(scaler.transform(X_test)).float()
y_train = torch.from_numpy(y_train).float()
print(X_train.shape, X_train.dtype, y_train[:5])
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(20):
    opt.zero_grad()
    loss = nn.functional.binary_cross_entropy_with_logits(model(X_train).squeeze(1), y_train)
    loss.backward()
    opt.step()
print(round(loss.item(), 4))
with torch.no_grad():
    pred = (model(X_test).squeeze(1) > 0).long().numpy()
print(accuracy_score(y_test, pred), loss.grad_fn.name())
print(StandardScaler().fit(X_train).mean_, accuracy_score(torch.from_numpy(y_test), torch.from_numpy(pred)))
import numpy as np
rs = np.random.RandomState(5)
print(make_moons(4, random_state=rs)[0], train_test_split([1, 2, 3, 4], random_state=rs), rs.rand())
a, b = train_test_split(torch.arange(10.0), random_state=1)
print(a, b, StandardScaler().fit_transform(a.reshape(-1, 1)).dtype)
"""


def test_a_program_trains_on_sklearn_data():
    real = run_source(PROGRAM, "torch")
    assert real.exc is None, real.exc
    timeline = run(PROGRAM)
    assert timeline.error is None
    assert timeline.output == real.stdout


@pytest.mark.parametrize("source, words", [
    ("from sklearn.linear_model import LogisticRegression", ["('sklearn.linear_model')", "sklearn.datasets (",
                                                            "build the model in torch"]),
    ("import sklearn.svm", ["('sklearn.svm')", "its models"]),
    ("from sklearn.datasets import fetch_openml", ["cannot import name 'fetch_openml' from 'sklearn.datasets'",
                                                   "make_moons"]),
    ("import sklearn\nsklearn.cluster", ["module 'sklearn' has no attribute 'cluster'", "sklearn.metrics"]),
    ("from sklearn.preprocessing import OneHotEncoder\nOneHotEncoder()", ["sparse_output=False"]),
])
def test_the_rest_is_refused_saying_what_is_there(source, words):
    timeline = run(source)
    text = str(timeline.error)
    assert all(word in text for word in words), text
