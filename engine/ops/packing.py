"""torch's _pack_padded_sequence (nn.utils.rnn.pack_padded_sequence): the rows of a padded (T, B, *) batch that
hold data, time step by time step, as one (N, *) tensor, with batch_sizes[t] = the number of sequences longer than
t. Its node is PackPaddedSequenceBackward0."""
import numpy as np

from .table import op


def _rows(shape, batch_sizes, batch_first):
    """The flat (t * B + b) row of the (T, B, *) input behind each row of the packed data."""
    batch = shape[0] if batch_first else shape[1]
    return np.concatenate([t * batch + np.arange(n) for t, n in enumerate(batch_sizes)])


def _time_major(a, batch_first):
    return np.swapaxes(a, 0, 1) if batch_first else a


def _pack(a, batch_sizes, batch_first):
    x = _time_major(a, batch_first)
    flat = x.reshape((-1,) + x.shape[2:])
    return flat[_rows(a.shape, batch_sizes, batch_first)]


def _unpack(n, g):
    """_pack_padded_sequence_backward, as ATen composes it: zeros of the input's (time-major) shape, each step's
    rows of the grad copied into their slots (CopySlices), transposed back for batch_first."""
    shape = n._shapes[0]
    batch_first = n.attrs["batch_first"]
    time_major = (shape[1], shape[0]) + tuple(shape[2:]) if batch_first else tuple(shape)
    zero = g.detach().reshape(-1)[:1].clone().zero_()  # 0, not g·0 (which is nan where g is inf)
    grad_input = zero.expand(time_major).clone()
    offset = 0
    for t, size in enumerate(n.attrs["batch_sizes"]):
        grad_input[t, :size] = g[offset: offset + size]
        offset += size
    return grad_input.transpose(0, 1) if batch_first else grad_input


op("pack_padded_sequence", "PackPaddedSequenceBackward0", ("input",),
   lambda a, batch_sizes, batch_first, result1: _pack(a, batch_sizes, batch_first),
   ("grad rows put back where the data was, zeros in the padding", _unpack),
   saves={0: ("batch_first", "input_sym_sizes", "result1")}, bind=False)
