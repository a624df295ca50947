"""PyTorch 2.13's own texts for the errors and warnings a learner meets."""
import re
import sys
import warnings

import numpy as np

ITEM_REFUSED = []  # while torch.func.vmap runs a function: the error the program's .item() raises there
WARNED_ONCE = {}  # the TORCH_WARN_ONCE texts given in this process (a traced run starts with none, as a new process)
WARN_ALWAYS = [False]  # torch.set_warn_always(True): TORCH_WARN_ONCE warns every time


COMPLEX_HALF = "ComplexHalf support is experimental and many operators don't support it yet."


def warn_once(text, category=UserWarning, stacklevel=2):
    """A warning torch gives once per process (TORCH_WARN_ONCE)."""
    if text not in WARNED_ONCE or WARN_ALWAYS[0]:
        WARNED_ONCE[text] = True
        warnings.warn(text, category, stacklevel=stacklevel + 1)


CHECK_FRAMES = set()  # code of the frames a warning's stacklevel passes over (torch.nn.functional's argument checks)


def level(stacklevel):
    """The stacklevel for the caller's warnings.warn: `stacklevel`, plus the CHECK_FRAMES frames it passes."""
    frame, i = sys._getframe(2), 2
    while frame is not None and i <= stacklevel:
        if frame.f_code in CHECK_FRAMES:
            stacklevel += 1
        frame, i = frame.f_back, i + 1
    return stacklevel


def warn_at_caller(text, category=UserWarning):
    """A warning ATen gives (TORCH_WARN): Python sees it at the program's line that called into the engine."""
    frame, level = sys._getframe(1), 2  # level 1 is this function's own line
    while frame is not None and frame.f_globals.get("__name__", "").startswith("engine."):
        frame, level = frame.f_back, level + 1
    warnings.warn(text, category, stacklevel=level)


BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
    "or if you need to access saved tensors after calling backward."
)
NOT_SCALAR = "grad can be implicitly created only for scalar outputs"
NO_GRAD_FN = "element {i} of tensors does not require grad and does not have a grad_fn"
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
MULTI_OUTPUT_VIEW_INPLACE = (
    "Output {nr} of {name} is a view and is being modified inplace. This view is the output of a function that "
    "returns multiple views. Such functions do not allow the output views to be modified inplace. You should "
    "replace the inplace operation by an out-of-place one.")
CUSTOM_FUNCTION_VIEW_INPLACE = (
    "Output {nr} of {name} is a view and {what} inplace. This view was created inside a custom Function "
    "(or because an input was returned as-is) and the autograd logic to handle view+inplace would override the "
    "custom backward associated with the custom Function, leading to incorrect gradients. This behavior is "
    "forbidden. You can fix this by cloning the output of the custom Function.")
VIEW_OF_LEAF_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."
MODIFIED_SAVED = (
    "one of the variables needed for gradient computation has been modified by an inplace operation: "
    "[{desc}]{producer} is at version {version}; expected version {expected} instead. Hint: enable anomaly "
    "detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
COMPLEX_TO_REAL = "Casting complex values to real discards the imaginary part"
INT_REQUIRES_GRAD = "Only Tensors of floating point and complex dtype can require gradients"
DEEPCOPY_NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  If you "
    "were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm usage, see "
    "https://github.com/pytorch/pytorch/pull/103001"
)
NON_LEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
    "in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)
GRAD_SHAPE_MISMATCH = (
    "Mismatch in shape: grad_output[{i}] has a shape of {got} and output[{i}] has a shape of {want}."
)
NEG_BOOL = ("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
            "use the `~` or `logical_not()` operator instead.")
SUB_BOOL = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
            "use the `~` or `logical_not()` operator instead.")
SUB_BOOLS = ("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
             "operator instead.")
BROADCAST = (
    "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {dim}"
)


def broadcast_error(a, b):
    """torch's error for shapes a and b that do not broadcast, at the last dim that disagrees; None if they do."""
    for dim in range(1, max(len(a), len(b)) + 1):
        sa, sb = a[-dim] if dim <= len(a) else 1, b[-dim] if dim <= len(b) else 1
        if sa != sb and 1 not in (sa, sb):
            return RuntimeError(BROADCAST.format(a=sa, b=sb, dim=max(len(a), len(b)) - dim))
    return None


