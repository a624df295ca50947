"""The `torch.*` names the torchvision 0.28 ports call (they read `torch.randint(...)` as torchvision's files do),
taken from the engine's layers below."""
from .. import dtypes, factories, functions, linalg, logic, methods, random  # noqa: F401
from .. import nn as nn  # noqa: F401
from ..tensor import Size, Tensor  # noqa: F401

globals().update(methods.FUNCTIONS)
globals().update(logic.FUNCTIONS)

uint8, int8, int16, int32, int64 = dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64
float16, float32, float64 = dtypes.float16, dtypes.float32, dtypes.float64
long, float, double = dtypes.int64, dtypes.float32, dtypes.float64  # noqa: A001
get_default_dtype = dtypes.get_default_dtype
tensor, as_tensor, from_numpy, empty, zeros, ones, full = (factories.tensor, factories.as_tensor,
                                                          factories.from_numpy, factories.empty, factories.zeros,
                                                          factories.ones, factories.full)
zeros_like, ones_like = factories.zeros_like, factories.ones_like
arange, linspace = factories.arange, factories.linspace
where, is_floating_point, is_tensor = functions.where, functions.is_floating_point, functions.is_tensor
rand, randn, randint, randperm = random.rand, random.randn, random.randint, random.randperm
manual_seed, get_rng_state, set_rng_state = random.manual_seed, random.get_rng_state, random.set_rng_state
