"""torchvision 0.28's transforms/_functional_tensor.py, its geometry (BSD-3-Clause, the torchvision contributors):
crops, flips, padding, resizing and the grid transforms (rotate, affine, perspective) on tensor images [..., C, H, W].

Resize's antialias (torchvision's default) is torch's `_upsample_bilinear2d_aa`: each output pixel a normalised
triangle filter over the input pixels its footprint covers, widths first, then heights, summed in the kernel's order."""
import numpy as np

from .. import _torch as torch
from .._torch import Tensor

F = torch.nn.functional


def _assert_image_tensor(img):
    if not img.ndim >= 2:
        raise TypeError("Tensor is not a torch image.")


def get_dimensions(img):
    _assert_image_tensor(img)
    channels = 1 if img.ndim == 2 else img.shape[-3]
    height, width = img.shape[-2:]
    return [channels, height, width]


def get_image_size(img):
    _assert_image_tensor(img)
    return [img.shape[-1], img.shape[-2]]


def get_image_num_channels(img):
    _assert_image_tensor(img)
    if img.ndim == 2:
        return 1
    elif img.ndim > 2:
        return img.shape[-3]
    raise TypeError(f"Input ndim should be 2 or more. Got {img.ndim}")


def vflip(img):
    _assert_image_tensor(img)
    return img.flip(-2)


def hflip(img):
    _assert_image_tensor(img)
    return img.flip(-1)


def crop(img, top, left, height, width):
    _assert_image_tensor(img)
    _, h, w = get_dimensions(img)
    right = left + width
    bottom = top + height
    if left < 0 or top < 0 or right > w or bottom > h:
        padding_ltrb = [max(-left + min(0, right), 0), max(-top + min(0, bottom), 0), max(right - max(w, left), 0),
                        max(bottom - max(h, top), 0)]
        return pad(img[..., max(top, 0):bottom, max(left, 0):right], padding_ltrb, fill=0)
    return img[..., top:bottom, left:right]


def _pad_symmetric(img, padding):
    if padding[0] < 0 or padding[1] < 0 or padding[2] < 0 or padding[3] < 0:
        crop_left, crop_right, crop_top, crop_bottom = [-min(x, 0) for x in padding]
        img = img[..., crop_top:img.shape[-2] - crop_bottom, crop_left:img.shape[-1] - crop_right]
        padding = [max(x, 0) for x in padding]
    in_sizes = img.size()
    x_indices = torch.tensor(list(range(padding[0] - 1, -1, -1)) + list(range(in_sizes[-1]))
                             + [-(i + 1) for i in range(padding[1])])
    y_indices = torch.tensor(list(range(padding[2] - 1, -1, -1)) + list(range(in_sizes[-2]))
                             + [-(i + 1) for i in range(padding[3])])
    if img.ndim == 3:
        return img[:, y_indices[:, None], x_indices[None, :]]
    elif img.ndim == 4:
        return img[:, :, y_indices[:, None], x_indices[None, :]]
    raise RuntimeError("Symmetric padding of N-D tensors are not supported yet")


def _parse_pad_padding(padding):
    if isinstance(padding, int):
        pad_left = pad_right = pad_top = pad_bottom = padding
    elif len(padding) == 1:
        pad_left = pad_right = pad_top = pad_bottom = padding[0]
    elif len(padding) == 2:
        pad_left = pad_right = padding[0]
        pad_top = pad_bottom = padding[1]
    else:
        pad_left, pad_top, pad_right, pad_bottom = padding[0], padding[1], padding[2], padding[3]
    return [pad_left, pad_right, pad_top, pad_bottom]


