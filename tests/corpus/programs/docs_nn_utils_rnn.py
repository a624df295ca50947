# Source: pytorch/pytorch torch/nn/utils/rnn.py docstrings of pad_packed_sequence, pad_sequence, unpad_sequence,
#   pack_sequence and unpack_sequence (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch
#   2.13.0.
# Category: tensors — pack_padded_sequence / pad_packed_sequence, pad_sequence, pack_sequence and their inverses
# Adaptations:
#  - `>>>` prompts dropped and echoed results printed; `import torch` added; the three sequences of 25, 22 and
#    15 rows of 300 become 5, 4 and 3 rows of 6 (a learner's scale); the unpad_sequence example's three
#    allclose checks are printed.
import torch

from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
seq = torch.tensor([[1, 2, 0], [3, 0, 0], [4, 5, 6]])
lens = [2, 1, 3]
packed = pack_padded_sequence(
    seq, lens, batch_first=True, enforce_sorted=False
)
print(packed)
seq_unpacked, lens_unpacked = pad_packed_sequence(packed, batch_first=True)
print(seq_unpacked)
print(lens_unpacked)

from torch.nn.utils.rnn import pad_sequence
a = torch.ones(5, 6)
b = torch.ones(4, 6)
c = torch.ones(3, 6)
print(pad_sequence([a, b, c]).size())

from torch.nn.utils.rnn import pad_sequence, unpad_sequence
a = torch.ones(5, 6)
b = torch.ones(4, 6)
c = torch.ones(3, 6)
sequences = [a, b, c]
padded_sequences = pad_sequence(sequences)
lengths = torch.as_tensor([v.size(0) for v in sequences])
unpadded_sequences = unpad_sequence(padded_sequences, lengths)
print(torch.allclose(sequences[0], unpadded_sequences[0]))
print(torch.allclose(sequences[1], unpadded_sequences[1]))
print(torch.allclose(sequences[2], unpadded_sequences[2]))

from torch.nn.utils.rnn import pack_sequence
a = torch.tensor([1, 2, 3])
b = torch.tensor([4, 5])
c = torch.tensor([6])
print(pack_sequence([a, b, c]))

from torch.nn.utils.rnn import pack_sequence, unpack_sequence
a = torch.tensor([1, 2, 3])
b = torch.tensor([4, 5])
c = torch.tensor([6])
sequences = [a, b, c]
print(sequences)
packed_sequences = pack_sequence(sequences)
print(packed_sequences)
unpacked_sequences = unpack_sequence(packed_sequences)
print(unpacked_sequences)
