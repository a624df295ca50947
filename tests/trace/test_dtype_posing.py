"""An object posing as a dtype (a module, or a class with `np`, `name` and `is_floating_point`) given as `dtype=` is
refused as torch refuses it, and a timeline always turns into JSON."""

import json

import pytest
import torch as real

import engine as torch
from engine.trace import run
from engine.trace.timeline import Timeline

FACTORIES = {
    "tensor": lambda t, d: t.tensor([1.0], dtype=d),
    "zeros": lambda t, d: t.zeros(2, dtype=d),
    "ones_like": lambda t, d: t.ones_like(t.ones(2), dtype=d),
    "full": lambda t, d: t.full((2,), 1.0, dtype=d),
    "arange": lambda t, d: t.arange(3, dtype=d),
    "rand": lambda t, d: t.rand(2, dtype=d),
}


@pytest.mark.parametrize("name", FACTORIES)
def test_a_module_as_dtype_is_refused_in_torchs_words(name):
    with pytest.raises(TypeError) as expected:
        FACTORIES[name](real, real.nn)
    if name in ("arange", "rand"):  # torch's overloads answer with a list of signatures: the engine names the type
        expected_text = f"{name}(): argument 'dtype' must be torch.dtype, not module"
    else:
        expected_text = str(expected.value)
    with pytest.raises(TypeError) as got:
        FACTORIES[name](torch, torch.nn)
    assert str(got.value) == expected_text


POSER = ("import torch\nimport numpy as np\nclass D:\n    np = np.float32\n    name = 'float32'\n"
         "    is_floating_point = True\n")


@pytest.mark.parametrize("line", ["x = torch.ones(2, dtype=D())", "x = torch.ones(2).to(dtype=D())"])
def test_in_the_guard_alone_a_poser_ends_the_program_and_the_timeline_is_json(line):
    timeline = run(POSER + line)
    assert timeline.error["type"] == "TypeError"
    assert "argument 'dtype' must be torch.dtype, not D" in timeline.error["message"]
    json.loads(timeline.to_json())


def test_a_timeline_holding_what_json_cannot_still_turns_into_json():
    event = {"kind": "print", "line": 1, "text": "x", "odd": object()}
    assert json.loads(Timeline(source="x", events=[event], output="").to_json())["events"][0][-1] == "<object>"
