"""Real torchvision 0.28 (tests/requirements-oracle.txt), the truth engine/vision is tested against.

The wheel's C++ ops are built against CUDA torch and do not load on the CPU oracle; torchvision then still
registers fake kernels for two of them (torchvision::nms, qnms) and would fail to import. Their schemas, defined
here first, let the Python parts import: transforms, models, datasets and utils use none of the C++ ops."""
import sys

import torch

if "torchvision" not in sys.modules:  # (this file may be imported under two names: tests.engine.torchvision_truth)
    _SCHEMAS = torch.library.Library("torchvision", "DEF")
    for _op in ("nms", "qnms"):
        _SCHEMAS.define(f"{_op}(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")

import torchvision  # noqa: E402
from torchvision import datasets, models, ops, transforms, utils  # noqa: E402
from torchvision.transforms import functional  # noqa: E402

__all__ = ["datasets", "functional", "models", "ops", "torchvision", "transforms", "utils"]
