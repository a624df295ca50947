"""scikit-learn 1.6.1's toy data generators (sklearn.datasets.make_*): the same numpy draws in the same order,
so a seeded call gives sklearn's arrays value for value (float64 X, int64 y)."""
from __future__ import annotations

import numbers
from collections.abc import Iterable

import numpy as np

from .checks import check_array
from .indexing import shuffled


def _two_counts(n_samples, message):
    if isinstance(n_samples, numbers.Integral):
        return n_samples // 2, n_samples - n_samples // 2
    try:
        n_out, n_in = n_samples
    except (ValueError, TypeError) as e:
        raise ValueError(message) from e
    return n_out, n_in


def _two_rings(rng, x_out, y_out, x_in, y_in, shuffle, noise):
    X = np.vstack([np.append(x_out, x_in), np.append(y_out, y_in)]).T
    y = np.hstack([np.zeros(len(x_out), dtype=np.intp), np.ones(len(x_in), dtype=np.intp)])
    if shuffle:
        X, y = shuffled([X, y], rng)
    if noise is not None:
        X += rng.normal(scale=noise, size=X.shape)
    return X, y


def make_moons(rng, n_samples=100, *, shuffle=True, noise=None):
    n_out, n_in = _two_counts(n_samples, "`n_samples` can be either an int or a two-element tuple.")
    return _two_rings(rng, np.cos(np.linspace(0, np.pi, n_out)), np.sin(np.linspace(0, np.pi, n_out)),
                      1 - np.cos(np.linspace(0, np.pi, n_in)), 1 - np.sin(np.linspace(0, np.pi, n_in)) - 0.5,
                      shuffle, noise)


def make_circles(rng, n_samples=100, *, shuffle=True, noise=None, factor=0.8):
    if not isinstance(n_samples, numbers.Integral) and len(n_samples) != 2:
        raise ValueError("When a tuple, n_samples must have exactly two elements.")
    n_out, n_in = _two_counts(n_samples, "")
    out = np.linspace(0, 2 * np.pi, n_out, endpoint=False)
    inner = np.linspace(0, 2 * np.pi, n_in, endpoint=False)
    return _two_rings(rng, np.cos(out), np.sin(out), np.cos(inner) * factor, np.sin(inner) * factor, shuffle, noise)


def _blob_centers(rng, n_samples, n_features, centers, center_box):
    if isinstance(n_samples, numbers.Integral):
        centers = 3 if centers is None else centers
        if isinstance(centers, numbers.Integral):
            return rng.uniform(center_box[0], center_box[1], size=(centers, n_features))
        return check_array(centers)
    if centers is None:
        centers = rng.uniform(center_box[0], center_box[1], size=(len(n_samples), n_features))
    if not isinstance(centers, Iterable):
        raise ValueError(f"Parameter `centers` must be array-like. Got {centers!r} instead")
    if len(centers) != len(n_samples):
        raise ValueError("Length of `n_samples` not consistent with number of "
                         f"centers. Got n_samples = {n_samples} and centers = {centers}")
    return check_array(centers)


