"""torchvision.models (0.28): the classification architectures learners build, initialised as torchvision
initialises them, and the weight enums (weights.py: pretrained weights are refused, there is no network)."""
from .alexnet import AlexNet, SqueezeNet, alexnet, squeezenet1_0, squeezenet1_1  # noqa: F401
from .mobilenet import MobileNetV2, mobilenet_v2  # noqa: F401
from .mobilenet_v3 import MobileNetV3, mobilenet_v3_large, mobilenet_v3_small  # noqa: F401
from .resnet import (  # noqa: F401
    ResNet,
    resnet18,
    resnet34,
    resnet50,
    resnet101,
    resnet152,
    resnext50_32x4d,
    resnext101_32x8d,
    resnext101_64x4d,
    wide_resnet50_2,
    wide_resnet101_2,
)
from .vgg import VGG, vgg11, vgg11_bn, vgg13, vgg13_bn, vgg16, vgg16_bn, vgg19, vgg19_bn  # noqa: F401
from .weights import ENUMS, Weights, WeightsEnum  # noqa: F401

globals().update(ENUMS)  # ResNet18_Weights, ..., as torchvision.models has them
