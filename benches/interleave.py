#!/usr/bin/env python3
"""Case-by-case comparison with PyTorch: for each case, alternates our `cases --case X`
and PyTorch's `torch_bench.cases()[X]` (same timing rule: 2 warm-ups, median of 15, or
300 for `small` cases) ROUNDS times, and prints best and median of each side and their
ratios, and the roofline: for a streaming case its bytes per second (the least bytes it
must move, `cases --work`) as a fraction of the plain copy loop `bandwidth_16M`, for a
compute-bound case its FLOP/s as a fraction of `fma_peak` (fused multiply-adds alone on
every thread), each reference timed in the same process as the case, every round.

On a shared or virtual machine memory bandwidth can swing by 2x within minutes, and a full run of
either program takes long enough to fall into a different period than the other's, so
running the two suites one after the other compares periods as much as code; alternating
per case keeps both sides of a ratio within seconds of each other.

Usage (from the workspace root, after `cargo build --release -p tensor-benches`):
    python3 benches/interleave.py [--rounds 5] [--threads 2] [--torch-bench PATH] [CASE ...]

Needs PyTorch (`pip install torch numpy`): a measurement, never run in CI. With
`--rt` both programs run under `chrt -f 10` (root only), as the figures in
benches/RESULTS.md were taken.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DEFAULT_TORCH_BENCH = os.path.join(ROOT, "benches", "torch_bench.py")

# Runs one case of torch_bench.py with its own timing rule; prints {case: ms}. The
# threads come first: torch_bench.py reads them from sys.argv[1] when imported.
TORCH_ONE = """
import json, sys
sys.path.insert(0, sys.argv[2])
import torch
import torch_bench as tb
name = sys.argv[3]
f = tb.cases()[name]
print(json.dumps({name: tb.median_ms(f, 300 if "small" in name else 15)}))
"""


def run_json(cmd, rt):
    if rt:
        cmd = ["chrt", "-f", "10", *cmd]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def case_names(torch_bench):
    """The case names of torch_bench.py, in its order."""
    code = "import sys; sys.path.insert(0, sys.argv[2]); import torch_bench as tb; print('\\n'.join(tb.cases()))"
    out = subprocess.run(
        [sys.executable, "-c", code, "1", os.path.dirname(torch_bench)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return out.split()


def roofline(name, best_ms, ref_best_ms, work):
    """`41.2 GB/s = 0.83 copy` or `151 GFLOP/s = 0.66 peak` from best times (ms)."""
    w = work.get(name) or {}
    if w.get("bytes") and "bandwidth_16M" in ref_best_ms:
        gbs = w["bytes"] / best_ms / 1e6
        ref = work["bandwidth_16M"]["bytes"] / ref_best_ms["bandwidth_16M"] / 1e6
        return f"{gbs:.1f} GB/s = {gbs / ref:.2f} copy"
    if w.get("flops") and "fma_peak" in ref_best_ms:
        gf = w["flops"] / best_ms / 1e6
        ref = work["fma_peak"]["flops"] / ref_best_ms["fma_peak"] / 1e6
        return f"{gf:.0f} GFLOP/s = {gf / ref:.2f} peak"
    return ""


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("cases", nargs="*")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--torch-bench", default=DEFAULT_TORCH_BENCH)
    p.add_argument("--rt", action="store_true", help="run both under chrt -f 10")
    a = p.parse_args()
    torch_bench = os.path.abspath(a.torch_bench)
    ours_bin = os.path.join(ROOT, "target", "release", "cases")
    names = a.cases or case_names(torch_bench)
    work = run_json([ours_bin, "--work", "--threads", str(a.threads)], False)
    torch_cap = subprocess.run(
        [sys.executable, "-c", "import torch; print(torch.backends.cpu.get_cpu_capability())"],
        capture_output=True, text=True).stdout.strip()
    print(f"cpu capability: ours {work.pop('cpu_capability', '?')}, torch {torch_cap or '?'}; "
          f"{a.threads} threads")
    print()
    print("| case | ours best | ours median | torch best | torch median | best/best | median/median | roofline (ours best) |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for name in names:
        ours, torch = [], []
        w = work.get(name) or {}
        ref = "bandwidth_16M" if w.get("bytes") else "fma_peak" if w.get("flops") else None
        refs = []
        for _ in range(a.rounds):
            cmd = [ours_bin, "--threads", str(a.threads), "--case", name]
            if ref:
                cmd += ["--case", ref]
            got = run_json(cmd, a.rt)
            ours.append(got[name])
            if ref:
                refs.append(got[ref])
            torch.append(
                run_json(
                    [sys.executable, "-c", TORCH_ONE, str(a.threads), os.path.dirname(torch_bench), name],
                    a.rt,
                )[name]
            )
        bo, bt = min(ours), min(torch)
        mo, mt = statistics.median(ours), statistics.median(torch)
        line = roofline(name, bo, {ref: min(refs)} if ref else {}, work)
        print(f"| {name} | {bo:.4g} | {mo:.4g} | {bt:.4g} | {mt:.4g} | {bo / bt:.2f} | {mo / mt:.2f} | {line} |", flush=True)


if __name__ == "__main__":
    main()
