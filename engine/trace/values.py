"""How a tensor's value goes into the timeline: small tensors as nested lists, exactly; bigger ones as a summary
(shape, first elements, min, max, mean, norm), so that a training loop over thousands of elements records in a size
that does not grow with its tensors (docs/timeline.md, "Values")."""
import numpy as np

FULL = 64  # tensors of up to this many elements are recorded in full
HEAD = 3


def record(data):
    """A numpy array as the timeline holds it: a list (or a number), or a summary dict for big arrays."""
    if data.size <= FULL:
        return data.tolist()
    flat = data.reshape(-1)
    exact = data.dtype.kind != "f"
    head = flat[:HEAD].tolist()
    summary = {"shape": list(data.shape), "head": head if exact else [_digits(x) for x in head]}
    if data.dtype.kind in "fiu":
        with np.errstate(all="ignore"):
            total = np.add.reduce(flat, dtype=np.float64)
            squares = np.dot(flat, flat) if not exact else np.dot(flat, flat.astype(np.float64))
            lo, hi = flat.min().item(), flat.max().item()
            summary.update(min=lo if exact else _digits(lo), max=hi if exact else _digits(hi),
                           mean=_digits(total / flat.size), norm=_digits(np.sqrt(np.float64(squares))))
    return summary


def _digits(x):
    """A statistic to float32's precision (7 significant digits): the summary describes, it does not compute."""
    return float(f"{float(x):.7g}")

