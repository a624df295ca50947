"""torchvision.transforms (engine/vision/transforms) against torchvision 0.28: each functional's values, dtype and
shape on tensors, uint8 tensors, numpy arrays and PIL images; the random transforms seeded, drawing what
torchvision draws (the images, then the generator's next values, agree); printed Compose; the refusal of PIL-only
work on the explorer's images."""
from __future__ import annotations

import numpy as np
import pytest
import torch
from torchvision_truth import functional as TF
from torchvision_truth import transforms as TT

import engine
from engine.vision import transforms as ET
from engine.vision.transforms import functional as EF

RNG = np.random.default_rng(0)
HWC = RNG.integers(0, 256, (23, 31, 3), dtype=np.uint8)
X = TF.to_tensor(HWC)
XU = torch.from_numpy(HWC.transpose(2, 0, 1).copy())


def same(want, got, atol=0.0):
    want, got = np.asarray(want), np.asarray(got)
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=0, atol=atol)


def both(fn, *args, atol=0.0, **kwargs):
    """fn(functional module, image, mode enum) on torchvision and on the engine, compared."""
    for x in (X, XU):
        want = fn(TF, x, TF.InterpolationMode, *args, **kwargs)
        got = fn(EF, engine.tensor(x.numpy()), EF.InterpolationMode, *args, **kwargs)
        same(want.numpy(), got.numpy(), atol if x.dtype == torch.float32 else 0)


def test_to_tensor_of_arrays_and_tensors_of_images():
    same(TF.to_tensor(HWC).numpy(), EF.to_tensor(HWC).numpy())
    same(TF.to_tensor(HWC[:, :, 0]).numpy(), EF.to_tensor(HWC[:, :, 0]).numpy())
    same(TF.to_tensor(HWC.astype(np.float64)).numpy(), EF.to_tensor(HWC.astype(np.float64)).numpy())
    with pytest.raises(TypeError, match="pic should be PIL Image or ndarray"):
        EF.to_tensor([1, 2])


@pytest.mark.parametrize("size", [(11, 17), 9, (40, 50), (23, 12)])
def test_resize_antialiased_as_torchvision(size):
    both(lambda F, x, M: F.resize(x, size, M.BILINEAR), atol=2e-7)
    both(lambda F, x, M: F.resize(x, size, M.NEAREST))


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
def test_pad(mode):
    both(lambda F, x, M: F.pad(x, [1, 2, 3, 4], 7 if mode == "constant" else 0, mode))
    both(lambda F, x, M: F.pad(x, 2, 0, mode))


def test_crops_flips_greyscale_and_dtype():
    both(lambda F, x, M: F.center_crop(x, 10))
    both(lambda F, x, M: F.center_crop(x, (30, 40)))
    both(lambda F, x, M: F.crop(x, -2, 5, 10, 40))
    both(lambda F, x, M: F.hflip(F.vflip(x)))
    both(lambda F, x, M: F.rgb_to_grayscale(x, 3), atol=1e-7)
    both(lambda F, x, M: F.convert_image_dtype(x, torch.float64 if F is TF else engine.float64))
    same(TF.convert_image_dtype(X, torch.uint8).numpy(), EF.convert_image_dtype(engine.tensor(X.numpy()),
                                                                               engine.uint8).numpy())
    same(TF.normalize(X, [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]).numpy(),
         EF.normalize(engine.tensor(X.numpy()), [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]).numpy())


def test_rotate_affine_and_colour():
    # the fill (10 .. 30) is weighed by grid_sample's resampled mask, whose last bits the engine's grid_sample
    # computes otherwise
    both(lambda F, x, M: F.rotate(x, 30, M.BILINEAR, expand=True, fill=[10.0, 20.0, 30.0]), atol=3e-4)
    both(lambda F, x, M: F.affine(x, 10, [2, 3], 1.2, [5, 3], M.NEAREST), atol=1e-6)
    both(lambda F, x, M: F.perspective(x, [[0, 0], [30, 0], [30, 22], [0, 22]], [[2, 1], [27, 3], [29, 20], [1, 19]],
                                       M.BILINEAR, fill=[0.5] * 3), atol=1e-5)
    both(lambda F, x, M: F.adjust_hue(F.adjust_saturation(x, 1.5), 0.2), atol=1e-5)
    both(lambda F, x, M: F.gaussian_blur(F.adjust_contrast(x, 0.5), 5, 1.3), atol=1e-6)


