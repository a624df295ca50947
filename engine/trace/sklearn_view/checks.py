"""scikit-learn's input checks (sklearn.utils.validation.check_array and the fitted checks) with its texts."""
from __future__ import annotations

import math

import numpy as np

from ..arrays import charge, plain

FLOAT_DTYPES = (np.float64, np.float32, np.float16)


class NotFittedError(ValueError, AttributeError):
    """sklearn.exceptions.NotFittedError."""


class InvalidParameterError(ValueError, TypeError):
    """sklearn.utils._param_validation.InvalidParameterError: an argument of the wrong kind or range."""


def check_array(X, *, dtype="numeric", ensure_2d=True, copy=False, estimator=None):
    """X as a numpy array: numbers (floats if dtype is FLOAT_DTYPES, keeping a float dtype X has), 2-D."""
    X = plain(X)
    charge(math.prod(X.shape) if hasattr(X, "shape") else 0)  # (a list is charged by plain)
    if isinstance(dtype, tuple):
        kind = getattr(X, "dtype", None)
        array = np.asarray(X, dtype=None if kind in dtype else dtype[0])
    else:
        array = np.asarray(X)
    if ensure_2d and array.ndim == 0:
        raise ValueError(f"Expected 2D array, got scalar array instead:\narray={array}.\nReshape your data either "
                         "using array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) if it "
                         "contains a single sample.")
    if ensure_2d and array.ndim == 1:
        raise ValueError(f"Expected 2D array, got 1D array instead:\narray={array}.\nReshape your data either using "
                         "array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) if it "
                         "contains a single sample.")
    if dtype == "numeric" and array.dtype.kind in "USV":
        raise ValueError("dtype='numeric' is not compatible with arrays of bytes/strings.Convert your data to numeric "
                         "values explicitly instead.")
    if array.dtype.kind == "O":
        array = array.astype(np.float64)
    if array.ndim >= 3:
        raise ValueError(f"Found array with dim {array.ndim}. {estimator} expected <= 2.")
    if array.shape[0] < 1:
        raise ValueError(f"Found array with 0 sample(s) (shape={array.shape}) while a minimum of 1 is required.")
    if ensure_2d and array.shape[1] < 1:
        raise ValueError(f"Found array with 0 feature(s) (shape={array.shape}) while a minimum of 1 is required.")
    return array.copy() if copy and np.may_share_memory(array, X) else array


def check_fitted(estimator, attribute):
    if not hasattr(estimator, attribute):
        raise NotFittedError(f"This {type(estimator).__name__} instance is not fitted yet. Call 'fit' with "
                             "appropriate arguments before using this estimator.")


def check_n_features(estimator, X):
    if X.shape[1] != estimator.n_features_in_:
        raise ValueError(f"X has {X.shape[1]} features, but {type(estimator).__name__} is expecting "
                         f"{estimator.n_features_in_} features as input.")
