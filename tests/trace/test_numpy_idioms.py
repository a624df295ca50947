"""numpy as tutorials use it beside torch (a decision boundary's meshgrid, np.c_, statistics, polyfit, print
options): the runner's numpy view prints what plain Python with real numpy and torch prints, and numpy's print
options set by a program are put back after its run."""
from __future__ import annotations

import contextlib
import io

import numpy as np

from engine.trace import run as trace

PROGRAM = '''
import numpy as np
import torch
np.random.seed(0)
X = np.random.rand(10, 2).astype(np.float32)
xx, yy = np.meshgrid(np.linspace(-1, 1, 5), np.linspace(-1, 1, 5))
grid = np.c_[xx.ravel(), yy.ravel()]
print(grid.shape, np.r_[1:3, 7].tolist())
g = torch.from_numpy(grid).float()
Z = (g ** 2).sum(1).reshape(xx.shape).numpy()
print(Z.round(2)[0], np.argmax(Z), np.unravel_index(np.argmax(Z), Z.shape))
print(np.column_stack([X[:, 0], X[:, 1]]).shape, np.hstack([X, X]).shape, np.vstack([X, X]).shape)
t = torch.tensor(X)
print(np.array(t).dtype, np.asarray(t).shape, np.mean([1.0, 2.0]), np.std(X, axis=0).round(3))
print(np.percentile(X, 50).round(3), np.quantile(X, [0.25, 0.75]).round(3), np.cumsum([1, 2, 3]), np.diff([1, 4, 9]))
idx = np.random.permutation(10)
print(idx, np.random.choice(5, 3, replace=False), np.random.randint(0, 10, size=4))
print(np.eye(2), np.allclose(X, X), np.isclose(1.0, 1.0 + 1e-9), np.where(X > 0.5, 1, 0).sum())
print(np.clip(X, 0.2, 0.8).max(), np.exp(np.log(2.0)), np.sqrt(np.array([4.0])), np.pi, np.inf, np.nan)
y = np.sin(2 * np.pi * X[:, 0]) + np.random.normal(0, 0.1, 10)
print(y.round(3).tolist()[:3], np.polyfit(X[:, 0], y, 1).round(3))
a = np.zeros((2, 3)); a[0, :] = 1; a[:, -1] += 2
print(a, a.T.shape, a.flatten(), np.expand_dims(a, 0).shape, np.squeeze(np.ones((1, 3))).shape)
print(np.concatenate([a, a], axis=1).shape, np.stack([a, a]).shape, np.tile([1, 2], 2), np.repeat([1, 2], 2))
print(np.sort(np.array([3, 1, 2]))[::-1], np.argsort([3, 1, 2]), np.unique([1, 1, 2], return_counts=True))
print(np.linalg.norm([3.0, 4.0]), np.dot([1, 2], [3, 4]), np.outer([1, 2], [3, 4]), np.matmul(a, a.T))
print(np.float32(1.5) * t[0], type(t.numpy()), t.numpy().dtype, X.astype(np.float64).dtype, np.isnan(np.nan))
print(np.histogram([1, 2, 2, 3], bins=3), np.digitize([0.5, 1.5], [1.0]), np.convolve([1, 2], [1, 1]))
print(np.set_printoptions(precision=3), np.array([1.23456]), np.array_equal([1], [1]), np.prod([2, 3]))
np.set_printoptions(precision=2, suppress=True)
print(np.array([1.23456, 1e-9]))
with np.printoptions(precision=4):
    print(np.array([1.23456]))
print(np.array([1.23456]), np.get_printoptions()['precision'])
import sys
np.set_printoptions(threshold=sys.maxsize)
print(np.arange(1200)[-3:])
'''


def test_numpy_idioms_print_as_plain_python():
    import torch  # the oracle's

    options = np.get_printoptions()
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(PROGRAM, {"torch": torch, "__name__": "__main__"})
    finally:
        np.set_printoptions(**options)
    timeline = trace(PROGRAM)
    assert timeline.error is None
    assert timeline.output == out.getvalue()
    assert np.get_printoptions() == options
