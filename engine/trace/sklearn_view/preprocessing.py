"""sklearn.preprocessing's StandardScaler, MinMaxScaler, LabelEncoder and OneHotEncoder (dense), computed as
scikit-learn 1.6.1 computes them (float64 accumulators, its zero-scale rule), with its errors."""
from __future__ import annotations

import numpy as np

from .checks import FLOAT_DTYPES, check_array, check_fitted, check_n_features
from .columns import column_or_1d, encode, unique_labels


def _scale_of(scale, constant_mask=None):
    """sklearn's _handle_zeros_in_scale: 1 where a feature is (near) constant."""
    if constant_mask is None:
        constant_mask = scale < 10 * np.finfo(scale.dtype).eps
    scale = scale.copy()
    scale[constant_mask] = 1.0
    return scale


class Transformer:
    _defaults: dict = {}

    def fit_transform(self, X, y=None):
        return self.fit(X, y).transform(X)

    def get_params(self, deep=True):
        return {name: getattr(self, name) for name in sorted(self._defaults)}

    def __repr__(self):
        changed = [f"{name}={getattr(self, name)!r}" for name, default in sorted(self._defaults.items())
                   if getattr(self, name) != default]
        return f"{type(self).__name__}({', '.join(changed)})"


class StandardScaler(Transformer):
    _defaults = {"copy": True, "with_mean": True, "with_std": True}

    def __init__(self, *, copy=True, with_mean=True, with_std=True):
        self.copy, self.with_mean, self.with_std = copy, with_mean, with_std

    def fit(self, X, y=None, sample_weight=None):
        if sample_weight is not None:
            raise ValueError("StandardScaler.fit(sample_weight=...) is not available in the explorer")
        X = check_array(X, dtype=FLOAT_DTYPES, estimator="StandardScaler")
        self.n_features_in_ = X.shape[1]
        count = X.shape[0] - np.sum(np.isnan(X), axis=0)
        total = np.nansum(X, axis=0, dtype=np.float64 if X.dtype.itemsize < 8 else None)
        self.mean_ = total / count
        temp = X - total / count
        correction = np.nansum(temp, axis=0, dtype=np.float64 if temp.dtype.itemsize < 8 else None)
        temp **= 2
        variance = np.nansum(temp, axis=0, dtype=np.float64 if temp.dtype.itemsize < 8 else None)
        variance -= correction**2 / count
        self.var_ = variance / count
        if not self.with_mean and not self.with_std:
            self.mean_ = self.var_ = None
        self.n_samples_seen_ = count[0] if np.ptp(count) == 0 else count
        if self.with_std:
            eps = np.finfo(np.float64).eps
            n = self.n_samples_seen_
            constant = self.var_ <= n * eps * self.var_ + (n * self.mean_ * eps) ** 2
            self.scale_ = _scale_of(np.sqrt(self.var_), constant)
        else:
            self.var_ = None
            self.scale_ = None
        return self

    def transform(self, X, copy=None):
        check_fitted(self, "n_features_in_")
        X = check_array(X, dtype=FLOAT_DTYPES, copy=True, estimator="StandardScaler")
        check_n_features(self, X)
        if self.with_mean:
            X -= self.mean_
        if self.with_std:
            X /= self.scale_
        return X

    def inverse_transform(self, X, copy=None):
        check_fitted(self, "n_features_in_")
        X = check_array(X, dtype=FLOAT_DTYPES, copy=True, estimator="StandardScaler")
        if self.with_std:
            X *= self.scale_
        if self.with_mean:
            X += self.mean_
        return X


