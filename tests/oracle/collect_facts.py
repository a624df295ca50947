"""Measure facts about real PyTorch and write them to docs/torch-facts.md.

Run with the oracle interpreter (rerunnable, deterministic apart from object addresses):

    .venv-torch/bin/python tests/oracle/collect_facts.py [--out docs/torch-facts.md] [--sections abcdef]

Every fact in the document is produced by running the code shown next to it on real torch.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import sys
import textwrap
import traceback
import warnings
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

ROOT = Path(__file__).resolve().parents[2]
TRIGGERED = re.compile(r" \(Triggered internally at [^\n]*\)\s*$")


def strip_triggered(msg: str) -> str:
    return TRIGGERED.sub("", msg)


def fresh_env() -> dict:
    torch.manual_seed(0)
    return {"torch": torch, "F": F, "nn": nn}


def run(code: str, env: dict | None = None) -> dict:
    """Exec `code`; return stdout, warnings (category, message) and the exception (type, message)."""
    env = fresh_env() if env is None else env
    out = io.StringIO()
    res = {"stdout": "", "warnings": [], "exc": None, "env": env}
    with warnings.catch_warnings(record=True) as wlist:
        warnings.simplefilter("always")
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(textwrap.dedent(code), "<fact>", "exec"), env)
        except Exception as e:  # noqa: BLE001
            res["exc"] = (type(e).__name__, str(e))
    res["stdout"] = out.getvalue()
    res["warnings"] = [(w.category.__name__, str(w.message)) for w in wlist]
    return res


class Doc:
    def __init__(self, path: Path):
        self.path = path
        self.parts: list[str] = []

    def add(self, text: str = "") -> None:
        self.parts.append(text)

    def flush(self) -> None:
        self.path.write_text("\n".join(self.parts).rstrip() + "\n")


def fence(text: str, lang: str = "") -> str:
    return f"```{lang}\n{text.rstrip()}\n```"


def show_case(doc: Doc, title: str, code: str, env: dict | None = None) -> dict:
    r = run(code, env)
    src = textwrap.dedent(code).strip().split("\n")
    lines = [(">>> " if not ln.startswith(" ") else "... ") + ln for ln in src]
    body = "\n".join(lines)
    if r["stdout"]:
        body += "\n" + r["stdout"].rstrip()
    for cat, msg in r["warnings"]:
        body += f"\n[warning] {cat}: {strip_triggered(msg)}"
    if r["exc"]:
        body += f"\n[raises] {r['exc'][0]}: {r['exc'][1]}"
    if not r["warnings"] and not r["exc"]:
        body += "\n[no error, no warning]"
    doc.add(f"**{title}**")
    doc.add(fence(body, "text"))
    return r


# ----------------------------------------------------------------------------------------------
# (a) errors and warnings
# ----------------------------------------------------------------------------------------------
A_CASES = [
    ("non-scalar backward without gradient",
     "x = torch.ones(3, requires_grad=True)\n(x*2).backward()"),
    ("backward on a tensor with requires_grad=False",
     "x = torch.ones(3)\nx.sum().backward()"),
    ("backward on a leaf requiring grad (0-d): allowed",
     "x = torch.tensor(2., requires_grad=True)\nx.backward()\nprint(x.grad)"),
    ("backward twice through MulBackward0",
     "x = torch.ones(3, requires_grad=True)\ny = (x*2).sum()\ny.backward()\ny.backward()"),
    ("backward twice through x*x (saves self and other)",
     "x = torch.ones(3, requires_grad=True)\ny = (x*x).sum()\ny.backward()\ny.backward()"),
    ("backward twice through exp (saves result)",
     "x = torch.ones(3, requires_grad=True)\ny = x.exp().sum()\ny.backward()\ny.backward()"),
    ("backward twice through (x+x).sum(): allowed (nothing saved)",
     "x = torch.ones(3, requires_grad=True)\ny = (x+x).sum()\ny.backward()\ny.backward()\nprint(x.grad)"),
    ("backward twice with retain_graph=True",
     "x = torch.ones(3, requires_grad=True)\ny = (x*2).sum()\ny.backward(retain_graph=True)\n"
     "y.backward()\nprint(x.grad)"),
    ("accessing saved tensor after backward freed it",
     "x = torch.ones(3, requires_grad=True)\ny = x*x\ny.sum().backward()\ny.grad_fn._saved_self"),
    (".grad of a non-leaf (warning)",
     "x = torch.ones(3, requires_grad=True)\ny = x*2\nprint(y.grad)"),
    (".grad of a non-leaf after retain_grad (no warning)",
     "x = torch.ones(3, requires_grad=True)\ny = x*2\ny.retain_grad()\ny.sum().backward()\nprint(y.grad)"),
    ("in-place add_ on a leaf that requires grad",
     "x = torch.ones(3, requires_grad=True)\nx.add_(1)"),
    ("x += 1 on a leaf that requires grad",
     "x = torch.ones(3, requires_grad=True)\nx += 1"),
    ("x *= 2 on a leaf that requires grad",
     "x = torch.ones(3, requires_grad=True)\nx *= 2"),
    ("x[0] = 1 on a leaf that requires grad",
     "x = torch.ones(3, requires_grad=True)\nx[0] = 1"),
    ("x.zero_() on a leaf that requires grad",
     "x = torch.ones(3, requires_grad=True)\nx.zero_()"),
    ("in-place on a leaf under no_grad: allowed",
     "x = torch.ones(3, requires_grad=True)\nwith torch.no_grad():\n    x -= 0.5\nprint(x)"),
    ("in-place on a view of a leaf requiring grad (slice)",
     "x = torch.ones(3, requires_grad=True)\nv = x[:2]\nv.add_(1)"),
    ("in-place on a view of a leaf requiring grad (view)",
     "x = torch.ones(2, 2, requires_grad=True)\nv = x.view(4)\nv.mul_(2)"),
    ("in-place on a view of a leaf (x[0] int index then add_)",
     "x = torch.ones(3, requires_grad=True)\nx[0].add_(1)"),
    ("modified saved leaf detected at backward (x*y, then y.add_ under no_grad? no: y plain leaf)",
     "x = torch.ones(3, requires_grad=True)\ny = torch.ones(3)\nz = x*y\ny.add_(1)\nz.sum().backward()"),
    ("modified saved output: y = x.exp(); y.add_(1)",
     "x = torch.ones(3, requires_grad=True)\ny = x.exp()\ny.add_(1)\ny.sum().backward()"),
    ("modified saved non-leaf input: a=x*2; b=a*a; a.add_(1)",
     "x = torch.ones(3, requires_grad=True)\na = x*2\nb = a*a\na.add_(1)\nb.sum().backward()"),
    ("modified saved leaf-requiring-grad via no_grad: z=x*x; with no_grad: x.add_(1)",
     "x = torch.ones(3, requires_grad=True)\nz = x*x\nwith torch.no_grad():\n    x.add_(1)\n"
     "z.sum().backward()"),
    ("modified saved output of sigmoid",
     "x = torch.ones(3, requires_grad=True)\ny = torch.sigmoid(x)\ny.mul_(2)\ny.sum().backward()"),
    ("modified saved output of tanh (2-d, 0-d)",
     "x = torch.ones(2, 2, requires_grad=True)\ny = x.tanh()\ny[0, 0] = 5.\ny.sum().backward()"),
    ("in-place relu_ on output then backward (relu saves result)",
     "x = torch.ones(3, requires_grad=True)\ny = x.relu()\ny.add_(1)\ny.sum().backward()"),
    ("in-place on non-leaf whose value is not saved: allowed",
     "x = torch.ones(3, requires_grad=True)\na = x + 1\na.mul_(2)\na.sum().backward()\nprint(x.grad)\n"
     "print(a.grad_fn)"),
    ("integer tensor with requires_grad=True",
     "torch.tensor([1, 2], requires_grad=True)"),
    ("requires_grad_() on an int tensor",
     "torch.tensor([1, 2]).requires_grad_()"),
    ("requires_grad = True on an int tensor",
     "x = torch.tensor([1, 2])\nx.requires_grad = True"),
    ("torch.ones(int dtype, requires_grad=True)",
     "torch.ones(2, dtype=torch.int64, requires_grad=True)"),
    ("bool tensor requires_grad",
     "torch.tensor([True], requires_grad=True)"),
    ("gradient= shape mismatch",
     "x = torch.ones(3, requires_grad=True)\ny = x*2\ny.backward(gradient=torch.ones(2))"),
    ("gradient= shape mismatch 2-d",
     "x = torch.ones(2, 3, requires_grad=True)\ny = x*2\ny.backward(torch.ones(3, 2))"),
    ("gradient= dtype mismatch (float64 grad for float32 output)",
     "x = torch.ones(3, requires_grad=True)\ny = x*2\ny.backward(torch.ones(3, dtype=torch.float64))\n"
     "print(x.grad)"),
    ("gradient= given for a scalar with wrong shape",
     "x = torch.ones(3, requires_grad=True)\ny = (x*2).sum()\ny.backward(torch.ones(3))"),
    ("broadcast mismatch in add",
     "torch.ones(3) + torch.ones(4)"),
    ("broadcast mismatch in add (2-d)",
     "torch.ones(2, 3) + torch.ones(3, 2)"),
    ("broadcast mismatch in mul",
     "torch.ones(2, 3) * torch.ones(2)"),
    ("broadcast mismatch in sub / div",
     "torch.ones(3) - torch.ones(2)"),
    ("matmul mismatch 2d@2d",
     "torch.ones(2, 3) @ torch.ones(2, 3)"),
    ("matmul mismatch 1d@1d",
     "torch.ones(3) @ torch.ones(4)"),
    ("matmul mismatch 2d@1d",
     "torch.ones(2, 3) @ torch.ones(2)"),
    ("matmul mismatch 1d@2d",
     "torch.ones(3) @ torch.ones(2, 3)"),
    ("matmul mismatch batched",
     "torch.ones(2, 2, 3) @ torch.ones(2, 4, 5)"),
    ("matmul 0-d",
     "torch.tensor(2.) @ torch.ones(3)"),
    ("matmul dtype mismatch",
     "torch.ones(2, 3) @ torch.ones(3, 2, dtype=torch.float64)"),
    ("mm mismatch",
     "torch.mm(torch.ones(2, 3), torch.ones(2, 3))"),
    ("item() on many elements",
     "torch.ones(3).item()"),
    ("item() on an empty tensor",
     "torch.ones(0).item()"),
    ("numpy() on a tensor requiring grad",
     "torch.ones(3, requires_grad=True).numpy()"),
    ("numpy() on a non-leaf",
     "x = torch.ones(3, requires_grad=True)\n(x*2).numpy()"),
    ("tolist() on a tensor requiring grad: allowed",
     "print(torch.ones(2, requires_grad=True).tolist())"),
    ("float() on a tensor requiring grad (1 element): allowed",
     "print(float(torch.ones(1, requires_grad=True)))"),
    ("float() on many elements",
     "float(torch.ones(3))"),
    ("setting requires_grad=False on a non-leaf",
     "x = torch.ones(3, requires_grad=True)\ny = x*2\ny.requires_grad = False"),
    ("setting requires_grad=True on a non-leaf: allowed",
     "x = torch.ones(3, requires_grad=True)\ny = x*2\ny.requires_grad = True\nprint(y.requires_grad)"),
    ("requires_grad_(False) on a non-leaf",
     "x = torch.ones(3, requires_grad=True)\ny = x*2\ny.requires_grad_(False)"),
    ("x.grad = wrong shape",
     "x = torch.ones(3, requires_grad=True)\nx.grad = torch.ones(2)"),
    ("x.grad = wrong dtype",
     "x = torch.ones(3, requires_grad=True)\nx.grad = torch.ones(3, dtype=torch.float64)"),
    ("x.grad = non-tensor",
     "x = torch.ones(3, requires_grad=True)\nx.grad = 1.0"),
    ("x.grad = None: allowed",
     "x = torch.ones(3, requires_grad=True)\nx.grad = None\nprint(x.grad)"),
    ("backward on a tensor created under no_grad",
     "x = torch.ones(3, requires_grad=True)\nwith torch.no_grad():\n    y = (x*2).sum()\ny.backward()"),
    ("backward on detach()",
     "x = torch.ones(3, requires_grad=True)\ny = (x*2).sum().detach()\ny.backward()"),
    ("autograd.grad, input not in graph",
     "x = torch.ones(3, requires_grad=True)\nw = torch.ones(3, requires_grad=True)\n"
     "y = (x*2).sum()\ntorch.autograd.grad(y, [x, w])"),
    ("autograd.grad allow_unused=True",
     "x = torch.ones(3, requires_grad=True)\nw = torch.ones(3, requires_grad=True)\n"
     "y = (x*2).sum()\nprint(torch.autograd.grad(y, [x, w], allow_unused=True))"),
    ("autograd.grad materialize_grads=True",
     "x = torch.ones(3, requires_grad=True)\nw = torch.ones(3, requires_grad=True)\n"
     "y = (x*2).sum()\nprint(torch.autograd.grad(y, [x, w], materialize_grads=True))"),
    ("autograd.grad of a non-requiring-grad output",
     "x = torch.ones(3, requires_grad=True)\ny = torch.ones(3).sum()\ntorch.autograd.grad(y, x)"),
    ("autograd.grad input does not require grad",
     "x = torch.ones(3)\ny = (x*2).sum()\ntorch.autograd.grad(y, x)"),
    ("autograd.grad non-scalar output without grad_outputs",
     "x = torch.ones(3, requires_grad=True)\ntorch.autograd.grad(x*2, x)"),
    ("autograd.grad twice (graph freed)",
     "x = torch.ones(3, requires_grad=True)\ny = (x*x).sum()\ntorch.autograd.grad(y, x)\n"
     "torch.autograd.grad(y, x)"),
    ("autograd.grad returns tuple; .grad untouched",
     "x = torch.ones(3, requires_grad=True)\ny = (x*x).sum()\nprint(torch.autograd.grad(y, x))\n"
     "print(x.grad)"),
    ("mse_loss shape warning (broadcast)",
     "F.mse_loss(torch.ones(3, 1), torch.ones(3))"),
    ("mse_loss shape mismatch not broadcastable",
     "F.mse_loss(torch.ones(3), torch.ones(4))"),
    ("nn.MSELoss shape warning",
     "nn.MSELoss()(torch.ones(2, 1), torch.ones(2))"),
    ("mse_loss dtype mismatch",
     "F.mse_loss(torch.ones(3), torch.ones(3, dtype=torch.float64))"),
    ("mse_loss with int target",
     "F.mse_loss(torch.ones(3), torch.tensor([1, 2, 3]))"),
    ("cross_entropy with float target of wrong shape",
     "F.cross_entropy(torch.ones(2, 3), torch.ones(2))"),
    ("cross_entropy target out of range",
     "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3]))"),
    ("cross_entropy target negative",
     "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, -5]))"),
    ("cross_entropy batch size mismatch",
     "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1, 2]))"),
    ("cross_entropy int32 target? (int64 required)",
     "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1], dtype=torch.int32))"),
    ("cross_entropy 1-d input with 0-d target",
     "print(F.cross_entropy(torch.tensor([1., 2., 3.]), torch.tensor(2)))"),
    ("cross_entropy with class probabilities target",
     "print(F.cross_entropy(torch.zeros(2, 3), torch.full((2, 3), 1/3)))"),
    ("cross_entropy with float target class indices",
     "F.cross_entropy(torch.ones(2, 3), torch.tensor([0., 1.]))"),
    ("nn.Linear input feature mismatch",
     "lin = nn.Linear(3, 2)\nlin(torch.ones(4, 2))"),
    ("nn.Linear input 1-d mismatch",
     "lin = nn.Linear(3, 2)\nlin(torch.ones(2))"),
    ("nn.Linear int input",
     "lin = nn.Linear(3, 2)\nlin(torch.ones(3, dtype=torch.int64))"),
    ("nn.Linear float64 input",
     "lin = nn.Linear(3, 2)\nlin(torch.ones(3, dtype=torch.float64))"),
    ("view on incompatible size",
     "torch.ones(6).view(4)"),
    ("reshape on incompatible size",
     "torch.ones(6).reshape(4, 2)"),
    ("view after transpose (non-contiguous)",
     "torch.ones(2, 3).t().view(6)"),
    ("index out of range",
     "torch.ones(3)[3]"),
    ("index out of range 2-d",
     "torch.ones(2, 3)[0, 5]"),
    ("too many indices",
     "torch.ones(3)[0, 0]"),
    ("dim out of range sum",
     "torch.ones(3).sum(dim=1)"),
    ("dim out of range softmax",
     "F.softmax(torch.ones(3), dim=2)"),
    ("softmax without dim (warning)",
     "print(F.softmax(torch.ones(3)))"),
    ("log_softmax without dim (warning)",
     "print(F.log_softmax(torch.ones(2, 2)))"),
    ("squeeze dim of size != 1 (no error)",
     "print(torch.ones(2, 3).squeeze(0).shape)"),
    ("unsqueeze dim out of range",
     "torch.ones(3).unsqueeze(3)"),
    ("transpose dim out of range",
     "torch.ones(3, 2).transpose(0, 2)"),
    ("permute wrong number of dims",
     "torch.ones(3, 2).permute(0)"),
    ("expand incompatible",
     "torch.ones(3).expand(2, 4)"),
    ("stack different sizes",
     "torch.stack([torch.ones(3), torch.ones(2)])"),
    ("cat different sizes",
     "torch.cat([torch.ones(2, 3), torch.ones(2, 2)])"),
    ("cat zero-dim",
     "torch.cat([torch.tensor(1.), torch.tensor(2.)])"),
    ("stack empty list",
     "torch.stack([])"),
    ("tensor from ragged list",
     "torch.tensor([[1, 2], [3]])"),
    ("tensor from string",
     "torch.tensor('a')"),
    ("max of empty tensor",
     "torch.ones(0).max()"),
    ("sum of empty: allowed",
     "print(torch.ones(0).sum())"),
    ("mean of int tensor",
     "torch.tensor([1, 2]).mean()"),
    ("pow of int by negative int",
     "torch.tensor([1, 2]) ** -1"),
    ("where with condition not bool",
     "torch.where(torch.tensor([1, 0]), torch.ones(2), torch.zeros(2))"),
    ("clamp with no min/max",
     "torch.ones(2).clamp()"),
    ("float tensor += float64 tensor in place (result type)",
     "x = torch.ones(2)\nx += torch.ones(2, dtype=torch.float64)\nprint(x)"),
    ("int tensor += float in place",
     "x = torch.tensor([1, 2])\nx += 1.5"),
    ("int tensor *= float tensor in place",
     "x = torch.tensor([1, 2])\nx.mul_(torch.tensor([1.5, 2.]))"),
    ("in-place broadcast to bigger shape",
     "x = torch.ones(3)\nx.add_(torch.ones(2, 3))"),
    ("optimizer with non-leaf param",
     "x = torch.ones(3, requires_grad=True)\ntorch.optim.SGD([x*2], lr=0.1)"),
    ("optimizer with empty param list",
     "torch.optim.SGD([], lr=0.1)"),
    ("optimizer with a tensor (not a list)",
     "torch.optim.SGD(torch.ones(3, requires_grad=True), lr=0.1)"),
    ("optimizer negative lr",
     "torch.optim.SGD([torch.ones(3, requires_grad=True)], lr=-1)"),
    ("SGD without lr (default 1e-3 in 2.x)",
     "o = torch.optim.SGD([torch.ones(3, requires_grad=True)])\nprint(o.defaults['lr'])"),
    ("Adam negative lr",
     "torch.optim.Adam([torch.ones(3, requires_grad=True)], lr=-1)"),
    ("Module call without forward",
     "class M(nn.Module):\n    pass\nM()(torch.ones(2))"),
    ("assign Parameter before Module.__init__",
     "class M(nn.Module):\n    def __init__(self):\n        self.w = nn.Parameter(torch.ones(2))\nM()"),
    ("assign Module before Module.__init__",
     "class M(nn.Module):\n    def __init__(self):\n        self.l = nn.Linear(2, 2)\nM()"),
    ("nn.Parameter of int tensor",
     "nn.Parameter(torch.tensor([1, 2]))"),
    ("backward through graph from different no_grad... grad_fn of leaf",
     "x = torch.ones(3, requires_grad=True)\nprint(x.grad_fn, x.is_leaf)"),
    ("retain_grad on leaf (no-op)",
     "x = torch.ones(3, requires_grad=True)\nx.retain_grad()\nprint(x.retains_grad)"),
    ("retain_grad on tensor not requiring grad",
     "x = torch.ones(3)\nx.retain_grad()"),
    ("register_hook on tensor not requiring grad",
     "x = torch.ones(3)\nx.register_hook(lambda g: g)"),
    ("hook returning wrong shape",
     "x = torch.ones(3, requires_grad=True)\nx.register_hook(lambda g: torch.ones(2))\n"
     "(x*2).sum().backward()"),
    ("zero_grad sets grad to None (default set_to_none=True)",
     "lin = nn.Linear(2, 1)\nlin(torch.ones(2)).sum().backward()\nlin.zero_grad()\nprint(lin.weight.grad)"),
    ("x.grad.zero_() when grad is None",
     "x = torch.ones(3, requires_grad=True)\nx.grad.zero_()"),
    ("backward with create_graph=True warning on leaf .grad? (reference-cycle warning)",
     "x = torch.ones(3, requires_grad=True)\n(x*x).sum().backward(create_graph=True)\nprint(x.grad)"),
    ("calling .backward() with inputs= not requiring grad",
     "x = torch.ones(3, requires_grad=True)\nw = torch.ones(3)\n(x*w).sum().backward(inputs=[w])"),
    ("torch.tensor(tensor) copy-construct warning",
     "x = torch.ones(2)\nprint(torch.tensor(x))"),
    ("linspace without steps",
     "torch.linspace(0, 1)"),
    ("arange with zero step",
     "torch.arange(0, 1, 0)"),
    ("arange bad range",
     "torch.arange(1, 0, 1)"),
    ("exp on int tensor (result float)",
     "print(torch.tensor([0, 1]).exp())"),
    ("sqrt of negative (nan, no error)",
     "print(torch.tensor([-1.]).sqrt())"),
    ("divide by zero (inf, no error)",
     "print(torch.tensor([1., -1., 0.]) / 0)"),
    ("int // 0",
     "torch.tensor([1]) // 0"),
    ("len of 0-d tensor",
     "len(torch.tensor(1.))"),
    ("iterate 0-d tensor",
     "for v in torch.tensor(1.):\n    pass"),
    ("bool of many-element tensor",
     "bool(torch.ones(2))"),
    ("int() of many-element tensor",
     "int(torch.ones(2))"),
    ("torch.ones(-1)",
     "torch.ones(-1)"),
    ("set_grad_enabled(True) inside no_grad makes graph",
     "x = torch.ones(1, requires_grad=True)\nwith torch.no_grad():\n    with torch.enable_grad():\n"
     "        y = x*2\nprint(y.grad_fn)"),
    ("Tensor.T on 3-d tensor (deprecation warning)",
     "print(torch.ones(2, 2, 2).T.shape)"),
    ("sigmoid/tanh via F (F.sigmoid/F.tanh deprecated?)",
     "print(F.sigmoid(torch.zeros(1)), F.tanh(torch.zeros(1)))"),
]


def section_a(doc: Doc) -> None:
    doc.add("## (a) Errors and warnings, verbatim")
    doc.add()
    doc.add("Each block: the code, then `[raises] Type: message` / `[warning] Category: message` / printed "
            "output.")
    doc.add("C++ warnings (`TORCH_WARN`) end with ` (Triggered internally at <path>:<line>.)`; it is "
            "stripped here")
    doc.add("with the regex `r\" \\(Triggered internally at [^\\n]*\\)\\s*$\"` (a single space before the "
            "paren).")
    doc.add("Raw example:")
    r = run("x = torch.ones(3, requires_grad=True)\ny = x*2\ny.grad")
    doc.add(fence(repr(r["warnings"][0][1]), "python"))
    doc.add("Warning category and `stacklevel`: UserWarning. The engine should use the stripped text.")
    doc.add()
    for title, code in A_CASES:
        show_case(doc, title, code)
    doc.add()


# ----------------------------------------------------------------------------------------------
# (b) grad_fn names and next_functions
# ----------------------------------------------------------------------------------------------
B_SETUP = """
x = torch.tensor([1.5, -2.0, 3.0], requires_grad=True)
y = torch.tensor([0.5, 4.0, -1.0], requires_grad=True)
s = torch.tensor(2.0, requires_grad=True)
m = torch.tensor([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]], requires_grad=True)
w = torch.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], requires_grad=True)
b3 = torch.ones(4, 2, 3, requires_grad=True)
c = torch.tensor([1.0, 2.0, 3.0])
idx = torch.tensor([0, 2])
mask = torch.tensor([True, False, True])
target = torch.tensor([0, 2])
logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]], requires_grad=True)
"""

B_EXPRS = [
    "x + y", "x + 2", "2 + x", "x + c", "c + x", "x + s", "x - y", "x - 2", "2 - x", "x - c", "c - x",
    "x * y", "x * 2", "2 * x", "x * c", "x / y", "x / 2", "2 / x", "c / x", "x / c", "-x", "x.neg()",
    "x ** 2", "x ** 0.5", "x ** 1", "x ** 0", "x ** -1", "2 ** x", "x ** y", "x ** s", "c ** x", "x.pow(2)",
    "torch.pow(x, y)", "torch.pow(2, x)", "x.exp()", "x.log()", "x.sin()", "x.cos()", "x.tanh()",
    "x.sigmoid()", "x.relu()", "torch.relu(x)", "F.relu(x)", "x.sqrt()", "x.abs()", "torch.exp(x)",
    "x.sum()", "x.sum(0)", "m.sum(dim=1)", "m.sum(1, keepdim=True)", "m.sum((0, 1))", "x.mean()",
    "m.mean(0)", "m.mean(dim=1, keepdim=True)", "x.max()", "x.min()", "m.max(dim=1)", "m.max(1)[0]",
    "m.max(1).values", "m.min(dim=0)", "torch.max(x)", "torch.max(x, y)", "torch.max(m, 1)",
    "torch.min(x, y)", "x.dot(y)", "x @ y", "torch.matmul(x, y)", "m @ w", "m @ x", "x @ w", "b3 @ w",
    "torch.mm(m, w)", "torch.mv(m, x)", "x.clamp(0, 2)", "x.clamp(min=0)", "x.clamp(max=1)",
    "torch.clamp(x, -1, 1)", "x.clamp(min=c)", "torch.where(mask, x, y)", "torch.where(x > 0, x, 0.)",
    "torch.where(mask, x, c)", "torch.stack([x, y])", "torch.stack([x, c])", "torch.cat([x, y])",
    "torch.cat([m, m], 1)", "x[0]", "x[1:]", "x[::2]", "x[None]", "x[...]", "m[0]", "m[:, 1]",
    "m[0, 1]", "m[..., 0]", "m[None, 0]", "x[idx]", "x[mask]", "m[[0, 1], [1, 2]]", "m[idx[:1]]",
    "m[:, idx]", "x[-1]", "x.reshape(3, 1)", "x.view(3, 1)", "x.view(-1)", "m.flatten()", "m.reshape(6)",
    "m.view(6)", "m.reshape(-1)", "x.unsqueeze(0)", "x.unsqueeze(1)", "x[None].squeeze()",
    "x[None].squeeze(0)", "m.transpose(0, 1)", "m.t()", "m.T", "m.mT", "m.permute(1, 0)",
    "x.expand(2, 3)", "s.expand(3)", "x.clone()", "x.detach()", "x.softmax(0)", "F.softmax(m, dim=1)",
    "F.log_softmax(m, dim=1)", "torch.softmax(m, 1)", "m.log_softmax(1)", "F.cross_entropy(logits, target)",
    "F.cross_entropy(logits, target, reduction='sum')", "F.cross_entropy(logits, target, reduction='none')",
    "F.cross_entropy(logits[0], target[0])", "F.mse_loss(x, y)", "F.mse_loss(x, c)",
    "F.mse_loss(x, y, reduction='sum')", "F.mse_loss(x, y, reduction='none')", "nn.MSELoss()(x, y)",
    "F.sigmoid(x)", "F.tanh(x)", "torch.sigmoid(x)", "torch.tanh(x)", "x.float()", "x.double()",
    "x.to(torch.float64)", "x.type(torch.float64)", "x.contiguous()", "m.t().contiguous()", "x.square()",
    "x.sub(y)", "x.rsub(y)", "x.add(y, alpha=2)", "x.sub(y, "
                                                  "alpha=2)", "x.mul(y)", "x.div(y)", "x.true_divide(y)",
    "x.sum() * 2", "x.mean() + "
                   "1", "x.prod()", "x.var()", "x.std()", "x.norm()", "x.log1p()", "x.exp2()" if False
    else "x.expm1()", "x.reciprocal()", "x.rsqrt()", "x.sign()", "x.floor()", "x.round()", "x.max(dim=0)",
    "torch.maximum(x, y)", "torch.minimum(x, y)", "x.amax()", "x.argmax()", "x > 0", "x.unbind()",
    # more pointwise, reductions, losses
    "x.tan()", "torch.tan(x)", "x.sinh()", "torch.sinh(x)", "x.cosh()", "torch.cosh(x)", "x.atan()",
    "torch.atan(x)", "torch.rsqrt(x)", "torch.log1p(x)", "torch.expm1(x)", "x.log2()", "torch.log2(x)",
    "x.log10()", "torch.log10(x)", "torch.floor(x)", "x.ceil()", "torch.ceil(x)", "torch.round(x)", "x.trunc()",
    "torch.trunc(x)", "torch.sign(x)", "x.isnan()", "torch.isnan(x)", "x.isinf()", "torch.isinf(x)",
    "x.isfinite()", "torch.isfinite(x)", "x.maximum(y)", "x.minimum(c)", "x.where(mask, y)", "x.where(x > 0, 0.)",
    "x.masked_fill(mask, 0.)", "torch.masked_fill(m, m > 0, -1.)", "x.outer(y)", "torch.outer(x, c)",
    "torch.outer(c, x)", "x.repeat(2)", "x.repeat(2, 2)", "m.repeat(1, 2)", "s.repeat(3)", "x.cumsum(0)",
    "m.cumsum(dim=1)", "torch.cumsum(m, 0)", "m.logsumexp(1)", "torch.logsumexp(m, dim=1, keepdim=True)",
    "m.logsumexp((0, 1))", "m.var(1)", "m.var(1, unbiased=False)", "m.var(dim=0, correction=0)",
    "torch.var(m, 1, keepdim=True)", "torch.var(x)", "m.std(1)", "m.std(dim=0, keepdim=True)", "torch.std(x)",
    "x.std(unbiased=False)", "m.norm(dim=1)", "m.norm(dim=1, keepdim=True)", "torch.norm(m)", "m.norm(2, 0)",
    "F.leaky_relu(x)", "F.leaky_relu(x, 0.2)", "F.softplus(x)", "F.softplus(x, beta=2, threshold=1)",
    "F.binary_cross_entropy(x.sigmoid(), c / 4)", "F.binary_cross_entropy(x.sigmoid(), y.sigmoid(), reduction='sum')",
    "F.binary_cross_entropy(x.sigmoid(), c / 4, reduction='none')", "F.l1_loss(x, y)",
    "F.l1_loss(x, c, reduction='sum')", "F.l1_loss(x, y, reduction='none')", "nn.L1Loss()(x, y)",
    "nn.BCELoss()(x.sigmoid(), c / 4)", "nn.LeakyReLU(0.1)(m)", "x.clamp(c - 2, c)", "x.clamp(max=c)",
    "torch.clamp(x, min=y)", "x.clamp(min=s)", "x.clamp(min=y, max=y + 1)", "m.T.contiguous()",
    "m[:, ::2].contiguous()", "m[0].contiguous()",
]

B_MODULE_EXPRS = [
    ("nn.Linear 2-d input", "lin = nn.Linear(3, 2)\nout = lin(torch.ones(4, 3))"),
    ("nn.Linear 1-d input", "lin = nn.Linear(3, 2)\nout = lin(torch.ones(3))"),
    ("nn.Linear 3-d input", "lin = nn.Linear(3, 2)\nout = lin(torch.ones(5, 4, 3))"),
    ("nn.Linear bias=False 2-d", "lin = nn.Linear(3, 2, bias=False)\nout = lin(torch.ones(4, 3))"),
    ("nn.Linear bias=False 1-d", "lin = nn.Linear(3, 2, bias=False)\nout = lin(torch.ones(3))"),
    ("nn.Linear 2-d input requiring grad",
     "lin = nn.Linear(3, 2)\nout = lin(torch.ones(4, 3, requires_grad=True))"),
    ("F.linear 2-d", "out = F.linear(torch.ones(4, 3), torch.ones(2, 3), torch.ones(2, requires_grad=True))"),
    ("nn.ReLU", "out = nn.ReLU()(torch.ones(3, requires_grad=True))"),
    ("nn.Tanh", "out = nn.Tanh()(torch.ones(3, requires_grad=True))"),
    ("nn.Sigmoid", "out = nn.Sigmoid()(torch.ones(3, requires_grad=True))"),
    ("nn.LeakyReLU", "out = nn.LeakyReLU(0.2)(torch.ones(3, requires_grad=True))"),
    ("nn.L1Loss", "out = nn.L1Loss()(torch.ones(3, requires_grad=True), torch.zeros(3))"),
    ("nn.BCELoss", "out = nn.BCELoss()(torch.tensor([0.25, 0.5], requires_grad=True), torch.ones(2))"),
    ("nn.Sequential(Linear, LeakyReLU, Linear) + BCELoss",
     "net = nn.Sequential(nn.Linear(3, 4), nn.LeakyReLU(), nn.Linear(4, 1))\n"
     "out = nn.BCELoss()(net(torch.ones(2, 3)).sigmoid(), torch.ones(2, 1))"),
    ("clamp_ with a tensor bound on non-leaf",
     "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout.clamp_(min=torch.zeros(3))"),
    ("nn.Sequential(Linear, ReLU, Linear) on 2-d",
     "net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))\nout = net(torch.ones(2, 3))"),
    ("add_ on non-leaf", "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout.add_(1)"),
    ("mul_ on non-leaf", "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout.mul_(3)"),
    ("+= tensor on non-leaf", "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout += x"),
    ("*= on non-leaf", "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout *= x"),
    ("-= on non-leaf", "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout -= 1"),
    ("/= on non-leaf", "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout /= 2"),
    ("pow_ on non-leaf", "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout.pow_(2)"),
    ("relu_ on non-leaf", "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout.relu_()"),
    ("zero_ on non-leaf", "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout.zero_()"),
    ("clamp_ on non-leaf", "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout.clamp_(0, 1)"),
    ("in-place add_ of requiring tensor into plain tensor",
     "x = torch.ones(3, requires_grad=True)\nout = torch.zeros(3)\nout.add_(x)"),
    ("setitem: y = zeros(3); y[0] = x[0]**2",
     "x = torch.ones(3, requires_grad=True)\nout = torch.zeros(3)\nout[0] = x[0] ** 2"),
    ("setitem on non-leaf: out = x*1; out[0] = 5",
     "x = torch.ones(3, requires_grad=True)\nout = x * 1\nout[0] = 5"),
    ("setitem with slice", "x = torch.ones(3, requires_grad=True)\nout = torch.zeros(2, 3)\nout[1] = x"),
    ("setitem with bool mask", "x = torch.ones(3, requires_grad=True)\nout = x * 1\nout[out > 0] = 0."),
    ("setitem with int tensor index",
     "x = torch.ones(3, requires_grad=True)\nout = torch.zeros(3)\nout[torch.tensor([0, 2])] = x[:2]"),
    ("in-place on view of non-leaf: out = x*1; out[0].mul_(2)",
     "x = torch.ones(3, requires_grad=True)\nout = x * 1\nout[0].mul_(2)"),
    ("view of non-leaf after in-place on base",
     "x = torch.ones(3, requires_grad=True)\nb = x * 1\nout = b[:2]\nb.add_(1)"),
    ("detach_()", "x = torch.ones(3, requires_grad=True)\nout = x * 2\nout.detach_()"),
    ("x[0] on 1-d", "x = torch.ones(3, requires_grad=True)\nout = x[0]"),
    ("requires_grad_() on fresh tensor", "out = torch.ones(3).requires_grad_()"),
    ("leaf Parameter", "out = nn.Parameter(torch.ones(2))"),
    ("sum of a Parameter", "p = nn.Parameter(torch.ones(2))\nout = p.sum()"),
]


def describe_node(fn) -> str:
    if fn is None:
        return "None"
    return f"<{type(fn).__name__}>"


def next_fns(fn) -> str:
    if fn is None:
        return "-"
    return "(" + ", ".join(f"({describe_node(f)}, {i})" for f, i in fn.next_functions) + (
        ",)" if len(fn.next_functions) == 1 else ")")


def tree(fn, depth=0, seen=None) -> list[str]:
    seen = set() if seen is None else seen
    lines = []
    name = type(fn).__name__ if fn is not None else "None"
    lines.append("  " * depth + name)
    if fn is None:
        return lines
    for f, i in fn.next_functions:
        if f is not None and id(f) in seen:
            lines.append("  " * (depth + 1) + f"{type(f).__name__} (seen) [{i}]")
            continue
        if f is not None:
            seen.add(id(f))
        sub = tree(f, depth + 1, seen)
        sub[0] += f" [{i}]"
        lines.extend(sub)
    return lines


def fmt_out(v) -> tuple[str, str]:
    if isinstance(v, torch.Tensor):
        return (type(v.grad_fn).__name__ if v.grad_fn is not None else "None"), next_fns(v.grad_fn)
    if isinstance(v, tuple):
        parts = [fmt_out(t) for t in v]
        return " , ".join(p[0] for p in parts) + f" ({type(v).__name__})", " ; ".join(p[1] for p in parts)
    return repr(v), "-"


def section_b(doc: Doc) -> None:
    doc.add("## (b) grad_fn names (`type(t.grad_fn).__name__`) and next_functions")
    doc.add()
    doc.add("Setup for the table (all float32):")
    doc.add(fence(B_SETUP.strip(), "python"))
    doc.add("`next_functions` shown as `((<Name>, input_nr), ...)`; `<AccumulateGrad>` is the leaf's node;")
    doc.add("`None` = input that does not require grad (or a Python number).")
    doc.add()
    doc.add("| expression | grad_fn | next_functions |")
    doc.add("|---|---|---|")
    for e in B_EXPRS:
        env = fresh_env()
        exec(B_SETUP, env)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                v = eval(e, env)
            name, nf = fmt_out(v)
        except Exception as ex:  # noqa: BLE001
            name, nf = f"raises {type(ex).__name__}: {ex}", "-"
        doc.add(f"| `{e}` | {name} | `{nf}` |".replace("|`", "| `"))
    doc.add()
    doc.add("### Modules, in-place and setitem (`out` is the result)")
    doc.add()
    doc.add("| case | grad_fn of out | next_functions |")
    doc.add("|---|---|---|")
    for title, code in B_MODULE_EXPRS:
        r = run(code)
        if r["exc"]:
            doc.add(f"| {title} | raises {r['exc'][0]}: {r['exc'][1]} | - |")
            continue
        name, nf = fmt_out(r["env"]["out"])
        doc.add(f"| {title} (`{code.splitlines()[-1]}`) | {name} | `{nf}` |")
    doc.add()
    doc.add("### Whole graphs (next_functions recursively; `[i]` = input_nr; `(seen)` = shared node)")
    doc.add()
    graphs = [
        ("x*2", "x = torch.ones(3, requires_grad=True)\nout = x * 2"),
        ("x*y", "x = torch.ones(3, requires_grad=True)\ny = torch.ones(3, requires_grad=True)\nout = x * y"),
        ("x*y with y constant", "x = torch.ones(3, requires_grad=True)\ny = torch.ones(3)\nout = x * y"),
        ("x*x", "x = torch.ones(3, requires_grad=True)\nout = x * x"),
        ("x.sum()", "x = torch.ones(3, requires_grad=True)\nout = x.sum()"),
        ("x@w", "x = torch.ones(2, 3, requires_grad=True)\nw = torch.ones(3, 4, requires_grad=True)\nout = "
                "x @ w"),
        ("x**2 + 2*x*y + y**2",
         "x = torch.tensor(1., requires_grad=True)\ny = torch.tensor(2., requires_grad=True)\n"
         "out = x**2 + 2*x*y + y**2"),
        ("vector program y[0]=x[0]**2; y[1]=x[1]**3; y[2]=x[1]**4",
         "x = torch.tensor([[0.5],[0.25]], requires_grad=True)\ny = torch.zeros(3,1)\ny[0]=x[0]**2\n"
         "y[1]=x[1]**3\ny[2]=x[1]**4\nout = y"),
        ("(x*x + 3*x + 1).sum()", "x = torch.ones(3, requires_grad=True)\nout = (x*x + 3*x + 1).sum()"),
        ("(2*x + 3).pow(2).sum()", "x = torch.ones(3, requires_grad=True)\nout = (2*x + 3).pow(2).sum()"),
        ("MLP + mse_loss",
         "torch.manual_seed(0)\nnet = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))\n"
         "out = F.mse_loss(net(torch.ones(4, 2)), torch.zeros(4, 1))"),
        ("cross_entropy", "z = torch.ones(2, 3, requires_grad=True)\nout = F.cross_entropy(z, "
                          "torch.tensor([0, 1]))"),
        ("in-place: a = x*2; a.add_(1); a.mul_(x)",
         "x = torch.ones(3, requires_grad=True)\na = x * 2\na.add_(1)\na.mul_(x)\nout = a"),
    ]
    for title, code in graphs:
        r = run(code)
        out = r["env"]["out"]
        doc.add(f"**{title}**")
        doc.add(fence(code + "\n# out.grad_fn tree:\n" + "\n".join(tree(out.grad_fn)), "python"))
    # node object basics
    r = run(
        "x = torch.ones(3, requires_grad=True)\ny = x * 2\n"
        "print(repr(y.grad_fn)[:15], type(y.grad_fn).__module__)\n"
        "acc = y.grad_fn.next_functions[0][0]\nprint(type(acc).__name__, acc.variable is x)\n"
        "print(y.grad_fn.name(), acc.name())\n"
        "print(y.grad_fn.next_functions[0][0] is y.grad_fn.next_functions[0][0])\n"
        "z = x * 3\nprint(z.grad_fn.next_functions[0][0] is acc)\n"
        "print(hasattr(y.grad_fn, 'metadata'), y.grad_fn.metadata)\n"
        "print(y.grad_fn._sequence_nr() if hasattr(y.grad_fn, '_sequence_nr') else 'no _sequence_nr')\n"
        "print(x.grad_fn, x.is_leaf, y.is_leaf, y.requires_grad)\n"
        "print(type(y.grad_fn).__mro__)\n"
    )
    doc.add("**Node object basics**")
    doc.add(fence(r["stdout"] + (f"[raises] {r['exc']}" if r["exc"] else ""), "text"))
    doc.add("Note: the AccumulateGrad node of a leaf is kept alive only while something references it "
            "(weakref in")
    doc.add("the leaf), so `x*2` and `x*3` created while the first graph is alive share one AccumulateGrad "
            "object.")
    doc.add()


# ----------------------------------------------------------------------------------------------
# (c) backward execution order
# ----------------------------------------------------------------------------------------------
def record_order(root: torch.Tensor, names: dict, grad=None, **kw) -> list[str]:
    """Register a prehook on every node reachable from root; return node labels in execution order."""
    order: list[str] = []
    label: dict[int, str] = {}
    count: dict[str, int] = {}
    handles = []
    stack = [root.grad_fn]
    seen = set()
    while stack:
        fn = stack.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        base = type(fn).__name__
        if base == "AccumulateGrad":
            lab = f"AccumulateGrad({names.get(id(fn.variable), '?')})"
        else:
            count[base] = count.get(base, 0) + 1
            lab = base
        label[id(fn)] = lab

        def hook(grad_outputs, _lab=lab):
            order.append(_lab)

        handles.append(fn.register_prehook(hook))
        stack.extend(f for f, _ in fn.next_functions)
    root.backward(grad, **kw)
    for h in handles:
        h.remove()
    return order


class _HeapItem:
    """Orders like PyTorch's ReadyQueue: higher priority first; equal priorities compare equal."""

    def __init__(self, prio, fn):
        self.prio, self.fn = prio, fn

    def __lt__(self, other):
        return self.prio > other.prio


