# Source: karpathy/minGPT mingpt/model.py (by Andrej Karpathy, MIT licence), stored version at commit bbbdac7:
#   NewGELU, CausalSelfAttention, Block (with its nn.ModuleDict MLP) and GPT._init_weights.
# Category: nn.Module — the GELU tanh approximation by hand, a causal mask buffer with masked_fill, split and
#   view/transpose into heads, nn.ModuleDict, nn.LayerNorm, c_proj's scaled init
# Adaptations:
#  - the config object (CfgNode) becomes a small class with the four fields the modules read (n_embd 16, n_head
#    2, block_size 8, dropouts 0.1); instead of a whole GPT, one Block runs forward and backward on a seeded
#    random batch after GPT's init scheme (normal_(std=0.02), zeros_ bias, c_proj std 0.02/sqrt(2 * n_layer)
#    with n_layer 2) is applied to it; torch.manual_seed(0) added; prints added.
import math

import torch
import torch.nn as nn
from torch.nn import functional as F

torch.manual_seed(0)

class NewGELU(nn.Module):
    """
    Implementation of the GELU activation function currently in Google BERT repo (identical to OpenAI GPT).
    Reference: Gaussian Error Linear Units (GELU) paper: https://arxiv.org/abs/1606.08415
    """
    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))

class CausalSelfAttention(nn.Module):
    """
    A vanilla multi-head masked self-attention layer with a projection at the end.
    It is possible to use torch.nn.MultiheadAttention here but I am including an
    explicit implementation here to show that there is nothing too scary here.
    """

    def __init__(self, config):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        # key, query, value projections for all heads, but in a batch
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd)
        # output projection
        self.c_proj = nn.Linear(config.n_embd, config.n_embd)
        # regularization
        self.attn_dropout = nn.Dropout(config.attn_pdrop)
        self.resid_dropout = nn.Dropout(config.resid_pdrop)
        # causal mask to ensure that attention is only applied to the left in the input sequence
        self.register_buffer("bias", torch.tril(torch.ones(config.block_size, config.block_size))
                                     .view(1, 1, config.block_size, config.block_size))
        self.n_head = config.n_head
        self.n_embd = config.n_embd

    def forward(self, x):
        B, T, C = x.size() # batch size, sequence length, embedding dimensionality (n_embd)

        # calculate query, key, values for all heads in batch and move head forward to be the batch dim
        q, k ,v  = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) # (B, nh, T, hs)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) # (B, nh, T, hs)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) # (B, nh, T, hs)

        # causal self-attention; Self-attend: (B, nh, T, hs) x (B, nh, hs, T) -> (B, nh, T, T)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:,:,:T,:T] == 0, float('-inf'))
        att = F.softmax(att, dim=-1)
        att = self.attn_dropout(att)
        y = att @ v # (B, nh, T, T) x (B, nh, T, hs) -> (B, nh, T, hs)
        y = y.transpose(1, 2).contiguous().view(B, T, C) # re-assemble all head outputs side by side

        # output projection
        y = self.resid_dropout(self.c_proj(y))
        return y

class Block(nn.Module):
    """ an unassuming Transformer block """

    def __init__(self, config):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd)
        self.mlp = nn.ModuleDict(dict(
            c_fc    = nn.Linear(config.n_embd, 4 * config.n_embd),
            c_proj  = nn.Linear(4 * config.n_embd, config.n_embd),
            act     = NewGELU(),
            dropout = nn.Dropout(config.resid_pdrop),
        ))
        m = self.mlp
        self.mlpf = lambda x: m.dropout(m.c_proj(m.act(m.c_fc(x)))) # MLP forward

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlpf(self.ln_2(x))
        return x

class Config:
    n_embd = 16
    n_head = 2
    block_size = 8
    attn_pdrop = 0.1
    resid_pdrop = 0.1

config = Config()
n_layer = 2

def _init_weights(module):
    if isinstance(module, nn.Linear):
        torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if module.bias is not None:
            torch.nn.init.zeros_(module.bias)
    elif isinstance(module, nn.Embedding):
        torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
    elif isinstance(module, nn.LayerNorm):
        torch.nn.init.zeros_(module.bias)
        torch.nn.init.ones_(module.weight)

block = Block(config)
block.apply(_init_weights)
for pn, p in block.named_parameters():
    if pn.endswith('c_proj.weight'):
        torch.nn.init.normal_(p, mean=0.0, std=0.02/math.sqrt(2 * n_layer))
print(block)
print(sum(p.numel() for p in block.parameters()))

gelu = NewGELU()
x = torch.linspace(-3, 3, 7, requires_grad=True)
y = gelu(x)
y.sum().backward()
print(y)
print(x.grad)
print(torch.allclose(y, F.gelu(x, approximate='tanh')))

x = torch.randn(2, 5, config.n_embd, requires_grad=True)
out = block(x)
print(out.shape, out.grad_fn)
loss = (out ** 2).mean()
loss.backward()
print(loss)
print(block.attn.c_attn.weight.grad.abs().sum(), block.ln_1.weight.grad[:4])
block.eval()
print(block(x)[0, 0, :4])
