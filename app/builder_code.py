"""The PyTorch line each visual-builder action writes into the program."""

from __future__ import annotations

import keyword
import re

BINARY = {"+": "{a} + {b}", "−": "{a} - {b}", "×": "{a} * {b}", "÷": "{a} / {b}", "pow": "{a} ** {b}",
          "matmul": "{a} @ {b}"}
UNARY = {"exp": "{a}.exp()", "log": "{a}.log()", "tanh": "{a}.tanh()", "sigmoid": "{a}.sigmoid()",
         "relu": "{a}.relu()", "sum": "{a}.sum()", "mean": "{a}.mean()"}
INDEX_ASSIGN = "index-assign"
OPS = list(BINARY) + list(UNARY) + [INDEX_ASSIGN]
HEADER = "import torch\n"


def check_name(name: str) -> str:
    name = name.strip()
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or keyword.iskeyword(name) or name == "torch":
        raise ValueError(f"{name!r} is not a usable variable name (letters, digits and _, not a keyword)")
    return name


def _number(text: str) -> str:
    text = text.strip()
    try:
        v = float(text)
    except ValueError as exc:
        raise ValueError(f"{text!r} is not a number") from exc
    return repr(v)


def _literal(text: str) -> str:
    """`3` -> `3.0`, `1, 2` or `[1, 2]` -> `[1.0, 2.0]`, `[[1,2],[3,4]]` -> nested floats."""
    text = text.strip()
    if not text:
        raise ValueError("give a value, e.g. 3.0 or [1.0, 2.0]")
    if not text.startswith("[") and "," in text:
        text = f"[{text}]"
    if not re.fullmatch(r"[\d\s.,eE+\-\[\]]+", text):
        raise ValueError(f"{text!r} is not a number or a list of numbers")
    return re.sub(r"(?<![\d.eE])(-?\d+)(?![\d.eE])", r"\1.0", text)


def _shape(text: str) -> str:
    dims = [d.strip() for d in text.strip().strip("()[]").split(",") if d.strip()]
    if not dims or not all(d.isdigit() and 0 < int(d) <= 64 for d in dims):
        raise ValueError(f"{text!r} is not a shape like 2, 3")
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def leaf_line(name: str, value: str = "", requires_grad: bool = True, shape: str = "", fill: str = "") -> str:
    name = check_name(name)
    rg = ", requires_grad=True" if requires_grad else ""
    if shape.strip():
        return f"{name} = torch.full({_shape(shape)}, {_number(fill or '1')}{rg})"
    return f"{name} = torch.tensor({_literal(value)}{rg})"


def op_line(result: str, op: str, a: str, b: str = "", index: str = "0") -> str:
    a = check_name(a)
    if op == INDEX_ASSIGN:
        if not re.fullmatch(r"[\d\s,:\-]+", index.strip() or "x"):
            raise ValueError(f"{index!r} is not an index like 0 or 1, 0")
        return f"{a}[{index.strip()}] = {_operand(b)}"
    result = check_name(result)
    if op in UNARY:
        return f"{result} = " + UNARY[op].format(a=a)
    if op in BINARY:
        return f"{result} = " + BINARY[op].format(a=a, b=_operand(b))
    raise ValueError(f"unknown op {op!r}")


def _operand(b: str) -> str:
    b = b.strip()
    if not b:
        raise ValueError("this op needs a second input")
    try:
        return repr(float(b))
    except ValueError:
        return check_name(b)


def backward_lines(output: str, scalar: bool, leaves: list[str]) -> list[str]:
    output = check_name(output)
    call = f"{output}.backward()" if scalar else f"{output}.backward(gradient=torch.ones_like({output}))"
    prints = [f"print({leaf}.grad)" for leaf in leaves]
    return [call, *prints]


def append(source: str, lines: list[str]) -> str:
    """The program with the lines added at its end (and `import torch` first when missing)."""
    if not re.search(r"^import torch\b", source, flags=re.M):
        source = HEADER + "\n" + source.lstrip("\n")
    return source.rstrip("\n") + "\n" + "\n".join(lines) + "\n"
