"""PyTorch's CPU random engine: the 32-bit Mersenne Twister of aten/src/ATen/core/MT19937RNGEngine.h, its
state fields (seed, left, seeded, next, state) kept as PyTorch keeps them, the twist done on numpy arrays."""
import numpy as np

N = 624
M = 397
MATRIX_A = np.uint32(0x9908B0DF)
UPPER = np.uint32(0x80000000)
LOWER = np.uint32(0x7FFFFFFF)


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

    def _twist(self):
        s = self.state
        # state[i] = state[i + M] ^ twist(state[i], state[i + 1]), in place and in order: done in three slices
        # whose right-hand sides are already final when read.
        for lo, hi in ((0, N - M), (N - M, 2 * (N - M)), (2 * (N - M), N - 1)):
            s[lo:hi] = s[(lo + M) % N:(hi + M - 1) % N + 1] ^ _twist(s[lo:hi], s[lo + 1:hi + 1])
        s[N - 1] = s[M - 1] ^ _twist(s[N - 1:N], s[0:1])[0]
        self.left = N
        self.next = 0

    def words(self, n):
        """The next n 32-bit outputs, as uint32."""
        out = np.empty(n, dtype=np.uint32)
        done = 0
        while done < n:
            self.left -= 1
            if self.left == 0:
                self._twist()
            take = min(n - done, self.left, N - self.next)  # reads until the one that twists again
            if take == 0:  # a state torch would read past its array with (next == 624 and left > 1)
                self._twist()
                continue
            out[done:done + take] = self.state[self.next:self.next + take]
            self.next += take
            self.left -= take - 1
            done += take
        return _temper(out)

    def is_valid(self):
        return bool(self.seeded) and 0 < self.left <= N and self.next <= N


def _twist(u, v):
    y = (u & UPPER) | (v & LOWER)
    return (y >> np.uint32(1)) ^ np.where(v & np.uint32(1), MATRIX_A, np.uint32(0))


def _temper(y):
    y = y ^ (y >> np.uint32(11))
    y = y ^ ((y << np.uint32(7)) & np.uint32(0x9D2C5680))
    y = y ^ ((y << np.uint32(15)) & np.uint32(0xEFC60000))
    return y ^ (y >> np.uint32(18))
