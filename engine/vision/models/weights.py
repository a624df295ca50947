"""torchvision 0.28's weight enums (models/_api.py, _utils.py; BSD-3-Clause, the torchvision contributors), so
that `ResNet18_Weights.DEFAULT` and `weights=` and `pretrained=` lines read as in torchvision. Pretrained weights
are downloaded from download.pytorch.org and the explorer has no network: a builder given weights refuses, at its
line, before it builds anything; weights=None (and pretrained=False) build the model from its random
initialisation, as torchvision does."""
import functools
import warnings
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from ..transforms.presets import ImageClassification

_MODELS = "https://download.pytorch.org/models/"


@dataclass(frozen=True)
class Weights:
    url: str
    transforms: object = None
    meta: MappingProxyType = field(default_factory=lambda: MappingProxyType({}), compare=False, hash=False)


class WeightsEnum(Enum):
    @classmethod
    def verify(cls, obj):
        if obj is not None:
            if type(obj) is str:
                obj = cls[obj.replace(cls.__name__ + ".", "")]
            elif not isinstance(obj, cls):
                raise TypeError(f"Invalid Weight class provided; expected {cls.__name__} but received "
                                f"{obj.__class__.__name__}.")
        return obj

    def get_state_dict(self, *args, **kwargs):
        refuse_download(self)

    def __repr__(self):
        return f"{self.__class__.__name__}.{self._name_}"

    @property
    def url(self):
        return self.value.url

    @property
    def transforms(self):
        return self.value.transforms

    @property
    def meta(self):
        return self.value.meta


def refuse_download(weights):
    raise RuntimeError(f"pretrained weights ({weights!r}) are downloaded from {weights.url}, and the explorer has no "
                       "network: build the model without them (weights=None, the default) to train it from its "
                       "random initialisation, as torchvision initialises it")


TABLE = {  # enum: ({member: file under download.pytorch.org/models/}, DEFAULT, num_params)
    "ResNet18_Weights": ({"IMAGENET1K_V1": "resnet18-f37072fd.pth"}, "IMAGENET1K_V1", 11689512),
    "ResNet34_Weights": ({"IMAGENET1K_V1": "resnet34-b627a593.pth"}, "IMAGENET1K_V1", 21797672),
    "ResNet50_Weights": ({"IMAGENET1K_V1": "resnet50-0676ba61.pth", "IMAGENET1K_V2": "resnet50-11ad3fa6.pth"},
                         "IMAGENET1K_V2", 25557032),
    "ResNet101_Weights": ({"IMAGENET1K_V1": "resnet101-63fe2227.pth", "IMAGENET1K_V2": "resnet101-cd907fc2.pth"},
                          "IMAGENET1K_V2", 44549160),
    "ResNet152_Weights": ({"IMAGENET1K_V1": "resnet152-394f9c45.pth", "IMAGENET1K_V2": "resnet152-f82ba261.pth"},
                          "IMAGENET1K_V2", 60192808),
    "ResNeXt50_32X4D_Weights": ({"IMAGENET1K_V1": "resnext50_32x4d-7cdf4587.pth",
                                 "IMAGENET1K_V2": "resnext50_32x4d-1a0047aa.pth"}, "IMAGENET1K_V2", 25028904),
    "ResNeXt101_32X8D_Weights": ({"IMAGENET1K_V1": "resnext101_32x8d-8ba56ff5.pth",
                                  "IMAGENET1K_V2": "resnext101_32x8d-110c445d.pth"}, "IMAGENET1K_V2", 88791336),
    "ResNeXt101_64X4D_Weights": ({"IMAGENET1K_V1": "resnext101_64x4d-173b62eb.pth"}, "IMAGENET1K_V1", 83455272),
    "Wide_ResNet50_2_Weights": ({"IMAGENET1K_V1": "wide_resnet50_2-95faca4d.pth",
                                 "IMAGENET1K_V2": "wide_resnet50_2-9ba9bcbe.pth"}, "IMAGENET1K_V2", 68883240),
    "Wide_ResNet101_2_Weights": ({"IMAGENET1K_V1": "wide_resnet101_2-32ee1156.pth",
                                  "IMAGENET1K_V2": "wide_resnet101_2-d733dc28.pth"}, "IMAGENET1K_V2", 126886696),
    "VGG11_Weights": ({"IMAGENET1K_V1": "vgg11-8a719046.pth"}, "IMAGENET1K_V1", 132863336),
    "VGG11_BN_Weights": ({"IMAGENET1K_V1": "vgg11_bn-6002323d.pth"}, "IMAGENET1K_V1", 132868840),
    "VGG13_Weights": ({"IMAGENET1K_V1": "vgg13-19584684.pth"}, "IMAGENET1K_V1", 133047848),
    "VGG13_BN_Weights": ({"IMAGENET1K_V1": "vgg13_bn-abd245e5.pth"}, "IMAGENET1K_V1", 133053736),
    "VGG16_Weights": ({"IMAGENET1K_V1": "vgg16-397923af.pth",
                       "IMAGENET1K_FEATURES": "vgg16_features-amdegroot-88682ab5.pth"}, "IMAGENET1K_V1", 138357544),
    "VGG16_BN_Weights": ({"IMAGENET1K_V1": "vgg16_bn-6c64b313.pth"}, "IMAGENET1K_V1", 138365992),
    "VGG19_Weights": ({"IMAGENET1K_V1": "vgg19-dcbb9e9d.pth"}, "IMAGENET1K_V1", 143667240),
    "VGG19_BN_Weights": ({"IMAGENET1K_V1": "vgg19_bn-c79401a0.pth"}, "IMAGENET1K_V1", 143678248),
    "AlexNet_Weights": ({"IMAGENET1K_V1": "alexnet-owt-7be5be79.pth"}, "IMAGENET1K_V1", 61100840),
    "MobileNet_V2_Weights": ({"IMAGENET1K_V1": "mobilenet_v2-b0353104.pth",
                              "IMAGENET1K_V2": "mobilenet_v2-7ebf99e0.pth"}, "IMAGENET1K_V2", 3504872),
    "MobileNet_V3_Small_Weights": ({"IMAGENET1K_V1": "mobilenet_v3_small-047dcff4.pth"}, "IMAGENET1K_V1", 2542856),
    "MobileNet_V3_Large_Weights": ({"IMAGENET1K_V1": "mobilenet_v3_large-8738ca79.pth",
                                    "IMAGENET1K_V2": "mobilenet_v3_large-5c1a4163.pth"}, "IMAGENET1K_V2", 5483032),
    "SqueezeNet1_0_Weights": ({"IMAGENET1K_V1": "squeezenet1_0-b66bff10.pth"}, "IMAGENET1K_V1", 1248424),
    "SqueezeNet1_1_Weights": ({"IMAGENET1K_V1": "squeezenet1_1-b8a52dc0.pth"}, "IMAGENET1K_V1", 1235496),
}


