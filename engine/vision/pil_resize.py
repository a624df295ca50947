"""Pillow 13's Image.resize (libImaging/Resample.c) for the explorer's 8-bit images (modes L and RGB): each output
pixel a normalised filter over the input pixels its footprint covers, the weights rounded to 22-bit fixed point,
one pass per dimension, each rounded and clipped to 0..255 (the dimension that shrinks first when the other grows,
else widths first); NEAREST is Pillow's affine scaling (ImagingScaleAffine). Shrinking both dimensions, Pillow 13
chooses the order of its passes by a rule not known here, and the order changes the last bits: that is refused."""
import math

import numpy as np

PRECISION_BITS = 32 - 8 - 2


def _bicubic(x):
    x = abs(x)
    if x < 1.0:
        return ((-0.5 + 2.0) * x - (-0.5 + 3.0)) * x * x + 1
    if x < 2.0:
        return (((x - 5) * x + 8) * x - 4) * -0.5
    return 0.0


def _sinc(x):
    if x == 0.0:
        return 1.0
    x = x * math.pi
    return math.sin(x) / x


def _hamming(x):
    x = abs(x)
    if x == 0.0:
        return 1.0
    if x >= 1.0:
        return 0.0
    x = x * math.pi
    return math.sin(x) / x * (0.54 + 0.46 * math.cos(x))


FILTERS = {  # Pillow's resampling constants: (filter, support)
    4: (lambda x: 1.0 if -0.5 < x <= 0.5 else 0.0, 0.5),  # BOX
    2: (lambda x: 1.0 - abs(x) if abs(x) < 1.0 else 0.0, 1.0),  # BILINEAR
    5: (_hamming, 1.0),  # HAMMING
    3: (_bicubic, 2.0),  # BICUBIC
    1: (lambda x: _sinc(x) * _sinc(x / 3) if -3.0 <= x < 3.0 else 0.0, 3.0),  # LANCZOS
}


def _coefficients(in_size, out_size, resample):
    """precompute_coeffs and normalize_coeffs_8bpc: each output pixel's first input pixel and fixed-point weights,
    padded with zero weights to one width."""
    fn, support = FILTERS[resample]
    scale = filterscale = in_size / out_size
    filterscale = max(filterscale, 1.0)
    support = support * filterscale
    ksize = int(math.ceil(support)) * 2 + 1
    first, weights = np.zeros(out_size, np.int64), np.zeros((out_size, ksize), np.int64)
    for xx in range(out_size):
        center = (xx + 0.5) * scale
        xmin = max(int(center - support + 0.5), 0)
        xmax = min(int(center + support + 0.5), in_size) - xmin
        k = [fn((x + xmin - center + 0.5) * (1.0 / filterscale)) for x in range(xmax)]
        total = sum(k)  # (the C loop's order: left to right)
        k = [w / total if total != 0.0 else w for w in k]
        first[xx] = xmin
        weights[xx, :xmax] = [int(-0.5 + w * (1 << PRECISION_BITS)) if w < 0 else int(0.5 + w * (1 << PRECISION_BITS))
                              for w in k]
    return first, weights


def _resample_rows(pixels, out_size, resample):
    """The first axis of pixels (H x ... uint8) resampled to out_size."""
    first, weights = _coefficients(pixels.shape[0], out_size, resample)
    index = np.minimum(first[:, None] + np.arange(weights.shape[1]), pixels.shape[0] - 1)
    wide = pixels.astype(np.int64)
    acc = np.full((out_size,) + pixels.shape[1:], 1 << (PRECISION_BITS - 1), np.int64)
    extra = (None,) * (pixels.ndim - 1)
    for j in range(weights.shape[1]):
        acc += wide[index[:, j]] * weights[(slice(None), j, *extra)]
    return np.clip(acc >> PRECISION_BITS, 0, 255).astype(np.uint8)


def _nearest_axis(in_size, out_size):
    scale = in_size / out_size
    out, xo = [], scale * 0.5
    for _ in range(out_size):
        out.append(-1 if xo < 0.0 else int(xo))
        xo += scale
    return np.array(out)


def shrinks_both(pixels, width, height, resample):
    return resample != 0 and width < pixels.shape[1] and height < pixels.shape[0]


def resize(pixels, width, height, resample):
    """Pillow's im.resize((width, height), resample) of an H x W (x C) uint8 array."""
    if resample == 0:
        return pixels[_nearest_axis(pixels.shape[0], height)][:, _nearest_axis(pixels.shape[1], width)]
    widths_first = not (height < pixels.shape[0] and width > pixels.shape[1])
    for axis in ((1, 0) if widths_first else (0, 1)):
        size = (height, width)[axis]
        if size != pixels.shape[axis]:
            pixels = np.swapaxes(_resample_rows(np.swapaxes(pixels, 0, axis), size, resample), 0, axis)
    return np.ascontiguousarray(pixels)
