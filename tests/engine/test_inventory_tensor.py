"""A tensor's memory and flags as programs read them (data_ptr, untyped_storage, element_size, nbytes, is_* flags,
pin_memory's CPU refusal, share_memory_), apply_/map_, x.new, torch.asarray's sharing and torch.frombuffer, against
torch."""
import warnings

from difftest import assert_same, load_engine

PRELUDE = "import torch\nimport numpy as np\n"


def _same(source):
    assert_same(PRELUDE + source)


def test_memory_facts_and_flags():
    _same("""
x = torch.arange(12.0).reshape(3, 4)
for t in (x, x[1], x[:, 1:], x.t(), x.detach(), torch.ones(3, dtype=torch.int16), torch.tensor(2.0)):
    s = t.untyped_storage()
    print(t.element_size(), t.itemsize, t.nbytes, t.ndimension(), s.nbytes(), len(s),
          t.data_ptr() - x.data_ptr() if t.dtype == x.dtype and t.dim() else None, s.data_ptr() == t.data_ptr())
print(x[1:].untyped_storage().data_ptr() == x.untyped_storage().data_ptr(), torch.tensor([]).data_ptr())
print(x.const_data_ptr() == x.data_ptr(), x.is_set_to(x), x.is_set_to(x.view(3, 4)), x.is_set_to(x.t()),
      x.is_set_to(x.clone()), x[0].is_set_to(x[0]), torch.tensor([]).is_set_to(torch.tensor([])))
print(x.is_cpu, x.is_meta, x.is_sparse, x.is_quantized, x.is_nested, x.is_conj(), x.is_neg(), x.is_pinned())
print(x.get_device(), torch.get_device(x), x.is_same_size(x[0]), torch.is_same_size(x, x + 1))
print(torch.is_nonzero(torch.tensor([0.0])), torch.tensor(3).is_nonzero(), torch.is_conj(x), torch.is_neg(x))
print(x.is_shared(), x.share_memory_() is x, x.is_shared(), x[1].is_shared(), torch.ones(2).is_shared())
print(x.untyped_storage().tolist()[4:8], torch.tensor([1, 2], dtype=torch.int16).untyped_storage().tolist())
st = x.storage()
print(st.size(), st.dtype, st.element_size(), st.data_ptr() == x.data_ptr(), x[1:].storage().size())
for bad in (torch.tensor([1, 2]), torch.tensor([])):
    try:
        bad.is_nonzero()
    except RuntimeError as e:
        print(e)
try:
    x.pin_memory()
except RuntimeError as e:
    print(e)
""")


def test_apply_map_and_new():
    _same("""
x = torch.arange(4.0)
print(x.apply_(lambda v: v * 2), x._version)
print(x.map_(torch.tensor([1.0]), lambda a, b: a + b), x._version)
print(torch.arange(3).apply_(lambda v: v * 1.7))
try:
    torch.ones(2, requires_grad=True).apply_(abs)
except RuntimeError as e:
    print(e)
y = torch.ones(2, dtype=torch.int64)
print(y.new(2, 3).shape, y.new([1.5, 2]), y.new().shape, y.new(torch.Size([2])).shape, x.new((1, 2)))
t = torch.tensor([1.0, 2.0])
print(x.new(t).data_ptr() == t.data_ptr())
print(torch.tensor([-1.0, 2.0]).prelu(torch.tensor([0.25])))
""")


def test_asarray_and_frombuffer():
    _same("""
x = torch.ones(2)
print(torch.asarray(x) is x, torch.asarray(x, copy=True).data_ptr() == x.data_ptr())
print(torch.asarray(x, dtype=torch.float64))
for call in (lambda: torch.asarray(x, dtype=torch.float64, copy=False),
             lambda: torch.asarray([1, 2], copy=False),
             lambda: torch.asarray(np.arange(3.0), dtype=torch.float32, copy=False),
             lambda: torch.asarray([1, 2], requires_grad=True)):
    try:
        call()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
y = torch.ones(2, requires_grad=True)
r = torch.asarray(y, dtype=torch.float64)
print(r, r.is_leaf)
print(torch.asarray(y * 2, copy=True, requires_grad=True))
r = torch.asarray(y, requires_grad=False)
print(r is y, y.requires_grad)
a = np.arange(3.0)
r = torch.asarray(a)
a[0] = 9
print(r, torch.asarray(3), torch.asarray(np.float64(2.0)), torch.asarray([1, 2.5]))
b = bytearray(b"\\x00\\x00\\x80?\\x00\\x00\\x00@")
r = torch.frombuffer(b, dtype=torch.float32)
b[0:4] = b"\\x00\\x00@@"
print(r, torch.frombuffer(b, dtype=torch.int16, count=2, offset=2))
for kw in ({"count": 3}, {"offset": 3}, {"offset": 9}):
    try:
        torch.frombuffer(b, dtype=torch.float32, **kw)
    except ValueError as e:
        print(e)
""")


def _warned(lib, calls):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        for call in calls:
            call(lib)
    return [str(w.message).split(" (Triggered internally")[0] for w in seen]


def test_once_warnings():
    """asarray's requires_grad default and the deprecated TypedStorage warn once per process (torch's texts are
    read with set_warn_always on, which makes torch give them every time)."""
    import torch

    calls = (lambda T: T.asarray(T.ones(2, requires_grad=True)), lambda T: T.ones(1).storage())
    torch.set_warn_always(True)
    torch.storage._set_always_warn_typed_storage_removal(True)
    try:
        want = _warned(torch, calls)
    finally:
        torch.set_warn_always(False)
        torch.storage._set_always_warn_typed_storage_removal(False)
    engine = load_engine()
    engine.messages.WARNED_ONCE.clear()
    assert _warned(engine, calls + calls) == want and len(want) == 2
    engine.set_warn_always(True)  # TORCH_WARN_ONCE's then warn each time; TypedStorage's has its own flag
    try:
        assert _warned(engine, calls) == want[:1] and engine.is_warn_always_enabled()
    finally:
        engine.set_warn_always(False)
