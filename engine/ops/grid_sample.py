"""F.grid_sample: ATen's grid_sampler_2d and grid_sampler_3d on the CPU (GridSampler.h's formulas): each output point
reads the input at the grid's normalised (x, y[, z]) — bilinear (trilinear), nearest, or bicubic (2-d only) — with
zeros, border or reflection padding; the backward gives the input's grad (each point's weights scattered back)
and the grid's (the weights' derivatives times the values read, times the unnormalising scale)."""
import itertools
import warnings

import numpy as np

from .table import OPS, Spelling, composite, floats_only, op

MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}


def _unnormalize(coord, size, align_corners):
    """Grid coordinate in [-1, 1] to a pixel index, and d index / d coordinate."""
    t = coord.dtype.type
    if align_corners:
        return ((coord + t(1)) / t(2)) * t(size - 1), t(size - 1) / t(2)
    return ((coord + t(1)) * t(size) - t(1)) / t(2), t(size) / t(2)


def _clip(x, size):
    t = x.dtype.type
    inside = (x >= 0) & (x <= size - 1)
    return np.minimum(t(size - 1), np.maximum(x, t(0))), inside.astype(x.dtype)


def _reflect(x, twice_low, twice_high):
    """Reflects x into [twice_low / 2, twice_high / 2], and d reflected / d x (±1)."""
    t = x.dtype.type
    if twice_low == twice_high:
        return np.zeros_like(x), np.zeros_like(x)
    low, span = t(twice_low / 2), t((twice_high - twice_low) / 2)
    x = x - low
    sign = np.where(x < 0, t(-1), t(1))
    x = np.abs(x)
    extra = np.fmod(x, span)
    even = np.floor(x / span) % 2 == 0
    return np.where(even, extra + low, span - extra + low), np.where(even, sign, -sign)


def _pad(x, size, padding, align_corners):
    """compute_coordinates_set_grad: the padded index and its derivative."""
    if padding == 0:
        return x, np.ones_like(x)
    if padding == 2:
        x, d_reflect = _reflect(x, 0, 2 * (size - 1)) if align_corners else _reflect(x, -1, 2 * size - 1)
        x, d_clip = _clip(x, size)
        return x, d_reflect * d_clip
    return _clip(x, size)


def _layout(a, grid):
    """(N, C, S) input, its spatial sizes x first, the grid's points (N, P, k) and the output's spatial shape."""
    n, c, spatial = a.shape[0], a.shape[1], a.shape[2:]
    return a.reshape(n, c, -1), spatial[::-1], grid.reshape(n, -1, grid.shape[-1]), grid.shape[1:-1]


def _linear(t):
    one, zero = np.ones_like(t), np.zeros_like(t)
    return ((one - t, -one, zero), (t, one, zero))


def _cubic(t):
    """ATen's get_cubic_upsample_coefficients (A = −0.75) of the four taps, each with its first and second
    derivative in t."""
    a, one = t.dtype.type(-0.75), t.dtype.type(1)

    def near(v):
        return ((a + 2) * v - (a + 3)) * v * v + one, (3 * (a + 2) * v - 2 * (a + 3)) * v, 6 * (a + 2) * v - 2 * (a + 3)

    def far(v):
        return (((a * v - 5 * a) * v + 8 * a) * v - 4 * a, (3 * a * v - 10 * a) * v + 8 * a, 6 * a * v - 10 * a)

    w0, w1, (w2, d2, h2), (w3, d3, h3) = far(t + one), near(t), near(one - t), far(2 * one - t)
    return (w0, w1, (w2, -d2, h2), (w3, -d3, h3))


def _axis_taps(coord, size, mode, padding, align_corners):
    """One axis: its taps as (integer index, weight, d weight, d² weight) in the pixel coordinate, and
    d coordinate / d grid."""
    x, scale = _unnormalize(coord, size, align_corners)
    if mode == 2:  # bicubic: the padding applies to each tap, the weights' derivatives only through unnormalising
        low = np.floor(x)
        taps = []
        for i, (w, d, h) in enumerate(_cubic(x - low)):
            index, _ = _pad(low + x.dtype.type(i - 1), size, padding, align_corners)
            taps.append((index.astype(np.int64), w, d, h))
        return taps, scale
    x, d_pad = _pad(x, size, padding, align_corners)
    if mode == 1:
        one, zero = np.ones_like(x), np.zeros_like(x)
        return [(np.rint(x).astype(np.int64), one, zero, zero)], scale * d_pad
    low = np.floor(x)
    return [(low.astype(np.int64) + i, w, d, h) for i, (w, d, h) in enumerate(_linear(x - low))], scale * d_pad


