"""The observer that turns the engine's callbacks into timeline events (the contract: docs/timeline.md).

Over 500 lines: one class whose handlers (ops, in-place ops, Functions, backward steps, grads, prints) share
the bookkeeping of which tensor is which node; values, loops and labels live in their own modules."""
import weakref

from ..autograd.function import BackwardCFunction
from ..graph import SAMPLE_SHAPED, AccumulateGrad, attribute_tensors
from ..nn.modules import Module
from ..tensor import Tensor
from . import formulas, functions, labels, values
from .compact import compact
from .errors import FILENAME
from .loops import Loops
from .module_calls import ModuleCalls
from .text import number
from .where import Where


class _Known:
    """What the recorder knows of one live tensor: its id, its newest node and the version that node has."""

    __slots__ = ("tid", "ref", "node", "version")

    def __init__(self, tid, t):
        self.tid = tid
        self.ref = weakref.ref(t)
        self.node = None
        self.version = None


class Recorder:
    def _value(self, t):
        return self._values.record(t._data)

    def _grad_value(self, g):
        """A grad's value, recorded once per backward call however often it is seen: sent by one node, it
        arrives at the next (and at AccumulateGrad, whose `grad` event shows it again)."""
        if g is None:
            return None
        hit = self._sent.get(id(g))
        if hit is not None and hit[0] is g and hit[1] == g._vbox[0]:
            return hit[2]
        v = self._values.record(g._data)
        self._sent[id(g)] = (g, g._vbox[0], v)
        return v

    def __init__(self, statements, budget=None, source=""):
        """statements: the program's names.Statements (what each line binds); source: the program's text (the
        inspector shows a custom Function's backward code from it)."""
        self.events = []
        self.texts = []
        self.budget = budget
        self.running = True
        self.loops = Loops(statements.loops, self.events)
        self.modules = ModuleCalls(self.events)
        self._where = Where(statements, budget, self._name, self.loops)
        self._sync = self._where.line  # the program's line now (called right from the engine's callbacks)
        self._known = {}  # id(tensor) -> _Known
        self._fns = {}  # id(grad_fn) -> (weakref to it, graph node id)
        self._nodes = []  # graph node id -> the event that introduced it
        self._versions = {}  # tensor id -> its graph node ids
        self._named = set()  # graph node ids named after an assignment target
        self._temps = set()  # value-based names held by tensors not named by an assignment (yet)
        self._grads = {}  # tensor id -> value of its .grad as last recorded
        self._calls = []  # open backward calls: [index, create_graph, capture only (autograd.grad)]
        self._ncalls = 0
        self._held = []  # grad events of the backward step running now, pushed after its node event
        self._functions = {}  # id(a custom Function's node) -> (weakref to it, its outputs' node ids, inputs' names)
        self._sources = functions.Sources(source, FILENAME)
        self._values = values.Values()
        self._sent = {}  # id(grad tensor) -> (tensor, version, value): a grad recorded once per backward call
        self._step_at = None  # (budget steps, depth, line) at the last event of the backward call running now
        self._unreduced = {}  # id(node) -> {input number: its grad before the broadcast sum}, until its step
        self._failed = None  # (graph node id, error type, message) of the backward step that raised last
        self._grad_values = {}  # id(a .grad tensor) -> (weakref to it, its version, its value) as on_grad recorded it
        self._kept = {}  # (type, value) or a dict's items -> the one of them the events share (_same)
        self.quiet = False
        self.renamed = None  # a list (so_far.Stream's) of the nodes named once recorded, while a stream sends them

    # --- events ---------------------------------------------------------------------------------
    def _push(self, ev):
        if self._calls:
            ev["call"] = self._calls[-1][0]
        if self.running and self.budget is not None:
            values = self._values
            self.budget.charge_events(1, ev["line"], _size(ev) + values.unsized)
            values.unsized = 0
        ev = compact(ev)
        self.events.append(ev)
        return ev

    def _step_line(self):
        """The line of a backward step's event. While a backward call runs, no statement of the program runs
        unless its code is called (a hook), which ticks the budget: until then the line is the call's."""
        budget = self.budget
        at = self._step_at
        if at is not None and self._calls and at[0] == budget.steps and at[1] == budget.depth:
            return at[2]
        line = self._sync()
        self._step_at = (budget.steps, budget.depth, line) if budget is not None and self._calls else None
        return line

    def _set_calls(self):
        """Inside a backward call without create_graph, the ops computing grads are not the program's."""
        self.quiet = bool(self._calls) and not self._calls[-1][1]
        self._step_at = None

    def finish(self):
        """The program ended: name what its last statements bound, and stop charging the budget."""
        self.running = False
        try:
            self._where.finish()
            self.loops.finish()
            self.modules.finish()
            self._calls.clear()
            self._set_calls()
            self._sent.clear()
        finally:
            self._values.release()  # every value recorded filled in, whatever failed
            # what only a running program needs, dropped now rather than with the recorder (a cycle through its
            # Where, collected whenever the collector next runs its oldest generation)
            for kept in (self._kept, self._grad_values, self._known, self._fns, self._versions, self._named,
                         self._temps, self._grads, self._functions, self._unreduced):
                kept.clear()

    # --- names ------------------------------------------------------------------------------------
    def _name(self, text, obj, line, depth=0):
        if text == "self" or text.startswith("self."):
            return  # a module's own attributes, set in its methods: named after the module once it is bound
        if isinstance(obj, Tensor):
            while type(obj) in SAMPLE_SHAPED:  # a name inside vmap: the batch its value holds (the graph's)
                obj = obj._value
            self._set_name(self._node_tid(obj, line), text)
        elif isinstance(obj, Module):
            self.modules.name(text, obj)
            for pname, p in _named_parameters(obj):
                self._set_name(self._node_tid(p, line), f"{text}.{pname}")
        elif isinstance(obj, (list, tuple)) and len(obj) <= 64 and depth < 3:
            for i, x in enumerate(obj):
                if isinstance(x, (Tensor, list, tuple)):
                    self._name(f"{text}[{i}]", x, line, depth + 1)  # w[i], and w[i][j] in a list of lists

    def _node_tid(self, t, line):
        """The tensor id of t, introducing t if new (a name belongs to the tensor, whatever its version)."""
        k = self._known.get(id(t))
        if k is not None and k.ref() is t:
            return k.tid
        k = self._track(t)
        self._leaf(t, k, line)
        return k.tid

    def _set_name(self, tid, text):
        named = self._named
        for nid in self._versions[tid]:
            if nid not in named:
                self._temps.discard(self._nodes[nid]["name"])
                self._nodes[nid]["name"] = text
                named.add(nid)
                if self.renamed is not None:
                    self.renamed.append(nid)

    # --- graph nodes ------------------------------------------------------------------------------
    def _node(self, t, line):
        """The graph node of t as it is now, introducing it as a leaf if the recorder has not seen it."""
        k = self._known.get(id(t))
        if k is not None and k.ref() is t:
            if k.version == t._vbox[0]:
                return k.node
        else:
            k = self._track(t)
        return self._leaf(t, k, line)

    def _track(self, t):
        k = _Known(len(self._versions), t)
        self._versions[k.tid] = []
        self._known[id(t)] = k
        return k

    def _leaf(self, t, k, line):
        nid = len(self._nodes)
        fn = t.grad_fn
        if fn is not None:  # a computed tensor met late (autograd.grad's result, a view rewired in place)
            self._new_fn(fn, nid)
        ev = {"kind": "leaf", "line": line, "id": nid, "tensor": k.tid, "name": self._default_name(t, k),
              "grad_fn": type(fn).__name__ if fn is not None else None, "value": self._value(t),
              "shape": values.shape_list(t._data.shape), "dtype": t.dtype.name, "requires_grad": t.requires_grad,
              "version": t._vbox[0]}
        if fn is not None and getattr(fn, "_op", None) is not None:  # its steps' formulas need its op
            ev["op"], ev["formula"] = fn._op.name, formulas.in_words(fn)
        return self._add_node(t, k, ev)

    def _add_node(self, t, k, ev):
        nid = ev["id"]
        versions = self._versions[k.tid]
        if versions and versions[-1] in self._named:
            self._named.add(nid)
        versions.append(nid)
        k.node, k.version = nid, t._vbox[0]
        self._nodes.append(ev)
        self._nodes[-1] = self._push(ev)  # (the event as pushed: its keys shared)
        return nid

    def _default_name(self, t, k):
        versions = self._versions[k.tid]
        if versions:
            return self._nodes[versions[-1]]["name"]
        owner = t._grad_of
        if owner is not None and owner._grad is t:
            return self._tensor_name(owner) + ".grad"
        text, n = labels.leaf_label(t._data), 1
        while (f"{text} #{n}" if n > 1 else text) in self._temps:  # two temporaries of one value stay apart
            n += 1
        name = f"{text} #{n}" if n > 1 else text
        self._temps.add(name)
        return name

    def _tensor_name(self, t):
        k = self._known.get(id(t))
        if k is not None and k.ref() is t and k.node is not None:
            return self._nodes[k.node]["name"]
        return labels.leaf_label(t._data)

    def _fn_node(self, fn):
        e = self._fns.get(id(fn))
        return e[1] if e is not None and e[0]() is fn else None

    def _new_fn(self, fn, nid):
        """Maps grad_fn to graph node nid if it is a node the recorder has not seen; returns its name."""
        if fn is None or self._fn_node(fn) is not None:
            return None
        self._fns[id(fn)] = (weakref.ref(fn), nid)
        return type(fn).__name__

    def _saved(self, fn, nid, out, before=None):
        """What fn saved: the graph node of each saved tensor, and the value of a small one the recorder does not
        know (a Python number the op turned into a tensor, an index), which the formula with numbers shows; the
        tensors it keeps as attributes too (max's indices), None where it keeps None (index's un-indexed dims)."""
        if fn is None:
            return []
        saved = []
        for key, s in fn._saved.items():
            t = s.tensor
            if t is not out:
                k = self._known.get(id(t))
                node = k.node if k is not None and k.ref() is t and k.version == s.version else None
                if node is None and key == "self" and before is not None:
                    saved.append({"name": key, "node": before, "copy": True})  # an in-place op saves a copy of
                    continue  # the value it overwrites: no later change outdates it
            saved.append(self._saved_entry(key, t, nid if t is out else node))
        if fn._op is not None and fn._op.saves:
            for key, t in attribute_tensors(fn):
                if t is None:
                    saved.append({"name": key, "node": None, "none": True})
                else:
                    k = self._known.get(id(t))
                    node = k.node if k is not None and k.ref() is t and k.version == t._vbox[0] else None
                    saved.append(self._saved_entry(key, t, node))
        return saved[:]  # (a copy sized exactly: an appended list keeps room to grow, and events are kept)

    @staticmethod
    def _saved_entry(key, t, node):
        if node is None and t._data.size <= formulas.SMALL:
            return {"name": key, "node": None, "value": t._data.tolist()}
        return {"name": key, "node": node}

    def _inputs(self, inputs, line):
        ids, texts = [], []
        for x in inputs:
            if isinstance(x, Tensor):
                nid = self._node(x, line)
                ids.append(nid)
                texts.append(self._nodes[nid]["name"])
            else:
                ids.append(None)
                texts.append(number(x) if isinstance(x, (int, float)) else "None" if x is None else "…")
        return ids[:], texts

    # --- the engine's callbacks ---------------------------------------------------------------------
    def on_tensor(self, t):
        if self.quiet:
            return
        line = self._sync()
        self._leaf(t, self._track(t), line)

    def on_detach(self, t, source):
        """A new leaf, named after what it was detached from until the program binds a name to it."""
        if self.quiet:
            return
        line = self._sync()
        k = self._track(t)
        nid = self._leaf(t, k, line)
        ev = self._nodes[nid]
        self._temps.discard(ev["name"])
        ev["name"] = f"{self._tensor_name(source)}.detach()"
        known = self._known.get(id(source))
        if known is not None and known.ref() is source and known.node is not None:
            ev["detached_from"] = known.node

    def on_op(self, out, op, inputs, attrs):
        if self.quiet:
            return
        line = self._sync()
        ids, texts = self._inputs(inputs, line)
        k = self._track(out)
        nid = len(self._nodes)
        fn = out.grad_fn
        grad_fn = self._new_fn(fn, nid)
        name, expr = labels.op_texts(op, texts, attrs)
        if any(x is None for x in inputs):
            expr = labels.with_absent(expr, inputs)
        data = out._data
        ev = {"kind": "op", "line": line, "id": nid, "tensor": k.tid, "name": name, "op": op.name, "expr": expr,
              "grad_fn": grad_fn, "inputs": ids, "value": self._values.record(data),
              "shape": values.shape_list(data.shape), "dtype": out.dtype.name, "requires_grad": grad_fn is not None,
              "version": out._vbox[0], "saved": self._saved(fn, nid, out) if grad_fn else [],
              "formula": formulas.in_words(fn) if grad_fn else None}
        if grad_fn:
            scalars = formulas.scalars(attrs)
            if scalars:
                ev["scalars"] = self._same_dict(scalars)
        self._add_node(out, k, ev)

    def on_function(self, outputs, cls, args, node):
        """A custom autograd.Function was applied: each tensor output becomes a graph node (an input the Function
        changed in place, marked dirty, a new version of that input); its node is the first output's."""
        if self.quiet:
            return
        line = self._sync()
        tensors = [a for a in args if isinstance(a, Tensor)]
        ids, texts = [], []
        for x in tensors:
            k = self._known.get(id(x))
            dirty = any(x is o for o in outputs)
            nid = k.node if dirty and k is not None and k.ref() is x and k.node is not None else self._node(x, line)
            ids.append(nid)
            texts.append(self._nodes[nid]["name"])
        expr = functions.label_parts(cls, args)
        outs = [o for o in outputs if isinstance(o, Tensor)]
        planned = {id(o): len(self._nodes) + j for j, o in enumerate(outs)}
        saved, formula = [], None
        if node is not None:
            for key, s in node._saved.items():
                t = s.tensor
                k = self._known.get(id(t))
                at = planned.get(id(t)) if any(t is o for o in outs) else (
                    k.node if k is not None and k.ref() is t and k.version == s.version else None)
                saved.append({"name": key, "node": at})
            formula = self._sources.backward_code(node)
            self._functions[id(node)] = (weakref.ref(node), [planned.get(id(o)) if isinstance(o, Tensor) else None
                                                             for o in outputs], functions.input_names(cls, args))
        several = len(outputs) > 1
        first = True
        for i, out in enumerate(outputs):
            if not isinstance(out, Tensor):
                continue
            k = self._known.get(id(out))
            dirty = k is not None and k.ref() is out and any(out is x for x in tensors)
            if not dirty:
                k = self._track(out)
            nid = planned[id(out)]
            ours = node is not None and out.grad_fn is node
            if ours and first:
                self._fns[id(node)] = (weakref.ref(node), nid)
            ev = {"kind": "inplace" if dirty else "op", "line": line, "id": nid, "tensor": k.tid,
                  "name": self._default_name(out, k) if dirty else functions.label(expr, texts, i if several else None),
                  "op": cls.__name__, "grad_fn": type(node).__name__ if ours else None, "inputs": ids,
                  "value": self._value(out), "shape": values.shape_list(out._data.shape), "dtype": out.dtype.name,
                  "requires_grad": out.requires_grad, "version": out._vbox[0],
                  "saved": saved if ours and first else [], "formula": formula if ours and first else None}
            if not dirty:
                ev["expr"] = expr + (f"[{i}]" if several else "")
            first = first and not ours
            self._add_node(out, k, ev)

    def on_inplace(self, t, op, inputs, attrs):
        if self.quiet:
            return
        line = self._sync()
        owner = t._grad_of
        if owner is not None and owner._grad is t:
            self._grad_changed(owner, t, op, line)
            return
        base = t._base
        if base is not None and base.grad_fn is not None and self._fn_node(base.grad_fn) is None:
            self._inplace(base, op, inputs[1:], attrs, line)  # the write into a view rewrote its base: CopySlices
        self._inplace(t, op, inputs[1:], attrs, line)

    def _inplace(self, t, op, others, attrs, line):
        k = self._known.get(id(t))
        if k is None or k.ref() is not t:
            k = self._track(t)
        prev = k.node
        ids, texts = self._inputs(others, line)
        nid = len(self._nodes)
        fn = t.grad_fn
        grad_fn = self._new_fn(fn, nid)
        data = t._data
        ev = {"kind": "inplace", "line": line, "id": nid, "tensor": k.tid,
              "name": self._default_name(t, k), "op": op.name, "grad_fn": grad_fn, "inputs": [prev, *ids],
              "version": t._vbox[0], "value": self._values.record(data), "shape": values.shape_list(data.shape),
              "dtype": t.dtype.name, "requires_grad": t.requires_grad,
              "saved": self._saved(fn, nid, t, prev) if grad_fn else [],
              "formula": formulas.in_words(fn) if grad_fn else None}
        if grad_fn:
            scalars = formulas.scalars(attrs)
            if scalars:
                ev["scalars"] = self._same_dict(scalars)
        if "optimizer" in attrs:
            ev["update"] = self._update(attrs)
        elif prev is not None:
            ev["expr"] = labels.op_texts(op, [self._nodes[prev]["name"], *texts], attrs)[1]
        self._add_node(t, k, ev)

    def _update(self, attrs):
        """What an optimizer's step did to a parameter: its rule in words and the terms it used."""
        numbers, tensors = {}, {}
        for name, v in attrs.items():
            if isinstance(v, Tensor):
                seen = self._grad_values.get(id(v))  # (a parameter's .grad, recorded as the backward wrote it)
                tensors[name] = seen[2] if seen is not None and seen[0]() is v and seen[1] == v._vbox[0] else (
                    self._value(v))
            elif name not in ("optimizer", "rule"):
                numbers[name] = v
        return {"optimizer": attrs["optimizer"], "rule": self._same(attrs["rule"]),
                "scalars": self._same_dict(numbers), "values": tensors}

    def _same(self, text):
        """text, or the equal text kept before (an optimizer's rule comes back at every step: its events share one;
        events are read-only)."""
        if type(text) is not str:
            return text
        return self._keep(text, text)

    def _same_dict(self, d):
        """d, or the equal dict of numbers kept before (a step's hyperparameters, an op's scalars)."""
        if not d:
            return d
        key = [dict]
        for k, v in d.items():
            t = type(v)
            if not (t is int or t is float or t is bool) or v != v or v == 0:  # (0.0 and -0.0 are equal)
                return d
            key += (k, t, v)
        return self._keep(tuple(key), d)

    def _keep(self, key, v):
        kept = self._kept
        if len(kept) > 65536:
            kept.clear()
        return kept.setdefault(key, v)

    def _grad_changed(self, owner, g, op, line):
        """owner.grad was changed in place: grad.zero_(), optimizer.zero_grad(set_to_none=False), grad *= 2."""
        nid = self._node(owner, line)
        tid = self._nodes[nid]["tensor"]
        after = self._value(g)
        if op.name == "zero":
            ev = {"kind": "zero_grad", "line": line, "node": nid, "tensor": tid, "name": self._nodes[nid]["name"],
                  "how": "zero_"}
        else:
            ev = {"kind": "grad", "line": line, "node": nid, "tensor": tid, "name": self._nodes[nid]["name"],
                  "before": self._grads.get(tid), "contribution": None, "after": after, "how": op.name}
        self._grads[tid] = after
        self._push(ev)

    def on_grad(self, t, before, contribution):
        line = self._step_line()
        nid = self._node(t, line)
        tid = self._nodes[nid]["tensor"]
        if t.grad_fn is None:  # a leaf: the engine gives the value before (None: there was no grad)
            before = self._values.record(before) if before is not None else None
        else:
            before = self._grads.get(tid)
        added = self._grad_value(contribution)
        g = t._grad
        if before is None and g.shape == contribution.shape and g.dtype is contribution.dtype:
            after = added  # the first grad is stored as it arrived
        else:
            after = self._value(g)
        self._grads[tid] = after
        if len(self._grad_values) > 4096:
            self._grad_values.clear()
        self._grad_values[id(g)] = (weakref.ref(g), g._vbox[0], after)
        ev = {"kind": "grad", "line": line, "node": nid, "tensor": tid, "name": self._nodes[nid]["name"],
              "before": before, "contribution": added, "after": after}
        if self._calls:
            self._held.append(ev)
        else:
            self._push(ev)

    def _flush(self):
        held, self._held = self._held, []
        for ev in held:
            self._push(ev)

    def on_grad_set(self, t, how):
        line = self._sync()
        nid = self._node(t, line)
        tid = self._nodes[nid]["tensor"]
        name = self._nodes[nid]["name"]
        if how == "none":
            ev = {"kind": "zero_grad", "line": line, "node": nid, "tensor": tid, "name": name, "how": "none"}
            after = None
        else:
            after = self._value(t._grad)
            ev = {"kind": "grad", "line": line, "node": nid, "tensor": tid, "name": name,
                  "before": self._grads.get(tid), "contribution": None, "after": after, "how": how}
        self._grads[tid] = after
        self._push(ev)

    def on_backward(self, outputs, seeds, options):
        line = self._sync()
        root = self._node(outputs[0], line) if outputs else None
        call = self._ncalls
        self._ncalls += 1
        self._sent.clear()
        self._push({"kind": "backward", "line": line, "root": root,
                    "seed": self._grad_value(seeds[0]) if seeds else None,
                    "retain_graph": bool(options["retain_graph"]), "create_graph": bool(options["create_graph"]),
                    "call": call, "api": options["api"]})
        self._calls.append([call, bool(options["create_graph"]), options["api"] == "autograd.grad"])
        self._set_calls()

    def on_step(self, step):
        line = self._step_line()
        node = step.node
        # a captured step with nothing sent out did not run: autograd.grad only took the grad arriving there
        ran = not (step.captured and not step.grads_out and (node.next_functions or self._calls[-1][2]))
        grad_in, grads_in = step.grad_in, None
        if isinstance(grad_in, tuple):  # a node with several outputs: one grad per output
            grads_in = [self._grad_value(g) for g in grad_in]
            grad_in = grad_in[0]
        if isinstance(node, AccumulateGrad):
            nid = self._node(node.variable, line)
            formula = None
        elif isinstance(node, BackwardCFunction):
            nid = self._fn_node(node)
            entry = self._function(node)
            names = entry[2] if entry is not None else [f"input{i}" for i in range(len(node.next_functions))]
            formula = functions.with_numbers(self._sources.backward_code(node), names, step)
        else:
            nid = self._fn_node(node)
            formula = None
        grad_value = self._grad_value
        grads_out = [{"to": self._edge(fn, nr, line), "value": grad_value(g)}
                     for (fn, nr), g in zip(node.next_functions, step.grads_out or ())]
        unreduced = self._unreduced.pop(id(node), None) if self._unreduced else None
        if unreduced:
            for i, value in unreduced.items():
                if i < len(grads_out) and grads_out[i]["value"] is not None:
                    grads_out[i]["unreduced"] = value
        ev = {"kind": "node", "line": line, "name": type(node).__name__, "node": nid,
              "grad_in": grad_value(grad_in), "grads_out": grads_out[:], "ran": ran, "captured": bool(step.captured)}
        if isinstance(node, BackwardCFunction):  # its backward's code with numbers (formulas render the others)
            ev["formula"] = formula
        if grads_in is not None:
            ev["grads_in"] = grads_in
        self._push(ev)
        self._flush()

    def _function(self, node):
        entry = self._functions.get(id(node))
        return entry if entry is not None and entry[0]() is node else None

    def _edge(self, fn, nr, line):
        if fn is None:
            return None
        if isinstance(fn, AccumulateGrad):
            t = fn.variable
            k = self._known.get(id(t))
            return k.node if k is not None and k.ref() is t else self._node(t, line)
        if nr:
            entry = self._function(fn)
            if entry is not None and nr < len(entry[1]) and entry[1][nr] is not None:
                return entry[1][nr]
        return self._fn_node(fn)

    def on_backward_end(self, outputs, ok):
        self._flush()
        if self._calls:
            self._calls.pop()
        self._set_calls()
        if not self._calls:
            self._sent.clear()

    def on_unbroadcast(self, node, i, grad):
        self._unreduced.setdefault(id(node), {})[i] = self._values.record(grad._data)

    def on_step_failed(self, node, error):
        if not isinstance(node, AccumulateGrad):
            self._failed = (self._fn_node(node), type(error).__name__, str(error))

    def on_free(self, node):
        nid = self._fn_node(node)
        if nid is not None:
            self._push({"kind": "free", "line": self._step_line(), "node": nid})

    # --- what the runner feeds in -----------------------------------------------------------------
    def on_module(self, module, entering):
        if entering:
            self.modules.enter(module, self._sync())
        else:
            self.modules.exit()

    def on_print(self, text, end=""):
        text = text + end
        line = self._sync()
        self.texts.append(text)
        self._push({"kind": "print", "line": line, "text": text})

    def on_plot(self, drawn):
        self._push({"kind": "plot", "line": self._sync(), **drawn})

    def on_warning(self, message, category, filename=None, lineno=None, file=None, line=None):
        if issubclass(category, _HIDDEN_WARNINGS) and filename != FILENAME:
            return  # Python's default filters show these only when the program itself triggers them
        where = self._sync()
        if where is None and filename == FILENAME:
            where = lineno
        self._push({"kind": "warning", "line": where, "category": category.__name__, "message": str(message)})

    def on_error(self, kind, message, line):
        ev = {"kind": "error", "line": line, "type": kind, "message": message}
        if self._failed is not None and self._failed[0] is not None and self._failed[1:] == (kind, message):
            ev["node"] = self._failed[0]  # the graph node whose backward raised it
        self._push(ev)


