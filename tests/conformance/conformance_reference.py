"""torch's answer in float64 for a float32 sample: what the engine's float32 values are measured against when they
fall outside tolerance of torch's float32 ones (conformance_compare.compare_values). The engine computes some ops
more exactly than torch's float32 kernels (its float32 products are exact sums rounded once; its factorizations run
in float64), so its value may differ from torch's float32 while being closer to the float64 answer."""
from __future__ import annotations

import numpy as np
import torch
from conformance_convert import flat_tensors, to_numpy, torch_array


def upcast(obj, memo):
    """The sample with each float32 tensor as a float64 leaf (requires_grad kept), each tensor converted once."""
    if isinstance(obj, torch.Tensor):
        if id(obj) not in memo:
            t = obj.detach()
            if t.dtype == torch.float32:
                t = t.to(torch.float64)
            memo[id(obj)] = t.requires_grad_(obj.requires_grad) if obj.requires_grad else t
        return memo[id(obj)]
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(upcast(x, memo) for x in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(upcast(x, memo) for x in obj)
    if isinstance(obj, dict):
        return {k: upcast(v, memo) for k, v in obj.items()}
    return obj


def _pairs(ours, theirs):
    """{id(tensor of `ours`): numpy values of the same place in `theirs`} when both hold tensors alike."""
    a, b = flat_tensors(ours, torch), flat_tensors(theirs, torch)
    if len(a) != len(b):
        return {}
    return {id(x): to_numpy(torch, y) for x, y in zip(a, b) if x is not None and y is not None and x.shape == y.shape}


def zipped(ours, theirs):
    return {id(x): to_numpy(torch, y) for x, y in zip(ours, theirs)
            if x is not None and y is not None and x.shape == y.shape}


class Reference:
    def __init__(self, op, sample):
        self.memo = {}
        args = upcast((sample.input, sample.args, sample.kwargs), self.memo)
        torch.manual_seed(0)
        self.out = op.op(args[0], *args[1], **args[2])
        self.grads = None

    def of_output(self, t_out):
        return _pairs(t_out, self.out)

    def of_grads(self, process, indices, leaves, gos, t_grads, create_graph):
        """The float64 grads of the outputs at `indices` (of the processed result) with respect to `leaves` (the
        float32 sample's tensors), grad_outputs `gos`, as {id(torch's float32 grad): array}."""
        r_flat = flat_tensors(process(self.out), torch)
        outs = [r_flat[i] for i in indices]
        self.leaves = [self.memo[id(t)] for t in leaves]
        self.grads = torch.autograd.grad(outs, self.leaves, [torch_array(g.astype(np.float64)) for g in gos],
                                         allow_unused=True, create_graph=create_graph)
        return zipped(t_grads, self.grads)

    def of_gradgrads(self, indices, vs, t_gg):
        outs = [self.grads[i] for i in indices]
        gg = torch.autograd.grad(outs, self.leaves, [torch_array(v.astype(np.float64)) for v in vs],
                                 allow_unused=True)
        return zipped(t_gg, gg)
