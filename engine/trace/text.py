"""Numbers and tensor values as short text: one formatter for the tracer's names and formulas and for the app's
graph, captions and inspector."""
import math

_floats = {}


def number(v, digits=4):
    """A Python number in few characters: 6 -> '6', 6.0 -> '6.0', 1/3 -> '0.3333', 1e-7 -> '1e-07'."""
    if type(v) is not float:
        return str(v)
    key = (v, digits)
    text = _floats.get(key)
    if text is None:
        if math.isnan(v) or math.isinf(v):
            text = str(v)
        elif v == int(v) and abs(v) < 1e6:
            text = "-0.0" if v == 0 and math.copysign(1, v) < 0 else f"{int(v)}.0"
        else:
            text = f"{v:.{digits}g}"
        if len(_floats) > 4096:
            _floats.clear()
        _floats[key] = text
    return text


def numel(value):
    if isinstance(value, dict):  # a summary of a big tensor (engine/trace/values.py)
        return math.prod(value["shape"])
    if isinstance(value, list):
        return sum(numel(v) for v in value)
    return 1


def flat(value):
    if isinstance(value, list):
        return [x for v in value for x in flat(v)]
    return [value]


def shape_of(value):
    if isinstance(value, dict):
        return list(value["shape"])
    dims = []
    while isinstance(value, list):
        dims.append(len(value))
        value = value[0] if value else None
    return dims


def shape_text(shape):
    return "×".join(str(d) for d in shape) + " values"


def short(value, limit=6, digits=4):
    """A value (a number or nested lists): `3.0`, `[1.0, 2.0]`, `[[1.0], [44.0]]`, or `2×3 values` when it
    holds more than `limit` numbers."""
    if value is None:
        return "None"
    if isinstance(value, dict):
        return summary_text(value, digits)
    if not isinstance(value, list):
        return number(value, digits)
    if numel(value) > limit:
        return shape_text(shape_of(value))
    return _nested(value, digits)


def short_array(data, limit=6):
    """short() of a numpy array, without listing a big one; a single number without brackets."""
    if data.size == 1:
        return number(data.reshape(()).item())
    if data.size > limit:
        return shape_text(data.shape)
    return short(data.tolist() if data.ndim else data.item(), limit)


def brief(value, limit=6):
    """short_array() of a value as the timeline holds it: a single number without brackets."""
    if isinstance(value, dict):
        return shape_text(value["shape"])
    if not isinstance(value, list):
        return number(value)
    n = numel(value)
    if n == 1:
        return number(flat(value)[0])
    if n > limit:
        return shape_text(shape_of(value))
    return short(value, limit)


def _nested(value, digits):
    if isinstance(value, list):
        return "[" + ", ".join(_nested(v, digits) for v in value) + "]"
    return number(value, digits)


def summary_text(summary, digits=4):
    """A big tensor's summary: `2000 values [-3.142, -3.139, -3.136, …], mean 0.01 (-3.142 … 3.142)`."""
    head = ", ".join(number(v, digits) for v in summary["head"])
    text = f"{shape_text(summary['shape'])} [{head}, …]"
    if "mean" in summary:
        lo, hi = number(summary["min"], digits), number(summary["max"], digits)
        text += f", mean {number(summary['mean'], digits)} ({lo} … {hi})"
    return text


def compact(value, width=16):
    """Fits a graph box: `3.0`, `[0.25,8,16]`, or `3×1 values` when the list would be wider than `width`."""
    if isinstance(value, dict):
        return shape_text(value["shape"])
    if not isinstance(value, list):
        return short(value)
    text = _tight(value)
    return text if len(text) <= width else shape_text(shape_of(value))


def _tight(value):
    if isinstance(value, list):
        return "[" + ",".join(_tight(v) for v in value) + "]"
    return f"{value:.4g}" if isinstance(value, float) else str(value)
