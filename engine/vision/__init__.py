"""torchvision 0.28 as a program uses it offline, on the engine: transforms, utils (make_grid, save_image),
models (architectures initialised as torchvision initialises them; no pretrained weights), datasets (FakeData;
the downloading ones refuse) and a few ops."""
from . import datasets, models, ops, transforms, utils  # noqa: F401
from .names import name_classes

name_classes()

__version__ = "0.28.0+cpu"