class MinMaxScaler(Transformer):
    _defaults = {"feature_range": (0, 1), "copy": True, "clip": False}

    def __init__(self, feature_range=(0, 1), *, copy=True, clip=False):
        self.feature_range, self.copy, self.clip = feature_range, copy, clip

    def fit(self, X, y=None):
        low, high = self.feature_range
        if low >= high:
            raise ValueError(f"Minimum of desired feature range must be smaller than maximum. Got "
                             f"{self.feature_range}.")
        X = check_array(X, dtype=FLOAT_DTYPES, estimator="MinMaxScaler")
        self.n_features_in_ = X.shape[1]
        data_min, data_max = np.nanmin(X, axis=0), np.nanmax(X, axis=0)
        self.n_samples_seen_ = X.shape[0]
        data_range = data_max - data_min
        self.scale_ = (high - low) / _scale_of(data_range)
        self.min_ = low - data_min * self.scale_
        self.data_min_, self.data_max_, self.data_range_ = data_min, data_max, data_range
        return self

    def transform(self, X):
        check_fitted(self, "n_features_in_")
        X = check_array(X, dtype=FLOAT_DTYPES, copy=True, estimator="MinMaxScaler")
        check_n_features(self, X)
        X *= self.scale_
        X += self.min_
        if self.clip:
            np.clip(X, np.asarray(self.feature_range[0], dtype=X.dtype),
                    np.asarray(self.feature_range[1], dtype=X.dtype), out=X)
        return X

    def inverse_transform(self, X):
        check_fitted(self, "n_features_in_")
        X = check_array(X, dtype=FLOAT_DTYPES, copy=True, estimator="MinMaxScaler")
        X -= self.min_
        X /= self.scale_
        return X


class LabelEncoder(Transformer):
    def fit(self, y):
        self.classes_ = unique_labels(column_or_1d(y))
        return self

    def fit_transform(self, y):
        self.classes_, y = unique_labels(column_or_1d(y), return_inverse=True)
        return y

    def transform(self, y):
        check_fitted(self, "classes_")
        y = column_or_1d(y, dtype=self.classes_.dtype)
        return encode(y, self.classes_) if y.size else np.array([])

    def inverse_transform(self, y):
        check_fitted(self, "classes_")
        y = column_or_1d(y)
        if y.size == 0:
            return np.array([])
        diff = np.setdiff1d(y, np.arange(len(self.classes_)))
        if len(diff):
            raise ValueError(f"y contains previously unseen labels: {diff}")
        return self.classes_[np.asarray(y)]

    def __repr__(self):
        return "LabelEncoder()"


class OneHotEncoder(Transformer):
    """Dense output only (sparse_output=False), categories="auto", handle_unknown "error" or "ignore"."""

    _defaults = {"categories": "auto", "drop": None, "sparse_output": True, "dtype": np.float64,
                 "handle_unknown": "error"}

    def __init__(self, *, categories="auto", drop=None, sparse_output=True, dtype=np.float64,
                 handle_unknown="error"):
        if sparse_output:
            raise ValueError("OneHotEncoder gives a scipy sparse matrix by default, which the explorer does not "
                             "have: pass sparse_output=False for a numpy array")
        if categories != "auto" or drop is not None:
            raise ValueError("OneHotEncoder(categories=..., drop=...) is not available in the explorer")
        if handle_unknown not in ("error", "ignore"):
            raise ValueError("The 'handle_unknown' parameter of OneHotEncoder must be a str among {'error', "
                             f"'ignore', 'infrequent_if_exist', 'warn'}}. Got {handle_unknown!r} instead.")
        self.categories, self.drop, self.sparse_output = categories, drop, sparse_output
        self.dtype, self.handle_unknown = dtype, handle_unknown

    def fit(self, X, y=None):
        X = check_array(X, dtype=None, estimator="OneHotEncoder")
        self.n_features_in_ = X.shape[1]
        self.categories_ = [unique_labels(X[:, i]) for i in range(X.shape[1])]
        return self

    def transform(self, X):
        check_fitted(self, "categories_")
        X = check_array(X, dtype=None, estimator="OneHotEncoder")
        check_n_features(self, X)
        blocks = []
        for i, categories in enumerate(self.categories_):
            column = X[:, i]
            known = np.isin(column, categories)
            if not known.all() and self.handle_unknown == "error":
                raise ValueError(f"Found unknown categories {list(np.unique(column[~known]))} in column {i} "
                                 "during transform")
            block = np.zeros((len(column), len(categories)), dtype=self.dtype)
            rows = np.flatnonzero(known)
            block[rows, np.searchsorted(categories, column[known])] = 1
            blocks.append(block)
        return np.hstack(blocks)
