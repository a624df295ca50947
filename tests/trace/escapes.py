"""The escape corpus: programs that try to get out of the guard, or to run away, by category. Each entry is
(source, error type, line, words in the message): the program must end on that error, cleanly, or fail
harmlessly (an AttributeError or TypeError of its own). test_guard_escapes.py runs them all."""

from __future__ import annotations

from engine.trace.guard import BudgetExceeded as B
from engine.trace.guard import GuardError as E
from engine.trace.guard import GuardSyntaxError as S
from tests.trace.escapes_views import ANY, FILES, PURE, SYS

ANY_ERROR = (E, ImportError)  # refused, or an import the view does not hold
SUBCLASS = "import torch\nclass M(torch.nn.Module):\n    pass\nm = M()\n"  # a program's subclass of an engine class
OWN = "only those of the program's own"

# Walks from an object to frames, code, globals, builtins or every class in the process.
WALKS = {
    "subclasses_walk": ("x = 1\n().__class__.__bases__[0].__subclasses__()", E, 2, "starting with '_'"),
    "mro_walk": ("[].__class__.__mro__", E, 1, "'__mro__'"),
    "mro_method": ("str.mro()", E, 1, "'mro'"),
    "generator_frame": ("g = (x for x in [])\ng.gi_frame.f_back.f_globals", E, 2, "is not allowed"),
    "generator_code": ("g = (x for x in [1])\ng.gi_code", E, 2, "'gi_code'"),
    "generator_function_frame": ("def g():\n    yield 1\nx = g()\nnext(x)\nx.gi_frame", E, 5, "'gi_frame'"),
    "lambda_generator": ("g = lambda: (yield)\nx = g()", E, 1, "not a lambda"),
    "generator_yieldfrom": ("def g():\n    yield from [1]\nx = g()\nx.gi_yieldfrom", E, 4, "'gi_yieldfrom'"),
    "frame_attribute": ("def f():\n    pass\nf.f_back", E, 3, "'f_back'"),
    "sys_getframe_walk": ("import sys\nsys._getframe(0).f_back", E, 2, "'f_back'"),
    "traceback_frame": ("try:\n    1 / 0\nexcept Exception as e:\n    e.__traceback__", E, 4, "'__traceback__'"),
    "tb_attribute": ("try:\n    1 / 0\nexcept Exception as e:\n    t = e.with_traceback(None)\n    t.tb_frame",
                     E, 5, "'tb_frame'"),
    "exception_context": ("try:\n    1 / 0\nexcept Exception as e:\n    e.__context__", E, 4, "'__context__'"),
    "lambda_code": ("f = lambda: 0\nf.__code__", E, 2, "'__code__'"),
    "function_globals": ("def f():\n    pass\nf.__globals__", E, 3, "'__globals__'"),
    "func_globals": ("def f():\n    pass\nf.func_globals", E, 3, "'func_globals'"),
    "function_closure": ("def f():\n    x = 1\n    return lambda: x\nf().__closure__", E, 4, "'__closure__'"),
    "print_self": ("print.__self__", E, 1, "'__self__'"),
    "print_class_called": ("m = print.__class__\nm(len, 1)", TypeError, None, "not callable"),
    "builtins_name": ("__builtins__['open']", E, 1, "'__builtins__'"),
    "build_class_name": ("__build_class__", E, 1, "'__build_class__'"),
    "object_subclasses": ("object.__subclasses__()", E, 1, "'__subclasses__'"),
    "dunder_method_taken": ("f = [1].__iter__\nprint(f())", E, 1, "starting with '_'"),
    "dunder_call_starred": ("print([1].__getitem__(*[0]))", E, 1, "starting with '_'"),
    "dunder_call_keyword": ("print([1].__len__(n=1))", E, 1, "starting with '_'"),
    "type_mro": ("type(1).__mro__", E, 1, "'__mro__'"),
    "type_bases": ("class A:\n    pass\nA.__bases__", E, 3, "'__bases__'"),
    "type_base": ("int.__base__", E, 1, "'__base__'"),
    "type_subclasses": ("type(1).__subclasses__()", E, 1, "'__subclasses__'"),
    "type_mro_method": ("type(1).mro()", E, 1, "'mro'"),
    "class_dict": ("class A:\n    x = 1\nA.__dict__", E, 3, "'__dict__'"),
    "instance_dict": ("class A:\n    pass\nA().__dict__", E, 3, "'__dict__'"),
    "vars_of_class": ("class A:\n    pass\nvars(A)", E, 3, "vars() is allowed on the program's own objects only"),
    "vars_of_module": ("import math\nvars(math)", E, 2, "(not on a module)"),
    "vars_of_engine_object": ("import torch\nvars(torch.nn.Linear(1, 1))", E, 2, "(not on Linear objects)"),
    "getattr_self": ("getattr(print, '__se' + 'lf__')", E, 1, "'__self__'"),
    "getattr_globals": ("def f():\n    pass\ngetattr(f, '__globals__')", E, 3, "'__globals__'"),
    "getattr_frame": ("g = (x for x in [1])\ngetattr(g, 'gi_frame')", E, 2, "'gi_frame'"),
    "hasattr_dunder": ("hasattr(print, '__self__')", E, 1, "'__self__'"),
    "getattr_class_walk": ("getattr(1, '__class__').__subclasses__()", E, 1, "'__subclasses__'"),
    "getattr_not_a_string": ("getattr(1, 2)", TypeError, None, "must be string"),
}