def simulate_order(root: torch.Tensor, names: dict) -> list[str]:
    """The rule, implemented in Python: dependency counts + heapq keyed only by priority."""
    import heapq

    def prio(fn):
        return 2**64 - 1 if type(fn).__name__ == "AccumulateGrad" else fn._sequence_nr()

    def lab(fn):
        n = type(fn).__name__
        return f"AccumulateGrad({names.get(id(fn.variable), '?')})" if n == "AccumulateGrad" else n

    deps: dict[int, int] = {}
    stack, seen = [root.grad_fn], {id(root.grad_fn)}
    while stack:
        fn = stack.pop()
        for f, _ in fn.next_functions:
            if f is None:
                continue
            deps[id(f)] = deps.get(id(f), 0) + 1
            if id(f) not in seen:
                seen.add(id(f))
                stack.append(f)
    heap = [_HeapItem(prio(root.grad_fn), root.grad_fn)]
    order = []
    while heap:
        fn = heapq.heappop(heap).fn
        order.append(lab(fn))
        for f, _ in fn.next_functions:
            if f is None:
                continue
            deps[id(f)] -= 1
            if deps[id(f)] == 0:
                heapq.heappush(heap, _HeapItem(prio(f), f))
    return order


def seq_nrs(root) -> list[tuple[str, int]]:
    out, stack, seen = [], [root.grad_fn], set()
    while stack:
        fn = stack.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        out.append((type(fn).__name__, fn._sequence_nr()))
        stack.extend(f for f, _ in fn.next_functions)
    return sorted(out, key=lambda t: -t[1])


