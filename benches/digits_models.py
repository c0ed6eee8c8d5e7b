#!/usr/bin/env python3
"""Times the digits example's three models against PyTorch: for each model and seed,
runs `digits --model MODEL --seed SEED` (release build) and
`digits_models_torch.py MODEL EPOCHS DATA SEED` one right after the other (the order
alternating from seed to seed, so that both sides of a ratio see the same load), and
prints each side's training time and test accuracy, the per-seed time ratio
(ours / PyTorch), and per model the mean accuracies and the median ratio.

Usage (from the workspace root, after
`cargo build --release -p tensor-typed --example digits`):
    python3 benches/digits_models.py [--models mlp,cnn,transformer] [--seeds 0-4]
        [--epochs 30] [--ours BINARY] [--torch-script PATH] [--data PATH] [--rt]

Needs PyTorch (`pip install torch numpy`): a measurement, never run in CI. Other
processes on the same CPUs slow PyTorch's two-thread runs down far more than ours, which
makes the ratios meaningless: run it with nothing else running, or with `--rt`.
Each model's summary prints the limits it is held to: a median ratio of at most 0.25x
(mlp), 0.5x (cnn, transformer); a mean accuracy over the seeds of at least 0.955 (mlp),
0.97 (cnn), 0.965 (transformer).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OURS = os.path.join(ROOT, "target", "release", "examples", "digits")
LIMIT_RATIO = {"mlp": 0.25, "cnn": 0.5, "transformer": 0.5}
LIMIT_ACC = {"mlp": 0.955, "cnn": 0.97, "transformer": 0.965}


def seeds(text):
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(s) for s in text.split(",")]


PREFIX = []


def ours(binary, model, seed, epochs, data):
    out = subprocess.run(
        PREFIX + [binary, "--model", model, "--seed", str(seed), "--epochs", str(epochs), "--data", data],
        check=True, capture_output=True, text=True).stdout
    acc = float(re.search(r"^test accuracy: ([0-9.]+)$", out, re.M).group(1))
    secs = float(re.search(r"^train time: ([0-9.]+) s$", out, re.M).group(1))
    return secs, acc


def torch(script, model, seed, epochs, data):
    out = subprocess.run(
        PREFIX + [sys.executable, script, model, str(epochs), data, str(seed)],
        check=True, capture_output=True, text=True).stdout
    m = re.search(r"epochs: ([0-9.]+) s; test accuracy ([0-9.]+)", out)
    return float(m.group(1)), float(m.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="mlp,cnn,transformer")
    ap.add_argument("--seeds", type=seeds, default=seeds("0-4"))
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--ours", default=OURS, help="the digits example binary")
    ap.add_argument("--torch-script",
                    default=os.path.join(ROOT, "benches", "digits_models_torch.py"))
    ap.add_argument("--data", default=os.path.join(ROOT, "tensor-typed", "data", "digits.csv.gz"))
    ap.add_argument("--rt", action="store_true",
                    help="run both programs under `chrt -f 10` (root only): on a machine shared "
                         "with builds this keeps both sides from being descheduled")
    args = ap.parse_args()
    if args.rt:
        PREFIX.extend(["chrt", "-f", "10"])
    if not os.path.exists(args.ours):
        sys.exit(f"{args.ours} missing: cargo build --release -p tensor-typed --example digits")
    for model in args.models.split(","):
        rows = []
        for i, seed in enumerate(args.seeds):
            run_ours = lambda: ours(args.ours, model, seed, args.epochs, args.data)
            run_torch = lambda: torch(args.torch_script, model, seed, args.epochs, args.data)
            if i % 2 == 0:
                o, t = run_ours(), run_torch()
            else:
                t, o = run_torch(), run_ours()
            rows.append((seed, o, t))
            print(f"{model:11} seed {seed}: ours {o[0]:8.3f} s acc {o[1]:.4f} | "
                  f"torch {t[0]:8.3f} s acc {t[1]:.4f} | ratio {o[0] / t[0]:.3f}x", flush=True)
        ratio = statistics.median(o[0] / t[0] for _, o, t in rows)
        acc_o = statistics.mean(o[1] for _, o, _ in rows)
        acc_t = statistics.mean(t[1] for _, _, t in rows)
        print(f"{model:11} mean accuracy ours {acc_o:.4f} (limit >= {LIMIT_ACC[model]}), "
              f"torch {acc_t:.4f}; median time ratio {ratio:.3f}x "
              f"(limit <= {LIMIT_RATIO[model]}x)", flush=True)


if __name__ == "__main__":
    main()