# Builtins and names that reach outside, or that Python reserves for the interpreter.
BUILTINS = {
    "setattr": ("setattr(print, 'x', 1)", E, 1, "setting attributes of method objects is not allowed"),
    "setattr_dunder": ("class A:\n    pass\nsetattr(A, '__getattr__', print)", E, 3, "starting with '_'"),
    "setattr_module": ("import torch\nsetattr(torch, 'ones', print)", E, 2, "module objects"),
    "setattr_engine_private": (SUBCLASS + "setattr(m, '_parameters', {})", E, 5, OWN),
    "setattr_engine_class": ("import torch\nsetattr(torch.nn.Linear, 'forward', print)", E, 2, "type objects"),
    "setattr_forbidden_attribute": ("class A:\n    pass\nsetattr(A(), 'f_back', 1)", E, 3, "'f_back'"),
    "setattr_name_not_text": ("class A:\n    pass\nsetattr(A(), 3, 1)", TypeError, None, "must be string"),
    "delattr": ("delattr(print, 'x')", E, 1, "setting attributes of method objects is not allowed"),
    "delattr_module": ("import torch\ndelattr(torch, 'ones')", E, 2, "module objects"),
    "delattr_engine_private": (SUBCLASS + "delattr(m, '_parameters')", E, 5, OWN),
    "vars": ("vars()", E, 1, "vars() without an argument reads the program's names"),
    "dir": ("dir()", E, 1, "dir() without an argument reads the program's names"),
    "globals": ("x = 1\ng = globals()", E, 2, "'globals' is not allowed"),
    "locals": ("locals()", E, 1, "'locals' is not allowed"),
    "open": ("open('/etc/passwd')", FileNotFoundError, None, "No such file or directory"),
    "with_open": ("with open('/etc/passwd') as f:\n    pass", FileNotFoundError, None, "No such file or directory"),
    "compile": ("compile('1', 'f', 'eval')", E, 1, "give the text to eval() or exec() instead"),
    "system_exit": ("raise SystemExit", E, 1, "'SystemExit' is not allowed"),
    "exit": ("exit()", E, 1, "'exit' is not allowed"),
    "quit": ("quit(0)", E, 1, "'quit' is not allowed"),
    "keyboard_interrupt": ("raise KeyboardInterrupt", E, 1, "'KeyboardInterrupt'"),
    "generator_exit": ("raise GeneratorExit", E, 1, "'GeneratorExit'"),
    "base_exception": ("try:\n    pass\nexcept BaseException:\n    pass", E, 3, "'BaseException'"),
    "breakpoint": ("breakpoint()", E, 1, "'breakpoint' is not allowed"),
    "input": ("input()", E, 1, "'input' is not allowed"),
    "help": ("help()", E, 1, "'help' is not allowed"),
    "memoryview": ("memoryview(b'x')", E, 1, "'memoryview' is not allowed"),
    "bytes": ("b = bytes(10 ** 10)", E, 1, "'bytes' is not allowed"),
    "bytearray": ("b = bytearray(10 ** 10)", E, 1, "'bytearray' is not allowed"),
    "object": ("x = object", E, 1, "'object' is not allowed"),
    "dunder_import": ("__import__('os')", E, 1, "'__import__'"),
    "iter_callable": ("for i in iter(int, 1):\n    pass", E, 1, "iter(callable, sentinel)"),
    "iter_callable_alias": ("it = iter\nx = list(it(int, 1))", E, 2, "iter(callable, sentinel)"),
    "to_bytes": ("(1).to_bytes(10 ** 10, 'big')", E, 1, "'to_bytes'"),
    "except_star": ("try:\n    pass\nexcept* ValueError:\n    pass", E, 1, "except*"),
    "async": ("async def f():\n    pass", E, 1, "async"),
    "match": ("match 1:\n    case x:\n        pass", E, 1, "'match'"),
    "global_builtins": ("def f():\n    global __builtins__\n    __builtins__ = {}\nf()", E, 2, "starting with '_'"),
    "underscore_global": ("def f():\n    global _g_tick\nf()", E, 2, "starting with '_'"),
}

