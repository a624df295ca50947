"""The runaway corpus: programs that try to exhaust the machine or to leave something behind, by category.
test_walls.py runs each in run() and in run_isolated: it must end within its time limit plus 1 s, under its
memory cap, with a clear message, and the next program must run normally after it (docs/security.md).

An entry is Runaway(source, words): `words` are in the message of the error that ends it (None: it ends
without one; "a|b": either). `wall=True`: run() cannot stop it (one C-level operation it cannot size, or a
crash of the interpreter); only run_isolated is asked to, and then `wall_words` are in its message. `limits`
are budgets (guard.Limits fields) that differ from the test's, in both modes (a smaller event budget, say, so
that the events run out before the time); `isolated` are run_isolated's own arguments that differ.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Runaway:
    source: str
    words: str | None
    wall: bool = False
    wall_words: str | None = None
    limits: dict = field(default_factory=dict)
    isolated: dict = field(default_factory=dict)


def R(source, words, **kw):
    return Runaway(source, words, **kw)


TIME = "ran longer than"
NESTED = "nested more than"
GROWTH = "memory|in all|ran longer than"  # whichever of the budgets it spends first
EVENTS = {"max_events": 3000, "max_seconds": 5}
BYTES = {"max_timeline_mb": 0.5, "max_seconds": 5}
SLOW_SETUP = {"max_seconds": 3}  # a loop that builds what the last line trips over: time enough, even when loaded

# Loops and long computations that the budget's clock stops.
TIME_CORPUS = {
    "while_true": R("while True:\n    pass", TIME),
    "while_one": R("x = 0\nwhile 1:\n    x = 1", TIME),
    "for_huge_range": R("for i in range(10 ** 12):\n    pass", TIME),
    "nested_loops": R("for i in range(10 ** 6):\n    for j in range(10 ** 6):\n        pass", TIME),
    "infinite_generator_loop": R("def g():\n    while True:\n        yield 1\nfor x in g():\n    pass", TIME),
    "generator_next_loop": R("def g():\n    n = 0\n    while True:\n        n += 1\n        yield n\nit = g()\n"
                             "while True:\n    next(it)", TIME),
    "sum_of_generator": R("x = sum(i for i in range(10 ** 12))", TIME),
    "sum_of_range": R("x = sum(range(10 ** 15))", TIME),
    "max_of_range": R("x = max(range(10 ** 12))", TIME),
    "sorted_range": R("x = sorted(range(10 ** 9))", TIME),
    "any_of_generator": R("x = any(i < 0 for i in range(10 ** 12))", TIME),
    "join_generator": R("s = ''.join('x' for i in range(10 ** 12))", TIME),
    "dict_from_range": R("d = dict.fromkeys(range(10 ** 9))", TIME),
    "set_from_range": R("s = set(range(10 ** 9))", TIME),
    "map_lambda_range": R("x = list(map(lambda i: i, range(10 ** 12)))", TIME),
    "filter_lambda_range": R("x = list(filter(lambda i: i < 0, range(10 ** 12)))", TIME),
    "swallowing_loop": R("while True:\n    try:\n        pass\n    except Exception:\n        pass", TIME),
    "raising_loop": R("while True:\n    try:\n        raise ValueError('x')\n    except ValueError:\n        pass",
                      TIME),
    "method_loop": R("class A:\n    def run(self):\n        while True:\n            pass\nA().run()", TIME),
    "init_loop": R("class A:\n    def __init__(self):\n        while True:\n            pass\nA()", TIME),
    "class_in_loop": R("while True:\n    class A:\n        pass", TIME),
    "def_in_loop": R("while True:\n    def f():\n        return 1\n    f()", TIME),
    "repr_loop": R("class A:\n    def __repr__(self):\n        while True:\n            pass\nprint(A())", TIME),
    "str_loop": R("class A:\n    def __str__(self):\n        while True:\n            pass\ns = str(A())", TIME),
    "lt_loop_in_sort": R("class A:\n    def __lt__(self, other):\n        while True:\n            pass\n"
                         "x = sorted([A(), A()])", TIME),
    "eq_loop": R("class A:\n    def __eq__(self, other):\n        while True:\n            pass\nx = A() == A()", TIME),
    "hash_loop_in_dict": R("class A:\n    def __hash__(self):\n        while True:\n            pass\nd = {A(): 1}",
                           TIME),
    "next_loop_in_list": R("class It:\n    def __iter__(self):\n        return self\n    def __next__(self):\n"
                           "        while True:\n            pass\nx = list(It())", TIME),
    "getitem_loop": R("class A:\n    def __getitem__(self, i):\n        while True:\n            pass\nx = A()[0]",
                      TIME),
    "len_loop": R("class A:\n    def __len__(self):\n        while True:\n            pass\nx = len(A())", TIME),
    "bool_loop": R("class A:\n    def __bool__(self):\n        while True:\n            pass\nif A():\n    pass", TIME),
    "property_loop": R("class A:\n    @property\n    def x(self):\n        while True:\n            pass\ny = A().x",
                       TIME),
    "decorator_loop": R("def slow(f):\n    while True:\n        pass\n@slow\ndef g():\n    pass", TIME),
    "default_argument_loop": R("def f(x=[i for i in range(10 ** 12)]):\n    pass", TIME),
    "key_function_loop": R("def key(x):\n    while True:\n        pass\nx = sorted([1, 2], key=key)", TIME),
    "lambda_key_sort": R("x = sorted(range(10 ** 7), key=lambda i: -i)", TIME),
    "comprehension_huge": R("x = [i for i in range(10 ** 12)]", TIME),
    "set_comprehension_huge": R("x = {i for i in range(10 ** 12)}", TIME),
    "dict_comprehension_huge": R("x = {i: i for i in range(10 ** 12)}", TIME),
    "nested_comprehension": R("x = [[j for j in range(10 ** 6)] for i in range(10 ** 6)]", TIME),
    "generator_pingpong": R("def a():\n    while True:\n        yield from b()\ndef b():\n    yield 1\n"
                            "for x in a():\n    pass", TIME),
    "busy_string_building": R("s = ''\nwhile True:\n    s = s[-10:] + 'x'", TIME),
    "busy_float_math": R("import math\nx = 0.5\nwhile True:\n    x = math.sin(x) + math.cos(x)", TIME),
    "busy_int_math": R("x = 1\nwhile True:\n    x = (x * 7 + 3) % 1000003", TIME),
    "engine_small_ops_loop": R("import torch\nx = torch.ones(3)\nwhile True:\n    y = x.sum()", "events",
                               limits=EVENTS),
    "engine_no_grad_loop": R("import torch\nx = torch.ones(3)\nwith torch.no_grad():\n    while True:\n"
                             "        x.add_(1)", "events", limits=EVENTS),
    "optimizer_over_a_million_parameters": R(
        "import torch\np = torch.ones(1, requires_grad=True)\np.grad = torch.ones(1)\n"
        "opt = torch.optim.SGD([p] * 10 ** 6, lr=0.1)\nopt.step()", TIME),
    "adam_over_a_million_parameters": R(
        "import torch\np = torch.ones(1, requires_grad=True)\np.grad = torch.ones(1)\n"
        "opt = torch.optim.Adam([p] * 10 ** 6)\nopt.step()", TIME),
    "zero_grad_over_a_million_parameters": R(
        "import torch\np = torch.ones(1, requires_grad=True)\np.grad = torch.ones(1)\n"
        "opt = torch.optim.SGD([p] * 10 ** 6, lr=0.1)\nopt.zero_grad(set_to_none=False)", TIME),
    "straight_line_float_matmuls": R(
        "import torch\na = torch.rand(700, 700)\n" + "b = a @ a @ a @ a @ a @ a @ a @ a\n" * 40, TIME),
    "straight_line_int64_matmuls": R("import torch\na = torch.ones(500, 500, dtype=torch.int64)\n" + "b = a @ a\n" * 40,
                                     TIME),
    "straight_line_sorts": R("import torch\na = torch.rand(10 ** 6)\n" + "b = (a * -1).exp().sin().exp().sin()\n" * 60,
                             "in all|ran longer than"),
    "long_chain_backward": R("import torch\nx = torch.ones(1, requires_grad=True)\ny = x\n"
                             "for i in range(10 ** 6):\n    y = y * 1.0001\ny.backward()", "events", limits=EVENTS),
    "numpy_busy_loop": R("import numpy as np\na = np.ones(10)\nwhile True:\n    a = a * 1.0", TIME),
    "random_busy_loop": R("import random\nwhile True:\n    random.random()", TIME),
}

# Growth the budget's element and memory counts stop before the machine's memory runs out.
MEMORY_CORPUS = {
    "append_big_lists": R("rows = []\nwhile True:\n    rows.append([0] * 10 ** 6)", GROWTH),
    "append_big_strings": R("parts = []\nwhile True:\n    parts.append('x' * 10 ** 6)", GROWTH),
    "grow_string": R("s = ''\nwhile True:\n    s += 'x' * 10 ** 5", "elements"),
    "grow_list_by_extend": R("a = []\nwhile True:\n    a.extend([0] * 10 ** 5)", "elements"),
    "keep_tensors": R("import torch\nkeep = []\nwhile True:\n    keep.append(torch.ones(10 ** 6))", GROWTH),
    "keep_results": R("import torch\nx = torch.ones(1000, 1000)\nkeep = []\nwhile True:\n    keep.append(x * 1)",
                      GROWTH),
    "churn_tensors": R("import torch\nwhile True:\n    x = torch.ones(10 ** 6)", GROWTH),
    "many_small_lists": R("a = [[0] * 1000 for i in range(10 ** 6)]", GROWTH),
    "copies_of_a_big_list": R("big = [0] * 10 ** 6\ncopies = [list(big) for i in range(10 ** 4)]", GROWTH),
    "copies_by_slicing": R("big = [0] * 10 ** 6\ncopies = [big[:] for i in range(10 ** 4)]", GROWTH),
    "dict_growth": R("d = {}\ni = 0\nwhile True:\n    d[i] = [i] * 100\n    i += 1", GROWTH),
    "set_growth": R("s = set()\ni = 0\nwhile True:\n    s.add(str(i) * 50)\n    i += 1", GROWTH),
    "big_int_list": R("x = [(1 << 90000) + i for i in range(10 ** 6)]", GROWTH),
    "instances_growth": R("class A:\n    def __init__(self, i):\n        self.data = [i] * 1000\n"
                          "objs = []\nwhile True:\n    objs.append(A(len(objs)))", GROWTH),
    "generators_growth": R("def g():\n    yield [0] * 1000\ngens = []\nwhile True:\n    it = g()\n    next(it)\n"
                           "    gens.append(it)", GROWTH),
    "string_concat_list": R("s = 'x' * 999990\nparts = [s + str(i) for i in range(1000)]", GROWTH),
    "lambda_lists": R("x = list(map(lambda i: [0] * 10 ** 4, range(10 ** 6)))", GROWTH),
    "nested_list_comprehension": R("x = [[0] * 10 ** 6 for i in range(100)]", GROWTH),
    "random_tensors_kept": R("import torch\nkeep = []\nwhile True:\n    keep.append(torch.randn(10 ** 6))", GROWTH),
    "numpy_arrays_kept": R("import numpy as np\nkeep = []\nwhile True:\n    keep.append(np.ones(10 ** 6))", GROWTH),
    "numpy_random_kept": R("import numpy as np\nkeep = []\nwhile True:\n    keep.append(np.random.rand(10 ** 6))",
                           GROWTH),
    "retained_graph": R("import torch\nx = torch.ones(1000, requires_grad=True)\ny = x\nwhile True:\n"
                        "    y = y * 1.0", "events", limits=EVENTS),
    "encode_growth": R("keep = []\nwhile True:\n    keep.append(('x' * 10 ** 5).encode())", GROWTH),
    "dict_of_strings": R("d = {}\ni = 0\nwhile True:\n    d[str(i) * 1000] = i\n    i += 1", GROWTH),
    "tuples_of_lists": R("keep = []\nwhile True:\n    keep.append(tuple([0] * 10 ** 5))", GROWTH),
    "list_times_big": R("a = list(range(10 ** 6)) * 100", "elements at once"),
    "repeated_doubling": R("a = [0]\nfor i in range(40):\n    a = a + a", "elements"),
    "string_doubling": R("s = 'ab'\nfor i in range(40):\n    s = s * 2", "elements"),
    "format_growth": R("s = 'x'\nwhile True:\n    s = '{}{}'.format(s, s)", "too big to show"),
    "fstring_growth": R("s = 'x'\nwhile True:\n    s = f'{s}{s}'", "too big to show"),
    "percent_growth": R("s = 'x'\nwhile True:\n    s = '%s%s' % (s, s)", "too big to show"),
    "replace_growth": R("s = 'xx'\nwhile True:\n    s = s.replace('x', 'xx')", "elements"),
    "join_growth": R("s = 'x'\nwhile True:\n    s = s.join([s, s])", "elements"),
    "ljust_growth": R("s = 'x'\nn = 1\nwhile True:\n    n *= 2\n    s = s.ljust(n)", "elements"),
}

# What a program may print or make the recorder record.
OUTPUT_CORPUS = {
    "print_flood": R("while True:\n    print('x' * 100)", "printed more than"),
    "print_end_flood": R("while True:\n    print('x' * 100, end='')", "printed more than"),
    "print_big_args": R("s = 'x' * 1000\nprint(*[s] * 1000)", "too big to show"),
    "print_big_string": R("print('x' * 10 ** 6)", "too big to show"),
    "print_big_list": R("print(list(range(10 ** 6)))", "too big to show"),
    "print_big_sep": R("print(1, 2, sep='x' * 10 ** 6)", "too big to show"),
    "print_unicode_flood": R("while True:\n    print('ü€𝔘' * 100)", "printed more than"),
    "print_surrogate_flood": R("while True:\n    print(chr(0xdc80) * 100)", "printed more than"),
    "print_numbers_flood": R("i = 0\nwhile True:\n    print(i)\n    i += 1", "printed more than", limits=SLOW_SETUP),
    "print_tensors_flood": R("import torch\nx = torch.ones(3)\nwhile True:\n    print(x)", "printed more than",
                             limits=SLOW_SETUP),
    "fstring_print_flood": R("i = 0\nwhile True:\n    print(f'{i:>20}')\n    i += 1", "printed more than"),
    "op_events_flood": R("import torch\nx = torch.ones(2)\nwhile True:\n    x = x + 1", "events", limits=EVENTS),
    "leaf_events_flood": R("import torch\nwhile True:\n    x = torch.tensor(1.0)", "events", limits=EVENTS),
    "grad_events_flood": R("import torch\nx = torch.ones(2, requires_grad=True)\nwhile True:\n"
                           "    (x * 2).sum().backward()", "events", limits=EVENTS),
    "warning_flood": R("import torch\nx = torch.ones(1)\nwhile True:\n    y = torch.tensor(x)", "events",
                       limits=EVENTS),
    "timeline_bytes": R("import torch\nx = torch.rand(8, 8)\nwhile True:\n    x = x * 1.0001", "timeline grew past",
                        limits=BYTES),
    "timeline_bytes_with_names": R("import torch\nparts = [torch.rand(64) for i in range(10)]\nwhile True:\n"
                                   "    parts = [p + 1 for p in parts]", "timeline grew past", limits=BYTES),
    "backward_events_flood": R("import torch\nx = torch.ones(4, requires_grad=True)\ny = x\nfor i in range(2000):\n"
                               "    y = y.sin()\ny.sum().backward()", "events", limits=EVENTS),
    "in_place_events_flood": R("import torch\nx = torch.zeros(8)\nwhile True:\n    x.add_(1)", "events",
                               limits=EVENTS),
    "optimizer_events_flood": R("import torch\nps = [torch.ones(1, requires_grad=True) for i in range(1000)]\n"
                                "for p in ps:\n    p.grad = torch.ones(1)\nopt = torch.optim.SGD(ps, lr=0.1)\n"
                                "while True:\n    opt.step()", "events", limits=EVENTS),
    "plot_events_flood": R("import matplotlib.pyplot as plt\nwhile True:\n    plt.plot([1, 2, 3])", "events",
                           limits=EVENTS),
    "plot_bytes": R("import matplotlib.pyplot as plt\nxs = list(range(50000))\nwhile True:\n    plt.scatter(xs, xs)",
                    "timeline grew past", limits=BYTES),
    "isolated_output_cap": R("import torch\nx = torch.rand(8, 8)\nfor i in range(3000):\n    x = x * 1.0001",
                             None, wall_words="timeline is bigger than the limit", limits={"max_seconds": 5},
                             isolated={"output_mb": 1, "seconds": 6}),
    "isolated_output_cap_prints": R("for i in range(900):\n    print('ü' * 100)", None,
                                    wall_words="timeline is bigger than the limit", limits={"max_seconds": 5},
                                    isolated={"output_mb": 0.25, "seconds": 6}),
}

# Recursion through every door: the call budget (100 deep) or Python's own limit stops it.
RECURSION_CORPUS = {
    "plain_recursion": R("def f():\n    f()\nf()", NESTED),
    "recursion_with_argument": R("def f(n):\n    return f(n + 1)\nf(0)", NESTED),
    "mutual_recursion": R("def a():\n    b()\ndef b():\n    a()\na()", NESTED),
    "lambda_recursion": R("f = lambda: f()\nf()", NESTED),
    "method_recursion": R("class A:\n    def f(self):\n        return self.f()\nA().f()", NESTED),
    "repr_recursion": R("class A:\n    def __repr__(self):\n        return repr(self)\nprint(A())", NESTED),
    "str_recursion": R("class A:\n    def __str__(self):\n        return str(self)\ns = str(A())", NESTED),
    "eq_recursion": R("class A:\n    def __eq__(self, other):\n        return self == other\nx = A() == 1", NESTED),
    "hash_recursion": R("class A:\n    def __hash__(self):\n        return hash(self)\nd = {A(): 1}", NESTED),
    "getitem_recursion": R("class A:\n    def __getitem__(self, i):\n        return self[i]\nx = A()[0]", NESTED),
    "len_recursion": R("class A:\n    def __len__(self):\n        return len(self)\nx = len(A())", NESTED),
    "iter_recursion": R("class A:\n    def __iter__(self):\n        return iter(self)\nx = list(A())", NESTED),
    "add_recursion": R("class A:\n    def __add__(self, other):\n        return self + other\nx = A() + 1", NESTED),
    "call_recursion": R("class A:\n    def __call__(self):\n        return self()\nA()()", NESTED),
    "property_recursion": R("class A:\n    @property\n    def x(self):\n        return self.x\ny = A().x", NESTED),
    "bool_recursion": R("class A:\n    def __bool__(self):\n        return bool(self)\nx = bool(A())", NESTED),
    "contains_recursion": R("class A:\n    def __contains__(self, x):\n        return x in self\ny = 1 in A()",
                            NESTED),
    "map_recursion": R("def f(x):\n    return list(map(f, [x]))\nf(1)", NESTED),
    "sorted_key_recursion": R("def key(x):\n    return sorted([x], key=key)\nkey(1)", NESTED),
    "max_key_recursion": R("def key(x):\n    return max([x], key=key)\nkey(1)", NESTED),
    "generator_recursion": R("def g():\n    yield from g()\nx = list(g())", "recursion"),
    "module_forward_recursion": R("import torch\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
                                  "        return self(x)\nM()(torch.ones(1))", NESTED),
    "sum_map_recursion": R("def f(x):\n    return sum(map(f, [x]))\nf(1)", NESTED),
    "hook_recursion": R("import torch\nx = torch.ones(1, requires_grad=True)\ndef hook(g):\n    return hook(g)\n"
                        "x.register_hook(hook)\n(x * 2).sum().backward()", NESTED),
    "decorator_recursion": R("def deco(f):\n    def wrapper():\n        return wrapper()\n    return wrapper\n"
                             "@deco\ndef g():\n    pass\ng()", NESTED),
    "init_recursion": R("class A:\n    def __init__(self):\n        self.child = A()\nA()", NESTED),
    "super_recursion": R("class A:\n    def f(self):\n        return self.f()\nclass B(A):\n    def f(self):\n"
                         "        return super().f()\nB().f()", NESTED),
    "comprehension_recursion": R("def f():\n    return [f() for i in range(1)]\nf()", NESTED),
    "recursion_caught_and_retried": R("def f():\n    try:\n        f()\n    except Exception:\n        f()\nf()",
                                      NESTED),
    "recursion_in_finally": R("def f():\n    try:\n        pass\n    finally:\n        f()\nf()", NESTED),
    "nested_list_str": R("a = []\nfor i in range(10 ** 5):\n    a = [a]\ns = str(a)", "recursion", limits=SLOW_SETUP),
    "nested_list_eq": R("a = []\nb = []\nfor i in range(10 ** 5):\n    a = [a]\n    b = [b]\nx = a == b",
                        "recursion", limits=SLOW_SETUP),
    "nested_dict_repr": R("d = {}\nfor i in range(10 ** 5):\n    d = {'k': d}\ns = str(d)", "recursion",
                          limits=SLOW_SETUP),
    "nested_list_print": R("a = []\nfor i in range(10 ** 5):\n    a = [a]\nprint(a)", "recursion|too big to show",
                           limits=SLOW_SETUP),
    "self_containing_list": R("a = [1]\na.append(a)\nprint(a, len(str(a)))", None),
    "format_recursion": R("class A:\n    def __str__(self):\n        return '{}'.format(self)\ns = str(A())", NESTED),
}

# What C does in one call: the guard sizes what it can (nesting, big integers, numpy objects); the rest
# (wall=True) only the wall stops.
C_LEVEL_CORPUS = {
    "deep_tuple_hash": R("t = ()\nfor i in range(10 ** 6):\n    t = (t,)\nh = hash(t)", "tuples nested more than"),
    "deep_tuple_as_key": R("t = ()\nfor i in range(10 ** 6):\n    t = (t, 1)\nd = {t: 1}", "tuples nested more than"),
    "deep_tuple_pair": R("t = ()\nfor i in range(10 ** 6):\n    t = (1, t)\ns = {t}", "tuples nested more than"),
    "deep_tuple_compare": R("t = ()\nu = ()\nfor i in range(10 ** 6):\n    t = (t,)\n    u = (u,)\nx = t == u",
                            "tuples nested more than"),
    "deep_map": R("m = [0]\nfor i in range(200000):\n    m = map(abs, m)\nx = list(m)", "iterators nested"),
    "deep_map_freed": R("m = [0]\nfor i in range(200000):\n    m = map(abs, m)", "iterators nested"),
    "deep_filter": R("m = [0]\nfor i in range(200000):\n    m = filter(None, m)\nx = list(m)", "iterators nested"),
    "deep_zip": R("m = [0]\nfor i in range(200000):\n    m = zip(m)\nx = list(m)", "iterators nested"),
    "deep_enumerate": R("m = [0]\nfor i in range(200000):\n    m = enumerate(m)\nx = list(m)", "iterators nested"),
    "deep_generator_expressions": R("g = iter([0])\nfor i in range(200000):\n    g = (x for x in g)\nx = list(g)",
                                    "iterators nested"),
    "deep_generators_freed": R("g = iter([0])\nfor i in range(200000):\n    g = (x for x in g)", "iterators nested"),
    "deep_mixed_iterators": R("g = [0]\nfor i in range(100000):\n    g = map(abs, (x for x in g))\nx = list(g)",
                              "iterators nested"),
    "object_array_astype": R("import torch\no = torch.ones(10).numpy().astype('O')\nz = o ** 30000000",
                             "dtype=object"),
    "object_array_self_reference": R("import torch\na = torch.zeros(2).numpy().astype('O')\na[0] = a\nprint(a)",
                                     "dtype=object"),
    "object_array_np_array": R("import numpy as np\na = np.array([None, None])\na[0] = a\nprint(a)",
                               "dtype=object"),
    "object_array_dtype_keyword": R("import numpy as np\na = np.zeros(3, dtype='O')", "dtype=object"),
    "object_array_dtype_type": R("import numpy as np\na = np.array([1, 2], dtype=list)", "dtype=object"),
    "object_array_of_program_objects": R("import numpy as np\nclass A:\n    pass\na = np.array([A(), A()])",
                                         "dtype=object"),
    "object_array_view": R("import torch\na = torch.zeros(4).numpy().view('O')", "dtype=object"),
    "object_array_ufunc_dtype": R("import numpy as np\na = np.add(np.ones(3), 1, dtype='O')", "dtype=object"),
    "object_ufunc_operand": R("import numpy as np\nclass A:\n    pass\na = np.ones(3) + A()",
                              "numbers, lists and arrays"),
    "pow_mod_huge": R("x = pow(3, 2 ** 49999, 2 ** 49999 - 1)", "too much work"),
    "pow_mod_inverse_huge": R("m = (1 << 99990) - 1\nx = pow(3, -1, m)\ny = pow(x, m, m)", "too much work"),
    "hex_literal": R("x = 0x" + "f" * 90000, "integer literals over"),
    "binary_literal_fits": R("x = 0b" + "1" * 99000 + "\ny = x // 3", None),
    "octal_literal": R("x = 0o" + "7" * 90000, "integer literals over"),
    "int_from_hex_text": R("s = 'f' * 999999\nx = int(s, 16)", "bits are too big"),
    "int_from_binary_text": R("s = '1' * 999999\nx = int(s, base=2)", "bits are too big"),
    "int_base_zero": R("s = '0x' + 'f' * 999998\nx = int(s, 0)", "bits are too big"),
    "big_division": R("x = (1 << 99990) + 1\nfor i in range(100):\n    x = x + x\nz = x // (x - 3)", "too much work"),
    "big_divmod": R("x = (1 << 99990) + 1\nfor i in range(100):\n    x = x + x\ny = divmod(x, x - 1)",
                    "too much work"),
    "big_modulo": R("x = (1 << 99990) + 1\nfor i in range(100):\n    x = x + x\ny = (x + 1) % (x - 1)",
                    "too much work"),
    "getrandbits_huge": R("import random\nx = random.getrandbits(10 ** 9)", "bits are too big"),
    "math_factorial_huge": R("import math\nx = math.factorial(10 ** 7)", "math.factorial"),
    "math_comb_huge": R("import math\nx = math.comb(10 ** 7, 5 * 10 ** 6)", "math.comb"),
    "decimal_text_huge": R("x = int('9' * 100000)", "Exceeds the limit"),
    "str_of_big_int": R("x = 1 << 99000\ns = str(x)", "Exceeds the limit"),
    "sum_of_lists": R("x = sum([[0] * 10 ** 5] * 10 ** 3, [])", "can't add up lists"),
    "shared_list_str": R("a = [0]\nfor i in range(40):\n    a = [a, a]\ns = str(a)", None, wall=True,
                         wall_words=TIME),
    "shared_list_eq": R("a = [0]\nb = [0]\nfor i in range(40):\n    a = [a, a]\n    b = [b, b]\nx = a == b", None,
                        wall=True, wall_words=TIME),
    "shared_list_sorted": R("a = [0]\nb = [0]\nfor i in range(40):\n    a = [a, a]\n    b = [b, b]\n"
                            "x = sorted([a, b])", None, wall=True, wall_words=TIME),
    "shared_list_in": R("a = [0]\nb = [0]\nfor i in range(40):\n    a = [a, a]\n    b = [b, b]\nx = b in [a]",
                        None, wall=True, wall_words=TIME),
    "shared_tuple_hash": R("t = (0,)\nfor i in range(40):\n    t = (t, t)\nh = hash(t)", "too much to hash"),
    "shared_tuple_as_key": R("t = (0,)\nfor i in range(40):\n    t = (t, t)\nd = {t: 1}", None, wall=True,
                             wall_words=TIME),
    "deep_tuple_by_tuple_call": R("t = ()\nfor i in range(300000):\n    t = tuple([t])\nd = {t: 1}", None,
                                  wall=True, wall_words="crashed Python", limits={"max_seconds": 5},
                                  isolated={"seconds": 6}),
    "deep_tuple_by_zip": R("t = ()\nfor i in range(300000):\n    t = next(zip([t]))\ns = {t}", None, wall=True,
                           wall_words="crashed Python", limits={"max_seconds": 5}, isolated={"seconds": 6}),
    "deep_generator_functions": R("def g(it):\n    yield from it\nx = iter([0])\nfor i in range(300000):\n"
                                  "    x = g(x)\ny = list(x)", "iterators nested"),
    "deep_generator_functions_freed": R("def g(it):\n    for x in it:\n        yield x\nx = iter([0])\n"
                                        "for i in range(300000):\n    x = g(x)", "iterators nested"),
    "deep_generator_methods": R("class A:\n    def g(self, it):\n        yield from it\na = A()\nx = [0]\n"
                                "for i in range(300000):\n    x = a.g(it=x)\ny = list(x)", "iterators nested"),
    "zip_of_many_big_lists": R("x = list(zip(*[[0] * 10 ** 6] * 1000))", None, wall=True,
                               wall_words="more memory than its limit|ran longer than"),
}

# Sizes the engine and the numpy view work out before they allocate.
AT_ONCE = "elements at once are more than the limit of"  # (1,000,000 by the guard, 4,000,000 by the runner)
SIZING_CORPUS = {
    "plot_of_a_million": R("import matplotlib.pyplot as plt\nimport torch\nplt.plot(torch.zeros(10 ** 6))",
                           "points in one drawing call are more than the explorer draws"),
    "plot_nested_lists": R("import matplotlib.pyplot as plt\nrow = [0.0] * 1000\n"
                           "plt.scatter([row] * 1000, [row] * 1000)",
                           "points in one drawing call are more than the explorer draws"),
    "repeat": R("import torch\nx = torch.ones(1000).repeat(1000000)", AT_ONCE),
    "repeat_2d": R("import torch\nx = torch.ones(10, 10).repeat(1000, 1000)", AT_ONCE),
    "cat_of_a_million": R("import torch\nx = torch.ones(1000)\ny = torch.cat([x] * 10 ** 6)", AT_ONCE,
                          limits=SLOW_SETUP),
    "cat_wide": R("import torch\nx = torch.ones(1000, 1000)\ny = torch.cat([x, x])", AT_ONCE),
    "stack_of_a_million": R("import torch\nx = torch.ones(1000)\ny = torch.stack([x] * 10 ** 6)", AT_ONCE,
                            limits=SLOW_SETUP),
    "stack_pair": R("import torch\nx = torch.ones(1000, 1000)\ny = torch.stack([x, x])", AT_ONCE),
    "advanced_index": R("import torch\nx = torch.ones(1000, 1000)\ni = torch.zeros(10 ** 6, dtype=torch.long)\n"
                        "y = x[i]", AT_ONCE),
    "advanced_index_pair": R("import torch\nx = torch.ones(1000, 1000)\ni = torch.zeros(2000, 1, dtype=torch.long)\n"
                             "j = torch.zeros(1, 2000, dtype=torch.long)\ny = x[i, j]", AT_ONCE),
    "advanced_index_list": R("import torch\nx = torch.ones(1000, 1000)\ny = x[[0] * 10 ** 6]", AT_ONCE,
                             limits=SLOW_SETUP),
    "advanced_index_write": R("import torch\nx = torch.zeros(1000, 1000)\ni = torch.zeros(10 ** 6, dtype=torch.long)\n"
                              "x[i] = 1.0", AT_ONCE),
    "boolean_mask": R("import torch\nx = torch.ones(1000, 1000)\nm = torch.ones(1000, dtype=torch.bool)\n"
                      "y = x[m][torch.zeros(2000, dtype=torch.long)]", AT_ONCE),
    "expand_then_contiguous": R("import torch\nx = torch.ones(1000, 1, 1000)\ny = x.expand(1000, 1000, 1000)\n"
                                "z = y.contiguous()", AT_ONCE),
    "expand_then_clone": R("import torch\nx = torch.ones(1, 10 ** 6)\ny = x.expand(1000, 10 ** 6).clone()", AT_ONCE),
    "expand_then_add": R("import torch\nx = torch.ones(1, 1000)\ny = x.expand(10 ** 6, 1000) + 1", AT_ONCE),
    "broadcast_add": R("import torch\nx = torch.ones(10 ** 6, 1)\ny = x + x.t()", AT_ONCE),
    "outer_by_matmul": R("import torch\nx = torch.ones(10 ** 6, 1)\ny = x @ x.t()", AT_ONCE),
    "huge_factory": R("import torch\nx = torch.zeros(10 ** 5, 10 ** 5)", AT_ONCE),
    "huge_arange": R("import torch\nx = torch.arange(10 ** 9)", AT_ONCE),
    "huge_linspace": R("import torch\nx = torch.linspace(0, 1, 10 ** 9)", AT_ONCE),
    "huge_eye": R("import torch\nx = torch.eye(10 ** 5)", AT_ONCE),
    "huge_randn": R("import torch\nx = torch.randn(10 ** 5, 10 ** 5)", AT_ONCE),
    "huge_randperm": R("import torch\nx = torch.randperm(10 ** 9)", AT_ONCE),
    "huge_multinomial": R("import torch\np = torch.ones(10)\nx = torch.multinomial(p, 10 ** 9, replacement=True)",
                          AT_ONCE),
    "huge_normal": R("import torch\nx = torch.normal(0.0, 1.0, size=(10 ** 5, 10 ** 5))", AT_ONCE),
    "huge_randint": R("import torch\nx = torch.randint(0, 10, (10 ** 5, 10 ** 5))", AT_ONCE),
    "huge_rand_from_a_generator": R("import torch\ng = torch.Generator()\ng.manual_seed(1)\n"
                                    "x = torch.rand(10 ** 5, 10 ** 5, generator=g)", AT_ONCE),
    "nested_lists_as_tensor": R("import torch\na = [0.0] * 1000\nb = [a] * 1000\nt = torch.tensor([b] * 1000)",
                                AT_ONCE),
    "nested_lists_as_operand": R("import torch\na = [0.0] * 1000\nb = [a] * 1000\nc = torch.ones(1) + [b] * 1000",
                                 AT_ONCE),
    "int64_matmuls": R("import torch\na = torch.ones(1000, 1000, dtype=torch.int64)\n" + "b = a @ a\n" * 6,
                       "multiply-adds"),
    "int64_bmm": R("import torch\na = torch.ones(1, 1000, 1000, dtype=torch.int64)\nb = torch.bmm(a, a)",
                   "multiply-adds"),
    "numpy_broadcast": R("import torch\na = torch.ones(30000).numpy()\nb = a[:, None] * a[None, :]", AT_ONCE),
    "numpy_broadcast_list": R("import torch\na = torch.ones(10 ** 6).numpy()\nb = a.reshape(-1, 1) + list(range(1000))",
                              AT_ONCE),
    "numpy_outer": R("import numpy as np\na = np.ones(100000)\nb = np.outer(a, a)", AT_ONCE),
    "numpy_meshgrid": R("import numpy as np\na = np.ones(100000)\nx, y = np.meshgrid(a, a)", AT_ONCE),
    "numpy_ufunc_outer": R("import torch\na = torch.ones(100000).numpy()\n"
                           "b = (a * a).reshape(1, -1) - a.reshape(-1, 1)",
                           AT_ONCE),
    "numpy_r_slice": R("import numpy as np\nb = np.r_[0:10 ** 12]", AT_ONCE),
    "numpy_r_linspace": R("import numpy as np\nb = np.r_[0:1:1000000000j]", AT_ONCE),
    "numpy_append": R("import numpy as np\na = np.ones(3 * 10 ** 6)\nb = np.append(a, a)", AT_ONCE),
    "numpy_tile": R("import numpy as np\na = np.ones(1000)\nb = np.tile(a, 10 ** 6)", AT_ONCE),
    "numpy_repeat_function": R("import numpy as np\na = np.ones(1000)\nb = np.repeat(a, 10 ** 6)", AT_ONCE),
    "numpy_repeat_method": R("import torch\na = torch.ones(1000).numpy()\nb = a.repeat(10 ** 6)", AT_ONCE),
    "numpy_take": R("import torch\na = torch.ones(1000, 1000).numpy()\nb = a.take([0] * 10 ** 6, axis=0)", AT_ONCE),
    "numpy_fancy_index": R("import torch\na = torch.ones(1000, 1000).numpy()\nb = a[[0] * 10 ** 6]", AT_ONCE,
                           limits=SLOW_SETUP),
    "numpy_fancy_index_write": R("import torch\na = torch.ones(1000, 1000).numpy()\na[[0] * 10 ** 6] = 1.0", AT_ONCE,
                                 limits=SLOW_SETUP),
    "numpy_scalar_repeat": R("import torch\ns = torch.ones(3).numpy()[0]\nb = s.repeat(10 ** 9)", AT_ONCE),
    "numpy_dot": R("import torch\na = torch.ones(10 ** 6, 1).numpy()\nb = a.dot(a.T)", AT_ONCE),
    "numpy_int_matmul": R("import numpy as np\na = np.ones((1000, 1000), dtype=np.int64)\nb = a @ a", "multiply-adds"),
    "numpy_zeros": R("import numpy as np\na = np.zeros((10 ** 5, 10 ** 5))", AT_ONCE),
    "numpy_empty": R("import numpy as np\na = np.empty(10 ** 9)", AT_ONCE),
    "numpy_full": R("import numpy as np\na = np.full((10 ** 5, 10 ** 5), 1.0)", AT_ONCE),
    "numpy_arange": R("import numpy as np\na = np.arange(0, 10 ** 9, 0.5)", AT_ONCE),
    "numpy_linspace": R("import numpy as np\na = np.linspace(0, 1, 10 ** 9)", AT_ONCE),
    "numpy_eye": R("import numpy as np\na = np.eye(10 ** 5, M=10 ** 5)", AT_ONCE),
    "numpy_diag": R("import numpy as np\na = np.diag(np.ones(10 ** 5))", AT_ONCE),
    "numpy_nested_array": R("import numpy as np\na = [0.0] * 1000\nb = [a] * 1000\nc = np.array([b] * 1000)", AT_ONCE),
    "numpy_concatenate_many": R("import numpy as np\na = np.ones(1000)\nb = np.concatenate([a] * 10 ** 6)", AT_ONCE,
                                limits=SLOW_SETUP),
    "numpy_random_rand": R("import numpy as np\na = np.random.rand(10 ** 5, 10 ** 5)", AT_ONCE),
    "numpy_random_normal": R("import numpy as np\na = np.random.normal(0, 1, size=(10 ** 5, 10 ** 5))", AT_ONCE),
    "numpy_random_randint": R("import numpy as np\na = np.random.randint(0, 10, (10 ** 5, 10 ** 5))", AT_ONCE),
    "numpy_random_choice": R("import numpy as np\na = np.random.choice(10, size=10 ** 10)", AT_ONCE),
    "numpy_generator_normal": R("import numpy as np\nrng = np.random.default_rng(0)\na = rng.normal(size=10 ** 10)",
                                AT_ONCE),
    "numpy_random_state_uniform": R("import numpy as np\nrs = np.random.RandomState(0)\n"
                                    "a = rs.uniform(0, 1, size=(10 ** 5, 10 ** 5))", AT_ONCE),
    "numpy_generator_integers": R("import numpy as np\nrng = np.random.default_rng()\na = rng.integers(0, 5, 10 ** 10)",
                                  AT_ONCE),
    "numpy_where_broadcast": R("import numpy as np\na = np.ones((10 ** 5, 1))\nb = np.where(a > 0, a, a.T)", AT_ONCE),
    "numpy_astype_copies": R("import torch\na = torch.ones(10 ** 6).numpy()\nkeep = []\nwhile True:\n"
                             "    keep.append(a.astype('float64'))", GROWTH),
    "random_choices": R("import random\nx = random.choices([1, 2], k=10 ** 9)", AT_ONCE),
    "random_sample": R("import random\nx = random.sample(range(10 ** 12), 10 ** 9)", AT_ONCE),
    "numpy_module_escape": R("import numpy as np\nnp.lib", "has no attribute 'lib'"),
    "numpy_load": R("import numpy as np\nnp.load('x.npy')", "has no attribute 'load'"),
    "numpy_fromfile": R("import numpy as np\nnp.fromfile('/etc/passwd')", "has no attribute 'fromfile'"),
    "numpy_memmap": R("import numpy as np\nm = np.memmap", "has no attribute 'memmap'"),
    "numpy_ctypes": R("import torch\nc = torch.ones(2).numpy().ctypes", "'ctypes' is not allowed"),
    "numpy_tofile": R("import torch\ntorch.ones(2).numpy().tofile('x')", "'tofile' is not allowed"),
    "numpy_dumps": R("import torch\nd = torch.ones(2).numpy().dumps()", "ndarray.dumps() is not available"),
    "numpy_resize": R("import torch\na = torch.ones(2).numpy()\na.resize(10 ** 9)",
                      "ndarray.resize() is not available"),
    "numpy_base_escape": R("import torch\na = torch.ones(2).numpy()[:1]\nb = a.base.repeat(10 ** 9)", AT_ONCE),
    "numpy_nonzero_escape": R("import torch\na = torch.ones(10).numpy()\ni = a.nonzero()[0]\nb = i.repeat(10 ** 9)",
                              AT_ONCE),
    "numpy_data_memoryview": R("import torch\nm = torch.ones(2).numpy().data", "memoryviews are not available"),
}

# Programs that try to leave something behind for the programs after them: each runs to its end (or its
# budget's), and the next program must see the engine as a fresh process does (test_walls.PROBE).
LEFTOVER_CORPUS = {
    "grad_mode_off": R("import torch\ntorch.set_grad_enabled(False)", None),
    "grad_mode_off_in_no_grad_forever": R("import torch\nwith torch.no_grad():\n    while True:\n        pass", TIME),
    "grad_mode_in_suspended_generator": R(
        "import torch\ntorch.set_grad_enabled(False)\ndef g():\n    with torch.enable_grad():\n        yield 1\n"
        "class Holder:\n    pass\nh = Holder()\nh.me = h\nh.gen = g()\nnext(h.gen)", None),
    "no_grad_decorated_generator": R("import torch\n@torch.no_grad()\ndef g():\n    yield 1\n    yield 2\nit = g()\n"
                                     "next(it)", None),
    "grad_mode_off_then_error": R("import torch\ntorch.set_grad_enabled(False)\nraise ValueError('stop')", "stop"),
    "grad_mode_off_in_function": R("import torch\ndef f():\n    torch.set_grad_enabled(False)\n    while True:\n"
                                   "        pass\nf()", TIME),
    "torch_seed": R("import torch\ntorch.manual_seed(123)\nx = torch.rand(3)", None),
    "torch_rng_state_set": R("import torch\ntorch.manual_seed(3)\ns = torch.get_rng_state()\nx = torch.rand(5)\n"
                             "torch.set_rng_state(s)", None),
    "torch_seed_then_error": R("import torch\ntorch.manual_seed(7)\nraise ValueError('stop')", "stop"),
    "python_random_seed": R("import random\nrandom.seed(99)\nx = random.random()", None),
    "numpy_random_seed": R("import numpy as np\nnp.random.seed(99)\nx = np.random.rand(3)", None),
    "tensor_hook_left": R("import torch\nx = torch.ones(1, requires_grad=True)\ndef hook(g):\n    while True:\n"
                          "        pass\nx.register_hook(hook)", None),
    "module_extra_repr": R("import torch\nclass M(torch.nn.Module):\n    def extra_repr(self):\n        while True:\n"
                           "            pass\nm = M()", None),
    "module_extra_repr_allocating": R("import torch\nclass M(torch.nn.Module):\n    def extra_repr(self):\n"
                                      "        x = [0] * 10 ** 6\n        return str(x * 200)\nm = M()", None),
    "module_named_parameters": R("import torch\nclass M(torch.nn.Module):\n    def __init__(self):\n"
                                 "        super().__init__()\n        self.w = torch.nn.Parameter(torch.ones(2))\n"
                                 "    def named_parameters(self, *a, **k):\n        while True:\n            pass\n"
                                 "m = M()\n(m.w * 2).sum().backward()", None),
    "instance_method_patched": R("import torch\nm = torch.nn.Linear(2, 2)\nm.forward = lambda x: x\n"
                                 "t = torch.ones(2)\nt.tolist = lambda: [1] * 10 ** 6", "Tensor defines it"),
    "exception_with_looping_str": R("class E(Exception):\n    def __str__(self):\n        while True:\n"
                                    "            pass\n"
                                    "raise E()", "<exception str() failed>"),
    "exception_with_allocating_str": R("class E(Exception):\n    def __str__(self):\n        return 'x' * 10 ** 7\n"
                                       "raise E()", "<exception str() failed>"),
    "object_with_looping_eq_bound": R("class A:\n    def __eq__(self, o):\n        while True:\n            pass\n"
                                      "    def __hash__(self):\n        return 1\na = A()\nb = [a, a]", None),
    "generator_with_finally_left": R("def g():\n    try:\n        yield 1\n    finally:\n        while True:\n"
                                     "            pass\nit = g()\nnext(it)", None),
    "generator_catching_left": R("def g():\n    while True:\n        try:\n            yield 1\n        except:\n"
                                 "            pass\nit = g()\nnext(it)", None),
    "lambda_in_list_left": R("fs = [lambda: print('late')] * 3", None),
    "reference_cycle_with_tensors": R("import torch\nclass A:\n    pass\na = A()\na.me = a\na.t = torch.ones(1000)",
                                      None),
    "dtype_attribute_patched": R("import torch\nx = torch.ones(2)\nx.dtype = 5\ny = x + 1", "Tensor defines it"),
    "error_message_surrogate": R("raise ValueError(chr(0xdc80) + 'x')", "x"),
    "printed_surrogate": R("print(chr(0xdc80), chr(0xd800) + 'x')", None),
    "optimizer_state_left": R("import torch\np = torch.ones(2, requires_grad=True)\nopt = torch.optim.Adam([p])\n"
                              "(p * 2).sum().backward()\nopt.step()", None),
    "inference_mode_forever": R("import torch\nwith torch.inference_mode():\n    while True:\n        pass", TIME),
}

# One C call that no tick of the guard interrupts, by class (issue 25): only the wall ends them, 1 s past their time
# budget, at their line (test_wall_deadline.py runs them with a 2 s budget). A tree of lists, dicts, tuples or
# modules nested 40 deep through shared references has 2**40 leaves; formatting, comparing or walking it is one
# call of C (or of the engine's own Python, which the guard does not instrument).
SHARED = "a = [0]\nfor i in range(40):\n    a = [a, a]\n"
MODULES = "import torch\nm = torch.nn.Linear(1, 1)\nfor i in range(40):\n    m = torch.nn.Sequential(m, m)\n"
DISTINCT = "s = ''.join(map(chr, range(256, 256 + 50000)))\n"
ONE_CALL_CORPUS = {
    "exception": {
        "percent_of_exception": R(SHARED + "e = ValueError(a)\ns = '%s' % (e,)", TIME),
        "fstring_of_exception": R(SHARED + "e = ValueError(a)\ns = f'{e}'", TIME),
        "print_key_error": R(SHARED + "print(KeyError(a))", TIME),
        "raise_with_it": R(SHARED + "raise ValueError(a)", TIME),
        "assert_with_it": R(SHARED + "assert False, a", TIME),
    },
    "shared trees": {
        "dict_tree_str": R("d = {'k': 0}\nfor i in range(40):\n    d = {'a': d, 'b': d}\ns = str(d)", TIME),
        "dict_tree_eq": R("d = {'k': 0}\ne = {'k': 0}\nfor i in range(40):\n    d = {'a': d, 'b': d}\n"
                          "    e = {'a': e, 'b': e}\nx = d == e", TIME),
        "list_tree_eq": R(SHARED + "b = [0]\nfor i in range(40):\n    b = [b, b]\nx = a == b", TIME),
        "tuple_tree_str": R("t = (0,)\nfor i in range(40):\n    t = (t, t)\ns = str(t)", TIME),
    },
    "module trees": {
        "module_tree_repr": R(MODULES + "s = repr(m)", TIME),
        "module_tree_print": R(MODULES + "print(m)", TIME),
        # (the engine's parameters() meets each module once: what does not end is the recorder naming them after)
        "module_tree_parameters": R(MODULES + "p = list(m.parameters())", TIME),
        "module_list_parameters": R("import torch\nm = torch.nn.Linear(1, 1)\nfor i in range(40):\n"
                                    "    m = torch.nn.ModuleList([m, m])\nn = sum(1 for p in m.parameters())", TIME),
    },
    # a regular expression that backtracks for ever (the re view, pure_views.py: admitted now the wall ends it)
    "regular expressions": {
        "nested_quantifiers_match": R("import re\nm = re.match('(a+)+$', 'a' * 64 + 'b')", TIME),
        "nested_quantifiers_sub": R("import re\ns = re.sub('(x+x+)+y', '', 'x' * 64)", TIME),
    },
    "codecs": {
        "punycode_encode": R(DISTINCT + "b = s.encode('punycode')", TIME),
        "punycode_encode_reversed": R(DISTINCT + "b = s[::-1].encode('punycode')", TIME),
    },
    "at the end": {
        "cycle_between_module_trees": R(MODULES + "class Net(torch.nn.Module):\n    pass\nn = Net()\nn.peer = m\n"
                                        "m.peer = n", "clear away"),
        "module_tree_left": R(MODULES, "clear away"),
    },
}

CATEGORIES = {"time": TIME_CORPUS, "memory": MEMORY_CORPUS, "output": OUTPUT_CORPUS, "recursion": RECURSION_CORPUS,
              "C-level": C_LEVEL_CORPUS, "sizing": SIZING_CORPUS, "leftovers": LEFTOVER_CORPUS}
CORPUS = {}
for _entries in CATEGORIES.values():
    assert not set(_entries) & set(CORPUS), set(_entries) & set(CORPUS)
    CORPUS.update(_entries)
