"""How a tensor's value goes into the timeline: small tensors as nested lists, exactly; bigger ones as a summary
(shape, first elements, min, max, mean, norm), so that a training loop over thousands of elements records in a size
that does not grow with its tensors (docs/timeline.md, "Values").

A training loop records tens of thousands of summaries. Each costs a handful of numpy calls on a few thousand
elements, which is almost all call overhead, so `Values` copies a big array into a batch of arrays of its shape
and fills the summaries of a whole batch with one call per statistic (`flush`, at the latest when the run ends).

Float32 values are kept as the shortest decimals that round to them (0.9480942, not 0.9480942487716675): exact as
float32 (`np.float32(v)` gives the same bits), and a third shorter as JSON. Small float32 tensors are listed so in
batches too (until `flush` their lists are empty: `unsized` counts the bytes of JSON they will take, at most).
"""
import numpy as np

FULL = 64  # tensors of up to this many elements are recorded in full
HEAD = 3
BATCH_ELEMENTS = 1 << 18  # elements a batch holds before it is summarised
PENDING_ELEMENTS = 1 << 21  # elements all batches may hold together

_shapes = {}  # shape -> one list shared by every summary of that shape (values are read-only)


def record(data):
    """A numpy array as the timeline holds it, at once: a list (or a number), or a summary dict."""
    values = Values()
    out = values.record(data)
    values.flush()
    return out


def is_summary(value):
    return isinstance(value, dict)


def shape_list(shape):
    """The shape as a list, one list per shape (read-only)."""
    listed = _shapes.get(shape)
    if listed is None:
        if len(_shapes) > 4096:
            _shapes.clear()
        listed = _shapes[shape] = list(shape)
    return listed


class Values:
    """The values of one run. `record` returns a value at once; a big array's summary dict and a small float32
    array's list are complete after `flush()` (the recorder flushes when the run ends and before each piece it
    streams, before anyone reads the timeline)."""

    def __init__(self):
        self._batches = {}  # (shape, dtype) -> _Batch
        self._pending = 0
        self._small = _Small()
        self.unsized = 0  # bytes of JSON, at most, of the lists recorded not yet filled in (the recorder takes them)

    def record(self, data):
        n = data.size
        if n <= FULL:
            if data.dtype != np.float32:
                return data.tolist()
            if data.ndim == 0:
                return float(str(data[()]))  # (the scalar's text: the array's, five times faster)
            self.unsized += 3 + n * (21 + 3 * data.ndim)  # (a number and its comma, and at most ndim brackets each)
            return self._small.add(data)
        if data.dtype.kind not in "fiu":  # bool, complex: the first elements only
            return {"shape": shape_list(data.shape), "head": data.reshape(-1)[:HEAD].tolist()}
        key = (data.shape, data.dtype)
        batch = self._batches.get(key)
        if batch is None:
            batch = self._batches[key] = _Batch(n, data.dtype)
        summary = {"shape": shape_list(data.shape)}
        if batch.add(data, summary):
            batch.fill()
        self._pending += n
        if self._pending > PENDING_ELEMENTS:
            self.flush()
        return summary

    def flush(self):
        for batch in self._batches.values():
            batch.fill()
        self._small.fill()
        self._pending = 0

    def release(self):
        """The batches' buffers let go (the run is over: what it recorded is filled in)."""
        self.flush()
        self._batches.clear()


class _Small:
    """Small float32 arrays, listed as their shortest decimals in batches: `add` returns an empty list that `fill`
    fills in."""

    def __init__(self):
        self.arrays, self.lists = [], []

    def add(self, data):
        listed = []
        self.arrays.append(data.copy())
        self.lists.append(listed)
        if len(self.arrays) >= 4096:
            self.fill()
        return listed

    def fill(self):
        if not self.arrays:
            return
        flat = shortest(np.concatenate([a.reshape(-1) for a in self.arrays]))
        start = 0
        for a, listed in zip(self.arrays, self.lists):
            listed[:] = flat[start:start + a.size].reshape(a.shape).tolist()
            start += a.size
        self.arrays, self.lists = [], []


