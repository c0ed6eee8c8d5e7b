#!/usr/bin/env python3
"""Compile-time cost of typed shapes: writes two crates with the same N tensor ops, one on
`tensor_typed::Tensor` (static shapes checked by the compiler) and one on the untyped
`tensor_core::Tensor`, and optionally times `cargo check` and `cargo build` of each.

Usage (from the workspace root):
    python3 benches/compile_cost/gen.py [--out DIR] [--ops N] [--run] [--reps 3] [--big]
                                        [--only KIND,KIND..] [--named] [--instructions]

--big makes every static dim larger than 65536. --only cycles
through the named op kinds only (to find which rules cost the time). --named also writes
DIR/named: the typed crate with every dim named (`dims!`: one name per role and size,
`Batch` for the run-time batch), timed against the typed one.

Without --run it only writes DIR/typed and DIR/untyped (default DIR:
target/compile_cost). With --run, for each crate and command, it runs the command once
untimed (dependencies up to date), then touches src/main.rs and times `cargo check` and `cargo build` (debug, CARGO_INCREMENTAL=0)
of that crate alone, --reps times (typed and untyped alternating), and prints the medians
of the wall time and of the CPU time (user + system, steadier on a loaded machine).
With --instructions it counts rustc's instructions for `cargo check` of each crate
(valgrind's cachegrind through count_rustc.py as RUSTC_WRAPPER; the same on a loaded
machine). Standard library only.
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


BIG = 0  # set by --big: every dim is above 65536


def dims(i):
    """Distinct static dims for op i, so the trait solver cannot reuse one answer (with
    --big, each above 65536: multiples of the small ones plus 65536, so that splits stay
    exact)."""
    a = 2 + i % 7
    b = 3 + (i * 5) % 11
    c = 2 + (i * 3) % 13
    if BIG:
        return a + 65536, b + 65536 * 3, c + 65536 * 2
    return a, b, c


# Each template: (typed setup + op, untyped setup + op). {a},{b},{c} are dims, {i} the index.
# KINDS names them, in order, for --only.
KINDS = ["matmul", "bcast", "permute", "sum", "reshape", "expand", "dynmm", "relu", "layout", "add_"]
TEMPLATES = [
    (  # matmul
        "let x{i}: Tensor<f32, Shape![{a}, {b}]> = Tensor::zeros();\n"
        "    let w{i}: Tensor<f32, Shape![{b}, {c}]> = Tensor::zeros();\n"
        "    let _y{i} = x{i}.matmul(&w{i});",
        "let x{i} = T::zeros(&[{a}, {b}], F32)?;\n"
        "    let w{i} = T::zeros(&[{b}, {c}], F32)?;\n"
        "    let _y{i} = x{i}.matmul(&w{i})?;",
    ),
    (  # broadcast add
        "let x{i}: Tensor<f32, Shape![{a}, 1, {c}]> = Tensor::zeros();\n"
        "    let b{i}: Tensor<f32, Shape![{b}, {c}]> = Tensor::zeros();\n"
        "    let _y{i} = &x{i} + &b{i};",
        "let x{i} = T::zeros(&[{a}, 1, {c}], F32)?;\n"
        "    let b{i} = T::zeros(&[{b}, {c}], F32)?;\n"
        "    let _y{i} = &x{i} + &b{i};",
    ),
    (  # permute
        "let x{i}: Tensor<f32, Shape![{a}, {b}, {c}]> = Tensor::zeros();\n"
        "    let _y{i} = x{i}.permute::<Axes![2, 0, 1]>();",
        "let x{i} = T::zeros(&[{a}, {b}, {c}], F32)?;\n"
        "    let _y{i} = x{i}.permute(&[2, 0, 1])?;",
    ),
    (  # sum
        "let x{i}: Tensor<f32, Shape![{a}, {b}, {c}]> = Tensor::zeros();\n"
        "    let _y{i} = x{i}.sum::<Axes![1]>();",
        "let x{i} = T::zeros(&[{a}, {b}, {c}], F32)?;\n"
        "    let _y{i} = x{i}.sum(&[1], false)?;",
    ),
    (  # reshape
        "let x{i}: Tensor<f32, Shape![{a}, {b}, {c}]> = Tensor::zeros();\n"
        "    let _y{i} = x{i}.reshape::<Shape![{a}, {bc}]>();",
        "let x{i} = T::zeros(&[{a}, {b}, {c}], F32)?;\n"
        "    let _y{i} = x{i}.reshape(&[{a}, {bc}])?;",
    ),
    (  # expand
        "let x{i}: Tensor<f32, Shape![{b}, 1]> = Tensor::zeros();\n"
        "    let _y{i} = x{i}.expand::<Shape![{a}, {b}, {c}]>();",
        "let x{i} = T::zeros(&[{b}, 1], F32)?;\n"
        "    let _y{i} = x{i}.expand(&[{a}, {b}, {c}])?;",
    ),
    (  # Dyn batch matmul
        "let x{i} = Tensor::<f32, Shape![Dyn, {b}]>::zeros_with(&[{an}, {bn}])?;\n"
        "    let w{i}: Tensor<f32, Shape![{b}, {c}]> = Tensor::zeros();\n"
        "    let _y{i} = x{i}.matmul(&w{i});",
        "let x{i} = T::zeros(&[{a}, {b}], F32)?;\n"
        "    let w{i} = T::zeros(&[{b}, {c}], F32)?;\n"
        "    let _y{i} = x{i}.matmul(&w{i})?;",
    ),
    (  # unary + comparison
        "let x{i}: Tensor<f32, Shape![{a}, {b}]> = Tensor::zeros();\n"
        "    let _y{i} = x{i}.relu().lt(&x{i});",
        "let x{i} = T::zeros(&[{a}, {b}], F32)?;\n"
        "    let _y{i} = x{i}.relu()?.lt(&x{i})?;",
    ),
    (  # layout! rearrange (typed) vs reshape + permute (untyped)
        "let x{i}: Tensor<f32, Shape![{a}, {bc}]> = Tensor::zeros();\n"
        "    let _y{i} = layout!(x{i}, \"a (b c) -> c a b\", b = {b});",
        "let x{i} = T::zeros(&[{a}, {bc}], F32)?;\n"
        "    let _y{i} = x{i}.reshape(&[{a}, {b}, {c}])?.permute(&[2, 0, 1])?;",
    ),
    (  # in-place add
        "let x{i}: Tensor<f32, Shape![{a}, {b}]> = Tensor::zeros();\n"
        "    let b{i}: Tensor<f32, Shape![{b}]> = Tensor::zeros();\n"
        "    x{i}.add_(&b{i});",
        "let x{i} = T::zeros(&[{a}, {b}], F32)?;\n"
        "    let b{i} = T::zeros(&[{b}], F32)?;\n"
        "    x{i}.add_(&b{i})?;",
    ),
]

HEADER = {
    "typed": "use tensor_typed::prelude::*;\n\n"
    "#[allow(clippy::all)]\nfn ops() -> tensor_core::Result<()> {\n",
    "named": "use tensor_typed::prelude::*;\n\n{names}\n"
    "#[allow(clippy::all)]\nfn ops() -> tensor_core::Result<()> {\n",
    "untyped": "use tensor_core::DType::F32;\nuse tensor_core::Tensor as T;\n\n"
    "#[allow(clippy::all)]\nfn ops() -> tensor_core::Result<()> {\n",
}
FOOTER = "    Ok(())\n}\n\nfn main() {\n    ops().expect(\"ops\");\n}\n"


ONLY = None  # set by --only: the template indices to cycle through


def source(kind, n):
    col = 1 if kind == "untyped" else 0
    kinds = ONLY if ONLY else list(range(len(TEMPLATES)))
    body = []
    names = {}  # name -> size, for the `named` crate
    for i in range(n):
        a, b, c = dims(i)
        t = TEMPLATES[kinds[i % len(kinds)]][col]
        sizes = dict(a=a, b=b, c=c, bc=b * c)
        if kind == "named":
            # One name per role and size (`Ax7`, `Bcx39`): the sizes stay written once,
            # in the `dims!` block; a `Dyn` batch is the run-time name `Batch`.
            for role, size in list(sizes.items()):
                name = f"{role.capitalize()}x{size}"
                names[name] = size
                # A size given to `layout!` or a new dim in a shape is the name too.
                sizes[role] = name
            t = t.replace("Shape![Dyn,", "Shape![Batch,")
        # `an`, `bn`: sizes as numbers, for run-time arguments.
        body.append("    " + t.format(i=i, an=a, bn=b, **sizes))
    header = HEADER[kind]
    if kind == "named":
        decls = "".join(f"    pub {k} = {v};\n" for k, v in sorted(names.items()))
        header = header.replace("{names}", "dims! {\n    pub Batch;\n" + decls + "}\n")
    return header + "\n".join(body) + "\n" + FOOTER


def manifest(kind):
    dep = (
        f'tensor-typed = {{ path = "{ROOT}/tensor-typed" }}\n'
        f'tensor-core = {{ path = "{ROOT}/tensor-core" }}\n'
    )
    return (
        f'[package]\nname = "cost-{kind}"\nversion = "0.0.0"\nedition = "2021"\n'
        f"publish = false\n\n[dependencies]\n{dep}\n[workspace]\n"
    )


KINDS_WRITTEN = ["typed", "untyped"]  # with --named, also "named"


def write(out, n):
    for kind in KINDS_WRITTEN:
        d = os.path.join(out, kind)
        os.makedirs(os.path.join(d, "src"), exist_ok=True)
        with open(os.path.join(d, "Cargo.toml"), "w") as f:
            f.write(manifest(kind))
        with open(os.path.join(d, "src", "main.rs"), "w") as f:
            f.write(source(kind, n))
        # Same dependency versions as the workspace.
        shutil.copy(os.path.join(ROOT, "Cargo.lock"), os.path.join(d, "Cargo.lock"))


def cargo(d, target, *args):
    """Runs cargo; returns (wall seconds, CPU seconds: user + system of cargo, rustc and
    the linker)."""
    # No incremental cache: each timed run compiles the whole crate from scratch.
    env = dict(os.environ, CARGO_TARGET_DIR=target, CARGO_INCREMENTAL="0")
    cmd = ["cargo", *args, "--quiet", "--offline", "--manifest-path", os.path.join(d, "Cargo.toml")]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, check=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def report(cmd, a, b, t, u):
    """Prints the medians of crate `a`'s timings `t` and crate `b`'s `u`, and their ratios."""
    tw, uw = statistics.median(x[0] for x in t), statistics.median(x[0] for x in u)
    tc, uc = statistics.median(x[1] for x in t), statistics.median(x[1] for x in u)
    print(
        f"cargo {cmd:5}: wall {a} {tw:6.2f} s, {b} {uw:6.2f} s, ratio {tw / uw:.2f}"
        f" | cpu {a} {tc:6.2f} s, {b} {uc:6.2f} s, ratio {tc / uc:.2f}"
    )


def run(out, reps):
    target = os.path.join(out, "target")
    results = {}
    for cmd in ("check", "build"):
        # Typed and untyped alternate within each rep, so that a change in the machine's
        # load hits both alike.
        for _ in range(reps):
            for kind in KINDS_WRITTEN:
                d = os.path.join(out, kind)
                # Untimed: rebuilds whatever dependency changed since (the workspace may
                # be edited meanwhile), so that the timed run compiles this crate only.
                cargo(d, target, cmd)
                time.sleep(1.0)
                os.utime(os.path.join(d, "src", "main.rs"))
                results.setdefault((kind, cmd), []).append(cargo(d, target, cmd))
    pairs = [("typed", "untyped")] + ([("named", "typed")] if "named" in KINDS_WRITTEN else [])
    for cmd in ("check", "build"):
        for a, b in pairs:
            report(cmd, a, b, results[(a, cmd)], results[(b, cmd)])


def instructions(out):
    """Counts the instructions of rustc's `cargo check` of each crate, twice each (the
    counts should agree), and prints them with the ratios."""
    target = os.path.join(out, "target")
    log = os.path.join(out, "instructions.log")
    wrapper = os.path.join(os.path.dirname(os.path.abspath(__file__)), "count_rustc.py")
    counts = {}
    for _ in range(2):
        for kind in KINDS_WRITTEN:
            d = os.path.join(out, kind)
            cargo(d, target, "check")  # dependencies up to date, uncounted
            os.utime(os.path.join(d, "src", "main.rs"))
            if os.path.exists(log):
                os.remove(log)
            env = dict(
                os.environ,
                CARGO_TARGET_DIR=target,
                CARGO_INCREMENTAL="0",
                RUSTC_WRAPPER=wrapper,
                COST_COUNT_LOG=log,
            )
            cmd = ["cargo", "check", "--quiet", "--offline", "--manifest-path", os.path.join(d, "Cargo.toml")]
            subprocess.run(cmd, env=env, check=True)
            with open(log) as f:
                counts.setdefault(kind, []).append(int(f.read().split()[-1]))
    for kind, c in counts.items():
        print(f"cargo check {kind:8}: {c[0] / 1e6:9.1f} M instructions (again: {c[1] / 1e6:.1f} M)")
    pairs = [("typed", "untyped")] + ([("named", "typed")] if "named" in counts else [])
    for a, b in pairs:
        print(f"{a} / {b}: {counts[a][0] / counts[b][0]:.3f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(ROOT, "target", "compile_cost"))
    p.add_argument("--ops", type=int, default=200)
    p.add_argument("--run", action="store_true")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--big", action="store_true", help="every static dim above 65536")
    p.add_argument("--named", action="store_true", help="also the typed crate with named dims")
    p.add_argument(
        "--instructions",
        action="store_true",
        help="count rustc's instructions for `cargo check` of each crate (valgrind; see count_rustc.py)",
    )
    p.add_argument(
        "--only",
        help="comma-separated op kinds to cycle through instead of all ten: " + ", ".join(KINDS),
    )
    a = p.parse_args()
    global BIG, ONLY
    BIG = a.big
    if a.only:
        ONLY = [KINDS.index(k) for k in a.only.split(",")]
    if a.named:
        KINDS_WRITTEN.append("named")
    write(a.out, a.ops)
    print(f"wrote {', '.join(a.out + '/' + k for k in KINDS_WRITTEN)} ({a.ops} ops each)", file=sys.stderr)
    if a.run:
        run(a.out, a.reps)
    if a.instructions:
        instructions(a.out)


if __name__ == "__main__":
    main()
