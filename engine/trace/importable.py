"""The modules a program may import: torch's (each mapped to the engine module behind it), math, and those made
for each run (random, numpy, matplotlib.pyplot, tqdm, io and the standard library's modules in STDLIB_NAMES); and
the modules it may not, with the reason each refusal gives (allowlist.import_refusal)."""

# The torch modules a program may import, and the engine modules behind them. Those the engine does not have
# yet are skipped (an import of one raises ImportError, saying so): this map is the one place to name them.
ENGINE_MODULES = {
    "torch": "engine",
    "torch.nn": "engine.nn",
    "torch.nn.functional": "engine.nn.functional",
    "torch.nn.init": "engine.nn.init",
    "torch.linalg": "engine.linalg",
    "torch.nn.modules": "engine.nn.modules",
    "torch.nn.modules.module": "engine.nn.modules.module",
    "torch.special": "engine.special",
    "torch.optim": "engine.optim",
    "torch.optim.lr_scheduler": "engine.optim.lr_scheduler",
    "torch.optim.swa_utils": "engine.optim.swa_utils",
    "torch.autograd": "engine.autograd",
    "torch.autograd.functional": "engine.autograd.functional",
    "torch.autograd.graph": "engine.autograd.graph",
    "torch.autograd.function": "engine.autograd.function",
    "torch.autograd.variable": "engine.autograd.variable",
    "torch.autograd.forward_ad": "engine.autograd.forward_ad",
    "torch.func": "engine.func",
    "torch.utils": "engine.utils",
    "torch.utils.data": "engine.utils.data",
    "torch.utils.checkpoint": "engine.utils.checkpoint",
    "torch.random": "engine.random",
    "torch.testing": "engine.testing",
    **{f"torch.utils.data.{name}": f"engine.utils.data.{name}" for name in ("dataset", "sampler", "dataloader")},
    "torch.cuda": "engine.cuda",
    "torch.accelerator": "engine.accelerator",
    "torch.backends": "engine.backends",
    "torch.backends.mps": "engine.backends.mps",
    "torch.backends.cuda": "engine.backends.cuda",
    "torch.nn.utils": "engine.nn.utils",
    "torch.nn.utils.clip_grad": "engine.nn.utils.clip_grad",
    "torch.nn.utils.convert_parameters": "engine.nn.utils.convert_parameters",
    "torch.nn.utils.rnn": "engine.nn.utils.rnn",
    "torch.nn.utils.parametrize": "engine.nn.utils.parametrize",
    "torch.nn.utils.parametrizations": "engine.nn.utils.parametrizations",
    "torch.nn.utils.stateless": "engine.nn.utils.stateless",
    "torch.nn.utils.fusion": "engine.nn.utils.fusion",
    "torch.nn.utils.prune": "engine.nn.utils.prune",
    "torch.distributions": "engine.distributions",
    **{f"torch.distributions.{name}": f"engine.distributions.{name}" for name in (
        "constraints", "transforms", "kl", "distribution", "normal", "categorical", "bernoulli", "uniform", "beta",
        "gamma", "dirichlet", "exponential", "laplace", "log_normal", "independent", "one_hot_categorical",
        "relaxed_bernoulli", "relaxed_categorical", "transformed_distribution", "cauchy", "studentT", "half_normal",
        "chi2", "geometric", "gumbel", "mixture_same_family", "multivariate_normal", "lowrank_multivariate_normal",
        "poisson", "binomial", "multinomial", "negative_binomial", "von_mises", "wishart", "lkj_cholesky",
        "generalized_pareto", "pareto", "weibull", "kumaraswamy", "logistic_normal", "inverse_gamma", "half_cauchy",
        "fishersnedecor", "continuous_bernoulli", "exp_family", "utils", "constraint_registry")},
    "torch.masked": "engine.masked",
    "torch.signal": "engine.signal",
    "torch.fft": "engine.fft",
    "torch.version": "engine.version",
    "torch.signal.windows": "engine.signal.windows",
    "torch.backends.cudnn": "engine.backends.cudnn",
    "torch.backends.mkldnn": "engine.backends.mkldnn",
    "torch.backends.openmp": "engine.backends.openmp",
    # the modules custom losses, parameters and optimizers are imported from
    "torch.nn.modules.loss": "engine.nn.modules.losses",
    "torch.nn.parameter": "engine.nn.parameter",
    "torch.optim.optimizer": "engine.optim.optimizer",
    "torch.autograd.gradcheck": "engine.autograd.gradcheck",
    "torch.amp": "engine.amp",
    "torch.cuda.amp": "engine.cuda_amp",
    # imported at the top of scripts written for more than the explorer runs: they answer as torch does without a
    # process group or a GPU, and refuse what would start other processes or profile (docs/security.md)
    "torch.types": "engine.torch_types",
    "torch.distributed": "engine.distributed",
    "torch.utils.data.distributed": "engine.utils.data.distributed",
    "torch.multiprocessing": "engine.multiprocessing",
    "torch.nn.parallel": "engine.nn.parallel",
    "torch.nn.attention": "engine.nn.attention_backends",
    "torch.profiler": "engine.profiler",
    "torch.autograd.profiler": "engine.profiler",
    # torchvision 0.28, as a program uses it offline (engine/vision)
    "torchvision": "engine.vision",
    **{f"torchvision.{name}": f"engine.vision.{name}" for name in (
        "transforms", "transforms.functional", "models", "datasets", "utils", "ops")},
}
# Private names of the engine's modules a program may import (`from torch.nn.modules.loss import _Loss`).
ENGINE_PRIVATE_NAMES = frozenset(["_Loss", "_WeightedLoss"])
# The names a program sees of the standard library's modules besides math and random (stdlib_views.py).
STDLIB_NAMES = {
    "argparse": "ArgumentParser Namespace ArgumentError ArgumentTypeError HelpFormatter RawDescriptionHelpFormatter "
                "RawTextHelpFormatter ArgumentDefaultsHelpFormatter MetavarTypeHelpFormatter BooleanOptionalAction "
                "SUPPRESS OPTIONAL ZERO_OR_MORE ONE_OR_MORE REMAINDER",
    "collections": "OrderedDict defaultdict Counter deque namedtuple",
    "copy": "copy deepcopy",
    "dataclasses": "dataclass field fields asdict astuple replace is_dataclass FrozenInstanceError MISSING "
                   "InitVar KW_ONLY",
    "functools": "partial reduce lru_cache cache cached_property cmp_to_key total_ordering wraps",
    "itertools": "chain count cycle repeat islice product permutations combinations combinations_with_replacement "
                 "accumulate zip_longest groupby starmap takewhile dropwhile filterfalse tee pairwise compress",
    "statistics": "mean fmean median stdev pstdev variance pvariance mode StatisticsError",
    "string": "ascii_letters ascii_lowercase ascii_uppercase digits hexdigits octdigits punctuation printable "
              "whitespace capwords",
    "time": "time time_ns perf_counter perf_counter_ns monotonic monotonic_ns process_time sleep",
    "unicodedata": "normalize category name",
    "abc": "ABC abstractmethod",
    "bisect": "bisect bisect_left bisect_right insort insort_left insort_right",
    "datetime": "date datetime time timedelta timezone MINYEAR MAXYEAR",
    "enum": "Enum IntEnum Flag IntFlag auto unique",
    "inspect": "signature",
    "heapq": "heappush heappop heapify heapreplace heappushpop nlargest nsmallest merge",
    "json": "dumps loads JSONDecodeError",
    "numbers": "Number Complex Real Rational Integral",
    "operator": "add sub mul truediv floordiv mod pow neg pos abs eq ne lt le gt ge not_ truth and_ or_ xor invert "
                "matmul index itemgetter contains getitem",
    "pprint": "pformat pprint pp",
    "textwrap": "dedent indent fill wrap shorten",
    "warnings": "warn filterwarnings simplefilter",
    "types": "SimpleNamespace",
    "typing": "Any Optional Union List Dict Tuple Set FrozenSet Callable Iterable Iterator Sequence Mapping "
              "MutableMapping Generator Type Literal ClassVar Final TypeVar Annotated NoReturn Deque DefaultDict "
              "OrderedDict Counter cast TYPE_CHECKING",
}
# Over the run's own in-memory files (files_view.py), and sys (sys_view.py).
FILE_MODULES = ("os", "os.path", "glob", "pathlib", "sys", "shutil", "tempfile", "pickle")
# functorch: torch.func's transforms, warning as torch's (functorch_view.py).
# Modules that compute and hold nothing of the process (pure_views.py).
PURE_MODULES = ("re", "cmath", "contextlib", "queue", "csv", "struct", "traceback", "platform", "gc", "timeit",
                "logging", "typing_extensions", "uuid", "hashlib")