def make_blobs(rng, n_samples=100, n_features=2, *, centers=None, cluster_std=1.0, center_box=(-10.0, 10.0),
               shuffle=True, return_centers=False):
    centers = _blob_centers(rng, n_samples, n_features, centers, center_box)
    n_centers, n_features = centers.shape
    if hasattr(cluster_std, "__len__") and len(cluster_std) != n_centers:
        raise ValueError("Length of `clusters_std` not consistent with number of centers. "
                         f"Got centers = {centers} and cluster_std = {cluster_std}")
    if isinstance(cluster_std, numbers.Real):
        cluster_std = np.full(n_centers, cluster_std)
    if isinstance(n_samples, Iterable):
        counts = list(n_samples)
    else:
        counts = [n_samples // n_centers] * n_centers
        for i in range(n_samples % n_centers):
            counts[i] += 1
    ends = np.cumsum(counts)
    X = np.zeros((sum(counts), n_features), dtype=np.float64)
    y = np.zeros((sum(counts),), dtype=int)
    for i, (n, std) in enumerate(zip(counts, cluster_std)):
        start = ends[i - 1] if i > 0 else 0
        X[start:ends[i]] = rng.normal(loc=centers[i], scale=std, size=(n, n_features))
        y[start:ends[i]] = i
    if shuffle:
        X, y = shuffled([X, y], rng)
    return (X, y, centers) if return_centers else (X, y)


def _without_replacement(n_population, n_samples, rng):
    """sklearn.utils.random.sample_without_replacement's "auto" method (its draws, in its order)."""
    ratio = n_samples / n_population if n_population != 0 else 1.0
    if 0.01 < ratio < 0.99:
        return rng.permutation(n_population)[:n_samples]
    if ratio < 0.2:
        out, selected = np.zeros(n_samples, dtype=np.int64), set()
        for i in range(n_samples):
            j = rng.randint(n_population)
            while j in selected:
                j = rng.randint(n_population)
            selected.add(j)
            out[i] = j
        return out
    out = np.arange(n_samples)
    for i in range(n_samples, n_population):
        j = rng.randint(0, i + 1)
        if j < n_samples:
            out[j] = i
    return out


def _hypercube(samples, dimensions, rng):
    if dimensions > 30:
        return np.hstack([rng.randint(2, size=(samples, dimensions - 30)), _hypercube(samples, 30, rng)])
    out = _without_replacement(2**dimensions, samples, rng).astype(dtype=">u4", copy=False)
    return np.unpackbits(out.view(">u1")).reshape((-1, 32))[:, -dimensions:]


def _class_weights(weights, n_classes):
    if weights is None:
        return [1.0 / n_classes] * n_classes
    if len(weights) not in [n_classes, n_classes - 1]:
        raise ValueError("Weights specified but incompatible with number of classes.")
    if len(weights) == n_classes - 1:
        if isinstance(weights, list):
            return weights + [1.0 - sum(weights)]
        weights = np.resize(weights, n_classes)
        weights[-1] = 1.0 - sum(weights[:-1])
    return weights


def make_classification(rng, n_samples=100, n_features=20, *, n_informative=2, n_redundant=2, n_repeated=0,
                        n_classes=2, n_clusters_per_class=2, weights=None, flip_y=0.01, class_sep=1.0,
                        hypercube=True, shift=0.0, scale=1.0, shuffle=True):
    if n_informative + n_redundant + n_repeated > n_features:
        raise ValueError("Number of informative, redundant and repeated features must sum to less than the number "
                         "of total features")
    if n_informative < np.log2(n_classes * n_clusters_per_class):
        raise ValueError(f"n_classes({n_classes}) * n_clusters_per_class({n_clusters_per_class}) must be smaller or "
                         f"equal 2**n_informative({n_informative})={2**n_informative}")
    weights = _class_weights(weights, n_classes)
    n_useless = n_features - n_informative - n_redundant - n_repeated
    n_clusters = n_classes * n_clusters_per_class
    per_cluster = [int(n_samples * weights[k % n_classes] / n_clusters_per_class) for k in range(n_clusters)]
    for i in range(n_samples - sum(per_cluster)):
        per_cluster[i % n_clusters] += 1
    X = np.zeros((n_samples, n_features))
    y = np.zeros(n_samples, dtype=int)
    centroids = _hypercube(n_clusters, n_informative, rng).astype(float, copy=False)
    centroids *= 2 * class_sep
    centroids -= class_sep
    if not hypercube:
        centroids *= rng.uniform(size=(n_clusters, 1))
        centroids *= rng.uniform(size=(1, n_informative))
    X[:, :n_informative] = rng.standard_normal(size=(n_samples, n_informative))
    stop = 0
    for k, centroid in enumerate(centroids):
        start, stop = stop, stop + per_cluster[k]
        y[start:stop] = k % n_classes
        cluster = X[start:stop, :n_informative]
        cluster[...] = np.dot(cluster, 2 * rng.uniform(size=(n_informative, n_informative)) - 1)
        cluster += centroid
    if n_redundant > 0:
        B = 2 * rng.uniform(size=(n_informative, n_redundant)) - 1
        X[:, n_informative:n_informative + n_redundant] = np.dot(X[:, :n_informative], B)
    if n_repeated > 0:
        n = n_informative + n_redundant
        indices = ((n - 1) * rng.uniform(size=n_repeated) + 0.5).astype(np.intp)
        X[:, n:n + n_repeated] = X[:, indices]
    if n_useless > 0:
        X[:, -n_useless:] = rng.standard_normal(size=(n_samples, n_useless))
    if flip_y >= 0.0:
        flip = rng.uniform(size=n_samples) < flip_y
        y[flip] = rng.randint(n_classes, size=flip.sum())
    X += (2 * rng.uniform(size=n_features) - 1) * class_sep if shift is None else shift
    X *= 1 + 100 * rng.uniform(size=n_features) if scale is None else scale
    if shuffle:
        X, y = shuffled([X, y], rng)
        indices = np.arange(n_features)
        rng.shuffle(indices)
        X[:, :] = X[:, indices]
    return X, y


def make_regression(rng, n_samples=100, n_features=100, *, n_informative=10, n_targets=1, bias=0.0,
                    effective_rank=None, tail_strength=0.5, noise=0.0, shuffle=True, coef=False):
    if effective_rank is not None:
        raise ValueError("make_regression(effective_rank=...) is not available in the explorer: leave it None")
    n_informative = min(n_features, n_informative)
    X = rng.standard_normal(size=(n_samples, n_features))
    truth = np.zeros((n_features, n_targets))
    truth[:n_informative, :] = 100 * rng.uniform(size=(n_informative, n_targets))
    y = np.dot(X, truth) + bias
    if noise > 0.0:
        y += rng.normal(scale=noise, size=y.shape)
    if shuffle:
        X, y = shuffled([X, y], rng)
        indices = np.arange(n_features)
        rng.shuffle(indices)
        X[:, :] = X[:, indices]
        truth = truth[indices]
    y = np.squeeze(y)
    return (X, y, np.squeeze(truth)) if coef else (X, y)


def make_swiss_roll(rng, n_samples=100, *, noise=0.0, hole=False):
    if not hole:
        t = 1.5 * np.pi * (1 + 2 * rng.uniform(size=n_samples))
        y = 21 * rng.uniform(size=n_samples)
    else:
        corners = np.array([[np.pi * (1.5 + i), j * 7] for i in range(3) for j in range(3)])
        corners = np.delete(corners, 4, axis=0)
        corner_index = rng.choice(8, n_samples)
        parameters = rng.uniform(size=(2, n_samples)) * np.array([[np.pi], [7]])
        t, y = corners[corner_index].T + parameters
    X = np.vstack((t * np.cos(t), y, t * np.sin(t)))
    X += noise * rng.standard_normal(size=(3, n_samples))
    return X.T, np.squeeze(t)


def make_s_curve(rng, n_samples=100, *, noise=0.0):
    t = 3 * np.pi * (rng.uniform(size=(1, n_samples)) - 0.5)
    X = np.zeros(shape=(n_samples, 3), dtype=np.float64)
    X[:, 0] = np.sin(t)
    X[:, 1] = 2.0 * rng.uniform(size=n_samples)
    X[:, 2] = np.sign(t) * (np.cos(t) - 1)
    X += noise * rng.standard_normal(size=(3, n_samples)).T
    return X, np.squeeze(t)


# How many numbers each generator makes, from its arguments (charged before it runs).
def _rows(n_samples):
    return int(n_samples) if isinstance(n_samples, numbers.Integral) else int(sum(n_samples))


SIZES = {
    "make_moons": lambda n_samples=100, **_: 3 * _rows(n_samples),
    "make_circles": lambda n_samples=100, **_: 3 * _rows(n_samples),
    "make_blobs": lambda n_samples=100, n_features=2, **_: (n_features + 1) * _rows(n_samples),
    "make_classification": lambda n_samples=100, n_features=20, **_: (n_features + 1) * n_samples,
    "make_regression": lambda n_samples=100, n_features=100, n_targets=1, **_: (n_features + n_targets) * n_samples
    + n_features * n_targets,
    "make_swiss_roll": lambda n_samples=100, **_: 4 * n_samples,
    "make_s_curve": lambda n_samples=100, **_: 4 * n_samples,
}
GENERATORS = {"make_moons": make_moons, "make_circles": make_circles, "make_blobs": make_blobs,
              "make_classification": make_classification, "make_regression": make_regression,
              "make_swiss_roll": make_swiss_roll, "make_s_curve": make_s_curve}