# Imports, and what the read-only module views hand out (or not).
MODULES = {
    "import_subprocess": ("import subprocess", E, 1, "('subprocess')"),
    "from_socket": ("x = 1\nfrom socket import socket", E, 2, "('socket')"),
    "import_operator": ("import operator\noperator.attrgetter('__class__')", AttributeError, 2, "attrgetter"),
    "import_importlib": ("import importlib", E, 1, "('importlib')"),
    "import_builtins": ("import builtins", E, 1, "('builtins')"),
    "import_future_private": ("from __future__ import _Feature", S, 1, "future feature _Feature is not defined"),
    "import_future_module": ("import __future__\n__future__.annotations", E, 2, "'__future__'"),
    "relative_import": ("from . import guard", E, 1, "('.')"),
    "private_torch_name": ("from torch import _C", E, 1, "'_C'"),
    "torch_dict": ("import torch\ntorch.__dict__", E, 2, "'__dict__'"),
    "torch_numpy_module": ("import torch\ntorch.np.os", AttributeError, None, "has no attribute 'np'"),
    "torch_os_module": ("import torch\ntorch.os.system('true')", AttributeError, None, "no attribute 'os'"),
    "torch_reexported_open": ("import torch\ntorch.loader('/etc/passwd')", AttributeError, None, "'loader'"),
    "torch_foreign_class": ("import torch\ntorch.Path('/etc/passwd').read_text()", AttributeError, None,
                            "'Path'"),
    # a torch's own save (this stand-in's writes files) is never in its view; the engine's takes io buffers and
    # the run's in-memory files, and refuses a bytes path (the machine's) at its line, as the site's sample of this
    # corpus checks with the engine (tests/site/test_wall.py)
    "torch_save": ("import torch\ntorch.save(1, b'x.txt')", AttributeError, None, "no attribute 'save'"),
    "getattr_torch_save": ("import torch\ngetattr(torch, 'sa' + 've')(1, b'x.txt')", AttributeError, None,
                           "no attribute 'save'"),
    "numpy_class_called": ("import torch\nt = torch.tensor(1.0)\nA = t.numpy().__class__\nA((10 ** 6, 10 ** 6))",
                           TypeError, None, "not callable"),
    "numpy_repeat": ("import torch\na = torch.tensor(1.0).numpy()\nb = a.repeat(10 ** 10)", B, 3,
                     "10,000,000,000 elements at once"),
    "numpy_resize": ("import torch\na = torch.tensor(1.0).numpy()\na.resize(10 ** 10)", E, 3, "ndarray.resize"),
    "numpy_tofile": ("import torch\ntorch.tensor(1.0).numpy().tofile('x.bin')", E, 2, "'tofile'"),
    "torch_star_import": ("from torch import *\nos.system('true')", NameError, None, "'os'"),
    "module_view_as_base": ("import torch\nclass A(torch):\n    pass", E, 2, "may only derive"),
    # matplotlib's pyplot (plot_view.py): the run's own, read-only, and none of its insides
    "pyplot_insides": ("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax._pyplot.runtime", E, 3,
                       "only those of the program's own"),
    "pyplot_closure": ("import matplotlib.pyplot as plt\nplt.plot.__closure__", E, 2, "'__closure__'"),
    "pyplot_class_called": ("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\ntype(ax)(None, 1)",
                            TypeError, None, "not callable"),
    "pyplot_set_axes_method": ("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot = print", E, 3,
                               "setting attributes of Axes objects"),
    "pyplot_set_module": ("import matplotlib\nmatplotlib.pyplot.show = print", E, 2, "module objects"),
    "pyplot_bound_self": ("import matplotlib.pyplot as plt\nd = plt.plot([1])[0]\nd.get_label.__self__", E, 3,
                          "'__self__'"),
    "pyplot_savefig": ("import matplotlib.pyplot as plt\nplt.plot([1])\nplt.savefig('x.png')", E, 3,
                       "plt.savefig() is not drawn"),
    # tqdm (tqdm_view.py): the run's own bar, read-only, and none of its insides
    "tqdm_write_globals": ("from tqdm import tqdm\ntqdm.write.__globals__", E, 2, "'__globals__'"),
    "tqdm_set_write": ("from tqdm import tqdm\ntqdm.write = print", E, 2, "function objects"),
    "tqdm_set_bar": ("from tqdm import tqdm\nb = tqdm([1])\nb.iterable = [2]", E, 3, "setting attributes of Bar"),
    "tqdm_bar_class_method": ("from tqdm import tqdm\ntype(tqdm([1])).update = print", E, 2, "setting attributes"),
    "tqdm_bar_as_base": ("from tqdm import tqdm\nclass B(type(tqdm([]))):\n    pass", E, 2, "may only derive"),
    "tqdm_std": ("from tqdm.std import tqdm", E, 1, "imports other than"),
    # sklearn and einops (sklearn_view/, einops_view/): the run's own functions and estimators, none of their insides
    "sklearn_run_state": ("from sklearn.model_selection import KFold\nKFold()._seeding", E, 2, "'_seeding'"),
    "sklearn_numpy_state": ("import numpy as np\nnp.random.RandomState(0)._state", E, 2, "'_state'"),
    "sklearn_set_function": ("import sklearn.datasets as d\nd.make_moons = print", E, 2, "module objects"),
    "sklearn_set_scaler": ("from sklearn.preprocessing import StandardScaler\ns = StandardScaler()\ns.mean_ = 1",
                           E, 3, "setting attributes of StandardScaler"),
    "sklearn_function_globals": ("from sklearn.datasets import make_moons\nmake_moons.__globals__", E, 2,
                                 "'__globals__'"),
    "sklearn_foreign_self": ("import torch\nfrom sklearn.preprocessing import StandardScaler\n"
                             "StandardScaler.fit(torch.Tensor, [[1.0]])", TypeError, 3,
                             "doesn't apply to a 'type' object"),
    "sklearn_estimator": ("from sklearn.linear_model import LogisticRegression", E, 1, "build the model in torch"),
    "einops_set_function": ("import einops\neinops.rearrange = print", E, 2, "module objects"),
    "einops_keras": ("import einops.layers.keras", E, 1, "einops.layers.torch"),
    "with_own_manager": ("import torch\ndef no_grad():\n    return [1]\nwith no_grad():\n    pass", E, 4,
                         "'with' is only allowed"),
    "with_engine_object": ("import torch\nno_grad = lambda: torch.tensor(1.0)\nwith no_grad():\n    pass", E, 3,
                           "'with' is only allowed"),
}

