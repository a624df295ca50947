"""Corpus programs that do not yet behave as on PyTorch, with why: the tests make them strict xfails (so a fix
shows as XPASS, and the entry must go) and benchmarks/corpus.py tallies them by family.

A reason is "family; family; ...": the families that block the program, the first one first (the first place
its output or its uncaught error departs from PyTorch's). Families are named as in issue 12.
"""
from __future__ import annotations

DATA = "torch.utils.data missing (TensorDataset, DataLoader, random_split)"
DEVICE = "torch.device missing"
CUDA = "torch.cuda missing"
TENSOR_CTOR = "torch.Tensor(data) constructor refused"
FLATTEN = "nn.Flatten missing"
CONV = "nn.Conv2d / F.max_pool2d missing"
FLOAT32 = "float32 kernels"

# What the engine (imported as torch) does differently from PyTorch, program by program.
ENGINE_GAPS: dict[str, str] = {
    "d2l_softmax_regression_scratch": DATA,
    "docs_cross_entropy_soft_targets": "Tensor.sum(axis=...) keyword refused",
    "docs_extending_nn_module": "Module.register_parameter missing",
    "docs_function_ctx_methods": "Tensor.sort missing",
    "docs_layers": f"{FLATTEN}; nn.LogSoftmax, nn.Embedding missing",
    "docs_losses": "F.cross_entropy with class-probability targets refused; nn.HuberLoss, nn.SmoothL1Loss, "
                   "nn.KLDivLoss missing",
    "docs_module_apply_and_modules": "Module.apply missing",
    "docs_one_hot": "F.one_hot missing",
    "karpathy_makemore_backprop_ninja": "Tensor.sum(keepdims=...) keyword refused",
    "karpathy_makemore_bigram_nll": "F.one_hot missing",
    "karpathy_makemore_bigram_train": "F.one_hot missing",
    "karpathy_micrograd_neuron": TENSOR_CTOR,
    "micrograd_test_engine": TENSOR_CTOR,
    "tutorial_autogradqs": "F.binary_cross_entropy_with_logits missing",
    "tutorial_blitz_neural_networks": CONV,
    "tutorial_buildmodel": CUDA,
    "tutorial_math_behind_training": "Tensor.all(dim=...) keyword refused",
    "tutorial_nn_dataloader": f"{FLOAT32}: the loss differs in its 4th decimal",
    "tutorial_nn_from_scratch": f"{FLOAT32}: the loss after training differs in its 4th decimal",
    "tutorial_nn_module_refactor": f"{FLOAT32}: the loss differs in its 4th decimal",
    "tutorial_optimization": FLATTEN,
    "tutorial_polynomial_autograd": "torch.accelerator missing",
    "tutorial_polynomial_custom_function": DEVICE,
    "tutorial_polynomial_nn": FLATTEN,
    "tutorial_polynomial_optim": FLATTEN,
    "tutorial_polynomial_tensor": DEVICE,
    "tutorial_tensorqs": CUDA,
    "tutorial_two_layer_net_autograd": DEVICE,
    "tutorial_two_layer_net_custom_function": DEVICE,
    "tutorial_two_layer_net_tensor": DEVICE,
    "tutorial_visualizing_gradients": "nn.BatchNorm1d missing",
    "tutorial_what_is_state_dict": CONV,
}

# What the explorer's runner (engine.trace.run) refuses before running: the guard's allow-list.
GUARD_REFUSES: dict[str, str] = {
    "d2l_softmax_regression_scratch": "guard: classes",
    "docs_extending_nn_module": "guard: classes",
    "docs_function_ctx_methods": "guard: import torch.autograd.function",
    "docs_module_apply_and_modules": "guard: decorators",
    "tutorial_blitz_neural_networks": "guard: classes",
    "tutorial_buildmodel": "guard: str.format",
    "tutorial_custom_function_double_backward": "guard: classes",
    "tutorial_nn_dataloader": "guard: classes",
    "tutorial_nn_module_refactor": "guard: classes",
    "tutorial_polynomial_custom_function": "guard: classes",
    "tutorial_saved_tensors_hooks": "guard: attributes starting with '_' (grad_fn._saved_self)",
    "tutorial_two_layer_net_custom_function": "guard: classes",
    "tutorial_visualizing_gradients": "guard: classes",
    "tutorial_what_is_state_dict": "guard: classes",
}

# The runner refuses first, then meets the engine's gaps.
RUNNER_GAPS: dict[str, str] = {
    **ENGINE_GAPS,
    **{slug: "; ".join(r for r in (refusal, ENGINE_GAPS.get(slug)) if r) for slug, refusal in GUARD_REFUSES.items()},
}


def family(reason: str) -> str:
    """The first family a reason names."""
    return reason.split("; ")[0]
