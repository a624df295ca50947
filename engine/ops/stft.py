"""torch.stft and torch.istft (and their Tensor methods), as torch/functional.py and ATen's SpectralOps.cpp compose
them of other ops: the centring pad, the frames as a strided view, the window, the transform (spectral.py); istft's
inverse transforms, overlap-add (unfold_backward) and the division by the windows' summed squares."""
from .. import dtypes, messages
from .complex_numbers import _view_as_complex, _view_as_real
from .padding import pad as _pad
from .spectral import c2c, c2r, r2c
from .table import Spelling, composite


def _warn_once(text):
    if text not in messages.WARNED_ONCE or messages.WARN_ALWAYS[0]:
        messages.WARNED_ONCE[text] = True
        messages.warn_at_caller(text)


_NO_WINDOW = ("A window was not provided. A rectangular window will be applied,which is known to cause spectral "
              "leakage. Other windows such as torch.hann_window or torch.hamming_window are recommended to reduce "
              "spectral leakage.To suppress this warning and use a rectangular window, explicitly set "
              "`window=torch.ones(n_fft, device=<device>)`.")
_NOT_COMPLEX = ("stft with return_complex=False is deprecated. In a future pytorch release, stft will return complex "
                "tensors for all inputs, and return_complex=False will raise an error.\nNote: you can still call "
                "torch.view_as_real on the complex output to recover the old return format.")


def _named(t):
    """ATen's Tensor::toString in its stft/istft errors: the legacy type name of a real tensor, the CPU type's
    of a complex one."""
    return f"CPU{t.dtype.type_name}Type" if t.dtype.is_complex else f"torch.{t.dtype.type_name}Tensor"


def _flag(value):
    return "None" if value is None else str(int(value))


def _repr(name, t, fields):
    """The call as ATen's REPR writes it, ahead of its errors' texts."""
    words = []
    for key, value in fields:
        if key == "window":
            value = "None" if value is None else f"{_named(value)}{{{list(value.shape)}}}"
        elif isinstance(value, bool) or value is None:
            value = _flag(value)
        words.append(f"{key}={value}")
    return f"{name}({_named(t)}{list(t.shape)}, {', '.join(words)})"


def _centred_window(window, n_fft, win_length, like):
    """The window padded with zeros on both sides to n_fft (a window of ones where none is given)."""
    left = (n_fft - win_length) // 2
    if window is not None:
        out = window.new_zeros((n_fft,))
        out.narrow(0, left, win_length).copy_(window)
        return out
    out = like.new_zeros((n_fft,))
    out.narrow(0, left, win_length).fill_(1)
    return out


