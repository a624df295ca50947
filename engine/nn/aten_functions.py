"""nn functions as torch.* spells them (ATen's signatures, not nn.functional's): torch.dropout(input, p, train),
torch.layer_norm, torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
cudnn_enabled), the losses with an integer reduction (0 none, 1 mean, 2 sum: torch's Python binding defaults it to
0), torch.convolution. Each runs the function nn.functional runs, so values and graphs are the same."""
from ..ops.embedding_bag import embedding_bag_results
from ..tensor import Tensor
from . import basic_functions, functional, norm_functions, recurrent

_REDUCTION = {0: "none", 1: "mean", 2: "sum"}


def _named(reduction):
    """ATen's apply_loss_reduction: an integer it does not know leaves the loss unreduced."""
    return _REDUCTION.get(reduction, "none")


def _checked_p(p):
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p, train):  # noqa: A002 - ATen's argument names
    _checked_p(p)
    return basic_functions.dropout(input, p, train)


def dropout_(input, p, train):  # noqa: A002
    _checked_p(p)
    return basic_functions.dropout(input, p, train, inplace=True)


def feature_dropout(input, p, train):  # noqa: A002
    _checked_p(p)
    return basic_functions._feature_dropout(input, p, train, False)


def feature_dropout_(input, p, train):  # noqa: A002
    _checked_p(p)
    return basic_functions._feature_dropout(input, p, train, True)


def alpha_dropout(input, p, train):  # noqa: A002
    return functional._alpha_dropout(input, p, train, False, feature=False)


def alpha_dropout_(input, p, train):  # noqa: A002
    return functional._alpha_dropout(input, p, train, True, feature=False)


def feature_alpha_dropout(input, p, train):  # noqa: A002
    return functional._alpha_dropout(input, p, train, False, feature=True)


def feature_alpha_dropout_(input, p, train):  # noqa: A002
    return functional._alpha_dropout(input, p, train, True, feature=True)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):  # noqa: A002
    return functional.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):  # noqa: A002
    return functional.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,  # noqa: A002
               cudnn_enabled):
    return basic_functions.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,  # noqa: A002
                  cudnn_enabled):
    return norm_functions.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum,
                                        eps)


def kl_div(input, target, reduction=0, *, log_target=False):  # noqa: A002
    return functional.aten_kl_div(input, target, _named(reduction), log_target)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):  # noqa: A002
    return functional.binary_cross_entropy_with_logits(input, target, weight, reduction=_named(reduction),
                                                       pos_weight=pos_weight)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return functional.margin_ranking_loss(input1, input2, target, margin, reduction=_named(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):  # noqa: A002
    return functional.hinge_embedding_loss(input, target, margin, reduction=_named(reduction))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return functional.cosine_embedding_loss(input1, input2, target, margin, reduction=_named(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False, reduction=0):
    return functional.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                          reduction=_named(reduction))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0, zero_infinity=False):
    return functional.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, _named(reduction),
                               zero_infinity)


def poisson_nll_loss(input, target, log_input, full, eps, reduction):  # noqa: A002
    return functional.poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_named(reduction))


_CONV = {3: functional.conv1d, 4: functional.conv2d, 5: functional.conv3d}
_CONV_T = {3: functional.conv_transpose1d, 4: functional.conv_transpose2d, 5: functional.conv_transpose3d}


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):  # noqa: A002
    """ATen's convolution: the conv (or transposed conv) of input's dimensionality (ConvolutionBackward0)."""
    if transposed:
        return _CONV_T[input.dim()](input, weight, bias, stride, padding, output_padding, groups, dilation)
    return _CONV[input.dim()](input, weight, bias, stride, padding, dilation, groups)


Tensor.prelu = lambda self, weight: functional.prelu(self, weight)


def _cell_weights(w_ih, w_hh, b_ih, b_hh):
    return [w_ih, w_hh, b_ih, b_hh]


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):  # noqa: A002
    return recurrent.tanh_cell(input, hx, _cell_weights(w_ih, w_hh, b_ih, b_hh))


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):  # noqa: A002
    return recurrent.relu_cell(input, hx, _cell_weights(w_ih, w_hh, b_ih, b_hh))


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):  # noqa: A002
    return recurrent.gru_cell(input, hx, _cell_weights(w_ih, w_hh, b_ih, b_hh))


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):  # noqa: A002
    return recurrent.lstm_cell(input, tuple(hx), _cell_weights(w_ih, w_hh, b_ih, b_hh))


def _layer_weights(params, has_biases, projected):
    """torch's flat params (w_ih, w_hh[, b_ih, b_hh][, w_hr] per layer and direction) as recurrent.run takes them."""
    per = (4 if has_biases else 2) + (1 if projected else 0)
    out = []
    for k in range(0, len(params), per):
        w = list(params[k:k + per])
        out.append(w[:2] + (w[2:4] if has_biases else [None, None]) + ([w[-1]] if projected else [None]))
    return out


def _full(mode):
    def layer(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):  # noqa: A002
        lstm = mode == "LSTM"
        projected = lstm and hx[0].shape[-1] != hx[1].shape[-1]
        output, hidden = recurrent.run(mode, input, tuple(hx) if lstm else hx,
                                       _layer_weights(params, has_biases, projected), num_layers, dropout, train,
                                       bidirectional, batch_first)
        return (output, *hidden) if lstm else (output, hidden)

    layer.__name__ = mode.lower()
    return layer


rnn_tanh, rnn_relu, gru, lstm = _full("RNN_TANH"), _full("RNN_RELU"), _full("GRU"), _full("LSTM")


_MODES = ("sum", "mean", "max")


def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False, per_sample_weights=None,
                  include_last_offset=False, padding_idx=None):
    """ATen's embedding_bag: (output, offset2bag, bag_size, max_indices), mode 0 sum, 1 mean, 2 max."""
    return embedding_bag_results(indices, weight, offsets, None, 2, scale_grad_by_freq, _MODES[mode], sparse,
                                 per_sample_weights, include_last_offset, padding_idx)


def adaptive_max_pool1d(input, output_size):  # noqa: A002
    """torch.adaptive_max_pool1d: the values and their indices, always."""
    return functional.adaptive_max_pool1d(input, output_size, return_indices=True)


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):  # noqa: A002
    return functional.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode,
                                 return_indices=True)
