"""Python's share of a step, natively: the milliseconds for the app to answer a step of an example (the store
moves, every view updates its models) and to serialize what changed as the patch the page gets, as the static
site's worker does (static/boot.py), where Pyodide runs the same code, slower.

    .venv/bin/python benchmarks/step_python.py [--example chain-100] [--steps 60]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from bokeh.core.serialization import Serializer  # noqa: E402
from bokeh.document.events import DocumentPatchedEvent  # noqa: E402
from panel.io.state import set_curdoc  # noqa: E402
from ui import start_step  # noqa: E402

from app.site.hooks import native_document  # noqa: E402


def serialize(doc, events) -> None:
    """What panel.io.pyodide._process_document_events does (that module needs Pyodide's `js`)."""
    serializer = Serializer(references=doc.models.synced_references)
    serializer.encode({"events": events})
    doc.models.flush_synced(lambda model: not serializer.has_ref(model))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--example", default="chain-100")
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args()
    explorer, doc = native_document({"example": args.example})
    store, events = explorer.store, []
    doc.on_change(lambda e: isinstance(e, DocumentPatchedEvent) and events.append(e))
    with set_curdoc(doc):
        start = start_step(args.example)
        store.goto(start)
        store.select(explorer.graph.boxes.data["key"][0])
        answer, patch = [], []
        for k in range(start + 1, min(start + 1 + args.steps, len(store.timeline.events))):
            events.clear()
            began = time.perf_counter()
            store.goto(k)
            moved = time.perf_counter()
            serialize(doc, events)
            answer.append((moved - began) * 1000)
            patch.append((time.perf_counter() - moved) * 1000)
    print(f"{args.example}: a step's Python, over {len(answer)} steps (median / p95 ms): the app's answer "
          f"{statistics.median(answer):.2f} / {sorted(answer)[int(0.95 * (len(answer) - 1))]:.2f}, its patch "
          f"{statistics.median(patch):.2f} / {sorted(patch)[int(0.95 * (len(patch) - 1))]:.2f}")


if __name__ == "__main__":
    main()
