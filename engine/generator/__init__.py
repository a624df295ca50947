"""PyTorch's CPU random number generator (at::CPUGeneratorImpl): an mt19937 engine plus the cached second
sample of the Box–Muller normal, seeded, saved and restored as PyTorch does it, and the distributions that
draw from it (draws.py) as numpy arrays, value for value.

The Tensor-facing parts (`get_state`/`set_state` with a uint8 tensor, the torch.* functions, the in-place
methods) are added above this layer (engine/random.py, engine/ops/random.py).
"""
import os
import struct

import numpy as np

from .mt19937 import MT19937, N

DEFAULT_SEED = 67280421310721  # c10::detail::default_rng_seed_val: the seed of a new torch.Generator()

# CPUGeneratorImplState as memcpy'd by torch.get_rng_state() (x86-64 layout, little endian): the legacy part
# (initial seed, left, seeded, next, 624 state words widened to 64 bits, three unused doubles of which normal_y
# holds the cached double normal sample, normal_is_valid), then the cached float sample and its flag.
_HEAD = struct.Struct("<QiiQ")
_NORMAL = struct.Struct("<dddi4x")
_FLOAT = struct.Struct("<f?3x")
STATE_SIZE = _HEAD.size + 8 * N + _NORMAL.size + _FLOAT.size  # 5056


REFUSING = []  # while torch.func.vmap runs a function: the error a random draw raises there (None: none)


def nondeterministic_seed():
    """What c10::detail::getNonDeterministicRandom gives a fresh process: 64 random bits."""
    return int.from_bytes(os.urandom(8), "little")


class Generator:
    """torch.Generator on the CPU."""

    def __init__(self, device="cpu"):
        if str(device).split(":")[0] != "cpu":
            raise RuntimeError(f"Device type {str(device).split(':')[0].upper()} is not supported for the engine's "
                               "generators: it runs on the CPU only")
        self._engine = MT19937(DEFAULT_SEED)
        self._next_double_normal = None
        self._next_float_normal = None

    @property
    def device(self):
        return "cpu"

    def __repr__(self):
        return f"<torch._C.Generator object at {hex(id(self))}>"

    def manual_seed(self, seed):
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        if not -(1 << 63) <= seed < (1 << 64):
            raise ValueError("Overflow when unpacking long long")
        self._set_seed(seed & 0xFFFFFFFFFFFFFFFF)
        return self

    def _set_seed(self, seed):
        self._next_double_normal = None
        self._next_float_normal = None
        self._engine.reseed(seed)

    def seed(self):
        seed = nondeterministic_seed()
        self._set_seed(seed)
        return seed

    def initial_seed(self):
        return self._engine.seed

    def clone_state(self):
        """(engine, cached normals): what `restore` puts back."""
        return self._engine.copy(), self._next_double_normal, self._next_float_normal

    def restore(self, state):
        engine, self._next_double_normal, self._next_float_normal = state
        self._engine = engine.copy()

    # --- draws ---------------------------------------------------------------------------------
    def random(self, n):
        """n draws of generator->random(): 32 bits each, as uint64."""
        if REFUSING and REFUSING[-1]:
            raise RuntimeError(REFUSING[-1])
        return self._engine.words(n).astype(np.uint64)

    def random64(self, n):
        """n draws of generator->random64(): two 32-bit words each, the first the high half."""
        if REFUSING and REFUSING[-1]:
            raise RuntimeError(REFUSING[-1])
        w = self._engine.words(2 * n).astype(np.uint64)
        return (w[0::2] << np.uint64(32)) | w[1::2]

    # --- the state as torch.get_rng_state() bytes -------------------------------------------------
    def state_bytes(self):
        e = self._engine
        dn, fn = self._next_double_normal, self._next_float_normal
        return np.frombuffer(
            _HEAD.pack(e.seed, e.left, int(e.seeded), e.next) + e.state.astype("<u8").tobytes()
            + _NORMAL.pack(0.0, 0.0 if dn is None else dn, 0.0, dn is not None)
            + _FLOAT.pack(0.0 if fn is None else fn, fn is not None), dtype=np.uint8).copy()

    def load_state_bytes(self, data):
        data = np.ascontiguousarray(data, dtype=np.uint8).tobytes()
        if len(data) != STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_SIZE} but found the input RNG "
                               f"state size to be {len(data)}")
        seed, left, seeded, nxt = _HEAD.unpack_from(data, 0)
        words = np.frombuffer(data, dtype="<u8", count=N, offset=_HEAD.size)
        _, normal_y, _, normal_valid = _NORMAL.unpack_from(data, _HEAD.size + 8 * N)
        float_sample, float_valid = _FLOAT.unpack_from(data, _HEAD.size + 8 * N + _NORMAL.size)
        engine = MT19937.__new__(MT19937)
        # as CPUGeneratorImpl::set_state: the state words narrowed to 32 bits, `seeded` to a bool, `next` to uint32
        engine.seed, engine.left, engine.seeded, engine.next = seed, left, seeded != 0, nxt & 0xFFFFFFFF
        engine.state = words.astype(np.uint32)
        if not engine.is_valid():
            raise RuntimeError("Invalid mt19937 state")
        self._engine = engine
        self._next_double_normal = normal_y if normal_valid else None
        self._next_float_normal = float_sample if float_valid else None


default_generator = Generator()
default_generator.manual_seed(nondeterministic_seed())  # a fresh torch process seeds its default from the OS