def section_c(doc: Doc) -> None:
    doc.add("## (c) Backward execution order")
    doc.add()
    doc.add("Recorded with `node.register_prehook` on every node reachable from the root (incl. "
            "AccumulateGrad).")
    doc.add("`seq` lists `(name, node._sequence_nr())` sorted descending; AccumulateGrad nodes have seq")
    doc.add("UINT64_MAX (18446744073709551615), so they always run as soon as they are ready.")
    doc.add()
    doc.add("**Rule (PyTorch engine, CPU, single thread):** count, for every node reachable from the root, "
            "how many")
    doc.add("edges point at it (dependencies). Start with the root node in a ready queue. Repeatedly pop "
            "the node")
    doc.add("with the highest priority, run it, then walk its `next_functions` *in order*: for each non-None")
    doc.add("target, add the gradient into its input buffer and decrement its dependency count; when it "
            "hits 0,")
    doc.add("push it. Priority = `_sequence_nr()` (a global counter incremented each time a node is "
            "created, so")
    doc.add("later-created = higher = runs first); AccumulateGrad = UINT64_MAX (runs as soon as all its "
            "grads are")
    doc.add("in). Ties (only among AccumulateGrad nodes) follow `std::priority_queue` (binary heap, "
            "libstdc++),")
    doc.add("which Python's `heapq` reproduces exactly when items compare only by priority (`__lt__` on "
            "priority,")
    doc.add("equal priorities compare equal). `simulate_order()` in the script implements this; the line")
    doc.add("`# rule predicts` below is its output, `# execution order` is measured with prehooks.")
    doc.add("With `autograd.grad(outputs, inputs)` (or `backward(inputs=...)`), only nodes on a path to the "
            "inputs")
    doc.add("run, and with autograd.grad the inputs' AccumulateGrad nodes do not run (the grad is captured).")
    doc.add()
    programs = [
        ("z = x**2 + 2*x*y + y**2 (0-d)",
         "x = torch.tensor(1., requires_grad=True)\ny = torch.tensor(2., requires_grad=True)\n"
         "root = x**2 + 2*x*y + y**2\nnames = {id(x): 'x', id(y): 'y'}"),
        ("vector program",
         "x = torch.tensor([[0.5],[0.25]], requires_grad=True)\ny = torch.zeros(3,1)\ny[0]=x[0]**2\n"
         "y[1]=x[1]**3\ny[2]=x[1]**4\nroot = y\nnames = {id(x): 'x'}\ngrad = torch.ones(y.size())"),
        ("(x*x + 3*x + 1).sum()",
         "x = torch.tensor([1., 2.], requires_grad=True)\nroot = (x*x + 3*x + 1).sum()\nnames = {id(x): "
         "'x'}"),
        ("(2*x + 3).pow(2).sum()",
         "x = torch.tensor([1., 2.], requires_grad=True)\nroot = (2*x + 3).pow(2).sum()\nnames = {id(x): "
         "'x'}"),
        ("a = x*y; b = a + x; c = b * a (diamond)",
         "x = torch.tensor(2., requires_grad=True)\ny = torch.tensor(3., requires_grad=True)\na = x*y\n"
         "b = a + x\nroot = b * a\nnames = {id(x): 'x', id(y): 'y'}"),
        ("two leaves created in reverse use order: y used first",
         "x = torch.tensor(2., requires_grad=True)\ny = torch.tensor(3., requires_grad=True)\n"
         "root = y.exp() + x.sin()\nnames = {id(x): 'x', id(y): 'y'}"),
        ("MLP step: Linear(2,3) -> ReLU -> Linear(3,1) -> mse_loss",
         "torch.manual_seed(0)\nl1 = nn.Linear(2, 3)\nl2 = nn.Linear(3, 1)\nX = torch.tensor([[1., 2.], "
         "[3., -1.]])\n"
         "T = torch.tensor([[1.], [0.]])\nroot = F.mse_loss(l2(F.relu(l1(X))), T)\n"
         "names = {id(l1.weight): 'l1.weight', id(l1.bias): 'l1.bias', id(l2.weight): 'l2.weight', "
         "id(l2.bias): 'l2.bias'}"),
        ("manual MLP with matmul (1-d input)",
         "W1 = torch.ones(3, 2, requires_grad=True)\nb1 = torch.zeros(3, requires_grad=True)\n"
         "W2 = torch.ones(1, 3, requires_grad=True)\nxin = torch.tensor([1., 2.])\n"
         "h = (W1 @ xin + b1).tanh()\nroot = ((W2 @ h) ** 2).sum()\n"
         "names = {id(W1): 'W1', id(b1): 'b1', id(W2): 'W2'}"),
        ("long chain with a late short branch: x.exp().exp().exp() + x*2",
         "x = torch.tensor(0.5, requires_grad=True)\nroot = x.exp().exp().exp() + x*2\nnames = {id(x): 'x'}"),
        ("short branch first: x*2 + x.exp().exp().exp()",
         "x = torch.tensor(0.5, requires_grad=True)\nroot = x*2 + x.exp().exp().exp()\nnames = {id(x): 'x'}"),
        ("branches created interleaved: a = x.exp(); b = y.sin(); c = a.cos(); d = b.tanh(); root = c + d",
         "x = torch.tensor(0.5, requires_grad=True)\ny = torch.tensor(0.3, requires_grad=True)\n"
         "a = x.exp()\nb = y.sin()\nc = a.cos()\nd = b.tanh()\nroot = c + d\nnames = {id(x): 'x', id(y): "
         "'y'}"),
        ("five leaves into one node (tie-breaking among AccumulateGrad)",
         "a, b, c, d, e = (torch.tensor(float(i), requires_grad=True) for i in range(5))\n"
         "root = torch.stack([a, b, c, d, e]).sum()\n"
         "names = {id(a): 'a', id(b): 'b', id(c): 'c', id(d): 'd', id(e): 'e'}"),
        ("leaves becoming ready at the same time from different nodes",
         "a, b, c, d = (torch.tensor(float(i + 1), requires_grad=True) for i in range(4))\n"
         "root = (a * b) * (c * d)\nnames = {id(a): 'a', id(b): 'b', id(c): 'c', id(d): 'd'}"),
        ("seven leaves into cat",
         "ls = [torch.ones(1, requires_grad=True) for i in range(7)]\nroot = torch.cat(ls).sum()\n"
         "names = {id(t): f'l{i}' for i, t in enumerate(ls)}"),
        ("in-place ops: a = x*2; a.add_(1); a.mul_(x); root = a.sum()",
         "x = torch.tensor([1., 2.], requires_grad=True)\na = x * 2\na.add_(1)\na.mul_(x)\nroot = a.sum()\n"
         "names = {id(x): 'x'}"),
    ]
    for title, code in programs:
        env = fresh_env()
        exec(code, env)
        grad = env.get("grad")
        seq = seq_nrs(env["root"])
        predicted = simulate_order(env["root"], env["names"])
        order = record_order(env["root"], env["names"], grad)
        doc.add(f"**{title}**")
        body = code + "\n# execution order:\n# " + " -> ".join(order)
        body += "\n# rule predicts: " + ("same" if predicted == order else " -> ".join(predicted))
        body += "\n# seq (desc): " + ", ".join(f"{n}:{s if s < 2**63 else 'MAX'}" for n, s in seq)
        doc.add(fence(body, "python"))
    # relative timing of tensor hooks, node prehooks and accumulate grad
    r = run(
        "x = torch.tensor([1., 2.], requires_grad=True)\nlog = []\n"
        "y = x * 3\nz = y.exp()\nroot = z.sum()\n"
        "x.register_hook(lambda g: log.append(('x tensor hook', g.tolist())))\n"
        "y.register_hook(lambda g: log.append(('y tensor hook', g.tolist())))\n"
        "y.retain_grad()\n"
        "y.register_hook(lambda g: log.append(('y tensor hook 2 (after retain_grad)', g.tolist())))\n"
        "z.grad_fn.register_prehook(lambda go: log.append(('ExpBackward0 prehook', None)))\n"
        "z.grad_fn.register_hook(lambda gi, go: log.append(('ExpBackward0 posthook', None)))\n"
        "y.grad_fn.register_prehook(lambda go: log.append(('MulBackward0 prehook', None)))\n"
        "acc = y.grad_fn.next_functions[0][0]\n"
        "acc.register_prehook(lambda go: log.append(('AccumulateGrad prehook', None)))\n"
        "acc.register_hook(lambda gi, go: log.append(('AccumulateGrad posthook', x.grad.tolist())))\n"
        "x.register_post_accumulate_grad_hook(lambda t: log.append(('x post-accumulate hook', "
        "t.grad.tolist())))\n"
        "root.backward()\nfor e in log: print(e)\nprint('y.grad', y.grad)\n"
    )
    doc.add("**Hook timing on one path (tensor hooks vs node hooks vs retain_grad)**")
    doc.add(fence(r["stdout"] + (f"[raises] {r['exc']}" if r["exc"] else ""), "text"))
    doc.add()


