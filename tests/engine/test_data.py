"""torch.utils.data against torch 2.13, as programs print it: the batches a DataLoader gives (order, shuffling
with torch's generator — the default one or a given one —, the generator's state after, drop_last, samplers,
batch samplers), default_collate of tensors, numbers, tuples, dicts, named tuples, numpy arrays and strings,
the datasets (TensorDataset, Subset, ConcatDataset, StackDataset, ChainDataset, IterableDataset, a program's own
Dataset), random_split, and the errors and warnings.

Also what a watcher (the explorer) hears of a DataLoader: each batch's tensors arriving, not the indexing and
stacking that made them.
"""
from __future__ import annotations

import pytest
from difftest import ENGINE_NAME, load_engine, run_both, run_source

PRELUDE = ("import collections\nimport numpy as np\nimport torch\n"
           "from torch.utils.data import (DataLoader, TensorDataset, Dataset, IterableDataset, Subset, ConcatDataset,"
           " StackDataset, ChainDataset, random_split, RandomSampler, SequentialSampler, BatchSampler, "
           "SubsetRandomSampler, WeightedRandomSampler, default_collate, default_convert, get_worker_info)\n")
SETUP = ("torch.manual_seed(0)\nX = torch.arange(24.).view(12, 2)\nY = torch.arange(12)\nds = TensorDataset(X, Y)\n"
         "def show(loader, epochs=1):\n    for e in range(epochs):\n        for batch in loader:\n"
         "            print(batch)\n    print(torch.rand(2))  # the default generator after\n")