def _taps(points, sizes, mode, padding, align_corners):
    """Every tap of every output point: its flat index (N, P), whether it is inside the input, its weight, the
    weight's gradient (k of them) and Hessian (k × k) in the grid's coordinates."""
    k = len(sizes)
    axes = [_axis_taps(points[..., j], sizes[j], mode, padding, align_corners) for j in range(k)]
    scales = [scale for _, scale in axes]
    for combo in itertools.product(*[taps for taps, _ in axes]):
        inside, flat, stride = np.ones(points.shape[:2], bool), np.zeros(points.shape[:2], np.intp), 1
        for (index, *_), size in zip(combo, sizes):
            inside &= (index >= 0) & (index <= size - 1)
            flat += np.clip(index, 0, size - 1).astype(np.intp) * stride
            stride *= size
        w = [tap[1] for tap in combo]

        def product(replaced, w=w):
            return np.prod([replaced.get(i, w[i]) for i in range(k)][::-1], axis=0)

        grad = [product({j: combo[j][2]}) * scales[j] for j in range(k)]
        hess = [[product({j: combo[j][3]} if j == m else {j: combo[j][2], m: combo[m][2]}) * scales[j] * scales[m]
                 for m in range(k)] for j in range(k)]
        yield flat, inside, product({}), grad, hess


def _read(a, flat, inside):
    """a (N, C, S) at flat (N, P): (N, C, P), zero outside."""
    return np.take_along_axis(a, flat[:, None, :], axis=2) * inside[:, None, :]


def _scatter(out, flat, inside, values):
    n, c, p = values.shape
    np.add.at(out, (np.arange(n)[:, None, None], np.arange(c)[None, :, None], flat[:, None, :]),
              values * inside[:, None, :])


def _sample(a, grid, mode, padding, align_corners, g=None, gg_input=None, gg_grid=None):
    """The output (g None); the grads of the input and the grid for the output's grad g; with gg_input and
    gg_grid (the grads of those grads), the grads of g, the input and the grid (the backward's own backward)."""
    flat_a, sizes, points, out_spatial = _layout(a, grid)
    n, c = flat_a.shape[:2]
    k = len(sizes)
    out = np.zeros((n, c, points.shape[1]), a.dtype)
    grad_a, grad_points = np.zeros_like(flat_a), np.zeros(points.shape, a.dtype)
    go = None if g is None else g.reshape(n, c, -1)
    second = gg_input is not None
    if second:
        ggi, ggg = gg_input.reshape(flat_a.shape), gg_grid.reshape(points.shape)
    for flat, inside, weight, grad, hess in _taps(points, sizes, mode, padding, align_corners):
        value = _read(flat_a, flat, inside)
        if go is None:
            out += value * weight[:, None, :]
            continue
        if not second:
            _scatter(grad_a, flat, inside, go * weight[:, None, :])
            read = np.sum(value * go, axis=1)
            for j in range(k):
                grad_points[..., j] += read * grad[j]
            continue
        along = sum(ggg[..., j] * grad[j] for j in range(k))  # the weight's derivative along gg_grid
        out += _read(ggi, flat, inside) * weight[:, None, :] + value * along[:, None, :]
        _scatter(grad_a, flat, inside, go * along[:, None, :])
        read, read_gg = np.sum(value * go, axis=1), np.sum(_read(ggi, flat, inside) * go, axis=1)
        for m in range(k):
            grad_points[..., m] += read_gg * grad[m] + read * sum(ggg[..., j] * hess[j][m] for j in range(k))
    if go is None:
        return out.reshape(n, c, *out_spatial)
    if second:
        return out.reshape(go.shape[:2] + tuple(out_spatial)), grad_a.reshape(a.shape), grad_points.reshape(grid.shape)
    return grad_a.reshape(a.shape), grad_points.reshape(grid.shape)


def _forward(input, grid, interpolation_mode, padding_mode, align_corners):  # noqa: A002 - ATen's names
    return _sample(input, grid, interpolation_mode, padding_mode, align_corners)


def _backward(g, input, grid, interpolation_mode, padding_mode, align_corners, which):  # noqa: A002
    return np.ascontiguousarray(_sample(input, grid, interpolation_mode, padding_mode, align_corners, g)[which])


def _double_backward(gg_input, gg_grid, g, input, grid, interpolation_mode, padding_mode,  # noqa: A002
                     align_corners, which):
    wide = [x.astype(np.float64) for x in (input, grid, g, gg_input, gg_grid)]  # its sums of products cancel
    out = _sample(*wide[:2], interpolation_mode, padding_mode, align_corners, *wide[2:])[which]
    return np.ascontiguousarray(out, dtype=input.dtype)


_ATTRS = ("interpolation_mode", "padding_mode", "align_corners")


def _not_differentiable(n, g):
    raise RuntimeError("the engine differentiates grid_sampler twice, not three times")


