"""torchvision 0.28's transforms/functional.py (BSD-3-Clause, the torchvision contributors): each function on a
tensor image [..., C, H, W] (tensor_geometry.py, tensor_colour.py), on a numpy array (to_tensor, to_pil_image) or
on the explorer's PIL images (images.py)."""
import math
import numbers
import warnings
from enum import Enum

import numpy as np

from .. import _torch as torch
from .. import images
from .._torch import Tensor
from ..images import Image, is_pil_image, refuse_pil
from . import tensor_colour as F_c
from . import tensor_geometry as F_t


class InterpolationMode(Enum):
    NEAREST = "nearest"
    NEAREST_EXACT = "nearest-exact"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
    BOX = "box"
    HAMMING = "hamming"
    LANCZOS = "lanczos"


def _interpolation_modes_from_int(i):
    return {0: InterpolationMode.NEAREST, 2: InterpolationMode.BILINEAR, 3: InterpolationMode.BICUBIC,
            4: InterpolationMode.BOX, 5: InterpolationMode.HAMMING, 1: InterpolationMode.LANCZOS}[i]


PIL_MODES = {InterpolationMode.NEAREST: 0, InterpolationMode.BILINEAR: 2, InterpolationMode.BICUBIC: 3,
             InterpolationMode.NEAREST_EXACT: 0, InterpolationMode.BOX: 4, InterpolationMode.HAMMING: 5,
             InterpolationMode.LANCZOS: 1}


def _interpolation(interpolation):
    if isinstance(interpolation, int):
        return _interpolation_modes_from_int(interpolation)
    if not isinstance(interpolation, InterpolationMode):
        raise TypeError("Argument interpolation should be a InterpolationMode or a corresponding Pillow integer "
                        "constant")
    return interpolation


def _tensor(img, name):
    if not isinstance(img, Tensor):
        if is_pil_image(img):
            refuse_pil(name)
        raise TypeError(f"img should be Tensor Image. Got {type(img)}")
    return img


def get_dimensions(img):
    if isinstance(img, Tensor):
        return F_t.get_dimensions(img)
    if is_pil_image(img):
        return [len(img.getbands()), img.height, img.width]
    raise TypeError(f"Unexpected type {type(img)}")


def get_image_size(img):
    if isinstance(img, Tensor):
        return F_t.get_image_size(img)
    if is_pil_image(img):
        return [img.width, img.height]
    raise TypeError(f"Unexpected type {type(img)}")


def get_image_num_channels(img):
    if isinstance(img, Tensor):
        return F_t.get_image_num_channels(img)
    if is_pil_image(img):
        return len(img.getbands())
    raise TypeError(f"Unexpected type {type(img)}")


def to_tensor(pic):
    if not (is_pil_image(pic) or isinstance(pic, np.ndarray)):
        raise TypeError(f"pic should be PIL Image or ndarray. Got {type(pic)}")
    if isinstance(pic, np.ndarray) and pic.ndim not in {2, 3}:
        raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
    default_float_dtype = torch.get_default_dtype()
    if isinstance(pic, np.ndarray):
        if pic.ndim == 2:
            pic = pic[:, :, None]
        img = torch.from_numpy(pic.transpose((2, 0, 1))).contiguous()
        return img.to(dtype=default_float_dtype).div(255) if img.dtype == torch.uint8 else img
    mode_to_nptype = {"I": np.int32, "I;16": np.int16, "F": np.float32}
    img = torch.from_numpy(np.array(pic, mode_to_nptype.get(pic.mode, np.uint8), copy=True))
    img = img.view(pic.size[1], pic.size[0], get_image_num_channels(pic)).permute((2, 0, 1)).contiguous()
    return img.to(dtype=default_float_dtype).div(255) if img.dtype == torch.uint8 else img


