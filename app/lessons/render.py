"""A lesson as HTML for the lesson panel: prose rendered from Markdown (raw HTML in it escaped: a dropped file's
markup never runs), each code block with the line being stepped marked, its output under it as a notebook
shows it, what did not run, the stored output that differs, the questions, and the score at the end. Pure."""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt

from app.lessons.model import Lesson, title_of
from app.lessons.run import LessonRun

_MD = MarkdownIt("commonmark", {"html": False})


def html(lesson: Lesson, run: LessonRun, current: int | None, line: int | None, answered: dict, score: str,
         saved: str = "") -> str:
    """`current`: the block being stepped; `line`: the program's line of the step shown; `answered`: question
    (block, about) -> "right" | "wrong" | "shown"; `score`: the score's words; `saved`: the last score kept."""
    first = next((c for c in lesson.cells if c.kind == "prose" and c.text), None)
    titled = first is not None and title_of([first]) == lesson.title
    parts = [] if titled else [f'<h1 class="lesson-title">{escape(lesson.title)}</h1>']
    parts.extend(f'<p class="lesson-note">{escape(n)}</p>' for n in lesson.notes)
    block = 0
    for cell in lesson.cells:
        if cell.kind == "prose":
            if cell.text:
                parts.append(f'<div class="prose">{_MD.render(cell.text)}</div>')
            for q in cell.questions:
                mark = answered.get((min(block, len(run.blocks) - 1), q.about), "")
                badge = {"right": " ✓ right", "wrong": " ✗ not quite", "shown": " (shown)"}.get(mark, "")
                parts.append(f'<div class="question{" " + mark if mark else ""}"><b>Question</b> · predict '
                             f"<b>{escape(q.prompt or q.about)}</b> as the next block runs{badge}"
                             f"{' — and say why' if q.why else ''}</div>")
            continue
        parts.append(_block(run.blocks[block], run, block == current, line))
        block += 1
    parts.append(f'<div class="lesson-score" role="status">Score: {escape(score)}'
                 + (f'<span class="saved"> · kept in this browser: {escape(saved)}</span>' if saved else "")
                 + "</div>")
    return "".join(parts)


def _block(b, run: LessonRun, current: bool, line: int | None) -> str:
    code = run.program.blocks[b.number].shown
    rows = []
    for j, text in enumerate(code):
        here = current and line is not None and line == b.first + j
        rows.append(f'<span class="line{" here" if here else ""}">{escape(text) or " "}</span>')
    label = f"cell {b.cell}" if run.program.label == "cell" else f"block {b.number + 1}"
    head = f'<div class="block-head">{label}{" · being stepped" if current else ""}</div>'
    out = [f'<section class="block{" current" if current else ""}" id="lesson-block-{b.number}" '
           f'aria-current="{"step" if current else "false"}">{head}<pre class="code">{"".join(rows)}</pre>']
    if b.notes:
        out.append("".join(f'<div class="block-note">{escape(n)}</div>' for n in b.notes))
    if b.output:
        out.append(f'<pre class="output">{escape(b.output)}</pre>')
    if b.error:
        out.append(f'<pre class="output error">{escape(b.error)}\n(the rest of this block was not run; '
                   f"the blocks after it ran)</pre>")
    if b.differs:
        out.append('<div class="stored">The notebook stored another output for this cell (an older PyTorch, '
                   f'another run or machine): <pre>{escape(b.stored or "")}</pre>PyTorch 2.13 prints what is '
                   "shown above.</div>")
    elif b.stored_note:
        out.append(f'<div class="block-note">The notebook {escape(b.stored_note[3:])}.</div>')
    out.append("</section>")
    return "".join(out)


CSS = """
.lesson-title, .prose h1 { font-size: 19px; margin: 6px 0 8px; color: #1f2d3d; }
.prose h2 { font-size: 16px; margin: 12px 0 6px; }
.prose { font-size: 14px; line-height: 1.5; color: #1f2d3d; }
.prose code { background: #f1f3f6; padding: 0 3px; border-radius: 3px; font-size: 12.5px; }
.prose pre { background: #f6f8fa; padding: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
.block { border: 1px solid #d8dde6; border-radius: 4px; margin: 8px 0; background: #fbfcfd; }
.block.current { border: 2px solid #3b5b92; background: #f4f7fc; }
.block-head { font-size: 11.5px; color: #555; padding: 2px 6px; border-bottom: 1px solid #e6e9ef; }
.block.current .block-head { color: #1d3a6e; font-weight: 700; }
pre.code { margin: 0; padding: 4px 6px; font-size: 12.5px; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.code .line { display: block; }
pre.code .line.here { background: #fff3c4; outline: 1px solid #e0b800; }
pre.output { margin: 0; padding: 4px 6px; border-top: 1px dashed #d8dde6; font-size: 12.5px; background: white;
  white-space: pre-wrap; overflow-wrap: anywhere; }
pre.output.error { color: #8b0000; background: #fff0f0; }
.block-note { font-size: 12px; color: #6b4e00; background: #fff8e1; padding: 2px 6px; }
.stored { font-size: 12px; color: #4a3b00; background: #fff4d6; padding: 4px 6px; border-top: 1px solid #f0d27a; }
.stored pre { margin: 2px 0; font-size: 12px; white-space: pre-wrap; }
.question { font-size: 13px; background: #eef2f8; border-left: 3px solid #3b5b92; padding: 4px 8px; margin: 6px 0; }
.question.right { border-left-color: #1b5e20; }
.question.wrong { border-left-color: #b00020; }
.lesson-score { margin: 12px 0 4px; padding: 6px 8px; background: #eef2f8; border-radius: 4px; font-size: 14px; }
.lesson-score .saved { color: #444; font-size: 12.5px; }
.lesson-note { font-size: 12px; color: #6b4e00; }
"""
