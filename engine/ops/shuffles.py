"""pixel_shuffle, pixel_unshuffle and channel_shuffle: rearrangements with nodes of their own (each one's grad is
the inverse rearrangement)."""
import numpy as np

from .table import OPS, Spelling, op


def _pixel_shuffle(a, upscale_factor):
    r = upscale_factor
    *lead, c, h, w = a.shape
    out = a.reshape(*lead, c // (r * r), r, r, h, w)
    k = len(lead)
    out = out.transpose(*range(k), k, k + 3, k + 1, k + 4, k + 2)
    return np.ascontiguousarray(out).reshape(*lead, c // (r * r), h * r, w * r)


def _pixel_unshuffle(a, downscale_factor):
    r = downscale_factor
    *lead, c, h, w = a.shape
    out = a.reshape(*lead, c, h // r, r, w // r, r)
    k = len(lead)
    out = out.transpose(*range(k), k, k + 2, k + 4, k + 1, k + 3)
    return np.ascontiguousarray(out).reshape(*lead, c * r * r, h // r, w // r)


def _channel_shuffle(a, groups):
    n, c = a.shape[:2]
    out = a.reshape(n, groups, c // groups, *a.shape[2:]).swapaxes(1, 2)
    return np.ascontiguousarray(out).reshape(a.shape)


def _check_shuffle(name, factor_name, self, factor):
    if self.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input with "
                           f"{self.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects {factor_name} to be greater than 0, but got: {factor}")
    c, h, w = self.shape[-3:]
    if name == "pixel_shuffle" and c % (factor * factor):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
                           f"of upscale_factor, but input.size(-3)={c} is not divisible by {factor * factor}")
    if name == "pixel_unshuffle" and (h % factor or w % factor):
        which = ("height", h) if h % factor else ("width", w)
        raise RuntimeError(f"pixel_unshuffle expects {which[0]} to be divisible by downscale_factor, but "
                           f"input.size(-{2 if which[0] == 'height' else 1})={which[1]} is not divisible by "
                           f"{factor}")
    return OPS[name], (self,), {factor_name: int(factor)}, None


def _bind_pixel_shuffle(self, upscale_factor):
    return _check_shuffle("pixel_shuffle", "upscale_factor", self, upscale_factor)


def _bind_pixel_unshuffle(self, downscale_factor):
    return _check_shuffle("pixel_unshuffle", "downscale_factor", self, downscale_factor)


def _bind_channel_shuffle(self, groups, op="channel_shuffle"):
    if self.dim() < 3:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(self.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    if self.shape[1] % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {self.shape[1]} channels and "
                           f"{groups} groups.")
    return OPS[op], (self,), {"groups": int(groups)}, None


def _native_not_differentiable(n, g):
    raise RuntimeError("derivative for aten::native_channel_shuffle is not implemented")


op("pixel_shuffle", "PixelShuffleBackward0", ("self",), _pixel_shuffle,
   ("pixel_unshuffle(grad)", lambda n, g: g._op("pixel_unshuffle", downscale_factor=n.attrs["upscale_factor"])),
   saves={0: ("upscale_factor",)}, bind=_bind_pixel_shuffle,
   spell=Spelling(function="pixel_shuffle", functional="pixel_shuffle", out=False,
                  name=lambda s, a: f"pixel_shuffle({s[0]}, {a['upscale_factor']})"))
op("pixel_unshuffle", "PixelUnshuffleBackward0", ("self",), _pixel_unshuffle,
   ("pixel_shuffle(grad)", lambda n, g: g._op("pixel_shuffle", upscale_factor=n.attrs["downscale_factor"])),
   saves={0: ("downscale_factor",)}, bind=_bind_pixel_unshuffle,
   spell=Spelling(function="pixel_unshuffle", functional="pixel_unshuffle", out=False,
                  name=lambda s, a: f"pixel_unshuffle({s[0]}, {a['downscale_factor']})"))
op("channel_shuffle", "ChannelShuffleBackward0", ("self",), _channel_shuffle,
   ("channel_shuffle(grad, C / groups)",
    lambda n, g: g._op("channel_shuffle", groups=n._shapes[0][1] // n.attrs["groups"])),
   saves={0: ("groups",)}, bind=_bind_channel_shuffle,
   spell=Spelling(function="channel_shuffle", functional="channel_shuffle", out=False,
                  name=lambda s, a: f"channel_shuffle({s[0]}, {a['groups']})"))
op("native_channel_shuffle", "NotImplemented", ("self",), _channel_shuffle,
   ("not implemented", _native_not_differentiable),
   bind=lambda self, groups: _bind_channel_shuffle(self, groups, "native_channel_shuffle"),
   spell=Spelling(function="native_channel_shuffle", out=False,
                  name=lambda s, a: f"native_channel_shuffle({s[0]}, {a['groups']})"))
