"""What every node shows after step k, from one pass over the events: per node a short list of changes,
found again by bisection, so any step costs the same whether reached forwards or backwards. A state's nodes
are a read-only mapping that builds a node's dict when it is asked for: a long training loop makes tens of
thousands of nodes, of which a view shows a few dozen."""
from bisect import bisect_right
from collections.abc import Mapping

from . import formulas

_NODE_KINDS = ("leaf", "op", "inplace")
_EMPTY = (None, False, None)  # (grad, freed, grad_in) of a node that shows nothing yet


def _zeros(v):
    if isinstance(v, list):
        return [_zeros(x) for x in v]
    if isinstance(v, dict):  # a big tensor's summary: all its statistics are 0
        return {"shape": v["shape"], "head": [0.0] * len(v["head"]), "min": 0.0, "max": 0.0, "mean": 0.0,
                "norm": 0.0}
    return None if v is None else type(v)(0)


class Index:
    def __init__(self, events):
        self.events = events
        self.intro = []  # node id -> index of the event that introduced it
        self.changes = []  # node id -> ([event index], [(grad, freed, grad_in)]), or None: it never changes
        self.tensors = {}  # tensor id -> ([event index], [(name, grad)]): the .grad a learner can read
        self.out_len = []  # event index -> length of the output so far
        self.active = []  # event index -> the `node` event being shown, or None
        self.output = ""
        self._build()

    def _set(self, nid, k, **change):
        entry = self.changes[nid]
        if entry is None:
            entry = self.changes[nid] = ([self.intro[nid]], [_EMPTY])
        idx, vals = entry
        grad, freed, grad_in = vals[-1]
        new = (change.get("grad", grad), change.get("freed", freed), change.get("grad_in", grad_in))
        if idx[-1] == k:
            vals[-1] = new
        else:
            idx.append(k)
            vals.append(new)

    def _log_tensor(self, tid, k, name, grad):
        idx, vals = self.tensors.setdefault(tid, ([], []))
        if idx and idx[-1] == k:
            vals[-1] = (name, grad)
        else:
            idx.append(k)
            vals.append((name, grad))

    def _build(self):
        grads = {}  # tensor id -> its .grad now
        out = []
        length = 0
        flowing = set()  # nodes showing the grad that arrived in the latest backward call
        last_node = None
        n_nodes = 0
        intro, changes, active, out_len = self.intro, self.changes, self.active, self.out_len
        for k, ev in enumerate(self.events):
            kind = ev["kind"]
            if kind in _NODE_KINDS:
                nid, tid = ev["id"], ev["tensor"]
                while len(intro) <= nid:
                    intro.append(k)
                    changes.append(None)
                intro[nid] = k
                n_nodes = max(n_nodes, nid + 1)
                g = grads.get(tid)
                changes[nid] = None if g is None else ([k], [(g, False, None)])
                if (kind == "leaf" and ev.get("requires_grad")) or tid in self.tensors:
                    self._log_tensor(tid, k, ev.get("name"), g)
            elif kind in ("grad", "zero_grad"):
                tid = ev["tensor"]
                g = ev["after"] if kind == "grad" else (None if ev["how"] == "none" else _zeros(grads.get(tid)))
                grads[tid] = g
                if ev["node"] is not None and ev["node"] < n_nodes:
                    self._set(ev["node"], k, grad=g)
                self._log_tensor(tid, k, ev.get("name"), g)
            elif kind == "free" and ev["node"] is not None and ev["node"] < n_nodes:
                self._set(ev["node"], k, freed=True)
            elif kind == "backward":
                for nid in flowing:
                    self._set(nid, k, grad_in=None)
                flowing.clear()
                last_node = None
            elif kind == "node":
                last_node = ev
                nid = ev["node"]
                if nid is not None and nid < n_nodes:
                    self._set(nid, k, grad_in=ev["grad_in"])
                    flowing.add(nid)
            elif kind == "print":
                out.append(ev["text"])
                length += len(ev["text"])
            out_len.append(length)
            call = ev.get("call")
            if kind != "backward" and call is not None and last_node is not None and last_node["call"] == call:
                active.append(last_node)
            else:
                active.append(None)
        self.output = "".join(out)
        self.built = {}  # (node id, change number) -> the node's dict, shared by the states that show it

    def introduced(self, nid):
        """The event that introduced graph node nid, or None."""
        return self.events[self.intro[nid]] if 0 <= nid < len(self.intro) else None

    def node(self, nid, k):
        """What node nid shows after step k (built once, then shared: callers must not mutate it)."""
        entry = self.changes[nid]
        if entry is None:
            j, vals = 0, (_EMPTY,)
        else:
            idx, vals = entry
            j = 0 if len(idx) == 1 else bisect_right(idx, k) - 1
        d = self.built.get((nid, j))
        if d is None:
            if len(self.built) > 50_000:  # a session that visited many iterations: keep memory bounded
                self.built.clear()
            ev = self.events[self.intro[nid]]
            grad, freed, grad_in = vals[j]
            d = self.built[(nid, j)] = {
                "id": nid, "tensor": ev["tensor"], "name": ev.get("name"), "kind": ev["kind"], "op": ev.get("op"),
                "grad_fn": ev.get("grad_fn"), "inputs": ev.get("inputs") or [], "value": ev.get("value"),
                "shape": ev.get("shape"), "dtype": ev.get("dtype"), "requires_grad": ev.get("requires_grad"),
                "version": ev.get("version"), "grad": grad, "freed": freed, "saved": ev.get("saved") or [],
                "formula": ev.get("formula"), "grad_in": grad_in}
        return d

    def formula(self, i):
        """The formula with numbers of the backward step events[i] (a `node` event), or None."""
        ev = self.events[i]
        return formulas.with_numbers(ev, self.introduced) if ev["kind"] == "node" else None

    def last_step(self, nid, k):
        """Index of the latest `node` event of node nid at or before step k, or None: one of the steps where the
        grad arriving at the node changed."""
        entry = self.changes[nid] if 0 <= nid < len(self.changes) else None
        if entry is None:
            return None
        idx, events = entry[0], self.events
        for j in range(bisect_right(idx, k) - 1, -1, -1):
            ev = events[idx[j]]
            if ev["kind"] == "node" and ev["node"] == nid:
                return idx[j]
        return None

    def state(self, k):
        events = self.events
        if not -1 <= k < len(events):
            raise IndexError(f"step {k} is outside the timeline (-1 … {len(events) - 1})")
        grads = {}
        for idx, vals in self.tensors.values():
            if idx[0] <= k:
                name, grad = vals[bisect_right(idx, k) - 1]
                grads[name] = grad
        ev = events[k] if k >= 0 else None
        node_ev = self.active[k] if k >= 0 else None
        active = node_ev["node"] if node_ev is not None else None
        sent = [{"from": active, "to": g["to"], "value": g["value"]} for g in node_ev["grads_out"]] if node_ev else []
        return {
            "k": k,
            "event": ev,
            "nodes": Nodes(self, k),
            "active": active,
            "sent": sent,
            "grads": grads,
            "call": ev.get("call") if ev is not None else None,
            "output": self.output[: self.out_len[k]] if k >= 0 else "",
            "formula": self._formula(ev, node_ev),
        }

    def _formula(self, ev, step):
        if step is not None:
            return formulas.with_numbers(step, self.introduced)
        if ev is not None and ev["kind"] == "inplace":
            if "update" in ev:
                return formulas.update_with_numbers(ev, self.introduced)
            return formulas.inplace_with_numbers(ev, self.introduced)
        return None


class Nodes(Mapping):
    """The graph nodes shown after step k, by id (every node made by then), each built when asked for."""

    __slots__ = ("_index", "_k", "_n", "_asked")

    def __init__(self, index, k):
        self._index, self._k = index, k
        self._n = bisect_right(index.intro, k)
        self._asked = {}  # the views of one step ask for each node several times

    def __getitem__(self, nid):
        node = self._asked.get(nid) if type(nid) is int else None
        if node is None:
            if type(nid) is not int or not 0 <= nid < self._n:
                raise KeyError(nid)
            node = self._asked[nid] = self._index.node(nid, self._k)
        return node

    def __contains__(self, nid):
        return type(nid) is int and 0 <= nid < self._n

    def __iter__(self):
        return iter(range(self._n))

    def __len__(self):
        return self._n

    def __repr__(self):
        return f"Nodes(k={self._k}, {self._n} nodes)"
