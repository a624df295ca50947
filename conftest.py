# Puts the project root on sys.path so `import engine` works in every test environment.
# Where the PyTorch oracle is installed, it runs on one thread: its results then do not depend on how many
# cores the machine has (intra-op parallelism splits big reductions differently).
import importlib.util
import sys

if sys.platform != "emscripten" and importlib.util.find_spec("torch") is not None:
    import torch

    torch.set_num_threads(1)