def _grad(name, which):
    def vjp(n, g):
        return g._op(name + "_backward", n["input"], n["grid"], which=which, **{k: n.attrs[k] for k in _ATTRS})

    return vjp


def _second(name, which):
    """The backward's own vjp for one of its inputs (grad_output, input, grid): its output is the input's grad or
    the grid's (attr which), the other one's grad is zero."""
    def vjp(n, g):
        if which == 1 and n.attrs["interpolation_mode"] == 1:  # nearest: the grid's grad is zero whatever the input
            return None
        gi = g if n.attrs["which"] == 0 else n["input"].new_zeros(n["input"].shape)
        gg = g if n.attrs["which"] == 1 else n["grid"].new_zeros(n["grid"].shape)
        return gi._op(name + "_double_backward", gg, n["grad_output"], n["input"], n["grid"], which=which,
                      **{k: n.attrs[k] for k in _ATTRS})

    return vjp


def _declare(name, node, numel):
    op(name + "_double_backward", "NotImplemented", ("gg_input", "gg_grid", "grad_output", "input", "grid"),
       _double_backward, *[("not differentiated by the engine", _not_differentiable)] * 5, bind=False,
       numel=lambda arrays, attrs: arrays[2 + attrs["which"]].size)
    op(name + "_backward", node + "BackwardBackward0", ("grad_output", "input", "grid"), _backward,
       *[("the backward's own backward", _second(name, i)) for i in range(3)], bind=False,
       saves={i: ("grad_output", "input", "grid", *_ATTRS, "which") for i in range(3)},
       numel=lambda arrays, attrs: arrays[1 + attrs["which"]].size)
    op(name, node + "Backward0", ("input", "grid"), _forward,
       ("Σ over the points that read it: weight · grad", _grad(name, 0)),
       ("Σ over the channels: grad · value · d weight / d (x, y), times the unnormalising scale", _grad(name, 1)),
       saves={0: ("input", "grid", *_ATTRS), 1: ("input", "grid", *_ATTRS)}, bind=False,
       spell=Spelling(name=lambda s, a: f"torch.{name}({s[0]}, {s[1]}, {a['interpolation_mode']}, "
                      f"{a['padding_mode']}, {a['align_corners']})"),
       numel=numel)


def _numel(arrays, attrs):
    a, grid = arrays
    return a.shape[0] * a.shape[1] * int(np.prod(grid.shape[1:-1]))


_declare("grid_sampler_2d", "GridSampler2D", _numel)
_declare("grid_sampler_3d", "GridSampler3D", _numel)


def _check(input, grid, interpolation_mode):  # noqa: A002
    if input.dtype is not grid.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.type_name} but found {grid.dtype.type_name}")
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got input with "
                           f"sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    if grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in last dimension, but "
                           f"got grid with sizes {list(grid.shape)}")
    for i in range(2, input.dim()):
        if input.shape[i] <= 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial dimensions, but input has "
                               f"sizes {list(input.shape)} with dimension {i} being empty")
    if input.dim() == 5 and interpolation_mode == 2:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input.dim() not in (4, 5) or grid.dim() != input.dim():
        raise RuntimeError(f"grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but "
                           f"got input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")


def _apply(name, input, grid, interpolation_mode, padding_mode, align_corners):  # noqa: A002
    floats_only(f"{name}_cpu_kernel_impl" if name.endswith("2d") else f"{name}_cpu", input)
    attrs = {"interpolation_mode": int(interpolation_mode), "padding_mode": int(padding_mode),
             "align_corners": bool(align_corners)}
    return input._apply(OPS[name], (input, grid), attrs, input.dtype)


@composite(Spelling(function="grid_sampler_2d", out=False))
def grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners):  # noqa: A002
    return _apply("grid_sampler_2d", input, grid, interpolation_mode, padding_mode, align_corners)


@composite(Spelling(function="grid_sampler_3d", out=False))
def grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners):  # noqa: A002
    return _apply("grid_sampler_3d", input, grid, interpolation_mode, padding_mode, align_corners)


@composite(Spelling(function="grid_sampler", out=False))
def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):  # noqa: A002
    _check(input, grid, interpolation_mode)
    name = "grid_sampler_2d" if input.dim() == 4 else "grid_sampler_3d"
    return _apply(name, input, grid, interpolation_mode, padding_mode, align_corners)


@composite(Spelling(functional="grid_sample", out=False))
def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):  # noqa: A002
    if mode not in MODES:
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         f"got: '{mode}'")
    if padding_mode not in PADDINGS:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                      "grid_sample for details.", UserWarning, stacklevel=3)
        align_corners = False
    return grid_sampler(input, grid, MODES[mode], PADDINGS[padding_mode], align_corners)
