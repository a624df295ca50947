"""The PIL images a program meets without PIL: what ToPILImage makes and FakeData hands out, as a PIL image's
mode, size and pixels (`np.array(img)`). The explorer converts them to tensors (ToTensor, PILToTensor), flips and
crops them as torchvision's PIL functions do; any other PIL operation is refused, saying to convert first."""
import numpy as np

BANDS = {"L": ("L",), "LA": ("L", "A"), "RGB": ("R", "G", "B"), "RGBA": ("R", "G", "B", "A"), "F": ("F",),
         "I": ("I",), "I;16": ("I;16",), "RGBX": ("R", "G", "B", "X"), "CMYK": ("C", "M", "Y", "K"),
         "YCbCr": ("Y", "Cb", "Cr"), "HSV": ("H", "S", "V")}


class Image:
    """A PIL.Image.Image's mode, size and pixels (an H x W or H x W x bands array)."""

    def __init__(self, pixels, mode):
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
        out = np.zeros((max(bottom - top, 0), max(right - left, 0)) + self._pixels.shape[2:], self._pixels.dtype)
        src = self._pixels[max(top, 0):max(bottom, 0), max(left, 0):max(right, 0)]
        out[max(-top, 0):max(-top, 0) + src.shape[0], max(-left, 0):max(-left, 0) + src.shape[1]] = src
        return Image(out, self.mode)

    def __repr__(self):
        return f"<PIL.Image.Image image mode={self.mode} size={self.width}x{self.height} at 0x{id(self):X}>"


def is_pil_image(img):
    return isinstance(img, Image)


def refuse_pil(name):
    raise TypeError(f"{name} on a PIL image is not available in the explorer, which has no PIL: its images (from "
                    "ToPILImage and FakeData) convert to tensors, flip and crop; put transforms.ToTensor() (or "
                    "PILToTensor()) before it and it works on the tensor")