RESIZED_TO_232 = {("ResNeXt101_64X4D_Weights", "IMAGENET1K_V1")}  # (as the V2s: trained with the new recipe)


def _preprocessing(name, member):
    """The transforms torchvision gives each weights: V2 weights resize to 232 first, VGG16's FEATURES weights
    normalise as their Lua original did."""
    if (name, member) in RESIZED_TO_232:
        return functools.partial(ImageClassification, crop_size=224, resize_size=232)
    if member == "IMAGENET1K_FEATURES":
        return functools.partial(ImageClassification, crop_size=224, mean=(0.48235, 0.45882, 0.40784),
                                 std=(1.0 / 255.0, 1.0 / 255.0, 1.0 / 255.0))
    if member == "IMAGENET1K_V2":
        return functools.partial(ImageClassification, crop_size=224, resize_size=232)
    return functools.partial(ImageClassification, crop_size=224)


def _enum(name, members, default, num_params):
    made = {member: Weights(_MODELS + file, _preprocessing(name, member), MappingProxyType({"num_params": num_params}))
            for member, file in members.items()}
    return WeightsEnum(name, [*made.items(), ("DEFAULT", made[default])], module=__name__, qualname=name)


ENUMS = {name: _enum(name, *row) for name, row in TABLE.items()}


def legacy_interface(default):
    """torchvision's handle_legacy_interface: `pretrained=` (and a bool `weights=`) as `weights=`, warning as
    torchvision warns; pretrained=True is the DEFAULT weights (refused when the builder verifies them)."""
    def outer(builder):
        @functools.wraps(builder)
        def inner(*args, **kwargs):
            weights_arg = kwargs.get("weights", inner)
            if ("weights" not in kwargs and "pretrained" not in kwargs or isinstance(weights_arg, WeightsEnum)
                    or isinstance(weights_arg, str) and weights_arg != "legacy" or weights_arg is None):
                return builder(*args, **kwargs)
            positional = weights_arg is not inner
            if positional:
                kwargs["pretrained"] = pretrained = kwargs.pop("weights")
            else:
                pretrained = kwargs["pretrained"]
            default_weights = ENUMS[default.partition(".")[0]][default.partition(".")[2]] if pretrained else None
            if not positional:
                warnings.warn("The parameter 'pretrained' is deprecated since 0.13 and may be removed in the future, "
                              "please use 'weights' instead.", stacklevel=2)
            msg = ("Arguments other than a weight enum or `None` for 'weights' are deprecated since 0.13 and may be "
                   f"removed in the future. The current behavior is equivalent to passing `weights={default_weights}`.")
            if pretrained:
                msg += (" You can also use `weights=" + type(default_weights).__name__ + ".DEFAULT` to get the most "
                        "up-to-date weights.")
            warnings.warn(msg, stacklevel=2)
            del kwargs["pretrained"]
            kwargs["weights"] = default_weights
            return builder(*args, **kwargs)
        return inner
    return outer


def checked(weights, enum_name):
    """The builder's `weights`, verified as torchvision verifies them; given weights are refused."""
    weights = ENUMS[enum_name].verify(weights)
    if weights is not None:
        refuse_download(weights)
    return weights
