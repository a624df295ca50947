"""sklearn.model_selection's train_test_split (plain and stratified) and KFold, as scikit-learn 1.6.1 draws
them: the same permutations from the same RandomState, so a seeded split picks the same rows."""
from __future__ import annotations

import numbers
from math import ceil, floor

import numpy as np

from ..arrays import plain
from .checks import InvalidParameterError
from .indexing import check_consistent_length, n_samples, take_rows


def _size_error(name, value, count):
    return ValueError(f"{name}={value} should be either positive and smaller than the number of samples {count} or "
                      "a float in the (0, 1) range")


def split_sizes(count, test_size, train_size, default_test_size=None):
    """sklearn's _validate_shuffle_split: (n_train, n_test), with its errors."""
    if test_size is None and train_size is None:
        test_size = default_test_size
    test_kind, train_kind = np.asarray(test_size).dtype.kind, np.asarray(train_size).dtype.kind
    for name, size, kind in (("test_size", test_size, test_kind), ("train_size", train_size, train_kind)):
        if kind == "i" and (size >= count or size <= 0) or kind == "f" and (size <= 0 or size >= 1):
            raise _size_error(name, size, count)
    if train_size is not None and train_kind not in ("i", "f"):
        raise ValueError(f"Invalid value for train_size: {train_size}")
    if test_size is not None and test_kind not in ("i", "f"):
        raise ValueError(f"Invalid value for test_size: {test_size}")
    if train_kind == "f" and test_kind == "f" and train_size + test_size > 1:
        raise ValueError(f"The sum of test_size and train_size = {train_size + test_size}, should be in the (0, 1) "
                         "range. Reduce test_size and/or train_size.")
    n_test = ceil(test_size * count) if test_kind == "f" else float(test_size) if test_kind == "i" else None
    n_train = floor(train_size * count) if train_kind == "f" else float(train_size) if train_kind == "i" else None
    if train_size is None:
        n_train = count - n_test
    elif test_size is None:
        n_test = count - n_train
    if n_train + n_test > count:
        raise ValueError(f"The sum of train_size and test_size = {int(n_train + n_test)}, should be smaller than the "
                         f"number of samples {count}. Reduce test_size and/or train_size.")
    n_train, n_test = int(n_train), int(n_test)
    if n_train == 0:
        raise ValueError(f"With n_samples={count}, test_size={test_size} and train_size={train_size}, the resulting "
                         "train set will be empty. Adjust any of the aforementioned parameters.")
    return n_train, n_test


def approximate_mode(class_counts, n_draws, rng):
    """sklearn.utils.extmath._approximate_mode: how many of each class a stratified draw takes."""
    continuous = class_counts / class_counts.sum() * n_draws
    floored = np.floor(continuous)
    need = int(n_draws - floored.sum())
    if need > 0:
        remainder = continuous - floored
        for value in np.sort(np.unique(remainder))[::-1]:
            (inds,) = np.where(remainder == value)
            add_now = min(len(inds), need)
            floored[rng.choice(inds, size=add_now, replace=False)] += 1
            need -= add_now
            if need == 0:
                break
    return floored.astype(int)


def _stratified(y, n_train, n_test, rng):
    """StratifiedShuffleSplit's first split."""
    y = np.asarray(plain(y))
    if y.ndim == 2:
        y = np.array([" ".join(row.astype("str")) for row in y])
    classes, y_indices = np.unique(y, return_inverse=True)
    class_counts = np.bincount(y_indices)
    if np.min(class_counts) < 2:
        raise ValueError("The least populated class in y has only 1 member, which is too few. The minimum number of "
                         "groups for any class cannot be less than 2.")
    if n_train < len(classes):
        raise ValueError(f"The train_size = {n_train} should be greater or equal to the number of classes = "
                         f"{len(classes)}")
    if n_test < len(classes):
        raise ValueError(f"The test_size = {n_test} should be greater or equal to the number of classes = "
                         f"{len(classes)}")
    class_indices = np.split(np.argsort(y_indices, kind="mergesort"), np.cumsum(class_counts)[:-1])
    n_i = approximate_mode(class_counts, n_train, rng)
    t_i = approximate_mode(class_counts - n_i, n_test, rng)
    train, test = [], []
    for i in range(len(classes)):
        rows = class_indices[i].take(rng.permutation(class_counts[i]), mode="clip")
        train.extend(rows[:n_i[i]])
        test.extend(rows[n_i[i]:n_i[i] + t_i[i]])
    return rng.permutation(train), rng.permutation(test)