def pil_to_tensor(pic):
    if not is_pil_image(pic):
        raise TypeError(f"pic should be PIL Image. Got {type(pic)}")
    img = torch.as_tensor(np.array(pic, copy=True))
    return img.view(pic.size[1], pic.size[0], get_image_num_channels(pic)).permute((2, 0, 1))


def convert_image_dtype(image, dtype=torch.float):
    if not isinstance(image, Tensor):
        raise TypeError("Input img should be Tensor Image")
    return F_c.convert_image_dtype(image, dtype)


def _pil_mode(npimg, mode):
    if npimg.shape[2] == 1:
        expected = {np.dtype(np.uint8): "L", np.dtype(np.int16): "I;16", np.dtype(np.int32): "I",
                    np.dtype(np.float32): "F"}.get(npimg.dtype)
        if mode is not None and mode != expected:
            raise ValueError(f"Incorrect mode ({mode}) supplied for input type {np.dtype}. Should be {expected}")
        return expected
    permitted, default = {2: (["LA"], "LA"), 4: (["RGBA", "CMYK", "RGBX"], "RGBA")}.get(
        npimg.shape[2], (["RGB", "YCbCr", "HSV"], "RGB"))
    if mode is not None and mode not in permitted:
        raise ValueError(f"Only modes {permitted} are supported for {npimg.shape[2]}D inputs")
    return default if mode is None and npimg.dtype == np.uint8 else mode


def to_pil_image(pic, mode=None):
    if isinstance(pic, Tensor):
        if pic.ndim == 3:
            pic = pic.permute((1, 2, 0))
        pic = pic.detach().numpy()
    elif not isinstance(pic, np.ndarray):
        raise TypeError(f"pic should be Tensor or ndarray. Got {type(pic)}.")
    if pic.ndim == 2:
        pic = np.expand_dims(pic, 2)
    if pic.ndim != 3:
        raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
    if pic.shape[-1] > 4:
        raise ValueError(f"pic should not have > 4 channels. Got {pic.shape[-1]} channels.")
    npimg = pic
    if np.issubdtype(npimg.dtype, np.floating) and mode != "F":
        # numpy's float -> uint8 cast as x86 makes it (truncated, its low byte: -1.5 -> 255), on every machine
        # (the cast of a value outside 0..255 is the C compiler's to choose; FakeData's images hold such values)
        npimg = (np.trunc(npimg * 255).astype(np.int64) & 0xFF).astype(np.uint8)
    mode = _pil_mode(npimg, mode)
    if mode is None:
        raise TypeError(f"Input type {npimg.dtype} is not supported")
    return Image(npimg[:, :, 0] if npimg.shape[2] == 1 else npimg, mode)


def normalize(tensor, mean, std, inplace=False):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(tensor)}")
    return F_c.normalize(tensor, mean=mean, std=std, inplace=inplace)


def _compute_resized_output_size(image_size, size, max_size=None):
    h, w = image_size
    short, long = (w, h) if w <= h else (h, w)
    if len(size) == 1:
        requested_new_short = size if isinstance(size, int) else size[0]
        new_short, new_long = requested_new_short, int(requested_new_short * long / short)
        if max_size is not None:
            if max_size <= requested_new_short:
                raise ValueError(f"max_size = {max_size} must be strictly greater than the requested size for the "
                                 f"smaller edge size = {size}")
            if new_long > max_size:
                new_short, new_long = int(max_size * new_short / new_long), max_size
        new_w, new_h = (new_short, new_long) if w <= h else (new_long, new_short)
    else:
        new_w, new_h = size[1], size[0]
    return [new_h, new_w]


