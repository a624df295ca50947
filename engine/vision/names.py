"""The torchvision names of engine/vision's classes, as `type(x)` prints them (engine/torch_names.py): a model is
<class 'torchvision.models.resnet.ResNet'>, a transform <class 'torchvision.transforms.transforms.ToTensor'>."""
import sys

from ..torch_names import TorchABCClass, TorchClass

MODULES = {  # engine module -> the torchvision module its classes are defined in (CLASSES: those elsewhere)
    "engine.vision.models.resnet": "torchvision.models.resnet",
    "engine.vision.models.vgg": "torchvision.models.vgg",
    "engine.vision.models.alexnet": "torchvision.models.alexnet",
    "engine.vision.models.mobilenet": "torchvision.models.mobilenetv2",
    "engine.vision.models.mobilenet_v3": "torchvision.models.mobilenetv3",
    "engine.vision.transforms.transforms": "torchvision.transforms.transforms",
    "engine.vision.transforms.random_transforms": "torchvision.transforms.transforms",
    "engine.vision.transforms.random_colour": "torchvision.transforms.transforms",
    "engine.vision.transforms.presets": "torchvision.transforms._presets",
    "engine.vision.datasets.fakedata": "torchvision.datasets.fakedata",
    "engine.vision.datasets.vision": "torchvision.datasets.vision",
    "engine.vision.images": "PIL.Image",
}
CLASSES = {"SqueezeNet": "torchvision.models.squeezenet", "Fire": "torchvision.models.squeezenet",
           "Conv2dNormActivation": "torchvision.ops.misc", "SqueezeExcitation": "torchvision.ops.misc"}


def name_classes():
    """Give each class engine/vision defines (with a naming metaclass) its torchvision name."""
    for module_name, torchvision_module in MODULES.items():
        for value in list(vars(sys.modules[module_name]).values()):
            if (isinstance(value, (TorchClass, TorchABCClass)) and value.__module__ == module_name
                    and not value.__name__.startswith("_")):
                value._torch_name = f"{CLASSES.get(value.__name__, torchvision_module)}.{value.__name__}"
