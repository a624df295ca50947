"""Corpus programs that do not yet behave as on PyTorch, with why: the tests make them strict xfails (so a fix
shows as XPASS, and the entry must go) and benchmarks/corpus.py tallies them by family.

A reason is "family; family; ...": the families that block the program, the first one first (the first place
its output or its uncaught error departs from PyTorch's). Families are named as in issue 12.
"""
from __future__ import annotations

FLOAT32 = "float32 kernels"

# What the engine (imported as torch) does differently from PyTorch, program by program.
ENGINE_GAPS: dict[str, str] = {
    "karpathy_makemore_backprop_ninja": f"{FLOAT32}: torch's MKL matmul rounds differently from the same sum "
                                        "written by hand (maxdiff 4.66 there), the engine's does not",
    "tutorial_nn_dataloader": f"{FLOAT32}: the loss differs in its 4th decimal (MKL's sgemm order)",
    "tutorial_nn_from_scratch": f"{FLOAT32}: the loss after training differs in its 4th decimal",
    "tutorial_nn_module_refactor": f"{FLOAT32}: the loss differs in its 4th decimal",
    "tutorial_polynomial_custom_function": f"{FLOAT32}: the loss after 200 steps differs by 1 ulp, and grows",
    "d2l_weight_decay": f"{FLOAT32}: a float32 batch loss's sum differs in its last bit (the printed float64 mean "
                        "of them shows it)",
    "karpathy_gpt_self_attention_trick": f"{FLOAT32}: torch.allclose(xbow, xbow3) is False on torch (an entry near "
                                         "0 differs by 3e-8 between the loop of means and MKL's matmul), True here",
    "mingpt_causal_self_attention": "several-output ops: Tensor.split (on branch engine-families)",
    "d2l_batch_norm_scratch": "layers: nn.BatchNorm2d (on branch engine-families)",
    "tutorial_nlp_lstm_tagger": "layers: nn.LSTM (on branch engine-families)",
}

# Programs printing full-precision numbers after many float32 training steps, and how many ulps those may be
# from torch's (difftest.printed_alike allows 4): torch's own rounding depends on the CPU and its thread count
# (MKL and ATen's reductions split work by thread), and each step carries the last one's difference forward.
# Measured: 5 ulps on an Intel Xeon (AVX512) with one thread, 1-2 with two; 2 on AMD EPYC (AVX2).
DRIFT_ULPS: dict[str, int] = {
    "docs_lr_scheduler_plateau_onecycle": 8,
    "tutorial_polynomial_nn": 8,
    "tutorial_polynomial_optim": 8,
}


# What the explorer's runner (engine.trace.run) refuses before running: the guard's allow-list.
GUARD_REFUSES: dict[str, str] = {
    "karpathy_gpt_block": "guard: a class's own _private method (self._init_weights) is refused",
    "tutorial_char_rnn_classification": "guard: `import unicodedata` (the standard library beside torch)",
}

# The runner refuses first, then meets the engine's gaps.
RUNNER_GAPS: dict[str, str] = {
    **ENGINE_GAPS,
    **{slug: "; ".join(r for r in (refusal, ENGINE_GAPS.get(slug)) if r) for slug, refusal in GUARD_REFUSES.items()},
}


def family(reason: str) -> str:
    """The first family a reason names (what comes before its first ':', the detail after it)."""
    return reason.split("; ")[0].split(":")[0]
