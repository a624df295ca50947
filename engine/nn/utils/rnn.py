"""torch.nn.utils.rnn: PackedSequence and the functions that pad and pack variable-length batches, as torch 2.13's
torch/nn/utils/rnn.py and ATen's PackedSequence.cpp compute them: pad_sequence copies each sequence into a filled
tensor (CopySlices), pack_padded_sequence sorts (IndexSelectBackward0) and packs (PackPaddedSequenceBackward0),
pad_packed_sequence copies the packed rows back step by step."""
from collections.abc import Iterable
from typing import NamedTuple

from ... import dispatch, dtypes
from ...factories import arange, as_tensor, empty_like, full, tensor
from ...functions import is_tensor
from ...ops import OPS


class PackedSequence_(NamedTuple):
    data: object
    batch_sizes: object
    sorted_indices: object
    unsorted_indices: object


class PackedSequence(PackedSequence_):
    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self, *args, **kwargs):
        return self.to(*args, **kwargs)

    def double(self):
        return self.to(dtype=dtypes.float64)

    def float(self):
        return self.to(dtype=dtypes.float32)

    def long(self):
        return self.to(dtype=dtypes.int64)

    def int(self):
        return self.to(dtype=dtypes.int32)

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False


def invert_permutation(permutation):
    if permutation is None:
        return None
    output = empty_like(permutation)
    output.scatter_(0, permutation, arange(0, permutation.numel()))
    return output


def _lengths(lengths):
    values = [int(v) for v in (lengths.tolist() if is_tensor(lengths) else lengths)]
    return values


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):  # noqa: A002
    lengths = as_tensor(lengths, dtype=dtypes.int64) if not is_tensor(lengths) else lengths.to(dtype=dtypes.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = lengths.sort(descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)  # noqa: A001
    data, batch_sizes = _pack_padded_sequence(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _pack_padded_sequence(input, lengths, batch_first):  # noqa: A002
    values = _lengths(lengths)
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    batch = input.shape[0 if batch_first else 1]
    if len(values) != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {len(values)} "
                           f"(batch_size={batch})")
    if values[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    if any(a < b for a, b in zip(values, values[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can "
                           "pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    batch_sizes = tuple(sum(1 for n in values if n > t) for t in range(values[0]))
    sizes = tensor(list(batch_sizes), dtype=dtypes.int64)
    data = dispatch.apply(OPS["pack_padded_sequence"], (input,),
                          {"batch_sizes": batch_sizes, "batch_first": bool(batch_first), "result1": sizes})
    return data, sizes


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    sizes = _lengths(sequence.batch_sizes)
    max_seq_length = len(sizes)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, but "
                             f"got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    data = sequence.data
    output = full((max_seq_length, sizes[0]) + tuple(data.shape[1:]), padding_value, dtype=data.dtype)
    offset = 0
    for t, n in enumerate(sizes):
        output[t, :n] = data[offset: offset + n]
        offset += n
    lengths = tensor([sum(1 for n in sizes if n > b) for b in range(sizes[0])], dtype=dtypes.int64)
    if batch_first:
        output = output.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        return output.index_select(0 if batch_first else 1, sequence.unsorted_indices), \
            lengths[sequence.unsorted_indices]
    return output, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    if not isinstance(sequences, Iterable):
        raise RuntimeError(f"pad_sequence: Expected iterable for input sequences, but got arg of type: "
                           f"{type(sequences)}")
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    max_len = max(s.shape[0] for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    shape = (len(sequences), max_len) + trailing if batch_first else (max_len, len(sequences)) + trailing
    out = full(shape, padding_value, dtype=sequences[0].dtype)
    for i, seq in enumerate(sequences):
        n = seq.shape[0]
        start = 0 if padding_side == "right" else max_len - n
        if batch_first:
            out[i, start: start + n] = seq
        else:
            out[start: start + n, i] = seq
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """(torch transposes a time-major padded_sequences in place, with transpose_, which the engine lacks: here the
    caller's tensor is left as it was)"""
    unpadded_sequences = []
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    idx = arange(padded_sequences.shape[1])
    for seq, length in zip(padded_sequences, lengths, strict=True):
        unpadded_sequences.append(seq[idx < length])
    return unpadded_sequences


def pack_sequence(sequences, enforce_sorted=True):
    lengths = as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
