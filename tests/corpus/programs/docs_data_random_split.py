# Source: pytorch/pytorch torch/utils/data/dataset.py docstring of random_split, and the DataLoader
#   shuffle/generator arguments (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: DataLoader and TensorDataset — random_split, shuffle with a Generator
# Adaptations:
#  - the `>>>` prompts are dropped and the splits' indices printed; a TensorDataset + DataLoader with
#    shuffle=True and a seeded Generator is added to show the batches.
import torch
from torch.utils.data import random_split, TensorDataset, DataLoader

generator1 = torch.Generator().manual_seed(42)
generator2 = torch.Generator().manual_seed(42)
print([list(s) for s in random_split(range(10), [3, 7], generator=generator1)])
print([list(s) for s in random_split(range(30), [0.3, 0.3, 0.4], generator=generator2)])

ds = TensorDataset(torch.arange(10.).view(5, 2), torch.arange(5))
print(len(ds), ds[1])
loader = DataLoader(ds, batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(0))
for xb, yb in loader:
    print(xb, yb)