# ----------------------------------------------------------------------------------------------
# (d) saved tensors
# ----------------------------------------------------------------------------------------------
D_CASES = [
    "x * y", "x * 2", "x * c", "c * x", "x / y", "x / 2", "x / c", "c / x", "2 / x", "x ** 2", "x ** 0.5",
    "x ** y", "2 ** x", "x ** s", "c ** x", "x.exp()", "x.log()", "x.sin()", "x.cos()", "x.tanh()",
    "x.sigmoid()", "x.relu()", "x.sqrt()", "x.abs()", "x.neg()", "x + y", "x - y", "x.sum()", "m.sum(1)",
    "x.mean()", "m.mean(0)", "x.max()", "m.max(1)[0]", "m @ w", "x @ y", "m @ x", "x.clamp(0, 2)",
    "x.clamp(min=0)", "torch.where(mask, x, y)", "torch.stack([x, y])", "torch.cat([x, y])", "x[0]",
    "x[1:]", "x[idx]", "x[mask]", "x.reshape(3, 1)", "x.view(3, 1)", "m.t()", "m.permute(1, 0)",
    "x.expand(2, 3)", "x.unsqueeze(0)", "F.softmax(m, 1)", "F.log_softmax(m, 1)", "F.mse_loss(x, y)",
    "F.cross_entropy(logits, target)", "x.square()", "torch.max(x, y)", "m.max(dim=1)[0]",
]


