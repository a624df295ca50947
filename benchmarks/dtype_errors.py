"""Every public `torch.*` function called with one int64, bool and float32 tensor, on torch and on the engine:
prints the calls whose outcome differs (error type and text, or result dtype) and their count. An inventory of
the errors a learner meets when a tensor of the wrong dtype or shape reaches a function.

    .venv-torch/bin/python benchmarks/dtype_errors.py
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = r'''
import json, sys, warnings
torch = __import__(sys.argv[1])
warnings.simplefilter("ignore")
names = json.loads(sys.stdin.read())
out = {}
for n in names:
    f = getattr(torch, n, None)
    if f is None or not callable(f) or isinstance(f, type):
        continue
    for label, x in (("int", torch.tensor([1, -2, 3])), ("bool", torch.tensor([True, False, True])),
                     ("float", torch.tensor([0.5, -1.5, 2.0]))):
        try:
            r = f(x)
            out[f"{n}/{label}"] = f"{r.dtype}" if isinstance(r, torch.Tensor) else "not a tensor"
        except Exception as e:  # noqa: BLE001 - what each side raises is the measurement
            out[f"{n}/{label}"] = f"{type(e).__name__}: {str(e)[:100]}"
print(json.dumps(out))
'''
SKIP = ("is_", "set_", "get_", "use_", "manual_seed", "seed", "load", "save", "compile")


def outcomes(module: str, names: list[str]) -> dict[str, str]:
    done = subprocess.run([sys.executable, "-c", PROBE, module], input=json.dumps(names), capture_output=True,
                          text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout)


def main() -> None:
    names = json.loads(subprocess.run([sys.executable, "-c", "import json, torch; print(json.dumps(sorted(n for n in "
                                       "dir(torch) if not n.startswith('_'))))"], capture_output=True, text=True,
                                      check=True).stdout)
    names = [n for n in names if not n.endswith("_") and not n.startswith(SKIP)]
    torch, engine = outcomes("torch", names), outcomes("engine", names)
    differ = sorted(k for k in torch if k in engine and torch[k] != engine[k]
                    and not (torch[k].startswith("TypeError") and engine[k].startswith("TypeError")))
    for key in differ:
        print(f"{key:32} torch: {torch[key][:70]:72} engine: {engine[key][:70]}")
    print(f"{len(differ)} of {len(set(torch) & set(engine))} calls differ")


if __name__ == "__main__":
    main()
