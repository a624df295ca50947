"""What every node shows after step k, from one pass over the events: per node a short list of changes,
found again by bisection, so any step costs the same whether reached forwards or backwards."""
from bisect import bisect_right

_STATIC = ("id", "tensor", "name", "kind", "op", "grad_fn", "inputs", "value", "shape", "dtype", "requires_grad",
           "version", "saved", "formula")


def _zeros(v):
    if isinstance(v, list):
        return [_zeros(x) for x in v]
    return None if v is None else type(v)(0)


class Index:
    def __init__(self, events):
        self.events = events
        self.static = []  # node id -> the fields that never change
        self.intro = []  # node id -> index of the event that introduced it
        self.changes = []  # node id -> ([event index], [(grad, freed, grad_in)])
        self.tensors = {}  # tensor id -> ([event index], [(name, grad)]): the .grad a learner can read
        self.out_len = []  # event index -> length of the output so far
        self.active = []  # event index -> (active node id, sent) or None
        self.output = ""
        self._build()

    def _set(self, nid, k, **change):
        idx, vals = self.changes[nid]
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
        for k, ev in enumerate(self.events):
            kind = ev["kind"]
            if kind in ("leaf", "op", "inplace"):
                nid, tid = ev["id"], ev["tensor"]
                static = {f: ev.get(f) for f in _STATIC}
                static["kind"] = kind
                static["inputs"] = ev.get("inputs") or []
                static["saved"] = ev.get("saved") or []
                while len(self.static) <= nid:
                    self.static.append(None)
                    self.intro.append(k)
                    self.changes.append(([k], [(None, False, None)]))
                self.static[nid] = static
                self.intro[nid] = k
                g = grads.get(tid)
                self.changes[nid] = ([k], [(g, False, None)])
                if (kind == "leaf" and ev.get("requires_grad")) or tid in self.tensors:
                    self._log_tensor(tid, k, ev.get("name"), g)
            elif kind in ("grad", "zero_grad"):
                tid = ev["tensor"]
                g = ev["after"] if kind == "grad" else (None if ev["how"] == "none" else _zeros(grads.get(tid)))
                grads[tid] = g
                if ev["node"] is not None and ev["node"] < len(self.static):
                    self._set(ev["node"], k, grad=g)
                self._log_tensor(tid, k, ev.get("name"), g)
            elif kind == "free" and ev["node"] is not None and ev["node"] < len(self.static):
                self._set(ev["node"], k, freed=True)
            elif kind == "backward":
                for nid in flowing:
                    self._set(nid, k, grad_in=None)
                flowing.clear()
                last_node = None
            elif kind == "node":
                last_node = ev
                if ev["node"] is not None and ev["node"] < len(self.static):
                    self._set(ev["node"], k, grad_in=ev["grad_in"])
                    flowing.add(ev["node"])
            elif kind == "print":
                out.append(ev["text"])
                length += len(ev["text"])
            self.out_len.append(length)
            call = ev.get("call")
            if kind != "backward" and call is not None and last_node is not None and last_node["call"] == call:
                self.active.append(last_node)
            else:
                self.active.append(None)
        self.output = "".join(out)
        self.built = [[None] * len(idx) for idx, _ in self.changes]

    def _node_state(self, nid, j):
        """What node nid shows after its j-th change (built once, then shared: callers must not mutate it)."""
        static = self.static[nid]
        if static is None:
            return False
        grad, freed, grad_in = self.changes[nid][1][j]
        return {**static, "grad": grad, "freed": freed, "grad_in": grad_in}

    def state(self, k):
        events = self.events
        if not -1 <= k < len(events):
            raise IndexError(f"step {k} is outside the timeline (-1 … {len(events) - 1})")
        nodes = {}
        built = self.built
        for nid in range(bisect_right(self.intro, k)):
            idx = self.changes[nid][0]
            j = 0 if len(idx) == 1 else bisect_right(idx, k) - 1
            d = built[nid][j]
            if d is None:
                d = built[nid][j] = self._node_state(nid, j)
            if d is not False:
                nodes[nid] = d
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
            "nodes": nodes,
            "active": active,
            "sent": sent,
            "grads": grads,
            "call": ev.get("call") if ev is not None else None,
            "output": self.output[: self.out_len[k]] if k >= 0 else "",
        }
