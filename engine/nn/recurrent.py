"""The recurrent layers' computation as ATen's RNN.cpp does it on the CPU for tensors that are not packed:
per layer the input projection of every step at once (linear, then unbind over time), then one cell per step
(its ops in ATen's order, in-place where ATen writes in place), the steps' outputs stacked; a reverse direction
runs over the reversed list of steps and is concatenated along the features; the final hidden states stacked.
(For a float32 LSTM, torch's CPU build runs oneDNN's fused layer instead: see docs/torch-facts.md.)"""
from ..methods import FUNCTIONS
from . import functional as F

stack, cat = FUNCTIONS["stack"], FUNCTIONS["cat"]


def linear(x, weight, bias):
    return F.linear(x, weight, bias)


def tanh_cell(x, h, w, pre_computed=False):
    return _simple(x, h, w, pre_computed).tanh()


def relu_cell(x, h, w, pre_computed=False):
    return _simple(x, h, w, pre_computed).relu()


def _simple(x, h, w, pre_computed):
    return linear(h, w[1], w[3]).add(x if pre_computed else linear(x, w[0], w[2]))


def lstm_cell(x, hidden, w, pre_computed=False):
    h, c = hidden
    gates = linear(h, w[1], w[3]).add_(x if pre_computed else linear(x, w[0], w[2]))
    i, f, g, o = gates.unsafe_chunk(4, 1)
    i, f, g, o = i.sigmoid_(), f.sigmoid_(), g.tanh_(), o.sigmoid_()
    cy = (f * c).add_(i * g)
    hy = o * cy.tanh()
    if len(w) > 4 and w[4] is not None:  # ATen's matmul_hr: the projection, when the LSTM has one
        hy = hy.matmul(w[4].t())
    return hy, cy


def gru_cell(x, h, w, pre_computed=False):
    xr, xz, xn = (x if pre_computed else linear(x, w[0], w[2])).unsafe_chunk(3, 1)
    hr, hz, hn = linear(h, w[1], w[3]).unsafe_chunk(3, 1)
    reset = hr.add_(xr).sigmoid_()
    update = hz.add_(xz).sigmoid_()
    new = xn.add(hn.mul_(reset)).tanh_()
    return (h - new).mul_(update).add_(new)


_CELLS = {"RNN_TANH": tanh_cell, "RNN_RELU": relu_cell, "LSTM": lstm_cell, "GRU": gru_cell}


def _layer(cell, steps, hidden, w):
    """FullLayer over pre-computed input projections: the outputs of every step, and the last hidden state."""
    outputs = []
    for x in steps:
        hidden = cell(x, hidden, w, True)
        outputs.append(hidden[0] if isinstance(hidden, tuple) else hidden)
    return outputs, hidden


def run(mode, input, hidden, weights, num_layers, dropout, training, bidirectional, batch_first):  # noqa: A002
    """_rnn_impl: input (time, batch, features) or batch first; hidden the initial states (num_layers ·
    directions, batch, hidden), a pair of them for an LSTM; weights (w_ih, w_hh, b_ih, b_hh, w_hr) per layer
    and direction, biases and the projection None when there are none. Returns the output and the final hidden
    state(s)."""
    cell = _CELLS[mode]
    if batch_first:
        input = input.transpose(0, 1)  # noqa: A001
    lstm = mode == "LSTM"
    starts = list(zip(hidden[0].unbind(0), hidden[1].unbind(0))) if lstm else list(hidden.unbind(0))
    directions = 2 if bidirectional else 1
    finals = []
    x = input
    for layer in range(num_layers):
        outs = []
        for d in range(directions):
            k = layer * directions + d
            steps = linear(x, weights[k][0], weights[k][2]).unbind(0)
            steps = steps if d == 0 else steps[::-1]
            outputs, last = _layer(cell, steps, starts[k], weights[k])
            if not outputs:
                raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
            outs.append(stack(outputs if d == 0 else outputs[::-1], 0))
            finals.append(last)
        x = outs[0] if directions == 1 else cat(outs, outs[0].dim() - 1)
        if dropout != 0 and training and layer < num_layers - 1:
            x = F.dropout(x, dropout, True)
    if lstm:
        output = x.transpose(0, 1) if batch_first else x
        return output, (stack([h for h, _ in finals], 0), stack([c for _, c in finals], 0))
    output = x._op("transpose_", dim0=0, dim1=1) if batch_first else x  # _rnn_impl_with_concat transposes in place
    return output, stack(finals, 0)