def test_posterize_solarize_sharpness_autocontrast_equalize():
    for name, args in [("posterize", (3,)), ("solarize", (100,)), ("autocontrast", ()), ("equalize", ())]:
        same(getattr(TF, name)(XU, *args).numpy(), getattr(EF, name)(engine.tensor(XU.numpy()), *args).numpy())
    same(TF.solarize(X, 0.5).numpy(), EF.solarize(engine.tensor(X.numpy()), 0.5).numpy())
    same(TF.autocontrast(X).numpy(), EF.autocontrast(engine.tensor(X.numpy())).numpy())
    same(TF.adjust_sharpness(X, 1.7).numpy(), EF.adjust_sharpness(engine.tensor(X.numpy()), 1.7).numpy(), atol=2e-7)
    # (the blur's conv2d sums in another order: a uint8 pixel at .5 may round the other way)
    same(TF.adjust_sharpness(XU, 1.7).numpy(), EF.adjust_sharpness(engine.tensor(XU.numpy()), 1.7).numpy(), atol=1)


def test_pil_images_convert_flip_crop_pad_resize_and_grey_as_pil_does():
    torch.manual_seed(1)
    chw = torch.randn(3, 6, 7)
    pil, epil = TF.to_pil_image(chw), EF.to_pil_image(engine.tensor(chw.numpy()))
    assert (epil.mode, epil.size) == (pil.mode, pil.size)
    same(TF.to_tensor(pil).numpy(), EF.to_tensor(epil).numpy())
    same(TF.pil_to_tensor(TF.crop(TF.hflip(pil), -1, 2, 5, 9)).numpy(),
         EF.pil_to_tensor(EF.crop(EF.hflip(epil), -1, 2, 5, 9)).numpy())
    for args in [((1, 2, 3, 0), (1, 2, 3), "constant"), (2, 0, "edge"), ((-1, 2, 1, -2), 5, "reflect"),
                 (3, 0, "symmetric")]:
        same(np.array(TF.pad(pil, *args)), np.array(EF.pad(epil, *args)))
    grey, egrey = TF.rgb_to_grayscale(pil, 3), EF.rgb_to_grayscale(epil, 3)
    assert egrey.mode == grey.mode
    same(np.array(grey), np.array(egrey))
    for size, mode in [(9, "BILINEAR"), ((4, 11), "BICUBIC"), ((12, 3), "LANCZOS"), ((5, 4), "NEAREST"),
                       ((3, 9), "BOX"), ((8, 2), "HAMMING")]:
        same(np.array(TF.resize(pil, size, getattr(TF.InterpolationMode, mode))),
             np.array(EF.resize(epil, size, getattr(EF.InterpolationMode, mode))))
    with pytest.raises(TypeError, match=r"resize smaller in both height and width \(Pillow's order of passes\) on a "
                                        "PIL image is not available in the explorer"):
        EF.resize(epil, 3)


def _spec(M):
    return {
        "flips": M.Compose([M.ToTensor(), M.RandomHorizontalFlip(), M.RandomVerticalFlip(0.3)]),
        "crop": M.Compose([M.ToTensor(), M.RandomCrop(20, padding=4, padding_mode="reflect")]),
        "resized_crop": M.Compose([M.ToTensor(), M.RandomResizedCrop(16)]),
        "rotation": M.Compose([M.ToTensor(), M.RandomRotation(20)]),
        "perspective": M.Compose([M.ToTensor(), M.RandomPerspective(0.4, p=0.8)]),
        "affine": M.Compose([M.ToTensor(), M.RandomAffine(15, translate=(0.1, 0.1), scale=(0.9, 1.1), shear=5)]),
        "jitter": M.Compose([M.ToTensor(), M.ColorJitter(0.4, 0.4, 0.4, 0.1), M.RandomGrayscale(0.5)]),
        "erasing": M.Compose([M.ToTensor(), M.Normalize((0.5,) * 3, (0.5,) * 3), M.RandomErasing(p=0.7)]),
        "uint8_chances": M.Compose([M.ToTensor(), M.ConvertImageDtype(torch.uint8 if M is TT else engine.uint8),
                                    M.RandomPosterize(4), M.RandomSolarize(120), M.RandomEqualize(),
                                    M.RandomAutocontrast()]),
    }


@pytest.mark.parametrize("name", list(_spec(TT)))
def test_seeded_random_transforms_draw_as_torchvision(name):
    torch.manual_seed(3)
    engine.manual_seed(3)
    want_t, got_t = _spec(TT)[name], _spec(ET)[name]
    for _ in range(4):
        same(want_t(HWC).numpy(), got_t(HWC).numpy(), atol=1e-5)
    same(torch.rand(3).numpy(), engine.rand(3).numpy())
    assert repr(got_t) == repr(want_t)
