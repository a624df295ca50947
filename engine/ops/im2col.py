"""F.unfold and F.fold: ATen's im2col (Im2ColBackward0) and col2im (Col2ImBackward0), each the other's vjp."""
import math

import numpy as np

from .conv import windows
from .table import OPS, Spelling, op

_SAVES = ("kernel_size", "dilation", "padding", "stride")


def _pair(v):
    return (int(v),) * 2 if isinstance(v, int) else tuple(int(x) for x in v)


def _blocks(size, k, d, p, s):
    return (size + 2 * p - (d * (k - 1) + 1)) // s + 1


def _check_args(kernel_size, dilation, padding, stride):
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel_size, dilation, padding, stride
    if kh <= 0 or kw <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: {kh} kernel_width: {kw}")
    if dh <= 0 or dw <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: {dh} dilation_width: {dw}")
    if ph < 0 or pw < 0:
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {ph} pad_width: {pw}")
    if sh <= 0 or sw <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got stride_height: {sh} stride_width: {sw}")


def _im2col(x, kernel_size, dilation, padding, stride):
    """(N, C, H, W) → (N, C·kh·kw, L): each sliding block's values as a column, channel-major then kernel order."""
    batched = x.ndim == 4
    x4 = x if batched else x[None]
    win = windows(x4, kernel_size, stride, padding, dilation)  # (N, C, oh, ow, kh, kw)
    n, c, oh, ow, kh, kw = win.shape
    cols = np.ascontiguousarray(win.transpose(0, 1, 4, 5, 2, 3)).reshape(n, c * kh * kw, oh * ow)
    return cols if batched else cols[0]


def _col2im(cols, output_size, kernel_size, dilation, padding, stride):
    """The columns summed back into an (N, C, H, W) image: each block's values added where im2col took them."""
    batched = cols.ndim == 3
    c3 = cols if batched else cols[None]
    (H, W), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = output_size, kernel_size, dilation, padding, stride
    oh, ow = _blocks(H, kh, dh, ph, sh), _blocks(W, kw, dw, pw, sw)
    n, c = c3.shape[0], c3.shape[1] // (kh * kw)
    blocks = c3.reshape(n, c, kh, kw, oh, ow)
    out = np.zeros((n, c, H + 2 * ph, W + 2 * pw), cols.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw] += blocks[:, :, i, j]
    out = out[:, :, ph:ph + H, pw:pw + W]
    return np.ascontiguousarray(out if batched else out[0])


def _attrs(n):
    return {k: n.attrs[k] for k in _SAVES}


def _bind_im2col(input, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    attrs = {"kernel_size": _pair(kernel_size), "dilation": _pair(dilation), "padding": _pair(padding),
             "stride": _pair(stride)}
    _check_args(*attrs.values())
    shape, nd = input.shape, input.dim()
    if not ((nd == 3 and shape[0] and shape[1] and shape[2]) or (nd == 4 and shape[1] and shape[2] and shape[3])):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor input with possible 0 batch size and non-zero "
                           f"dimensions, but got: {list(shape)}")
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = attrs.values()
    H, W = shape[-2:]
    oh, ow = _blocks(H, kh, dh, ph, sh), _blocks(W, kw, dw, pw, sw)
    if oh < 1 or ow < 1:
        raise RuntimeError(f"Given input with spatial size ({H}, {H}), kernel_size=({kh}, {kw}), dilation=({dh}, "
                           f"{dw}), padding=({ph}, {pw}), calculated shape of the array of sliding blocks as ({oh}, "
                           f"{ow}), but its components must be at least one.")
    return OPS["im2col"], (input,), attrs, None


def _bind_col2im(input, output_size, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    attrs = {"output_size": _pair(output_size), "kernel_size": _pair(kernel_size), "dilation": _pair(dilation),
             "padding": _pair(padding), "stride": _pair(stride)}
    (H, W) = attrs["output_size"]
    if H <= 0 or W <= 0:
        raise RuntimeError(f"output should be greater than zero, but got output_height: {H} output_width: {W}")
    _check_args(attrs["kernel_size"], attrs["dilation"], attrs["padding"], attrs["stride"])
    shape, nd = input.shape, input.dim()
    if not ((nd == 2 and shape[0] and shape[1]) or (nd == 3 and shape[1] and shape[2])):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {list(shape)}")
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = (attrs[k] for k in _SAVES)
    planes, length = shape[-2], shape[-1]
    if planes % (kh * kw):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={planes} and kernel_size=({kh}, {kw}).")
    oh, ow = _blocks(H, kh, dh, ph, sh), _blocks(W, kw, dw, pw, sw)
    if length != oh * ow:
        raise RuntimeError(f"Given output_size=({H}, {W}), kernel_size=({kh}, {kw}), dilation=({dh}, {dw}), "
                           f"padding=({ph}, {pw}), stride=({sh}, {sw}), expected size of input's dimension 2 to match "
                           f"the calculated number of sliding blocks {oh} * {ow} = {oh * ow}, but got "
                           f"input.size(2)={length}.")
    return OPS["col2im"], (input,), attrs, None


def _im2col_numel(arrays, attrs):
    a, (kh, kw) = arrays[0], attrs["kernel_size"]
    (dh, dw), (ph, pw), (sh, sw) = attrs["dilation"], attrs["padding"], attrs["stride"]
    blocks = max(_blocks(a.shape[-2], kh, dh, ph, sh), 0) * max(_blocks(a.shape[-1], kw, dw, pw, sw), 0)
    return math.prod(a.shape[:-2]) * kh * kw * blocks


def _col2im_numel(arrays, attrs):
    a, (kh, kw), (h, w) = arrays[0], attrs["kernel_size"], attrs["output_size"]
    return math.prod(a.shape[:-2]) * (a.shape[-2] // (kh * kw)) * h * w


op("im2col", "Im2ColBackward0", ("self",),
   lambda a, kernel_size, dilation, padding, stride: _im2col(a, kernel_size, dilation, padding, stride),
   ("col2im(grad): each column added back where its block was taken",
    lambda n, g: g._op("col2im", output_size=tuple(n._shapes[0][-2:]), **_attrs(n))),
   saves={0: (*_SAVES, "self_sym_argsize_minus_2", "self_sym_argsize_minus_1")},
   spell=Spelling(functional="unfold", out=False), bind=_bind_im2col, numel=_im2col_numel)
op("col2im", "Col2ImBackward0", ("self",),
   lambda a, output_size, kernel_size, dilation, padding, stride: _col2im(a, output_size, kernel_size, dilation,
                                                                          padding, stride),
   ("im2col(grad): each block of grad as a column", lambda n, g: g._op("im2col", **_attrs(n))),
   saves={0: _SAVES}, spell=Spelling(functional="fold", out=False), bind=_bind_col2im, numel=_col2im_numel)
