"""torchvision 0.28's models/vgg.py on the engine (BSD-3-Clause, the torchvision contributors): VGG 11/13/16/19,
with and without batch norm, initialised in torchvision's order."""
from .. import _torch as torch
from .weights import checked, legacy_interface

nn = torch.nn

CFGS = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"],
}


class VGG(nn.Module):
    def __init__(self, features, num_classes=1000, init_weights=True, dropout=0.5):
        super().__init__()
        self.features = features
        self.avgpool = nn.AdaptiveAvgPool2d((7, 7))
        self.classifier = nn.Sequential(nn.Linear(512 * 7 * 7, 4096), nn.ReLU(True), nn.Dropout(p=dropout),
                                        nn.Linear(4096, 4096), nn.ReLU(True), nn.Dropout(p=dropout),
                                        nn.Linear(4096, num_classes))
        if init_weights:
            for m in self.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
                    if m.bias is not None:
                        nn.init.constant_(m.bias, 0)
                elif isinstance(m, nn.BatchNorm2d):
                    nn.init.constant_(m.weight, 1)
                    nn.init.constant_(m.bias, 0)
                elif isinstance(m, nn.Linear):
                    nn.init.normal_(m.weight, 0, 0.01)
                    nn.init.constant_(m.bias, 0)

    def forward(self, x):
        x = self.avgpool(self.features(x))
        return self.classifier(torch.flatten(x, 1))


def make_layers(cfg, batch_norm=False):
    layers = []
    in_channels = 3
    for v in cfg:
        if v == "M":
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            conv2d = nn.Conv2d(in_channels, v, kernel_size=3, padding=1)
            layers += [conv2d, nn.BatchNorm2d(v), nn.ReLU(inplace=True)] if batch_norm else [conv2d,
                                                                                              nn.ReLU(inplace=True)]
            in_channels = v
    return nn.Sequential(*layers)


def _builder(name, cfg, batch_norm, enum_name):
    @legacy_interface(default=f"{enum_name}.IMAGENET1K_V1")
    def build(*, weights=None, progress=True, **kwargs):
        checked(weights, enum_name)
        return VGG(make_layers(CFGS[cfg], batch_norm=batch_norm), **kwargs)
    build.__name__ = build.__qualname__ = name
    return build


vgg11 = _builder("vgg11", "A", False, "VGG11_Weights")
vgg11_bn = _builder("vgg11_bn", "A", True, "VGG11_BN_Weights")
vgg13 = _builder("vgg13", "B", False, "VGG13_Weights")
vgg13_bn = _builder("vgg13_bn", "B", True, "VGG13_BN_Weights")
vgg16 = _builder("vgg16", "D", False, "VGG16_Weights")
vgg16_bn = _builder("vgg16_bn", "D", True, "VGG16_BN_Weights")
vgg19 = _builder("vgg19", "E", False, "VGG19_Weights")
vgg19_bn = _builder("vgg19_bn", "E", True, "VGG19_BN_Weights")
