"""Conformance of the engine against torch's own test databases: OpInfo (`op_db`), ModuleInfo (`module_db`) and
OptimInfo (`optim_db`), on the CPU, with real torch 2.13 as the oracle (run with .venv-torch).

Tests the engine of the CURRENT DIRECTORY, so a worktree can check its own copy:

    cd /work/wt/pointwise && .venv-torch/bin/python /work/wt/conformance/benchmarks/conformance.py --only sin,cos

For every sample input (dtypes float64, float32, int64, bool where the OpInfo takes them) it compares values (float64
tight, float32 at torch's default tolerances), dtype, shape, strides and contiguity, grad_fn, printed text, the
gradients of every input through a fixed grad_output (and second order where the OpInfo says supports_gradgrad),
the method, in-place and out= variants and the error_inputs' exception type and text. An entry passes when all its
samples agree on all of these; "core" counts entries whose values, dtypes, shapes and gradients agree (forward and
backward), leaving out layout, naming, printing and the variants.

The entries that take complex dtypes are walked again on their complex128 and complex64 samples, counted apart in
the table's `complex` row (an entry passes there when all its complex samples agree; baseline key `complex:<key>`).
With --bfloat16 (and always with --write-baseline) the entries that take bfloat16 are walked on their bfloat16
samples too, in the row `bfloat16` (baseline key `bfloat16:<key>`; values within bfloat16's tolerance, the share bit
for bit torch's printed at the end).

Flags: --only NAME[,NAME…] (an OpInfo name, or name.variant; module and optimizer class names too),
--namespace X[,X…] (torch, Tensor, nn.functional, linalg, special, fft, other, modules, optimizers, complex),
--max-samples N (per entry and dtype), --json FILE (every entry with its findings), --write-baseline [FILE]
(tests/conformance/passing.txt of the current directory), --engine torch (a self-check: torch against itself).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.join(ROOT, "benchmarks")]
sys.path.insert(0, os.path.join(ROOT, "tests", "conformance"))
sys.path.insert(0, os.getcwd())  # the engine under test: the current directory's

import warnings  # noqa: E402

import torch  # noqa: E402

warnings.simplefilter("ignore")

torch.set_num_threads(1)

from conformance_baseline import write_baseline  # noqa: E402
from conformance_ops import (  # noqa: E402
    BFLOAT16_DTYPES,
    COMPLEX_DTYPES,
    NAMESPACE_ORDER,
    OpRunner,
    entry_key,
    load_op_db,
    namespace_of,
)


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", default="", help="comma-separated OpInfo names (or name.variant), module or optimizer "
                                               "class names")
    p.add_argument("--namespace", default="", help="comma-separated: " + ", ".join(NAMESPACE_ORDER))
    p.add_argument("--max-samples", type=int, default=0, help="per entry and dtype (0: all)")
    p.add_argument("--json", default="", help="write every entry's result here")
    p.add_argument("--write-baseline", nargs="?", const=os.path.join(os.getcwd(), "tests/conformance/passing.txt"),
                   default="", help="write the entries that pass (default tests/conformance/passing.txt here)")
    p.add_argument("--engine", default="engine", help="module under test (torch: self-check of the harness)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per sample")
    p.add_argument("--no-variants", action="store_true", help="skip method/in-place/out= variants")
    p.add_argument("--no-complex", action="store_true", help="skip the walk of the complex samples")
    p.add_argument("--bfloat16", action="store_true", help="walk the entries' bfloat16 samples too (namespace "
                                                              "bfloat16, not in the baseline)")
    p.add_argument("--verbose", "-v", action="store_true", help="one line per entry as it runs")
    return p.parse_args()


def selected(key, name, namespace, only, namespaces):
    if only and key not in only and name not in only:
        return False
    return not namespaces or namespace in namespaces


def main():
    args = parse()
    E = __import__(args.engine)
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    namespaces = {x.strip() for x in args.namespace.split(",") if x.strip()}
    origin = getattr(E, "__file__", "?")
    print(f"engine under test: {origin}", flush=True)
    started = time.perf_counter()
    results = []
    want_ops = not namespaces or namespaces - {"modules", "optimizers"}
    if want_ops:
        t = time.perf_counter()
        op_db = load_op_db()
        print(f"op_db: {len(op_db)} entries, loaded in {time.perf_counter() - t:.1f} s", flush=True)
        runner = OpRunner(E, max_samples=args.max_samples, timeout=args.timeout, variants=not args.no_variants)
        for op in op_db:
            key = entry_key(op.name, op.variant_test_name)
            if not selected(key, op.name, namespace_of(op.name), only, namespaces - {"complex", "bfloat16"}) or \
                    namespaces and namespaces <= {"complex", "bfloat16"}:
                continue
            results.append(_ran(runner, op, args.verbose))
        if not args.no_complex and (not namespaces or "complex" in namespaces) and namespaces != {"bfloat16"}:
            runner = OpRunner(E, max_samples=args.max_samples, timeout=args.timeout, variants=not args.no_variants,
                              dtypes=COMPLEX_DTYPES)
            for op in op_db:
                key = entry_key(op.name, op.variant_test_name)
                if only and key not in only and op.name not in only:
                    continue
                if set(COMPLEX_DTYPES) & set(op.supported_dtypes("cpu")):
                    results.append(_ran(runner, op, args.verbose, "complex"))
        if args.bfloat16 or "bfloat16" in namespaces or args.write_baseline and not namespaces:
            runner = OpRunner(E, max_samples=args.max_samples, timeout=args.timeout, variants=not args.no_variants,
                              dtypes=BFLOAT16_DTYPES)
            for op in op_db:
                key = entry_key(op.name, op.variant_test_name)
                if only and key not in only and op.name not in only:
                    continue
                if set(BFLOAT16_DTYPES) & set(op.supported_dtypes("cpu")):
                    results.append(_ran(runner, op, args.verbose, "bfloat16"))
    if not namespaces or namespaces & {"modules", "optimizers"}:
        from conformance_modules import run_modules, run_optimizers

        if not namespaces or "modules" in namespaces:
            results += run_modules(E, only, verbose=args.verbose, timeout=args.timeout)
        if not namespaces or "optimizers" in namespaces:
            results += run_optimizers(E, only, verbose=args.verbose, timeout=args.timeout)
    print_table(results)
    from conformance_compare import BITS, CLOSER

    if BITS["compared"]:
        print(f"\nfloat outputs bit for bit torch's on this CPU: {BITS['same']} of {BITS['compared']} "
              f"({100 * BITS['same'] / BITS['compared']:.1f} %; the rest agree within tolerance)")
    if CLOSER["values"]:
        print(f"float32 values off torch's float32 beyond tolerance but at least as close to torch's float64 answer: "
              f"{CLOSER['values']} tensors, {CLOSER['elements']} elements (passed), in "
              f"{len(CLOSER['entries'])} entries: {', '.join(sorted(CLOSER['entries']))}")
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"engine": origin, "entries": [r.as_json() for r in results]}, f, indent=1)
        print(f"wrote {args.json}")
    if args.write_baseline:
        n = write_baseline(args.write_baseline, results)
        print(f"wrote {args.write_baseline}: {n} entries")


def _ran(runner, op, verbose, namespace=None):
    r = runner.run(op)
    if namespace:
        r.namespace = namespace
    if verbose:
        print(f"  {r.status:8} {(namespace + ':' if namespace else '') + r.key:45} {r.samples_passed}/{r.samples} "
              f"{r.seconds:6.2f}s  {r.first_reason[:150]}", flush=True)
    return r


def print_table(results):
    by_ns = collections.defaultdict(list)
    for r in results:
        by_ns[r.namespace].append(r)
    head = f"{'namespace':15} {'entries':>7} {'samples':>8} {'pass':>5} {'core':>5} {'differ':>6} {'missing':>7} " \
           f"{'error':>5}  {'pass%':>6} {'core%':>6}"
    print("\n" + head)
    print("-" * len(head))
    total = collections.Counter()
    for ns in NAMESPACE_ORDER:
        rs = by_ns.get(ns)
        if not rs:
            continue
        c = row(rs)
        total.update(c)
        print(fmt(ns, c))
    print("-" * len(head))
    print(fmt("all", total))
    inapplicable = [r.key for r in results if r.status == "n/a"]
    if inapplicable:
        print(f"\nnot counted, no CPU sample in the dtypes walked ({len(inapplicable)}): {', '.join(inapplicable)}")
    kinds = collections.Counter()
    for r in results:
        if r.status == "missing":
            continue
        for k in {f"{f.area.split('[')[0]} {f.kind}" for f in r.findings} | ({"engine raised"} if r.errors else set()):
            kinds[k] += 1
    if kinds:
        print("\nentries failing each check: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    worst = []
    for r in results:
        w = r.worst()
        if w is not None and w.ratio > 1:
            worst.append((w.ratio, r.key, str(w)))
    worst.sort(key=lambda x: -x[0] if x[0] != float("inf") else -1e300)
    finite = [w for w in worst if w[0] != float("inf")]
    if finite:
        print("\nworst value differences (in tolerances):")
        for _, key, text in finite[:12]:
            print(f"  {key:40} {text[:150]}")


def row(rs):
    c = collections.Counter()
    rs = [r for r in rs if r.status != "n/a"]
    c["entries"] = len(rs)
    for r in rs:
        c["samples"] += r.samples
        c[r.status] += 1
        c["core"] += r.core_pass
    return c


def fmt(ns, c):
    n = c["entries"] or 1
    return f"{ns:15} {c['entries']:7} {c['samples']:8} {c['pass']:5} {c['core']:5} {c['differ']:6} " \
           f"{c['missing']:7} {c['error']:5}  {100 * c['pass'] / n:5.1f}% {100 * c['core'] / n:5.1f}%"


if __name__ == "__main__":
    main()
