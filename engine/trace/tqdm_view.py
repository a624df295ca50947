"""`from tqdm import tqdm` as training scripts use it: `for epoch in tqdm(range(n))`, `trange(n)`, a bar's
`set_description` / `set_postfix` / `update`, and `tqdm.write`, which prints to the console as tqdm prints to
stdout. The loop runs as written; the bar itself, which tqdm draws on stderr with timings and rates, is not
drawn (the explorer's console shows what the program prints). `tqdm.auto` and `tqdm.notebook` are the same.
"""
from __future__ import annotations

from .module_views import SafeModule


class Bar:
    """What `tqdm(...)` returns: its iterable's items in order, and the counts tqdm keeps."""

    def __init__(self, iterable=None, desc=None, total=None, leave=True, file=None, ncols=None, mininterval=0.1,
                 maxinterval=10.0, miniters=None, ascii=None, disable=False, unit="it", unit_scale=False,  # noqa: A002
                 dynamic_ncols=False, smoothing=0.3, bar_format=None, initial=0, position=None, postfix=None,
                 **kwargs):
        if total is None and iterable is not None:
            try:
                total = len(iterable)
            except (TypeError, AttributeError):
                total = None
        if total == float("inf"):
            total = None
        self.iterable, self.desc, self.total, self.n = iterable, desc or "", total, initial
        self.postfix, self.disable, self.unit = postfix, disable, unit

    def __iter__(self):
        if self.iterable is None:
            raise TypeError("'NoneType' object is not iterable")
        for item in self.iterable:
            yield item
            self.n += 1

    def __len__(self):
        it = self.iterable
        if it is None:
            return self.total
        if hasattr(it, "shape"):
            return it.shape[0]
        return len(it) if hasattr(it, "__len__") else self.total

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n=1):
        self.n += n

    def set_description(self, desc=None, refresh=True):
        self.desc = (desc + ": ") if desc else ""

    def set_description_str(self, desc=None, refresh=True):
        self.desc = desc or ""

    def set_postfix(self, ordered_dict=None, refresh=True, **kwargs):
        items = dict(ordered_dict or {})
        items.update((key, kwargs[key]) for key in sorted(kwargs))
        self.postfix = ", ".join(f"{key}={_postfix_text(value).strip()}" for key, value in items.items())

    def set_postfix_str(self, s="", refresh=True):
        self.postfix = str(s)

    def reset(self, total=None):
        self.n = 0
        if total is not None:
            self.total = total

    def close(self):
        pass

    def refresh(self, nolock=False, lock_args=None):
        pass

    def clear(self, nolock=False):
        pass

    def display(self, msg=None, pos=None):
        pass

    def unpause(self):
        pass


def _postfix_text(value):
    """A postfix value as tqdm writes it: a number in 3 significant digits when that is shorter, else str()."""
    if isinstance(value, (int, float)):
        short = f"{value:.3g}".replace("+0", "+").replace("-0", "-")
        return short if len(short) < len(str(value)) else str(value)
    return str(value)


def tqdm_views(runtime, package):
    """`import tqdm` / `from tqdm import tqdm, trange` (and tqdm.auto, tqdm.notebook): for the run of `runtime`."""
    def tqdm(*args, **kwargs):
        return Bar(*args, **kwargs)

    def trange(*args, **kwargs):
        return Bar(runtime.range(*args), **kwargs)

    def write(s, file=None, end="\n", nolock=False):
        runtime.print(s, end=end)

    tqdm.write = write
    names = {"tqdm": tqdm, "trange": trange}
    auto, notebook = SafeModule("tqdm.auto", names), SafeModule("tqdm.notebook", names)
    return {"tqdm": SafeModule("tqdm", {**names, "auto": auto, "notebook": notebook}), "tqdm.auto": auto,
            "tqdm.notebook": notebook}
