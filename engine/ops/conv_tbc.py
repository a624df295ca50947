"""conv_tbc: a 1-d convolution over (time, batch, channel) input with a (kernel, in, out) weight, as fairseq used it;
computed as ATen's kernel does: the bias, then one matrix product per kernel tap added into its rows of the output."""
import numpy as np

from .table import OPS, Spelling, op


def _taps(time, out_len, kernel, pad):
    """(k, input row, output row, rows) of each kernel tap that reaches the output (ATen's iShift, oShift, t)."""
    for k in range(kernel):
        i, o = max(0, k - pad), max(0, pad - k)
        rows = min(time + pad - k, out_len) - o
        if rows > 0:
            yield k, i, o, rows


def _conv_tbc(x, weight, bias, pad):
    time, batch, _ = x.shape
    kernel, _, planes = weight.shape
    out_len = time + 2 * pad - kernel + 1
    out = np.empty((out_len, batch, planes), dtype=x.dtype)
    out[...] = bias
    for k, i, o, rows in _taps(time, out_len, kernel, pad):
        out[o:o + rows] += (x[i:i + rows].reshape(rows * batch, -1) @ weight[k]).reshape(rows, batch, planes)
    return out


def _input_grad(n, g):
    """The grad of the input: the same convolution of grad, with the kernel reversed and its channels swapped."""
    w = n["weight"]
    kernel = w.shape[0]
    flipped = w.flip(0).transpose(1, 2)
    return g._op("conv_tbc", flipped, g.new_zeros(w.shape[1]), pad=kernel - 1 - n.attrs["pad"])


def _weight_grad(n, g):
    x, w = n["self"], n["weight"]
    kernel, channels, planes = w.shape
    taps = {k: (i, o, rows) for k, i, o, rows in _taps(x.shape[0], g.shape[0], kernel, n.attrs["pad"])}
    parts = []
    for k in range(kernel):
        if k not in taps:
            parts.append(g.new_zeros(channels, planes))
            continue
        i, o, rows = taps[k]
        parts.append(x.narrow(0, i, rows).reshape(-1, channels).t().mm(g.narrow(0, o, rows).reshape(-1, planes)))
    return parts[0]._op("stack", *parts[1:], dim=0)


def _bind_conv_tbc(self, weight, bias, pad=0):
    if not isinstance(pad, int) or isinstance(pad, bool):
        raise TypeError(f"conv_tbc(): argument 'pad' (position 4) must be int, not {type(pad).__name__}")
    if self.dim() != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.dim() != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, out_channels.")
    if bias.dim() != 1:
        raise RuntimeError("Bias must be 1-D")
    if self.shape[2] != weight.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if weight.shape[2] != bias.shape[0]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    out_len = self.shape[0] + 2 * pad - weight.shape[0] + 1
    if out_len < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {out_len}: "
                           f"[{out_len}, {self.shape[1]}, {weight.shape[2]}]")
    for other in (weight, bias):
        if other.dtype is not self.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got {self.dtype.type_name} and "
                               f"{other.dtype.type_name}")
    return OPS["conv_tbc"], (self, weight, bias), {"pad": pad}, None


op("conv_tbc", "ConvTbcBackward0", ("self", "weight", "bias"), _conv_tbc,
   ("conv_tbc(grad, weight reversed in time, in and out swapped, pad = kernel − 1 − pad)", _input_grad),
   ("Σ over taps: selfᵀ · grad", _weight_grad),
   ("grad summed over time and batch", lambda n, g: g.sum((0, 1))),
   saves={0: ("self", "weight", "bias", "pad"), 1: ("self", "weight", "bias", "pad"),
          2: ("self", "weight", "bias", "pad")},
   numel=lambda arrays, attrs: (arrays[0].shape[0] + 2 * attrs["pad"] - arrays[1].shape[0] + 1) * arrays[0].shape[1]
   * arrays[1].shape[2],
   bind=_bind_conv_tbc, spell=Spelling(function="conv_tbc", functional="conv_tbc", out=False,
                                       name=lambda s, a: f"conv_tbc({s[0]}, {s[1]}, {s[2]}, {a['pad']})"))
