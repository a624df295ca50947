"""eval() and exec() of text in a program: they run as in plain Python, with the caller's globals and locals or
the dicts given, the text held to the program's allow-list and budgets, and every error inside them at the
line of the program that called them. The escapes through them are the escape corpus's EVAL category."""

from __future__ import annotations

import pytest

from engine.trace import run as trace
from tests.trace.guard_fakes import FAKE, run, run_plain

AS_IN_PYTHON = {
    "module_level": "x = 3\nprint(eval('x * 2'))\nexec('y = x + 1')\nprint(y)",
    "function_locals": "def f(a):\n    b = 2\n    return eval('a * b + len(\"ab\")')\nprint(f(5))",
    "exec_defines_functions_and_classes": """
exec('''
def square(v):
    return v * v

class Box:
    def __init__(self, v):
        self.v = v
    def __repr__(self):
        return f"Box({self.v})"
''')
print(square(4), Box(2), [Box(i) for i in range(2)])
""",
    "globals_dict": """
g = {'a': 2}
exec('b = a * 3\\ndef f():\\n    return b + 1', g)
print([k for k in sorted(g) if k[0] != '_'], g['b'], g['f']())  # (Python adds '__builtins__')
print(eval('a + b', g), eval('a + c', g, {'c': 10}))
""",
    "locals_dict": "loc = {}\nexec('z = [i * i for i in range(4)]', None, loc)\nprint(loc)",
    "lambda_and_map": "f = eval('lambda v: v + 1')\nprint(f(1), list(map(eval, ['1 + 1', '\"a\" * 3'])))",
    "nested": "s = 'eval(\"2 ** 5\")'\nprint(eval(s), eval('eval(s)'))",
    "leading_spaces_and_bytes": "print(eval('   1 + 1'), eval(b'3 * 3'))",
    "syntax_error_is_the_programs": """
for text in ['1 +', 'x = 1']:
    try:
        eval(text)
    except SyntaxError:
        print('not an expression:', text)
""",
    "errors_inside_are_catchable": "try:\n    eval('1 / 0')\nexcept ZeroDivisionError:\n    print('caught')",
}


@pytest.mark.parametrize("name", sorted(AS_IN_PYTHON))
def test_eval_and_exec_print_what_plain_python_prints(name):
    source = AS_IN_PYTHON[name]
    assert run(source) == run_plain(source, FAKE)


def _error(timeline):
    return timeline.error["type"], timeline.error["line"], timeline.error["message"]


def test_an_error_inside_the_text_names_the_line_that_called_eval():
    assert _error(trace("x = 1\n\ny = eval('(x +\\n 1 / 0)')")) == ("ZeroDivisionError", 3, "division by zero")
    program = "exec('def f(v):\\n    return v / 0')\nx = 1\nf(x)"
    assert _error(trace(program))[:2] == ("ZeroDivisionError", 3)  # the program's line that called f
    assert _error(trace("x = 1\neval('1 +')"))[:2] == ("SyntaxError", 2)
    assert _error(trace("x = 1\nexec('import socket')"))[:2] == ("GuardError", 2)


def test_the_budgets_hold_inside_the_text_at_the_calling_line():
    kind, line, message = _error(trace("x = 1\nexec('while True:\\n    pass')", max_seconds=0.5))
    assert (kind, line) == ("BudgetExceeded", 2) and "(an endless loop?)" in message
    kind, line, message = _error(trace("import torch\nexec('y = torch.ones(10 ** 9)')"))
    assert (kind, line) == ("BudgetExceeded", 2) and "elements at once" in message


def test_the_ops_of_the_text_are_recorded_at_the_calling_line():
    timeline = trace("import torch\nx = torch.ones(2, requires_grad=True)\ny = eval('(x * 3).sum()')\ny.backward()\n"
                     "print(x.grad)")
    assert timeline.error is None and timeline.output == "tensor([3., 3.])\n"
    ops = [e for e in timeline.events if e["kind"] == "op" and e["op"] in ("mul", "sum")]
    assert [e["line"] for e in ops] == [3, 3]


def test_the_saved_tensors_hooks_tutorial_unpacks_with_eval():
    timeline = trace("import torch\nx = torch.randn(5, requires_grad=True)\n"
                     "with torch.autograd.graph.saved_tensors_hooks(lambda x: repr(x), lambda x: eval('torch.' + x)):\n"
                     "    y = x * x\ny.sum().backward()\nprint(torch.all(x.grad - 2 * x <= 1e-4))")
    assert timeline.error is None and timeline.output == "tensor(True)\n"


@pytest.mark.parametrize("call", ["DataLoader(['1'], collate_fn=eval)", "DataLoader(['1'], collate_fn=exec)"])
def test_the_engine_cannot_call_eval_for_the_program(call):
    """Called from the engine's own code, eval() would take the engine's globals: it is refused."""
    timeline = trace(f"import torch\nfrom torch.utils.data import DataLoader\nfor b in {call}:\n    print(b)")
    kind, line, message = _error(timeline)
    assert (kind, line) == ("GuardError", 3) and "may only be called by the program's own code" in message
    timeline = trace("import torch\nx = torch.ones(1, requires_grad=True)\nx.register_hook(eval)\n"
                     "(x * 2).sum().backward()")
    kind, line, message = _error(timeline)
    assert kind == "GuardError" and "may only be called by the program's own code" in message
