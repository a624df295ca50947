"""torch.nn.utils.fusion (torch/nn/utils/fusion.py): a Conv or Linear followed by a BatchNorm in eval mode folded
into one new Conv or Linear whose weight and bias give what the pair gave."""
import copy

from ... import factories
from ..parameter import Parameter


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    shape = ([1, -1] if transpose else [-1, 1]) + [1] * (len(conv_w.shape) - 2)
    w, b = conv_w, conv_b
    w_dtype = w.dtype
    b_dtype = w_dtype if b is None else b.dtype
    b = factories.zeros_like(bn_rm) if b is None else b
    bn_w = factories.ones_like(bn_rm) if bn_w is None else bn_w
    bn_b = factories.zeros_like(bn_rm) if bn_b is None else bn_b
    scale = (bn_rv + bn_eps).rsqrt()
    fused_w = (w * (bn_w * scale).reshape(shape)).to(dtype=w_dtype)
    fused_b = ((b - bn_rm) * scale * bn_w + bn_b).to(dtype=b_dtype)
    return Parameter(fused_w, w.requires_grad), Parameter(fused_b, b.requires_grad)


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    w_dtype = linear_w.dtype
    b_dtype = w_dtype if linear_b is None else linear_b.dtype
    linear_b = factories.zeros_like(bn_rm) if linear_b is None else linear_b
    scale = bn_w * (bn_rv + bn_eps).rsqrt()
    fused_w = linear_w * scale.unsqueeze(-1).to(dtype=w_dtype)
    fused_b = ((linear_b - bn_rm) * scale + bn_b).to(dtype=b_dtype)
    return Parameter(fused_w, linear_w.requires_grad), Parameter(fused_b, linear_b.requires_grad)


def fuse_conv_bn_eval(conv, bn, transpose=False):
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var,
                                                    bn.eps, bn.weight, bn.bias, transpose)
    return fused


def fuse_linear_bn_eval(linear, bn):
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError("To fuse, linear.out_features == bn.num_features or bn.num_features == 1, got "
                             f"linear.out_features={linear.out_features} and bn.num_features={bn.num_features}")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused = copy.deepcopy(linear)
    fused.weight, fused.bias = fuse_linear_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var,
                                                      bn.eps, bn.weight, bn.bias)
    return fused
