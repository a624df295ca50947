"""Predict, then reveal, as pure functions of the timeline: which backward steps ask the learner to predict a
value (a gradient a node sends along an edge, or what `.grad` becomes), what the right answer is with the
formula that reveals it, how a typed guess is read and judged, and the score."""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

import numpy as np

from app.graph import chain_model
from app.player.caption import node_name
from app.timeline import arg_names
from engine.printing import format_tensor
from engine.trace.text import flat, numel, shape_of, short

MAX_ASKED = 8  # values with more elements than this are not asked (nobody types them)
RTOL, ATOL = 1e-3, 1e-6  # a guess this close to every element is right (as is one PyTorch prints the same)
MAX_TEXT = 2000


@dataclass(frozen=True)
class Question:
    at: int  # the step (event index) it is asked before
    reveal: int  # the step that shows the answer
    about: str  # what is asked for, short: "→ x", "x.grad"
    prompt: str
    expected: object  # the value as the timeline holds it: a number or nested lists
    dtype: str
    formula: tuple[str, ...]  # the lines that reveal how the value comes about


@dataclass(frozen=True)
class Verdict:
    guess: str  # what the learner typed ("" when they asked for the answer without a guess)
    right: bool | None  # None: revealed without a guess (not scored)
    note: str = ""


@dataclass(frozen=True)
class Score:
    right: int
    asked: int
    revealed: int  # shown without a guess, not scored


def _askable(value) -> bool:
    return value is not None and not isinstance(value, dict) and numel(value) <= MAX_ASKED


def asks(events: list[dict]) -> dict[int, list[tuple[str, int, int]]]:
    """Step -> what is asked before it, as (kind, event index, edge): ("send", i, j) for the grad node events[i]
    sends along its edge j, ("grad", i, -1) for the `.grad` write events[i]. A `.grad` write is asked before
    the backward step that leads to it (AccumulateGrad, or the node of a tensor that retains its grad)."""
    out: dict[int, list[tuple[str, int, int]]] = {}
    last_node: dict[tuple, int] = {}  # (call, node id) -> index of its latest backward step
    for i, e in enumerate(events):
        kind = e["kind"]
        if kind == "node":
            last_node[(e.get("call"), e["node"])] = i
            for j, g in enumerate(e["grads_out"]):
                if g.get("to") is not None and _askable(g["value"]):
                    out.setdefault(i, []).append(("send", i, j))
        elif kind == "grad" and _askable(e.get("after")):
            at = last_node.get((e.get("call"), e["node"]), i)
            out.setdefault(at, []).append(("grad", i, -1))
    return out


def questions(events: list[dict], at: int, specs: list[tuple[str, int, int]], intro) -> list[Question]:
    """The questions asked before step `at` (`specs`: asks(events)[at]), worded with the program's names."""
    return [_send(events, at, i, j, intro) if kind == "send" else _grad(events, at, i, intro)
            for kind, i, j in specs]


def _send(events, at, i, j, intro) -> Question:
    step = events[i]
    g = step["grads_out"][j]
    node = intro(step["node"]) or {}
    target = intro(g["to"]) or {}
    names = [x.get("to") for x in step["grads_out"]]
    to = target.get("name") or node_name({}, g["to"])
    if names.count(g["to"]) > 1:
        args = arg_names(node, len(names)) if node else ()
        to += f" (as {args[j]})" if j < len(args) else f" (input {j})"
    owner = f" ({node['name']})" if node.get("name") else ""
    prompt = f"{step['name']}{owner} receives its grad. What does it send to {to}?"
    lines = chain_model.edge_lines(step, j, intro)
    met = chain_model.fan_in(events, i)
    if met is not None:
        lines.insert(0, f"grads meet: {met}")
    return Question(at=at, reveal=i, about=f"→ {to}", prompt=prompt, expected=g["value"],
                    dtype=target.get("dtype") or "float32", formula=tuple(lines))


def _grad(events, at, i, intro) -> Question:
    e = events[i]
    name = e.get("name") or "tensor"
    before = e.get("before")
    now = "None" if before is None else short(before)
    prompt = f"{name}.grad is {now} now. What will {name}.grad be after this backward step?"
    if before is None:
        lines = [f"{name}.grad was None: it becomes the grad that arrived, {short(e['after'])}"]
    else:
        lines = [f"{name}.grad accumulates: {short(before)} + {short(e['contribution'])} = {short(e['after'])}"]
    step = events[at] if at != i else None
    met = chain_model.fan_in(events, at) if step is not None and step["kind"] == "node" else None
    if met is not None:
        lines.insert(0, f"grads meet: {met}")
    made = intro(e["node"]) or {}
    return Question(at=at, reveal=i, about=f"{name}.grad", prompt=prompt, expected=e["after"],
                    dtype=made.get("dtype") or "float32", formula=tuple(lines))


class GuessError(ValueError):
    """A guess that cannot be read as a number or a tensor; its message says how to write one."""


_HOW = "Write a number (6, -0.5, 1/3, 2*3) or a tensor as a list ([1, 2], rows as [[1, 2], [3, 4]])."
_WRAPPER = re.compile(r"^\s*(?:torch\.)?tensor\s*\((.*)\)\s*$", re.S)
_KEYWORDS = re.compile(r",\s*(?:grad_fn|requires_grad|dtype|device)\s*=.*$", re.S)
_TIGHT_LIST = re.compile(r"(?<=[\d.\]])\s+(?=[-+\d.\[])")  # numpy's "[1. 2.]": whitespace between numbers
_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a ** b}
_NAMES = {"nan": math.nan, "inf": math.inf, "e": math.e, "pi": math.pi}


