"""torch.nn: Parameter, Module and a few layers, and nn.functional."""
from . import functional, init  # noqa: F401
from .modules import (  # noqa: F401
    BCELoss,
    CrossEntropyLoss,
    Dropout,
    Identity,
    L1Loss,
    LeakyReLU,
    Linear,
    Module,
    MSELoss,
    ReLU,
    Sequential,
    Sigmoid,
    Softmax,
    Tanh,
)
from .parameter import Parameter  # noqa: F401