# Setting attributes of what every run shares (the engine's classes, functions, modules, dtypes).
MUTATION = {
    "set_class_attribute": ("import torch\ntorch.Tensor.backward = print", E, 2, "type objects"),
    "set_module_attribute": ("import torch\ntorch.tensor = print", E, 2, "module objects"),
    "set_math_attribute": ("import math\nmath.pi = 3", E, 2, "module objects"),
    "set_function_attribute": ("def f():\n    pass\nf.x = 1", E, 3, "function objects"),
    "set_shared_object": ("import torch\ntorch.float32.x = 1", E, 2, "not allowed"),
    "set_engine_subclass_attribute": ("import torch\ntorch.nn.Linear.forward = print", E, 2, "type objects"),
    "init_shared_object": ("import torch\ntorch.float32.__init__('float64')", E, 2,
                           "'__init__' can only be called on super()"),
    "init_via_class": ("import torch\nclass A(torch.nn.Module):\n    def __init__(self):\n"
                       "        torch.nn.Module.__init__(self)\nA()", E, 4, "'__init__' can only be called"),
    "set_class_of_object": ("class A:\n    pass\na = A()\na.__class__ = int", E, 4, "starting with '_'"),
    "set_dunder_on_class": ("class A:\n    pass\nA.__getattr__ = lambda s, n: 1", E, 3, "starting with '_'"),
    "set_private_engine_attribute": ("import torch\nx = torch.ones(2)\nx._version = 5", E, 3, "starting with '_'"),
    "engine_private_data": ("import torch\nx = torch.ones(2)\nx._data", E, 3, "'_data'"),
    "engine_private_parameters": ("import torch\nm = torch.nn.Linear(1, 1)\nm._parameters['weight'] = 1", E, 3,
                                  "'_parameters'"),
    "engine_saved_write": ("import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x * x\n"
                           "y.grad_fn._saved_self = 1", E, 4, "starting with '_'"),
    # `_private` attributes: only those the program's own classes define or its code set on its own objects
    "subclass_engine_internal_read": (SUBCLASS + "m._backward_hooks", E, 5, OWN),
    "subclass_engine_internal_write": (SUBCLASS + "m._parameters = {}", E, 5, OWN),
    "subclass_engine_internal_delete": (SUBCLASS + "del m._modules", E, 5, OWN),
    "subclass_engine_method_read": (SUBCLASS + "f = m._apply", E, 5, OWN),
    "subclass_engine_method_set_on_class": (SUBCLASS + "M._apply = print", E, 5, OWN),
    "subclass_engine_internal_getattr": (SUBCLASS + "getattr(m, '_backward' + '_hooks')", E, 5, OWN),
    "subclass_engine_internal_hasattr": (SUBCLASS + "hasattr(m, '_backward_hooks')", E, 5, OWN),
    "subclass_engine_internal_augmented": (SUBCLASS + "m._version_counter = 1\nm._backward_hooks += 1", E, 6,
                                           "only those of the program's own"),
    # a module's tables are read-only views (module_tables.py): nothing of the tables behind them can change
    "module_table_set_item": (SUBCLASS + "m._modules['x'] = m", E, 5, "read-only here ('_modules')"),
    "module_table_delete_item": (SUBCLASS + "m._parameters['w'] = 1\ndel m._parameters['w']", E, 5,
                                 "read-only here ('_parameters')"),
    "module_table_augmented": (SUBCLASS + "t = m._buffers\nt |= {'b': 1}", E, 6, "read-only here ('_buffers')"),
    "module_table_attribute_set": (SUBCLASS + "m._modules.x = 1", E, 5, "setting attributes of TableView"),
    "module_table_behind": (SUBCLASS + "m._parameters._table", E, 5, "only those of the program's own"),
    "module_table_by_setattr": (SUBCLASS + "setattr(m._buffers, 'update', print)", E, 5,
                                "setting attributes of TableView"),
    "module_table_method": (SUBCLASS + "m._parameters.pop('weight')", AttributeError, 5, "'pop'"),
    "module_table_keys_mapping": (SUBCLASS + "m._parameters.keys().mapping['w'] = 1", TypeError, 5,
                                  "does not support item assignment"),
    "module_table_of_own_class": ("class A:\n    pass\na = A()\na._parameters", AttributeError, 4,
                                  "no attribute '_parameters'"),
    "subclass_redefines_engine_method": ("import torch\nclass M(torch.nn.Module):\n    def _apply(self, fn):\n"
                                         "        return self", E, 2, "may not redefine '_apply'"),
    "subclass_redefines_engine_attribute": ("import torch\nclass M(torch.nn.Module):\n    _call_count = 1", E, 2,
                                            "may not redefine '_call_count'"),
    "subclass_shadows_engine_attribute": ("import torch\nclass M(torch.nn.Module):\n    _backward_hooks = []\n"
                                          "m = M()\nm._backward_hooks", E, 5, "only those of the program's own"),
    "engine_object_private": ("import torch\nx = torch.ones(1)\nx._grad = x", E, 3, "only those of the program's own"),
    "engine_function_private": ("import torch\ntorch.tensor._cache = 1", E, 2, "only those of the program's own"),
    "module_view_private": ("import torch\ntorch._C", E, 2, "only those of the program's own"),
    "super_engine_private": ("import torch\nclass M(torch.nn.Module):\n    def g(self):\n"
                             "        return super()._apply\nM().g()", E, 4, "only those of the program's own"),
    "super_engine_private_past_own": ("import torch\nclass A(torch.nn.Module):\n    def _f(self):\n        return 1\n"
                                      "class B(A):\n    def _parameters_of(self):\n"
                                      "        return super()._apply\nB()._parameters_of()", E, 7,
                                      "only those of the program's own"),
    "stdlib_object_private": ("import functools\np = functools.partial(print)\np._x = 1", E, 3,
                              "only those of the program's own"),
}

# Format strings: attribute and item look-ups, nested and huge widths.
FORMATTING = {
    "format_attribute": ("'{0.__class__}'.format(1)", E, 1, "not look-ups ('{0.__class__}')"),
    "format_globals": ("def f():\n    pass\n'{0.__globals__}'.format(f)", E, 3, "not look-ups"),
    "format_item": ("'{0[0]}'.format([1])", E, 1, "not look-ups"),
    "format_keyword_attribute": ("'{x.__class__}'.format(x=1)", E, 1, "not look-ups"),
    "format_unbound": ("str.format('{0.__class__}', 1)", E, 1, "not look-ups"),
    "format_nested_spec": ("'{:{}}'.format(1, 10 ** 9)", E, 1, "format specs cannot contain"),
    "format_wide": ("'{:>999999999}'.format(1)", E, 1, "format widths"),
    "format_precision": ("'{:.99999}'.format(1.5)", E, 1, "format widths"),
    "format_huge_argument": ("a = [[0] * 1000] * 1000\ns = '{}'.format(a)", B, 2, "too big to show"),
    "format_map": ("'{x.__globals__}'.format_map({'x': print})", E, 1, "'format_map'"),
    "bare_format": ("f = ''.format", E, 1, "'.format' can only be called directly"),
    "getattr_format": ("f = getattr('{0.__class__}', 'format')", E, 1, "'.format' can only be called"),
    "format_builtin_wide": ("format(1, '>999999999')", E, 1, "format widths"),
    "format_dunder": ("(1).__format__('>999999999')", E, 1, "'__format__'"),
    "fstring_dunder": ("f'{print.__self__}'", E, 1, "'__self__'"),
    "fstring_nested_spec": ("f'{1:{10 ** 9}}'", E, 1, "format specs"),
    "fstring_wide": ("f'{1:>999999999}'", E, 1, "format widths"),
    "percent_wide": ("s = '%0999999999d' % 1", E, 1, "format widths"),
    "percent_star": ("s = '%*d' % (10 ** 9, 1)", E, 1, "format widths"),
    "aliased_join": ("j = ''.join\nj(['a'])", E, 1, "'.join' can only be called directly"),
    "unbound_ljust": ("f = str.ljust", E, 1, "'.ljust'"),
    "getattr_join": ("j = getattr(',', 'join')", E, 1, "'.join' can only be called"),
}

# The dunder methods a class may not define: Python or C runs them at odd times (collection, attribute
# look-up, class creation, subclassing), or they would size, format, or make objects behind the guard.
REFUSED_DUNDERS = """__del__ __getattribute__ __getattr__ __setattr__ __delattr__ __dir__ __init_subclass__
    __class_getitem__ __set_name__ __get__ __set__ __delete__ __reduce__ __reduce_ex__ __getstate__
    __setstate__ __copy__ __deepcopy__ __new__ __index__ __int__ __float__ __complex__ __bytes__ __format__
    __sizeof__ __length_hint__ __instancecheck__ __subclasscheck__ __subclasshook__ __mro_entries__ __prepare__
    __enter__ __exit__ __await__ __aiter__ __anext__ __buffer__ __release_buffer__ __array__ __array_ufunc__
    __array_function__ __torch_function__ __fspath__ __missing__ __class__ __dict__""".split()

