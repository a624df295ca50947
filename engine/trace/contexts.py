"""A program's `with` block around one of the engine's context managers (runtime.Runtime.context checks it is
one): its exit is skipped once the run is over, so a generator suspended inside `with torch.enable_grad():` and
collected later cannot set the grad mode of later runs."""


class Context:
    __slots__ = ("manager", "budget")

    def __init__(self, manager, budget):
        self.manager, self.budget = manager, budget

    def __enter__(self):
        return type(self.manager).__enter__(self.manager)

    def __exit__(self, *exc):
        if self.budget.closed:
            return False
        return type(self.manager).__exit__(self.manager, *exc)
