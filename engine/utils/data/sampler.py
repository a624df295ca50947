"""torch.utils.data's samplers (torch/utils/data/sampler.py, 2.13): the indices a DataLoader visits. Their draws
are torch's: RandomSampler without a generator seeds a new Generator from the default one, then draws randperm
from it; with a generator it draws from that one."""
import itertools

import numpy as np

from ... import dtypes, observe
from ...factories import as_tensor
from ...generator import Generator, default_generator, draws
from ...random import multinomial, randint, randperm


def draw_seed(generator=None):
    """torch.empty((), dtype=torch.int64).random_(generator=generator).item(): 63 random bits."""
    gen = default_generator if generator is None else generator
    return int(draws.random_bits(gen, np.empty((), np.int64)))


class Sampler:
    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self):
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        if self.generator is None:
            generator = Generator()
            generator.manual_seed(draw_seed())
        else:
            generator = self.generator
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from _indices(randint, n, (32,), generator=generator, dtype=dtypes.int64)
            yield from _indices(randint, n, (self.num_samples % 32,), generator=generator, dtype=dtypes.int64)
        else:
            for _ in range(self.num_samples // n):
                yield from _indices(randperm, n, generator=generator)
            yield from _indices(randperm, n, generator=generator)[: self.num_samples % n]

    def __len__(self):
        return self.num_samples


def _indices(draw, *args, **kwargs):
    """The indices torch draws as a tensor, as a list: the tensor is the sampler's, no watcher's business."""
    with observe.muted():
        return draw(*args, **kwargs).tolist()


class SubsetRandomSampler(Sampler):
    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in _indices(randperm, len(self.indices), generator=self.generator):
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        with observe.muted():
            weights_tensor = as_tensor(weights, dtype=dtypes.float64)
        if len(weights_tensor.shape) != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights_tensor.shape)}")
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        yield from _indices(multinomial, self.weights, self.num_samples, self.replacement, generator=self.generator)

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        sampler_iter = iter(self.sampler)
        if self.drop_last:
            args = [sampler_iter] * self.batch_size
            for batch_droplast in zip(*args):
                yield [*batch_droplast]
        else:
            batch = [*itertools.islice(sampler_iter, self.batch_size)]
            while batch:
                yield batch
                batch = [*itertools.islice(sampler_iter, self.batch_size)]

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