def pad(img, padding, fill=0, padding_mode="constant"):
    _assert_image_tensor(img)
    if fill is None:
        fill = 0
    if not isinstance(padding, (int, tuple, list)):
        raise TypeError("Got inappropriate padding arg")
    if not isinstance(fill, (int, float)):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if isinstance(padding, tuple):
        padding = list(padding)
    if isinstance(padding, list) and len(padding) not in [1, 2, 4]:
        raise ValueError(f"Padding must be an int or a 1, 2, or 4 element tuple, not a {len(padding)} element tuple")
    if padding_mode not in ["constant", "edge", "reflect", "symmetric"]:
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
    p = _parse_pad_padding(padding)
    if padding_mode == "edge":
        padding_mode = "replicate"
    elif padding_mode == "symmetric":
        return _pad_symmetric(img, p)
    need_squeeze = img.ndim < 4
    if need_squeeze:
        img = img.unsqueeze(dim=0)
    out_dtype = img.dtype
    need_cast = padding_mode != "constant" and img.dtype not in (torch.float32, torch.float64)
    if need_cast:
        img = img.to(torch.float32)
    if padding_mode in ("reflect", "replicate"):
        img = F.pad(img, p, mode=padding_mode)
    else:
        img = F.pad(img, p, mode=padding_mode, value=float(fill))
    if need_squeeze:
        img = img.squeeze(dim=0)
    if need_cast:
        img = img.to(out_dtype)
    return img


def _cast_squeeze_in(img, req_dtypes):
    need_squeeze = False
    if img.ndim < 4:
        img = img.unsqueeze(dim=0)
        need_squeeze = True
    out_dtype = img.dtype
    need_cast = False
    if out_dtype not in req_dtypes:
        need_cast = True
        img = img.to(req_dtypes[0])
    return img, need_cast, need_squeeze, out_dtype


def _cast_squeeze_out(img, need_cast, need_squeeze, out_dtype):
    if need_squeeze:
        img = img.squeeze(dim=0)
    if need_cast:
        if out_dtype in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
            img = torch.round(img)
        img = img.to(out_dtype)
    return img


def _aa_weights(in_size, out_size, dtype):
    """Each output pixel's input pixels and normalised triangle-filter weights, as torch's
    _compute_indices_min_size_weights_aa computes them (in the image's float type, its 0.5s in double), padded to
    one width with zero weights."""
    real = np.float32 if dtype == torch.float32 else np.float64
    scale = real(in_size) / real(out_size)
    support = scale if scale >= 1.0 else real(1.0)
    invscale = real(1.0 / np.float64(scale)) if scale >= 1.0 else real(1.0)
    rows = []
    for i in range(out_size):
        center = real(np.float64(scale) * (i + 0.5))
        xmin = max(int(np.float64(center - support) + 0.5), 0)
        xsize = min(int(np.float64(center + support) + 0.5), in_size) - xmin
        taps = [real((np.float64(real(j + xmin) - center) + 0.5) * np.float64(invscale)) for j in range(xsize)]
        w = [real(1.0) - abs(x) if abs(x) < 1.0 else real(0.0) for x in taps]
        total = real(0.0)
        for x in w:
            total = real(total + x)
        rows.append((xmin, [x / total for x in w] if total != 0.0 else w))
    width = max(len(w) for _, w in rows)
    index = np.array([[min(xmin + j, in_size - 1) for j in range(width)] for xmin, _ in rows])
    weight = np.array([w + [0.0] * (width - len(w)) for _, w in rows], dtype=real)
    return index, weight


def _resize_aa_last(img, out_size):
    """The last dimension resized with the antialiasing filter, summed tap by tap as torch's kernel sums."""
    index, weight = _aa_weights(img.shape[-1], out_size, img.dtype)
    out = None
    for j in range(index.shape[1]):
        tap = img[..., torch.from_numpy(index[:, j].copy())] * torch.from_numpy(weight[:, j].copy())
        out = tap if out is None else out + tap
    return out


def _interpolate_aa(img, size):
    out_h, out_w = size
    if img.shape[-1] != out_w:
        img = _resize_aa_last(img, out_w)
    if img.shape[-2] != out_h:
        img = _resize_aa_last(img.transpose(-1, -2), out_h).transpose(-1, -2)
    return img.contiguous()


