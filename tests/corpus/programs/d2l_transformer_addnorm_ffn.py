# Source: d2l-ai/d2l-en chapter_attention-mechanisms-and-transformers/transformer.md, stored version at commit
#   d56a743, the PyTorch tab ("Dive into Deep Learning", §11.7 The Transformer Architecture, by Zhang, Lipton,
#   Li and Smola; sample code under the MIT-0 licence of LICENSE-SAMPLECODE): PositionWiseFFN, the layer norm
#   versus batch norm comparison, AddNorm.
# Category: nn.Module — nn.LayerNorm against nn.BatchNorm1d, a position-wise FFN, residual + LayerNorm + Dropout
# Adaptations:
#  - torch.manual_seed(0) added (the layers' weights; the book is unseeded); d2l.check_shape becomes a print of
#    the shape; nn.LazyLinear becomes nn.Linear with its input size; a backward through AddNorm added.
import torch
from torch import nn

torch.manual_seed(0)

class PositionWiseFFN(nn.Module):  #@save
    """The positionwise feed-forward network."""
    def __init__(self, ffn_num_input, ffn_num_hiddens, ffn_num_outputs):
        super().__init__()
        self.dense1 = nn.Linear(ffn_num_input, ffn_num_hiddens)
        self.relu = nn.ReLU()
        self.dense2 = nn.Linear(ffn_num_hiddens, ffn_num_outputs)

    def forward(self, X):
        return self.dense2(self.relu(self.dense1(X)))

ffn = PositionWiseFFN(4, 4, 8)
ffn.eval()
print(ffn(torch.ones((2, 3, 4)))[0])

ln = nn.LayerNorm(2)
bn = nn.BatchNorm1d(2)
X = torch.tensor([[1, 2], [2, 3]], dtype=torch.float32)
# Compute mean and variance from X in the training mode
print('layer norm:', ln(X), '\nbatch norm:', bn(X))

class AddNorm(nn.Module):  #@save
    """The residual connection followed by layer normalization."""
    def __init__(self, norm_shape, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.ln = nn.LayerNorm(norm_shape)

    def forward(self, X, Y):
        return self.ln(self.dropout(Y) + X)

add_norm = AddNorm(4, 0.5)
shape = (2, 3, 4)
print(add_norm(torch.ones(shape), torch.ones(shape)).shape)

X = torch.randn(shape, requires_grad=True)
out = add_norm(X, ffn(X)[..., :4])
(out * torch.arange(24.0).reshape(shape)).sum().backward()
print(out.grad_fn)
print(out)
print(X.grad)
print(add_norm.ln.weight.grad, add_norm.ln.bias.grad)
print(add_norm)