# Exact numbers, sized (exact_numbers.py).
NUMBER_MODULES = ("fractions", "decimal")
# scikit-learn's data helpers (sklearn_view/) and einops (einops_view/), emulated on numpy and the engine.
SKLEARN_MODULES = ("sklearn", "sklearn.datasets", "sklearn.model_selection", "sklearn.preprocessing",
                   "sklearn.metrics", "sklearn.utils", "sklearn.exceptions")
EINOPS_MODULES = ("einops", "einops.layers", "einops.layers.torch")
# Made for each run (run_views.RUN_VIEWS): Python's random, a sized view of numpy, the standard library's
# modules above, matplotlib's pyplot (plot_view.py) and tqdm (tqdm_view.py), with the run's own state.
RUN_MODULES = frozenset(["random", "numpy", "numpy.random", "numpy.linalg", "numpy.fft", "numpy.testing",
                         "matplotlib", "matplotlib.pyplot", "matplotlib.cm", "matplotlib.colors", "matplotlib.style",
                         "matplotlib.animation", "mpl_toolkits", "mpl_toolkits.mplot3d", "tqdm", "tqdm.auto",
                         "tqdm.notebook", "io", "IPython", "IPython.display",
                         *STDLIB_NAMES, *FILE_MODULES, *PURE_MODULES, *NUMBER_MODULES, "functorch",
                         "numpy.typing", *SKLEARN_MODULES, *EINOPS_MODULES])
