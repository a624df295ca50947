"""The op table: every op declared once, by kind (see table.py for what a declaration holds)."""
from . import (  # noqa: F401 - they declare
    activations,
    arithmetic,
    attention,
    conv,
    distances,
    division,
    einsum,
    joins,
    linalg,
    margins,
    nn,
    norms,
    padding,
    pieces,
    pointwise,
    pooling,
    pooling3d,
    products,
    random,
    reductions,
    regions,
    scatter,
    shape,
    shuffles,
    trilinear,
    upsample,
)
from .regions import region_grad  # noqa: F401
from .shape import transposed  # noqa: F401
from .table import COMPOSITES, OPS, Op, Spelling, kept, result_dtype, shape_args  # noqa: F401
