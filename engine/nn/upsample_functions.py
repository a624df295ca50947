"""F.interpolate (nearest, nearest-exact, linear, bilinear, trilinear, bicubic, area) and F.upsample*, as
torch.nn.functional chooses ATen's upsample op (or adaptive_avg_pool for area) and its output size."""
import math
import warnings

from .. import dispatch, messages
from ..methods import FUNCTIONAL
from ..ops import OPS
from .pool_functions import adaptive_avg_pool1d, adaptive_avg_pool3d

_OPS = {("nearest", 1): "upsample_nearest1d", ("nearest", 2): "upsample_nearest2d",
        ("nearest", 3): "upsample_nearest3d", ("nearest-exact", 1): "upsample_nearest_exact1d",
        ("nearest-exact", 2): "upsample_nearest_exact2d", ("nearest-exact", 3): "upsample_nearest_exact3d",
        ("linear", 1): "upsample_linear1d", ("bilinear", 2): "upsample_bilinear2d",
        ("trilinear", 3): "upsample_trilinear3d", ("bicubic", 2): "upsample_bicubic2d"}
_SCALES = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h", "scales_w")}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,  # noqa: A002
                recompute_scale_factor=None, antialias=False):
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear "
                             "| bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError("Input and output must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {list(input.shape[2:])} and output size of {size}. "
                                 "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                                 "(o1, o2, ...,oK) format.")
            output_size = [int(s) for s in size]
        else:
            output_size = [int(size)] * dim
        scales = [None] * dim
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got "
                                 f"input with spatial dimensions of {list(input.shape[2:])} and scale_factor of shape "
                                 f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                                 "scale_factor in (s1, s2, ...,sK) format.")
            scales = [float(s) for s in scale_factor]
        else:
            scales = [float(scale_factor)] * dim
        output_size = [int(math.floor(float(input.shape[i + 2]) * s)) for i, s in enumerate(scales)]
        if recompute_scale_factor:
            scales = [None] * dim
    else:
        raise ValueError("either size or scale_factor should be defined")
    if mode == "area" and 1 <= dim <= 3:
        pool = (adaptive_avg_pool1d, FUNCTIONAL["adaptive_avg_pool2d"], adaptive_avg_pool3d)[dim - 1]
        return pool(input, output_size if dim > 1 else output_size[0])
    if antialias:
        raise NotImplementedError("interpolate's antialias=True is not available in this engine")
    name = _OPS.get((mode, dim))
    if name is None:
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) "
                                  f"for the modes: nearest | linear | bilinear | bicubic | trilinear | area | "
                                  f"nearest-exact (got {mode})")
    attrs = {"output_size": tuple(output_size), **dict(zip(_SCALES[dim], scales))}
    if mode in ("linear", "bilinear", "trilinear", "bicubic"):
        attrs["align_corners"] = bool(align_corners)
    return dispatch.apply(OPS[name], (input,), attrs)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):  # noqa: A002
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=messages.level(2))
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):  # noqa: A002
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=messages.level(2))
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):  # noqa: A002
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=messages.level(2))
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