def train_test_split(seeding, *arrays, test_size=None, train_size=None, random_state=None, shuffle=True,
                     stratify=None):
    for name, size in (("test_size", test_size), ("train_size", train_size)):
        if not (size is None or isinstance(size, numbers.Integral) and not isinstance(size, bool) and size >= 1
                or isinstance(size, numbers.Real) and not isinstance(size, numbers.Integral) and 0 < size < 1):
            raise InvalidParameterError(f"The {name!r} parameter of train_test_split must be a float in the range "
                                        f"(0.0, 1.0), an int in the range [1, inf) or None. Got {size!r} instead.")
    if not arrays:
        raise ValueError("At least one array required as input")
    arrays = [a if a is None or hasattr(a, "__getitem__") else np.array(a) for a in arrays]  # sklearn's indexable
    check_consistent_length(*arrays)
    count = n_samples(arrays[0])
    n_train, n_test = split_sizes(count, test_size, train_size, default_test_size=0.25)
    if not shuffle:
        if stratify is not None:
            raise ValueError("Stratified train/test split is not implemented for shuffle=False")
        train, test = np.arange(n_train), np.arange(n_train, n_train + n_test)
    elif stratify is not None:
        train, test = _stratified(stratify, n_train, n_test, seeding(random_state))
    else:
        permutation = seeding(random_state).permutation(count)
        train, test = permutation[n_test:n_test + n_train], permutation[:n_test]
    return [part for a in arrays for part in (take_rows(plain(a), train), take_rows(plain(a), test))]


class KFold:
    """sklearn.model_selection.KFold: n_splits folds of consecutive (or, with shuffle, permuted) rows."""

    _seeding = None  # the run's (random_state.check_random_state): set on the run's own subclass

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        if not isinstance(n_splits, numbers.Integral):
            raise ValueError(f"The number of folds must be of Integral type. {n_splits} of type "
                             f"{type(n_splits)} was passed.")
        n_splits = int(n_splits)
        if n_splits <= 1:
            raise ValueError("k-fold cross-validation requires at least one train/test split by setting "
                             f"n_splits=2 or more, got n_splits={n_splits}.")
        if not isinstance(shuffle, bool):
            raise TypeError(f"shuffle must be True or False; got {shuffle}")
        if not shuffle and random_state is not None:
            raise ValueError("Setting a random_state has no effect since shuffle is False. You should leave "
                             "random_state to its default (None), or set shuffle=True.")
        self.n_splits, self.shuffle, self.random_state = n_splits, shuffle, random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits

    def split(self, X, y=None, groups=None):
        count = n_samples(X)
        if self.n_splits > count:
            raise ValueError(f"Cannot have number of splits n_splits={self.n_splits} greater than the number of "
                             f"samples: n_samples={count}.")
        indices = np.arange(count)
        if self.shuffle:
            self._seeding(self.random_state).shuffle(indices)
        sizes = np.full(self.n_splits, count // self.n_splits, dtype=int)
        sizes[:count % self.n_splits] += 1
        current = 0
        for size in sizes:
            test = indices[current:current + size]
            mask = np.zeros(count, dtype=bool)
            mask[test] = True
            yield np.arange(count)[~mask], np.arange(count)[mask]
            current += size

    def __repr__(self):
        return f"KFold(n_splits={self.n_splits}, random_state={self.random_state}, shuffle={self.shuffle})"