CLASSES = {
    f"class_defines{name[:-2]}": (f"class A:\n    def {name}(self, *args):\n        pass", E, 2,
                                  f"may not define {name!r}")
    for name in REFUSED_DUNDERS
}
CLASSES.update({
    # metaclasses and class-making
    "metaclass_keyword": ("class M:\n    pass\nclass A(metaclass=M):\n    pass", E, 3, "class keywords"),
    "class_keyword": ("class A(flag=1):\n    pass", E, 1, "class keywords"),
    "class_keywords_unpacked": ("kw = {'metaclass': print}\nclass A(**kw):\n    pass", E, 2, "class keywords"),
    "metaclass_from_type_builtin": ("class M(type):\n    pass", E, 1, "may only derive"),
    "metaclass_from_class_of_class": ("class A:\n    pass\nM = A.__class__\nclass B(M):\n    pass", E, 4,
                                      "may only derive"),
    "type_three_args": ("A = type('A', (), {})", E, 1, "type() with three arguments"),
    "type_three_args_alias": ("t = type\nA = t('A', (), {'__del__': print})", E, 2, "type() with three arguments"),
    "type_of_type_called": ("T = type(type(1))\nT('A', (), {})", TypeError, None, "not callable"),
    "class_of_class_called": ("class A:\n    pass\nA.__class__('B', (A,), {})", TypeError, None, "not callable"),
    # bases
    "derive_tensor": ("import torch\nclass T(torch.Tensor):\n    pass", E, 2, "may only derive"),
    "derive_str": ("class S(str):\n    pass", E, 1, "may only derive"),
    "derive_list": ("class L(list):\n    pass", E, 1, "may only derive"),
    "derive_function_class": ("class F(type(print)):\n    pass", E, 1, "may only derive"),
    "derive_engine_class": ("import torch\nclass N(type(torch.no_grad())):\n    pass", E, 2, "may only derive"),
    "derive_object_instance": ("class B:\n    pass\nclass A(B()):\n    pass", E, 3, "may only derive"),
    "derive_generic_alias": ("class A(list[int]):\n    pass", E, 1, "may only derive"),
    "derive_unpacked": ("bases = ()\nclass A(*bases):\n    pass", E, 2, "unpacked"),
    "derive_system_exit": ("class Stop(SystemExit):\n    pass", E, 1, "'SystemExit' is not allowed"),
    # super walks
    "super_other_type": ("super(int, 1)", E, 1, "'super' is only allowed"),
    "super_as_value": ("s = super", E, 1, "'super' is only allowed"),
    "super_other_object": ("class A:\n    def f(self):\n        return super(A, print)\nA().f()", E, 3,
                           "'super' is only"),
    "super_other_argument": ("class A:\n    def f(self, other):\n        return super(A, other)\nA().f(A())", E, 3,
                             "'super' is only"),
    "super_outside_method": ("def f(x):\n    return super(int, x)\nf(1)", E, 2, "'super' is only"),
    "super_keywords": ("class A:\n    def f(self):\n        return super(A, obj=self)\nA().f()", E, 3,
                       "'super' is only"),
    "super_thisclass": ("class A:\n    def f(self):\n        return super().__thisclass__\nA().f()", E, 3,
                        "'__thisclass__'"),
    "super_self": ("class A:\n    def f(self):\n        return super().__self__\nA().f()", E, 3, "'__self__'"),
    "super_class_called": ("class A:\n    def f(self):\n        return super().__class__\nA().f()(int, 1)",
                           TypeError, None, "not callable"),
    "super_of_type_called": ("class A:\n    def f(self):\n        return type(super())\nA().f()(int, 1)",
                             TypeError, None, "not callable"),
    # class bodies, decorators, class attributes
    "class_body_loop": ("class A:\n    for i in range(10 ** 9):\n        pass", E, 2, "class body may only"),
    "class_body_call": ("class A:\n    print('made')", E, 2, "class body may only"),
    "class_body_if": ("class A:\n    if True:\n        x = 1", E, 2, "class body may only"),
    "class_body_walrus": ("class A:\n    (x := 1)", E, 2, "class body may only"),
    "class_body_import": ("class A:\n    import math", E, 2, "class body may only"),
    "class_decorator_reaches_builtins": ("def d(cls):\n    return cls.__dict__\n@d\nclass A:\n    pass", E, 2,
                                         "'__dict__'"),
    "class_slots": ("class A:\n    __slots__ = ()", E, 2, "starting with '_'"),
    "class_dunder_assigned": ("class A:\n    __getattr__ = print", E, 2, "starting with '_'"),
    "class_len_assigned": ("class A:\n    __len__ = len", E, 2, "starting with '_'"),
    "class_module_assigned": ("class A:\n    __module__ = 'engine'", E, 2, "starting with '_'"),
    "class_name_cell": ("class A:\n    def f(self):\n        return __class__\nA().f()", E, 3, "starting with '_'"),
    "mangled_method": ("class A:\n    def __hidden(self):\n        pass", E, 2, "starting with '_'"),
    "dunder_function_outside_class": ("def __init__(self):\n    pass", E, 1, "starting with '_'"),
    # what type(x) and x.__class__ give of classes a program may not use
    "bytes_class_called": ("B = type(b'')\nb = B(10 ** 10)", TypeError, None, "not callable"),
    "range_class_called": ("R = type(range(1))\nr = list(R(10 ** 12))", TypeError, None, "not callable"),
    "classname_private": ("type(b'')._cls", E, 1, "'_cls'"),
    "classname_getattr": ("getattr(type(b''), '_c' + 'ls')", E, 1, "'_cls'"),
    "classname_set": ("B = type(b'')\nB.x = 1", E, 2, "setting attributes of ClassName objects"),
    # __len__ sizes what list() allocates
    "len_huge": ("class A:\n    def __len__(self):\n        return 10 ** 9\n    def __getitem__(self, i):\n"
                 "        raise IndexError(i)\nx = list(A())", E, 6, "__len__() returned 1,000,000,000"),
    "len_not_int": ("class A:\n    def __len__(self):\n        return 2.5\nlen(A())", TypeError, None,
                    "cannot be interpreted as an integer"),
})