def _narrow(hidden, start, end):
    if isinstance(hidden, tuple):
        return tuple(h.narrow(0, start, end - start) for h in hidden)
    return hidden.narrow(0, start, end - start)


def _packed_layer(cell, data, batch_sizes, hidden, w):
    """ATen's PackedLayer: the input projection of all the packed rows at once, then per step a narrow of the
    rows still running; the hidden rows of sequences that ended are set aside, and the final hidden state is
    those pieces concatenated, longest sequence first."""
    projected = linear(data, w[0], w[2])
    outputs, ended = [], []
    offset, last = 0, batch_sizes[0]
    for size in batch_sizes:
        step = projected.narrow(0, offset, size)
        offset += size
        if last > size:
            ended.append(_narrow(hidden, size, last))
            hidden = _narrow(hidden, 0, size)
        last = size
        hidden = cell(step, hidden, w, True)
        outputs.append(hidden[0] if isinstance(hidden, tuple) else hidden)
    ended.append(hidden)
    ended.reverse()
    if isinstance(hidden, tuple):
        final = tuple(cat([h[i] for h in ended], 0) for i in range(len(hidden)))
    else:
        final = cat(ended, 0)
    return cat(outputs, 0), final


def _concat(first, second):
    if isinstance(first, tuple):
        return tuple(cat([a, b], 0) for a, b in zip(first, second))
    return cat([first, second], 0)


def _reversed_packed_layer(cell, data, batch_sizes, hidden, w):
    """ATen's ReversedPackedLayer: the steps from the last, starting with the hidden rows of the sequences still
    running there and taking in the rows of the others as they begin; the outputs put back in the packed order."""
    projected = linear(data, w[0], w[2])
    outputs = []
    offset, last = data.size(0), batch_sizes[-1]
    state = _narrow(hidden, 0, last)
    for size in reversed(batch_sizes):
        if size > last:
            state = _concat(state, _narrow(hidden, last, size))
        step = projected.narrow(0, offset - size, size)
        offset -= size
        last = size
        state = cell(step, state, w, True)
        outputs.append(state[0] if isinstance(state, tuple) else state)
    outputs.reverse()
    return cat(outputs, 0), state


def run_packed(mode, data, batch_sizes, hidden, weights, num_layers, dropout, training, bidirectional=False):
    """_rnn_impl over a PackedSequence's data: per layer a PackedLayer (and a ReversedPackedLayer, their outputs
    concatenated along the features, when bidirectional), dropout between layers; the output data and the final
    hidden state(s) stacked over the layers and directions."""
    cell = _CELLS[mode]
    lstm = mode == "LSTM"
    starts = list(zip(hidden[0].unbind(0), hidden[1].unbind(0))) if lstm else list(hidden.unbind(0))
    directions = 2 if bidirectional else 1
    finals = []
    x = data
    for layer in range(num_layers):
        k = layer * directions
        out, last = _packed_layer(cell, x, batch_sizes, starts[k], weights[k])
        finals.append(last)
        if bidirectional:
            back, last = _reversed_packed_layer(cell, x, batch_sizes, starts[k + 1], weights[k + 1])
            finals.append(last)
            out = cat([out, back], -1)
        x = out
        if dropout != 0 and training and layer < num_layers - 1:
            x = F.dropout(x, dropout, True)
    if lstm:
        return x, (stack([h for h, _ in finals], 0), stack([c for _, c in finals], 0))
    return x, stack(finals, 0)
