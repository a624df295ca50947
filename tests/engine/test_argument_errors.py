"""Where torch's argument parser or an ATen kernel refuses a call (a tensor where a number or an int goes, a dtype
a kernel lacks, a matrix function given a vector), the engine refuses it with torch's error type and text; the
same calls with right arguments give torch's results (benchmarks/dtype_errors.py found them)."""
from difftest import run_both

PROGRAM = """
import numpy as np
import torch


def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)


T = torch.tensor
v, b, f = T([1, -2, 3]), T([True, False, True]), T([0.5, -1.5, 2.0])
for x in (v, b, f, T(3), T(3.0), 3.0, True, None, "a", np.int64(3)):
    attempt(lambda: torch.eye(x))
    attempt(lambda: torch.hann_window(x))
    attempt(lambda: torch.kaiser_window(x, False, 2.0))
    attempt(lambda: torch.arange(x))
    attempt(lambda: torch.scalar_tensor(x))
attempt(lambda: torch.eye(3, 2.0))
attempt(lambda: torch.eye(2, T(3)))
attempt(lambda: torch.hann_window(4, False))
attempt(lambda: torch.hann_window(3.0, True))
attempt(lambda: torch.arange(1, T([1, 2])))
attempt(lambda: torch.arange(0, 5, T([1, 2])))
attempt(lambda: torch.arange(np.float32(2.5)))
for x in (v, b, f, T([1, 2, 2, 0]), T([[1, 2]]), T(2), T([1, 2], dtype=torch.int32)):
    attempt(lambda: torch.bincount(x))
    attempt(lambda: torch.repeat_interleave(x))
    attempt(lambda: torch.histc(x))
    attempt(lambda: torch.bitwise_not(x))
    attempt(lambda: ~x)
    attempt(lambda: torch.pinverse(x))
    attempt(lambda: torch.svd(x))
    attempt(lambda: torch.lu(x))
    attempt(lambda: torch.cholesky(x))
    attempt(lambda: torch.logdet(x))
    attempt(lambda: torch.chain_matmul(x))
    attempt(lambda: torch.norm_except_dim(x, 2, 0))
for m in (T([[1, 2]]), T([[2.0, 1.0], [1.0, 3.0]]), T([[True]]), T([[1, 2], [3, 4]])):
    attempt(lambda: torch.pinverse(m))
    attempt(lambda: torch.linalg.pinv(m))
    attempt(lambda: torch.cholesky(m))
    attempt(lambda: torch.logdet(m))
    attempt(lambda: torch.linalg.lu_factor(m))
attempt(lambda: torch.chain_matmul())
attempt(lambda: torch.chain_matmul(T([[1.0]]), T([1.0])))
attempt(lambda: torch.chain_matmul(T([[[1.0]]]), T([[1.0]])))
for call in ("x.expand()", "torch.expand_copy(x)", "x.view()", "torch.permute_copy(x)", "torch.unsqueeze_copy(x)",
             "torch.select_copy(x)", "torch.transpose_copy(x)", "torch.unfold_copy(x)", "x.select()",
             "torch.split_with_sizes_copy(x)", "x.index_select(0)", "torch.squeeze_copy(x)", "torch.t_copy(x)"):
    attempt(lambda: eval(call, {"x": f, "torch": torch}))
for d in (0, -1, 1):
    attempt(lambda: T(2).size(d))
    attempt(lambda: T(2).stride(d))
    attempt(lambda: T([2]).size(d))
for shapes in ((T(2),), ((2,), T([2])), (2, 3.0), ((2,), None), (torch.Size([2]), (1, 2)), ((3,), (1, 2)),
               ((2, 1), (3,), [1, 1, 1]), (-1,), ((3, 1), (2, 3, 2)), ()):
    attempt(lambda: torch.broadcast_shapes(*shapes))
"""


def test_argument_and_kernel_errors_as_torch():
    # torch.lu, torch.cholesky and torch.chain_matmul warn once per process, on torch and on the engine: whether
    # they warn here depends on the tests this process ran before, so only what is printed and raised is compared
    want, got = run_both(PROGRAM)
    assert (got.exc, got.stdout) == (want.exc, want.stdout)
