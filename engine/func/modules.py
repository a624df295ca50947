"""torch.func.functional_call (a module called with other tensors in place of its parameters and buffers),
stack_module_state (the parameters and buffers of several like modules, stacked for vmap) and
replace_all_batch_norm_modules_ (batch norms that keep no running statistics, so that vmap can run them)."""
from .. import methods
from ..nn.modules.layers import _BatchNorm

_STACK = methods.FUNCTIONS["stack"]


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    if isinstance(parameter_and_buffer_dicts, dict):
        values = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, (tuple, list)):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
        keys = [k for d in parameter_and_buffer_dicts for k in d]
        repeated = [k for k in dict.fromkeys(keys) if keys.count(k) > 1]
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is ambiguous")
        values = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
                         f"{type(parameter_and_buffer_dicts)}")
    if strict:
        own = [n for n, _ in module.named_parameters()] + [n for n, _ in module.named_buffers()]
        missing = [k for k in own if k not in values]
        unexpected = [k for k in values if k not in own]
        problems = ([f"\tUnexpected key(s): {', '.join(repr(k) for k in unexpected)}."] if unexpected else []) + \
                   ([f"\tMissing key(s): {', '.join(repr(k) for k in missing)}."] if missing else [])
        if problems:
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n" + "\n".join(problems))
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    swapped = [_swap(module, name, value) for name, value in values.items()]
    try:
        return module(*args, **(kwargs or {}))
    finally:
        for owner, table, name, old in reversed(swapped):
            _put(owner, table, name, old)


_ABSENT = object()


def _swap(module, path, value):
    """Puts value at module's path (a.b.weight) for the call; returns what puts the old one back."""
    *parents, name = path.split(".")
    owner = module.get_submodule(".".join(parents))
    for table in ("_parameters", "_buffers"):
        if name in owner.__dict__[table]:
            old = owner.__dict__[table][name]
            owner.__dict__[table][name] = value
            return owner, table, name, old
    old = owner.__dict__.get(name, _ABSENT)
    owner.__dict__[name] = value
    return owner, None, name, old


def _put(owner, table, name, old):
    if table is not None:
        owner.__dict__[table][name] = old
    elif old is _ABSENT:
        del owner.__dict__[name]
    else:
        owner.__dict__[name] = old


def stack_module_state(models):
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    params = {k: _stacked_leaf([p[k] for p in all_params], k) for k in all_params[0]}
    buffers = {k: _stacked_leaf([b[k] for b in all_buffers], k) for k in all_buffers[0]}
    return params, buffers


def _stacked_leaf(tensors, name):
    flags = {t.requires_grad for t in tensors}
    if len(flags) > 1:
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = _STACK(tensors)
    return result.detach().requires_grad_() if flags == {True} else result


def replace_all_batch_norm_modules_(root):
    for module in (root, *root.modules()):
        if isinstance(module, _BatchNorm) and module.track_running_stats:
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root