# What leaves nothing to run: the whole program is refused, with its line.
WHOLE_PROGRAM = {
    "syntax_error": ("x = 1\nif x\n    pass", S, 2, ""),
    "null_byte": ("x = 1\0", S, ANY, ""),
    "return_outside_function": ("x = 1\nreturn x", S, 2, "outside function"),
    "nonlocal_without_binding": ("def f():\n    nonlocal x", S, 2, "no binding for nonlocal"),
    "syntax_error_in_refused_statement": ("import os\ndef f():\n    nonlocal x", S, 3, "no binding for nonlocal"),
    "yield_outside_function": ("yield 1", S, 1, "outside function"),
    "deep_nesting": ("x = " + "-" * 300 + "1", E, 1, "nested too deeply"),
    "too_long": ("x = 1\n" * 20_000, E, None, "longer than"),
}

# Runaway programs: the budget stops them.
RUNAWAY = {
    "endless_while": ("x = 0\nwhile True:\n    pass", B, 2, "ran longer than"),
    "catch_the_budget": ("while True:\n    try:\n        while True:\n            pass\n"
                         "    except Exception as e:\n        print(e)", B, 3, "ran longer than"),
    "bare_except": ("while True:\n    try:\n        while True:\n            pass\n    except:\n        pass",
                    B, 3, "ran longer than"),
    "finally_return": ("def f():\n    try:\n        while True:\n            pass\n    finally:\n"
                       "        return 1\nf()\nprint('not reached')", B, 3, "ran longer than"),
    "catch_a_refusal": ("try:\n    import socket\nexcept Exception:\n    print('caught')", E, 2, "('socket')"),
    "finally_return_refusal": ("def f():\n    try:\n        import socket\n    finally:\n        return 1\nf()\n"
                               "print('not reached')", E, 3, "('socket')"),
    "finally_return_runtime_refusal": ("def f():\n    try:\n        '{0.__class__}'.format(1)\n    finally:\n"
                                       "        return 1\nf()\nprint('not reached')", E, 3, "not look-ups"),
    "busy_comprehensions": ("while 1:\n    x = [y for y in range(10)]", B, ANY, "ran longer than"),
    "endless_comprehension": ("a = [1]\nb = [a.append(x) for x in a]", B, 2, "ran longer than"),
    "endless_generator": ("def g():\n    while True:\n        yield 1\nx = list(g())", B, 2, "ran longer than"),
    "endless_generator_sum": ("def g():\n    while True:\n        yield 1\nx = sum(g())", B, 2, "ran longer than"),
    # deep recursion ends in RecursionError, or on a loaded machine first in the time budget
    "generator_recursion": ("def g():\n    yield from g()\nx = list(g())", (RecursionError, B), ANY, ""),
    "huge_range": ("x = [i for i in range(10 ** 18)]", B, 1, "ran longer than"),
    "huge_range_in_c": ("x = sum(range(10 ** 15))", B, 1, "ran longer than"),
    "list_of_huge_range": ("x = list(range(10 ** 12))", B, 1, "ran longer than"),
    "recursion": ("def f():\n    f()\nf()", B, 1, "nested more than 100 deep"),
    "mutual_recursion": ("def a():\n    b()\ndef b():\n    a()\na()", B, 1, "nested more than"),
    "lambda_recursion": ("f = lambda: f()\nf()", B, 1, "nested more than"),
    "method_recursion": ("class A:\n    def f(self):\n        return self.f()\nA().f()", B, 2, "nested more than"),
    "repr_recursion": ("class A:\n    def __repr__(self):\n        return repr(self)\nprint(A())", B, 2,
                       "nested more than"),
    "recursion_caught": ("def f():\n    try:\n        f()\n    except Exception:\n        f()\nf()", B, 1,
                         "nested more than"),
    "print_flood": ("while True:\n    print('x' * 100)", B, 2, "printed more than"),
    "big_list": ("x = 1\ny = [0] * 10 ** 10", B, 2, "10,000,000,000 elements"),
    "big_string": ("s = 'a' * 10 ** 10", B, 1, "10,000,000,000 elements"),
    "big_string_chain": ("s = 'a' * 10 ** 5 * 10 ** 5", B, 1, "elements at once"),
    "big_power": ("x = 2 ** 10 ** 10", B, 1, "bits are too big"),
    "big_power_tower": ("x = 10 ** 10 ** 10", B, 1, "bits are too big"),
    "big_shift": ("x = 1 << 10 ** 10", B, 1, "bits are too big"),
    "big_pow_builtin": ("x = pow(10, 10 ** 10)", B, 1, "bits are too big"),
    "squaring_loop": ("x = 3\nwhile True:\n    x = x * x", B, 3, "bits are too big"),
    "doubling_string": ("s = 'a'\nwhile True:\n    s = s + s", B, 3, "elements"),
    "doubling_list": ("a = [0]\nwhile True:\n    a += a", B, 3, "elements"),
    "doubling_extend": ("a = [0]\nwhile True:\n    a.extend(a)", B, 3, "elements"),
    "doubling_multiply": ("a = [0]\nwhile True:\n    a *= 2", B, 3, "elements"),
    "doubling_in_method": ("class A:\n    def __init__(self):\n        self.a = [0]\n    def grow(self):\n"
                           "        self.a += self.a\nx = A()\nwhile True:\n    x.grow()", B, 5, "elements"),
    "huge_ljust": ("s = 'x'.ljust(10 ** 10)", B, 1, "elements"),
    "huge_join": ("s = ','.join(['x' * 10 ** 5] * 10 ** 5)", B, 1, "elements"),
    "huge_replace": ("s = ('a' * 1000).replace('', 'b' * 10 ** 4)", B, 1, "elements"),
    "sum_of_lists": ("x = sum([[0] * 1000] * 1000, [])", E, 1, "sum() can't add up lists"),
    "big_factorial": ("import math\nx = math.factorial(10 ** 7)", B, 2, "math.factorial"),
    "big_prod": ("import math\nx = math.prod([10 ** 5000] * 100)", B, 2, "bits are too big"),
    "huge_tensor": ("import torch\nx = torch.ones(2)\ny = torch.ones(10 ** 9)", B, 3, "elements at once"),
    "many_tensors": ("import torch\nwhile True:\n    x = torch.ones(10 ** 6)", B, 3, "in all"),
    "print_many_args": ("s = 'x' * 1000\nprint(*[s] * 1000)", B, 2, "too big to show"),
    "many_fstring_parts": ("s = 'x' * 90000\nt = f'" + "{s}" * 1000 + "'", B, 2, "in all"),
    "round_huge_digits": ("x = round(5, -10 ** 9)", E, 1, "round() to more than"),
    "nested_print": ("a = [[[0] * 100] * 100] * 100\nprint(a)", B, 2, "too big to show"),
    "nested_fstring": ("a = [0] * 1000\nb = [a] * 1000\ns = f'{b}'", B, 3, "too big to show"),
    "nested_percent": ("a = [0] * 1000\nb = [a] * 1000\ns = '%s' % (b,)", B, 3, "too big to show"),
}