def _size(event):
    """About how many bytes an event takes in the timeline's JSON, at most (numbers at their longest, a summary
    of a big tensor at 250; a small float32 value is charged by Values.unsized), quickly: the recorder charges every
    event to the budget. (20 bytes a field, and what its text, list or dict takes beyond that.)"""
    n = 2 + 20 * len(event)
    kind = event.get("kind")
    if type(kind) is str and kind in _GRAPH_KINDS:  # (their fields in _NUMBERS take 20 bytes at most)
        varying = _varying.get(tuple(event))
        if varying is None:
            varying = _varying_fields(event)
    else:
        varying = event
    for k in varying:
        v = event[k]
        t = type(v)
        if t is str:
            n += len(v) - 4
        elif t is list:
            if not v:
                n -= 6
            elif type(v[0]) is int or type(v[0]) is float or v[0] is None:  # a list of numbers or node ids
                n += 21 * len(v) - 8
            else:
                n += (_grads_size(v) if k == "grads_out" else _list_size(v)) - 8
        elif t is dict:
            n += 242 if k in _VALUES else max(250, _size(v)) - 8  # (a drawing's series holds its points)
    return n


_NUMBERS = frozenset(("line", "id", "tensor", "requires_grad", "version", "node", "ran", "captured", "call", "root",
                      "retain_graph", "create_graph", "detached_from"))  # ints, bools and None in _GRAPH_KINDS
