"""The engine's classes as a program sees them printed: `type(x)` of a tensor is <class 'torch.Tensor'>, of a
layer <class 'torch.nn.modules.linear.Linear'>, of an optimizer <class 'torch.optim.sgd.SGD'>, as in torch.

A class with one of these metaclasses names itself by its `_torch_name`; its subclasses without one (a program's
own) print as any class does."""
import abc


class TorchClass(type):
    def __repr__(cls):
        name = cls.__dict__.get("_torch_name")
        return f"<class '{name}'>" if name else type.__repr__(cls)


class TorchABCClass(abc.ABCMeta):
    """The metaclass of nn.Module, Optimizer and LRScheduler: an ABCMeta, so that a program's own module may also
    derive from abc.ABC, with type's own isinstance and issubclass (no registry: nothing registers with these)."""

    __instancecheck__ = type.__instancecheck__
    __subclasscheck__ = type.__subclasscheck__
    __repr__ = TorchClass.__repr__


# The torch module each of the engine's layers, optimizers and schedulers is defined in (its torch name is
# module.ClassName), by class name.
_TORCH_MODULES = {
    "torch.nn.modules.activation": "CELU ELU GELU GLU Hardshrink Hardsigmoid Hardswish Hardtanh LeakyReLU "
                                   "LogSigmoid LogSoftmax Mish MultiheadAttention PReLU RReLU ReLU ReLU6 SELU SiLU "
                                   "Sigmoid Softmax Softmax2d Softmin Softplus Softshrink Softsign Tanh Tanhshrink "
                                   "Threshold",
    "torch.nn.modules.adaptive": "AdaptiveLogSoftmaxWithLoss",
    "torch.nn.modules.batchnorm": "BatchNorm1d BatchNorm2d BatchNorm3d LazyBatchNorm1d LazyBatchNorm2d "
                                  "LazyBatchNorm3d SyncBatchNorm",
    "torch.nn.modules.channelshuffle": "ChannelShuffle",
    "torch.nn.modules.container": "Container ModuleDict ModuleList ParameterDict ParameterList Sequential",
    "torch.nn.modules.conv": "Conv1d Conv2d Conv3d ConvTranspose1d ConvTranspose2d ConvTranspose3d LazyConv1d "
                             "LazyConv2d LazyConv3d LazyConvTranspose1d LazyConvTranspose2d LazyConvTranspose3d",
    "torch.nn.modules.distance": "CosineSimilarity PairwiseDistance",
    "torch.nn.modules.dropout": "AlphaDropout Dropout Dropout1d Dropout2d Dropout3d FeatureAlphaDropout",
    "torch.nn.modules.flatten": "Flatten Unflatten",
    "torch.nn.modules.fold": "Fold Unfold",
    "torch.nn.modules.instancenorm": "InstanceNorm1d InstanceNorm2d InstanceNorm3d LazyInstanceNorm1d "
                                     "LazyInstanceNorm2d LazyInstanceNorm3d",
    "torch.nn.modules.linear": "Bilinear Identity LazyLinear Linear",
    "torch.nn.modules.loss": "BCELoss BCEWithLogitsLoss CTCLoss CosineEmbeddingLoss CrossEntropyLoss "
                             "GaussianNLLLoss HingeEmbeddingLoss HuberLoss KLDivLoss L1Loss LinearCrossEntropyLoss "
                             "MSELoss MarginRankingLoss MultiLabelMarginLoss MultiLabelSoftMarginLoss "
                             "MultiMarginLoss NLLLoss NLLLoss2d PoissonNLLLoss SmoothL1Loss SoftMarginLoss "
                             "TripletMarginLoss TripletMarginWithDistanceLoss",
    "torch.nn.modules.module": "Module",
    "torch.nn.modules.normalization": "GroupNorm LayerNorm LocalResponseNorm RMSNorm",
    "torch.nn.modules.padding": "CircularPad1d CircularPad2d CircularPad3d ConstantPad1d ConstantPad2d "
                                "ConstantPad3d ReflectionPad1d ReflectionPad2d ReflectionPad3d ReplicationPad1d "
                                "ReplicationPad2d ReplicationPad3d ZeroPad1d ZeroPad2d ZeroPad3d",
    "torch.nn.modules.pixelshuffle": "PixelShuffle PixelUnshuffle",
    "torch.nn.modules.pooling": "AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d "
                                "AdaptiveMaxPool2d AdaptiveMaxPool3d AvgPool1d AvgPool2d AvgPool3d "
                                "FractionalMaxPool2d FractionalMaxPool3d LPPool1d LPPool2d LPPool3d MaxPool1d "
                                "MaxPool2d MaxPool3d MaxUnpool1d MaxUnpool2d MaxUnpool3d",
    "torch.nn.modules.rnn": "GRU GRUCell LSTM LSTMCell RNN RNNBase RNNCell RNNCellBase",
    "torch.nn.modules.sparse": "Embedding EmbeddingBag",
    "torch.nn.modules.transformer": "Transformer TransformerDecoder TransformerDecoderLayer TransformerEncoder "
                                    "TransformerEncoderLayer",
    "torch.nn.modules.upsampling": "Upsample UpsamplingBilinear2d UpsamplingNearest2d",
    "torch.nn.parallel.data_parallel": "DataParallel",
    "torch.optim": "Adafactor Muon",
    "torch.optim.adadelta": "Adadelta", "torch.optim.adagrad": "Adagrad", "torch.optim.adam": "Adam",
    "torch.optim.adamax": "Adamax", "torch.optim.adamw": "AdamW", "torch.optim.asgd": "ASGD",
    "torch.optim.lbfgs": "LBFGS", "torch.optim.nadam": "NAdam", "torch.optim.optimizer": "Optimizer",
    "torch.optim.radam": "RAdam", "torch.optim.rmsprop": "RMSprop", "torch.optim.rprop": "Rprop",
    "torch.optim.sgd": "SGD", "torch.optim.sparse_adam": "SparseAdam",
    "torch.optim.lr_scheduler": "ChainedScheduler ConstantLR CosineAnnealingLR CosineAnnealingWarmRestarts "
                                "CyclicLR ExponentialLR LRScheduler LambdaLR LinearLR MultiStepLR "
                                "MultiplicativeLR OneCycleLR PolynomialLR ReduceLROnPlateau SequentialLR StepLR "
                                "_LRScheduler",
}
TORCH_PATHS = {name: f"{module}.{name}" for module, names in _TORCH_MODULES.items() for name in names.split()}


def name_as_torch(cls):
    """Give one of the engine's own classes (not a program's) its torch name, if torch has a class so named."""
    if cls.__module__.startswith("engine.") and cls.__name__ in TORCH_PATHS:
        cls._torch_name = TORCH_PATHS[cls.__name__]
