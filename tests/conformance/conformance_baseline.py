"""The committed baseline (tests/conformance/passing.txt): the database entries that pass, one per line as
`<key> <level>`, level `pass` (every check) or `core` (forward and backward values, dtypes, shapes, grads).
Written by `benchmarks/conformance.py --write-baseline`; the tests fail when an entry in it stops passing."""
from __future__ import annotations

import os

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINE = os.path.join(HERE, "passing.txt")
HEADER = ("# Entries of torch's test databases the engine passes (benchmarks/conformance.py --write-baseline).\n"
          "# <kind>:<key> <level>: level pass = every check, core = forward and backward values/dtypes/shapes/grads.\n")


def write_baseline(path, results):
    lines = []
    for r in results:
        level = "pass" if r.status == "pass" else "core" if r.core_pass else None
        if level:
            lines.append(f"{kind_of(r)}:{r.key} {level}")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(HEADER + "".join(line + "\n" for line in sorted(lines)))
    return len(lines)


def kind_of(r):
    kinds = {"modules": "module", "optimizers": "optim", "complex": "complex", "bfloat16": "bfloat16"}
    return kinds.get(r.namespace, "op")


def read_baseline(path=BASELINE):
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                key, level = line.rsplit(" ", 1)
                out[key] = level
    return out
