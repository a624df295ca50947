"""The datasets of torchvision 0.28 that read files (downloaded, or of the machine): their names import, and
making one refuses at its line, saying what to use instead. The explorer has no network and none of the machine's
files."""
from .vision import VisionDataset

NAMES = """LSUN LSUNClass ImageFolder DatasetFolder CocoCaptions CocoDetection CIFAR10 CIFAR100 EMNIST FashionMNIST
    QMNIST MNIST KMNIST MovingMNIST StanfordCars STL10 SUN397 SVHN PhotoTour SEMEION Omniglot SBU Flickr8k Flickr30k
    Flowers102 VOCSegmentation VOCDetection Cityscapes ImageNet Caltech101 Caltech256 CelebA WIDERFace SBDataset USPS
    Kinetics HMDB51 UCF101 Places365 Kitti INaturalist LFWPeople LFWPairs KittiFlow Sintel FlyingChairs
    FlyingThings3D HD1K Food101 DTD FER2013 GTSRB CLEVRClassification OxfordIIITPet PCAM Country211 FGVCAircraft
    EuroSAT RenderedSST2 Kitti2012Stereo Kitti2015Stereo CarlaStereo Middlebury2014Stereo CREStereo
    FallingThingsStereo SceneFlowStereo SintelStereo InStereo2k ETH3DStereo Imagenette""".split()


# The shape and classes of the images of the datasets learners start with, for FakeData to stand in for them.
SHAPES = {**dict.fromkeys(("MNIST", "FashionMNIST", "KMNIST", "QMNIST"), ((1, 28, 28), 10)),
          "EMNIST": ((1, 28, 28), 47), "CIFAR10": ((3, 32, 32), 10), "CIFAR100": ((3, 32, 32), 100),
          "SVHN": ((3, 32, 32), 10), "STL10": ((3, 96, 96), 10), "ImageNet": ((3, 224, 224), 1000)}


class FileDataset(VisionDataset):
    """A dataset torchvision reads from files: refused when made."""

    def __init__(self, *args, **kwargs):
        name = type(self).__name__
        shape, classes = SHAPES.get(name, ((3, 64, 64), 10))
        raise RuntimeError(
            f"datasets.{name} reads its images from files it downloads (or finds on the machine), and the explorer "
            "has no network and none of the machine's files: make the data in the program instead, e.g. "
            f"datasets.FakeData(size=1000, image_size={shape}, num_classes={classes}, transform=transforms.ToTensor()) "
            "(random images of that shape, with labels), or torch.randn / torch.randint tensors in a "
            "torch.utils.data.TensorDataset")


CLASSES = {name: type(name, (FileDataset,), {"__module__": __name__, "__qualname__": name}) for name in NAMES}
