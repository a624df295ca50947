"""Escape attempts on the views of os, sys, open(), pathlib, glob, re, contextlib, queue, csv, struct, traceback,
gc, timeit, logging, matplotlib's modules and the torch submodules admitted with them (escapes.py's form: source,
error type, line, words)."""

from __future__ import annotations

from pickle import PicklingError, UnpicklingError

from engine.trace.guard import BudgetExceeded as B
from engine.trace.guard import GuardError as E
from engine.trace.sys_view import ProgramExit

ANY = object()  # any line
OWN = "only those of the program's own"
NOT_THERE = "No such file or directory"

FILES = {
    "open_real_file": ("open('/etc/passwd')", FileNotFoundError, None, NOT_THERE),
    "open_real_file_relative": ("open('../../../../etc/hostname').read()", FileNotFoundError, None, NOT_THERE),
    "with_open_real_file": ("with open('/etc/passwd') as f:\n    pass", FileNotFoundError, None, NOT_THERE),
    "open_an_engine_file": ("import torch\nopen(torch.__file__)", E, 2, "'__file__'"),
    "open_opener": ("open('x', 'w', opener=print)", E, 1, "opener"),
    "pathlib_real_file": ("from pathlib import Path\nPath('/etc/passwd').read_text()", FileNotFoundError, None,
                          NOT_THERE),
    "listdir_real_directory": ("import os\nos.listdir('/etc')", FileNotFoundError, None, NOT_THERE),
    "glob_real_files": ("import glob\nx = glob.glob('/etc/*')\nx[0]", IndexError, None, "out of range"),
    "os_system_absent": ("import os\nos.system('true')", AttributeError, None, "no attribute 'system'"),
    "pickle_loads_a_global": ("import pickle\npickle.loads(b\"cos\\nsystem\\n(S'true'\\ntR.\")", UnpicklingError, 2,
                              "names os.system"),
    "pickle_loads_a_class": ("import pickle\npickle.loads(b'\\x80\\x04\\x8c\\x08builtins'\n"
                             "                 b'\\x8c\\x04eval\\x93.')", UnpicklingError, 2, "names builtins.eval"),
    "pickle_dumps_an_object": ("import pickle\nclass A:\n    pass\npickle.dumps(A())", PicklingError, 4,
                               "not A objects"),
    "shutil_real_files": ("import shutil\nshutil.copy('/etc/passwd', 'p')", FileNotFoundError, None, NOT_THERE),
    "shutil_rmtree_real": ("import shutil\nshutil.rmtree('/workspace/..')\nimport os\nos.listdir('/etc')",
                           FileNotFoundError, None, NOT_THERE),
    "tempfile_real_dir": ("import tempfile, os\nos.listdir(tempfile.gettempdir())", FileNotFoundError, None,
                          NOT_THERE),
    "numpy_dump": ("import numpy as np\nnp.ones(2).dump('x.pkl')", E, 2, "dump() is not available"),
    "os_popen_absent": ("import os\nos.popen('ls')", AttributeError, None, "no attribute 'popen'"),
    "os_from_import_system": ("from os import system", ImportError, None, "cannot import name 'system'"),
    "os_path_os": ("import os.path\nos.path.os", AttributeError, None, "no attribute 'os'"),
    "os_path_globals": ("import os\nos.path.join.__globals__", E, 2, "'__globals__'"),
    "os_environ_is_the_runs": ("import os\nos.environ['PATH']", KeyError, None, "PATH"),
    "os_environ_class_set": ("import os\ntype(os.environ).__getitem__ = print", E, 2, "starting with '_'"),
    "os_environ_class_set_attribute": ("import os\ntype(os.environ).copy = print", E, 2, "setting attributes"),
    "os_environ_class_derived": ("import os\nclass E(type(os.environ)):\n    pass", E, 2, "may only derive"),
    "os_environ_private": ("import os\nos.environ._data", E, 2, OWN),
    "os_environ_not_text": ("import os\nos.environ['A'] = 1", TypeError, None, "str expected"),
    "os_module_set": ("import os\nos.getcwd = print", E, 2, "setting attributes"),
    "file_method_set": ("f = open('x', 'w')\nf.write = print", E, 2, "setting attributes"),
    "file_class_derived": ("class F(type(open('x', 'w'))):\n    pass", E, 1, "may only derive"),
    "file_private": ("f = open('x', 'w')\nf._files", E, 2, OWN),
    "file_write_flood": ("with open('x', 'w') as f:\n    while True:\n        f.write('x' * 100000)", B, 3,
                         "elements"),
    "path_write_flood": ("from pathlib import Path\np = Path('x')\ns = 'x' * 100000\nwhile True:\n"
                         "    p.write_text(s)\n    s = p.read_text() + s", B, 6, "elements"),
    "makedirs_flood": ("import os\ni = 0\nwhile True:\n    os.makedirs('d/' * 50 + str(i))\n    i += 1", B, ANY,
                       "ran longer than"),
}

