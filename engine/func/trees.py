"""Pytrees as torch.func walks them: tuples, lists and dicts of leaves (tensors or anything else)."""


def flatten(tree):
    """(leaves, spec): spec rebuilds the tree around new leaves (unflatten)."""
    if isinstance(tree, (tuple, list)) and not hasattr(tree, "_fields"):
        parts = [flatten(x) for x in tree]
        return [leaf for leaves, _ in parts for leaf in leaves], (type(tree), None, [s for _, s in parts])
    if isinstance(tree, dict):
        keys = list(tree)
        parts = [flatten(tree[k]) for k in keys]
        return [leaf for leaves, _ in parts for leaf in leaves], (type(tree), keys, [s for _, s in parts])
    return [tree], None


def unflatten(spec, leaves):
    leaves = iter(leaves)
    return _build(spec, leaves)


def _build(spec, leaves):
    if spec is None:
        return next(leaves)
    kind, keys, children = spec
    items = [_build(s, leaves) for s in children]
    if keys is not None:
        return kind(zip(keys, items))
    return kind(items)


def map_leaves(fn, tree):
    leaves, spec = flatten(tree)
    return unflatten(spec, [fn(x) for x in leaves])


def count(spec):
    return 1 if spec is None else sum(count(s) for s in spec[2])


def describe(spec, indent=0):
    """torch's TreeSpec text for a structure (in vmap's error texts), laid out as torch.utils._pytree does."""
    if spec is None:
        return "*"
    kind, keys, children = spec
    inner = ""
    if children:
        indent += 2
        inner = describe(children[0], indent) + ("," if len(children) > 1 else "")
        inner += ",".join("\n" + " " * indent + describe(c, indent) for c in children[1:])
    context = "None" if keys is None else repr(keys)
    return f"TreeSpec({kind.__name__}, {context}, [{inner}])"
