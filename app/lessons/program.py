"""A lesson's code blocks as ONE program: each block after a marker line (a print of a text the run turns into a
`block` event, run.py), IPython's `!shell` and `%magic` lines left out (saying so), a block Python cannot parse
left out whole, and a block's last expression shown as a notebook shows it (`x.grad` alone on a line prints
its repr; `x.grad;` does not). Lines keep their numbers: what the run records maps back to each block's lines."""

from __future__ import annotations

import ast
import secrets
from dataclasses import dataclass

from app.lessons.model import Lesson

SHOW = "(_ := ({})) is None or print(repr(_))"  # Jupyter shows a cell's last value unless it is None


@dataclass(frozen=True)
class Block:
    number: int  # among the lesson's code blocks, from 0
    cell: int  # its cell's number in the file
    first: int  # the program's line of its first line (its marker is the line before)
    lines: tuple[str, ...]  # as it runs
    shown: tuple[str, ...]  # as the lesson shows it
    notes: tuple[str, ...]  # what of it does not run, and why
    starts: tuple[int, ...]  # the offsets (from 0) of its top-level statements' first lines

    @property
    def last(self) -> int:
        return self.first + len(self.lines) - 1

    def statement_at(self, line: int) -> int:
        """The offset of the top-level statement holding program line `line` (0 when it is not in the block)."""
        off = line - self.first
        if not 0 <= off < len(self.lines):
            return 0
        return max((s for s in self.starts if s <= off), default=0)


@dataclass(frozen=True)
class Program:
    blocks: tuple[Block, ...]
    nonce: str
    label: str  # "cell" (a notebook) or "block" (Markdown)

    def marker(self, i: int) -> str:
        return f"\x1e{self.nonce}:{i}"

    def source(self, cut: dict[int, int] | None = None) -> str:
        """What runs: blocks after their markers; `cut` (block -> offset) leaves out each block's lines from
        that offset on (commented, so lines keep their numbers)."""
        cut = cut or {}
        out = []
        for b in self.blocks:
            out.append(f'print("\\x1e{self.nonce}:{b.number}", end="")')
            stop = cut.get(b.number, len(b.lines))
            out.extend(line if j < stop else "# " + line for j, line in enumerate(b.lines))
        return "\n".join(out) + "\n"

    def display(self) -> str:
        """What the editor shows: the blocks as the lesson shows them, each marker a comment naming it."""
        out = []
        for b in self.blocks:
            out.append(f"# ── {self.label} {b.cell if self.label == 'cell' else b.number + 1} ──")
            out.extend(b.shown)
        return "\n".join(out) + "\n"

    def block_of_line(self, line: int | None) -> int | None:
        for b in self.blocks:
            if line is not None and b.first - 1 <= line <= b.last:
                return b.number
        return None


def compose(lesson: Lesson) -> Program:
    blocks, line = [], 1
    for i, cell in enumerate(lesson.code):
        lines, shown, notes, starts = _block(cell.text)
        blocks.append(Block(i, cell.number, line + 1, lines, shown, notes, starts))
        line += 1 + len(lines)
    return Program(tuple(blocks), secrets.token_hex(6), "cell" if lesson.kind == "notebook" else "block")


def _block(text: str):
    shown = tuple(text.split("\n")) if text else ("",)
    lines = list(shown)
    notes = []
    for j, raw in enumerate(lines):
        s = raw.strip()
        if s.startswith(("!", "%")) and not s.startswith("%="):
            what = "a shell command for IPython" if s.startswith("!") else "an IPython magic"
            notes.append(f"line {j + 1}: `{s}` is {what}: not run")
            lines[j] = raw[: len(raw) - len(raw.lstrip())] + "pass  # " + s
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError as e:
        notes.append(f"SyntaxError: {e.msg} (line {e.lineno} of the block): the block is not run")
        return tuple("# " + x for x in lines), shown, tuple(notes), ()
    body = tree.body
    if body and isinstance(body[-1], ast.Expr) and not _silenced(lines, body[-1]):
        _show(lines, body[-1])
    starts = tuple(min([s.lineno] + [d.lineno for d in getattr(s, "decorator_list", [])]) - 1 for s in body)
    return tuple(lines), shown, tuple(notes), starts


def _silenced(lines, node) -> bool:
    rest = lines[node.end_lineno - 1].encode()[node.end_col_offset:].decode().strip()
    return rest.startswith(";")


def _show(lines, node) -> None:
    """Rewrites the expression statement `node` in place as SHOW of it (columns are UTF-8 offsets, as ast's)."""
    a, b = node.lineno - 1, node.end_lineno - 1
    first, last = lines[a].encode(), lines[b].encode()
    if a == b:
        inner = first[node.col_offset:node.end_col_offset].decode()
        lines[a] = first[:node.col_offset].decode() + SHOW.format(inner) + first[node.end_col_offset:].decode()
        return
    head, tail = SHOW.split("{}")
    lines[a] = first[:node.col_offset].decode() + head + first[node.col_offset:].decode()
    lines[b] = last[:node.end_col_offset].decode() + tail + last[node.end_col_offset:].decode()
