"""torch.nn.utils.parameters_to_vector and vector_to_parameters (torch/nn/utils/convert_parameters.py)."""
from ...functions import is_tensor
from ...methods import FUNCTIONS


def parameters_to_vector(parameters):
    return FUNCTIONS["cat"]([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    if not is_tensor(vec):
        kind = type(vec)
        name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
        raise TypeError(f"expected torch.Tensor, but got: {name}")
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec[pointer: pointer + num_param].view_as(param).data
        pointer += num_param
