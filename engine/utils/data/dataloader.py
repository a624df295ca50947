"""torch.utils.data.DataLoader (torch/utils/data/dataloader.py, 2.13), loading in the program's own process.

Each iteration draws torch's base seed (63 bits from the loader's generator, or the default one) when it starts,
as torch does whatever the number of workers; shuffling draws from the sampler (sampler.py). A batch is fetched
and collated unheard, then reported to a watcher as tensors arriving: the explorer shows the batches, not the
indexing and stacking that made them.

There are no worker processes (none in Pyodide, nor in the explorer's sandbox): num_workers > 0 loads as
num_workers=0 does. The batches are the same, in the same order, from the same draws of the generator that
shuffles; what differs is only what torch does in the workers: worker_init_fn is not called, get_worker_info()
is None, a Dataset's own random draws come from the program's generators (not from each worker's, seeded with
base_seed + worker_id), an IterableDataset is iterated once (not once per worker), and changes a Dataset makes
to itself are kept (a worker changes its copy). torch's warning about more workers than CPUs is not given.
"""
import warnings

from ... import observe
from .collate import default_collate, default_convert
from .dataset import IterableDataset, TensorDataset, arrived
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, draw_seed

NO_ACCELERATOR = ("'pin_memory' argument is set as true but no accelerator is found, then device pinned memory "
                  "won't be used.")
_GUARDED = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers")


def get_worker_info():
    """None: the data is loaded in the program's own process."""
    return None


def _tensor_rows(dataset, index, collate_fn):
    """A TensorDataset's batch as default_collate makes it ([stack of each tensor's rows], the same values, dtype
    and layout), taken with one index per tensor instead of a select per sample and a stack: None where that
    would not be the same (tensors that require grad, whose graph would differ; indices out of range)."""
    if type(dataset) is not TensorDataset or collate_fn is not default_collate:
        return None
    n = len(dataset)
    if not all(type(i) is int and -n <= i < n for i in index):
        return None
    if any(t.requires_grad for t in dataset.tensors):
        return None
    return [t[list(index)] for t in dataset.tensors]


class _InfiniteConstantSampler(Sampler):
    def __iter__(self):
        while True:
            yield None


class DataLoader:
    _initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
                             "to enable multiprocessing, otherwise set prefetch_factor to None.")
        elif num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError("multiprocessing_context can only be used with multi-process loading (num_workers > 0), "
                             f"but got num_workers={num_workers}")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in {False, None}:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 f"sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, but "
                                 f"got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if sampler is None:
            if self._iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._initialized = True
        self._IterableDataset_len_called = None

    def __setattr__(self, attr, val):
        if self._initialized and attr in _GUARDED:
            raise ValueError(f"{attr} attribute should not be set after {self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self):
        return _SingleProcessDataLoaderIter(self)

    def __len__(self):
        if self._iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else -(-length // self.batch_size)
            return length
        return len(self._index_sampler)


class _SingleProcessDataLoaderIter:
    """What iterating a DataLoader (num_workers=0) gives, named as torch names it."""

    def __init__(self, loader):
        self._dataset = loader.dataset
        self._iterable = loader._iterable
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be used as the device,"
                          f"ignore pin_memory_device='{loader.pin_memory_device}'.", stacklevel=2)
        if loader.pin_memory:
            warnings.warn(NO_ACCELERATOR, stacklevel=2)
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = draw_seed(loader.generator)
        if loader.timeout != 0 and loader.num_workers == 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        self._num_yielded = 0
        self._dataset_iter = iter(self._dataset) if self._iterable else None
        self._ended = False

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._index_sampler)

    def __next__(self):
        with observe.muted():
            index = next(self._sampler_iter)
            data = self._fetch(index)
        self._num_yielded += 1
        if (self._iterable and self._IterableDataset_len_called is not None
                and self._num_yielded > self._IterableDataset_len_called):
            warnings.warn(f"Length of IterableDataset {self._dataset} was reported to be "
                          f"{self._IterableDataset_len_called}(when accessing len(dataloader)), but "
                          f"{self._num_yielded} samples have been fetched. ", stacklevel=2)
        return arrived(data)

    def _fetch(self, index):
        if self._iterable:
            return self._fetch_iterable(index)
        if self._auto_collation:
            rows = _tensor_rows(self._dataset, index, self._collate_fn)
            if rows is not None:
                return rows
            if hasattr(self._dataset, "__getitems__") and self._dataset.__getitems__:
                data = self._dataset.__getitems__(index)
            else:
                data = [self._dataset[idx] for idx in index]
        else:
            data = self._dataset[index]
        return self._collate_fn(data)

    def _fetch_iterable(self, index):
        if self._ended:
            raise StopIteration
        if self._auto_collation:
            data = []
            for _ in index:
                try:
                    data.append(next(self._dataset_iter))
                except StopIteration:
                    self._ended = True
                    break
            if len(data) == 0 or (self._drop_last and len(data) < len(index)):
                raise StopIteration
        else:
            data = next(self._dataset_iter)
        return self._collate_fn(data)
