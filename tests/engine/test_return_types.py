"""Functions with several results give them in torch's named tuple (torch.return_types.linalg_slogdet, …), read by
field name as distributions and tutorials read them, printed as torch prints them."""
from difftest import run_both

PROGRAM = """
import torch
A = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
for r in (torch.linalg.slogdet(A), torch.slogdet(A), A.slogdet(), torch.linalg.eigh(A), torch.linalg.svd(A),
          torch.linalg.qr(A), torch.qr(A), torch.svd(A), torch.svd(A, compute_uv=False)):
    print(type(r).__name__, r)
print(torch.linalg.slogdet(A).logabsdet, torch.linalg.eigh(A).eigenvalues, torch.linalg.svd(A).Vh)
print(torch.linalg.qr(A).R, torch.svd(A).V, torch.slogdet(A).sign)
sign, logabsdet = torch.linalg.slogdet(A)
logabsdet.backward()
print(A.grad)
"""


def test_several_results_come_in_torchs_named_tuples():
    # torch.qr warns once per process (on torch and on the engine), so whether it warns here depends on the tests
    # this process ran before: only what is printed and raised is compared
    want, got = run_both(PROGRAM)
    assert (got.exc, got.stdout) == (want.exc, want.stdout)