# eval() and exec() of text: held to the same allow-list and budgets, at the line that called them.
EVAL = {
    "eval_dunder_walk": ("x = 1\neval('().__class__.__bases__[0].__subclasses__()')", E, 2, "starting with '_'"),
    "exec_function_globals": ("exec('def f():\\n    pass\\nf.__globals__')", E, 1, "'__globals__'"),
    "eval_nested": ("eval(\"eval('print.__self__')\")", E, 1, "'__self__'"),
    "eval_nested_by_name": ("s = \"getattr(print, '__' + 'self__')\"\nt = 'eval(s)'\neval(t)", E, 3, "'__self__'"),
    "eval_name_built_from_strings": ("name = '__im' + 'port__'\neval(name + \"('os')\")", E, 2, "starting with '_'"),
    "eval_getattr_built_name": ("eval(\"getattr(print, '_' * 2 + 'self' + '_' * 2)\")", E, 1, "'__self__'"),
    "eval_hook_name": ("x = 1\neval('_g_method')", E, 2, "starting with '_'"),
    "eval_builtins_name": ("eval('__builtins__')", E, 1, "'__builtins__'"),
    "eval_generator_frame": ("eval('(x for x in []).gi_frame')", E, 1, "'gi_frame'"),
    "eval_format_walk": ("eval(\"'{0.__class__}'.format(1)\")", E, 1, "format fields"),
    "eval_forbidden_name": ("eval('globals')", E, 1, "'globals' is not allowed"),
    "eval_vars": ("eval('vars()')", E, 1, "vars() without an argument reads the program's names"),
    "exec_import_os": ("exec('import socket')", E, 1, "imports other than"),
    "exec_import_name": ("x = 1\nexec('from torch import os')", ANY_ERROR, ANY, ""),
    "exec_global_builtins": ("exec('global __builtins__')", E, 1, "starting with '_'"),
    "exec_metaclass": ("exec('class A(metaclass=type):\\n    pass')", E, 1, "class keywords"),
    "exec_defines_del": ("exec('class A:\\n    def __del__(self):\\n        pass')", E, 1, "may not define"),
    "exec_in_class_body": ("class A:\n    exec('__init_subclass__ = 1')", E, 2, "class body may only"),
    "exec_module_attribute": ("exec('import math\\nmath.x = 1')", E, 1, "setting attributes of module"),
    "exec_globals_with_builtins": ("exec('x = 1', {'__builtins__': {}})", E, 1, "may not hold"),
    "exec_globals_with_import": ("def imp(*a):\n    return 1\n"
                                 "exec('import torch', {'__builtins__': {'__import__': imp}})", E, 3, "'__builtins__'"),
    "exec_globals_with_build_class": ("exec('class A:\\n    pass', {'__build_class__': print})", E, 1, "may not hold"),
    "exec_locals_with_tick": ("exec('while True:\\n    pass', {}, {'_g_tick': abs})", E, 1, "'_g_tick'"),
    "exec_globals_with_hook": ("exec('x = print.x', {'_g_attr': print})", E, 1, "'_g_attr'"),
    "exec_locals_with_builtins": ("exec('x = 1', None, {'__builtins__': {}})", E, 1, "may not hold"),
    "exec_globals_keep_no_hooks": ("g = {}\nexec('x = 1', g)\ny = g['_g_method']", KeyError, None, "_g_method"),
    "exec_globals_keep_no_builtins": ("g = {}\nexec('x = 1', g)\ny = g['__builtins__']", KeyError, None,
                                      "__builtins__"),
    "exec_globals_function_globals": ("g = {}\nexec('def f():\\n    pass', g)\ng['f'].__globals__", E, 3,
                                      "'__globals__'"),
    "eval_globals_not_a_dict": ("x = eval('1', [('a', 1)])", TypeError, None, "must be a dict"),
    "eval_locals_not_a_dict": ("class M:\n    def __getitem__(self, k):\n        return 1\nx = eval('y', {}, M())",
                               TypeError, None, "must be a dict"),
    "exec_a_function": ("def f():\n    pass\nexec(f)", TypeError, None, "a string"),
    "exec_closure": ("exec('x = 1', closure=None)", TypeError, None, "keyword"),
    "eval_by_sorted_key": ("x = sorted(['print.__self__'], key=eval)", E, 1, "'__self__'"),
    "eval_by_map": ("x = 1\ny = list(map(exec, ['import socket']))", E, 2, "imports other than"),
    "exec_catches_refusal": ("try:\n    exec('import socket')\nexcept Exception:\n    pass\nprint(1)", E, 2,
                             "imports"),
    "exec_catches_inner_refusal": ("exec('try:\\n    eval(\"print.__self__\")\\nexcept Exception:\\n    pass')", E, 1,
                                   "'__self__'"),
    "exec_endless_loop": ("x = 1\nexec('while True:\\n    pass')", B, 2, ""),
    "exec_endless_function": ("exec('def f():\\n    while True:\\n        pass')\nf()", B, 1, ""),
    "eval_recursion": ("s = 'eval(s)'\neval(s)", B, 2, "nested more than"),
    "exec_big_power": ("exec('x = 2 ** 10 ** 10')", B, 1, "bits are too big"),
    "exec_big_list": ("x = 1\nexec('y = [0] * 10 ** 10')", B, 2, "elements at once"),
    "exec_print_flood": ("exec('while True:\\n    print(100 * \"x\")')", B, 1, "printed more than"),
    "exec_too_long": ("exec('x = 1\\n' * 20000)", E, 1, "longer than 100,000 characters"),
    "eval_nested_too_deeply": ("eval('-' * 1000 + '1')", E, 1, "nested too deeply"),
    "exec_refused_after_caught_syntax_error": ("try:\n    eval('1 +')\nexcept SyntaxError:\n    pass\neval('globals')",
                                               E, 5, "'globals' is not allowed"),
}