ITEM_MANY = "a Tensor with {n} elements cannot be converted to Scalar"
NUMPY_REQUIRES_GRAD = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
    "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
    "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor "
    "by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
    "for more information."
)
GRAD_DTYPE = (
    "attempting to assign a gradient with dtype '{got}' to a tensor with grad_dtype '{want}'. The gradient "
    "must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
    "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the "
    "dtypes of a tensor and its gradient may break downstream systems that assume they match."
)
GRAD_SIZE = (
    "attempting to assign a gradient of size '{got}' to a tensor of size '{want}'. Please ensure that the "
    "gradient and the tensor are the same size"
)
TENSOR_FROM_TENSOR = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor)."
)
TENSOR_FROM_NDARRAYS = (
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting the list to a "
    "single numpy.ndarray with numpy.array() before converting to a tensor."
)
NEW_TENSOR_FROM_TENSOR = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than tensor.new_tensor(sourceTensor)."
)
NON_LEAF_REQUIRES_GRAD_SHORT = "you can only change requires_grad flags of leaf variables."
SCALAR_REQUIRES_GRAD = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first."
)
T_NOT_2D = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will "
    "throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
    "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor."
)
CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
    "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to "
    "avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters to "
    "None after use to break the cycle and avoid the leak."
)
INFERENCE_VERSION = "Inference tensors do not track version counter."
INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
    "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use "
    "it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`."
)
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
    "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details."
)
INFERENCE_REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
PACK_HOOK_INPLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack hook cannot be "
    "modified by in-place operations as this can lead to unexpected side-effects. Please open an issue if you "
    "need to perform in-place operations on the input to a pack hook."
)
HOOKS_ALREADY_SET = (
    "Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only one pair of hooks "
    "is allowed at a time."
)
ONCE_DIFFERENTIABLE = "trying to differentiate twice a function that was marked with @once_differentiable"
MODIFIED_SAVED_ANOMALY = (
    "one of the variables needed for gradient computation has been modified by an inplace operation: "
    "[{desc}]{producer} is at version {version}; expected version {expected} instead. Hint: the backtrace further "
    "above shows the operation that failed to compute its gradient. The variable in question was changed in there "
    "or anywhere later. Good luck!"
)
REGISTER_HOOKS_FREED = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values of the graph are "
    "freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through "
    "the graph a second time or if you need to access saved variables after calling backward."
)


# --- torch's argument parser: the TypeError of a call no signature of the function takes ----------------------------
def type_name(x):
    """A Python object's type as torch's argument parser names it: numpy.ndarray, numpy.float32, list, NoneType."""
    if isinstance(x, np.ndarray):
        return "numpy.ndarray"
    kind = type(x)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def not_a_tensor(name, param, position, x):
    """torch's argument parser's TypeError for x where its signature takes a tensor."""
    return TypeError(f"{name}(): argument '{param}' (position {position}) must be Tensor, not {type_name(x)}")


def _typename(x):
    return "Tensor" if hasattr(x, "_data") else type(x).__name__


def _param_type(token):
    """'Tensor other' -> 'Tensor', 'tuple of ints indices' -> 'tuple of ints', 'Number alpha = 1' -> 'Number'."""
    return token.split(" = ")[0].rsplit(" ", 1)[0]


def _parser_accepts(kind, x):
    """Whether torch's argument parser takes x for a parameter of this type."""
    if kind == "Tensor":
        return hasattr(x, "_data")
    if kind == "Number":
        return (isinstance(x, (int, float, complex)) or type(x).__module__ == "numpy" and hasattr(x, "dtype")
                and x.dtype.kind in "biufc" and x.ndim == 0) or (hasattr(x, "_data") and x._data.ndim == 0)
    if kind == "int":
        return _index_like(x)
    if kind == "float":
        return type(x) in (int, float)
    if kind == "bool":
        return type(x) is bool
    if kind == "tuple of ints":
        return isinstance(x, (tuple, list)) and all(type(v) is int for v in x)
    return True


def _index_like(x):
    """An int to torch's parser: Python's (not bool), numpy's, or a 0-d integer tensor (through __index__)."""
    if hasattr(x, "_data"):
        return x._data.ndim == 0 and x._data.dtype.kind in "iu"
    return isinstance(x, int) and not isinstance(x, bool) or (type(x).__module__ == "numpy"
                                                              and getattr(x, "dtype", None) is not None
                                                              and x.dtype.kind in "iu" and x.ndim == 0)


