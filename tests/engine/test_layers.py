"""The engine's layers import one way, bottom up, and no engine module imports another inside a function.

A new module must be given its layer here; a new import that points up, or closes a cycle, fails this test.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.import_cycles import first_cycle

ENGINE = Path(__file__).resolve().parents[2] / "engine"

# Lowest first. A module may import modules of its own layer or below.
LAYERS = [
    ("torch_names", "version", "dtypes", "memory", "devices", "limits", "messages", "observe", "grad_mode", "printing",
     "kernels", "generator"),
    ("ops",),
    ("graph", "backward"),
    ("tensor", "sizes", "size_arguments", "nodes", "dispatch", "methods", "logic", "meta", "tensor_data",
     "autocasting"),
    ("factories", "functions", "indexing", "linalg", "nn", "optim", "random", "special", "utils", "cuda",
     "amp", "cuda_amp", "accelerator", "backends", "settings", "serialization", "masked", "signal", "resizing",
     "lowrank", "storage", "legacy", "windows", "testing", "fft", "distributed", "multiprocessing", "profiler",
     "torch_types"),
    ("autograd", "func", "utils.checkpoint"),
    ("distributions",),
    ("vision",),  # torchvision, on the layers below
    ("trace",),
]
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def top(module: str) -> str:
    """The layer key of an engine module: engine.ops.table -> ops; engine.utils.checkpoint has a layer of its own."""
    parts = module.split(".")
    if ".".join(parts[1:3]) in RANK:
        return ".".join(parts[1:3])
    return parts[1] if len(parts) > 1 else ""


def resolve(module: str, node: ast.ImportFrom | ast.Import, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name == "engine" or a.name.startswith("engine.")]
    if node.level == 0:
        base = node.module or ""
        if not (base == "engine" or base.startswith("engine.")):
            return []
    else:
        package = module.split(".") if is_package else module.split(".")[:-1]
        base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
    if node.module:
        return [base]
    return [f"{base}.{a.name}" for a in node.names]  # from . import graph


def imports() -> dict[str, tuple[list[str], list[tuple[str, int]]]]:
    """module -> (engine modules it imports at top level, (module, line) of engine imports inside functions)."""
    out = {}
    for path in sorted(ENGINE.rglob("*.py")):
        module = module_name(path)
        tree = ast.parse(path.read_text())
        top_level, nested = [], []
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                targets = resolve(module, node, path.name == "__init__.py")
                if node in tree.body:
                    top_level += targets
                else:
                    nested += [(t, node.lineno) for t in targets]
        out[module] = (top_level, nested)
    return out


IMPORTS = imports()


@pytest.mark.parametrize("module", sorted(IMPORTS))
def test_no_engine_import_inside_a_function(module):
    assert not IMPORTS[module][1], f"{module} imports {IMPORTS[module][1]} inside a function: import at the top"


@pytest.mark.parametrize("module", sorted(m for m in IMPORTS if m != "engine"))
def test_imports_point_down(module):
    assert top(module) in RANK, f"{module}: give it a layer in tests/engine/test_layers.py"
    for target in IMPORTS[module][0]:
        if target == "engine":
            pytest.fail(f"{module} imports the engine package itself")
        assert RANK.get(top(target), 99) <= RANK[top(module)], f"{module} imports {target}, a layer above it"


def test_no_import_cycles():
    graph = {m: [t for t in IMPORTS[m][0] if t in IMPORTS] for m in IMPORTS}
    cycle = first_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)
