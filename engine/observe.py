"""Where the tracer listens. The engine calls these; with no observer installed they cost one check.

An observer is any object with some of the methods named in EVENTS; each gets the engine objects
involved (never copies), so it must not mutate them.
"""
import contextlib

EVENTS = (
    "on_tensor",  # (tensor)                     a tensor made by a factory, torch.tensor, nn.Parameter
    "on_detach",  # (tensor, source)             the program called source.detach(): tensor is a new leaf
    "on_op",  # (out, op, inputs, attrs)          an op ran in the forward pass (out.grad_fn may be None)
    "on_function",  # (outputs, cls, args, node)  a custom autograd.Function was applied: outputs as apply returns
    #                                              them (a tuple, non-tensors included), node its grad_fn or None
    "on_inplace",  # (tensor, op, inputs, attrs)  tensor was changed in place (version already bumped)
    "on_backward",  # (roots, seeds, options)      a backward / autograd.grad call starts
    "on_step",  # (step)                          one backward node step ran (a backward.NodeStep)
    "on_backward_end",  # (roots, ok)
    "on_grad",  # (tensor, before, contribution)  tensor.grad was written by the backward pass
    "on_grad_set",  # (tensor, how)                user code zeroed or set .grad ("zero_", "none", "set")
    "on_free",  # (node)                          a node released its saved tensors
    "on_unbroadcast",  # (node, i, grad)           node's grad for input i, at the output's shape, is about to be
    #                                              summed to input i's (broadcast) shape
    "on_step_failed",  # (node, error)            a node's backward raised (a saved tensor freed or changed)
    "on_alloc",  # (numel)                        about to allocate numel elements (may raise); 0 before an
    #                                              in-place op: a chance to stop a long loop of them
    "on_work",  # (n)                             about to do n multiply-adds without BLAS (may raise)
    "on_module",  # (module, entering)          an nn.Module's __call__ starts (True) or returns (False)
    "on_size",  # (numel)                         an op's result will hold numel elements (may raise); on_alloc
    #                                              still follows
)

_UNMUTED = ("on_alloc", "on_work", "on_size")  # a budget hears these even inside the engine's own bookkeeping
_observers = []
_muted = [0]
_handlers = {}  # event -> the observers' bound methods for it, rebuilt when observers come and go


def _rebuild():
    _handlers.clear()
    for event in EVENTS:
        fns = tuple(fn for fn in (getattr(o, event, None) for o in _observers) if fn is not None)
        if fns:
            _handlers[event] = fns


def add(observer):
    _observers.append(observer)
    _rebuild()


def remove(observer):
    if observer in _observers:
        _observers.remove(observer)
        _rebuild()


def active():
    return bool(_observers)


_BACKWARD = frozenset(("on_backward", "on_step", "on_backward_end", "on_step_failed", "on_unbroadcast", "on_free",
                       "on_grad"))
_backward_unheard = [0]


def emit(event, *args):
    if _muted[0] and event not in _UNMUTED or _backward_unheard[0] and event in _BACKWARD:
        return
    for fn in _handlers.get(event, ()):
        fn(*args)


@contextlib.contextmanager
def muted():
    """Watchers hear nothing inside: the engine's own bookkeeping (an optimizer's arithmetic, initialisers).
    Allocations and work are still reported, so a budget still refuses them."""
    _muted[0] += 1
    try:
        yield
    finally:
        _muted[0] -= 1


@contextlib.contextmanager
def backward_unheard():
    """Watchers hear the ops but not the backward pass inside: grad's backward of vmap's samples (torch's grad
    level), whose tensors are batched; the ops it runs on their values are heard as any op."""
    _backward_unheard[0] += 1
    try:
        yield
    finally:
        _backward_unheard[0] -= 1


@contextlib.contextmanager
def heard():
    """Inside muted(), a stretch that watchers hear again: the program's own code that the engine calls (the
    closure an L-BFGS step evaluates several times)."""
    saved = _muted[0]
    _muted[0] = 0
    try:
        yield
    finally:
        _muted[0] = saved
