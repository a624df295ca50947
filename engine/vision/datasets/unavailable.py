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


class FileDataset(VisionDataset):
    """A dataset torchvision reads from files: refused when made."""

    def __init__(self, *args, **kwargs):
        name = type(self).__name__
        raise RuntimeError(
            f"datasets.{name} reads its images from files it downloads (or finds on the machine), and the explorer "
            "has no network and none of the machine's files: make the data in the program instead, e.g. "
            "datasets.FakeData(size=100, image_size=(1, 28, 28), num_classes=10, transform=transforms.ToTensor()), "
            "or torch.randn / torch.randint tensors in a torch.utils.data.TensorDataset")


CLASSES = {name: type(name, (FileDataset,), {"__module__": __name__, "__qualname__": name}) for name in NAMES}
