"""Strides of results and grads as ATen allocates them, against torch: empty elementwise results (TensorIterator's
sizes, 0 counted), preserve-format copies of a dense tensor with odd strides on its size-1 dims, pieces of
unsafe_split, advanced indexing, nonzero, the memory format pools and interpolation keep, LAPACK layouts of the
cholesky family and solve, and the grads of block_diag, constant padding, layer_norm, flash attention and gather."""
import warnings

import numpy as np
import pytest
import torch

import engine


def _both(fn):
    """fn(L) for L in (torch, engine): its tensors' (shape, strides), compared."""
    def layouts(L):
        out = fn(L)
        out = out if isinstance(out, (tuple, list)) else (out,)
        return [(tuple(t.shape), tuple(t.stride())) for t in out]

    assert layouts(engine) == layouts(torch)


def _leaf(L, shape, seed=0):
    data = np.random.default_rng(seed).uniform(0.5, 1.5, shape)
    return L.tensor(data, dtype=L.float64, requires_grad=True)


@pytest.mark.parametrize("shape", [(0, 1), (1, 0), (0, 3), (3, 0, 2), (2, 0, 1, 1)])
def test_empty_elementwise(shape):
    _both(lambda L: (L.ones(shape, dtype=L.float64) * 2, L.ones(shape) * L.ones(shape[-1:]), L.ones(shape).exp()))


def test_preserve_keeps_size_one_strides():
    _both(lambda L: (L.zeros(2, 6)[0:1, 0:3].clone(), L.zeros_like(L.zeros(2, 6)[0:1, 0:3]),
                     L.zeros(4, 6)[0:3, 0:1].clone(), L.empty_like(L.zeros(4, 6)[0:3, 0:1])))


def test_unsafe_chunk_pieces_keep_the_input_strides():
    _both(lambda L: L.arange(125.).reshape(5, 5, 5).unsafe_chunk(5, 1))


@pytest.mark.parametrize("key", [
    (slice(None), slice(None), [0, 3]), (slice(None), [0, 3], slice(None)), ([0, 3], slice(None), [1, 2]),
    (Ellipsis, [1, 4]), (None, [0, 2], slice(1, 4)), (slice(None), [[1], [2]], [0, 3])])
@pytest.mark.parametrize("permuted", [False, True])
def test_advanced_indexing(key, permuted):
    def fn(L):
        x = L.arange(125.).reshape(5, 5, 5)
        x = x.permute(2, 0, 1) if permuted else x
        mask = L.tensor([True, False, True, True, False])
        return x[key], x[:, mask], x[mask]

    _both(fn)


def test_nonzero_and_argwhere():
    _both(lambda L: [f(L.ones(s)) for s in [(3, 4), (2,), (0, 3), (1, 1), (), (0,), (5, 0, 2)]
                     for f in (L.nonzero, L.argwhere)])


@pytest.mark.parametrize("mode,k", [("nearest", 2), ("nearest-exact", 2), ("bilinear", 2), ("bicubic", 2),
                                    ("nearest", 3), ("trilinear", 3)])
def test_interpolate_keeps_channels_last(mode, k):
    def fn(L):
        fmt = L.channels_last if k == 2 else L.channels_last_3d
        x = _leaf(L, (2, 3, 4, 5, 2)[:k + 2]).contiguous(memory_format=fmt)
        y = L.nn.functional.interpolate(x, size=(6, 7, 3)[:k], mode=mode)
        return y, L.autograd.grad(y, x, L.ones_like(y).contiguous(memory_format=fmt))[0]

    _both(fn)


def test_pools_keep_channels_last():
    def fn(L):
        x = _leaf(L, (1, 2, 3, 6)).contiguous(memory_format=L.channels_last)
        values, indices = L.nn.functional.max_pool2d(x, 3, 2, ceil_mode=True, return_indices=True)
        up = L.nn.functional.max_unpool2d(values, indices, 3, 2, output_size=(3, 6))
        return values, indices, up, L.autograd.grad(up, values, L.ones_like(up))[0]

    _both(fn)


def test_cholesky_family_and_solve():
    def fn(L):
        a = L.tensor(np.array([[4.0, 1.0], [1.0, 3.0]]), dtype=L.float64)
        batch = a.expand(3, 2, 2)
        empty = L.zeros(0, 2, 2, dtype=L.float64)
        out = L.empty(0, 2, 2, dtype=L.float64)
        L.cholesky_inverse(empty, out=out)
        return (L.cholesky(empty), L.cholesky_solve(L.ones(3, 2, 1, dtype=L.float64), L.linalg.cholesky(batch)),
                L.cholesky_solve(empty, empty), out, L.linalg.solve(batch, L.ones(3, 2, dtype=L.float64)),
                L.linalg.solve(a, L.ones(2, dtype=L.float64)), L.linalg.solve(empty, L.ones(0, 2, dtype=L.float64)))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # torch.cholesky's deprecation, once per process (not the point)
        _both(fn)


def test_grads_of_slicing_ops():
    def fn(L):
        xs = [_leaf(L, s, i) for i, s in enumerate([(1, 5), (2, 5), (1,), (3,), ()])]
        out = L.block_diag(*xs)
        grads = L.autograd.grad(out, xs, L.ones_like(out))
        y = _leaf(L, (2, 6))
        cropped = L.nn.functional.pad(y, (-1, -2, -1, 0))
        z = _leaf(L, (1, 3))
        padded = L.nn.functional.pad(z, (1, 2))
        return (*grads, cropped, L.autograd.grad(cropped, y, L.ones_like(cropped))[0],
                L.autograd.grad(padded, z, L.ones_like(padded))[0])

    _both(fn)


def test_norms_and_gather_are_row_major():
    def fn(L):
        x = _leaf(L, (2, 3, 4)).transpose(0, 1)
        w = _leaf(L, (4,), 1)
        ln = L.nn.functional.layer_norm(x, (4,), w, w)
        rms = L.nn.functional.rms_norm(x, (4,), w)
        index = L.zeros(10, 5, dtype=L.int64).t()
        return ln, rms, L.autograd.grad(rms, x, L.ones_like(rms))[0], _leaf(L, (5, 5)).gather(1, index)

    _both(fn)


def test_flash_attention_grads():
    def fn(L):
        q, k, v = _leaf(L, (2, 3, 4, 8), 0), _leaf(L, (2, 3, 6, 8), 1), _leaf(L, (2, 3, 6, 8), 2)
        out = L.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        return L.autograd.grad(out, (q, k, v), L.ones_like(out))

    _both(fn)