def saved_summary(fn) -> str:
    parts = []
    for a in sorted(dir(fn)):
        if not a.startswith("_saved_"):
            continue
        try:
            v = getattr(fn, a)
        except Exception as ex:  # noqa: BLE001
            parts.append(f"{a[7:]}=<{type(ex).__name__}>")
            continue
        if isinstance(v, torch.Tensor):
            parts.append(f"{a[7:]}=T{list(v.shape)}")
        elif v is None:
            parts.append(f"{a[7:]}=None")
        else:
            parts.append(f"{a[7:]}={v!r}")
    return ", ".join(parts) if parts else "(nothing)"


def section_d(doc: Doc) -> None:
    doc.add("## (d) Saved tensors per node (`grad_fn._saved_*`)")
    doc.add()
    doc.add("Same setup as (b) (x, y, s, m, w require grad; c, idx, mask, target do not). `T[shape]` = a "
            "saved")
    doc.add("tensor; `None` = attribute exists but nothing saved (conditional save: input not needing grad);")
    doc.add("scalars show their Python value. Column 2: x requires grad, the other operand a constant")
    doc.add("(`y`/`m`/`w` replaced by constants with requires_grad=False).")
    doc.add()
    doc.add("| expression | saved (all require grad) | saved (only x/first requires grad) |")
    doc.add("|---|---|---|")
    for e in D_CASES:
        cells = []
        for only_x in (False, True):
            env = fresh_env()
            exec(B_SETUP, env)
            if only_x:
                for k in ("y", "s", "w", "logits"):
                    env[k] = env[k].detach()
                if e.startswith(("m ", "m.", "F.softmax(m", "F.log_softmax(m")):
                    pass
            try:
                v = eval(e, env)
                if isinstance(v, tuple):
                    v = v[0]
                cells.append(saved_summary(v.grad_fn) if v.grad_fn is not None else "no grad_fn")
            except Exception as ex:  # noqa: BLE001
                cells.append(f"raises {type(ex).__name__}")
        doc.add(f"| `{e}` | {cells[0]} | {cells[1]} |")
    doc.add()
    r = run(
        "x = torch.ones(3, requires_grad=True)\ny = x * 2\nprint(type(y.grad_fn._saved_other), "
        "y.grad_fn._saved_other)\n"
        "print(repr(y.grad_fn._saved_self))\n"
        "z = x.exp()\nprint(z.grad_fn._saved_result is z, z.grad_fn._saved_result.equal(z))\n"
        "p = x * x\nprint(p.grad_fn._saved_self is x)\n"
        "q = x.tanh(); q2 = q * 1; print(q.grad_fn._raw_saved_result)\n"
        "c = torch.ones(3)\nk = x * c\nprint('x*c saved self:', k.grad_fn._saved_self, "
        "'saved other:', k.grad_fn._saved_other)\n"
    )
    doc.add("**Saved-value details**")
    doc.add(fence(r["stdout"] + (f"[raises] {r['exc']}" if r["exc"] else ""), "text"))
    r = run(
        "x = torch.ones(3, requires_grad=True)\ny = x * x\ny.sum().backward(retain_graph=True)\n"
        "print(y.grad_fn._saved_self)\ny.sum().backward()\ntry:\n    y.grad_fn._saved_self\n"
        "except RuntimeError as e:\n    print('RuntimeError:', e)\n"
    )
    doc.add("**Saved tensors after backward (retain_graph then not)**")
    doc.add(fence(r["stdout"] + (f"[raises] {r['exc']}" if r["exc"] else ""), "text"))
    doc.add()


