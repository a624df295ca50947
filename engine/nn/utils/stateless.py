"""torch.nn.utils.stateless.functional_call (torch/nn/utils/stateless.py): call a module with some of its
parameters and buffers replaced by the tensors given, then put the module's own back. torch.func.functional_call
is the same call without the deprecation warning (_functional_call)."""
import warnings

from ...functions import is_tensor

DEPRECATED = ("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be removed in a "
              "future version of PyTorch. Please use `torch.func.functional_call` instead which is a drop-in "
              "replacement.")


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights=True, strict=False):
    warnings.warn(DEPRECATED, FutureWarning, stacklevel=2)
    return _functional_call(module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict)


def _functional_call(module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights=True, strict=False):
    if isinstance(parameters_and_buffers, (list, tuple)):  # torch.func's several dicts
        merged = {}
        for d in parameters_and_buffers:
            repeated = set(merged) & set(d)
            if repeated:
                raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                                 "ambiguous")
            merged.update(d)
        parameters_and_buffers = merged
    kwargs = {} if kwargs is None else kwargs
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    given = _untie(module, parameters_and_buffers) if tie_weights else dict(parameters_and_buffers)
    if strict:
        _check_keys(module, given)
    originals = {}
    try:
        for name, tensor in given.items():
            originals[name] = _swap(module, name, tensor)
        return module(*args, **kwargs)
    finally:
        for name, tensor in originals.items():
            _swap(module, name, tensor)


def _all_named(module):
    yield from module.named_parameters(remove_duplicate=False)
    yield from module.named_buffers(remove_duplicate=False)


def _untie(module, given):
    """Every name of a tied tensor gets the value given for any of its names."""
    names_of = {}
    for name, tensor in _all_named(module):
        names_of.setdefault(id(tensor), []).append(name)
    out = dict(given)
    for names in names_of.values():
        if len(names) < 2:
            continue
        values = {name: given[name] for name in names if name in given}
        if len({id(v) for v in values.values()}) > 1:
            raise ValueError(f"functional_call got multiple values for keys {sorted(values)}, which are tied. "
                             "Consider using tie_weights=False")
        if values:
            value = next(iter(values.values()))
            out.update({name: value for name in names})
    return out


def _check_keys(module, given):
    expected = {name for name, _ in _all_named(module)}
    unexpected = [k for k in given if k not in expected]
    missing = [k for k in expected if k not in given]
    errors = []
    if unexpected:
        errors.append(f"Unexpected key(s): {', '.join(map(repr, sorted(unexpected)))}.")
    if missing:
        errors.append(f"Missing key(s): {', '.join(map(repr, sorted(missing)))}.")
    if errors:
        raise RuntimeError(f"Error(s) in reparametrizing for {module._get_name()}:\n\t" + "\n\t".join(errors))


def _swap(module, name, tensor):
    """Puts `tensor` where the parameter or buffer `name` ("layer.weight") is, returning what was there."""
    if not is_tensor(tensor):
        raise TypeError(f"{tensor} is not an instance of torch.Tensor")
    *path, leaf = name.split(".")
    for part in path:
        module = getattr(module, part)
    for table in (module._parameters, module._buffers):
        if leaf in table:
            original, table[leaf] = table[leaf], tensor
            return original
    original = getattr(module, leaf, None)
    object.__setattr__(module, leaf, tensor)
    return original
