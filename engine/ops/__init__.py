"""The op table: every op declared once, by kind (see table.py for what a declaration holds)."""
from . import (  # noqa: F401 - they declare
    arithmetic,
    bitwise,
    compare,
    arranging,
    conv,
    copies,
    division,
    einsum,
    joins,
    linalg,
    masking,
    nn,
    norms,
    ordering,
    padding,
    pieces,
    pointwise,
    pooling,
    products,
    random,
    reductions,
    regions,
    scatter,
    shape,
    special,
)
from .regions import region_grad  # noqa: F401
from .shape import matrix_transposed, transposed  # noqa: F401
from .table import COMPOSITES, OPS, Op, Spelling, kept, result_dtype, shape_args  # noqa: F401