SYS = {
    "sys_getframe": ("import sys\nsys._getframe()", E, 2, "'_getframe'"),
    "sys_modules_absent": ("import sys\nsys.modules['os']", AttributeError, None, "no attribute 'modules'"),
    "sys_settrace_absent": ("import sys\nsys.settrace(print)", AttributeError, None, "no attribute 'settrace'"),
    "sys_real_stdout_absent": ("import sys\nsys.__stdout__", E, 2, "'__stdout__'"),
    "sys_stdout_private": ("import sys\nsys.stdout._runtime", E, 2, OWN),
    "sys_argv_set": ("import sys\nsys.argv = []", E, 2, "setting attributes"),
    "sys_exit_not_caught": ("import sys\ntry:\n    sys.exit(1)\nexcept Exception:\n    print('caught')",
                            ProgramExit, 3, "status 1"),
    "sys_recursion_limit_unchanged": ("import sys\nsys.setrecursionlimit(10 ** 6)\ndef f(n):\n    return f(n + 1)\n"
                                      "f(0)", B, ANY, "nested more than"),
}

PURE = {
    "re_pattern_walk": ("import re\nre.compile('a').__class__.__subclasses__", E, 2, "'__subclasses__'"),
    "re_sub_doubling": ("import re\ns = 'a'\nwhile True:\n    s = re.sub('a', 'aa', s)", B, 4, "elements"),
    "re_internals_absent": ("import re\nre.sre_compile", AttributeError, None, "no attribute 'sre_compile'"),
    "suppress_keeps_refusals": ("import contextlib\nwith contextlib.suppress(Exception):\n    import subprocess\n"
                                "print('after')", E, 3, "('subprocess')"),
    "contextmanager_keeps_refusals": ("from contextlib import contextmanager\n@contextmanager\ndef g():\n    try:\n"
                                      "        yield\n    except Exception:\n        pass\nwith g():\n"
                                      "    import subprocess\nprint('after')", E, 9, "('subprocess')"),
    "contextmanager_of_another": ("import contextlib\ncontextlib.contextmanager(print)", E, 2, "own generator"),
    "with_own_class": ("class C:\n    pass\nwith C():\n    pass", E, 3, "'with' is only allowed"),
    "queue_waits_for_ever": ("import queue\nqueue.Queue().get()", E, 2, "wait for ever"),
    "queue_class_set": ("import queue\nqueue.Queue.put = print", E, 2, "setting attributes"),
    "struct_pack_huge": ("import struct\nstruct.pack('1000000000x')", B, 2, "elements"),
    "csv_field_size_limit_absent": ("import csv\ncsv.field_size_limit(10 ** 9)", AttributeError, None,
                                    "field_size_limit"),
    "csv_register_dialect_absent": ("import csv\ncsv.register_dialect('x')", AttributeError, None, "register_dialect"),
    "traceback_no_frames": ("import traceback\ntry:\n    1 / 0\nexcept Exception as e:\n"
                            "    traceback.format_exception(e)[0].tb_frame", E, 5, "'tb_frame'"),
    "traceback_stack_absent": ("import traceback\ntraceback.extract_stack()", AttributeError, None, "extract_stack"),
    "gc_objects_absent": ("import gc\ngc.get_objects()", AttributeError, None, "get_objects"),
    "gc_disable_absent": ("import gc\ngc.disable()", AttributeError, None, "disable"),
    "timeit_text": ("import timeit\ntimeit.timeit('import os')", E, 2, "times a function"),
    "timeit_for_ever": ("import timeit\ntimeit.timeit(lambda: None, number=10 ** 12)", B, 2, "ran longer than"),
    "platform_uname_absent": ("import platform\nplatform.uname()", AttributeError, None, "uname"),
    "logging_real_file": ("import logging\nlogging.basicConfig(filename='/etc/x.log')", FileNotFoundError, None,
                          NOT_THERE),
    "logging_format_width": ("import logging\nlogging.basicConfig(format='%(message)999999999s')", E, 2,
                             "format widths"),
    "logging_message_width": ("import logging\nlogging.warning('%999999999d', 1)", E, 2, "format widths"),
    "logging_manager_absent": ("import logging\nlogging.root.manager", AttributeError, None, "manager"),
    "logging_exception_frames": ("import logging\ntry:\n    1 / 0\nexcept Exception as e:\n"
                                 "    t = logging.Formatter().formatException((None, e, None))\n    t.tb_frame", E, 6,
                                 "'tb_frame'"),
    "colormap_set": ("import matplotlib.cm as cm\ncm.viridis.name = 'x'", E, 2, "setting attributes"),
    "mplot3d_refused": ("from mpl_toolkits.mplot3d import Axes3D\nAxes3D(None)", E, 2, "3D axes"),
    "torch_jit_refused": ("import torch.jit", E, 1, "does not script"),
    "rcparams_as_base": ("import matplotlib.pyplot as plt\nclass B(type(plt.rcParams)):\n    pass", E, 2,
                         "may only derive"),
    "rcparams_class_method": ("import matplotlib.pyplot as plt\ntype(plt.rcParams).update = print", E, 2,
                              "setting attributes"),
    "style_context_set": ("import matplotlib.pyplot as plt\nwith plt.style.context('ggplot') as c:\n    c.change = 5",
                          E, 3, "setting attributes"),
    "ipython_display_set": ("from IPython.display import display\ndisplay.x = 1", E, 2, "setting attributes"),
    "ipython_core": ("import IPython.core", E, 1, "imports other than"),
}
