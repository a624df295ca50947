"""torch.autograd.detect_anomaly and set_detect_anomaly. With check_nan, a node whose backward makes nan stops the
backward pass with PyTorch's error (engine/backward.py). The engine does not record the traceback of the forward
call that made each node, so it does not print PyTorch's "Error detected in ..." warning."""
import warnings

from .. import grad_mode


class detect_anomaly:
    def __init__(self, check_nan=True):
        self.prev = grad_mode.is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = grad_mode.is_anomaly_check_nan_enabled()
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                      "enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self):
        grad_mode.set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args):
        grad_mode.set_anomaly_enabled(self.prev, self.prev_check_nan)

    def __repr__(self):
        return f"<torch.autograd.anomaly_mode.detect_anomaly object at {id(self):#x}>"


class set_detect_anomaly:
    def __init__(self, mode, check_nan=True):
        self.prev = grad_mode.is_anomaly_enabled()
        self.prev_check_nan = grad_mode.is_anomaly_check_nan_enabled()
        grad_mode.set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *args):
        grad_mode.set_anomaly_enabled(self.prev, self.prev_check_nan)

    def __repr__(self):
        return f"<torch.autograd.anomaly_mode.set_detect_anomaly object at {id(self):#x}>"
