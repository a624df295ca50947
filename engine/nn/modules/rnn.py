"""The recurrent layers, as torch/nn/modules/rnn.py builds them: RNN, LSTM, GRU and their cells. Parameters are
made and named in torch's order and drawn by reset_parameters, uniform in ±1/√hidden_size, in that order."""
import math
import numbers
import warnings

from ... import dtypes, factories, messages, observe
from .. import init, recurrent
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _check_sizes(input_size, hidden_size):
    if not isinstance(input_size, int):
        raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
    if input_size <= 0:
        raise ValueError("input_size must be greater than zero")
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")


def _reset(module):
    stdv = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    with observe.muted():  # a watcher sees the initialised parameters, not how they were made
        for weight in module.parameters():
            init.uniform_(weight, -stdv, stdv)
    if observe._observers:
        for weight in module.parameters():
            observe.emit("on_tensor", weight)


class RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                             "being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                          stacklevel=2)
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first should be of type bool, got: {type(batch_first).__name__}")
        _check_sizes(input_size, hidden_size)
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * directions
                params = [Parameter(factories.empty((gate_size, layer_input_size), dtype=dtype)),
                          Parameter(factories.empty((gate_size, real_hidden_size), dtype=dtype))]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    params += [Parameter(factories.empty(gate_size, dtype=dtype)),
                               Parameter(factories.empty(gate_size, dtype=dtype))]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:  # LSTM's projection of each step's hidden state, h = w_hr · (o ⊙ tanh c)
                    params.append(Parameter(factories.empty((proj_size, hidden_size), dtype=dtype)))
                    names.append("weight_hr_l{}{}")
                names = [n.format(layer, "_reverse" if direction == 1 else "") for n in names]
                for name, param in zip(names, params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self):
        _reset(self)

    def flatten_parameters(self):
        """A no-op on the CPU, as in torch (it packs the weights for cuDNN)."""

    @property
    def _flat_weights(self):
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, n) for n in names] for names in self._all_weights]

    def _layer_weights(self):
        """(w_ih, w_hh, b_ih, b_hh, w_hr) per layer and direction, None for those there are not."""
        out = []
        for names in self._all_weights:
            w = [getattr(self, n) for n in names]
            out.append(w[:2] + (w[2:4] if self.bias else [None, None]) + (w[-1:] if self.proj_size > 0 else [None]))
        return out

    def check_input(self, input):  # noqa: A002 - PyTorch's argument names
        weight = self.weight_ih_l0
        if input.dtype is not weight.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). Convert "
                             f"input: input.to({weight.dtype}), or convert model: model.to({input.dtype})")
        if input.dim() != 3:
            raise RuntimeError(f"input must have 3 dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.size(-1)}")

    def get_expected_hidden_size(self, input):  # noqa: A002
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * (2 if self.bidirectional else 1), mini_batch, size)

    def get_expected_cell_size(self, input):  # noqa: A002
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * (2 if self.bidirectional else 1), mini_batch, self.hidden_size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden):  # noqa: A002
        self.check_input(input)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input))

    def _batched(self, input, hx, name, unit):  # noqa: A002
        """The input and hx with a batch dim (an unbatched 2-D input gets one), checked as torch checks them."""
        if input.dim() not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D {unit}instead")
        batched = input.dim() == 3
        if not batched:
            input = input.unsqueeze(0 if self.batch_first else 1)  # noqa: A001
            if hx is not None:
                if hx.dim() != 2:
                    raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        elif hx is not None and hx.dim() != 3:
            raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
        if hx is None:
            hx = self._zeros(input)
        return input, hx, batched

    def _forward_one_state(self, input, hx, name, unit):  # noqa: A002
        """RNN's and GRU's forward (one hidden state, unlike LSTM's two)."""
        input, hx, batched = self._batched(input, hx, name, unit)  # noqa: A001
        self.check_forward_args(input, hx)
        output, hidden = self._run(input, hx)
        if not batched:
            output = output.squeeze(0 if self.batch_first else 1)
            hidden = hidden.squeeze(1)
        return output, hidden

    def _forward_packed(self, packed, hx):
        """A PackedSequence in: its data run step by step with the batch shrinking as sequences end (ATen's
        PackedLayer), hx permuted into the packed order and the final state permuted back."""
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        sizes = [int(n) for n in batch_sizes.tolist()]
        lstm = self.mode == "LSTM"
        layers = self.num_layers * (2 if self.bidirectional else 1)
        if hx is None:
            zeros = factories.zeros(layers, sizes[0], self.proj_size or self.hidden_size, dtype=data.dtype)
            hx = (zeros, factories.zeros(layers, sizes[0], self.hidden_size, dtype=data.dtype)) if lstm else zeros
        elif sorted_indices is not None:
            hx = tuple(h.index_select(1, sorted_indices) for h in hx) if lstm else hx.index_select(1, sorted_indices)
        if data.dtype is not self.weight_ih_l0.dtype:
            self.check_input(data)
        if data.dim() != 2:
            raise RuntimeError(f"input must have 2 dimensions, got {data.dim()}")
        if self.input_size != data.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{data.size(-1)}")
        expected = (layers, sizes[0], self.proj_size or self.hidden_size)
        if lstm:
            self.check_hidden_size(hx[0], expected, "Expected hidden[0] size {}, got {}")
            self.check_hidden_size(hx[1], (layers, sizes[0], self.hidden_size), "Expected hidden[1] size {}, got {}")
        else:
            self.check_hidden_size(hx, expected)
        output, hidden = recurrent.run_packed(self.mode, data, sizes, hx, self._layer_weights(), self.num_layers,
                                              self.dropout, self.training, self.bidirectional)
        if unsorted_indices is not None:
            hidden = (tuple(h.index_select(1, unsorted_indices) for h in hidden) if lstm
                      else hidden.index_select(1, unsorted_indices))
        return PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices), hidden

    def _zeros(self, input, size=None):  # noqa: A002
        batch = input.size(0) if self.batch_first else input.size(1)
        return factories.zeros(self.num_layers * (2 if self.bidirectional else 1), batch, size or self.hidden_size,
                               dtype=input.dtype)

    def _run(self, input, hx):  # noqa: A002
        return recurrent.run(self.mode, input, hx, self._layer_weights(), self.num_layers, self.dropout,
                             self.training, self.bidirectional, self.batch_first)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)


