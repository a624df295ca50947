"""torch.cuda.amp: its autocast and GradScaler, which torch 2.13 deprecates for torch.amp's (amp.py)."""
from .amp import cuda_autocast as autocast
from .amp import cuda_grad_scaler as GradScaler

autocast.__name__ = autocast.__qualname__ = "autocast"
GradScaler.__name__ = GradScaler.__qualname__ = "GradScaler"