# ----------------------------------------------------------------------------------------------
# (e) printing
# ----------------------------------------------------------------------------------------------
E_CASES = [
    "torch.tensor(3.)", "torch.tensor(3.5)", "torch.tensor(-0.)", "torch.tensor(2)", "torch.tensor(True)",
    "torch.tensor([1., 2., 3.])", "torch.tensor([1.5, 2.25, -3.])", "torch.tensor([0.1, 0.2, 0.3])",
    "torch.tensor([1, 2, 3])", "torch.tensor([True, False])", "torch.tensor([1., 2.], dtype=torch.float64)",
    "torch.tensor([1.5], dtype=torch.float64)", "torch.tensor(2., dtype=torch.float64)",
    "torch.tensor([1, 2], dtype=torch.int32)", "torch.tensor([[1., 2.], [3., 4.]])",
    "torch.tensor([[1, 2], [3, 4]])", "torch.arange(24.).reshape(2, 3, 4)", "torch.zeros(2, 1, 2)",
    "torch.tensor([1e10, 1.])", "torch.tensor([1e-10, 1.])", "torch.tensor([123456.7, 1.])",
    "torch.tensor([1e5, 1.])", "torch.tensor([1e-4, 1.])", "torch.tensor([0.0001])", "torch.tensor([1e8])",
    "torch.tensor([100000000.5])", "torch.tensor([1e-5, 1e5])", "torch.tensor([3.14159265])",
    "torch.tensor([float('nan'), 1., float('inf'), -float('inf')])", "torch.tensor([float('nan')])",
    "torch.tensor([1., 2.5, float('inf')])", "torch.tensor([1e20, float('nan')])", "torch.tensor([0.])",
    "torch.tensor([-1., 1.])", "torch.tensor([1.0000001])", "torch.tensor([0.5, 0.25, 0.125])",
    "torch.arange(2000.)", "torch.arange(1001)", "torch.arange(1000.)", "torch.ones(40, 40)",
    "torch.arange(12.).reshape(3, 4) / 7", "torch.zeros(0)", "torch.zeros(2, 0)", "torch.ones(0, "
        "dtype=torch.int64)",
    "torch.ones(3, requires_grad=True)", "torch.tensor(2., requires_grad=True)",
    "torch.ones(3, requires_grad=True) * 2", "torch.tensor(2., requires_grad=True) ** 2",
    "torch.ones(3, requires_grad=True).sum()", "torch.ones(2, 2, requires_grad=True) + 1",
    "torch.arange(30.).reshape(3, 10).requires_grad_() * 1.5",
    "torch.arange(12.).reshape(3, 4).requires_grad_() @ torch.ones(4, 20)",
    "torch.ones(3, requires_grad=True, dtype=torch.float64) * 2", "torch.ones(3, dtype=torch.float64, "
        "requires_grad=True)",
    "nn.Parameter(torch.ones(2))", "nn.Parameter(torch.tensor([[1., 2.], [3., 4.]]))",
    "nn.Parameter(torch.ones(2, dtype=torch.float64))", "torch.Size([2, 3])", "torch.Size([])",
    "torch.ones(2, 3).shape", "torch.ones(2, 3).size()", "torch.ones(2, 3).size(1)", "torch.ones(3).dtype",
    "torch.float64", "torch.int64", "torch.bool", "torch.ones(3).device",
    "(torch.ones(2, requires_grad=True) * 2).detach()", "torch.randn(3).requires_grad",
    "torch.tensor([1., 2.]).tolist()", "torch.tensor(2.5).item()", "torch.tensor(3).item()",
    "torch.tensor([0.1 + 0.2])", "torch.tensor([2.]) / 3", "torch.tensor([[1e-3, 5.], [6., 7.]])",
    "torch.tensor([1e-3, 1e3])", "torch.tensor([1e-5, "
                                 "1e3])", "torch.tensor([12345678.])", "torch.tensor([1e16])",
    "torch.linspace(0, 1, 5)", "torch.tensor([10., 100., 1000.])", "torch.tensor([-5, 10, 100])",
    "torch.tensor([[[1.]]])", "torch.ones(3, 1)", "torch.tensor(1.) / 3",
    "torch.nn.Linear(2, 3)", "torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), "
                             "torch.nn.Linear(3, 1))",
    "torch.nn.MSELoss()", "torch.nn.Tanh()", "torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)",
    "torch.optim.Adam([torch.ones(1, requires_grad=True)], lr=0.1)", "torch.no_grad()",
]


def section_e(doc: Doc) -> None:
    doc.add("## (e) Printing (`print(repr(v))`, i.e. what `print(v)` shows for tensors)")
    doc.add()
    for e in E_CASES:
        env = fresh_env()
        try:
            v = eval(e, env)
            text = repr(v)
        except Exception as ex:  # noqa: BLE001
            text = f"[raises] {type(ex).__name__}: {ex}"
        doc.add(fence(f">>> {e}\n{text}", "text"))
    r = run(
        "x = torch.ones(2, requires_grad=True)\ny = x * 2\nprint(repr(y.grad_fn))\nprint(y.grad_fn)\n"
        "print(y.grad_fn.next_functions)\ny.sum().backward()\nprint(x.grad)\nprint(str(x) == repr(x))\n"
        "print(f'{x}')\nprint('{:.2f}'.format(torch.tensor(1.2345).item()))\n"
        "print(torch.tensor(1.2345).__format__('.2f'))\n"
        "print([torch.tensor(1.), torch.tensor(2.)])\nprint((torch.tensor(1.), None))\n"
        "print(x.shape, x.dtype, x.requires_grad, x.is_leaf, y.is_leaf)\n"
        "print(x.size(), tuple(x.shape), list(x.shape), x.dim(), x.ndim, x.numel())\n"
        "print(torch.tensor(2.5).item(), type(torch.tensor(2.5).item()))\n"
        "print(torch.tensor(0.1).item())\n"
    )
    doc.add("**grad_fn reprs, print(x.grad), format**")
    doc.add(fence(re.sub(r"0x[0-9a-f]+", "0x…", r["stdout"]) + (f"[raises] {r['exc']}" if r["exc"] else ""),
                  "text"))
    doc.add("(addresses replaced by `0x…`; real form `<MulBackward0 object at 0x7f3a2c1b2d30>`)")
    doc.add()


