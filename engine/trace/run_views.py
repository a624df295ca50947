"""The views made for each run, by the package a program imports (their state is the run's own):
runtime.Runtime makes one when the program first imports its package."""
from .einops_view import einops_views
from .exact_numbers import decimal_views, fractions_views
from .file_tools_view import shutil_views, tempfile_views
from .files_view import files_views, pathlib_views
from .functorch_view import functorch_views
from .importable import STDLIB_NAMES
from .io_view import io_views
from .ipython_view import ipython_views
from .logging_view import logging_views
from .module_views import random_views
from .numpy_view import numpy_views
from .pickle_view import pickle_views
from .plot_modules import mplot3d_views
from .plot_view import plot_views
from .pure_views import PURE_MODULES, pure_views
from .sklearn_view import sklearn_views
from .stdlib_views import stdlib_views
from .sys_view import sys_views
from .tqdm_view import tqdm_views

RUN_VIEWS = {"random": lambda run, package: random_views(),
             "numpy": lambda run, package: numpy_views(run.numpy_state()),
             "matplotlib": plot_views, "tqdm": tqdm_views, "io": io_views, "sys": sys_views,
             "pathlib": pathlib_views, **dict.fromkeys(("os", "glob"), files_views),
             **dict.fromkeys(PURE_MODULES, pure_views), "logging": logging_views,
             "mpl_toolkits": mplot3d_views, "functorch": functorch_views, "IPython": ipython_views,
             "sklearn": sklearn_views, "einops": einops_views,
             "fractions": fractions_views, "decimal": decimal_views, "shutil": shutil_views, "tempfile": tempfile_views,
             "pickle": pickle_views,
             **dict.fromkeys(STDLIB_NAMES, stdlib_views)}