PROGRAMS = {
    # --- batches and shuffling -------------------------------------------------------------------------------
    "sequential": "show(DataLoader(ds, batch_size=5))",
    "batch_size_1": "show(DataLoader(TensorDataset(X[:3], Y[:3])))",
    "drop_last": "show(DataLoader(ds, batch_size=5, drop_last=True))\nprint(len(DataLoader(ds, 5, drop_last=True)))",
    "shuffle": "show(DataLoader(ds, batch_size=4, shuffle=True), epochs=3)",
    "shuffle_reseeded": "l = DataLoader(ds, batch_size=6, shuffle=True)\nfor s in (1, 1, 2):\n"
                        "    torch.manual_seed(s)\n    print([y.tolist() for _, y in l])",
    "shuffle_generator": "g = torch.Generator().manual_seed(3)\nshow(DataLoader(ds, batch_size=5, shuffle=True, "
                         "generator=g), epochs=2)\nprint(g.initial_seed(), torch.randn(2, generator=g))",
    "shuffle_drop_last": "show(DataLoader(ds, batch_size=5, shuffle=True, drop_last=True), epochs=2)",
    "iterator_by_hand": "it = iter(DataLoader(ds, batch_size=4, shuffle=True))\nprint(len(it))\nprint(next(it))\n"
                        "print(torch.rand(1))\nprint(next(it))\nprint(next(it))\nprint(next(iter(DataLoader(ds))))",
    "unfinished_epochs": "l = DataLoader(ds, batch_size=3, shuffle=True)\nfor _ in range(3):\n"
                         "    print(next(iter(l))[1])\nprint(torch.rand(1))",
    "no_batching": "show(DataLoader(ds, batch_size=None))",
    "no_batching_shuffle": "show(DataLoader(ds, batch_size=None, shuffle=True))",
    "workers_as_torch": "show(DataLoader(ds, batch_size=5, shuffle=True, num_workers=2), epochs=2)",
    "len_and_attributes": "l = DataLoader(ds, batch_size=5)\nprint(len(l), l.batch_size, l.drop_last, l.num_workers, "
                          "type(l.sampler).__name__, type(l.batch_sampler).__name__, l.dataset is ds, "
                          "l.collate_fn is default_collate, l.generator, l.prefetch_factor)",
    "set_attribute_after_init": "l = DataLoader(ds)\nl.batch_size = 3",
    "set_other_attribute_ok": "l = DataLoader(ds)\nl.num_workers = 0\nprint(l.num_workers)",
    "grad_through_batches": "Xg = X.clone().requires_grad_()\n"
                            "xb, yb = next(iter(DataLoader(TensorDataset(Xg, Y), 4)))\nprint(xb, yb)\n"
                            "xb.sum().backward()\nprint(Xg.grad.sum())",
    # --- samplers --------------------------------------------------------------------------------------------
    "sampler_given": "show(DataLoader(ds, batch_size=4, sampler=SubsetRandomSampler([1, 3, 5, 7, 9])))",
    "sampler_list": "show(DataLoader(ds, batch_size=4, sampler=[11, 0, 5]))",
    "random_sampler_replacement": "print(list(RandomSampler(ds, replacement=True, num_samples=40)))\n"
                                  "print(torch.rand(1))",
    "random_sampler_num_samples": "g = torch.Generator().manual_seed(5)\n"
                                  "print(list(RandomSampler(range(5), num_samples=12, generator=g)))",
    "random_sampler_len": "print(len(RandomSampler(ds)), len(RandomSampler(ds, num_samples=3)))",
    "sequential_sampler": "print(list(SequentialSampler(range(4))), len(SequentialSampler(ds)))",
    "weighted_sampler": "print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], 10)))\n"
                        "print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], 3, replacement=False)))",
    "batch_sampler": "print(list(BatchSampler(range(10), 3, False)), list(BatchSampler(range(10), 3, True)))\n"
                     "print(len(BatchSampler(range(10), 3, False)), len(BatchSampler(range(10), 3, True)))",
    "batch_sampler_given": "show(DataLoader(ds, batch_sampler=BatchSampler(RandomSampler(ds), 5, False)))",
    "batch_sampler_exclusive": "DataLoader(ds, batch_size=4, batch_sampler=[[0, 1]])",
    "sampler_and_shuffle": "DataLoader(ds, sampler=[0, 1], shuffle=True)",
    "random_sampler_bad_num_samples": "RandomSampler(ds, num_samples=0)",
    "random_sampler_bad_replacement": "RandomSampler(ds, replacement=1)",
    "batch_sampler_bad_size": "BatchSampler(range(3), 0, False)",
    "batch_sampler_bad_drop_last": "BatchSampler(range(3), 2, 1)",
    "weighted_bad_num_samples": "WeightedRandomSampler([1.0], 0)",
    "weighted_2d": "WeightedRandomSampler([[1.0, 2.0]], 2)",
    # --- collate ----------------------------------------------------------------------------------------------
    "collate_numbers": "print(default_collate([1, 2, 3]), default_collate([1.5, 2.0]), default_collate([True, False]))",
    "collate_tuples_and_dicts": "print(default_collate([(torch.ones(2), 1, 'a'), (torch.zeros(2), 2, 'b')]))\n"
                                "print(default_collate([{'x': torch.ones(2), 'y': 0.5}, {'x': torch.zeros(2), "
                                "'y': 1.5}]))",
    "collate_namedtuple": "P = collections.namedtuple('P', 'a b')\n"
                          "print(default_collate([P(torch.tensor(1.), [1, 2]), P(torch.tensor(2.), [3, 4])]))",
    "collate_numpy": "print(default_collate([np.array([1.0, 2.0], dtype=np.float32), np.zeros(2, np.float32)]))\n"
                     "print(default_collate([np.float64(1.5), np.float64(2.5)]), default_collate([np.int64(3)]))",
    "collate_lists": "print(default_collate([[1, 2], [3, 4]]))",
    "collate_unequal_lists": "default_collate([[1, 2], [3]])",
    "collate_unequal_tensors": "default_collate([torch.ones(2), torch.ones(3)])",
    "collate_unknown": "default_collate([object(), object()])",
    "convert": "print(default_convert((np.array([1, 2]), [np.float32(3)], {'a': np.ones(1)}, 'txt')))",
    "custom_collate_fn": "show(DataLoader(ds, batch_size=4, collate_fn=lambda b: len(b)))",
    "dict_dataset": "class D(Dataset):\n    def __len__(self):\n        return 5\n"
                    "    def __getitem__(self, i):\n        return {'x': torch.full((2,), float(i)), 'i': i}\n"
                    "show(DataLoader(D(), batch_size=2, shuffle=True))",
    # --- datasets ---------------------------------------------------------------------------------------------
    "tensor_dataset": "print(len(ds), ds[3], ds[-1], ds[2:4])",
    "tensor_dataset_mismatch": "TensorDataset(torch.ones(3), torch.ones(4))",
    "own_dataset": "class Squares(Dataset):\n    def __init__(self, n):\n        self.n = n\n"
                   "    def __len__(self):\n        return self.n\n    def __getitem__(self, i):\n"
                   "        return torch.tensor([float(i)]), i * i\n"
                   "show(DataLoader(Squares(7), batch_size=3, shuffle=True))",
    "dataset_without_getitem": "Dataset()[0]",
    "subset_and_concat": "s = Subset(ds, [5, 1, 7])\nc = ds + s\nprint(len(s), s[1], len(c), c[13], c[-1])\n"
                         "show(DataLoader(c, batch_size=5))\nprint(c.cumulative_sizes)",
    "concat_bad_index": "c = ConcatDataset([ds, ds])\nc[-30]",
    "stack_dataset": "st = StackDataset(ds, Y)\nprint(len(st), st[2])\nshow(DataLoader(st, batch_size=5))\n"
                     "sk = StackDataset(a=X, b=Y)\nprint(sk[1])\nshow(DataLoader(sk, batch_size=5))",
    "stack_dataset_mismatch": "StackDataset(X, Y[:3])",
    "iterable_dataset": "class Count(IterableDataset):\n    def __init__(self, n):\n        self.n = n\n"
                        "    def __iter__(self):\n        return iter(range(self.n))\n"
                        "show(DataLoader(Count(7), batch_size=3))\n"
                        "show(DataLoader(Count(7), batch_size=3, drop_last=True))\n"
                        "show(DataLoader(Count(3), batch_size=None))\nprint(list(ChainDataset([Count(2), Count(3)])))",
    "iterable_len": "class Count(IterableDataset):\n    def __iter__(self):\n        return iter(range(7))\n"
                    "    def __len__(self):\n        return 5\n    def __repr__(self):\n        return 'Count'\n"
                    "l = DataLoader(Count(), batch_size=None)\n"
                    "print(len(l))\nshow(l)\nprint(len(DataLoader(Count(), batch_size=2)))",
    "iterable_shuffle": "class Count(IterableDataset):\n    def __iter__(self):\n        return iter(range(3))\n"
                        "DataLoader(Count(), shuffle=True)",
    "iterable_sampler": "class Count(IterableDataset):\n    def __iter__(self):\n        return iter(range(3))\n"
                        "DataLoader(Count(), sampler=[0])",
    "random_split_lengths": "g = torch.Generator().manual_seed(42)\n"
                            "print([list(s.indices) for s in random_split(range(10), [3, 7], generator=g)])",
    "random_split_fractions": "a, b, c = random_split(ds, [0.5, 0.25, 0.25])\nprint(a.indices, b.indices, c.indices)\n"
                              "print(torch.rand(1))",
    "random_split_uneven_fractions": "print([len(s) for s in random_split(range(10), [0.34, 0.33, 0.33])])",
    "random_split_empty_warns": "print([len(s) for s in random_split(range(3), [0.9, 0.1])])",
    "random_split_bad_sum": "random_split(range(10), [3, 3])",
    "random_split_bad_fraction": "random_split(range(10), [1.5, -0.5])",
    "worker_info": "print(get_worker_info())",
    # --- DataLoader's arguments -------------------------------------------------------------------------------
    "negative_workers": "DataLoader(ds, num_workers=-1)",
    "negative_timeout": "DataLoader(ds, timeout=-1)",
    "timeout_without_workers": "it = iter(DataLoader(ds, timeout=1))",
    "prefetch_without_workers": "DataLoader(ds, prefetch_factor=2)",
    "persistent_without_workers": "DataLoader(ds, persistent_workers=True)",
    "context_without_workers": "DataLoader(ds, multiprocessing_context='spawn')",
    "drop_last_without_batching": "DataLoader(ds, batch_size=None, drop_last=True)",
    "bad_batch_size": "DataLoader(ds, batch_size=0)",
    "pin_memory_warns": "print(next(iter(DataLoader(ds, batch_size=2, pin_memory=True))))",
}