def check_signatures(name, signatures, args, kwargs):
    """torch's TypeError where none of the function's signatures takes the arguments."""
    if signatures and not any(signature_takes(s, args, kwargs) for s in signatures):
        raise invalid_arguments(name, signatures, args, kwargs)


def _option_matches(kind, x):
    """invalid_arguments.cpp's own type test (not the parser's): float takes int, other names only their own."""
    if kind == "float":
        return type(x) in (int, float)
    return _typename(x) == kind


def _bounds(params):
    required = sum(" = " not in p for p in params)
    return required, len(params)


def _positional_params(signature):
    params = signature[1:-1].split(", ")
    return params[:params.index("*")] if "*" in params else params


def signature_takes(signature, args, kwargs):
    """Whether a call's arguments fit one of torch's printed signatures (types of the positional ones, counts)."""
    tokens = [t for t in signature[1:-1].split(", ") if t != "*"]
    low, high = _bounds(tokens)
    positional = _positional_params(signature)
    if not low <= len(args) + len(kwargs) <= high or len(args) > len(positional):
        return False
    if not set(kwargs) <= {t.split(" = ")[0].rsplit(" ", 1)[-1] for t in tokens}:
        return False
    return all(_parser_accepts(_param_type(p), a) for p, a in zip(positional, args))


def invalid_arguments(name, signatures, args, kwargs):
    """The TypeError torch's argument parser gives when none of the function's signatures takes the arguments: the
    one signature the count allows names the wrong argument, else every signature is listed (python_arg_parser.cpp,
    invalid_arguments.cpp)."""
    n = len(args) + len(kwargs)
    plausible = [s for s in signatures
                 if _bounds([t for t in s[1:-1].split(", ") if t != "*"])[0] <= n
                 <= _bounds([t for t in s[1:-1].split(", ") if t != "*"])[1]]
    if len(plausible) == 1:
        for i, (p, a) in enumerate(zip(_positional_params(plausible[0]), args)):
            kind = _param_type(p)
            if not _parser_accepts(kind, a):
                return TypeError(f"{name}(): argument '{p.split(' = ')[0].rsplit(' ', 1)[1]}' (position {i + 1}) "
                                 f"must be {kind}, not {_typename(a)}")
    got = ", ".join([_typename(a) for a in args] + [f"{k}={_typename(v)}" for k, v in kwargs.items()])
    text = f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
    for s in signatures:
        text += f" * {s}\n"
        tokens = s[1:-1].split(", ")
        if len(tokens) == n and not kwargs:
            marked = ", ".join(_typename(a) if _option_matches(_param_type(t), a) else f"!{_typename(a)}!"
                               for t, a in zip(tokens, args))
            text += f"      didn't match because some of the arguments have invalid types: ({marked})\n"
    return TypeError(text)
ZERO_DIM_INDEX = ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to "
                  "convert a 0-dim tensor to a number")
NEGATIVE_NUMPY_STRIDES = ("At least one stride in the given numpy array is negative, and tensors with negative strides "
                          "are not currently supported. (You can probably work around this by making a copy of your "
                          "array  with array.copy().) ")


# --- Python's TypeError for a call with missing or extra arguments, as torch's parser words it --------------------
_TAKES = re.compile(r"takes (\d+) positional arguments? but (\d+) (?:was|were) given")
_MISSING = re.compile(r"missing (\d+) required positional arguments?: (.*)")


def argument_error(name, method, error):
    """Python's TypeError for a bind called with the wrong arguments, worded as PyTorch words it."""
    text = re.sub(r"^[\w.<>]+\(\)", "", str(error))
    takes = _TAKES.search(text)
    if takes and method:  # PyTorch does not count self
        n, given = int(takes[1]) - 1, int(takes[2]) - 1
        if n == 0:
            return TypeError(f"TensorBase.{name}() takes no arguments ({given} given)")
        text = f" takes {n} positional argument{'s' * (n != 1)} but {given} {'was' if given == 1 else 'were'} given"
    missing = _MISSING.search(text)
    if missing:
        names = ", ".join(f'"{"input" if a == "self" else a}"' for a in re.findall(r"['\"](\w+)['\"]", missing[2]))
        n = int(missing[1])  # torch's parser words one "arguments" and several "argument"
        text = f" missing {n} required positional argument{'s' * (n == 1)}: {names}"
    return TypeError(f"{name}(){text}")
