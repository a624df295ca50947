"""torch.optim.SparseAdam: Adam for parameters whose grads are sparse tensors (nn.Embedding(sparse=True)). The
engine's grads are all dense, and torch's SparseAdam refuses a dense grad at its step, so this one always does
once a parameter has a grad; construction and its checks, the groups and state_dict are torch's."""
from . import rules
from .optimizer import Optimizer, _one_step, check_number


class SparseAdam(Optimizer):
    _rule = staticmethod(rules.sparse_adam)

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        check_number("lr", lr, tensor_ok=True)
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize})

    @_one_step
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam instead")
        return []
