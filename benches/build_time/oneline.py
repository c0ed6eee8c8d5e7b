#!/usr/bin/env python3
"""Clean debug build of a one-line typed program: writes a binary crate
that depends on tensor-typed only (by path), deletes its target dir, runs
`cargo build --timings` and prints the wall time, the CPU time of every unit summed, and
the units on the way to the binary.

Usage (from the workspace root):
    python3 benches/build_time/oneline.py [--out DIR] [--reps N] [--release] [--dfdx]

With --dfdx the same program written with dfdx 0.13 (from crates.io, its default
features) is built from scratch too, alternating with ours in every rep, and the ratio
of the best wall times is printed (ours / dfdx).

The crate goes to DIR (default target/build_time/oneline, its own target dir inside it,
so the workspace's build cache is not used). With --reps N the clean build runs N times
and the best wall time is reported (the machine's other load only ever adds time). This
is a measurement, not a test; nothing here runs in CI. Standard library only.

Cargo builds a path dependency incrementally in the dev profile, which costs a clean
build of tensor-core about 2 s more; `CARGO_INCREMENTAL=0 python3 ...` times the build a
user depending on the crates by version or git would see.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

MAIN = """use tensor_typed::prelude::*;
fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    println!("{:?}", x.sum::<Axes![1]>());
}
"""


DFDX_MAIN = """use dfdx::prelude::*;
fn main() {
    let dev: Cpu = Default::default();
    let x: Tensor<Rank2<2, 3>, f32, _> = dev.zeros();
    println!("{:?}", x.sum::<Rank1<2>, _>().array());
}
"""


def write_dfdx(out):
    """The one-line program with dfdx 0.13 instead of tensor-typed."""
    os.makedirs(os.path.join(out, "src"), exist_ok=True)
    with open(os.path.join(out, "Cargo.toml"), "w") as f:
        f.write(
            '[package]\nname = "oneline_dfdx"\nversion = "0.1.0"\nedition = "2021"\n\n'
            '[dependencies]\ndfdx = "0.13"\n\n[workspace]\n'
        )
    with open(os.path.join(out, "src", "main.rs"), "w") as f:
        f.write(DFDX_MAIN)


def write(out):
    os.makedirs(os.path.join(out, "src"), exist_ok=True)
    with open(os.path.join(out, "Cargo.toml"), "w") as f:
        f.write(
            '[package]\nname = "oneline"\nversion = "0.1.0"\nedition = "2021"\n\n'
            "[dependencies]\n"
            f'tensor-typed = {{ path = "{os.path.join(ROOT, "tensor-typed")}" }}\n\n'
            "[workspace]\n"
        )
    with open(os.path.join(out, "src", "main.rs"), "w") as f:
        f.write(MAIN)


def units(out):
    """The units of the newest --timings report: (name, target, start s, duration s)."""
    html = open(os.path.join(out, "target", "cargo-timings", "cargo-timing.html")).read()
    data = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);", html, re.S).group(1))
    return [(u["name"], u.get("target", "").strip(), u["start"], u["duration"]) for u in data]


def build(out, release):
    shutil.rmtree(os.path.join(out, "target"), ignore_errors=True)
    cmd = ["cargo", "build", "--timings", "--quiet"] + (["--release"] if release else [])
    env = dict(os.environ)
    env.pop("CARGO_TARGET_DIR", None)
    t0 = time.monotonic()
    subprocess.run(cmd, cwd=out, env=env, check=True)
    return time.monotonic() - t0, units(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "build_time", "oneline"))
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--release", action="store_true")
    ap.add_argument("--dfdx", action="store_true", help="also build the dfdx 0.13 program")
    args = ap.parse_args()
    write(args.out)
    other = args.out + "_dfdx"
    if args.dfdx:
        write_dfdx(other)
        # Fetch once before timing, so no rep pays for the download.
        subprocess.run(["cargo", "fetch", "--quiet"], cwd=other, check=True)
    runs, dfdx_runs = [], []
    for _ in range(args.reps):
        runs.append(build(args.out, args.release))
        if args.dfdx:
            dfdx_runs.append(build(other, args.release))
    if args.dfdx:
        ours, theirs = min(w for w, _ in runs), min(w for w, _ in dfdx_runs)
        print(f"dfdx 0.13: best wall {theirs:.1f} s (all: "
              f"{', '.join(f'{w:.1f}' for w, _ in dfdx_runs)}); "
              f"ours / dfdx = {ours / theirs:.2f}")
    walls = [w for w, _ in runs]
    wall, us = min(runs, key=lambda r: r[0])
    print(f"clean {'release' if args.release else 'debug'} build: best wall {wall:.1f} s "
          f"(all: {', '.join(f'{w:.1f}' for w in walls)}); {len(us)} units, "
          f"CPU summed {sum(d for *_, d in us):.1f} s (best run)")
    print(f"{'start':>7} {'secs':>6}  unit")
    for name, target, start, dur in sorted(us, key=lambda u: -u[3])[:15]:
        print(f"{start:7.2f} {dur:6.2f}  {name} {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
