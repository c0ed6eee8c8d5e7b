#!/usr/bin/env python3
"""PyTorch's side of `gemm_shapes` (benches/src/gemm_shapes.rs): the same f32 products,
timed with `torch.matmul` on the same layouts (a Conv1D weight `[in, out]`, an
`F.linear` weight `[out, in]` read transposed, batched `[B, m, k] @ [B, k, n]`), each the
median of repetitions after two warm-ups, as many as fit in about 0.2 s (at least 10).

Prints `{name: ms}` as JSON, for `gemm_shapes --torch FILE`.

Usage: python3 benches/gemm_shapes.py [--threads 2] > FILE
"""

import argparse
import json
import re
import time

import torch

SRC = __file__.replace("gemm_shapes.py", "src/gemm_shapes.rs")


def shapes():
    """(name, batch, m, k, n, transposed) in the order of gemm_shapes.rs."""
    text = open(SRC).read()
    out = []
    for t in (1, 9, 32, 64, 128):
        for name, k, n, tr in re.findall(
            r'mm\(\s*concat!\("(\w+)",\s*\$t\),\s*\$t,\s*(\d+),\s*(\d+),\s*Rhs::(\w+),?\s*\)',
            text,
        ):
            out.append((f"{name}{t}", 1, t, int(k), int(n), tr == "Transposed"))
    for kind, name, rest in re.findall(r'\n\s+(mm|bmm)\(\s*"(\w+)",\s*([^)]*)\)', text):
        nums = [int(x) for x in re.findall(r"\d+", rest)]
        if kind == "mm":
            out.append((name, 1, nums[0], nums[1], nums[2], "Transposed" in rest))
        else:
            out.append((name, *nums, False))
    return out


def median_ms(f):
    f()
    t = time.perf_counter()
    f()
    once = max(time.perf_counter() - t, 1e-7)
    reps = min(max(int(0.2 / once), 10), 5000)
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2] * 1e3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    times = {}
    with torch.no_grad():
        for name, batch, m, k, n, tr in shapes():
            if batch == 1:
                a = torch.rand(m, k) * 2 - 1
                b = (torch.rand(n, k) * 2 - 1).t() if tr else torch.rand(k, n) * 2 - 1
            else:
                a = torch.rand(batch, m, k) * 2 - 1
                b = torch.rand(batch, k, n) * 2 - 1
            times[name] = median_ms(lambda: torch.matmul(a, b))
    print(json.dumps(times, indent=1))


if __name__ == "__main__":
    main()