# The standard library's modules a program may import (engine/trace/stdlib_views.py): no name that evaluates
# text, walks objects or changes what other runs share; decorators take only the program's own classes and
# functions; what never ends ticks.
STDLIB = {
    "signature_sentinel_default": ("import inspect\nimport dataclasses\ninspect.signature(dataclasses.field)", E, 3,
                                   "whose defaults are plain values"),
    "signature_from_callable": ("import inspect\nimport dataclasses\ndef f(x):\n    pass\n"
                                "inspect.signature(f).from_callable(dataclasses.field)", E, 5,
                                "whose defaults are plain values"),
    "dataclass_engine_class": ("import torch\nfrom dataclasses import dataclass\ndataclass(torch.Tensor)", E, 3,
                               "only decorate the program's own classes"),
    "dataclass_engine_class_options": ("import torch\nimport dataclasses\nd = dataclasses.dataclass(eq=False)\n"
                                       "d(torch.Tensor)", E, 4, "only decorate the program's own classes"),
    "dataclass_builtin_class": ("from dataclasses import dataclass\ndataclass(ValueError)", E, 2,
                                "only decorate the program's own classes"),
    "total_ordering_engine_class": ("import torch\nimport functools\nfunctools.total_ordering(torch.Tensor)", E, 3,
                                    "only decorate the program's own classes"),
    "wraps_engine_function": ("import torch\nfrom functools import wraps\nwraps(print)(torch.tensor)", E, 3,
                              "only decorate the program's own functions"),
    "wraps_stdlib_function": ("import copy\nimport functools\nfunctools.wraps(print)(copy.deepcopy)", E, 3,
                              "only decorate the program's own functions"),
    "update_wrapper_absent": ("from functools import update_wrapper", ImportError, None, "cannot import name"),
    "get_type_hints_absent": ("from typing import get_type_hints", ImportError, None, "cannot import name"),
    "make_dataclass_absent": ("import dataclasses\ndataclasses.make_dataclass('A', [])", AttributeError, None,
                              "has no attribute 'make_dataclass'"),
    "string_formatter_absent": ("import string\nstring.Formatter().format('{0.__class__}', 1)", AttributeError,
                                None, "has no attribute 'Formatter'"),
    "typing_final_absent": ("import typing\ntyping.final", AttributeError, None, "has no attribute 'final'"),
    "strftime_absent": ("import time\ntime.strftime('%H')", AttributeError, None, "has no attribute 'strftime'"),
    "collections_module_set": ("import collections\ncollections.OrderedDict = dict", E, 2, "setting attributes"),
    "collections_class_set": ("import collections\ncollections.OrderedDict.x = 1", E, 2, "setting attributes"),
    "typing_alias_set": ("from typing import List\nL = List[int]\nL.x = 1", E, 3, "setting attributes"),
    "partial_set": ("import functools\np = functools.partial(print, 1)\np.x = 1", E, 3, "setting attributes"),
    "lru_cache_of_print_set": ("import functools\nf = functools.lru_cache(print)\nf.x = 1", E, 3,
                               "setting attributes"),
    "field_walk": ("import dataclasses\nf = dataclasses.field(default=1)\nf._field_type", E, 3,
                   "starting with '_'"),
    "namedtuple_field_code": ("from collections import namedtuple\nP = namedtuple('P', ['x', 'import os'])",
                              ValueError, None, "identifiers"),
    "sleep_past_budget": ("import time\ntime.sleep(1000)", B, 2, "would run past the time limit"),
    "count_summed": ("import itertools\nx = sum(itertools.count())", B, 2, "ran longer than"),
    "cycle_listed": ("from itertools import cycle\nx = max(cycle([1, 2]))", B, 2, "ran longer than"),
    "repeat_forever": ("import itertools\nx = sum(itertools.repeat(1))", B, 2, "ran longer than"),
    "repeat_huge": ("import itertools\nx = sum(itertools.repeat(1, 10 ** 12))", B, 2, "ran longer than"),
    "reduce_of_count": ("import functools, itertools\nx = functools.reduce(max, itertools.count())", B, 2,
                        "ran longer than"),
    "import_os_still": ("import collections, socket", E, 1, "imports other than"),
    "import_collections_abc": ("import collections.abc", E, 1, "imports other than"),
    # argparse (argparse_view.py): no files, no exit, nothing of the parser to change
    "argparse_fromfile": ("import argparse\np = argparse.ArgumentParser(fromfile_prefix_chars='@')\n"
                          "p.parse_args(['@/etc/passwd'])", E, 2, "reads files"),
    "argparse_filetype": ("import argparse\nargparse.FileType('r')('/etc/passwd')", AttributeError, None,
                          "FileType"),
    "argparse_set_parser": ("import argparse\np = argparse.ArgumentParser()\np.exit = print", E, 3,
                            "setting attributes of ArgumentParser"),
    "argparse_private": ("import argparse\np = argparse.ArgumentParser()\np._read_args_from_files(['@x'])", E, 3,
                         "'_read_args_from_files'"),
    "argparse_as_base": ("import argparse\nclass P(argparse.ArgumentParser):\n    pass", E, 2, "may only derive"),
    "argparse_help_exits": ("import argparse\nargparse.ArgumentParser().parse_args(['-h'])\nprint('on')", E, 2,
                            "exited"),
}

CATEGORIES = {"walks": WALKS, "builtins": BUILTINS, "modules": MODULES, "mutation": MUTATION,
              "formatting": FORMATTING, "classes": CLASSES, "whole_program": WHOLE_PROGRAM, "runaway": RUNAWAY,
              "eval": EVAL, "stdlib": STDLIB, "files": FILES, "sys": SYS, "pure views": PURE}
CORPUS = {}
for _entries in CATEGORIES.values():
    assert not set(_entries) & set(CORPUS), set(_entries) & set(CORPUS)
    CORPUS.update(_entries)
