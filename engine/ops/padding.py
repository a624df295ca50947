"""F.pad: constant padding (ConstantPadNdBackward0; also padding='same' with an odd total), reflect and
replicate padding of the last 1, 2 or 3 dims (ReflectionPad1DBackward0 … ReplicationPad3DBackward0, one op
each, as ATen's kernels), and circular padding, which torch builds from slices copied into a new tensor."""
import numpy as np

from .. import memory
from .table import OPS, Spelling, composite, op

MODES = ("constant", "reflect", "replicate", "circular")


def tuple_text(t):
    return "(" + ", ".join(map(str, t)) + ("," if len(t) == 1 else "") + ")"


# --- constant -------------------------------------------------------------------------------------------
def _signed(pad):
    """The pads as ints: the node keeps them as torch shows them, a negative one as its uint64."""
    return tuple(p - 2**64 if p >= 2**63 else p for p in pad)


def _constant_pad(x, pad, shape, value=0):
    """F.pad's constant padding: pad holds (before, after) pairs, the last dim's first; a negative pad crops."""
    pad = _signed(pad)
    k = len(pad) // 2
    src, dst = [slice(None)] * x.ndim, [slice(None)] * x.ndim
    for i in range(k):
        d = x.ndim - 1 - i
        before = pad[2 * i]
        start_in, start_out = max(-before, 0), max(before, 0)
        n = min(x.shape[d] - start_in, shape[d] - start_out)
        src[d], dst[d] = slice(start_in, start_in + max(n, 0)), slice(start_out, start_out + max(n, 0))
    if all(p <= 0 for p in pad):  # ATen: the input narrowed, then cloned (its strides kept where it is dense)
        return memory.in_format(x[tuple(src)], memory.preserve_format)
    out = memory.laid_out(np.full(shape, value, dtype=x.dtype), memory.suggest_format(x))
    out[tuple(dst)] = x[tuple(src)]
    return out


def _unpad(n, g):
    """The grad without the padding: the same op with the pads negated (zeros where the forward cropped)."""
    back = tuple(-p % 2**64 for p in _signed(n.attrs["pad"]))
    return g._op("constant_pad", pad=back, shape=tuple(n._shapes[0]))


def _pad_label(s, a):
    value = a.get("value", 0)
    return f"pad({s[0]}, {tuple_text(_signed(a['pad']))}{'' if value == 0 else f', value={value!r}'})"


op("constant_pad", "ConstantPadNdBackward0", ("self",), _constant_pad, ("grad without the padding", _unpad),
   saves={0: ("pad",)}, spell=Spelling(functional="pad", name=_pad_label), bind=False)


