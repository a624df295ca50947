"""The names of torch's that torch/nn/utils/prune.py calls (`torch.topk(...)`), taken from the engine's layers, so
that the ported file reads as torch's."""
from ... import factories, memory, random
from ...methods import FUNCTIONS
from ...tensor import Tensor  # noqa: F401 - torch.Tensor in the file's annotations and isinstance checks

norm, kthvalue, topk, sum, abs = (FUNCTIONS[n] for n in ("norm", "kthvalue", "topk", "sum", "abs"))  # noqa: A001
ones_like, zeros_like, tensor = factories.ones_like, factories.zeros_like, factories.tensor
rand_like, rand = random.rand_like, random.rand
contiguous_format = memory.contiguous_format
