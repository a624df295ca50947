"""torch.optim: the optimizers (SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta) and torch.optim.lr_scheduler, as
torch 2.13 computes them on the CPU."""
from . import lr_scheduler
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .optimizer import Optimizer, _one_step  # noqa: F401 - _one_step: what a watcher of a step hears
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Adadelta", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "SGD", "lr_scheduler"]