@pytest.mark.parametrize("case", sorted(PROGRAMS))
def test_program_prints_raises_and_warns_as_torch(case):
    want, got = run_both(SETUP + PROGRAMS[case], PRELUDE)
    assert got.exc == want.exc
    assert got.warnings == want.warnings
    assert got.stdout == want.stdout


def test_cases_test_something_on_torch():
    for case, src in PROGRAMS.items():
        o = run_source(SETUP + src, "torch", PRELUDE)
        assert o.stdout or o.exc or o.warnings, case


class Ear:
    def __init__(self):
        self.heard = []

    def on_op(self, out, op, inputs, attrs):
        self.heard.append(("op", op.name))

    def on_tensor(self, t):
        self.heard.append(("tensor", tuple(t.shape)))


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="the engine's observers")
@pytest.mark.parametrize("shuffle", [False, True])
def test_a_batch_is_heard_as_tensors_arriving(shuffle):
    E = load_engine()
    from engine import observe
    from engine.utils.data import DataLoader, TensorDataset

    ds = TensorDataset(E.zeros(10, 3), E.zeros(10))
    loader = DataLoader(ds, batch_size=4, shuffle=shuffle)
    ear = Ear()
    observe.add(ear)
    try:
        batches = list(loader)
        item = ds[2]
    finally:
        observe.remove(ear)
    assert len(batches) == 3
    assert ear.heard == [("tensor", (4, 3)), ("tensor", (4,)), ("tensor", (4, 3)), ("tensor", (4,)),
                         ("tensor", (2, 3)), ("tensor", (2,)), ("tensor", (3,)), ("tensor", ())]
    assert item[0].shape == (3,)
