"""torchvision 0.28's ops/boxes.py, its axis-aligned box arithmetic (BSD-3-Clause, the torchvision contributors):
box_convert, box_area, box_iou, generalized_box_iou, clip_boxes_to_image. (nms and the other C++ ops are not
here.)"""
from . import _torch as torch

AXIS_ALIGNED = ("xyxy", "xywh", "cxcywh")


def _upcast(t):
    if t.is_floating_point():
        return t if t.dtype in (torch.float32, torch.float64) else t.float()
    return t if t.dtype in (torch.int32, torch.int64) else t.int()


def _to_xyxy(boxes, fmt):
    a, b, c, d = boxes.unbind(-1)
    if fmt == "xywh":
        return torch.stack([a, b, a + c, b + d], dim=-1)
    return torch.stack((a - 0.5 * c, b - 0.5 * d, a + 0.5 * c, b + 0.5 * d), dim=-1)


def _from_xyxy(boxes, fmt):
    x1, y1, x2, y2 = boxes.unbind(-1)
    if fmt == "xywh":
        return torch.stack((x1, y1, x2 - x1, y2 - y1), dim=-1)
    return torch.stack(((x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1), dim=-1)


def box_convert(boxes, in_fmt, out_fmt):
    if in_fmt not in AXIS_ALIGNED + ("xywhr", "cxcywhr", "xyxyxyxy") or out_fmt not in AXIS_ALIGNED + (
            "xywhr", "cxcywhr", "xyxyxyxy"):
        raise ValueError(f"Unsupported Bounding Box Conversions for given in_fmt {in_fmt} and out_fmt {out_fmt}")
    if in_fmt == out_fmt:
        return boxes.clone()
    if in_fmt not in AXIS_ALIGNED or out_fmt not in AXIS_ALIGNED:
        raise NotImplementedError("rotated boxes are not available in the explorer: use xyxy, xywh or cxcywh")
    if in_fmt != "xyxy":
        boxes = _to_xyxy(boxes, in_fmt)
    return boxes if out_fmt == "xyxy" else _from_xyxy(boxes, out_fmt)


def box_area(boxes, fmt="xyxy"):
    if fmt not in AXIS_ALIGNED:
        raise ValueError(f"Unsupported Bounding Box area for given format {fmt}")
    boxes = _upcast(boxes)
    if fmt == "xyxy":
        return (boxes[..., 2] - boxes[..., 0]) * (boxes[..., 3] - boxes[..., 1])
    return boxes[..., 2] * boxes[..., 3]


def _box_inter_union(boxes1, boxes2, fmt="xyxy"):
    area1 = box_area(boxes1, fmt=fmt)
    area2 = box_area(boxes2, fmt=fmt)
    if fmt not in AXIS_ALIGNED:
        raise ValueError(f"Unsupported Box IoU Calculation for given fmt {fmt}.")
    if fmt == "xyxy":
        lt = torch.max(boxes1[..., None, :2], boxes2[..., None, :, :2])
        rb = torch.min(boxes1[..., None, 2:], boxes2[..., None, :, 2:])
    elif fmt == "xywh":
        lt = torch.max(boxes1[..., None, :2], boxes2[..., None, :, :2])
        rb = torch.min(boxes1[..., None, :2] + boxes1[..., None, 2:],
                       boxes2[..., None, :, :2] + boxes2[..., None, :, 2:])
    else:
        lt = torch.max(boxes1[..., None, :2] - boxes1[..., None, 2:] / 2,
                       boxes2[..., None, :, :2] - boxes2[..., None, :, 2:] / 2)
        rb = torch.min(boxes1[..., None, :2] + boxes1[..., None, 2:] / 2,
                       boxes2[..., None, :, :2] + boxes2[..., None, :, 2:] / 2)
    wh = _upcast(rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter, area1[..., None] + area2[..., None, :] - inter


def box_iou(boxes1, boxes2, fmt="xyxy"):
    if fmt in AXIS_ALIGNED:
        inter, union = _box_inter_union(boxes1, boxes2, fmt=fmt)
        return inter / union
    if fmt in ("cxcywhr", "xywhr", "xyxyxyxy"):
        raise NotImplementedError("rotated boxes are not available in the explorer: use xyxy, xywh or cxcywh")
    raise ValueError(f"Unsupported format '{fmt}'. Supported axis-aligned formats: {AXIS_ALIGNED}. Supported "
                     "rotated formats: ('cxcywhr', 'xywhr', 'xyxyxyxy').")


def generalized_box_iou(boxes1, boxes2):
    inter, union = _box_inter_union(boxes1, boxes2)
    iou = inter / union
    lti = torch.min(boxes1[..., None, :2], boxes2[..., None, :, :2])
    rbi = torch.max(boxes1[..., None, 2:], boxes2[..., None, :, 2:])
    whi = _upcast(rbi - lti).clamp(min=0)
    areai = whi[..., 0] * whi[..., 1]
    return iou - (areai - union) / areai


def clip_boxes_to_image(boxes, size):
    dim = boxes.dim()
    height, width = size
    boxes_x = boxes[..., 0::2].clamp(min=0, max=width)
    boxes_y = boxes[..., 1::2].clamp(min=0, max=height)
    return torch.stack((boxes_x, boxes_y), dim=dim).reshape(boxes.shape)