# ----------------------------------------------------------------------------------------------
# (f) .grad behaviours
# ----------------------------------------------------------------------------------------------
F_CASES = [
    ("accumulation is in place (same object)",
     "x = torch.ones(2, requires_grad=True)\n(x*2).sum().backward()\ng = x.grad\ngid = id(g)\n"
     "(x*3).sum().backward()\nprint(x.grad, id(x.grad) == gid, g is x.grad)"),
    ("grad after zero_() then backward: same object",
     "x = torch.ones(2, requires_grad=True)\n(x*2).sum().backward()\ng = x.grad\nx.grad.zero_()\n"
     "print(x.grad)\n(x*3).sum().backward()\nprint(x.grad, g is x.grad)"),
    ("grad after x.grad = None then backward: new object",
     "x = torch.ones(2, requires_grad=True)\n(x*2).sum().backward()\ng = x.grad\nx.grad = None\n"
     "(x*3).sum().backward()\nprint(x.grad, g is x.grad)"),
    ("first grad is not the incoming gradient object (stolen or cloned?)",
     "x = torch.ones(2, requires_grad=True)\ngo = torch.ones(2)\nx.backward(go)\nprint(x.grad is go, "
     "x.grad)"),
    ("grad requires_grad / grad_fn",
     "x = torch.ones(2, requires_grad=True)\n(x*2).sum().backward()\nprint(x.grad.requires_grad, "
     "x.grad.grad_fn, "
     "x.grad.is_leaf)"),
    ("grad with create_graph=True has grad_fn",
     "x = torch.ones(2, requires_grad=True)\n(x**3).sum().backward(create_graph=True)\nprint(x.grad)"),
    ("tensor hook on leaf runs before accumulation; may replace grad",
     "x = torch.ones(2, requires_grad=True)\nx.register_hook(lambda g: print('hook sees', g, 'x.grad', "
     "x.grad) "
     "or g * 10)\n(x*2).sum().backward()\nprint(x.grad)"),
    ("multiple hooks: registration order, chained",
     "x = torch.ones(2, requires_grad=True)\nx.register_hook(lambda g: print('h1', g) or g + 1)\n"
     "x.register_hook(lambda g: print('h2', g) or g * 2)\n(x*2).sum().backward()\nprint(x.grad)"),
    ("retain_grad vs user hooks on non-leaf (retain_grad registered between hooks)",
     "x = torch.ones(2, requires_grad=True)\ny = x * 2\ny.register_hook(lambda g: g + 1)\ny.retain_grad()\n"
     "y.register_hook(lambda g: g * 100)\ny.sum().backward()\nprint('y.grad', y.grad)\nprint('x.grad', "
     "x.grad)"),
    ("retain_grad accumulates across backward calls",
     "x = torch.ones(2, requires_grad=True)\ny = x * 2\ny.retain_grad()\n"
     "y.sum().backward(retain_graph=True)\n"
     "y.sum().backward()\nprint(y.grad)"),
    ("hook handle remove",
     "x = torch.ones(2, requires_grad=True)\nh = x.register_hook(lambda g: g * 0)\nh.remove()\n"
     "(x*2).sum().backward()\nprint(x.grad)"),
    ("autograd.grad leaves .grad alone (even with earlier grads)",
     "x = torch.ones(2, requires_grad=True)\n(x*2).sum().backward()\ny = (x*x).sum()\n"
     "print(torch.autograd.grad(y, x))\nprint(x.grad)"),
    ("autograd.grad does run tensor hooks on inputs",
     "x = torch.ones(2, requires_grad=True)\nx.register_hook(lambda g: print('hook', g) or g * 3)\n"
     "print(torch.autograd.grad((x*2).sum(), x))"),
    ("autograd.grad of intermediate",
     "x = torch.ones(2, requires_grad=True)\ny = x * 3\nz = (y * y).sum()\nprint(torch.autograd.grad(z, y))"),
    ("second derivative via create_graph",
     "x = torch.tensor(3., requires_grad=True)\ny = x ** 3\n(g,) = torch.autograd.grad(y, x, "
     "create_graph=True)\n"
     "print(g)\n(g2,) = torch.autograd.grad(g, x)\nprint(g2)\nprint(x.grad)"),
    ("backward with inputs=",
     "x = torch.ones(2, requires_grad=True)\nw = torch.ones(2, requires_grad=True)\n"
     "(x*w).sum().backward(inputs=[w])\nprint(x.grad, w.grad)"),
    ("relu'(0)", "x = torch.tensor([-1., 0., 1.], requires_grad=True)\nx.relu().sum().backward()\n"
                 "print(x.grad)"),
    ("abs'(0)", "x = torch.tensor([-1., 0., 1.], requires_grad=True)\nx.abs().sum().backward()\n"
                "print(x.grad)"),
    ("sqrt at 0", "x = torch.tensor([0., 4.], requires_grad=True)\nx.sqrt().sum().backward()\nprint(x.grad)"),
    ("x**0.5 at 0", "x = torch.tensor([0., 4.], requires_grad=True)\n(x**0.5).sum().backward()\n"
                    "print(x.grad)"),
    ("x**2 at 0 and x**0 grad",
     "x = torch.tensor([0., 2.], requires_grad=True)\n(x**2 + x**0).sum().backward()\nprint(x.grad)"),
    ("x**y at x=0 (grad wrt y: log(0))",
     "x = torch.tensor([0., 2.], requires_grad=True)\ny = torch.tensor([2., 3.], requires_grad=True)\n"
     "(x**y).sum().backward()\nprint(x.grad, y.grad)"),
    ("2**x grad", "x = torch.tensor([0., 1.], requires_grad=True)\n(2**x).sum().backward()\nprint(x.grad)"),
    ("0**x grad (base 0)", "x = torch.tensor([0., 1.], requires_grad=True)\n(0**x).sum().backward()\n"
                           "print(x.grad)"),
    ("log at 0", "x = torch.tensor([0., 1.], requires_grad=True)\nx.log().sum().backward()\nprint(x.grad)"),
    ("1/x at 0", "x = torch.tensor([0., 1.], requires_grad=True)\n(1/x).sum().backward()\nprint(x.grad)"),
    ("max (all) ties: grad split evenly",
     "x = torch.tensor([1., 3., 3., 2.], requires_grad=True)\nx.max().backward()\nprint(x.grad)"),
    ("min (all) ties",
     "x = torch.tensor([1., 1., 3., 1.], requires_grad=True)\nx.min().backward()\nprint(x.grad)"),
    ("max(dim) ties: only to the returned index",
     "x = torch.tensor([[1., 3., 3.], [2., 2., 0.]], requires_grad=True)\nv, i = x.max(dim=1)\nprint(v, i)\n"
     "v.sum().backward()\nprint(x.grad)"),
    ("min(dim) ties",
     "x = torch.tensor([[1., 1., 3.], [0., 2., 0.]], requires_grad=True)\nv, i = x.min(dim=1)\nprint(i)\n"
     "v.sum().backward()\nprint(x.grad)"),
    ("max with nan",
     "x = torch.tensor([1., float('nan'), 3.], requires_grad=True)\nprint(x.max())\nx.max().backward()\n"
     "print(x.grad)"),
    ("torch.max(x, y) ties (elementwise): split 0.5",
     "x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = torch.tensor([1., 5., 0.], "
     "requires_grad=True)\n"
     "torch.max(x, y).sum().backward()\nprint(x.grad, y.grad)"),
    ("clamp at boundary (min=0, max=1 at x = 0 and 1)",
     "x = torch.tensor([-1., 0., 0.5, 1., 2.], requires_grad=True)\nx.clamp(0, 1).sum().backward()\n"
     "print(x.grad)"),
    ("clamp(min=) at boundary",
     "x = torch.tensor([-1., 0., 1.], requires_grad=True)\nx.clamp(min=0).sum().backward()\nprint(x.grad)"),
    ("where grad",
     "x = torch.tensor([1., 2.], requires_grad=True)\ny = torch.tensor([3., 4.], requires_grad=True)\n"
     "torch.where(torch.tensor([True, False]), x, y).sum().backward()\nprint(x.grad, y.grad)"),
    ("sigmoid/tanh grads", "x = torch.tensor([0., 1.], requires_grad=True)\n(x.sigmoid() + "
                           "x.tanh()).sum().backward()\n"
     "print(x.grad)"),
    ("broadcast reduce grads",
     "a = torch.ones(2, 3, requires_grad=True)\nb = torch.tensor([1., 2., 3.], requires_grad=True)\n"
     "s = torch.tensor(2., requires_grad=True)\n(a * b * s).sum().backward()\nprint(a.grad, b.grad, s.grad)"),
    ("gradient of indexing with repeated index accumulates",
     "x = torch.tensor([1., 2., 3.], requires_grad=True)\nx[torch.tensor([0, 0, 2])].sum().backward()\n"
     "print(x.grad)"),
    ("grad of softmax/cross_entropy",
     "z = torch.tensor([[1., 2., 0.5]], requires_grad=True)\nF.cross_entropy(z, "
     "torch.tensor([1])).backward()\n"
     "print(z.grad)"),
    ("x.grad after x.grad.zero_()",
     "x = torch.ones(2, requires_grad=True)\n(x*2).sum().backward()\nx.grad.zero_()\nprint(x.grad)"),
    ("accumulation over two backward calls (micrograd would print 72 the second time)",
     "x = torch.tensor(4., requires_grad=True)\ny = x ** 2\nz = 3 * y\nz.backward(retain_graph=True)\n"
     "print(x.grad)\nz.backward()\nprint(x.grad)"),
    ("two different graphs accumulate",
     "x = torch.tensor(3., requires_grad=True)\n(x * x * x).backward()\nprint(x.grad)\n(x ** 3).backward()\n"
     "print(x.grad)"),
    ("detach shares storage",
     "x = torch.ones(2, requires_grad=True)\nd = x.detach()\nd[0] = 5\nprint(x)"),
    ("no_grad result", "x = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    y = x * 2\n"
     "print(y, y.requires_grad, y.grad_fn)"),
    ("is_grad_enabled / set_grad_enabled",
     "print(torch.is_grad_enabled())\nwith torch.set_grad_enabled(False):\n    "
     "print(torch.is_grad_enabled())\n"
     "torch.set_grad_enabled(False)\nprint(torch.is_grad_enabled())\ntorch.set_grad_enabled(True)"),
    ("no_grad as decorator",
     "@torch.no_grad()\ndef f(x):\n    return x * 2\nprint(f(torch.ones(1, "
     "requires_grad=True)).requires_grad)"),
    ("optimizer SGD momentum two steps",
     "p = torch.tensor([1., 2.], requires_grad=True)\nopt = torch.optim.SGD([p], lr=0.1, momentum=0.9)\n"
     "for _ in range(2):\n    opt.zero_grad()\n    (p ** 2).sum().backward()\n    opt.step()\n    print(p)\n"
     "print(p.grad)"),
    ("optimizer Adam two steps",
     "p = torch.tensor([1., 2.], requires_grad=True)\nopt = torch.optim.Adam([p], lr=0.1)\n"
     "for _ in range(2):\n    opt.zero_grad()\n    (p ** 2).sum().backward()\n    opt.step()\n    print(p)"),
    ("optimizer step skips params with grad None",
     "p = torch.tensor([1.], requires_grad=True)\nq = torch.tensor([1.], requires_grad=True)\n"
     "opt = torch.optim.SGD([p, q], lr=0.1)\n(p * 2).sum().backward()\nopt.step()\nprint(p, q)"),
    ("opt.zero_grad() default sets None",
     "p = torch.tensor([1.], requires_grad=True)\nopt = torch.optim.SGD([p], lr=0.1)\n"
     "(p*2).sum().backward()\n"
     "opt.zero_grad()\nprint(p.grad)\n(p*2).sum().backward()\nopt.zero_grad(set_to_none=False)\n"
     "print(p.grad)"),
    ("param after optimizer step: still leaf, version bump",
     "p = torch.tensor([1.], requires_grad=True)\nopt = torch.optim.SGD([p], lr=0.1)\nprint(p._version)\n"
     "(p*2).sum().backward()\nopt.step()\nprint(p, p.is_leaf, p._version)"),
    ("_version counter",
     "x = torch.ones(2)\nprint(x._version)\nx.add_(1)\nx[0] = 3\nprint(x._version)\nv = x[:1]\nv.mul_(2)\n"
     "print(x._version, v._version)"),
]


