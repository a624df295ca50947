"""How a timeline's events travel as JSON (Timeline.to_json, so_far's pieces): packed by their keys, with what they
repeat in a table.

An event is a list [its keys' number in "keys", its values…] (a training loop repeats a dozen key lists a hundred
thousand times). The fields in TABLED (texts: names, ops, formulas; values: tensors' values and shapes) hold the
number of their value in "table", or null: a name, an op's formula or a shape comes back at every iteration, and a
grad is one value seen three times (sent by one node, arriving at the next, added to a .grad). So do the values in
a backward step's `grads_out`, each [to, value] or [to, value, unreduced], and an optimizer's `update`, [optimizer,
rule, scalars, {term: value}]. Values are shared by identity (the recorder's events share them), texts and numbers
by equality."""
from __future__ import annotations

from .compact import zipped

TABLED = frozenset(("name", "op", "expr", "grad_fn", "dtype", "formula", "how", "api",
                    "value", "shape", "grad_in", "before", "contribution", "after", "seed"))
_LISTED = frozenset(("grads_in",))  # a list of values
_NODES = ("leaf", "op", "inplace")


class Packer:
    """Packs events, numbering on the key lists and table entries of what it packed before. `mark()` and
    `undo(mark)` take back what a piece that was not sent added."""

    def __init__(self):
        self.keys = {}  # tuple of keys -> number
        self.table = []  # the values, in order
        self._texts = {}  # text or (type, number) -> number in the table
        self._objects = {}  # id(list or dict) -> number in the table (the table keeps the object alive)
        self.last_node = -1  # the id of the last graph node packed

    def mark(self):
        return len(self.keys), len(self.table), self.last_node

    def undo(self, mark):
        keys, table, self.last_node = mark
        if len(self.keys) > keys:
            self.keys = {names: k for names, k in self.keys.items() if k < keys}
        if len(self.table) > table:
            for v in self.table[table:]:
                if type(v) is list or type(v) is dict:
                    self._objects.pop(id(v), None)
                else:
                    key = _key(v)
                    if key is not None:
                        self._texts.pop(key, None)
            del self.table[table:]

    def new_keys(self, since):
        return [list(names) for names, k in self.keys.items() if k >= since]

    def ref(self, v):
        """The number in the table of a value or text (None for None)."""
        if v is None:
            return None
        t = type(v)
        if t is list or t is dict:
            n = self._objects.get(id(v))
            if n is None:
                n = self._objects[id(v)] = len(self.table)
                self.table.append(v)
            return n
        key = _key(v)
        n = self._texts.get(key) if key is not None else None
        if n is None:
            n = len(self.table)
            if key is not None:
                self._texts[key] = n
            self.table.append(v)
        return n

    def pack(self, events):
        keys, ref, packed = self.keys, self.ref, []
        for ev in events:
            names = tuple(ev)
            k = keys.get(names)
            if k is None:
                k = keys[names] = len(keys)
            row = [k]
            for name, v in ev.items():
                if name in TABLED:
                    row.append(ref(v))
                elif name == "grads_out" and v:
                    row.append([[g["to"], ref(g["value"])] if "unreduced" not in g else
                                [g["to"], ref(g["value"]), ref(g["unreduced"])] for g in v])
                elif name == "update":
                    row.append([ref(v["optimizer"]), ref(v["rule"]), v["scalars"],
                                {term: ref(x) for term, x in v["values"].items()}])
                elif name in _LISTED and v is not None:
                    row.append([ref(x) for x in v])
                else:
                    row.append(v)
            packed.append(row)
            if ev["kind"] in _NODES and type(ev.get("id")) is int:
                self.last_node = ev["id"]
        return packed


def _key(v):
    """What a text or number is shared by (None: not shared: 0.0 and -0.0, NaNs, and what is neither, whose own
    == is not asked)."""
    t = type(v)
    if t is str:
        return v
    if (t is float or t is int or t is bool) and v == v and v != 0:
        return t, v
    return None


def plans(keys):
    """Per key list, (position in a packed event, field, how it is unpacked) of its fields that are not as they are."""
    out = []
    for names in keys:
        plan = []
        for i, name in enumerate(names, 1):
            how = 1 if name in TABLED else 2 if name == "grads_out" else 3 if name == "update" else (
                4 if name in _LISTED else 0)
            if how:
                plan.append((i, how))
        out.append((names, plan))
    return out


def unpack(keys, table, events, plan=None):
    """The events (dicts) of packed events; ValueError for one that is not packed by its keys or refers to no entry
    of the table. Events share the table's values."""
    plan = plans(keys) if plan is None else plan
    out = []
    n = len(table)
    try:
        for i, packed in enumerate(events):
            if not (type(packed) is list and packed and type(packed[0]) is int and 0 <= packed[0] < len(plan)
                    and len(packed) == len(plan[packed[0]][0]) + 1):
                raise ValueError(f"event {i} is not packed by its keys")
            names, fields = plan[packed[0]]
            if fields:
                packed = packed[:]
                for at, how in fields:
                    v = packed[at]
                    if v is None:
                        continue
                    if how == 1:
                        packed[at] = table[_index(v, n)]
                    elif how == 2:
                        packed[at] = [{"to": g[0], "value": _entry(table, g[1], n)} if len(g) == 2 else
                                      {"to": g[0], "value": _entry(table, g[1], n),
                                       "unreduced": _entry(table, g[2], n)} for g in v]
                    elif how == 3:
                        packed[at] = {"optimizer": _entry(table, v[0], n), "rule": _entry(table, v[1], n),
                                      "scalars": v[2], "values": {term: _entry(table, x, n)
                                                                  for term, x in v[3].items()}}
                    else:
                        packed[at] = [_entry(table, x, n) for x in v]
            out.append(zipped(names, packed[1:]))
    except (TypeError, KeyError, IndexError, AttributeError):
        raise ValueError(f"event {len(out)} is not packed as a timeline's events are") from None
    return out


def _index(v, n):
    if type(v) is not int or not 0 <= v < n:
        raise IndexError
    return v


def _entry(table, v, n):
    return None if v is None else table[_index(v, n)]