def resize(img, size, interpolation=InterpolationMode.BILINEAR, max_size=None, antialias=True):
    interpolation = _interpolation(interpolation)
    if isinstance(size, (list, tuple)):
        if len(size) not in [1, 2]:
            raise ValueError(f"Size must be an int or a 1 or 2 element tuple/list, not a {len(size)} element "
                             "tuple/list")
        if max_size is not None and len(size) != 1:
            raise ValueError("max_size should only be passed if size specifies the length of the smaller edge, i.e. "
                             "size should be an int or a sequence of length 1 in torchscript mode.")
    _, image_height, image_width = get_dimensions(img)
    if isinstance(size, int):
        size = [size]
    output_size = _compute_resized_output_size((image_height, image_width), size, max_size)
    if [image_height, image_width] == output_size:
        return img
    if is_pil_image(img):
        if antialias is False:
            warnings.warn("Anti-alias option is always applied for PIL Image input. Argument antialias is ignored.",
                          stacklevel=2)
        return img.resize(tuple(output_size[::-1]), PIL_MODES[interpolation])
    return F_t.resize(_tensor(img, "resize"), size=output_size, interpolation=interpolation.value,
                      antialias=antialias)


def pad(img, padding, fill=0, padding_mode="constant"):
    if is_pil_image(img):
        return images.pad(img, padding=padding, fill=fill, padding_mode=padding_mode)
    return F_t.pad(_tensor(img, "pad"), padding=padding, fill=fill, padding_mode=padding_mode)


def crop(img, top, left, height, width):
    if is_pil_image(img):
        return img.crop((left, top, left + width, top + height))
    return F_t.crop(_tensor(img, "crop"), top, left, height, width)


