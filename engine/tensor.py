"""The Tensor: a numpy array plus what autograd needs (requires_grad, grad_fn, grad, version, views).

This module holds its state and the behaviour that is not an op. The ops' methods (`x.exp()`, `x + y`, `x.sum()`,
`x.add_()`, …) are derived from the op table by engine/methods.py; `backward` is added by
engine/autograd/differentiate.py and indexing (`x[i]`, `x[i] = v`) by engine/indexing.py.

Over 500 lines: one class, whose state, layout and the flags torch answers for a dense CPU tensor belong together.
"""
import sys
import warnings

import numpy as np

from . import devices, dtypes, grad_mode, graph, memory, messages, observe
from .ops import complex_numbers, matrix_transposed, transposed
from .ops.regions import view_region
from .printing import format_tensor
from .torch_names import TorchClass

_DTYPE = dtypes.dtype

_MODE = grad_mode._state


class Size(tuple, metaclass=TorchClass):
    _torch_name = "torch.Size"

    def __repr__(self):
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def __getitem__(self, index):
        got = tuple.__getitem__(self, index)
        return Size(got) if isinstance(index, slice) else got

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n


def fitted(data, dtype):
    """data as an array of a dtype numpy has not (bfloat16 held in float32): its values rounded to the dtype's, data
    itself (a view stays one) when they are already."""
    rounded = dtype.fit(data)
    if data.dtype == rounded.dtype and np.array_equal(rounded, data, equal_nan=True):
        return data
    return rounded


