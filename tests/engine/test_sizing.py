"""The engine sizes what it makes before making it, for a budget to refuse (engine.trace's guard): every op of
every gradcheck case reports at least as many elements as its result holds before computing it; the size of
an indexing result is worked out as numpy makes it; nested lists count what walking them visits."""
from __future__ import annotations

import zlib

import numpy as np
import pytest
from difftest import ENGINE_NAME
from test_gradcheck import CASES, _second_order

import engine
from engine import observe, sizes

pytestmark = pytest.mark.skipif(ENGINE_NAME != "engine", reason="the engine's own sizing")


class _Sizes:
    """Checks that every op's result is no bigger than the allocation reported just before it."""

    def __init__(self):
        self.reported = None
        self.bad = []

    def on_alloc(self, numel):
        self.reported = numel

    def on_op(self, out, op, inputs, attrs):
        if self.reported is None or out._data.size > self.reported:
            self.bad.append((op.name, out._data.size, self.reported))
        self.reported = None


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_op_reports_its_size_first(name):
    watch = _Sizes()
    observe.add(watch)
    try:
        _second_order(engine, name)
    except NotImplementedError:  # no second derivative, as in torch (cdist): the ops up to it were sized
        pass
    except RuntimeError as e:  # torch's "derivative for aten::… is not implemented" (hardsigmoid, margin losses)
        if not str(e).startswith("derivative for "):
            raise
    finally:
        observe.remove(watch)
    assert not watch.bad, watch.bad


def _keys(rng, shape):
    """Indexing keys of every kind numpy takes: ints, slices, None, Ellipsis, int and bool arrays, lists."""
    def part(size):
        kind = rng.integers(6)
        if kind == 0:
            return int(rng.integers(-size, size))
        if kind == 1:
            start, stop = int(rng.integers(-size, size)), int(rng.integers(-size, size + 2))
            return slice(start, stop, int(rng.choice([1, 2, -1])))
        if kind == 2:
            return rng.integers(-size, size, size=tuple(rng.integers(1, 4, size=rng.integers(1, 3))))
        if kind == 3:
            return rng.random(size) < 0.5
        if kind == 4:
            return [int(i) for i in rng.integers(-size, size, size=rng.integers(1, 5))]
        return slice(None)

    for _ in range(400):
        parts = [part(s) for s in shape[:rng.integers(1, len(shape) + 1)]]
        where = rng.integers(len(parts) + 1)
        if rng.random() < 0.3:
            parts.insert(where, None)
        elif rng.random() < 0.3:
            parts.insert(where, Ellipsis)
        parts = [np.asarray(p) if isinstance(p, list) else p for p in parts]
        yield tuple(parts) if len(parts) > 1 or rng.random() < 0.5 else parts[0]


def test_index_numel_is_what_numpy_makes():
    rng = np.random.default_rng(zlib.crc32(b"index"))
    checked = 0
    for shape in [(5,), (4, 6), (3, 4, 5), (2, 1, 3, 4)]:
        a = np.zeros(shape)
        for key in _keys(rng, shape):
            try:
                want = a[key].size
            except (IndexError, ValueError):
                continue
            assert sizes.index_numel(shape, key) == want, key
            checked += 1
    assert checked > 800


def test_nested_numel_counts_shared_references():
    row = [0.0] * 1000
    assert sizes.nested_numel(row) == 1000
    assert sizes.nested_numel([row] * 1000) == 10**6
    assert sizes.nested_numel([[row] * 1000] * 1000) == 10**9
    assert sizes.nested_numel([engine.ones(3, 4), (1, 2), np.ones(5)]) == 19
    looped = [1]
    looped.append(looped)
    assert sizes.nested_numel(looped) == 2


def test_broadcast_shape_is_numpys():
    rng = np.random.default_rng(zlib.crc32(b"broadcast"))
    for _ in range(500):
        shapes = [tuple(int(s) for s in rng.choice([1, 2, 3], size=rng.integers(0, 4)))
                  for _ in range(rng.integers(1, 4))]
        try:
            want = np.broadcast_shapes(*shapes)
        except ValueError:
            with pytest.raises(ValueError):
                sizes.broadcast_shape(shapes)
            continue
        assert sizes.broadcast_shape(shapes) == want
    assert sizes.broadcast_shape([(10**6, 1), (1, 10**6)]) == (10**6, 10**6)
