"""What real PyTorch does with a program: its stdout, its uncaught error, and for every backward /
autograd.grad call the names of the nodes it runs, in order (seen through node pre-hooks)."""

from __future__ import annotations

import contextlib

import torch

from tests.engine.difftest import ADDRESS, run_source


@contextlib.contextmanager
def node_orders():
    """Within the block, every torch.autograd.backward / grad call appends (names of the nodes it runs, in
    order; [True] if it raised, else [])."""
    calls: list[tuple[list[str], list[bool]]] = []
    originals = torch.autograd.backward, torch.autograd.grad

    def watching(fn):
        def wrapper(tensors, *args, **kwargs):
            failed: list[bool] = []
            roots = [tensors] if isinstance(tensors, torch.Tensor) else list(tensors)
            ran: list[str] = []
            calls.append((ran, failed))
            handles = []
            seen = set()
            stack = [t.grad_fn for t in roots if t.grad_fn is not None]
            while stack:
                node = stack.pop()
                if node in seen:
                    continue
                seen.add(node)
                name = type(node).__name__
                handles.append(node.register_prehook(lambda grad, name=name: ran.append(name)))
                stack.extend(f for f, _ in node.next_functions if f is not None)
            try:
                return fn(tensors, *args, **kwargs)
            except BaseException:
                failed.append(True)
                raise
            finally:
                for h in handles:
                    h.remove()

        return wrapper

    torch.autograd.backward, torch.autograd.grad = (watching(f) for f in originals)
    try:
        yield calls
    finally:
        torch.autograd.backward, torch.autograd.grad = originals


def run_torch(source: str):
    """(stdout with addresses masked, uncaught error as (type, message) or None, node names per call).

    A call that raised inside a node lists that node last, though it never finished; it is left out here,
    as the engine yields a node step only once the node has run."""
    with node_orders() as calls:
        outcome = run_source(source, "torch")
    orders = [names[:-1] if failed else names for names, failed in calls]
    return mask(outcome.stdout), outcome.exc, orders


def mask(text: str) -> str:
    return ADDRESS.sub("0x…", text)


def failing_node(source: str) -> str | None:
    """The name of the node PyTorch was running when the backward call whose error ended the program raised
    (its pre-hook ran, its backward did not finish), or None when the program's error was not raised in a node."""
    with node_orders() as calls:
        outcome = run_source(source, "torch")
    failed = [names for names, failed in calls if failed]
    return failed[-1][-1] if outcome.exc is not None and failed and failed[-1] else None
