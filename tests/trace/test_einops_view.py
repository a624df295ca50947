"""The explorer's einops (engine/trace/einops_view) against einops 0.8.1 on torch 2.13: a program's rearrange,
reduce, repeat, einsum and einops.layers.torch print the same shapes, grad_fn names, gradients, module text and
EinopsError texts through the runner as with real einops (and numpy arrays the same values)."""
from __future__ import annotations

import einops
import pytest

from engine.trace.runner import run
from tests.engine.difftest import run_source

PROGRAM = """import torch
import numpy as np
from einops import rearrange, reduce, repeat, einsum, pack, unpack, parse_shape, EinopsError
from einops.layers.torch import Rearrange, Reduce
x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
results = [rearrange(x, 'b c d -> b (c d)'), rearrange(x, 'b c d -> d b c'), reduce(x, 'b c d -> b', 'max'),
           repeat(x, 'b c d -> b c d r', r=2), reduce(x, 'b (c1 c2) d -> b d', 'mean', c1=1),
           rearrange(x, 'b c (d1 d2) -> (b d1) c d2', d2=2), einsum(x, x, 'b c d, b e d -> b c e'),
           reduce(x, 'b c d -> b () d', 'sum'), reduce(x, 'b ... -> b', 'min'), rearrange(x, '... d -> (...) d'),
           repeat(x[0, 0], 'd -> 2 d'), rearrange([x[0], x[1]], 'n c d -> c (n d)'), reduce(x, 'b c d -> c', 'prod')]
for t in results:
    print(t.shape, t.grad_fn.name(), [f[0].name() for f in t.grad_fn.next_functions if f[0] is not None])
sum(t.sum() for t in results).backward()
print(x.grad)
m = torch.nn.Sequential(Rearrange('b c h w -> b (c h w)'), torch.nn.Linear(12, 2), Reduce('b n -> n', 'mean'))
print(m)
print(m(torch.ones(5, 3, 2, 2)).shape, Rearrange('b (h p) -> b h p', p=2))
n = np.arange(6).reshape(2, 3)
print(rearrange(n, 'a b -> b a'), repeat(n, 'a b -> a b 2'), reduce(n.astype(float), 'a b -> a', 'mean'))
print(einsum(n, n, 'i j, k j -> i k'), type(rearrange(n, 'a b -> (a b)')).__name__)
packed, shapes = pack([x, x[:, :, :2], torch.ones(2, 5)], 'b *')
print(packed.shape, packed.grad_fn.name(), shapes)
parts = unpack(packed, shapes, 'b *')
print([(p.shape, p.grad_fn.name()) for p in parts], unpack(packed, [[3, 4], [-1]], 'b *')[1].shape)
np_packed, np_shapes = pack([n, n[:, :1]], 'b *')
print(np_packed, np_shapes, unpack(np_packed, np_shapes, 'b *')[1])
print(parse_shape(x, 'b _ d'), parse_shape(n, '... c'), parse_shape(x, 'b 3 ...'))
print(rearrange(torch.zeros(24), '(b c d) -> b c d', **parse_shape(x, 'b c _')).shape)
for bad in ("rearrange(x, 'b c -> c b')", "rearrange(x, 'b c d -> b c')", "reduce(x, 'b c d -> b', 'median')",
            "rearrange(x, 'b c (d e) -> b c d e', e=3)", "rearrange(x, 'b c d -> b c d', e=3)",
            "rearrange(x, 'b c d -> b c d.')", "rearrange(x, 'b c (d -> b c d')", "rearrange(x, 'b c _d -> b c _d')",
            "rearrange(x, 'b c d -> b c 2 d')", "reduce(torch.ones(2, dtype=torch.long), 'a -> ', 'mean')",
            "einsum(x, 'b c d -> b c e')", "einsum(x, 'b c d')", "rearrange(x, '... -> ... 1 (...)')",
            "Reduce('a b -> a', 'middle')", "rearrange(3, 'a -> a')", "rearrange(x, 'b c d -> (b c) d e')",
            "pack([x], 'b c')", "pack([x], 'b * * c')", "pack([x[0, 0]], 'a * b')", "unpack(x, [[3]], 'b *')",
            "unpack(x, [[-1], [-1]], 'b * d')", "unpack(x, [[2], [2]], 'b * d')", "parse_shape(x, 'b (c d)')",
            "parse_shape(x, 'b c')", "parse_shape(x, 'b 1 d')", "parse_shape(x, 'b 2 d')",
            "parse_shape(n, 'a b c ...')", "parse_shape(x, 'b _ _')", "parse_shape([1], 'a')"):
    try:
        eval(bad)
    except (EinopsError, NotImplementedError, ValueError, RuntimeError) as err:
        print(type(err).__name__, err)
"""


def test_a_program_prints_as_with_einops():
    real = run_source(PROGRAM, "torch")
    assert real.exc is None, real.exc
    timeline = run(PROGRAM)
    assert timeline.error is None, timeline.error
    assert timeline.output == real.stdout


def test_version():
    assert einops.__version__ == "0.8.1"


@pytest.mark.parametrize("source, words", [
    ("from einops import asnumpy", ["cannot import name 'asnumpy' from 'einops'", "rearrange, reduce"]),
    ("from einops.layers.keras import Rearrange", ["('einops.layers.keras')", "einops.layers.torch"]),
    ("from einops.layers.torch import EinMix", ["cannot import name 'EinMix'", "Rearrange and Reduce"]),
])
def test_the_rest_is_refused_saying_what_is_there(source, words):
    text = str(run(source).error)
    assert all(word in text for word in words), text


def test_the_graph_shows_the_ops_einops_lowers_to():
    timeline = run("import torch\nfrom einops import rearrange, repeat\nx = torch.ones(2, 6, requires_grad=True)\n"
                   "y = rearrange(x, 'b (h w) -> b w h', h=2)\nz = repeat(y, 'b w h -> b w h r', r=3)\n")
    ops = [(e["line"], e["grad_fn"]) for e in timeline.events if e["kind"] == "op"]
    assert ops == [(4, "ViewBackward0"), (4, "PermuteBackward0"), (5, "UnsqueezeBackward0"), (5, "ExpandBackward0")]
