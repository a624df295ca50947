"""Complex numbers: a complex tensor's parts (real, imag, view_as_real, view_as_complex), its conjugate (conj,
conj_physical, resolve_conj) and the complex tensors made from real ones (complex, polar)."""
import weakref

import numpy as np

from .. import dtypes, memory
from .table import OPS, Spelling, composite, op, tensor_argument


def conj_of(t):
    """t's conjugate where t is complex; a real tensor is its own (torch's conj returns it, making no node)."""
    return t.conj() if t.dtype.is_complex else t


def real_of(t):
    """ATen's handle_r_to_c: the real part of a grad for an input that is real."""
    return t.real if t.dtype.is_complex else t


def conjugated_vjp(vjp):
    """The vjp of a holomorphic f, written for real inputs as grad · f'(self), made torch's for complex ones too:
    grad · conj(f'(self)), which is the vjp (linear in grad) on conj(grad), conjugated."""
    def complex_aware(n, g):
        return vjp(n, g.conj()).conj() if g.dtype.is_complex else vjp(n, g)

    return complex_aware


def _as_real(a):
    return np.lib.stride_tricks.as_strided(a.real, a.shape + (2,), a.strides + (a.itemsize // 2,))


def _bind_view_as_real(self):
    if not self.dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    if self.is_conj():
        raise RuntimeError("view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate "
                           "tensor so you can view it as real, use self.resolve_conj(); however, be warned that the "
                           "resulting tensor will NOT alias the original.")
    return OPS["view_as_real"], (self,), None, dtypes.to_real(self.dtype)


def _bind_view_as_complex(self):
    if self.dtype not in (dtypes.float32, dtypes.float64):
        raise RuntimeError("view_as_complex is only supported for half, float and double tensors, but got a tensor "
                           f"of scalar type: {self.dtype.type_name}")
    if not self.dim() or self.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if self.stride(-1) != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in self.stride()[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if self.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    return OPS["view_as_complex"], (self,), None, dtypes.to_complex(self.dtype)


def _view_as_real(t):
    return t._apply(OPS["view_as_real"], (t,), None, dtypes.to_real(t.dtype))


def _view_as_complex(t):
    return t._apply(OPS["view_as_complex"], (t,), None, dtypes.to_complex(t.dtype))


op("view_as_real", "ViewAsRealBackward0", ("self",), _as_real,
   ("view_as_complex(grad)", lambda n, g: _view_as_complex(g.contiguous())), view=True,
   numel=lambda arrays, attrs: arrays[0].size * 2,
   spell=Spelling(function="view_as_real", out=False), bind=_bind_view_as_real)
op("view_as_complex", "ViewAsComplexBackward0", ("self",),
   lambda a: a.view(np.complex128 if a.dtype == np.float64 else np.complex64)[..., 0],
   ("view_as_real(grad)", lambda n, g: _view_as_real(g.contiguous().resolve_conj())), view=True,
   numel=lambda arrays, attrs: arrays[0].size // 2,
   spell=Spelling(function="view_as_complex", out=False), bind=_bind_view_as_complex)
def _conjugated(a):
    """a's conjugate laid out with a's strides exactly, as torch's conjugate view has them."""
    st = memory.strides(a)
    if a.size == 0 or any(s < 0 for s in st):
        return np.conjugate(a)
    span = 1 + sum((n - 1) * s for n, s in zip(a.shape, st))
    out = np.lib.stride_tricks.as_strided(np.empty(span, a.dtype), a.shape, [s * a.itemsize for s in st])
    out[...] = np.conjugate(a)
    return out


op("conj", "ConjBackward0", ("self",), _conjugated, ("conj(grad)", lambda n, g: g.conj()), view=True, bind=False,
   spell=Spelling(name="{0}.conj()"))
op("conj_physical", "ConjPhysicalBackward0", ("self",), np.conjugate,
   ("conj_physical(grad)", lambda n, g: g.conj_physical()), bind=False, spell=Spelling(name="{0}.conj_physical()"))
op("conj_physical_", "ConjPhysicalBackward1", ("self",), np.conjugate,  # in place, torch's node is another
   ("conj_physical(grad)", lambda n, g: g.conj_physical()),
   spell=Spelling(inplace="conj_physical_", inplace_function="conj_physical_"),
   bind=lambda self: (OPS["conj_physical_"], (self,), None, None))


# a real tensor is its own conjugate, real part and resolved conjugate
@composite(Spelling(method="conj", function="conj", out=False))
def conj(self):
    if not self.dtype.is_complex:
        return self
    out = self._apply(OPS["conj"], (self,))
    out._conj_bit = not self.is_conj()  # the conjugate of a conjugate view has the bit flipped back
    out._conj_source = self
    box = out._vbox
    if len(box) == 1:
        box.append([])
    box[1].append(weakref.ref(out))
    return out


def sync_conjugates(written, refs):
    """torch's conj is a view of the same memory, read conjugated; the engine's holds its own copy, kept so after
    each write into the memory they share (refs: the conjugate views of that memory, oldest first). A view whose
    copy was written sends its values back to the tensor it conjugates; every other one reads its tensor again."""
    views = [r() for r in refs]
    refs[:] = [r for r, v in zip(refs, views) if v is not None]
    views = [v for v in views if v is not None]
    sent = set()
    for v in views:
        if np.may_share_memory(v._data, written._data):
            _send_back(v, sent)
    for v in views:
        if id(v) not in sent and v._data.shape == v._conj_source._data.shape:
            np.conjugate(v._conj_source._data, out=v._data)


def _send_back(view, sent):
    source = view._conj_source
    if source._data.shape == view._data.shape:
        np.conjugate(view._data, out=source._data)
    sent.add(id(view))
    if "_conj_source" in source.__dict__:
        _send_back(source, sent)


@composite(Spelling(method="conj_physical", function="conj_physical"))
def conj_physical(self):
    return self._apply(OPS["conj_physical"], (self,)) if self.dtype.is_complex else self


@composite(Spelling(method="resolve_conj", function="resolve_conj", out=False))
def resolve_conj(self):
    return self.clone() if self.is_conj() else self


@composite(Spelling(function="real", out=False))
def real(self):
    return _view_as_real(self).select(-1, 0) if self.dtype.is_complex else self


@composite(Spelling(function="imag", out=False))
def imag(self):
    if not self.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return _view_as_real(self).select(-1, 1)


def _bind_parts(name):
    def bind(real, imag):
        tensor_argument(name, "real" if name == "complex" else "abs", real, 1)
        tensor_argument(name, "imag" if name == "complex" else "angle", imag, 2)
        floats = (dtypes.float16, dtypes.float32, dtypes.float64)
        if real.dtype not in floats or imag.dtype not in floats:
            raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                               f"{real.dtype.type_name} and {imag.dtype.type_name}")
        if real.dtype is not imag.dtype:
            raise RuntimeError(f"Expected object of scalar type {real.dtype.type_name} but got scalar type "
                               f"{imag.dtype.type_name} for second argument")
        return OPS[name], (real, imag), None, dtypes.to_complex(real.dtype)

    return bind


def _polar_abs_grad(n, g):
    return (g.conj() * n["result"].sgn()).real


def _polar_angle_grad(n, g):
    return (g.conj() * (n["result"] * 1j)).real


op("complex", "ComplexBackward0", ("real", "imag"), lambda re, im: _complex(re, im),
   ("real(grad)", lambda n, g: g.real), ("imag(grad)", lambda n, g: g.imag),
   saves={0: ("real",), 1: ("imag",)}, spell=Spelling(function="complex"), bind=_bind_parts("complex"))
op("polar", "PolarBackward0", ("abs", "angle"), lambda r, t: _complex(r * np.cos(t), r * np.sin(t)),
   ("real(conj(grad) · sgn(result))", _polar_abs_grad), ("real(conj(grad) · result · i)", _polar_angle_grad),
   saves={0: ("result",), 1: ("result",)}, spell=Spelling(function="polar"), bind=_bind_parts("polar"))


def _complex(re, im):
    re, im = np.broadcast_arrays(re, im)
    out = np.empty(re.shape, np.complex128 if re.dtype == np.float64 else np.complex64)
    out.real = re
    out.imag = im
    return out
