"""PyTorch's CPU random engine: the 32-bit Mersenne Twister of aten/src/ATen/core/MT19937RNGEngine.h, its
state fields (seed, left, seeded, next, state) kept as PyTorch keeps them (a block of 624 words is read until
`left` runs out, then twisted)."""
import numpy as np

N = 624
_NUMPY = np.random.MT19937(0)  # its state is set before each use: the twist and tempering, done in C


class MT19937:
    __slots__ = ("seed", "left", "seeded", "next", "state")

    def __init__(self, seed=5489):
        self.reseed(seed)

    def reseed(self, seed):
        """init_genrand with the seed's low 32 bits; `seed` keeps all 64 (torch.initial_seed() returns it)."""
        self.seed = seed
        self.seeded = True
        state = [seed & 0xFFFFFFFF]
        for j in range(1, N):
            prev = state[-1]
            state.append((1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFFFFFF)
        self.state = np.array(state, dtype=np.uint32)
        self.left = 1
        self.next = 0

    def copy(self):
        other = MT19937.__new__(MT19937)
        other.seed, other.left, other.seeded, other.next = self.seed, self.left, self.seeded, self.next
        other.state = self.state.copy()
        return other

    def words(self, n):
        """The next n 32-bit outputs, as uint32: those left in the current block, then (twisting the state for
        each new block) numpy's MT19937, which is the same reference generator, run from this state."""
        k = max(0, min(n, self.left - 1, N - self.next))  # the reads before the one that twists
        head = _temper(self.state[self.next:self.next + k])
        self.next += k
        self.left -= k
        if k == n:
            return head
        _NUMPY.state = {"bit_generator": "MT19937", "state": {"key": self.state, "pos": N}}
        tail = _NUMPY.random_raw(n - k).astype(np.uint32)
        after = _NUMPY.state["state"]
        self.state = np.array(after["key"], dtype=np.uint32)
        self.next = int(after["pos"])
        self.left = N + 1 - self.next
        return np.concatenate([head, tail])

    def is_valid(self):
        return bool(self.seeded) and 0 < self.left <= N and self.next <= N


def _temper(y):
    y = y ^ (y >> np.uint32(11))
    y = y ^ ((y << np.uint32(7)) & np.uint32(0x9D2C5680))
    y = y ^ ((y << np.uint32(15)) & np.uint32(0xEFC60000))
    return y ^ (y >> np.uint32(18))
