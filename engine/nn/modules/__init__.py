"""torch.nn.modules, by kind (as torch lays them out: module, containers, layers, activations, losses)."""
from .activations import GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh  # noqa: F401
from .containers import ModuleDict, ModuleList, Sequential  # noqa: F401
from .conv import (  # noqa: F401
    AvgPool1d,
    AvgPool2d,
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
    Dropout1d,
    Dropout2d,
    MaxPool1d,
    MaxPool2d,
)
from .layers import BatchNorm1d, Dropout, Embedding, Flatten, Identity, LayerNorm, Linear, Unflatten  # noqa: F401
from .losses import (  # noqa: F401
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import Module  # noqa: F401
