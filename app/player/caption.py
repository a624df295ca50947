"""The current step in words: "MulBackward0 sends 6.0 to x and 2.0 to y"."""

from __future__ import annotations

from app.plots import model as plots_model
from engine.trace.text import short


def node_name(nodes: dict, nid: int | None) -> str:
    if nid is None:
        return "a constant"
    n = nodes.get(nid)
    if n is None:
        return f"node {nid}"
    return n.get("name") or n.get("grad_fn") or n.get("op") or f"node {nid}"


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _operands(nodes: dict, event: dict) -> str:
    """The op as the program wrote it, with its inputs' names as they are now: `a * b`, `x.exp()`."""
    names = [node_name(nodes, i) if i is not None else "a number" for i in event.get("inputs") or []]
    expr = event.get("expr")
    if expr is None:
        return f"{event.get('op') or 'op'}({', '.join(names)})"
    return expr.format(*(f"({n})" if " " in n else n for n in names))


def caption(state: dict, total: int) -> str:
    """One sentence for the event at step k, prefixed by its line."""
    event = state.get("event")
    if event is None:
        return "Before the program runs. Step forward (→) to watch it build the graph."
    nodes = state["nodes"]
    where = f"Line {event['line']}: " if event.get("line") else ""
    return where + _sentence(event, nodes)


def failed(error: dict) -> tuple[str, str]:
    """(caption, second line) after a run that stopped before it made a graph."""
    where = f"Line {error['line']}: " if error.get("line") else ""
    return (f"{where}{error.get('type', 'Error')}: {error.get('message', '')}",
            "The program stopped before it made a graph: fix it and press Run. The graph below is from the last "
            "program that ran.")


def formula(state: dict) -> str:
    """The local derivative of the step with its numbers, when the step is (or follows) a backward node; an op's
    derivatives in words; an in-place change (an optimizer's update) with its numbers."""
    event = state.get("event") or {}
    if event.get("kind") in ("node", "inplace"):
        return state.get("formula") or ""
    if event.get("kind") == "op" and event.get("formula"):
        return event["formula"]
    return ""


def _sentence(e: dict, nodes: dict) -> str:
    kind = e["kind"]
    if kind == "leaf":
        name = e.get("name") or "tensor"
        if e.get("detached_from") is not None:
            source = node_name(nodes, e["detached_from"])
            made = f"{source}.detach()"
            return (f"leaf {name if name == made else f'{name} = {made}'} = {short(e['value'])}: it shares "
                    f"{source}'s data, without grad_fn and with requires_grad=False, so no gradient flows back "
                    "through it.")
        rg = ", requires_grad=True" if e.get("requires_grad") else ""
        return f"leaf {name} = {short(e['value'])} is created{rg}."
    if kind == "op":
        target = e.get("name") or "a temporary"
        fn = e.get("grad_fn")
        tail = f"; grad_fn = {fn}" if fn else " (no grad_fn: not recorded)"
        saved = [s["name"] for s in e.get("saved") or []]
        saves = f", which saves {_join(saved)}" if fn and saved else ""
        made = _operands(nodes, e)
        said = target if target == made else f"{target} = {made}"  # a temporary is named by its expression
        return f"{said} = {short(e['value'])}{tail}{saves}."
    if kind == "inplace":
        n = nodes.get(e["id"], {})
        name = n.get("name") or "a tensor"
        if "update" in e:
            return f"{e['update']['optimizer']}'s step updates {name} in place (version {e.get('version')})."
        return (f"{name} is changed in place by {e.get('op')} "
                f"→ {short(e.get('value'))} (version {e.get('version')}, grad_fn {e.get('grad_fn')}).")
    if kind == "backward":
        api = "torch.autograd.grad" if e.get("api") == "autograd.grad" else f"{node_name(nodes, e['root'])}.backward"
        retain = ", retain_graph=True" if e.get("retain_graph") else ""
        return f"{api}() starts (call #{e['call'] + 1}) with gradient {short(e.get('seed'))}{retain}."
    if kind == "node":
        target, grad = node_name(nodes, e["node"]), short(e.get("grad_in"))
        if e["name"] == "AccumulateGrad":
            if e.get("captured") and not e.get("ran"):
                return (f"torch.autograd.grad takes {grad} as the gradient for {target} and returns it; "
                        f"AccumulateGrad does not run, so {target}.grad is not changed.")
            return f"AccumulateGrad receives {grad} for {target}.grad."
        sends = [f"{short(g['value'])} to {node_name(nodes, g.get('to'))}" for g in e.get("grads_out") or []]
        taken = f" (torch.autograd.grad returns the {grad} it receives as the gradient for {target})" \
            if e.get("captured") else ""
        return f"{e['name']} receives {grad} and sends {_join(sends) or 'nothing'}{taken}."
    if kind == "grad":
        name = e.get("name") or "tensor"
        if e.get("before") is None:
            return f"{name}.grad was None, now {short(e['after'])}."
        return (f"{name}.grad accumulates: {short(e['before'])} + {short(e['contribution'])} "
                f"= {short(e['after'])}.")
    if kind == "zero_grad":
        name = e.get("name") or "tensor"
        if e.get("how") == "none":
            return f"{name}.grad is set to None."
        return f"{name}.grad.zero_() resets it to 0."
    if kind == "free":
        n = nodes.get(e["node"], {})
        return f"{n.get('grad_fn') or 'the node'} frees its saved tensors (retain_graph is False)."
    if kind == "print":
        return "print: " + e["text"].rstrip("\n")
    if kind == "plot":
        return plots_model.describe(e)
    if kind == "warning":
        return f"{e.get('category', 'Warning')}: {e.get('message', '')}"
    if kind == "error":
        return f"{e.get('type', 'Error')}: {e.get('message', '')}"
    return kind