_POWERS = 10.0 ** np.arange(23)  # exact
_HALF_EVEN = 1.5 * 2.0**52  # x + this - this is x rounded half to even, for |x| < 2**51: np.round, three times faster


def shortest(x):
    """float32 values as float64s whose text is the shortest decimal that rounds to them (the value itself where no
    decimal of up to 9 digits is found by this arithmetic: below about 1e-15, huge, or not finite)."""
    wide = x.astype(np.float64)
    out = wide.copy()
    with np.errstate(all="ignore"):
        todo = np.isfinite(wide) & (wide != 0)
        exponent = np.floor(np.log10(np.abs(np.where(todo, wide, 1.0)))).astype(np.intp)
        for digits in range(6, 10):
            k = digits - 1 - exponent
            todo &= np.abs(k) <= 22  # 10**k is exact: the decimal is rounded once, as parsing its text would
            scale = _POWERS[np.where(todo, np.abs(k), 0)]
            # (|wide * scale| < 10**9 where todo: rounded exactly so)
            near = np.where(k >= 0, (wide * scale + _HALF_EVEN - _HALF_EVEN) / scale,
                            (wide / scale + _HALF_EVEN - _HALF_EVEN) * scale)
            hit = todo & (near.astype(np.float32) == x)
            out[hit] = near[hit]
            todo &= ~hit
    return out


class _Batch:
    """Big arrays of one shape and dtype, copied as rows of one buffer until their summaries are computed."""

    def __init__(self, size, dtype):
        self.rows = np.empty((max(8, BATCH_ELEMENTS // size), size), dtype=dtype)
        self.summaries = []

    def add(self, data, summary):
        """Copies data in (it may change later); True when the batch is full."""
        summaries = self.summaries
        self.rows[len(summaries)] = data.reshape(-1)
        summaries.append(summary)
        return len(summaries) == len(self.rows)

    def fill(self):
        summaries = self.summaries
        if not summaries:
            return
        rows = self.rows[: len(summaries)]
        exact = rows.dtype.kind != "f"
        with np.errstate(all="ignore"):
            wide = rows.astype(np.float64)
            mean = np.add.reduce(wide, axis=1) / rows.shape[1]
            norm = np.sqrt(np.einsum("ij,ij->i", wide, wide))
            lo, hi = np.minimum.reduce(rows, axis=1), np.maximum.reduce(rows, axis=1)
            head = rows[:, :HEAD]
            if not exact:
                lo, hi, head = _digits(lo), _digits(hi), _digits(head)
            columns = zip(head.tolist(), lo.tolist(), hi.tolist(), _digits(mean).tolist(), _digits(norm).tolist())
        for summary, (h, a, b, m, s) in zip(summaries, columns):
            summary["head"] = h
            summary["min"] = a
            summary["max"] = b
            summary["mean"] = m
            summary["norm"] = s
        self.summaries = []


def _digits(a):
    """Statistics to float32's precision (7 significant digits, in float64): the summary describes, it does not
    compute. The same numbers as float(f"{x:.7g}") but for exact ties, computed for a whole array at once."""
    a = a.astype(np.float64)
    finite = np.isfinite(a) & (a != 0)
    k = 6 - np.floor(np.log10(np.abs(np.where(finite, a, 1.0))))
    exact = finite & (np.abs(k) <= 22)  # 10**k is exact: the division rounds once, as parsing the text would
    k = np.where(exact, k, 0)
    scale = 10.0 ** np.abs(k)
    out = np.where(exact, np.where(k >= 0, np.round(a * scale) / scale, np.round(a / scale) * scale), a)
    rest = finite & ~exact  # tiny or huge numbers: one by one
    if rest.any():
        out[rest] = [float(f"{x:.7g}") for x in a[rest].tolist()]
    return out
