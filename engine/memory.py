"""Memory layout as PyTorch has it: memory formats, strides in elements, contiguity, and the layouts of results.

A Tensor's memory is its numpy array; its strides are the array's (in elements). What this module adds is
torch's rules where numpy's differ: which strides a size-1 dim has (irrelevant to numpy, printed by
`x.stride()`), when a tensor counts as contiguous in a memory format, and which layout an elementwise result
or an accumulated `.grad` gets.
"""
import numpy as np


class memory_format:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")
_ALL = {f.name: f for f in (contiguous_format, channels_last, channels_last_3d, preserve_format)}


def _by_name(name):
    return _ALL[name]


def check_format(fmt, where="memory_format"):
    if not isinstance(fmt, memory_format):
        raise TypeError(f"{where}(): argument 'memory_format' must be torch.memory_format, not {type(fmt).__name__}")
    return fmt


def format_for(fmt, ndim, *, preserve, where=None):
    """The memory_format an op is asked for (None for its default), with torch's errors: preserve_format only where
    the op keeps its input's layout, channels_last only for 4-d tensors, channels_last_3d for 5-d."""
    if fmt is None or (preserve and fmt is preserve_format):
        return None
    if fmt is preserve_format:
        raise RuntimeError("unsupported memory format Preserve")
    if not isinstance(fmt, memory_format):
        prefix = f"{where}(): argument " if where else ""
        raise TypeError(f"{prefix}'memory_format' must be torch.memory_format, not {type(fmt).__name__}")
    if fmt is not contiguous_format:
        rank = 4 if fmt is channels_last else 5
        if ndim != rank:
            raise RuntimeError(f"required rank {rank} tensor to use {fmt.name} format")
    return fmt


def laid_out(a, fmt):
    """a in memory format fmt (a itself when it already is; None: as it is)."""
    if fmt is None or is_contiguous(a, fmt):
        return a
    return in_format(a, fmt)


