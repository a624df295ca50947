"""torchvision 0.28's datasets/fakedata.py (BSD-3-Clause, the torchvision contributors): random images, each
drawn from torch's generator seeded with its index (the program's generator is put back after), handed out as the
PIL images ToPILImage makes (images.py) with an int label, as torchvision hands them out."""
from .. import _torch as torch
from ..transforms import ToPILImage
from .vision import VisionDataset


class FakeData(VisionDataset):
    def __init__(self, size=1000, image_size=(3, 224, 224), num_classes=10, transform=None, target_transform=None,
                 random_offset=0):
        super().__init__(transform=transform, target_transform=target_transform)
        self.size = size
        self.num_classes = num_classes
        self.image_size = image_size
        self.random_offset = random_offset

    def __getitem__(self, index):
        if index >= len(self):
            raise IndexError(f"{self.__class__.__name__} index out of range")
        rng_state = torch.get_rng_state()
        torch.manual_seed(index + self.random_offset)
        img = torch.randn(*self.image_size)
        target = torch.randint(0, self.num_classes, size=(1,), dtype=torch.long)[0]
        torch.set_rng_state(rng_state)
        img = ToPILImage()(img)
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target.item()

    def __len__(self):
        return self.size
