"""The app's packages import one way, bottom up, as tests/engine/test_layers.py checks for the engine.

A feature package keeps its pure models below the store (the store holds their state) and its views above it
(they watch the store), so a place is given to a package (its views) and to each of its pure modules apart: a
module's place is that of the longest name declared for it (`graph.model` before `graph`). A new top-level
module or package must be given its place here; a new import that points up, or closes a cycle, fails.
The app may import the engine, never torch; the engine never imports the app.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.import_cycles import first_cycle

ROOT = Path(__file__).resolve().parents[2]
APP, ENGINE = ROOT / "app", ROOT / "engine"

# Lowest first. A module may import modules of its own layer or below.
LAYERS = [
    # the recorder's contract (timeline, timeline_check) and how `panel serve` sends (serving)
    ("timeline", "timeline_check", "serving"),
    # pure models: no Panel, no Bokeh
    ("graph.layout", "graph.module_boxes", "graph.text_width", "graph.model", "graph.columns", "graph.views",
     "graph.camera_model", "graph.chain_model", "graph.saved_model", "graph.teach_columns", "graph.legibility",
     "graph.node_list_model", "player.iterations", "player.caption", "plots.model", "predict.model",
     "inspector.model", "grad_history.model", "canvas.model", "canvas.code", "canvas.board_model",
     "program.examples", "program.links", "lessons.questions", "lessons.model", "lessons.notebook",
     "lessons.program", "lessons.run", "lessons.library", "lessons.asking", "lessons.render"),
    ("store",),
    ("widgets",),
    # the views
    ("graph", "player", "plots", "predict", "inspector", "grad_history", "canvas", "program", "lessons"),
    ("page",),
    ("site", "main"),
]
PURE = LAYERS[1]
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def place(module: str) -> str | None:
    """The declared name a module of the app takes its layer from: app.graph.model -> graph.model,
    app.graph.view -> graph; None if it has none."""
    parts = module.split(".")[1:]
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in RANK:
            return ".".join(parts[:n])
    return None


def resolve(module: str, node: ast.ImportFrom | ast.Import, is_package: bool, modules: set[str]) -> list[str]:
    """The modules an import statement names: `from app.graph import model` names app.graph.model,
    `from app.graph.model import key` names app.graph.model."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level == 0:
        base = node.module or ""
    else:
        package = module.split(".") if is_package else module.split(".")[:-1]
        base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
    submodules = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
    return submodules if len(submodules) == len(node.names) else [base, *submodules]


def imports(root: Path) -> dict[str, tuple[list[str], list[str]]]:
    """module -> (what it imports at top level, what it imports inside functions)."""
    paths = sorted(root.rglob("*.py"))
    modules = {module_name(path, root) for path in paths}
    out = {}
    for path in paths:
        module = module_name(path, root)
        tree = ast.parse(path.read_text())
        top_level, nested = [], []
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                targets = resolve(module, node, path.name == "__init__.py", modules)
                (top_level if node in tree.body else nested).extend(targets)
        out[module] = (top_level, nested)
    return out


IMPORTS = imports(APP)
MODULES = sorted(IMPORTS)


def app_targets(module: str) -> list[str]:
    """The app's modules a module imports at top level."""
    return sorted({t for t in IMPORTS[module][0] if t in IMPORTS and t != "app"})


def test_every_declared_place_exists():
    for name in RANK:
        path = APP.joinpath(*name.split("."))
        assert path.with_suffix(".py").is_file() or (path / "__init__.py").is_file(), f"app.{name} does not exist"


@pytest.mark.parametrize("module", [m for m in MODULES if m != "app"])
def test_imports_point_down(module):
    assert place(module) is not None, f"{module}: give it a layer in tests/app/test_app_layers.py"
    for target in app_targets(module):
        assert RANK[place(target)] <= RANK[place(module)], f"{module} imports {target}, a layer above it"


@pytest.mark.parametrize("module", MODULES)
def test_no_app_import_inside_a_function(module):
    nested = [t for t in IMPORTS[module][1] if t == "app" or t.startswith("app.")]
    assert not nested, f"{module} imports {nested} inside a function: import at the top"


def test_no_import_cycles():
    graph = {m: app_targets(m) for m in IMPORTS}
    cycle = first_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


@pytest.mark.parametrize("module", [m for m in MODULES if place(m) in PURE])
def test_pure_models_import_no_panel(module):
    drawn = [t for t in IMPORTS[module][0] + IMPORTS[module][1] if t.split(".")[0] in ("panel", "bokeh", "param")]
    assert not drawn, f"{module} is declared a pure model but imports {drawn}"


def test_app_never_imports_torch():
    found = [(m, t) for m in MODULES for t in IMPORTS[m][0] + IMPORTS[m][1] if t.split(".")[0] == "torch"]
    assert not found, f"the app imports torch: {found} (it imports the engine)"


def test_engine_never_imports_the_app():
    # A line scan, not a parse: the engine is large, and an import of the app is a statement on a line of its own.
    statement = re.compile(r"^\s*(from\s+app(\.|\s)|import\s+app\b)", re.M)
    found = [str(p.relative_to(ROOT)) for p in sorted(ENGINE.rglob("*.py")) if statement.search(p.read_text())]
    assert not found, f"the engine imports the app: {found}"
