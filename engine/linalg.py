"""torch.linalg: the functions that are an op's spelling (det, inv, solve, svd, eigh, vector_norm, …) and the
composites built from them (matrix_norm, norm, matrix_power, multi_dot, …), all derived from the op table
(engine/methods.py)."""
from .methods import LINALG as _LINALG
from .ops.decompositions import _LinAlgError as LinAlgError  # noqa: F401

globals().update(_LINALG)
