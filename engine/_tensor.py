"""The Tensor: a numpy array plus what autograd needs (requires_grad, grad_fn, grad, version, views)."""
import warnings

import numpy as np

from . import dtypes, grad_mode, messages, observe
from .ops import OPS

_MODE = grad_mode._state
_NUMBERS = (int, float)
_TYPE_NAMES = {"float32": "Float", "float64": "Double", "int64": "Long", "bool": "Bool"}
_C_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "bool": "bool"}


class Size(tuple):
    def __repr__(self):
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n


def _shape_args(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


class Tensor:
    __slots__ = (
        "_data", "dtype", "_requires_grad", "_grad_fn", "_view_version", "_grad", "_vbox", "_base", "_view_fn",
        "_retains_grad", "_acc", "_grad_of", "__weakref__",
    )
    __array_priority__ = 1000  # numpy scalars defer to Tensor's reflected operators

    # --- construction ---------------------------------------------------------------------------
    @classmethod
    def _make(cls, data, dtype, requires_grad=False):
        t = object.__new__(cls)
        t._data = data
        t.dtype = dtype
        t._requires_grad = requires_grad
        t._grad_fn = None
        t._view_version = 0
        t._grad = None
        t._vbox = [0]
        t._base = None
        t._view_fn = None
        t._retains_grad = False
        t._acc = None
        t._grad_of = None
        return t

    def __init__(self, *args, **kwargs):
        raise TypeError("use torch.tensor(data) to make a tensor")

    def _make_view_of(self, src, op, attrs):
        """Mark self as a view of src: same memory, same version counter, a way back to the base region."""
        base = src._base if src._base is not None else src
        parent = src._view_fn
        fwd = op.forward
        if parent is None:
            self._view_fn = lambda a: fwd(a, **attrs)
        else:
            self._view_fn = lambda a: fwd(parent(a), **attrs)
        self._base = base
        self._vbox = src._vbox
        self._view_version = src._vbox[0]

    @property
    def grad_fn(self):
        fn = self._grad_fn
        if self._base is not None and self._vbox[0] != self._view_version:
            fn = self._regenerate_view_grad_fn()
        return fn

    @grad_fn.setter
    def grad_fn(self, fn):
        self._grad_fn = fn
        self._view_version = self._vbox[0]

    def _regenerate_view_grad_fn(self):
        """A view whose base was changed in place since: PyTorch rebuilds its grad_fn as an
        AsStridedBackward0 of the base's current grad_fn."""
        from .dispatch import _edge, as_strided

        self._view_version = self._vbox[0]
        if self._base.requires_grad:
            self._grad_fn = as_strided(self, _edge(self._base))
        return self._grad_fn

    # --- metadata -------------------------------------------------------------------------------
    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[self._dim(dim)]

    def dim(self):
        return self._data.ndim

    ndim = property(dim)

    def numel(self):
        return int(self._data.size)

    nelement = numel

    def _dim(self, dim, ndim=None):
        n = self._data.ndim if ndim is None else ndim
        m = max(n, 1)
        if not -m <= dim < m:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-m}, {m - 1}], but got {dim})"
            )
        return dim % m

    @property
    def device(self):
        return "cpu"

    @property
    def is_cuda(self):
        return False

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def _type_desc(self):
        return f"torch.{_TYPE_NAMES[self.dtype.name]}Tensor [{', '.join(map(str, self.shape))}]"

    def type(self, dtype=None):
        if dtype is None:
            return f"torch.{_TYPE_NAMES[self.dtype.name]}Tensor"
        return self.to(dtype)

    @property
    def _version(self):
        return self._vbox[0]

    def _bump(self):
        self._vbox[0] += 1

    # --- autograd state -------------------------------------------------------------------------
    @property
    def requires_grad(self):
        return self.grad_fn is not None or self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if self.grad_fn is not None:
            raise RuntimeError(messages.NON_LEAF_REQUIRES_GRAD if not value else messages.NON_LEAF_REQUIRES_GRAD_SHORT)
        if value and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad=True):
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if self.grad_fn is not None and not requires_grad:
            raise RuntimeError(messages.NON_LEAF_REQUIRES_GRAD)
        if self.grad_fn is None:
            self._requires_grad = bool(requires_grad)
        return self

    @property
    def is_leaf(self):
        return self.grad_fn is None

    @property
    def grad(self):
        if self.grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(messages.NON_LEAF_GRAD, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}"
                )
            if value.dtype is not self.dtype:
                raise RuntimeError(messages.GRAD_DTYPE.format(got=_C_NAMES[value.dtype.name],
                                                              want=_TYPE_NAMES[self.dtype.name]))
            if value.shape != self.shape:
                raise RuntimeError(messages.GRAD_SIZE.format(got=list(value.shape), want=list(self.shape)))
            value._grad_of = self
        self._grad = value
        if observe._observers:
            observe.emit("on_grad_set", self, "none" if value is None else "set")

    @grad.deleter
    def grad(self):
        self.grad = None

    @property
    def retains_grad(self):
        return self._retains_grad

    def retain_grad(self):
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        fn = self.grad_fn
        if fn._retain_hooks is None:
            fn._retain_hooks = []
        fn._retain_hooks.append(self)

    def register_hook(self, hook):
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        node = self.grad_fn if self.grad_fn is not None else self._accumulate_grad()

        def checked(grad):
            out = hook(grad)
            if out is not None and out.shape != grad.shape:
                name = getattr(hook, "__name__", type(hook).__name__)
                raise RuntimeError(f"hook '{name}' has changed the size of value")
            return out

        return node._register_tensor_hook(checked)

    def register_post_accumulate_grad_hook(self, hook):
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        acc = self._accumulate_grad()
        if acc._post_accumulate is None:
            acc._post_accumulate = []
        acc._post_accumulate.append(hook)
        from .graph import _Handle

        return _Handle(acc._post_accumulate, hook)

    def _accumulate_grad(self):
        if self._acc is None:
            from .graph import AccumulateGrad

            self._acc = AccumulateGrad(self)
        return self._acc

    def _accumulate(self, g):
        """AccumulateGrad's work: the first grad is stored, later ones are added in place."""
        before = self._grad
        before_value = before._data.copy() if (observe._observers and before is not None) else None
        if grad_mode._state["enabled"]:  # create_graph=True: keep the grad's own graph
            if before is None:
                new = Tensor._make(np.empty(self.shape, dtype=self.dtype.np), self.dtype)
                new.copy_(g)
            else:
                new = before + g
            new._grad_of = self
            self._grad = new
        elif before is None:
            new = Tensor._make(np.array(np.broadcast_to(g._data, self.shape), dtype=self.dtype.np), self.dtype)
            new._grad_of = self
            self._grad = new
        else:
            np.add(before._data, g._data, out=before._data, casting="unsafe")
            before._bump()
        if observe._observers:
            observe.emit("on_grad", self, before_value, g)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        from .autograd import backward

        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        t = Tensor._make(self._data, self.dtype)
        t._vbox = self._vbox
        return t

    def detach_(self):
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
                "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
                "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
                "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self.grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self):
        return Tensor._make(self._data, self.dtype)

    @data.setter
    def data(self, value):
        self._data = value._data
        self.dtype = value.dtype

    # --- conversion -----------------------------------------------------------------------------
    def item(self):
        if self._data.size != 1:
            raise RuntimeError(messages.ITEM_MANY.format(n=self._data.size))
        return self._data.reshape(()).item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self):
        if self.requires_grad:
            raise RuntimeError(messages.NUMPY_REQUIRES_GRAD)
        return self._data

    def __array__(self, dtype=None, copy=None):
        if self.requires_grad:
            raise RuntimeError(messages.NUMPY_REQUIRES_GRAD)
        return self._data if dtype is None else self._data.astype(dtype)

    def __float__(self):
        return float(self._scalar())

    def __int__(self):
        return int(self._scalar())

    def _scalar(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if self.requires_grad:
            warnings.warn(messages.SCALAR_REQUIRES_GRAD, UserWarning, stacklevel=3)
        return self.item()

    def __index__(self):
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter([self[i] for i in range(self._data.shape[0])])

    def __hash__(self):
        return id(self)

    def __repr__(self, *, tensor_contents=None):
        from .printing import format_tensor

        suffixes = []
        if self.grad_fn is not None:
            suffixes.append(f"grad_fn=<{type(self.grad_fn).__name__}>")
        elif self._requires_grad:
            suffixes.append("requires_grad=True")
        return format_tensor(self._data, self.dtype.name, suffixes)

    __str__ = __repr__

    def __format__(self, spec):
        if self._data.ndim == 0 and type(self) is Tensor:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, dtypes.dtype):
                dtype = a
        if dtype is None or dtype is self.dtype:
            return self
        return _apply(OPS["to_copy"], (self,), {"dtype": dtype.np, "src_dtype": self.dtype}, dtype=dtype)

    def float(self):
        return self.to(dtypes.float32)

    def double(self):
        return self.to(dtypes.float64)

    def long(self):
        return self.to(dtypes.int64)

    def int(self):
        return self.to(dtypes.int64)

    def bool(self):
        return self.to(dtypes.bool)

    def cpu(self):
        return self

    def clone(self):
        return _apply(OPS["clone"], (self,))

    def contiguous(self):
        return self if self._data.flags.c_contiguous else self.clone()

    def is_contiguous(self):
        return bool(self._data.flags.c_contiguous)

    # --- arithmetic -----------------------------------------------------------------------------
    def __add__(self, other):
        if _MODE["formula"] and type(other) in _NUMBERS:
            return _apply(OPS["add_scalar"], (self,), {"other": other})
        return _apply(OPS["add"], (self, other))

    __radd__ = __add__

    def __sub__(self, other):
        if _MODE["formula"] and type(other) in _NUMBERS:
            return _apply(OPS["sub_scalar"], (self,), {"other": other})
        return _apply(OPS["sub"], (self, other))

    def __rsub__(self, other):
        return _apply(OPS["rsub"], (self,), {"other": other}, dtype=_dispatch.result_dtype((self, other)))

    def __mul__(self, other):
        if _MODE["formula"] and type(other) in _NUMBERS:
            return _apply(OPS["mul_scalar"], (self,), {"other": other})
        return _apply(OPS["mul"], (self, other))

    __rmul__ = __mul__

    def __truediv__(self, other):
        if _MODE["formula"] and type(other) in _NUMBERS:
            return _apply(OPS["div_scalar"], (self,), {"other": other}, dtype=_float_result((self, other)))
        return _apply(OPS["div"], (self, other), dtype=_float_result((self, other)))

    def __rtruediv__(self, other):
        return self.reciprocal() * other

    def __neg__(self):
        return _apply(OPS["neg"], (self,))

    def __pos__(self):
        return self

    def __abs__(self):
        return self.abs()

    def __pow__(self, exponent):
        return self.pow(exponent)

    def __rpow__(self, base):
        return _apply(OPS["rpow"], (self,), {"base": base}, dtype=_dispatch.result_dtype((self, base)))

    def __matmul__(self, other):
        from .functions import matmul

        return matmul(self, other)

    def __rmatmul__(self, other):
        from .functions import matmul

        return matmul(other, self)

    def add(self, other, alpha=1):
        return _apply(OPS["add"], (self, other), {"alpha": alpha} if alpha != 1 else None)

    def sub(self, other, alpha=1):
        return _apply(OPS["sub"], (self, other), {"alpha": alpha} if alpha != 1 else None)

    def mul(self, other):
        return self * other

    def div(self, other):
        return self / other

    multiply = mul
    divide = div
    subtract = sub

    def pow(self, exponent):
        if isinstance(exponent, Tensor):
            return _apply(OPS["pow_tensor"], (self, exponent))
        return _apply(OPS["pow"], (self,), {"exponent": exponent},
                      dtype=_dispatch.result_dtype((self, exponent)))

    # comparisons and logic: no grad
    def _compare(self, other, fn):
        b = other._data if isinstance(other, Tensor) else other
        try:
            return Tensor._make(np.asarray(fn(self._data, b)), dtypes.bool)
        except ValueError as e:
            raise _dispatch._shape_error(e, [self._data, np.asarray(b)]) from None

    def __eq__(self, other):
        return self._compare(other, np.equal)

    def __ne__(self, other):
        return self._compare(other, np.not_equal)

    def __lt__(self, other):
        return self._compare(other, np.less)

    def __le__(self, other):
        return self._compare(other, np.less_equal)

    def __gt__(self, other):
        return self._compare(other, np.greater)

    def __ge__(self, other):
        return self._compare(other, np.greater_equal)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    def __and__(self, other):
        return self._compare(other, np.logical_and if self.dtype is dtypes.bool else np.bitwise_and)

    def __or__(self, other):
        return self._compare(other, np.logical_or if self.dtype is dtypes.bool else np.bitwise_or)

    def __invert__(self):
        return Tensor._make(~self._data, self.dtype)

    def logical_not(self):
        return Tensor._make(np.logical_not(self._data), dtypes.bool)

    def equal(self, other):
        return self.shape == other.shape and bool(np.array_equal(self._data, other._data))

    def allclose(self, other, rtol=1e-05, atol=1e-08):
        return bool(np.allclose(self._data, other._data, rtol=rtol, atol=atol))

    def all(self):
        return Tensor._make(np.asarray(self._data.all()), dtypes.bool)

    def any(self):
        return Tensor._make(np.asarray(self._data.any()), dtypes.bool)

    # --- in place -------------------------------------------------------------------------------
    def add_(self, other, alpha=1):
        return _dispatch.inplace(OPS["add"], self, (other,), {"alpha": alpha} if alpha != 1 else None)

    def sub_(self, other, alpha=1):
        return _dispatch.inplace(OPS["sub"], self, (other,), {"alpha": alpha} if alpha != 1 else None)

    def mul_(self, other):
        return _dispatch.inplace(OPS["mul"], self, (other,))

    def div_(self, other):
        return _dispatch.inplace(OPS["div"], self, (other,))

    def pow_(self, exponent):
        return _dispatch.inplace(OPS["pow"], self, (), {"exponent": exponent})

    def clamp_(self, min=None, max=None):
        return _dispatch.inplace(OPS["clamp"], self, (), {"min": min, "max": max})

    def exp_(self):
        return _dispatch.inplace(OPS["exp"], self, ())

    def relu_(self):
        return _dispatch.inplace(OPS["relu"], self, ())

    def neg_(self):
        return _dispatch.inplace(OPS["neg"], self, ())

    __iadd__ = add_
    __isub__ = sub_
    __imul__ = mul_
    __itruediv__ = div_

    def __ipow__(self, exponent):
        return self.pow_(exponent)

    def copy_(self, src):
        return _dispatch.inplace(OPS["copy"], self, (src,))

    def zero_(self):
        return _dispatch.inplace(OPS["zero"], self, ())

    def fill_(self, value):
        return _dispatch.inplace(OPS["fill"], self, (value,))

    def addcdiv_(self, tensor1, tensor2, value=1):
        return _dispatch.inplace(OPS["addcdiv"], self, (tensor1, tensor2), {"value": value})

    def addcmul_(self, tensor1, tensor2, value=1):
        return _dispatch.inplace(OPS["addcmul"], self, (tensor1, tensor2), {"value": value})

    def lerp_(self, end, weight):
        return _dispatch.inplace(OPS["lerp"], self, (end,), {"weight": weight})

    def addcdiv(self, tensor1, tensor2, value=1):
        return _apply(OPS["addcdiv"], (self, tensor1, tensor2), {"value": value})

    def addcmul(self, tensor1, tensor2, value=1):
        return _apply(OPS["addcmul"], (self, tensor1, tensor2), {"value": value})

    def lerp(self, end, weight):
        return _apply(OPS["lerp"], (self, end), {"weight": weight})

    # --- pointwise ------------------------------------------------------------------------------
    def exp(self):
        return _apply(OPS["exp"], (self,), dtype=_float_result((self,)))

    def log(self):
        return _apply(OPS["log"], (self,), dtype=_float_result((self,)))

    def sin(self):
        return _apply(OPS["sin"], (self,), dtype=_float_result((self,)))

    def cos(self):
        return _apply(OPS["cos"], (self,), dtype=_float_result((self,)))

    def tanh(self):
        return _apply(OPS["tanh"], (self,), dtype=_float_result((self,)))

    def sigmoid(self):
        return _apply(OPS["sigmoid"], (self,), dtype=_float_result((self,)))

    def sqrt(self):
        return _apply(OPS["sqrt"], (self,), dtype=_float_result((self,)))

    def relu(self):
        return _apply(OPS["relu"], (self,))

    def abs(self):
        return _apply(OPS["abs"], (self,))

    def neg(self):
        return -self

    negative = neg

    def reciprocal(self):
        return _apply(OPS["reciprocal"], (self,), dtype=_float_result((self,)))

    def sgn(self):
        return _apply(OPS["sgn"], (self,))

    def sign(self):
        return _apply(OPS["sign"], (self,))

    def square(self):
        return self.pow(2)

    def _float_op(self, name):
        return _apply(OPS[name], (self,), dtype=_float_result((self,)))

    def tan(self):
        return self._float_op("tan")

    def sinh(self):
        return self._float_op("sinh")

    def cosh(self):
        return self._float_op("cosh")

    def atan(self):
        return self._float_op("atan")

    def rsqrt(self):
        return self._float_op("rsqrt")

    def log1p(self):
        return self._float_op("log1p")

    def expm1(self):
        return self._float_op("expm1")

    def log2(self):
        return self._float_op("log2")

    def log10(self):
        return self._float_op("log10")

    def floor(self):
        return _apply(OPS["floor"], (self,))

    def ceil(self):
        return _apply(OPS["ceil"], (self,))

    def round(self):
        return _apply(OPS["round"], (self,))

    def trunc(self):
        return _apply(OPS["trunc"], (self,))

    def isnan(self):
        return Tensor._make(np.isnan(self._data), dtypes.bool)

    def isinf(self):
        return Tensor._make(np.isinf(self._data), dtypes.bool)

    def isfinite(self):
        return Tensor._make(np.isfinite(self._data), dtypes.bool)

    def maximum(self, other):
        from .functions import maximum

        return maximum(self, other)

    def minimum(self, other):
        from .functions import minimum

        return minimum(self, other)

    def where(self, condition, other):
        from .functions import where

        return where(condition, self, other)

    def masked_fill(self, mask, value):
        return _apply(OPS["masked_fill"], (self,),
                      {"mask": mask._data, "value": value, "mask_tensor": mask})

    def outer(self, vec2):
        return self.reshape(-1, 1) * vec2

    ger = outer

    def repeat(self, *sizes):
        sizes = _shape_args(sizes)
        if len(sizes) < self._data.ndim:
            raise RuntimeError(
                "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
            )
        return _apply(OPS["repeat"], (self,), {"repeats": sizes})

    def cumsum(self, dim):
        dtype = self.dtype if self.dtype.is_floating_point else dtypes.int64
        return _apply(OPS["cumsum"], (self,), {"dim": self._dim(dim)}, dtype=dtype)

    def logsumexp(self, dim, keepdim=False):
        return _apply(OPS["logsumexp"], (self,), {"dim": self._reduce_dims(dim), "keepdim": keepdim})

    def var(self, dim=None, unbiased=True, keepdim=False, correction=None):
        correction = (1 if unbiased else 0) if correction is None else correction
        attrs = {"correction": correction, "keepdim": keepdim}
        if dim is not None:
            attrs["dim"] = self._reduce_dims(dim)
        return _apply(OPS["var"], (self,), attrs)

    def std(self, dim=None, unbiased=True, keepdim=False, correction=None):
        correction = (1 if unbiased else 0) if correction is None else correction
        attrs = {"correction": correction, "keepdim": keepdim}
        if dim is not None:
            attrs["dim"] = self._reduce_dims(dim)
        return _apply(OPS["std"], (self,), attrs)

    def norm(self, p=2, dim=None, keepdim=False):
        if p != 2 and p != "fro":
            raise NotImplementedError("only the 2-norm is available in this engine")
        attrs = {"keepdim": keepdim}
        if dim is not None:
            attrs["dim"] = self._reduce_dims(dim)
        return _apply(OPS["norm"], (self,), attrs)

    def clamp(self, min=None, max=None):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        if isinstance(min, Tensor) or isinstance(max, Tensor):
            inf = float("inf")
            lo = min if min is not None else Tensor._make(np.asarray(-inf, self.dtype.np), self.dtype)
            hi = max if max is not None else Tensor._make(np.asarray(inf, self.dtype.np), self.dtype)
            if not isinstance(lo, Tensor) or not isinstance(hi, Tensor):
                raise TypeError("clamp() received an invalid combination of arguments - got a Tensor and a number")
            return _apply(OPS["clamp_tensor"], (self, lo, hi))
        return _apply(OPS["clamp"], (self,), {"min": min, "max": max})

    clip = clamp

    def clamp_min(self, min):
        return self.clamp(min=min)

    def clamp_max(self, max):
        return self.clamp(max=max)

    def softmax(self, dim):
        from .nn.functional import softmax

        return softmax(self, dim)

    def log_softmax(self, dim):
        from .nn.functional import log_softmax

        return log_softmax(self, dim)

    # --- reductions -----------------------------------------------------------------------------
    def _reduce_dims(self, dim):
        if isinstance(dim, (list, tuple)):
            return tuple(self._dim(d) for d in dim)
        return self._dim(dim)

    def sum(self, dim=None, keepdim=False, dtype=None):
        out_dtype = dtype or (self.dtype if self.dtype.is_floating_point else dtypes.int64)
        if dim is None:
            return _apply(OPS["sum"], (self,), dtype=out_dtype)
        return _apply(OPS["sum_dim"], (self,), {"dim": self._reduce_dims(dim), "keepdim": keepdim},
                      dtype=out_dtype)

    def mean(self, dim=None, keepdim=False):
        if not self.dtype.is_floating_point:
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating point or "
                f"complex dtype. Got: {_TYPE_NAMES[self.dtype.name]}"
            )
        if dim is None:
            return _apply(OPS["mean"], (self,))
        return _apply(OPS["mean_dim"], (self,), {"dim": self._reduce_dims(dim), "keepdim": keepdim})

    def max(self, dim=None, keepdim=False):
        from .functions import _minmax

        return _minmax(self, dim, keepdim, "max")

    def min(self, dim=None, keepdim=False):
        from .functions import _minmax

        return _minmax(self, dim, keepdim, "min")

    def argmax(self, dim=None, keepdim=False):
        return _arg(self, np.argmax, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return _arg(self, np.argmin, dim, keepdim)

    def sum_to_size(self, *size):
        shape = _shape_args(size)
        lead = self._data.ndim - len(shape)
        dims = tuple(range(lead)) + tuple(
            lead + i for i, s in enumerate(shape) if s == 1 and self._data.shape[lead + i] != 1
        )
        if not dims:
            return self
        out = self.sum(dims, keepdim=True)
        return out.view(shape) if out.shape != shape else out

    # --- shape and views ------------------------------------------------------------------------
    def _infer_shape(self, shape):
        shape = list(_shape_args(shape))
        n = self._data.size
        if shape.count(-1) > 1:
            raise RuntimeError("only one dimension can be inferred")
        if -1 in shape:
            known = 1
            for s in shape:
                if s != -1:
                    known *= s
            if known == 0 or n % known:
                raise RuntimeError(f"shape '{list(_shape_args(shape))}' is invalid for input of size {n}")
            shape[shape.index(-1)] = n // known
        if int(np.prod(shape, dtype=np.int64)) != n:
            raise RuntimeError(f"shape '{shape}' is invalid for input of size {n}")
        return tuple(shape)

    def _viewable(self, shape):
        r = self._data.reshape(shape)
        return r.size == 0 or np.may_share_memory(r, self._data)

    def view(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], dtypes.dtype):
            raise RuntimeError("view(dtype) is not supported")
        shape = self._infer_shape(shape)
        if not self._viewable(shape):
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one dimension "
                "spans across two contiguous subspaces). Use .reshape(...) instead."
            )
        return _apply(OPS["view"], (self,), {"shape": shape})

    def reshape(self, *shape):
        shape = self._infer_shape(shape)
        if self._viewable(shape):
            return _apply(OPS["view"], (self,), {"shape": shape})
        return _apply(OPS["unsafe_view"], (self.clone(),), {"shape": shape})

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        if self._data.ndim == 0:
            return self.reshape(1)
        s, e = self._dim(start_dim), self._dim(end_dim)
        if s == e:
            return self
        shape = self.shape
        return self.reshape(shape[:s] + (-1,) + shape[e + 1:])

    def unsqueeze(self, dim):
        return _apply(OPS["unsqueeze"], (self,), {"dim": self._dim(dim, self._data.ndim + 1)})

    def squeeze(self, dim=None):
        if dim is None:
            return _apply(OPS["squeeze"], (self,))
        return _apply(OPS["squeeze_dim"], (self,), {"dim": self._dim(dim)})

    def transpose(self, dim0, dim1):
        return _apply(OPS["transpose"], (self,), {"dim0": self._dim(dim0), "dim1": self._dim(dim1)})

    swapaxes = transpose

    def t(self):
        if self._data.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self._data.ndim}D")
        return _apply(OPS["t"], (self,))

    @property
    def T(self):
        if self._data.ndim != 2:
            warnings.warn(messages.T_NOT_2D, UserWarning, stacklevel=2)
        if self._data.ndim < 2:
            return self
        return self.permute(tuple(range(self._data.ndim - 1, -1, -1)))

    @property
    def mT(self):
        return self.transpose(-2, -1)

    def permute(self, *dims):
        dims = tuple(self._dim(d) for d in _shape_args(dims))
        return _apply(OPS["permute"], (self,), {"dims": dims})

    def expand(self, *sizes):
        sizes = _shape_args(sizes)
        lead = len(sizes) - self._data.ndim
        shape = tuple(self._data.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
        for i, s in enumerate(self._data.shape):
            if s != 1 and s != shape[lead + i]:
                raise RuntimeError(
                    f"The expanded size of the tensor ({shape[lead + i]}) must match the existing size ({s}) "
                    f"at non-singleton dimension {lead + i}.  Target sizes: {list(sizes)}.  "
                    f"Tensor sizes: {list(self._data.shape)}"
                )
        return _apply(OPS["expand"], (self,), {"shape": shape})

    def expand_as(self, other):
        return self.expand(other.shape)

    def narrow(self, dim, start, length):
        dim = self._dim(dim)
        return _apply(OPS["slice"], (self,), {"dim": dim, "start": start, "stop": start + length, "step": 1})

    def select(self, dim, index):
        dim = self._dim(dim)
        size = self._data.shape[dim]
        if not -size <= index < size:
            raise IndexError(
                f"select(): index {index} out of range for tensor of size {list(self.shape)} at dimension {dim}"
            )
        return _apply(OPS["select"], (self,), {"dim": dim, "index": index % size})

    def mm(self, other):
        from .functions import mm

        return mm(self, other)

    def mv(self, vec):
        from .functions import mv

        return mv(self, vec)

    def dot(self, other):
        return _apply(OPS["dot"], (self, other))

    def bmm(self, other):
        from .functions import bmm

        return bmm(self, other)

    def matmul(self, other):
        return self @ other

    # --- indexing -------------------------------------------------------------------------------
    def __getitem__(self, key):
        from .indexing import getitem

        return getitem(self, key)

    def __setitem__(self, key, value):
        from .indexing import setitem

        setitem(self, key, value)


def _float_result(inputs):
    d = _dispatch.result_dtype(inputs)
    return d if d.is_floating_point else dtypes.float32


def _arg(t, fn, dim, keepdim):
    if dim is None:
        return Tensor._make(np.asarray(fn(t._data), dtype=np.int64), dtypes.int64)
    out = fn(t._data, axis=t._dim(dim))
    if keepdim:
        out = np.expand_dims(out, t._dim(dim))
    return Tensor._make(np.asarray(out, dtype=np.int64), dtypes.int64)


from . import dispatch as _dispatch  # noqa: E402  (dispatch needs Tensor defined first)

_apply = _dispatch.apply