def strides(a):
    """The strides of array a in elements."""
    size = a.itemsize
    return tuple([s // size for s in a.strides])


def contiguous_strides(shape):
    """Row-major strides of shape, as torch computes them (a size-0 or size-1 dim counts as size 1)."""
    out = [1] * len(shape)
    acc = 1
    for i in range(len(shape) - 1, -1, -1):
        out[i] = acc
        acc *= max(shape[i], 1)
    return tuple(out)


def format_strides(shape, fmt):
    """The strides torch gives a new tensor of shape in memory format fmt (channels_last: N, H, W, C order)."""
    if fmt is channels_last and len(shape) == 4:
        order = (1, 3, 2, 0)  # fastest first: C, W, H, N
    elif fmt is channels_last_3d and len(shape) == 5:
        order = (1, 4, 3, 2, 0)
    else:
        return contiguous_strides(shape)
    out = [0] * len(shape)
    acc = 1
    for d in order:
        out[d] = acc
        acc *= max(shape[d], 1)
    return tuple(out)


def empty_with_strides(a):
    """An empty array with the strides torch gives it: row-major where numpy left every stride 0 (a new array),
    else as they are (a view keeps those of its base)."""
    if any(a.strides):
        return a
    return np.lib.stride_tricks.as_strided(a, a.shape, [s * a.itemsize for s in contiguous_strides(a.shape)])


def is_contiguous(a, fmt=contiguous_format):
    """torch's is_contiguous: sizes of 1 do not constrain strides; an empty tensor is contiguous."""
    shape = a.shape
    if fmt is contiguous_format or fmt is preserve_format:
        if a.flags.c_contiguous:
            return True
        want = contiguous_strides(shape)
    elif fmt is channels_last or fmt is channels_last_3d:
        rank = 4 if fmt is channels_last else 5
        if len(shape) != rank:
            return False
        want = format_strides(shape, fmt)
    else:
        raise TypeError(f"is_contiguous(): argument 'memory_format' must be torch.memory_format, not "
                        f"{type(fmt).__name__}")
    if 0 in shape:
        return True
    return all(n == 1 or s == w for n, s, w in zip(shape, strides(a), want))


def suggest_format(a):
    """The memory format torch's `suggest_memory_format` reads off a tensor: channels_last when its strides
    say so and it is not also plain contiguous."""
    if a.ndim == 4 and not a.flags.c_contiguous and is_contiguous(a, channels_last):
        return channels_last
    if a.ndim == 5 and not a.flags.c_contiguous and is_contiguous(a, channels_last_3d):
        return channels_last_3d
    return contiguous_format


def with_strides(a, want):
    """A copy of a laid out with the given element strides (dense, non-overlapping)."""
    order = sorted(range(a.ndim), key=lambda d: (-want[d], -d))  # slowest dim first
    buf = np.empty([a.shape[d] for d in order], a.dtype)
    out = buf.transpose(np.argsort(order))
    out[...] = a
    if strides(out) != tuple(want):  # numpy leaves the strides of size-1 dims as it likes; torch's are asked for
        out = np.lib.stride_tricks.as_strided(out, out.shape, [w * out.itemsize for w in want])
    return out


def strided_copy(a):
    """A copy of a in a buffer of its own with a's strides exactly (a piece of a larger block keeps its gaps, as
    torch's unsafe_split pieces keep the strides of the storage they share)."""
    st = strides(a)
    if a.size == 0 or any(s < 0 for s in st):
        return a.copy()
    span = 1 + sum((n - 1) * s for n, s in zip(a.shape, st))
    out = np.lib.stride_tricks.as_strided(np.empty(span, a.dtype), a.shape, [s * a.itemsize for s in st])
    out[...] = a
    return out


def in_format(a, fmt):
    """A copy of a in memory format fmt (preserve: a's own strides when a is dense, else row-major)."""
    if fmt is preserve_format:
        have = strides(a)
        if not is_dense(a) or have == contiguous_strides(a.shape):
            return laid_out(np.array(a, order="C"), suggest_format(a))
        return with_strides(a, have)  # a size-1 dim keeps its stride too, as torch's empty_strided keeps it
    if fmt is contiguous_format:
        return np.array(a, order="C")
    return with_strides(a, format_strides(a.shape, fmt))


def is_dense(a):
    """Non-overlapping and dense: the elements fill one block of memory (any order of dims)."""
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return True
    dims = sorted((s, n) for n, s in zip(a.shape, strides(a)) if n != 1)
    acc = 1
    for s, n in dims:
        if s != acc:
            return False
        acc *= n
    return True


def iterated(out, arrays, attrs):
    """out laid out as TensorIterator lays out an elementwise result of these operands (numpy's ufuncs go row-major
    where the operands disagree). where's condition, an attribute here, is torch's first operand."""
    cond = attrs.get("condition")
    if cond is not None and hasattr(cond, "_data"):
        arrays = (cond._data, *arrays)
    want = iterator_strides(out.shape, [a for a in operands(out.shape, arrays) if type(a) is np.ndarray and a.ndim])
    return out if strides(out) == want else with_strides(out, want)


def operands(shape, arrays):
    """The arrays (and scalars) that broadcast to shape: TensorIterator's operands of a result of that shape."""
    return [a for a in arrays if not hasattr(a, "shape") or broadcasts_to(a.shape, shape)]


def broadcasts_to(shape, target):
    return len(shape) <= len(target) and all(n == 1 or n == m for n, m in zip(shape[::-1], target[::-1]))


def iterator_strides(shape, arrays):
    """The strides TensorIterator gives the output of shape (ATen's reorder_dimensions): dims sorted fastest first by
    the first operand that tells two apart by a stride (broadcast dims tell nothing; equal strides: the smaller
    size goes first), the rest in row-major order; then dense in that order."""
    nd = len(shape)
    ops = []
    for a in arrays:
        lead = nd - a.ndim
        st = strides(a)
        ops.append([0] * lead + [0 if n == 1 and shape[lead + i] != 1 else st[i] for i, n in enumerate(a.shape)])
    return iterator_strides_of(shape, ops)


def iterator_strides_of(shape, ops):
    """iterator_strides for operands given by their strides over the whole shape (0 where broadcast)."""
    nd = len(shape)

    def should_swap(d0, d1):
        for st in ops:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(nd - 1, -1, -1))
    for i in range(1, nd):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    if perm == list(range(nd - 1, -1, -1)):
        return contiguous_strides(shape)
    out = [0] * nd
    acc = 1
    for d in perm:
        out[d] = acc
        acc *= shape[d]  # ATen's compatible_stride: a size 0 makes every slower stride 0
    return tuple(out)


def column_major(a, dtype):
    """A copy of a as dtype laid out as LAPACK leaves torch's linalg results: each matrix by columns, the batch
    row-major (torch's strides exactly: a size-0 or size-1 dim counts as size 1)."""
    a = np.asarray(a)
    if a.ndim < 2:
        return np.array(a, dtype=dtype)
    return with_strides(a.astype(dtype, copy=False), column_major_strides(a.shape))


def column_major_strides(shape):
    """The strides of a batch of matrices each stored by columns (the batch row-major)."""
    want = list(contiguous_strides(tuple(shape[:-2]) + (shape[-1], shape[-2])))
    want[-1], want[-2] = want[-2], want[-1]
    return tuple(want)


def like_input(g, x):
    """g laid out as ATen allocates a pool's or conv's grad_input: in the memory format x suggests (the strides of
    its size-1 dims too)."""
    want = format_strides(g.shape, suggest_format(x))
    return g if strides(g) == want else with_strides(g, want)


def like_param(g, param):
    """The layout AccumulateGrad gives a first `.grad`: the param's strides when the param is dense, else
    row-major (torch's `clone_obey_contract`)."""
    if param.flags.c_contiguous or not is_dense(param):
        return np.array(g, order="C")
    return with_strides(g, strides(param))


def view_strides(shape, old_strides, new_shape):
    """The strides of `x.view(new_shape)` for x of this shape and strides, or None where torch's view refuses
    (ATen's computeStride: each run of dims that is contiguous in memory may be split or merged, not crossed)."""
    if not shape:
        return (1,) * len(new_shape)
    numel = 1
    for n in shape:
        numel *= n
    if numel == 0:
        if tuple(shape) == tuple(new_shape):
            return tuple(old_strides)
        return contiguous_strides(new_shape)
    out = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    base = old_strides[-1]
    tensor_numel = view_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and old_strides[d - 1] != tensor_numel * base):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                out[view_d] = view_numel * base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                base = old_strides[d - 1]
                tensor_numel = view_numel = 1
    return tuple(out) if view_d == -1 else None