def resize(img, size, interpolation="bilinear", antialias=True):
    _assert_image_tensor(img)
    if isinstance(size, tuple):
        size = list(size)
    if antialias is None:
        antialias = False
    if antialias and interpolation not in ["bilinear", "bicubic"]:
        antialias = False
    img, need_cast, need_squeeze, out_dtype = _cast_squeeze_in(img, [torch.float32, torch.float64])
    align_corners = False if interpolation in ["bilinear", "bicubic"] else None
    if antialias and interpolation == "bilinear":
        img = _interpolate_aa(img, size)
    elif antialias:
        raise NotImplementedError("Resize with bicubic antialiasing is not available in the explorer: use "
                                  "InterpolationMode.BILINEAR, or antialias=False")
    else:
        img = F.interpolate(img, size=size, mode=interpolation, align_corners=align_corners)
    if interpolation == "bicubic" and out_dtype == torch.uint8:
        img = img.clamp(min=0, max=255)
    return _cast_squeeze_out(img, need_cast=need_cast, need_squeeze=need_squeeze, out_dtype=out_dtype)


def _assert_grid_transform_inputs(img, matrix, interpolation, fill, supported_interpolation_modes):
    if not isinstance(img, Tensor):
        raise TypeError("Input img should be Tensor")
    _assert_image_tensor(img)
    if matrix is not None and not isinstance(matrix, list):
        raise TypeError("Argument matrix should be a list")
    if matrix is not None and len(matrix) != 6:
        raise ValueError("Argument matrix should have 6 float values")
    num_channels = get_dimensions(img)[0]
    if fill is not None and isinstance(fill, (tuple, list)) and len(fill) > 1 and len(fill) != num_channels:
        raise ValueError("The number of elements in 'fill' cannot broadcast to match the number of channels of the "
                         f"image ({len(fill)} != {num_channels})")
    if interpolation not in supported_interpolation_modes:
        raise ValueError(f"Interpolation mode '{interpolation}' is unsupported with Tensor input")


def _apply_grid_transform(img, grid, mode, fill):
    img, need_cast, need_squeeze, out_dtype = _cast_squeeze_in(img, [grid.dtype])
    if img.shape[0] > 1:
        grid = grid.expand(img.shape[0], grid.shape[1], grid.shape[2], grid.shape[3])
    if fill is not None:
        mask = torch.ones((img.shape[0], 1, img.shape[2], img.shape[3]), dtype=img.dtype)
        img = torch.cat((img, mask), dim=1)
    img = F.grid_sample(img, grid, mode=mode, padding_mode="zeros", align_corners=False)
    if fill is not None:
        mask = img[:, -1:, :, :]
        img = img[:, :-1, :, :]
        mask = mask.expand_as(img)
        fill_list, len_fill = (fill, len(fill)) if isinstance(fill, (tuple, list)) else ([float(fill)], 1)
        fill_img = torch.tensor(fill_list, dtype=img.dtype).view(1, len_fill, 1, 1).expand_as(img)
        if mode == "nearest":
            mask = mask < 0.5
            img[mask] = fill_img[mask]
        else:
            img = img * mask + (1.0 - mask) * fill_img
    return _cast_squeeze_out(img, need_cast, need_squeeze, out_dtype)


def _gen_affine_grid(theta, w, h, ow, oh):
    d = 0.5
    base_grid = torch.empty(1, oh, ow, 3, dtype=theta.dtype)
    base_grid[..., 0].copy_(torch.linspace(-ow * 0.5 + d, ow * 0.5 + d - 1, steps=ow))
    base_grid[..., 1].copy_(torch.linspace(-oh * 0.5 + d, oh * 0.5 + d - 1, steps=oh).unsqueeze_(-1))
    base_grid[..., 2].fill_(1)
    rescaled_theta = theta.transpose(1, 2) / torch.tensor([0.5 * w, 0.5 * h], dtype=theta.dtype)
    output_grid = base_grid.view(1, oh * ow, 3).bmm(rescaled_theta)
    return output_grid.view(1, oh, ow, 2)