@composite(Spelling(method="stft", function="stft", out=False))
def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",  # noqa: A002
         normalized=False, onesided=None, return_complex=None, align_to_window=None):
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if center:
        signal_dim = input.dim()
        pad = int(n_fft // 2)
        input = _pad(input.view([1] * (3 - signal_dim) + list(input.shape)), [pad, pad], pad_mode)  # noqa: A001
        input = input.view(input.shape[-signal_dim:])  # noqa: A001
    complex_window = window is not None and window.dtype.is_complex
    if return_complex is None:
        return_complex = input.dtype.is_complex or complex_window
        if not return_complex:
            raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will "
                               "further require that return_complex=True in a future PyTorch release.")
    if not return_complex:
        _warn_once(_NOT_COMPLEX)
    if window is None:
        _warn_once(_NO_WINDOW)
    hop_length = n_fft >> 2 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    def call():
        return _repr("stft", input, (("n_fft", n_fft), ("hop_length", hop_length), ("win_length", win_length),
                                     ("window", window), ("normalized", normalized), ("onesided", onesided),
                                     ("return_complex", return_complex), ("align_to_window", align_to_window)))

    if input.dim() not in (1, 2):
        raise RuntimeError(f"{call()} : expected a 1D or 2D tensor")
    x = input.unsqueeze(0) if input.dim() == 1 else input
    if align_to_window:
        left = (n_fft - win_length) // 2
        x = _pad(x, [left, n_fft - win_length - left])
    length = x.shape[1]
    if n_fft <= 0 or n_fft > length:
        raise RuntimeError(f"{call()} : expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop_length <= 0:
        raise RuntimeError(f"{call()} : expected hop_length > 0, but got hop_length={hop_length}")
    if win_length <= 0 or win_length > n_fft:
        raise RuntimeError(f"{call()} : expected 0 < win_length <= n_fft, but got win_length={win_length}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        raise RuntimeError(f"{call()} : expected a 1D window tensor of size equal to win_length={win_length}, but "
                           f"got window with size {list(window.shape)}")
    if win_length < n_fft:
        window = _centred_window(window, n_fft, win_length, input)
    frames = 1 + (length - n_fft) // hop_length
    x = x.as_strided((x.shape[0], frames, n_fft), (x.stride(0), hop_length * x.stride(1), x.stride(1)),
                     x.storage_offset())
    if window is not None:
        x = x * window
    onesided = not x.dtype.is_complex if onesided is None else onesided
    normalization = 1 if normalized else 0
    if x.dtype.is_complex:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        out = c2c(x, [x.dim() - 1], normalization, True)
    else:
        out = r2c(x, [x.dim() - 1], normalization, onesided)
    out.transpose_(1, 2)
    if input.dim() == 1:
        out.squeeze_(0)
    return out if return_complex else _view_as_real(out)


@composite(Spelling(method="istft", function="istft", out=False))
def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,  # noqa: A002
          onesided=None, length=None, return_complex=False):
    if window is None:
        _warn_once(_NO_WINDOW)
    hop_length = n_fft >> 2 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if not input.dtype.is_complex:
        raise RuntimeError("istft requires a complex-valued input tensor matching the output from stft with "
                           "return_complex=True.")
    def call():
        return _repr("istft", input, (("n_fft", n_fft), ("hop_length", hop_length), ("win_length", win_length),
                                      ("window", window), ("center", center), ("normalized", normalized),
                                      ("onesided", onesided), ("length", length), ("return_complex", return_complex)))

    x = _view_as_real(input.resolve_conj())
    ndim = x.dim()
    if x.numel() == 0:
        raise RuntimeError(f"{call()} : input tensor cannot be empty.")
    if ndim not in (3, 4):
        raise RuntimeError(f"{call()} : expected a tensor with 3 or 4 dimensions, but got {ndim}")
    frames, fft_size = x.shape[-2], x.shape[-3]
    expected = n_fft + hop_length * (frames - 1)
    onesided_ = fft_size != n_fft if onesided is None else onesided
    if onesided_ and n_fft // 2 + 1 != fft_size:
        raise RuntimeError(f"{call()} : expected the frequency dimension (3rd to the last) of the input tensor to "
                           f"match n_fft / 2 + 1 when onesided=True, but got {fft_size}")
    if not onesided_ and n_fft != fft_size:
        raise RuntimeError(f"{call()} : expected the frequency dimension (3rd to the last) of the input tensor to "
                           f"match n_fft when onesided=False, but got {fft_size}")
    if not 0 < hop_length <= win_length:
        raise RuntimeError(f"{call()} : expected 0 < hop_length <= win_length")
    if not 0 < win_length <= n_fft:
        raise RuntimeError(f"{call()} : expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        raise RuntimeError(f"{call()} : Invalid window shape. window has to be 1D and length of `win_length`")
    real = dtypes.to_real(input.dtype)
    w = window if window is not None else input.new_ones((win_length,), dtype=real)
    if win_length != n_fft:
        left = (n_fft - win_length) // 2
        w = _pad(w, [left, n_fft - win_length - left])
    if ndim == 3:
        x = x.unsqueeze(0)
    x = _view_as_complex(x.transpose(1, 2))
    normalization = 1 if normalized else 2
    if return_complex:
        if onesided_:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        x = c2c(x, [x.dim() - 1], normalization, False)
    else:
        if window is not None and window.dtype.is_complex:
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not onesided_:
            x = x.narrow(-1, 0, n_fft // 2 + 1)
        x = c2r(x, [x.dim() - 1], normalization, n_fft)
    y = (x * w.view(1, 1, n_fft))._op("unfold_backward", shape=(x.shape[0], expected), dim=1, size=n_fft,
                                      step=hop_length)
    envelope = w.pow(2).expand(1, frames, n_fft)._op("unfold_backward", shape=(1, expected), dim=1, size=n_fft,
                                                     step=hop_length)
    start = n_fft // 2 if center else 0
    end = start + length if length is not None else -(n_fft // 2) if center else expected
    y = y[:, start:end]
    envelope = envelope[:, start:end]
    if bool((envelope.abs().min() < 1e-11).item()):
        raise RuntimeError(f"{call()} window overlap add min: 1\n[ CPUBoolType{{}} ]")
    y = y / envelope
    if ndim == 3:
        y = y.squeeze(0)
    if end > expected:
        _warn_once("The length of signal is shorter than the length parameter. Result is being padded with zeros "
                   "in the tail. Please check your center and hop_length settings.")
        y = _pad(y, [0, end - expected])
    return y