class Tensor(metaclass=TorchClass):
    _torch_name = "torch.Tensor"
    __slots__ = (
        "_data", "dtype", "_requires_grad", "_grad_fn", "_view_version", "_grad", "_vbox", "_base", "_view_fn",
        "_retains_grad", "_acc", "_grad_of", "_output_nr", "_inference", "__weakref__",
        "__dict__",  # what a program sets on its own tensors (`out.g = ...`, as fast.ai's lessons do)
    )
    __array_priority__ = 1000  # numpy scalars defer to Tensor's reflected operators

    # --- construction ---------------------------------------------------------------------------
    @classmethod
    def _make(cls, data, dtype, requires_grad=False):
        if dtype.__class__ is not _DTYPE:  # an object posing as a dtype (a method's dtype=): as torch, refused
            raise TypeError(f"argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
        t = object.__new__(cls)
        if dtype.fit is not None:
            data = fitted(data, dtype)
            if dtype is dtypes.complex32 and (messages.COMPLEX_HALF not in messages.WARNED_ONCE or
                                              messages.WARN_ALWAYS[0]):
                messages.WARNED_ONCE[messages.COMPLEX_HALF] = True
                messages.warn_at_caller(messages.COMPLEX_HALF)
        if not data.size and data.ndim:  # numpy gives every empty array strides 0; torch, its layout's
            data = memory.empty_with_strides(data)
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
        t._output_nr = 0  # which output of its grad_fn this is (a custom Function may have several)
        t._inference = _MODE["inference"]
        return t

    def __init__(self, *args, **kwargs):
        pass  # torch.Tensor(data) and torch.Tensor(*sizes) are made by __new__ (engine/factories.py)

    def _make_view_of(self, src, op, attrs):
        """Mark self as a view of src: same memory, same version counter, a way back to the base region."""
        base = src._base if src._base is not None else src
        self._view_fn = view_region(src._view_fn, op.forward, attrs, conj=getattr(op, "name", None) == "conj")
        self._base = base
        self._vbox = src._vbox
        self._inference = src._inference
        self._view_version = src._vbox[0]
        if graph.CUSTOM_VIEWS and graph.CUSTOM_VIEWS.get(id(src)) is src:
            graph.CUSTOM_VIEWS[id(self)] = self

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
        self._output_nr = 0

    @property
    def output_nr(self):
        return self._output_nr

    def _regenerate_view_grad_fn(self):
        """A view whose base was changed in place since: PyTorch rebuilds its grad_fn as an
        AsStridedBackward0 of the base's current grad_fn; a view made in a custom Function it refuses."""
        if graph.CUSTOM_VIEWS.get(id(self)) is self and self._grad_fn is not None:
            raise RuntimeError(messages.CUSTOM_FUNCTION_VIEW_INPLACE.format(
                nr=self._output_nr, name=graph._short_name(self._grad_fn),
                what="its base or another view of its base has been modified"))
        self._view_version = self._vbox[0]
        if self._base.requires_grad:
            source = self.__dict__.get("_conj_source")
            fresh = source._op("conj") if source is not None and grad_mode.is_grad_enabled() else None
            # a conjugate view is made again (ConjBackward0), as torch replays a view it cannot stride
            self._grad_fn = fresh._grad_fn if fresh is not None and fresh._grad_fn is not None else \
                graph.as_strided(self, graph.edge(self._base))
            self._output_nr = 0
        return self._grad_fn

    # --- metadata -------------------------------------------------------------------------------
    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[self._size_dim(dim)]

    def dim(self):
        return self._data.ndim

    ndim = property(dim)

    def numel(self):
        return int(self._data.size)

    nelement = numel

    def _size_dim(self, dim):
        """size(dim) and stride(dim) of a 0-d tensor have no dim to wrap to."""
        if not self._data.ndim:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return self._dim(dim)

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
        return devices.CPU

    @property
    def is_cuda(self):
        return False

    # the engine's tensors are dense, strided, CPU, real, of one storage: what torch's flags then say
    is_cpu = property(lambda self: True)
    is_meta = is_sparse = is_quantized = is_nested = is_mkldnn = property(lambda self: False)
    is_mps = is_xpu = is_ipu = is_xla = is_vulkan = is_maia = is_mtia = is_sparse_csr = property(lambda self: False)

    @property
    def volatile(self):
        messages.warn_at_caller("volatile was removed (Variable.volatile is always False)")
        return False

    def is_conj(self):
        return self.__dict__.get("_conj_bit", False) if self.dtype.is_complex else False

    real = property(lambda self: complex_numbers.real(self), lambda self, value: self.real.copy_(value))
    imag = property(lambda self: complex_numbers.imag(self), lambda self, value: self.imag.copy_(value))

    def is_neg(self):
        return False

    def get_device(self):
        return -1

    def ndimension(self):
        return self.dim()

    def is_same_size(self, other):
        return self.shape == other.shape

    def is_nonzero(self):
        if self._data.size == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(()))

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_signed(self):
        return self.dtype.is_signed

    def is_complex(self):
        return self.dtype.is_complex

    @property
    def layout(self):
        return dtypes.strided

    def _type_desc(self):
        return f"torch.{self.dtype.type_name}Tensor [{', '.join(map(str, self.shape))}]"

    @property
    def _version(self):
        if self._inference:
            raise RuntimeError(messages.INFERENCE_VERSION)
        return self._vbox[0]

    def is_inference(self):
        return self._inference

    def _bump(self):
        box = self._vbox
        box[0] += 1
        if len(box) > 1:  # the memory has conjugate views (copies of their own): kept in step with it
            complex_numbers.sync_conjugates(self, box[1])

    # --- autograd state -------------------------------------------------------------------------
    @property
    def requires_grad(self):
        return self.grad_fn is not None or self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if self.grad_fn is not None:
            raise RuntimeError(messages.NON_LEAF_REQUIRES_GRAD if not value else messages.NON_LEAF_REQUIRES_GRAD_SHORT)
        if value and not self.dtype._grads:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if value and self._inference and not _MODE["inference"]:
            raise RuntimeError(messages.INFERENCE_REQUIRES_GRAD)
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad=True):
        if requires_grad and not self.dtype._grads:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if self.grad_fn is not None and not requires_grad:
            raise RuntimeError(messages.NON_LEAF_REQUIRES_GRAD)
        if requires_grad and self._inference and not _MODE["inference"]:
            raise RuntimeError(messages.INFERENCE_REQUIRES_GRAD)
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
                raise RuntimeError(messages.GRAD_DTYPE.format(got=value.dtype.c_name, want=self.dtype.type_name))
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

        return node._register_tensor_hook(checked, self._output_nr)

    def register_post_accumulate_grad_hook(self, hook):
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        acc = self._accumulate_grad()
        if acc._post_accumulate is None:
            acc._post_accumulate = []
        acc._post_accumulate.append(hook)
        return graph.RemovableHandle(acc._post_accumulate, hook)

    def _accumulate_grad(self):
        if self._acc is None:
            self._acc = graph.AccumulateGrad(self)
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
            data = g._data if g._data.dtype == self.dtype.np else g._data.astype(self.dtype.np)
            new = Tensor._make(memory.like_param(np.broadcast_to(data, self.shape), self._data), self.dtype)
            new._grad_of = self
            self._grad = new
        else:
            np.add(before._data, dtypes.stored(self.dtype, g._data), out=before._data, casting="unsafe")
            if self.dtype.fit is not None:  # the sum rounded too (bfloat16 held in float32)
                before._data[...] = self.dtype.fit(before._data)
            before._bump()
        if observe._observers:
            observe.emit("on_grad", self, before_value, g)

    def __deepcopy__(self, memo):
        if self._grad_fn is not None:
            raise RuntimeError(messages.DEEPCOPY_NON_LEAF)
        if id(self) in memo:
            return memo[id(self)]
        new = Tensor._make(self._data.copy(), self.dtype, self._requires_grad)
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = new
        if observe._observers:
            observe.emit("on_tensor", new)
        return new

    def detach(self):
        t = Tensor._make(self._data, self.dtype)
        t._vbox = self._vbox
        t._inference = self._inference
        return t

    def _saved_alias(self):
        """The same data without this tensor's place in the graph, as a node keeps a saved output (graph.py);
        a batched tensor keeps its value's own graph, which belongs to the level outside the transform."""
        return self.detach()

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
        t = Tensor._make(self._data, self.dtype)
        t._inference = self._inference
        return t

    @data.setter
    def data(self, value):
        self._data = value._data
        self.dtype = value.dtype

    # --- conversion -----------------------------------------------------------------------------
    def item(self):
        # inside vmap a program's own .item() fails as in torch (the engine's own calls are fine)
        if messages.ITEM_REFUSED and not sys._getframe(1).f_globals.get("__name__", "").startswith("engine."):
            raise RuntimeError(messages.ITEM_REFUSED[-1])
        if self._data.size != 1:
            raise RuntimeError(messages.ITEM_MANY.format(n=self._data.size))
        return self._data.reshape(()).item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self):
        if self.requires_grad and _MODE["grad"]:
            raise RuntimeError(messages.NUMPY_REQUIRES_GRAD)
        if self.dtype.fit is not None:
            raise TypeError(f"Got unsupported ScalarType {self.dtype.type_name}")
        if self.is_conj():
            raise RuntimeError("Can't call numpy() on Tensor that has conjugate bit set. Use tensor.resolve_conj()."
                               "numpy() instead.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        if self.requires_grad and _MODE["grad"]:
            raise RuntimeError(messages.NUMPY_REQUIRES_GRAD)
        if self.dtype.fit is not None:
            raise TypeError(f"Got unsupported ScalarType {self.dtype.type_name}")
        return self._data if dtype is None else self._data.astype(dtype)

    def __float__(self):
        return float(self._real_scalar("double"))

    def __int__(self):
        return int(self._real_scalar("int64_t"))

    def __complex__(self):
        return complex(self._scalar())

    def _real_scalar(self, c_type):
        value = self._scalar()
        if type(value) is complex:
            if value.imag:
                raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
            return value.real
        return value

    def _scalar(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if self.requires_grad and grad_mode.is_grad_enabled():  # torch warns with grad mode on only
            messages.warn_once(messages.SCALAR_REQUIRES_GRAD, stacklevel=3)
        return self.item()

    def __index__(self):
        if self.dtype._grads or self._data.size != 1:
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
        suffixes = []
        try:
            fn = self.grad_fn
            name = None if fn is None else type(fn).__name__
        except RuntimeError:  # a custom Function's view whose base was changed in place (torch prints so)
            name = "Invalid"
        if name is not None:
            suffixes.append(f"grad_fn=<{name}>")
        elif self._requires_grad:
            suffixes.append("requires_grad=True")
        if grad_mode.TANGENTS and id(self) in grad_mode.TANGENTS:
            suffixes.append(f"tangent={grad_mode.TANGENTS[id(self)][1]}")  # (format: a 0-dim tangent as its number)
        return format_tensor(self._data, self.dtype.name, suffixes)

    __str__ = __repr__

    def __format__(self, spec):
        if self._data.ndim == 0 and type(self) is Tensor:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def is_contiguous(self, memory_format=memory.contiguous_format):
        if memory_format is memory.contiguous_format:
            return self._data.flags.c_contiguous or memory.is_contiguous(self._data)
        return memory.is_contiguous(self._data, memory.check_format(memory_format, "is_contiguous"))

    def stride(self, dim=None):
        strides = memory.strides(self._data)
        return strides if dim is None else strides[self._size_dim(dim)]

    def storage_offset(self):
        if self._base is None:
            return 0
        here = memory.place(self).__array_interface__["data"][0]
        base = self._base._data.__array_interface__["data"][0]
        return (here - base) // self._data.itemsize

    def is_non_overlapping_and_dense(self):
        return memory.is_dense(self._data)

    @property
    def T(self):
        return transposed(self)

    mT = property(lambda self: matrix_transposed(self, "mT"))
    mH = property(lambda self: matrix_transposed(self, "mH"))
    H = property(lambda self: matrix_transposed(self, "H"))

    # --- for the op table's bind and vjp functions ----------------------------------------------------
    def _reduce_dims(self, dim):
        """A reduction's dim (an int or several), checked, as given: a node keeps the dims a user wrote (-1 as
        2**64 - 1), and numpy takes them as they are."""
        if isinstance(dim, (list, tuple)):
            seen = set()
            for d in dim:
                wrapped = self._dim(d)
                if wrapped in seen:
                    raise RuntimeError(f"dim {wrapped} appears multiple times in the list of dims")
                seen.add(wrapped)
            return tuple(dim)
        self._dim(dim)
        return dim

    def _new(self, array, dtype):
        """A tensor of `array` that no observer hears of (indices, masks made by the engine itself)."""
        return Tensor._make(np.asarray(array, dtype=dtype.np), dtype)

    def _constant(self, value):
        """A 0-d tensor of self's dtype holding value."""
        return Tensor._make(np.asarray(value, dtype=self.dtype.np), self.dtype)

