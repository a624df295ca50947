"""torchvision through the runner: a learner's program that imports torchvision (transforms, FakeData, a
DataLoader, a model, make_grid, save_image, a Dataset of its own on VisionDataset) prints what it prints with real
torchvision 0.28 and torch 2.13, nothing touching the disk; save_image writes the run's own in-memory files (a bytes
path stops at its line); pretrained weights and the datasets that download refuse at their line, saying why."""
from __future__ import annotations

import pytest

from engine.trace.files_view import FILE_REFUSAL
from engine.trace.runner import run
from tests.engine import torchvision_truth  # noqa: F401 - real torchvision, importable by the reference run
from tests.engine.difftest import run_source

VISION = """import os
import torch
import torchvision
import torchvision.transforms as T
from torchvision import datasets, models
from torchvision.datasets import VisionDataset
from torchvision.transforms import functional as TF
from torchvision.utils import make_grid, save_image
from torch.utils.data import DataLoader
torch.manual_seed(0)
tf = T.Compose([T.Resize(10), T.RandomCrop(8, padding=2), T.RandomHorizontalFlip(), T.ToTensor(),
               T.Normalize((0.5,), (0.5,))])
train = datasets.FakeData(size=6, image_size=(1, 8, 8), num_classes=3, transform=tf)
print(train)
model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(64, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in DataLoader(train, batch_size=4, shuffle=True):
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(x.shape, y.tolist(), round(loss.item(), 4))
class Noise(VisionDataset):
    def __init__(self, n, transform=None):
        super().__init__(root=None, transform=transform)
        self.data = torch.rand(n, 3, 12, 12)
    def __getitem__(self, i):
        return self.transform(self.data[i]), i % 2
    def __len__(self):
        return len(self.data)
aug = T.Compose([T.RandomResizedCrop(8, antialias=True), T.RandomRotation(10), T.ColorJitter(0.2, 0.2)])
x, y = Noise(3, aug)[1]
print(x.shape, x.sum().item() > 0, y)
net = models.resnet18(num_classes=4)
net.eval()
print(net(torch.randn(2, 3, 32, 32)).shape, net.fc, sum(p.numel() for p in net.parameters()))
print(models.ResNet18_Weights.DEFAULT, models.ResNet50_Weights.DEFAULT.url)
grid = make_grid(torch.rand(5, 3, 4, 4), nrow=3, normalize=True)
print(grid.shape, TF.resize(grid, [6, 8]).shape)
save_image(grid, "grid.png")
print(os.listdir("."), os.path.getsize("grid.png") > 60)
print(torchvision.ops.box_iou(torch.tensor([[0., 0., 2., 2.]]), torch.tensor([[1., 1., 3., 3.]])))
print(type(net), type(net.layer1[0]), type(tf), type(train), T.RandomCrop, type(T.ToPILImage()(x)))
print(torch.rand(2))
"""


def test_a_torchvision_program_prints_what_it_prints_with_torchvision(tmp_path, monkeypatch):
    """(the reference run's grid.png goes to tmp_path; its PNG bytes are PIL's, its size shown only as > 60)"""
    monkeypatch.chdir(tmp_path)
    want = run_source(VISION, "torch")
    assert want.exc is None, want.exc
    (tmp_path / "runner").mkdir()
    monkeypatch.chdir(tmp_path / "runner")
    timeline = run(VISION)
    assert timeline.error is None, timeline.error
    assert timeline.output == want.stdout.replace("0.28.0+cu130", "0.28.0+cpu")
    assert list((tmp_path / "runner").iterdir()) == []


@pytest.mark.parametrize(("source", "line", "kind", "message"), [
    ("from torchvision import models\nm = models.resnet18(weights='DEFAULT')", 2, "RuntimeError",
     "pretrained weights (ResNet18_Weights.IMAGENET1K_V1) are downloaded from https://download.pytorch.org/models/"
     "resnet18-f37072fd.pth, and the explorer has no network"),
    ("import torchvision\nx = 1\nm = torchvision.models.vgg16(pretrained=True)", 3, "RuntimeError",
     "pretrained weights (VGG16_Weights.IMAGENET1K_V1)"),
    ("from torchvision import datasets, transforms\nds = datasets.MNIST('./data', train=True, download=True,\n"
     "    transform=transforms.ToTensor())", 2, "RuntimeError",
     "datasets.MNIST reads its images from files it downloads (or finds on the machine), and the explorer has no "
     "network and none of the machine's files: make the data in the program instead, e.g. datasets.FakeData("
     "size=1000, image_size=(1, 28, 28), num_classes=10, transform=transforms.ToTensor())"),
    ("import torch\nfrom torchvision.utils import save_image\nsave_image(torch.rand(3, 2, 2), b'/tmp/x.png')", 3,
     "GuardError", FILE_REFUSAL.format("save_image").replace("torch.", "torchvision.utils.", 1)),
    ("import torch\nfrom torchvision import transforms\nimg = transforms.ToPILImage()(torch.rand(3, 4, 4))\n"
     "transforms.Resize(2)(img)", 4, "TypeError", "resize smaller in both height and width (Pillow's order of "
     "passes) on a PIL image is not available in the explorer, which has no PIL"),
    ("import torch\nfrom torchvision.transforms import v2", 2, "GuardError",
     "imports other than torch, torchvision, math"),
    ("import torch\nx = 1\nfrom torchvision.io import read_image", 3, "GuardError",
     "imports other than torch, torchvision, math"),
])
def test_what_the_explorer_cannot_do_stops_at_its_line_saying_why(source, line, kind, message):
    timeline = run(source)
    assert (timeline.error["line"], timeline.error["type"]) == (line, kind)
    assert timeline.error["message"].startswith(message)
    if "imports other than" in message:
        assert timeline.error["message"].endswith(("the explorer has torchvision's transforms v1 (torchvision."
                                                   "transforms), whose Compose, ToTensor, Normalize, Resize, "
                                                   "RandomCrop, ... do the same on tensors",
                                                   "make tensors in the program (torch.rand, datasets.FakeData) and "
                                                   "use torchvision.transforms on them"))