def center_crop(img, output_size):
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    elif isinstance(output_size, (tuple, list)) and len(output_size) == 1:
        output_size = (output_size[0], output_size[0])
    _, image_height, image_width = get_dimensions(img)
    crop_height, crop_width = output_size
    if crop_width > image_width or crop_height > image_height:
        padding_ltrb = [(crop_width - image_width) // 2 if crop_width > image_width else 0,
                        (crop_height - image_height) // 2 if crop_height > image_height else 0,
                        (crop_width - image_width + 1) // 2 if crop_width > image_width else 0,
                        (crop_height - image_height + 1) // 2 if crop_height > image_height else 0]
        img = pad(img, padding_ltrb, fill=0)
        _, image_height, image_width = get_dimensions(img)
        if crop_width == image_width and crop_height == image_height:
            return img
    crop_top = int(round((image_height - crop_height) / 2.0))
    crop_left = int(round((image_width - crop_width) / 2.0))
    return crop(img, crop_top, crop_left, crop_height, crop_width)


def resized_crop(img, top, left, height, width, size, interpolation=InterpolationMode.BILINEAR, antialias=True):
    return resize(crop(img, top, left, height, width), size, interpolation, antialias=antialias)


def hflip(img):
    return img.transpose(0) if is_pil_image(img) else F_t.hflip(_tensor(img, "hflip"))


def vflip(img):
    return img.transpose(1) if is_pil_image(img) else F_t.vflip(_tensor(img, "vflip"))


def five_crop(img, size):
    if isinstance(size, numbers.Number):
        size = (int(size), int(size))
    elif isinstance(size, (tuple, list)) and len(size) == 1:
        size = (size[0], size[0])
    if len(size) != 2:
        raise ValueError("Please provide only two dimensions (h, w) for size.")
    _, image_height, image_width = get_dimensions(img)
    crop_height, crop_width = size
    if crop_width > image_width or crop_height > image_height:
        raise ValueError(f"Requested crop size {size} is bigger than input size {(image_height, image_width)}")
    tl = crop(img, 0, 0, crop_height, crop_width)
    tr = crop(img, 0, image_width - crop_width, crop_height, crop_width)
    bl = crop(img, image_height - crop_height, 0, crop_height, crop_width)
    br = crop(img, image_height - crop_height, image_width - crop_width, crop_height, crop_width)
    return tl, tr, bl, br, center_crop(img, [crop_height, crop_width])


def ten_crop(img, size, vertical_flip=False):
    if isinstance(size, numbers.Number):
        size = (int(size), int(size))
    elif isinstance(size, (tuple, list)) and len(size) == 1:
        size = (size[0], size[0])
    if len(size) != 2:
        raise ValueError("Please provide only two dimensions (h, w) for size.")
    return five_crop(img, size) + five_crop(vflip(img) if vertical_flip else hflip(img), size)


def adjust_brightness(img, brightness_factor):
    return F_c.adjust_brightness(_tensor(img, "adjust_brightness"), brightness_factor)


def adjust_contrast(img, contrast_factor):
    return F_c.adjust_contrast(_tensor(img, "adjust_contrast"), contrast_factor)


def adjust_saturation(img, saturation_factor):
    return F_c.adjust_saturation(_tensor(img, "adjust_saturation"), saturation_factor)


def adjust_hue(img, hue_factor):
    return F_c.adjust_hue(_tensor(img, "adjust_hue"), hue_factor)


def adjust_gamma(img, gamma, gain=1):
    return F_c.adjust_gamma(_tensor(img, "adjust_gamma"), gamma, gain)


def _get_perspective_coeffs(startpoints, endpoints):
    if len(startpoints) != 4 or len(endpoints) != 4:
        raise ValueError(f"Please provide exactly four corners, got {len(startpoints)} startpoints and "
                         f"{len(endpoints)} endpoints.")
    a_matrix = torch.zeros(2 * len(startpoints), 8, dtype=torch.float64)
    for i, (p1, p2) in enumerate(zip(endpoints, startpoints)):
        a_matrix[2 * i, :] = torch.tensor([p1[0], p1[1], 1, 0, 0, 0, -p2[0] * p1[0], -p2[0] * p1[1]])
        a_matrix[2 * i + 1, :] = torch.tensor([0, 0, 0, p1[0], p1[1], 1, -p2[1] * p1[0], -p2[1] * p1[1]])
    b_matrix = torch.tensor(startpoints, dtype=torch.float64).view(8)
    return torch.linalg.lstsq(a_matrix, b_matrix, driver="gels").solution.to(torch.float32).tolist()


def perspective(img, startpoints, endpoints, interpolation=InterpolationMode.BILINEAR, fill=None):
    coeffs = _get_perspective_coeffs(startpoints, endpoints)
    interpolation = _interpolation(interpolation)
    return F_t.perspective(_tensor(img, "perspective"), coeffs, interpolation=interpolation.value, fill=fill)


def _get_inverse_affine_matrix(center, angle, translate, scale, shear, inverted=True):
    rot = math.radians(angle)
    sx = math.radians(shear[0])
    sy = math.radians(shear[1])
    cx, cy = center
    tx, ty = translate
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    if inverted:
        matrix = [x / scale for x in [d, -b, 0.0, -c, a, 0.0]]
        matrix[2] += matrix[0] * (-cx - tx) + matrix[1] * (-cy - ty)
        matrix[5] += matrix[3] * (-cx - tx) + matrix[4] * (-cy - ty)
        matrix[2] += cx
        matrix[5] += cy
    else:
        matrix = [x * scale for x in [a, b, 0.0, c, d, 0.0]]
        matrix[2] += matrix[0] * -cx + matrix[1] * -cy
        matrix[5] += matrix[3] * -cx + matrix[4] * -cy
        matrix[2] += cx + tx
        matrix[5] += cy + ty
    return matrix


def rotate(img, angle, interpolation=InterpolationMode.NEAREST, expand=False, center=None, fill=None):
    interpolation = _interpolation(interpolation)
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    img = _tensor(img, "rotate")
    center_f = [0.0, 0.0]
    if center is not None:
        _, height, width = get_dimensions(img)
        center_f = [1.0 * (c - s * 0.5) for c, s in zip(center, [width, height])]
    matrix = _get_inverse_affine_matrix(center_f, -angle, [0.0, 0.0], 1.0, [0.0, 0.0])
    return F_t.rotate(img, matrix=matrix, interpolation=interpolation.value, expand=expand, fill=fill)


def affine(img, angle, translate, scale, shear, interpolation=InterpolationMode.NEAREST, fill=None, center=None):
    interpolation = _interpolation(interpolation)
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if not isinstance(translate, (list, tuple)):
        raise TypeError("Argument translate should be a sequence")
    if len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if not isinstance(shear, (numbers.Number, (list, tuple))):
        raise TypeError("Shear should be either a single value or a sequence of two values")
    angle = float(angle)
    shear = [shear, 0.0] if isinstance(shear, numbers.Number) else list(shear)
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    img = _tensor(img, "affine")
    _, height, width = get_dimensions(img)
    center_f = [0.0, 0.0]
    if center is not None:
        center_f = [1.0 * (c - s * 0.5) for c, s in zip(center, [width, height])]
    matrix = _get_inverse_affine_matrix(center_f, angle, [1.0 * t for t in translate], scale, shear)
    return F_t.affine(img, matrix=matrix, interpolation=interpolation.value, fill=fill)


def rgb_to_grayscale(img, num_output_channels=1):
    if is_pil_image(img):
        return images.to_grayscale(img, num_output_channels)
    return F_c.rgb_to_grayscale(_tensor(img, "rgb_to_grayscale"), num_output_channels)


def to_grayscale(img, num_output_channels=1):
    if is_pil_image(img):
        return images.to_grayscale(img, num_output_channels)
    raise TypeError("Input should be PIL Image")


def erase(img, i, j, h, w, v, inplace=False):
    if not isinstance(img, Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(img)}")
    return F_t.erase(img, i, j, h, w, v, inplace=inplace)


def gaussian_blur(img, kernel_size, sigma=None):
    if not isinstance(kernel_size, (int, list, tuple)):
        raise TypeError(f"kernel_size should be int or a sequence of integers. Got {type(kernel_size)}")
    if isinstance(kernel_size, int):
        kernel_size = [kernel_size, kernel_size]
    if len(kernel_size) != 2:
        raise ValueError(f"If kernel_size is a sequence its length should be 2. Got {len(kernel_size)}")
    for ksize in kernel_size:
        if ksize % 2 == 0 or ksize < 0:
            raise ValueError(f"kernel_size should have odd and positive integers. Got {kernel_size}")
    if sigma is None:
        sigma = [ksize * 0.15 + 0.35 for ksize in kernel_size]
    if not isinstance(sigma, (int, float, list, tuple)):
        raise TypeError(f"sigma should be either float or sequence of floats. Got {type(sigma)}")
    if isinstance(sigma, (int, float)):
        sigma = [float(sigma), float(sigma)]
    if isinstance(sigma, (list, tuple)) and len(sigma) == 1:
        sigma = [sigma[0], sigma[0]]
    if len(sigma) != 2:
        raise ValueError(f"If sigma is a sequence, its length should be 2. Got {len(sigma)}")
    for s in sigma:
        if s <= 0.0:
            raise ValueError(f"sigma should have positive values. Got {sigma}")
    return F_c.gaussian_blur(_tensor(img, "gaussian_blur"), kernel_size, sigma)


def invert(img):
    return F_c.invert(_tensor(img, "invert"))


def posterize(img, bits):
    if not 0 <= bits <= 8:
        raise ValueError(f"The number if bits should be between 0 and 8. Got {bits}")
    return F_c.posterize(_tensor(img, "posterize"), bits)


def solarize(img, threshold):
    return F_c.solarize(_tensor(img, "solarize"), threshold)


def adjust_sharpness(img, sharpness_factor):
    return F_c.adjust_sharpness(_tensor(img, "adjust_sharpness"), sharpness_factor)


def autocontrast(img):
    return F_c.autocontrast(_tensor(img, "autocontrast"))


def equalize(img):
    return F_c.equalize(_tensor(img, "equalize"))