def parse(text: str):
    """A typed guess as a number or nested lists of numbers: `6`, `6.`, `-0.5`, `1/3`, `2*3`, `2^3`, `[1, 2]`,
    `(1, 2)`, `[[1, 2], [3, 4]]`, `tensor([1., 2.])` or `tensor(6., grad_fn=<MulBackward0>)` as PyTorch prints
    it, numpy's `[1. 2.]`. Raises GuessError with a message for anything else."""
    raw = (text or "").strip()
    if not raw:
        raise GuessError("Type your prediction first. " + _HOW)
    if len(raw) > MAX_TEXT:
        raise GuessError("That is too long for a prediction. " + _HOW)
    clean = raw.replace("−", "-").replace("×", "*").replace("·", "*").replace("^", "**")
    wrapped = _WRAPPER.match(clean)
    if wrapped:
        clean = _KEYWORDS.sub("", wrapped.group(1))
    for attempt in (clean, _TIGHT_LIST.sub(", ", clean)):
        try:
            tree = ast.parse(attempt.strip(), mode="eval").body
        except (SyntaxError, ValueError):
            continue
        value = _value(tree, raw)
        _check_shape(value, raw)
        return value
    raise GuessError(f"Cannot read “{_cut(raw)}” as a number or a tensor. " + _HOW)


def _cut(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _value(node, raw: str):
    if isinstance(node, (ast.List, ast.Tuple)):
        if not node.elts:
            raise GuessError("An empty list has no values. " + _HOW)
        return [_value(e, raw) for e in node.elts]
    return _number(node, raw)


def _number(node, raw: str) -> float:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id.lower() in _NAMES:
        return _NAMES[node.id.lower()]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _number(node.operand, raw)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        a, b = _number(node.left, raw), _number(node.right, raw)
        try:
            return float(_OPS[type(node.op)](a, b))
        except ZeroDivisionError:
            raise GuessError(f"“{_cut(raw)}” divides by zero.") from None
        except (OverflowError, TypeError):  # 10**400; a negative number to a fractional power
            raise GuessError(f"“{_cut(raw)}” is not a real number a tensor could hold.") from None
    if isinstance(node, (ast.List, ast.Tuple)):
        raise GuessError(f"In “{_cut(raw)}” a list is used as a number. " + _HOW)
    raise GuessError(f"Cannot read “{_cut(raw)}” as a number or a tensor: only numbers, + - * / ** and "
                     "lists are understood. " + _HOW)


def _check_shape(value, raw: str) -> None:
    """Every row of a nested list as long and as deep as the others (a tensor is rectangular)."""
    if not isinstance(value, list):
        return
    kinds = {isinstance(v, list) for v in value}
    if len(kinds) > 1:
        raise GuessError(f"In “{_cut(raw)}” numbers and lists are mixed in one row: a tensor's rows are alike.")
    if kinds == {True}:
        if len({len(v) for v in value}) > 1 or len({str(shape_of(v)) for v in value}) > 1:
            raise GuessError(f"The rows of “{_cut(raw)}” have different lengths: a tensor's rows are alike.")
        for v in value:
            _check_shape(v, raw)


def judge(guess, expected, dtype: str = "float32") -> tuple[bool, str]:
    """(right, note) for a parsed guess: right when it has the value's shape (a single number matches any
    one-element value) and every element is within RTOL/ATOL of it, or PyTorch prints both the same."""
    want, got = shape_of(expected), shape_of(guess)
    one = numel(expected) == 1 and numel(guess) == 1
    if want != got and not one:
        size = "a single number" if not want else "×".join(map(str, want)) + " values"
        said = "a single number" if not got else "×".join(map(str, got)) + " values"
        return False, f"the grad has the shape of its tensor: {size}, not {said}"
    a = np.array(flat(guess), dtype=float)
    b = np.array(flat(expected), dtype=float)
    with np.errstate(invalid="ignore"):
        close = np.isclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True).all()
    if close or _printed(a, b, want, dtype):
        return True, ""
    return False, ""


def _printed(a: np.ndarray, b: np.ndarray, shape: list[int], dtype: str) -> bool:
    """Whether PyTorch prints a tensor of the guess exactly as one of the value (`0.3333` for 1/3)."""
    kind = dtype if dtype in ("float16", "bfloat16", "float32", "float64") else "float32"
    if kind == "bfloat16":
        kind = "float32"
    return format_tensor(a.reshape(shape), kind) == format_tensor(b.reshape(shape), kind)


def verdict(text: str, question: Question) -> Verdict:
    """Read and judge a typed guess (GuessError when it cannot be read)."""
    right, note = judge(parse(text), question.expected, question.dtype)
    return Verdict(guess=text.strip(), right=right, note=note)


def score(answers: dict[int, tuple[Verdict, ...]]) -> Score:
    given = [v for verdicts in answers.values() for v in verdicts]
    return Score(right=sum(v.right is True for v in given), asked=sum(v.right is not None for v in given),
                 revealed=sum(v.right is None for v in given))


def answer_text(question: Question) -> str:
    """The right value as the reveal writes it."""
    return short(question.expected, limit=MAX_ASKED)