def padded_shape(shape, pad):
    """The shape after F.pad's pads (the last dim's pair first)."""
    out = list(shape)
    for i in range(len(pad) // 2):
        out[len(shape) - 1 - i] += pad[2 * i] + pad[2 * i + 1]
    return tuple(out)


# --- reflect, replicate -----------------------------------------------------------------------------------
def _sources(n, before, after, mode):
    """For each output position along a dim of size n, the input position it copies."""
    i = np.arange(-before, n + after)
    if mode == "reflect":
        i = np.abs(i)
        return np.where(i >= n, 2 * (n - 1) - i, i)
    return np.clip(i, 0, n - 1)


def _along(ndim, padding):
    """(dim, before, after) of each padded dim, the last dim first."""
    return [(ndim - 1 - i, padding[2 * i], padding[2 * i + 1]) for i in range(len(padding) // 2)]


def _padder(mode):
    def forward(a, padding, shape):
        for d, before, after in _along(a.ndim, _signed(padding)):
            a = np.take(a, _sources(a.shape[d], before, after, mode), axis=d)
        return a

    return forward


def _unpadder(mode):
    """The adjoint of _padder: each output position's grad added into the input position it copied."""
    def backward(g, x, padding):
        for d, before, after in _along(g.ndim, _signed(padding)):
            out = np.zeros(g.shape[:d] + (x.shape[d],) + g.shape[d + 1:], g.dtype)
            np.add.at(out, (slice(None),) * d + (_sources(x.shape[d], before, after, mode),), g)
            g = out
        return g

    return backward


def _mode_label(mode):
    return lambda s, a: f"pad({s[0]}, {tuple_text(_signed(a['padding']))}, mode={mode!r})"


def _zeros_for(n, i, v):
    return v._new(np.zeros(n._shapes[i], v.dtype.np), v.dtype)


for _mode, _word in (("reflect", "Reflection"), ("replicate", "Replication")):
    for _k in (1, 2, 3):
        _name = f"{_mode}_pad{_k}d"
        op(_name, f"{_word}Pad{_k}DBackward0", ("self",), _padder(_mode),
           ("grad added back where each padded value came from",
            lambda n, g, b=_name + "_backward": g._op(b, n["self"], padding=n.attrs["padding"])),
           saves={0: ("padding", "self")}, spell=Spelling(functional="pad", name=_mode_label(_mode)), bind=False)
        op(_name + "_backward", f"{_word}Pad{_k}DBackwardBackward0", ("grad", "self"), _unpadder(_mode),
           ("grad padded again",
            lambda n, v, f=_name: v._op(f, padding=n.attrs["padding"], shape=tuple(n._shapes[0]))),
           ("0", lambda n, v: _zeros_for(n, 1, v)), saves={0: ("padding",)})


# --- F.pad ----------------------------------------------------------------------------------------------
def _sizes(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def _check_mode(x, pad, mode):
    """ATen's checks of reflect and replicate padding, in its order, with its messages."""
    k = len(pad) // 2
    batched = x.dim() == k + 2
    if any(n == 0 for n in x.shape[1 if batched else 0:]):
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch size and other "
                           f"non-zero dimensions for input, but got: {_sizes(x.shape)}")
    along = _along(x.dim(), pad)
    if mode == "reflect":
        for i, (d, before, after) in enumerate(along):
            if before >= x.shape[d] or after >= x.shape[d]:
                raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding input "
                                   f"dimension, but got: padding ({before}, {after}) at dimension {d} of input "
                                   f"{_sizes(x.shape)}")
    out = padded_shape(x.shape, pad)
    if k == 1 and out[-1] < 1:
        raise RuntimeError(f"input (W: {x.shape[-1]}) is too small. Calculated output W: {out[-1]}")
    if any(n < 0 for n in out):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: {_sizes(out)}")


def _circular(x, pad):
    """ATen's _pad_circular: x's kept part copied into a new tensor, then each dim's pads (the last dim first)
    copied from the far side of that, so the graph is torch's chain of CopySlices over SliceBackward0s."""
    along = _along(x.dim(), pad)
    for d, before, after in along:
        if before > x.shape[d] or after > x.shape[d]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if x.shape[d] + before + after < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    shape = padded_shape(x.shape, pad)
    out = x._new(np.zeros(shape, x.dtype.np), x.dtype)
    inner, kept = out, x
    for d, before, after in along:
        inner = inner.narrow(d, max(before, 0), shape[d] - max(before, 0) - max(after, 0))
        kept = kept.narrow(d, max(-before, 0), x.shape[d] - max(-before, 0) - max(-after, 0))
    inner.copy_(kept)
    for d, before, after in along:
        if before > 0:
            out.narrow(d, 0, before).copy_(out.narrow(d, shape[d] - before - max(after, 0), before))
        if after > 0:
            out.narrow(d, shape[d] - after, after).copy_(out.narrow(d, max(before, 0), after))
    return out


@composite(Spelling(function="constant_pad_nd", out=False))
def constant_pad_nd(input, pad, value=0):  # noqa: A002
    """torch.constant_pad_nd: F.pad's constant padding with ATen's own checks."""
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Length of pad should be no more than twice the number of dimensions of the input. Pad "
                           f"length is {len(pad)}while the input has {input.dim()}dimensions.")
    shape = padded_shape(input.shape, tuple(int(p) for p in pad))
    if any(s < 0 for s in shape):
        raise RuntimeError("narrow(): length must be non-negative.")
    return input._op("constant_pad", pad=tuple(int(p) % 2**64 for p in pad), shape=shape, value=value)


@composite(Spelling(functional="pad"))
def pad(input, pad, mode="constant", value=None):  # noqa: A002
    """F.pad: constant (ConstantPadNdBackward0), reflect and replicate (their own nodes, per number of padded
    dims) and circular padding."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    if mode not in MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    pad = tuple(int(p) for p in pad)
    if mode == "constant":
        return input._op("constant_pad", pad=tuple(p % 2**64 for p in pad), shape=padded_shape(input.shape, pad),
                         value=0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    k = len(pad) // 2
    if k not in (1, 2, 3) or input.dim() not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "circular":
        return _circular(input, pad)
    _check_mode(input, pad, mode)
    attrs = {"padding": tuple(p % 2**64 for p in pad), "shape": padded_shape(input.shape, pad)}  # its size, known first
    return input._apply(OPS[f"{mode}_pad{k}d"], (input,), attrs, input.dtype)
