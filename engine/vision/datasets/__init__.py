"""torchvision.datasets (0.28): FakeData and VisionDataset work; the datasets that read files are there by name and
refuse when made (unavailable.py)."""
from .fakedata import FakeData  # noqa: F401
from .unavailable import CLASSES
from .vision import VisionDataset  # noqa: F401

globals().update(CLASSES)  # MNIST, CIFAR10, ImageFolder, ...
