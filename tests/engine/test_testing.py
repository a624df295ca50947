"""torch.testing.assert_close (and assert_allclose) against torch: what passes, and each failure's message — tensors,
scalars, numbers, booleans, None, sequences and mappings (the item named), dtypes and shapes, tolerances, nan, msg."""
import pytest
from difftest import run_both

CASES = [
    "torch.testing.assert_close(torch.tensor([1., 2., 3.]), torch.tensor([1., 2.1, 3.]))",
    "torch.testing.assert_close(torch.tensor([1., 2., 3.]), torch.tensor([1., 2., 3.]))",
    "torch.testing.assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2.], dtype=torch.float64))",
    "torch.testing.assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2.000001], dtype=torch.float64), "
    "check_dtype=False)",
    "torch.testing.assert_close(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[1., 2.], [3., 5.]]))",
    "torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1, 3]))",
    "torch.testing.assert_close(torch.tensor(1.), torch.tensor(1.5))",
    "torch.testing.assert_close(1.0, 1.0000001)",
    "torch.testing.assert_close(1.0, 1.1)",
    "torch.testing.assert_close(1, 2)",
    "torch.testing.assert_close(True, False)",
    "torch.testing.assert_close(None, 1)",
    "torch.testing.assert_close([torch.ones(2), torch.zeros(2)], [torch.ones(2), torch.ones(2)])",
    "torch.testing.assert_close([1, 2], [1, 2, 3])",
    "torch.testing.assert_close({'a': torch.ones(1)}, {'b': torch.ones(1)})",
    "torch.testing.assert_close({'a': torch.ones(1), 'b': 2.0}, {'a': torch.ones(1), 'b': 3.0})",
    "torch.testing.assert_close(torch.ones(2), torch.ones(3))",
    "torch.testing.assert_close(torch.ones(2), torch.ones(2) * 1.01, rtol=0.1, atol=0)",
    "torch.testing.assert_close(torch.ones(2), torch.ones(2) * 1.01, rtol=0.1)",
    "torch.testing.assert_close(torch.tensor([float('nan')]), torch.tensor([float('nan')]))",
    "torch.testing.assert_close(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True)",
    "torch.testing.assert_close(torch.ones(2), torch.zeros(2), msg='custom')",
    "torch.testing.assert_close(torch.ones(2), torch.zeros(2), msg=lambda m: 'Header\\n' + m)",
    "torch.testing.assert_close(torch.ones(2, requires_grad=True) * 2, torch.full((2,), 2.))",
    "torch.testing.assert_close(np.array([1., 2.]), np.array([1., 2.5]))",
    "torch.testing.assert_close(torch.tensor([1., 0.]), torch.tensor([1., 1.]))",
    "torch.testing.assert_close((torch.ones(1), 2), (torch.ones(1), 2.0))",
    "torch.testing.assert_allclose(torch.ones(2), [1.0, 1.00001])",
    "torch.testing.assert_close(torch.ones(1), 1.0)",
    "torch.testing.assert_close(torch.ones(2), [1.0, 1.0])",
    "torch.testing.assert_close(torch.nn.Parameter(torch.ones(2)), torch.ones(2))",
    "torch.testing.assert_close(torch.ones(2, dtype=torch.float16), torch.ones(2, dtype=torch.float16) + 0.002)",
    "torch.testing.assert_close(torch.arange(6.).view(2, 3).t(), torch.arange(6.).view(2, 3).t().contiguous(), "
    "check_stride=True)",
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_assert_close_as_torch(case):
    want, got = run_both(CASES[case], "import numpy as np\nimport torch\n")
    assert got.exc == want.exc
    assert got.warnings == want.warnings
    assert got.stdout == want.stdout
