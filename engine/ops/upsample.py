"""interpolate's nearest, nearest-exact, (bi/tri)linear and bicubic modes: ATen's upsample_* ops, each a per-dim
interpolation matrix applied along the spatial dims (their backward the transposed matrices, an op too)."""
import math

import numpy as np

from .. import memory
from .table import Spelling, op

_SCALE_NAMES = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h", "scales_w")}


def _scale(in_size, out_size, scale, align_corners, dtype):
    """area_pixel_compute_scale (linear) / compute_scales_value (nearest), in the opmath type."""
    t = np.float64 if dtype == np.float64 else np.float32
    if align_corners:
        return t(in_size - 1) / t(out_size - 1) if out_size > 1 else t(0)
    return t(1.0 / scale) if scale is not None and scale > 0 else t(in_size) / t(out_size)


def _matrix(mode, in_size, out_size, scale, align_corners, dtype):
    """The (out, in) matrix of one dim's interpolation."""
    m = np.zeros((out_size, in_size), np.float64)
    s = _scale(in_size, out_size, scale, align_corners and mode in ("linear", "cubic"), dtype)
    t = type(s)
    for i in range(out_size):
        if mode == "cubic":  # ATen's upsample_bicubic2d: 4 taps at floor(real) − 1 … + 2, clamped to the edges
            real = s * t(i) if align_corners else s * (t(i) + t(0.5)) - t(0.5)
            i0 = int(math.floor(real))
            for j, w in enumerate(_cubic_weights(t(real - t(i0)), t)):
                m[i, min(max(i0 - 1 + j, 0), in_size - 1)] += w
        elif mode == "nearest":
            src = min(int(math.floor(t(i) * s)), in_size - 1)
            m[i, src] = 1
        elif mode == "nearest-exact":
            src = min(int(math.floor((t(i) + t(0.5)) * s)), in_size - 1)
            m[i, src] = 1
        else:
            real = s * t(i) if align_corners else max(s * (t(i) + t(0.5)) - t(0.5), t(0))
            i0 = int(real)
            i1 = i0 + (1 if i0 < in_size - 1 else 0)
            lam1 = t(real - t(i0))
            lam0 = t(t(1) - lam1)
            m[i, i0] += lam0
            m[i, i1] += lam1
    return m


def _cubic_weights(x, t):
    """ATen's get_cubic_upsample_coefficients (A = −0.75) for the offset x in [0, 1)."""
    a = t(-0.75)

    def near(v):  # cubic_convolution1, |v| ≤ 1
        return ((a + t(2)) * v - (a + t(3))) * v * v + t(1)

    def far(v):  # cubic_convolution2, 1 < |v| < 2
        return ((a * v - t(5) * a) * v + t(8) * a) * v - t(4) * a

    return far(x + t(1)), near(x), near(t(1) - x), far(t(2) - x)


def _apply(a, mats, transpose=False):
    out = a.astype(np.float64) if a.dtype == np.float32 else a
    k = len(mats)
    for d, m in enumerate(mats):
        axis = a.ndim - k + d
        out = np.moveaxis(np.tensordot(m.T if transpose else m, out, axes=([1], [axis])), 0, axis)
    return np.ascontiguousarray(out, dtype=a.dtype)


def _mats(mode, in_sizes, out_sizes, scales, align_corners, dtype):
    return [_matrix(mode, i, o, s, align_corners, dtype) for i, o, s in zip(in_sizes, out_sizes, scales)]


def _forward(mode, k):
    def forward(a, output_size, align_corners=False, **scales):
        names = _SCALE_NAMES[k]
        mats = _mats(mode, a.shape[-k:], output_size, [scales[n] for n in names], align_corners, a.dtype)
        return memory.like_input(_apply(a, mats), a)  # ATen: in the memory format the input suggests

    return forward


def _backward(mode, k):
    """The grad of the input: in the memory format grad_output suggests, but for ATen's bicubic and 3-d nearest
    kernels, which allocate it row-major."""
    def backward(g, input_sizes, output_size, align_corners=False, **scales):
        names = _SCALE_NAMES[k]
        mats = _mats(mode, input_sizes[-k:], output_size, [scales[n] for n in names], align_corners, g.dtype)
        grad = _apply(g, mats, transpose=True)
        return grad if mode == "cubic" or mode.startswith("nearest") and k == 3 else memory.like_input(grad, g)

    return backward


def _attrs(n, k, linear):
    a = {"output_size": n.attrs["output_size"], **{s: n.attrs[s] for s in _SCALE_NAMES[k]}}
    if linear:
        a["align_corners"] = n.attrs["align_corners"]
    return a


_FAMILY = [("nearest", 1, "upsample_nearest1d", "UpsampleNearest1D"),
           ("nearest", 2, "upsample_nearest2d", "UpsampleNearest2D"),
           ("nearest", 3, "upsample_nearest3d", "UpsampleNearest3D"),
           ("nearest-exact", 1, "upsample_nearest_exact1d", "UpsampleNearestExact1D"),
           ("nearest-exact", 2, "upsample_nearest_exact2d", "UpsampleNearestExact2D"),
           ("nearest-exact", 3, "upsample_nearest_exact3d", "UpsampleNearestExact3D"),
           ("linear", 1, "upsample_linear1d", "UpsampleLinear1D"),
           ("linear", 2, "upsample_bilinear2d", "UpsampleBilinear2D"),
           ("linear", 3, "upsample_trilinear3d", "UpsampleTrilinear3D"),
           ("cubic", 2, "upsample_bicubic2d", "UpsampleBicubic2D")]
_WORDS = {"nearest": "nearest", "nearest-exact": "nearest-exact", "linear": None}

for _mode, _k, _name, _node in _FAMILY:
    _linear = _mode in ("linear", "cubic")
    _keep = ("self_sym_sizes", "output_size", *_SCALE_NAMES[_k]) + (("align_corners",) if _linear else ())
    _word = "bicubic" if _mode == "cubic" else {1: "linear", 2: "bilinear", 3: "trilinear"}[_k] if _linear else _mode
    op(_name + "_backward", _node + "BackwardBackward0", ("grad_output",),
       _backward(_mode, _k),
       ("the interpolation of grad", lambda n, g, name=_name, k=_k, lin=_linear: g._op(name, **_attrs(n, k, lin))),
       bind=False, numel=lambda arrays, attrs: math.prod(attrs["input_sizes"]))
    op(_name, _node + "Backward0", ("self",), _forward(_mode, _k),
       ("grad gathered back through the interpolation weights",
        lambda n, g, name=_name, k=_k, lin=_linear: g._op(name + "_backward", input_sizes=tuple(n._shapes[0]),
                                                          **_attrs(n, k, lin))),
       saves={0: _keep}, bind=False,
       numel=lambda arrays, attrs: math.prod(arrays[0].shape[:-len(attrs["output_size"])]) * math.prod(
           attrs["output_size"]),
       spell=Spelling(functional="interpolate",
                      name=lambda s, a, w=_word, lin=_linear: f"interpolate({s[0]}, size={tuple(a['output_size'])}, "
                      f"mode={w!r}" + (f", align_corners={a['align_corners']})" if lin else ")")))
