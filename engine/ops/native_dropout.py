"""ATen's native_dropout (torch.native_dropout(input, p, train)): output = input · mask · scale with the mask drawn
by the caller (nn/basic_functions.py), NativeDropoutBackward0 saving p and the mask (result1). Its grad uses scale
1 when train is None, though the forward then drops as in training: derivatives.yaml's formula."""
from .table import Spelling, op


def _forward(a, result1, p, train, scale):
    return a * result1._data.astype(a.dtype) * a.dtype.type(scale)


def _grad(n, g):
    train, p = n.attrs["train"], n.attrs["p"]
    scale = 1.0 if not train else 0.0 if p == 1 else 1.0 / (1.0 - p)
    return g * (n.attrs["result1"].to(g.dtype) * scale)


op("native_dropout", "NativeDropoutBackward0", ("input",), _forward, ("grad · mask · scale", _grad),
   saves={0: ("result1", "p")}, bind=False,
   spell=Spelling(name=lambda s, a: f"torch.native_dropout({s[0]}, {a['p']!r}, …)[0]"))
