"""torch.nn: Parameter, Module and a few layers, and nn.functional."""
from . import functional, init  # noqa: F401
from .modules import (  # noqa: F401
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    Dropout,
    Embedding,
    Flatten,
    HuberLoss,
    Identity,
    KLDivLoss,
    L1Loss,
    LeakyReLU,
    Linear,
    LogSoftmax,
    Module,
    MSELoss,
    NLLLoss,
    ReLU,
    Sequential,
    Sigmoid,
    SmoothL1Loss,
    Softmax,
    Tanh,
    Unflatten,
)
from .parameter import Parameter  # noqa: F401
