"""`from tqdm import tqdm` in a program (engine/trace/tqdm_view.py): loops over a bar run as written, and what the
program reads of the bar or prints through it is what real tqdm gives (its bar on stderr is not drawn)."""
from __future__ import annotations

import contextlib
import io

import pytest

from engine.trace import run as trace

PROGRAMS = {
    "training_loop": """from tqdm import tqdm
losses = []
bar = tqdm(range(4), desc="train")
for epoch in bar:
    loss = 1.0 / (epoch + 1)
    losses.append(loss)
    bar.set_postfix(loss=loss, epoch=epoch, note=" ok ", flag=True, tiny=1e-5)
    bar.set_description(f"epoch {epoch}")
print(len(bar), bar.n, bar.total, repr(bar.postfix), repr(bar.desc), losses)
""",
    "trange_and_write": """from tqdm import trange, tqdm
for i in trange(3, leave=False):
    tqdm.write(f"step {i}")
tqdm.write("done", end="!\\n")
""",
    "manual_updates": """import tqdm
with tqdm.tqdm(total=10, unit="batch") as progress:
    for _ in range(3):
        progress.update(3)
    print(progress.n, len(progress))
    progress.reset(total=4)
    print(progress.n, progress.total)
bar = tqdm.tqdm(total=5)
bar.set_postfix({"b": 2.5, "a": 1}, c=3)
print(bar.postfix)
bar.set_postfix_str("hello")
bar.set_description_str("raw")
print(bar.postfix, bar.desc)
bar.set_description("")
print(repr(bar.desc))
bar.close()
""",
    "auto_and_strings": """from tqdm.auto import tqdm
print(list(tqdm("abc")), [x * 2 for x in tqdm([1, 2])], len(tqdm([1, 2, 3])))
print(sum(tqdm(range(5), total=5, disable=True)), len(tqdm(range(7), total=2)))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_what_the_program_sees_is_real_tqdms(name):
    pytest.importorskip("tqdm")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        exec(PROGRAMS[name], {"__name__": "__main__"})
    timeline = trace(PROGRAMS[name])
    assert timeline.error is None, timeline.error
    assert timeline.output == printed.getvalue()


def test_a_notebooks_tqdm_is_the_same_bar():
    """(Real tqdm.notebook needs ipywidgets, which a script does not have: a notebook's bar runs as tqdm's.)"""
    timeline = trace("from tqdm.notebook import tqdm, trange\nprint(list(tqdm('ab')), list(trange(2)))\n")
    assert timeline.error is None and timeline.output == "['a', 'b'] [0, 1]\n"


def test_a_training_loop_with_a_bar_is_recorded_as_without_it():
    """The same program with and without tqdm makes the same graph, values and grads."""
    plain = """import torch
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    opt.step()
print(w)
"""
    with_bar = plain.replace("import torch\n", "import torch\nfrom tqdm import tqdm\n").replace(
        "for step in range(3):", "for step in tqdm(range(3)):")
    a, b = trace(plain), trace(with_bar)
    assert b.error is None and a.output == b.output

    def kinds(timeline):
        return [(e["kind"], e.get("name"), e.get("value")) for e in timeline.events]
    assert kinds(a) == kinds(b)