class RNN(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):  # noqa: A002
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        return self._forward_one_state(input, hx, "RNN", "tensor ")


class GRU(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):  # noqa: A002
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        return self._forward_one_state(input, hx, "GRU", "")


class LSTM(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):  # noqa: A002
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        if input.dim() not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
        batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            input = input.unsqueeze(batch_dim)  # noqa: A001
        if hx is None:
            hx = (self._zeros(input, self.proj_size), self._zeros(input))
        elif batched:
            if hx[0].dim() != 3 or hx[1].dim() != 3:
                raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
        else:
            if hx[0].dim() != 2 or hx[1].dim() != 2:
                raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_input(input)
        expected = self.get_expected_hidden_size(input)
        self.check_hidden_size(hx[0], expected, "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hx[1], self.get_expected_cell_size(input), "Expected hidden[1] size {}, got {}")
        if self.proj_size > 0 and input.dtype is dtypes.float32 and input.numel():  # where torch would use oneDNN
            messages.warn_once("LSTM with projections is not supported with oneDNN. Using default implementation.",
                               stacklevel=3)
        output, hidden = self._run(input, hx)
        if not batched:
            output = output.squeeze(batch_dim)
            hidden = (hidden[0].squeeze(1), hidden[1].squeeze(1))
        return output, hidden


class RNNCellBase(Module):
    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(factories.empty((num_chunks * hidden_size, input_size), dtype=dtype))
        self.weight_hh = Parameter(factories.empty((num_chunks * hidden_size, hidden_size), dtype=dtype))
        if bias:
            self.bias_ih = Parameter(factories.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(factories.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        _reset(self)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.bias is not True:
            s += ", bias={bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def _weights(self):
        return (self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)

    def _check(self, input, hiddens):  # noqa: A002
        """ATen's check_rnn_cell_forward_input and _hidden."""
        if input.size(1) != self.weight_ih.size(1):
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected "
                               f"{self.weight_ih.size(1)}")
        for i, h in enumerate(hiddens):
            if input.size(0) != h.size(0):
                raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{i} batch size "
                                   f"{h.size(0)}")
            if h.size(1) != self.hidden_size:
                raise RuntimeError(f"hidden{i} has inconsistent hidden_size: got {h.size(1)}, expected "
                                   f"{self.hidden_size}")

    def _single(self, name, cell, input, hx):  # noqa: A002
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)  # noqa: A001
        if hx is None:
            hx = factories.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        elif not batched:
            hx = hx.unsqueeze(0)
        self._check(input, (hx,))
        ret = cell(input, hx, self._weights())
        return ret if batched else ret.squeeze(0)


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):  # noqa: A002
        cells = {"tanh": recurrent.tanh_cell, "relu": recurrent.relu_cell}
        if self.nonlinearity not in cells:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return self._single("RNNCell", cells[self.nonlinearity], input, hx)


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def forward(self, input, hx=None):  # noqa: A002
        return self._single("GRUCell", recurrent.gru_cell, input, hx)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def forward(self, input, hx=None):  # noqa: A002
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)  # noqa: A001
        if hx is None:
            zeros = factories.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (zeros, zeros)
        elif not batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        self._check(input, hx)
        ret = recurrent.lstm_cell(input, hx, self._weights())
        return ret if batched else (ret[0].squeeze(0), ret[1].squeeze(0))
