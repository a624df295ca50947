"""torch.backends.cuda on the CPU-only build: not built, but `matmul.allow_tf32` and friends are settable."""
from .flags import FLAGS, flag


def is_built():
    return False


class _Matmul:
    """torch.backends.cuda.matmul: its flags, and torch's error for any other attribute."""

    __slots__ = ()
    allow_tf32 = flag("matmul.allow_tf32")
    allow_fp16_reduced_precision_reduction = flag("matmul.allow_fp16_reduced_precision_reduction")
    allow_bf16_reduced_precision_reduction = flag("matmul.allow_bf16_reduced_precision_reduction")

    def __getattr__(self, name):
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name not in FLAGS and "matmul." + name not in FLAGS:
            raise AttributeError(f"Unknown attribute {name}")
        object.__setattr__(self, name, value)


matmul = _Matmul()