ALLOWED_IMPORTS = frozenset([*ENGINE_MODULES, "math", "__future__", *RUN_MODULES])
_IMPORTABLE = ["torch", "torchvision", "math", "random", "numpy", "matplotlib.pyplot", "tqdm",
               "io (BytesIO, StringIO)",
               "os, os.path, glob, pathlib, shutil, tempfile and pickle (the run's own in-memory files)", "sys",
               "IPython.display (display, clear_output)",
               "sklearn (datasets, model_selection, preprocessing, metrics, utils)", "einops",
               *sorted([*STDLIB_NAMES, *PURE_MODULES, *NUMBER_MODULES])]
IMPORTABLE = f"{', '.join(_IMPORTABLE[:-1])} and {_IMPORTABLE[-1]}"
# Modules a program may not import, with the reason its refusal gives (any other: the list above).
REFUSED_MODULES = {
    **dict.fromkeys(("io.open", "fileinput", "shelve", "sqlite3", "zipfile", "tarfile", "gzip"),
                    "it reaches the machine's files, environment or interpreter; the explorer runs a program on "
                    "its own (os, shutil, tempfile, open(), pickle, torch.save and torch.load work on the run's own "
                    "in-memory files)"),
    **dict.fromkeys(("subprocess", "socket", "urllib", "http", "requests", "asyncio", "ctypes", "importlib",
                     "builtins"),
                    "it reaches outside the program (processes, the network, threads or the interpreter itself)"),
    **dict.fromkeys(("threading", "multiprocessing", "concurrent", "signal"),
                    "the explorer runs a program in one thread from its first line to its last, and records each "
                    "step in order: threads, processes and signal handlers would run its code beside it or after it "
                    "(and the browser's Python has none); torch.multiprocessing imports, and refuses at spawn"),
    "weakref": "a weak reference's callback runs whenever its object is collected, which may be after the run is "
               "over, and the explorer runs none of a program's code then: hold the object itself",
    "array": "its arrays grow in C calls the explorer does not size (array * n, extend, frombytes): use a list, "
             "numpy or a tensor",
    **dict.fromkeys(("torch.jit", "torch.fx", "torch.compile", "torch.export", "torch.onnx"),
                    "the explorer runs a program's Python as it is written: it does not script, trace, compile or "
                    "export it (drop the decorator or the call: the model runs the same without it)"),
    "torchvision.transforms.v2": "the explorer has torchvision's transforms v1 (torchvision.transforms), whose "
                                 "Compose, ToTensor, Normalize, Resize, RandomCrop, ... do the same on tensors",
    **dict.fromkeys(("torchvision.io", "torchvision.tv_tensors"),
                    "the explorer reads no image or video files and has no tv_tensors: make tensors in the program "
                    "(torch.rand, datasets.FakeData) and use torchvision.transforms on them"),
    **dict.fromkeys(("torch.utils.tensorboard", "tensorboard", "tensorboardX", "wandb"),
                    "the explorer writes no logs to files or the network: print the values instead"),
    "torch.hub": "it downloads models and code from the network, which the explorer does not reach: define the "
                 "model in the program",
    **dict.fromkeys(("torch.quantization", "torch.ao"),
                    "quantized tensors (int8 values with scales and zero points) and their kernels are not in the "
                    "explorer's engine, which computes in floating point"),
    "torch.library": "it registers operators with torch's dispatcher, which every run shares (and the explorer's "
                     "engine has none): write a function, or a torch.autograd.Function for a custom backward",
    "torch.overrides": "__torch_function__ overrides change how every torch call dispatches, and the explorer's "
                       "engine has no such hook: call functions on tensors as they are",
    "torch.sparse": "sparse tensors are not in the explorer's engine: use dense tensors (masks and indexing)",
    "torch.utils.benchmark": "its Timer runs statements given as text and measures torch's kernels, which the explorer "
                             "does not run: time a function with time.perf_counter() or timeit.timeit(f, number=...)",
}
# Packages the explorer has a part of: what an import of the rest is told.
PARTLY_ADMITTED = {
    "sklearn": "the explorer has scikit-learn's data helpers only: sklearn.datasets (make_moons, make_circles, "
               "make_blobs, make_classification, make_regression, make_swiss_roll, make_s_curve, load_iris, "
               "load_diabetes), "
               "sklearn.model_selection (train_test_split, KFold), sklearn.preprocessing (StandardScaler, "
               "MinMaxScaler, LabelEncoder, OneHotEncoder), sklearn.metrics (accuracy_score, confusion_matrix, "
               "mean_squared_error, mean_absolute_error, r2_score, precision_score, recall_score, f1_score, "
               "classification_report, roc_curve, auc, roc_auc_score) and sklearn.utils.shuffle; its models "
               "(LogisticRegression, SVC, KMeans...) are not available: build the model in torch",
    "einops": "the explorer has einops' rearrange, reduce, repeat, einsum, pack, unpack, parse_shape and "
              "einops.layers.torch (Rearrange, Reduce)",
}