def affine(img, matrix, interpolation="nearest", fill=None):
    _assert_grid_transform_inputs(img, matrix, interpolation, fill, ["nearest", "bilinear"])
    dtype = img.dtype if torch.is_floating_point(img) else torch.float32
    theta = torch.tensor(matrix, dtype=dtype).reshape(1, 2, 3)
    shape = img.shape
    grid = _gen_affine_grid(theta, w=shape[-1], h=shape[-2], ow=shape[-1], oh=shape[-2])
    return _apply_grid_transform(img, grid, interpolation, fill=fill)


def _compute_affine_output_size(matrix, w, h):
    pts = torch.tensor([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0], [0.5 * w, 0.5 * h, 1.0],
                        [0.5 * w, -0.5 * h, 1.0]])
    theta = torch.tensor(matrix, dtype=torch.float).view(2, 3)
    new_pts = torch.matmul(pts, theta.T)
    min_vals, _ = new_pts.min(dim=0)
    max_vals, _ = new_pts.max(dim=0)
    min_vals += torch.tensor((w * 0.5, h * 0.5))
    max_vals += torch.tensor((w * 0.5, h * 0.5))
    tol = 1e-4
    cmax = torch.ceil((max_vals / tol).trunc_() * tol)
    cmin = torch.floor((min_vals / tol).trunc_() * tol)
    size = cmax - cmin
    return int(size[0]), int(size[1])


def rotate(img, matrix, interpolation="nearest", expand=False, fill=None):
    _assert_grid_transform_inputs(img, matrix, interpolation, fill, ["nearest", "bilinear"])
    w, h = img.shape[-1], img.shape[-2]
    ow, oh = _compute_affine_output_size(matrix, w, h) if expand else (w, h)
    dtype = img.dtype if torch.is_floating_point(img) else torch.float32
    theta = torch.tensor(matrix, dtype=dtype).reshape(1, 2, 3)
    grid = _gen_affine_grid(theta, w=w, h=h, ow=ow, oh=oh)
    return _apply_grid_transform(img, grid, interpolation, fill=fill)


def _perspective_grid(coeffs, ow, oh, dtype):
    theta1 = torch.tensor([[[coeffs[0], coeffs[1], coeffs[2]], [coeffs[3], coeffs[4], coeffs[5]]]], dtype=dtype)
    theta2 = torch.tensor([[[coeffs[6], coeffs[7], 1.0], [coeffs[6], coeffs[7], 1.0]]], dtype=dtype)
    d = 0.5
    base_grid = torch.empty(1, oh, ow, 3, dtype=dtype)
    base_grid[..., 0].copy_(torch.linspace(d, ow * 1.0 + d - 1.0, steps=ow))
    base_grid[..., 1].copy_(torch.linspace(d, oh * 1.0 + d - 1.0, steps=oh).unsqueeze_(-1))
    base_grid[..., 2].fill_(1)
    rescaled_theta1 = theta1.transpose(1, 2) / torch.tensor([0.5 * ow, 0.5 * oh], dtype=dtype)
    output_grid1 = base_grid.view(1, oh * ow, 3).bmm(rescaled_theta1)
    output_grid2 = base_grid.view(1, oh * ow, 3).bmm(theta2.transpose(1, 2))
    return (output_grid1 / output_grid2 - 1.0).view(1, oh, ow, 2)


def perspective(img, perspective_coeffs, interpolation="bilinear", fill=None):
    if not isinstance(img, Tensor):
        raise TypeError("Input img should be Tensor.")
    _assert_image_tensor(img)
    if len(perspective_coeffs) != 8:
        raise ValueError("Argument coeffs should have 8 float values")
    _assert_grid_transform_inputs(img, None, interpolation, fill, ["nearest", "bilinear"])
    ow, oh = img.shape[-1], img.shape[-2]
    dtype = img.dtype if torch.is_floating_point(img) else torch.float32
    grid = _perspective_grid(perspective_coeffs, ow=ow, oh=oh, dtype=dtype)
    return _apply_grid_transform(img, grid, interpolation, fill=fill)


def erase(img, i, j, h, w, v, inplace=False):
    _assert_image_tensor(img)
    if not inplace:
        img = img.clone()
    img[..., i:i + h, j:j + w] = v
    return img
