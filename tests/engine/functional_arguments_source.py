"""What torch.nn.functional does with what is not a tensor where a tensor goes (a list, a numpy array, None), read
from torch: the table engine/nn/functional_argument_table.py holds (`python -m tests.engine.functional_arguments_source`
writes it; tests/engine/test_functional_arguments.py checks it is current and that the engine raises what torch
raises)."""
from __future__ import annotations

import pprint
import re
import warnings
from pathlib import Path

TARGET = Path(__file__).resolve().parents[2] / "engine" / "nn" / "functional_argument_table.py"
PARSER = re.compile(r"TypeError: (\w+)\(\): argument '(\w+)' \(position (\d+)\) must be Tensor, not (\S+)$")
ATTRIBUTE = re.compile(r"AttributeError: 'list' object has no attribute '(\w+)'$")


def templates(torch):
    """F.<name>: arguments it takes, tensors where a tensor goes."""
    x4, x3, x2, y2 = torch.ones(1, 1, 4, 4), torch.ones(1, 1, 4), torch.full((2, 3), 0.5), torch.zeros(2, 3)
    cls = torch.tensor([0, 1])
    one = (x2,)
    return {
        **{name: one for name in """relu relu6 elu selu celu gelu silu mish leaky_relu hardtanh hardswish hardsigmoid
            sigmoid tanh softplus softsign tanhshrink logsigmoid gumbel_softmax rrelu hardshrink softshrink dropout
            alpha_dropout feature_alpha_dropout normalize pdist""".split()},
        "linear": (x2, torch.ones(2, 3)), "bilinear": (x2, x2, torch.ones(1, 3, 3)), "layer_norm": (x2, (3,)),
        "group_norm": (torch.ones(2, 2, 3), 1), "batch_norm": (x2, torch.zeros(3), torch.ones(3)),
        "instance_norm": (torch.ones(2, 2, 3),), "local_response_norm": (torch.ones(1, 2, 3), 2),
        "rms_norm": (x2, (3,)), "embedding": (cls, torch.ones(3, 2)),
        "embedding_bag": (cls, torch.ones(3, 2), torch.tensor([0])), "max_pool1d": (x3, 2), "max_pool2d": (x4, 2),
        "max_pool3d": (torch.ones(1, 1, 2, 2, 2), 2), "avg_pool1d": (x3, 2), "avg_pool2d": (x4, 2),
        "avg_pool3d": (torch.ones(1, 1, 2, 2, 2), 2), "adaptive_avg_pool1d": (x3, 1), "adaptive_avg_pool2d": (x4, 1),
        "adaptive_max_pool1d": (x3, 1), "adaptive_max_pool2d": (x4, 1), "lp_pool1d": (x3, 2, 2),
        "lp_pool2d": (x4, 2, 2), "dropout1d": (x3,), "dropout2d": (x4,), "dropout3d": (torch.ones(1, 1, 2, 2, 2),),
        "softmax": (x2, 0), "log_softmax": (x2, 0), "softmin": (x2, 0), "glu": (torch.ones(2, 4),),
        "threshold": (x2, 0.1, 0.0), "prelu": (x2, torch.ones(1)),
        **{name: (x2, y2) for name in """mse_loss l1_loss smooth_l1_loss huber_loss binary_cross_entropy
            binary_cross_entropy_with_logits kl_div poisson_nll_loss soft_margin_loss hinge_embedding_loss
            multilabel_soft_margin_loss cosine_similarity pairwise_distance""".split()},
        "cross_entropy": (x2, cls), "nll_loss": (x2, cls), "multi_margin_loss": (x2, cls),
        "gaussian_nll_loss": (x2, y2, torch.ones(2, 3)), "cosine_embedding_loss": (x2, y2 + 1, torch.ones(2)),
        "margin_ranking_loss": (torch.ones(2), torch.ones(2), torch.ones(2)), "triplet_margin_loss": (x2, x2, x2),
        "pad": (x2, (1, 1)), "interpolate": (x3, 2), "one_hot": (cls,), "pixel_shuffle": (torch.ones(1, 4, 2, 2), 2),
        "pixel_unshuffle": (x4, 2), "unfold": (x4, 2), "fold": (torch.ones(1, 4, 9), (4, 4), 2),
        "grid_sample": (x4, torch.zeros(1, 2, 2, 2)), "affine_grid": (torch.zeros(1, 2, 3), [1, 1, 2, 2]),
        "conv1d": (x3, torch.ones(1, 1, 1)), "conv2d": (x4, torch.ones(1, 1, 1, 1)),
        "conv_transpose1d": (x3, torch.ones(1, 1, 1)), "conv_transpose2d": (x4, torch.ones(1, 1, 1, 1)),
        "scaled_dot_product_attention": (torch.ones(1, 2, 3), torch.ones(1, 2, 3), torch.ones(1, 2, 3)),
    }


def _call_attribute(x, name):
    return getattr(x, name)()


def outcome(f, args):
    try:
        f(*args)
    except Exception as e:  # noqa: BLE001 - what torch raises is what is read
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    return "ok"


def read():
    """{name: ((position, what), ...)}: what F.<name> does first with a list, numpy array or None at a position:
    ("parser", its C++ name, the parameter's name and position there, whether None is refused too) for torch's
    argument parser's TypeError, ("call", attribute) for a Python attribute it calls first (list.size() fails as
    that does)."""
    import numpy as np
    import torch

    warnings.simplefilter("ignore")
    table = {}
    for name, args in templates(torch).items():
        f = getattr(torch.nn.functional, name)
        checks = []
        for i, a in enumerate(args):
            if not isinstance(a, torch.Tensor):
                continue
            seen = [outcome(f, (*args[:i], bad, *args[i + 1:])) for bad in (a.tolist(), a.numpy(), None)]
            parser = [PARSER.match(s) for s in seen]
            if all(parser[:2]) and len({(m[1], m[2], m[3]) for m in parser[:2]}) == 1:
                none_too = bool(parser[2]) and parser[2].group(1, 2, 3) == parser[0].group(1, 2, 3)
                checks.append((i, ("parser", parser[0][1], parser[0][2], int(parser[0][3]), none_too)))
                continue
            attribute = ATTRIBUTE.match(seen[0])
            if attribute and seen[2] == f"AttributeError: 'NoneType' object has no attribute '{attribute[1]}'" and (
                    outcome(_call_attribute, (np.ones(1), attribute[1])) == seen[1]):
                checks.append((i, ("call", attribute[1])))
            if not checks or checks[-1][0] != i:
                break  # the next position is reached only when this one passes: what happens here is not read
        if checks:
            table[name] = tuple(checks)
    return table


def source():
    return ('"""What torch.nn.functional does first with what is not a tensor where a tensor goes, by function and '
            'position, as\ntests/engine/functional_arguments_source.py reads it from torch (functional_arguments.py '
            'applies it)."""\n'
            f"TABLE = {pprint.pformat(read(), width=118, sort_dicts=True)}\n")


if __name__ == "__main__":
    TARGET.write_text(source())