_GRAPH_KINDS = frozenset(("leaf", "op", "inplace", "node", "grad", "zero_grad", "backward", "free"))
_varying = {}  # tuple of an event's keys -> those not in _NUMBERS: what _size looks at


def _varying_fields(event):
    keys = tuple(event)
    varying = tuple(k for k in keys if k not in _NUMBERS)
    if len(_varying) < 1024:
        _varying[keys] = varying
    return varying


_VALUES = frozenset(("value", "grad_in", "before", "contribution", "after", "seed"))  # a dict there is a summary


def _grads_size(grads):
    """A backward step's grads_out: [{"to", "value"[, "unreduced"]}]."""
    n = 2
    for g in grads:
        n += 40
        for k in ("value", "unreduced"):
            v = g.get(k)
            n += 0 if v is None else 262 if type(v) is dict else _list_size(v) if type(v) is list else 20
    return n


def _list_size(v):
    if not v:
        return 2
    first = type(v[0])
    if first is list:  # a tensor's rows of numbers, counted here without a call per row
        n = len(v)
        for row in v:
            if row and type(row[0]) is not list and type(row[0]) is not dict:
                n += 21 * len(row)
            else:
                n += _list_size(row)
        return n
    if first is dict:
        return sum(map(_size, v))
    return 21 * len(v)


def _named_parameters(module):
    """module.named_parameters(), read from the modules' dicts: no method of a program's subclass runs (the
    recorder names bindings after the program ended too)."""
    seen, found, todo = set(), [], [("", module)]
    while todo:
        prefix, m = todo.pop()
        d = m.__dict__
        for name, p in d.get("_parameters", {}).items():
            if isinstance(p, Tensor) and id(p) not in seen:
                seen.add(id(p))
                found.append((prefix + name, p))
        todo.extend(reversed([(f"{prefix}{name}.", sub) for name, sub in d.get("_modules", {}).items()
                              if isinstance(sub, Module)]))
    return found


_HIDDEN_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)
