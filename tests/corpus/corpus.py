"""The conformance corpus: public PyTorch teaching programs, one file each in tests/corpus/programs/.

Each file starts with a header of comment lines:
    # Source: <repository and path, or URL; author and licence as given there>
    # Category: <one of CATEGORIES> — <what it exercises>
    # Ends with: <the uncaught exception PyTorch raises>        (only for programs that end with one)
    # Adaptations: <every change made to the original, or "none">
and is otherwise the original code, or, where the source's terms keep its text out of our commits, a program written
after it with the same classes, calls, sizes and printed lines (its Adaptations say so).
tests/engine/test_corpus.py and tests/trace/test_corpus_trace.py run them; benchmarks/corpus.py counts how many
the engine and the runner get right.

Adding a program: take it from public teaching material, change only what cannot run here (downloads and
datasets become small data drawn with torch itself, plots become prints, CUDA goes, sizes shrink to a learner's
scale), seed every random draw, list each change under Adaptations, check it on PyTorch
(`.venv-torch/bin/python tests/corpus/programs/<slug>.py`), then run the two tests: where the engine or the
runner falls short, add the program to tests/corpus/gaps.py with the family that blocks it.
"""
from __future__ import annotations

import re
from pathlib import Path

DIR = Path(__file__).resolve().parent / "programs"

CATEGORIES = (
    "autograd basics", "tensors", "grad accumulation, retain_graph, retain_grad", "no_grad, detach, grad modes",
    "autograd.grad, higher-order, functional API", "hooks", "in-place ops and version errors",
    "custom autograd.Function", "nn.Module", "training loops", "optimizers and lr schedulers", "losses",
    "seeded random numbers", "DataLoader and TensorDataset",
)

# For engine.trace.run: its wall-clock budget (2 s by default, for a learner's live program) would make the corpus
# checks depend on the machine's speed and load, so each program gets 10 minutes; the other budgets (steps,
# elements, events, memory) keep their defaults.
RUNNER_LIMITS = {"max_seconds": 600.0}

# Warnings torch raises from its own modules the first time a process uses torch.func's forward-mode transforms
# (jvp, jacfwd, hessian script their decompositions). `python program.py` does not show them (a DeprecationWarning
# is shown only when raised from __main__), so the corpus compares the warnings a program's own lines raise.
TORCH_INTERNAL_WARNINGS = ("`torch.jit.script` is deprecated.",)


def program_warnings(warnings: list) -> list:
    """The warnings of a run but those torch raises from its own implementation (TORCH_INTERNAL_WARNINGS)."""
    return [w for w in warnings if not (w[0] == "DeprecationWarning" and w[1].startswith(TORCH_INTERNAL_WARNINGS))]


PROGRAMS: dict[str, str] = {p.stem: p.read_text(encoding="utf-8") for p in sorted(DIR.glob("*.py"))}

# Programs the test suite leaves to benchmarks/corpus.py, which runs every program: each takes seconds on torch,
# the engine and the runner, more than the suite's time budget has for them (their headers are still checked).
BENCHMARK_ONLY = frozenset([
    "aladdin_rnn_gru_lstm", "annotated_transformer", "antixk_vanilla_vae", "dlwpt_p1ch5_learning", "dlwpt_p1ch6_nn",
    "godoy_stepbystep_ch1", "karpathy_makemore_models", "nanogpt_model_train", "ppo_pytorch_pendulum",
    "spinningup_simple_pg", "tutorial_bilstm_crf", "udacity_intro_part3_training",
    "tutorial_neural_tangent_kernels", "karpathy_normalizing_flows", "curtpark_dqn_cartpole",
    "dataflowr_normalizing_flows_clustering", "mrsyee_a2c_pendulum", "avandekleut_vae",
    "cs231n_viggoc_barebones_pytorch", "grumpybavarian_gan_1d_gaussian", "avandekleut_neural_style_transfer",
    "loniqin_style_transfer", "mbernste_bayesian_regression_vi",
])
TESTED: dict[str, str] = {slug: source for slug, source in PROGRAMS.items() if slug not in BENCHMARK_ONLY}

_FIELD = re.compile(r"^# (Source|Category|Ends with|Adaptations):(.*)$")


def header(source: str) -> dict[str, str]:
    """The header's fields (continuation lines start with '#   ' or '#  - ' and are joined to their field)."""
    fields: dict[str, str] = {}
    key = None
    for line in source.splitlines():
        if not line.startswith("#"):
            break
        m = _FIELD.match(line)
        if m:
            key = m.group(1)
            fields[key] = m.group(2).strip()
        elif key is not None:
            fields[key] = (fields[key] + " " + line.lstrip("# ").strip()).strip()
    return fields


def category(slug: str) -> str:
    return header(PROGRAMS[slug])["Category"].split(" — ")[0]


def reset_globals(*torch_like) -> None:
    """Undo what corpus programs set process-wide on torch or the engine, so that the next test starts as a fresh
    process would: grad mode (docs_grad_modes turns it off and on), print options, determinism, the default dtype
    and device (tutorial_polynomial_autograd calls torch.set_default_device, after which every torch call goes through a
    TorchFunctionMode and warnings are reported at that mode's line instead of the program's)."""
    for module in torch_like:
        module.set_grad_enabled(True)
        if hasattr(module, "set_default_device"):
            module.set_default_device(None)
        if hasattr(module, "set_printoptions"):  # book chapters start with torch.set_printoptions(precision=…)
            module.set_printoptions(profile="default")
        if hasattr(module, "set_default_dtype"):
            module.set_default_dtype(module.float32)
        if hasattr(module, "use_deterministic_algorithms"):  # rasbt's course scripts turn it on
            module.use_deterministic_algorithms(False)
