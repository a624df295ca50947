"""Inside Pyodide there is no PyTorch: there only the tests that check the engine against recorded PyTorch
output or against finite differences run; everything else needs the live oracle and is skipped."""
import sys

import pytest

TORCH_FREE = ("test_goldens.py::test_engine_prints_what_pytorch_printed", "test_gradcheck.py::test_gradcheck[",
              "test_printing.py::")


def pytest_collection_modifyitems(items):
    if sys.platform != "emscripten":
        return
    skip = pytest.mark.skip(reason="needs real PyTorch, which does not exist in Pyodide")
    for item in items:
        if not any(key in item.nodeid for key in TORCH_FREE):
            item.add_marker(skip)
