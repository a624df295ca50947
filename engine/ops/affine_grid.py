"""F.affine_grid: ATen's affine_grid_generator (AffineGridGeneratorBackward0): the base grid of normalised
coordinates (x, y[, z], 1) times thetaᵀ, by one bmm; its backward is ATen's bmm of the base grid with the grad."""
import math
import warnings

import numpy as np

from .. import kernels
from .table import OPS, Spelling, composite, op


def _steps(n, align_corners, dtype):
    """ATen's linspace_from_neg_one: n points over [-1, 1], pulled in by (n - 1) / n without align_corners."""
    if n <= 1:
        return np.zeros(1, dtype)
    r = kernels.linspace(-1.0, 1.0, n, dtype)
    return r if align_corners else r * dtype.type(n - 1) / dtype.type(n)


def base_grid(size, align_corners, dtype):
    """(N, [D,] H, W, k + 1): each point's (x, y[, z], 1), x along the last spatial dim."""
    spatial = size[2:]
    k = len(spatial)
    out = np.empty((size[0], *spatial, k + 1), dtype)
    for j in range(k):  # coordinate j (x first) varies along spatial dim k - 1 - j
        shape = [1] * k
        shape[k - 1 - j] = spatial[k - 1 - j]
        out[..., j] = _steps(spatial[k - 1 - j], align_corners, dtype).reshape(shape)
    out[..., k] = 1
    return out


def _forward(theta, size, align_corners):
    base = base_grid(size, align_corners, theta.dtype)
    n, k = size[0], len(size) - 2
    flat = base.reshape(n, -1, k + 1)
    return np.matmul(flat, theta.transpose(0, 2, 1)).reshape(*base.shape[:-1], k)


def _theta_grad(n, g):
    size, k = n.attrs["size"], len(n.attrs["size"]) - 2
    base = base_grid(size, n.attrs["align_corners"], g.dtype.np)
    flat = g._new(base.reshape(size[0], -1, k + 1), g.dtype)
    return flat.transpose(1, 2).bmm(g.reshape(size[0], -1, k)).transpose(1, 2)


op("affine_grid_generator", "AffineGridGeneratorBackward0", ("theta",), _forward,
   ("(base gridᵀ · grad)ᵀ: each point's grad times its (x, y, 1)", _theta_grad),
   saves={0: ("size", "align_corners")}, bind=False,
   numel=lambda arrays, attrs: math.prod(attrs["size"][:1] + attrs["size"][2:]) * (len(attrs["size"]) - 2))


@composite(Spelling(functional="affine_grid", out=False))
def affine_grid(theta, size, align_corners=None):
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                      "grid_sample for details.", UserWarning, stacklevel=3)
        align_corners = False
    if not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    shape = tuple(theta.shape)
    if len(size) == 4:
        if theta.dim() != 3 or shape[-2:] != (2, 3):
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. Got "
                             f"{theta.shape}.")
    elif len(size) == 5:
        if theta.dim() != 3 or shape[-2:] != (3, 4):
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. Got "
                             f"{theta.shape}.")
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    if align_corners and min(size[2:]) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                      "of affine_grid for details.", UserWarning, stacklevel=3)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return theta._apply(OPS["affine_grid_generator"], (theta,), {"size": tuple(int(s) for s in size),
                                                                  "align_corners": bool(align_corners)}, theta.dtype)
