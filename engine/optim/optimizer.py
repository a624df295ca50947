"""torch.optim.Optimizer: param groups, per-parameter state, zero_grad, state_dict / load_state_dict,
add_param_group and the printed form, as torch/optim/optimizer.py (2.13) has them.

The algorithms (sgd.py, adam.py, rmsprop.py, adagrad.py, adadelta.py) run torch's single-tensor ("for-loop")
code, the one torch 2.13 takes on the CPU when foreach and fused are left unset. Their step goes through
`_one_step`.
"""
import functools
import warnings
from collections import defaultdict
from copy import deepcopy
from itertools import chain

from .. import dtypes, observe
from ..factories import tensor
from ..grad_mode import enable_grad, no_grad
from ..legacy import typename
from ..ops import OPS
from ..tensor import Tensor
from ..torch_names import TorchABCClass, name_as_torch


class _RequiredParameter:
    """A default that a param group must give (torch.optim.optimizer.required)."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()

# What torch's capturable optimizers accept (optimizer._get_capturable_supported_devices()); the engine's
# tensors are all on the CPU, so capturable=True fails at the first step, as it does in torch on the CPU.
CAPTURABLE_DEVICES = ["cuda", "xpu", "hpu", "privateuseone", "xla"]


def _one_step(step):
    """An optimizer step is one in-place update per parameter for a watcher, not its arithmetic.

    `step(self)` returns the parameters it updated; it runs without grad and unheard (observe.muted), and then
    each updated parameter is reported as one in-place op whose attrs name the optimizer, its rule and terms
    (`self._rule(group, p, state)`, from rules.py). A closure
    (`optimizer.step(closure)`: forward and backward again) runs first, with grad enabled and heard like any of
    the program's code, and its result is what step returns."""

    @functools.wraps(step)
    def wrapper(self, closure=None):
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad(), observe.muted():
            updated = step(self)
        report(self, updated)
        return loss

    return wrapper


def report(optimizer, updated):
    """Each updated parameter told to watchers as one in-place op naming the optimizer, its rule and terms."""
    if observe._observers:
        groups = {id(p): group for group in optimizer.param_groups for p in group["params"]}
        for p in updated:
            rule, terms = type(optimizer)._rule(groups[id(p)], p, optimizer.state.get(p, {}))  # (no new entry)
            observe.emit("on_inplace", p, OPS["sub"], (p,),
                         {"optimizer": type(optimizer).__name__, "rule": rule, **terms})


def check_number(name, value, tensor_ok=False):
    """The engine's optimizers take hyperparameters as numbers; those whose step replays what torch does with a
    one-element Tensor lr (tensor_ok: SGD, Adagrad, LBFGS, Muon, SparseAdam) take that too."""
    if isinstance(value, Tensor):
        if not tensor_ok:
            raise NotImplementedError(f"{name} as a Tensor: the engine's optimizers take a number")
        if value.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")


def scalar(x):
    """A hyperparameter as the Scalar torch's kernels take (alpha=, value=): a Tensor's value, as a float."""
    return x.item() if isinstance(x, Tensor) else x


def check_implementation(defaults):
    """foreach=True computes what the for-loop computes (torch's foreach ops on the CPU round the same way), so
    the for-loop runs; fused and differentiable steps are torch's other code paths, which the engine lacks."""
    if defaults.get("fused"):
        if defaults.get("differentiable"):
            raise RuntimeError("`fused` does not support `differentiable`")
        if defaults.get("foreach"):
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        raise NotImplementedError("fused=True: the engine has torch's for-loop optimizers only (leave fused unset "
                                  "or False); torch's fused CPU kernels round differently")
    if defaults.get("differentiable"):
        raise NotImplementedError("differentiable=True: the engine's optimizer steps are not differentiable")


def check_capturable(group, tensors="params and state_steps"):
    if group.get("capturable"):
        raise AssertionError(f"If capturable=True, {tensors} must be on supported devices: {CAPTURABLE_DEVICES}.")


class Optimizer(metaclass=TorchABCClass):
    """Base class for all optimizers (torch.optim.Optimizer)."""

    _torch_name = "torch.optim.optimizer.Optimizer"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name_as_torch(cls)

    _capturable_tensors = "params and state_steps"  # what torch's capturable check names

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got " + typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.defaults.setdefault("differentiable", False)

    def _restore_groups(self, defaults):
        """What every algorithm's __setstate__ does: the options an older state lacks get their defaults, and a
        step kept as a number becomes a float32 tensor."""
        for group in self.param_groups:
            for key, default in defaults:
                group.setdefault(key, default)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not isinstance(p_state["step"], Tensor):
                    p_state["step"] = tensor(float(p_state["step"]), dtype=dtypes.float32)

    def _each_parameter(self, update):
        """A step of torch's single-tensor loop: for every parameter with a grad, its state made by the algorithm's
        `_new_state` the first time, then update(param, its state, its group); the parameters updated."""
        updated = []
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            for p in params:
                state = self.state[p]
                if len(state) == 0:
                    state.update(self._new_state(p, group))
                check_capturable(group, self._capturable_tensors)
                update(p, state, group)
            updated += params
        return updated

    def __repr__(self):
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    def step(self, closure=None):
        raise NotImplementedError

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)

        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):  # from named_parameters()
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) != len(tensors):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names

        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + typename(param))
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)

        param_set = set()
        for group in self.param_groups:
            param_set.update(set(group["params"]))
            if ("param_names" in param_group) != ("param_names" in group):
                current = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {current} to the optimizer")
        if not param_set.isdisjoint(set(param_group["params"])):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # --- saving and loading ----------------------------------------------------------------------------
    def state_dict(self):
        """{'state': {index: the parameter's state}, 'param_groups': [the groups, 'params' as indices]}: the state's
        tensors are the optimizer's own (not copies), as in torch."""
        param_mappings = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update({id(p): i for i, p in enumerate(group["params"], start_index)
                                   if id(p) not in param_mappings})
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()}
        return {"state": packed_state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        state_dict = state_dict.copy()
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def cast(param, value, key=None):
            """The saved value for param: tensors (but 'step') in the parameter's float type, the same tensor
            when it already is (torch's Tensor.to gives the tensor itself)."""
            if isinstance(value, Tensor):
                if key != "step" and param.is_floating_point() and value.dtype is not param.dtype:
                    return value.to(param.dtype)
                return value
            if isinstance(value, dict):
                return {k: cast(param, v, key=k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(cast(param, v) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = cast(param, v)
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})
