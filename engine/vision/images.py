"""The PIL images a program meets without PIL: what ToPILImage makes and FakeData hands out, as a PIL image's
mode, size and pixels (`np.array(img)`). The explorer converts them to tensors (ToTensor, PILToTensor), flips,
crops, pads and greys them as torchvision's PIL functions do; any other PIL operation is refused, saying to convert
first."""
import numpy as np

from .. import observe
from ..torch_names import TorchClass
from . import pil_resize

BANDS = {"L": ("L",), "LA": ("L", "A"), "RGB": ("R", "G", "B"), "RGBA": ("R", "G", "B", "A"), "F": ("F",),
         "I": ("I",), "I;16": ("I;16",), "RGBX": ("R", "G", "B", "X"), "CMYK": ("C", "M", "Y", "K"),
         "YCbCr": ("Y", "Cb", "Cr"), "HSV": ("H", "S", "V")}


class Image(metaclass=TorchClass):
    """A PIL.Image.Image's mode, size and pixels (an H x W or H x W x bands array)."""

    def __init__(self, pixels, mode):
        observe.emit("on_alloc", int(np.size(pixels)))  # (a budget hears what an image holds, as a tensor's)
        self._pixels = np.array(pixels)
        self.mode = mode

    @property
    def size(self):
        return self._pixels.shape[1], self._pixels.shape[0]

    @property
    def width(self):
        return self._pixels.shape[1]

    @property
    def height(self):
        return self._pixels.shape[0]

    def getbands(self):
        return BANDS[self.mode]

    def __array__(self, dtype=None, copy=None):
        return np.array(self._pixels, dtype=dtype)

    def transpose(self, method):
        """Image.FLIP_LEFT_RIGHT (0) and FLIP_TOP_BOTTOM (1)."""
        return Image(self._pixels[:, ::-1] if method == 0 else self._pixels[::-1], self.mode)

    def crop(self, box):
        """PIL's crop: pixels outside the image are zeros."""
        left, top, right, bottom = (int(round(v)) for v in box)
        observe.emit("on_alloc", max(bottom - top, 0) * max(right - left, 0))
        out = np.zeros((max(bottom - top, 0), max(right - left, 0)) + self._pixels.shape[2:], self._pixels.dtype)
        src = self._pixels[max(top, 0):max(bottom, 0), max(left, 0):max(right, 0)]
        out[max(-top, 0):max(-top, 0) + src.shape[0], max(-left, 0):max(-left, 0) + src.shape[1]] = src
        return Image(out, self.mode)

    def resize(self, size, resample):
        """Pillow's resize to size (width, height), for modes L and RGB (pil_resize.py)."""
        width, height = size
        if self.mode not in ("L", "RGB"):
            refuse_pil(f"resizing a mode {self.mode} image")
        if pil_resize.shrinks_both(self._pixels, width, height, resample):
            refuse_pil("resize smaller in both height and width (Pillow's order of passes)")
        observe.emit("on_alloc", width * height * len(self.getbands()))
        return Image(pil_resize.resize(self._pixels, width, height, resample), self.mode)

    def __repr__(self):
        return f"<PIL.Image.Image image mode={self.mode} size={self.width}x{self.height} at 0x{id(self):X}>"


def _parse_fill(fill, img):
    num_channels = len(img.getbands())
    fill = 0 if fill is None else fill
    if isinstance(fill, (int, float)) and num_channels > 1:
        fill = tuple([fill] * num_channels)
    if isinstance(fill, (list, tuple)):
        if len(fill) == 1:
            fill = fill * num_channels
        elif len(fill) != num_channels:
            raise ValueError("The number of elements in 'fill' does not match the number of channels of the image "
                             f"({len(fill)} != {num_channels})")
        fill = tuple(fill)
    if img.mode != "F":
        fill = tuple(int(x) for x in fill) if isinstance(fill, (list, tuple)) else int(fill)
    return fill


def pad(img, padding, fill=0, padding_mode="constant"):
    """torchvision's _functional_pil.pad: PIL's ImageOps.expand for a constant fill, numpy's pad for the rest."""
    if not isinstance(padding, (int, float, tuple, list)):
        raise TypeError("Got inappropriate padding arg")
    if fill is not None and not isinstance(fill, (int, float, tuple, list)):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    padding = tuple(padding) if isinstance(padding, list) else padding
    if isinstance(padding, tuple) and len(padding) not in [1, 2, 4]:
        raise ValueError(f"Padding must be an int or a 1, 2, or 4 element tuple, not a {len(padding)} element tuple")
    if isinstance(padding, tuple) and len(padding) == 1:
        padding = padding[0]
    if padding_mode not in ["constant", "edge", "reflect", "symmetric"]:
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
    if isinstance(padding, int):
        p = [padding] * 4
    elif len(padding) == 2:
        p = [padding[0], padding[1], padding[0], padding[1]]
    else:
        p = list(padding)
    left, top, right, bottom = p
    if min(p) < 0:
        img = img.crop((max(-left, 0), max(-top, 0), img.width - max(-right, 0), img.height - max(-bottom, 0)))
        left, top, right, bottom = (max(v, 0) for v in p)
    pixels = img._pixels
    widths = ((top, bottom), (left, right)) + ((0, 0),) * (pixels.ndim - 2)
    if padding_mode == "constant":
        observe.emit("on_alloc", (pixels.shape[0] + top + bottom) * (pixels.shape[1] + left + right))
        out = np.empty((pixels.shape[0] + top + bottom, pixels.shape[1] + left + right) + pixels.shape[2:],
                       pixels.dtype)
        out[...] = _parse_fill(fill, img)
        out[top:top + pixels.shape[0], left:left + pixels.shape[1]] = pixels
        return Image(out, img.mode)
    observe.emit("on_alloc", (pixels.shape[0] + top + bottom) * (pixels.shape[1] + left + right))
    return Image(np.pad(pixels, widths, padding_mode), img.mode)


def to_grayscale(img, num_output_channels):
    """PIL's convert("L") (L = (19595 R + 38470 G + 7471 B + 2**15) >> 16), as 1 or 3 channels."""
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    pixels = img._pixels
    if img.mode in ("RGB", "RGBA", "RGBX"):
        rgb = pixels[..., :3].astype(np.uint32)
        pixels = ((rgb[..., 0] * 19595 + rgb[..., 1] * 38470 + rgb[..., 2] * 7471 + 0x8000) >> 16).astype(np.uint8)
    elif img.mode == "LA":
        pixels = pixels[..., 0]
    elif img.mode != "L":
        refuse_pil(f"converting a mode {img.mode} image to greyscale")
    if num_output_channels == 3:
        return Image(np.dstack([pixels, pixels, pixels]), "RGB")
    return Image(pixels, "L")


def is_pil_image(img):
    return isinstance(img, Image)


def refuse_pil(name):
    raise TypeError(f"{name} on a PIL image is not available in the explorer, which has no PIL: its images (from "
                    "ToPILImage and FakeData) convert to tensors, flip, crop, pad, resize and turn grey; put "
                    "transforms.ToTensor() (or PILToTensor()) before it and it works on the tensor")
