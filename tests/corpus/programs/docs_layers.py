# Source: pytorch/pytorch torch/nn/modules docstrings of Linear, Flatten, Dropout, Softmax, LogSoftmax,
#   Embedding (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: seeded random numbers — module inits, Dropout, Embedding, Softmax layers
# Adaptations:
#  - `import torch.nn as nn` added; torch.manual_seed(0) added (the examples are unseeded); `>>>` prompts
#    dropped and echoed results printed; sizes of Linear's example cut from 128 to 4 rows.
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.Linear(20, 30)
input = torch.randn(4, 20)
output = m(input)
print(output.size())

input = torch.randn(32, 1, 5, 5)
# With default parameters
m = nn.Flatten()
output = m(input)
print(output.size())
# With non-default parameters
m = nn.Flatten(0, 2)
output = m(input)
print(output.size())

m = nn.Dropout(p=0.2)
input = torch.randn(4, 4)
output = m(input)
print(output)

m = nn.Softmax(dim=1)
input = torch.randn(2, 3)
output = m(input)
print(output)

m = nn.LogSoftmax(dim=1)
input = torch.randn(2, 3)
output = m(input)
print(output)

# an Embedding module containing 10 tensors of size 3
embedding = nn.Embedding(10, 3)
# a batch of 2 samples of 4 indices each
input = torch.LongTensor([[1, 2, 4, 5], [4, 3, 2, 9]])
print(embedding(input))

# example with padding_idx
embedding = nn.Embedding(10, 3, padding_idx=0)
input = torch.LongTensor([[0, 2, 0, 5]])
print(embedding(input))

# example of changing `pad` vector
padding_idx = 0
embedding = nn.Embedding(3, 3, padding_idx=padding_idx)
print(embedding.weight)
with torch.no_grad():
    embedding.weight[padding_idx] = torch.ones(3)
print(embedding.weight)