def section_f(doc: Doc) -> None:
    doc.add("## (f) .grad behaviours")
    doc.add()
    for title, code in F_CASES:
        show_case(doc, title, code)
    doc.add()


# ----------------------------------------------------------------------------------------------
# (g) float32 numerics
# ----------------------------------------------------------------------------------------------
def _f64(fn):
    return lambda a: fn(a.astype("float64")).astype("float32")


def section_g(doc: Doc) -> None:
    import numpy as np

    f32 = np.float32
    rng = np.random.default_rng(1234)
    x = (rng.standard_normal(3000) * 2.5).astype(f32)
    xp = (np.abs(x) + f32(1e-2)).astype(f32)
    e64 = _f64(np.exp)
    l64 = _f64(np.log)
    cases = [
        ("exp", torch.exp, np.exp, _f64(np.exp), x),
        ("log", torch.log, np.log, _f64(np.log), xp),
        ("sin", torch.sin, np.sin, _f64(np.sin), x),
        ("cos", torch.cos, np.cos, _f64(np.cos), x),
        ("tanh", torch.tanh, np.tanh, _f64(np.tanh), x),
        ("sqrt", torch.sqrt, np.sqrt, _f64(np.sqrt), xp),
        ("x ** 2.5", lambda t: t ** 2.5, lambda a: a ** f32(2.5), _f64(lambda a: a ** 2.5), xp),
        ("2 ** x", lambda t: 2 ** t, lambda a: f32(2) ** a, _f64(lambda a: 2.0 ** a), x),
        ("sigmoid", torch.sigmoid, lambda a: f32(1) / (f32(1) + np.exp(-a)),
         lambda a: f32(1) / (f32(1) + e64(-a)), x),
        ("softmax (dim of 3)", lambda t: torch.softmax(t, 0), lambda a: np.exp(a - a.max()) / np.exp(
            a - a.max()).sum(), lambda a: e64(a - a.max()) * (f32(1) / e64(a - a.max()).sum(dtype=f32)), x),
        ("log_softmax (dim of 3)", lambda t: torch.log_softmax(t, 0),
         lambda a: a - a.max() - np.log(np.exp(a - a.max()).sum()),
         lambda a: (a - a.max()) - l64(e64(a - a.max()).sum(dtype=f32)), x),
    ]
    doc.add("## (g) float32 numerics: how often numpy reproduces torch's bits")
    doc.add()
    doc.add("3000 values (x ~ N(0, 2.5²), positive ops use |x|+0.01), in tensors of 3 elements (torch's scalar")
    doc.add("kernel path, < 8 elements) and in one tensor of 3000 (vectorized SLEEF path). Columns: fraction of")
    doc.add("values whose float32 bits differ from torch. `numpy f32` = numpy's float32 kernel; `f64 then round` =")
    doc.add("compute in float64, round once to float32 (for sigmoid: `1/(1+exp(-x))` in float32 with that exp; for")
    doc.add("softmax: `exp(x-max) * (1/sum)`; for log_softmax: `(x-max) - log(sum(exp(x-max)))`).")
    doc.add("Also: Adam/SGD use `lerp_`/`addcmul_`, which torch compiles with fused multiply-add:")
    doc.add("`lerp: fma(w, end-self, self)` (w<0.5), `addcmul: fma(value*t1, t2, self)`; emulate as float64")
    doc.add("product+sum rounded once. With that, Adam matches torch bit for bit on tensors of < 8 elements.")
    doc.add("These rates hold for the CPU they were measured on: torch's float32 bits differ between CPUs (on an")
    doc.add("AMD EPYC with AVX2, torch's sqrt and tan differ from the correctly rounded value in ~18% of values).")
    doc.add("The tests gate on an ulp per rounding step; `benchmarks/numerics.py` prints this machine's rates.")
    doc.add()
    doc.add("| op | numpy f32 (3-elem) | f64 then round (3-elem) | numpy f32 (3000) | f64 then round (3000) |")
    doc.add("|---|---|---|---|---|")
    for name, tfn, n32, n64, arr in cases:
        small = np.concatenate([tfn(torch.tensor(arr[i:i + 3])).numpy() for i in range(0, len(arr), 3)])
        big = tfn(torch.tensor(arr)).numpy()
        is_vec = name.startswith(("softmax", "log_softmax"))
        s32 = np.concatenate([n32(arr[i:i + 3]) for i in range(0, len(arr), 3)]).astype(f32)
        s64 = np.concatenate([n64(arr[i:i + 3]) for i in range(0, len(arr), 3)]).astype(f32)
        row = [np.mean(small != s32), np.mean(small != s64)]
        if is_vec:
            row += [float("nan"), float("nan")]
        else:
            row += [np.mean(big != n32(arr).astype(f32)), np.mean(big != n64(arr).astype(f32))]
        doc.add(f"| {name} | " + " | ".join("-" if v != v else f"{v:.1%}" for v in row) + " |")
    doc.add()


HIGHLIGHTS = """
## Highlights (details and the measurements below)
- Reflected scalars: `2 - x` → RsubBackward1 (one next fn); `2 / x` → MulBackward0 over ReciprocalBackward0;
  `2 ** x` → PowBackward2; `x ** y` (tensor) → PowBackward1; `x ** 2`, `x.square()` → PowBackward0;
  `c / x` (c constant tensor) → DivBackward0 with next_functions `((None, 0), (<AccumulateGrad>, 0))`.
- matmul: 1d·1d DotBackward0; 2d@2d MmBackward0; 2d@1d MvBackward0; 1d@2d SqueezeBackward4 over MmBackward0;
  3d@2d UnsafeViewBackward0 over MmBackward0. nn.Linear on 2-d input: AddmmBackward0
  `((<AccumulateGrad bias>, 0), (input or None, 0), (<TBackward0>, 0))`; on 1-d or 3-d input: ViewBackward0 over
  AddmmBackward0; bias=False: MmBackward0 (2-d) / SqueezeBackward4 over MmBackward0 (1-d).
- Indexing: int → SelectBackward0 (`m[0, 1]` = two SelectBackward0), slice → SliceBackward0, None →
  UnsqueezeBackward0, `x[...]` → AliasBackward0, int/bool tensor → IndexBackward0. Setitem with int/slice →
  CopySlices `((base or None, 0), (value's fn, 0))`; with a bool mask or index tensor → IndexPutBackward0.
  A view whose base was later modified in place reports AsStridedBackward0.
- `reshape`/`flatten` of contiguous → ViewBackward0; `m.T` → PermuteBackward0, `m.t()` → TBackward0;
  `x.float()`/`x.contiguous()` on an already-float/contiguous tensor return x itself (no new grad_fn);
  `m.t().contiguous()` → CloneBackward0. `x.clamp(min=tensor)` → ClampBackward0 (3 next fns), scalar bounds →
  ClampBackward1. cross_entropy → NllLossBackward0 over LogSoftmaxBackward0.
- Backward order: ready queue by `_sequence_nr` (most recently created node first), AccumulateGrad has top
  priority (runs as soon as its grads are complete); ties (several AccumulateGrad ready) follow the binary heap
  of std::priority_queue, which `heapq` with priority-only comparison reproduces (5 leaves → a, c, e, b, d).
- In-place op error on a saved tensor names the producer as `type(fn).__name__` minus "Backward":
  "output 0 of Clamp1" (ClampBackward1), "output 0 of torch::autograd::CopySlices" for CopySlices.
- `y.requires_grad = True` on a non-leaf raises (short message, no detach hint); `= False` raises the long one.
- TORCH_WARN_ONCE (once per process): `backward(create_graph=True)` reference-cycle warning, `float()` of a
  tensor requiring grad, `.T` on non-2-d. Every other warning is per call; under plain `python prog.py`
  Python's default filter shows a UserWarning once per source line (location = the learner's line).
- float32: compute transcendental ops in float64 and round once (matches torch for > 99% of values on small
  tensors); Adam's `lerp_`/`addcmul_` use fused multiply-add (see (g)). Signed zeros: `relu(-0.)`,
  `clamp(-0., min=0)`, `maximum(-0., 0.)`, `minimum(-0., 0.)` all give `-0.` (torch picks `a` unless `b` wins
  strictly).
"""


SECTIONS = {"a": section_a, "b": section_b, "c": section_c, "d": section_d, "e": section_e, "f": section_f,
            "g": section_g}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "docs" / "torch-facts.md"))
    ap.add_argument("--sections", default="abcdefg")
    args = ap.parse_args(argv)
    doc = Doc(Path(args.out))
    doc.add("# Facts about PyTorch " + torch.__version__.split("+")[0] + " (measured)")
    doc.add()
    doc.add("Generated by `tests/oracle/collect_facts.py` (run it with `.venv-torch/bin/python`); do not "
            "edit by")
    doc.add(f"hand. Python {sys.version.split()[0]}, numpy {__import__('numpy').__version__}, torch "
            f"{torch.__version__}. Only object addresses vary between runs.")
    doc.add()
    doc.add(HIGHLIGHTS.strip())
    doc.add()
    for key in args.sections:
        try:
            SECTIONS[key](doc)
        except Exception:  # noqa: BLE001
            doc.add(fence(traceback.format_exc(), "text"))
        doc.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