def expand_strides(shape, old_strides, new_shape):
    """The strides of `x.expand(new_shape)` (ATen's inferExpandGeometry): an expanded dim gets 0, a dim that keeps its
    size keeps its stride (numpy's broadcast_to puts 0 on size-1 dims too), a new leading dim of size 1 gets the
    product of the next dim's size and stride; a 0-d tensor expands with strides 0."""
    out = [0] * len(new_shape)
    if not shape:
        return tuple(out)
    lead = len(new_shape) - len(shape)
    for i in range(len(new_shape) - 1, -1, -1):
        d = i - lead
        if d >= 0:
            size, stride = shape[d], old_strides[d]
        else:
            size, stride = 1, new_shape[i + 1] * out[i + 1] if i + 1 < len(new_shape) else 1
        out[i] = stride if size == new_shape[i] else 0
    return tuple(out)


def expand(a, shape):
    """np.broadcast_to(a, shape) with torch's strides."""
    b = np.broadcast_to(a, shape)
    want = expand_strides(a.shape, strides(a), b.shape)
    if strides(b) == want:
        return b
    return np.lib.stride_tricks.as_strided(b, b.shape, [w * a.itemsize for w in want], writeable=False)


def view(a, shape):
    """a.view(shape) as torch lays it out (numpy's reshape agrees but for the strides of size-1 dims)."""
    r = a.reshape(shape)
    if a.flags.c_contiguous and strides(a) == contiguous_strides(a.shape):
        return r
    want = view_strides(a.shape, strides(a), shape)
    if want is None or strides(r) == want:
        return r
    return np.lib.stride_tricks.as_strided(a, shape, [w * a.itemsize for w in want])


FLUSH_DENORMAL = [False]  # torch.set_flush_denormal(True): the CPU's flush-to-zero and denormals-are-zero modes


def without_denormals(a):
    """A float array with its denormal numbers made zeros of their sign, as the CPU reads and writes them in
    flush-denormal mode (other arrays and numbers as they are)."""
    if type(a) is not np.ndarray or a.dtype.kind != "f" or not a.size:
        return a
    small = (np.abs(a) < np.finfo(a.dtype).tiny) & (a != 0)
    if not small.any():
        return a
    return np.where(small, np.copysign(np.zeros((), a.dtype), a), a)


def flushed(a):
    """a as the CPU makes it in flush-denormal mode (as it is otherwise)."""
    return without_denormals(a) if FLUSH_DENORMAL[0] else a


def place(t):
    """The array of t's place in memory: its own, or for a conjugate view (which holds a conjugated copy) the
    region of its base's memory it views."""
    base = t._base
    if base is None or t._view_fn is None or np.may_share_memory(t._data, base._data):
        return t._data
    return getattr(t._view_fn, "geometry", t._view_fn)(base._data)
