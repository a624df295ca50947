"""float32 matrix products are the exact sums correctly rounded, so no BLAS or CPU changes a digit."""
from fractions import Fraction

import numpy as np
import pytest

import engine
from engine.kernels import exact


def rounded32(exact_sum):
    """The float32 nearest an exact rational (ties to even)."""
    f = np.float32(float(exact_sum))
    candidates = [np.nextafter(f, np.float32(-np.inf)), f, np.nextafter(f, np.float32(np.inf))]
    return min(candidates, key=lambda c: (abs(Fraction(float(c)) - exact_sum), int(np.array(c).view(np.int32)) & 1))


def reference(a, b):
    out = np.empty((a.shape[0], b.shape[1]), np.float32)
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            out[i, j] = rounded32(sum(Fraction(float(x)) * Fraction(float(y)) for x, y in zip(a[i], b[:, j])))
    return out


@pytest.mark.parametrize("k", [2, 5, 40, 300])
@pytest.mark.parametrize("cancel", [False, True])
def test_each_element_is_the_exact_sum_rounded_once(k, cancel):
    rng = np.random.default_rng(k)
    a = rng.standard_normal((5, k)).astype(np.float32)
    b = rng.standard_normal((k, 6)).astype(np.float32)
    if cancel:  # sums that nearly vanish: the float64 product alone cannot decide their rounding
        a, b = np.concatenate([a, -a], 1), np.concatenate([b, b * np.float32(1 + 2 ** -20)], 0)
    got = exact.matmul(a, b)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.view(np.int32), reference(a, b).view(np.int32))


@pytest.mark.parametrize("row, want", [
    ([1.0, 2.0 ** -24, 2.0 ** -60], 1 + 2 ** -23),   # just above the midpoint: up
    ([1.0, 2.0 ** -24, -2.0 ** -60], 1.0),           # just below: down
    ([1.0, 2.0 ** -24], 1.0),                         # on it: to even
    ([3.0, 2.0 ** -23 * 3], 3 + 2 ** -21),            # on it, odd below: up to even
])
def test_midpoints_are_decided_by_what_float64_dropped(row, want):
    a = np.array([row], np.float32)
    assert exact.matmul(a, np.ones((len(row), 1), np.float32))[0, 0] == np.float32(want)


def test_the_ops_use_it_for_every_shape():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 70)).astype(np.float32)
    w = rng.standard_normal((70, 4)).astype(np.float32)
    got = (engine.tensor(x) @ engine.tensor(w)).numpy()
    np.testing.assert_array_equal(got[1], reference(x[1], w))
    v = (engine.tensor(x[0, 0]) @ engine.tensor(w[:, 0])).item()
    assert np.float32(v) == reference(x[0, :1], w[:, :1])[0, 0]
    assert engine.mv(engine.tensor(x[0]), engine.tensor(w[:, 1])).numpy()[2] == reference(x[0, 2:3], w[:, 1:2])[0, 0]


def test_small_products_keep_the_sign_of_zero_sums_and_non_finite_values():
    """The one-step decision of small products leaves to the element-by-element sums what it cannot decide: a
    sum of products that are all zero (+0, as a BLAS sums from +0, even when every product is −0), inf and nan."""
    a = np.array([[-1.0, -1.0], [1.0, -1.0], [0.0, 0.0], [1.0, 1.0], [np.inf, 1.0], [np.nan, 1.0]], np.float32)
    b = np.array([[0.0, 2.0], [0.0, 3.0]], np.float32)
    got = exact.matmul(a, b)
    assert not np.signbit(got[:4, 0]).any() and not got[:4, 0].any()
    np.testing.assert_array_equal(got[:4, 1], reference(a[:4], b)[:, 1])
    assert np.isnan(got[4, 0]) and got[4, 1] == np.inf and np.isnan(got[5]).all()


def test_blas_products_in_any_memory_order_one_after_another():
    """Products past the small ones (a float64 BLAS call, temporaries in memory kept from one product to the next):
    batched, column-major, of other shapes in between, sums that cancel (summed again) and sums that do not (decided
    by the float64 product). Each element is the exact sum rounded once."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 6, 300)).astype(np.float32)
    b = rng.standard_normal((300, 5)).astype(np.float32)
    ca, cb = np.concatenate([a, -a], -1), np.concatenate([b, b * np.float32(1 + 2 ** -20)], 0)
    cancelling = exact.matmul(ca, cb)
    other = exact.matmul(np.ascontiguousarray(b.T), np.ascontiguousarray(a[0].T))
    column_major = exact.matmul(np.asfortranarray(a[1]), np.asfortranarray(b))
    batched = exact.matmul(a, b)
    np.testing.assert_array_equal(cancelling.view(np.int32), np.stack([reference(x, cb) for x in ca]).view(np.int32))
    np.testing.assert_array_equal(other.view(np.int32), reference(b.T, a[0].T).view(np.int32))
    want = np.stack([reference(x, b) for x in a])
    np.testing.assert_array_equal(column_major.view(np.int32), want[1].view(np.int32))
    np.testing.assert_array_equal(batched.view(np.int32), want.view(np.int32))
    assert batched.flags.c_contiguous and column_major.flags.c_contiguous


def test_a_sum_that_cancels_below_the_least_float32_is_plus_zero():
    """A sum of products that cancel exactly, its error bound below the least float32 (C − E rounds to −0, C + E to
    +0): +0, as torch's BLAS sums it, on the small path and the BLAS one; a sum that is below it but not zero keeps
    its sign."""
    import torch

    a = np.array([[1e-20, -1e-20], [3e-19, -3e-19], [1e-20, -2e-20]], np.float32)
    b = np.array([[1e-20, 2e-20], [1e-20, 2e-20]], np.float32)
    want = (torch.from_numpy(a[:2]) @ torch.from_numpy(b)).numpy()
    for got in (exact.matmul(a, b), exact.matmul(a[None], b)[0]):
        np.testing.assert_array_equal(got[:2].view(np.int32), want.view(np.int32))
        assert not np.signbit(want).any() and not want.any()
        np.testing.assert_array_equal(got.view(np.int32), reference(a, b).view(np.int32))
        assert np.signbit(got[2]).all()
    assert str(engine.tensor(a[:2]) @ engine.tensor(b)) == str(torch.from_numpy(a[:2]) @ torch.from_numpy(b))
