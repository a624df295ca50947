"""torchvision.datasets, utils and ops (engine/vision) against torchvision 0.28: FakeData's items (each drawn from
its own seed, the program's generator put back), its printed form, a DataLoader over it with transforms; the
datasets that read files refuse when made, saying what to use; make_grid's grids; save_image's PNG holds the
pixels torchvision's holds; the box functions' values."""
from __future__ import annotations

import io

import numpy as np
import pytest
import torch
from PIL import Image
from torchvision_truth import datasets as TD
from torchvision_truth import ops as TO
from torchvision_truth import transforms as TT
from torchvision_truth import utils as TU

import engine
from engine.utils.data import DataLoader as EDataLoader
from engine.vision import datasets as ED
from engine.vision import ops as EO
from engine.vision import transforms as ET
from engine.vision import utils as EU


def fake(D, T):
    return D.FakeData(size=7, image_size=(3, 6, 5), num_classes=4, random_offset=3,
                      transform=T.Compose([T.RandomCrop(6, padding=2), T.RandomHorizontalFlip(), T.ToTensor()]))


def test_fakedata_items_loader_and_printed_form_as_torchvision():
    torch.manual_seed(1)
    engine.manual_seed(1)
    want, got = fake(TD, TT), fake(ED, ET)
    assert repr(got) == repr(want)
    for i in (0, 4, 4):
        (x, y), (ex, ey) = want[i], got[i]
        np.testing.assert_array_equal(ex.numpy(), x.numpy())
        assert ey == y and type(ey) is int
    want_batches = [(x.numpy(), y.numpy()) for x, y in torch.utils.data.DataLoader(want, batch_size=3, shuffle=True)]
    got_batches = [(x.numpy(), y.numpy()) for x, y in EDataLoader(got, batch_size=3, shuffle=True)]
    for (x, y), (ex, ey) in zip(want_batches, got_batches, strict=True):
        np.testing.assert_array_equal(ex, x)
        np.testing.assert_array_equal(ey, y)
    np.testing.assert_array_equal(engine.rand(3).numpy(), torch.rand(3).numpy())
    image, label = ED.FakeData(size=2, image_size=(1, 4, 3))[1]
    want_image, want_label = TD.FakeData(size=2, image_size=(1, 4, 3))[1]
    assert (image.mode, image.size, label) == (want_image.mode, want_image.size, want_label)
    with pytest.raises(IndexError, match="FakeData index out of range"):
        got[7]


@pytest.mark.parametrize("name", ["MNIST", "CIFAR10", "FashionMNIST", "ImageFolder"])
def test_the_datasets_that_read_files_refuse_when_made(name):
    assert name in TD.__all__
    with pytest.raises(RuntimeError, match=f"datasets.{name} reads its images from files .* no network .*FakeData"):
        getattr(ED, name)(root="./data", train=True, download=True, transform=ET.ToTensor())


GRIDS = [dict(), dict(nrow=3, padding=1), dict(normalize=True), dict(normalize=True, value_range=(0.2, 0.7)),
         dict(normalize=True, scale_each=True, pad_value=0.5, nrow=2)]


@pytest.mark.parametrize("kwargs", GRIDS, ids=[str(k) for k in GRIDS])
def test_make_grid(kwargs):
    torch.manual_seed(0)
    for images in (torch.randn(5, 3, 4, 6), torch.rand(3, 1, 5, 5), torch.rand(2, 7)):
        want = TU.make_grid(images, **kwargs)
        got = EU.make_grid(engine.tensor(images.numpy()), **kwargs)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=0, atol=1e-7)
    listed = [torch.rand(3, 4, 4) for _ in range(3)]
    np.testing.assert_array_equal(EU.make_grid([engine.tensor(t.numpy()) for t in listed]).numpy(),
                                  TU.make_grid(listed).numpy())


def test_save_image_writes_the_pixels_torchvision_writes():
    torch.manual_seed(0)
    images = torch.rand(5, 3, 6, 7)
    want, got = io.BytesIO(), io.BytesIO()
    TU.save_image(images, want, format="png", nrow=3)
    EU.save_image(engine.tensor(images.numpy()), got, nrow=3)
    want_image, got_image = Image.open(io.BytesIO(want.getvalue())), Image.open(io.BytesIO(got.getvalue()))
    assert (got_image.mode, got_image.size) == (want_image.mode, want_image.size)
    np.testing.assert_array_equal(np.array(got_image), np.array(want_image))


def test_box_functions():
    torch.manual_seed(0)
    xy = torch.rand(5, 2) * 10
    boxes1 = torch.cat([xy, xy + torch.rand(5, 2) * 5 + 0.1], 1)
    xy = torch.rand(4, 2) * 10
    boxes2 = torch.cat([xy, xy + torch.rand(4, 2) * 5 + 0.1], 1)
    e1, e2 = engine.tensor(boxes1.numpy()), engine.tensor(boxes2.numpy())
    for fmt in ("xyxy", "xywh", "cxcywh"):
        np.testing.assert_allclose(EO.box_iou(e1, e2, fmt=fmt).numpy(), TO.box_iou(boxes1, boxes2, fmt=fmt).numpy(),
                                   rtol=1e-6)
        np.testing.assert_allclose(EO.box_convert(e1, "xyxy", fmt).numpy(),
                                   TO.box_convert(boxes1, "xyxy", fmt).numpy(), rtol=1e-6)
        np.testing.assert_allclose(EO.box_area(e1, fmt=fmt).numpy(), TO.box_area(boxes1, fmt=fmt).numpy(), rtol=1e-6)
    np.testing.assert_allclose(EO.generalized_box_iou(e1, e2).numpy(), TO.generalized_box_iou(boxes1, boxes2).numpy(),
                               rtol=1e-6)
    np.testing.assert_array_equal(EO.clip_boxes_to_image(e1, (6, 8)).numpy(),
                                  TO.clip_boxes_to_image(boxes1, (6, 8)).numpy())
