"""`plt.rcParams`, `plt.rc`, `plt.style` and `matplotlib.rc_context`, as a notebook's first cell sets them up: the
parameters and style sheets are matplotlib's (plot_rc_data.py), read and set as matplotlib reads and sets them, with
its errors. The explorer draws with its own look: of what they set it draws the default figure size."""
from __future__ import annotations

from .module_views import SafeModule
from .plot_rc_data import DEFAULTS, STYLES

STYLE_NOT_FOUND = ("{!r} is not a valid package style, path of style file, URL of style file, or library style name "
                   "(library styles are listed in `style.available`)")
_ALIASES = {"lw": "linewidth", "ls": "linestyle", "c": "color", "fc": "facecolor", "ec": "edgecolor",
            "mew": "markeredgewidth", "aa": "antialiased"}
_FONT_SIZES = ("xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large", "smaller", "larger")
_TRUE, _FALSE = ("t", "y", "yes", "on", "true", "1", 1, True), ("f", "n", "no", "off", "false", "0", 0, False)


class Cycler:
    """A property cycle (`rcParams['axes.prop_cycle']`): `by_key()`, its length, and its entries as dicts."""

    def __init__(self, by_key):
        self._by_key = {k: list(v) for k, v in by_key.items()}

    def by_key(self):
        return {k: list(v) for k, v in self._by_key.items()}

    @property
    def keys(self):
        return set(self._by_key)

    def __len__(self):
        return min((len(v) for v in self._by_key.values()), default=0)

    def __iter__(self):
        return iter([{k: v[i] for k, v in self._by_key.items()} for i in range(len(self))])

    def __eq__(self, other):
        return isinstance(other, Cycler) and other._by_key == self._by_key

    def __repr__(self):
        if len(self._by_key) == 1:
            (key, values), = self._by_key.items()
            return f"cycler({key!r}, {values!r})"
        return " + ".join(f"cycler({k!r}, {v!r})" for k, v in self._by_key.items())


def _value(data):
    if isinstance(data, tuple) and len(data) == 2 and data[0] == "cycler":
        return Cycler(data[1])
    return list(data) if isinstance(data, list) else data


def _converted(key, value):
    """The value as matplotlib's validator for the key stores it, for the kinds of the defaults; else as given."""
    default = DEFAULTS[key]
    try:
        if isinstance(default, bool):
            found = value.lower() if isinstance(value, str) else value
            if found in _TRUE:
                return True
            if found in _FALSE:
                return False
            raise ValueError(f"Key {key}: Cannot convert {value!r} to bool")
        if isinstance(default, float) and not isinstance(value, bool):
            return float(value)
        if isinstance(default, int) and not isinstance(value, bool) and not isinstance(value, float):
            return int(value)
        if default in _FONT_SIZES and isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(default, list) and default and all(isinstance(v, float) for v in default):
            return [float(v) for v in value]
    except (TypeError, ValueError) as e:
        if isinstance(e, ValueError) and str(e).startswith("Key "):
            raise
        kind = "float" if isinstance(default, (float, list)) else "int"
        raise ValueError(f"Key {key}: Could not convert {value!r} to {kind}") from None
    return value


class RcParams(dict):
    """matplotlib's rcParams: its keys only, values stored as its validators store them."""

    def __init__(self):
        super().__init__({k: _value(v) for k, v in DEFAULTS.items()})

    def __setitem__(self, key, value):
        if key not in DEFAULTS:
            raise KeyError(f"{key!r} is not a valid value for rcParam.")
        super().__setitem__(key, _converted(key, value))

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def reset(self):
        super().update({k: _value(v) for k, v in DEFAULTS.items()})

    def copy(self):
        return dict(self)

    def restore(self, saved):
        super().update(saved)


class _Restoring:
    """`with plt.style.context(...)` / `with matplotlib.rc_context(...)`: the parameters as they were, after."""

    def __init__(self, params, change):
        self.params, self.change, self.saved = params, change, None

    def __enter__(self):
        self.saved = self.params.copy()
        try:
            self.change()
        except BaseException:
            self.params.restore(self.saved)
            raise
        return self

    def __exit__(self, *exc):
        self.params.restore(self.saved)
        return False


def style_views(params):
    """The `style` module, `rc`, `rcdefaults` and `rc_context` over one run's rcParams."""

    def apply(style):
        if isinstance(style, (str, dict)) or not hasattr(style, "__iter__"):
            style = [style]
        for one in style:
            if isinstance(one, dict):
                params.update(one)
            elif one == "default":
                params.reset()
            elif isinstance(one, str) and one in STYLES:
                params.update({k: _value(v) for k, v in STYLES[one].items()})
            elif isinstance(one, str):
                raise OSError(STYLE_NOT_FOUND.format(one))
            else:
                raise TypeError(f"'{type(one).__name__}' object is not iterable")

    def context(style, after_reset=False):
        return _Restoring(params, lambda: (params.reset() if after_reset else None, apply(style)))

    def rc_context(rc=None, fname=None):
        if fname is not None:
            raise OSError(f"{fname!r}: the explorer reads no style files")
        return _Restoring(params, lambda: params.update(rc or {}))

    def rc(group, **kwargs):
        for name, value in kwargs.items():
            for g in (group,) if isinstance(group, str) else group:
                key = f"{g}.{_ALIASES.get(name, name)}"
                if key not in DEFAULTS:
                    raise KeyError(f'Unrecognized key "{key}" for group "{g}" and name "{name}"')
                params[key] = value

    style = SafeModule("matplotlib.style", {"use": apply, "context": context, "available": sorted(STYLES),
                                            "library": {name: dict(v) for name, v in STYLES.items()}})
    return {"style": style, "rc": rc, "rcdefaults": params.reset, "rc_context": rc_context, "rcParams": params,
            "rcParamsDefault": RcParams()}
