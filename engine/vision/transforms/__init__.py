"""torchvision.transforms (v1, torchvision 0.28) on tensors, numpy arrays and the explorer's PIL images."""
from . import functional  # noqa: F401
from .functional import InterpolationMode  # noqa: F401
from .random_colour import (  # noqa: F401
    ColorJitter,
    GaussianBlur,
    RandomAdjustSharpness,
    RandomAutocontrast,
    RandomEqualize,
    RandomGrayscale,
    RandomInvert,
    RandomPosterize,
    RandomSolarize,
)
from .random_transforms import (  # noqa: F401
    RandomAffine,
    RandomApply,
    RandomCrop,
    RandomErasing,
    RandomHorizontalFlip,
    RandomPerspective,
    RandomResizedCrop,
    RandomRotation,
    RandomVerticalFlip,
)
from .transforms import (  # noqa: F401
    CenterCrop,
    Compose,
    ConvertImageDtype,
    FiveCrop,
    Grayscale,
    Lambda,
    Normalize,
    Pad,
    PILToTensor,
    Resize,
    TenCrop,
    ToPILImage,
    ToTensor,
)
