"""PyTorch 2.13's own texts for the errors and warnings a learner meets."""

BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
    "or if you need to access saved tensors after calling backward."
)
NOT_SCALAR = "grad can be implicitly created only for scalar outputs"
NO_GRAD_FN = "element {i} of tensors does not require grad and does not have a grad_fn"
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."
MODIFIED_SAVED = (
    "one of the variables needed for gradient computation has been modified by an inplace operation: "
    "[{desc}]{producer} is at version {version}; expected version {expected} instead. Hint: enable anomaly "
    "detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
INT_REQUIRES_GRAD = "Only Tensors of floating point and complex dtype can require gradients"
NON_LEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
    "in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)
GRAD_SHAPE_MISMATCH = (
    "Mismatch in shape: grad_output[{i}] has a shape of {got} and output[{i}] has a shape of {want}."
)
BROADCAST = (
    "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {dim}"
)
ITEM_MANY = "a Tensor with {n} elements cannot be converted to Scalar"
NUMPY_REQUIRES_GRAD = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
    "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
    "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor "
    "by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
    "for more information."
)
