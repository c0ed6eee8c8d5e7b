#!/usr/bin/env python3
"""A RUSTC_WRAPPER that counts the instructions rustc executes for the benchmark crates
(`cost-typed`, `cost-untyped`, `cost-named`, or the crates named in `COST_COUNT_CRATES`),
with valgrind's cachegrind, and runs rustc plainly for every other crate. Each count is appended to the file named by
`COST_COUNT_LOG` as `crate-name instructions`. Used by `gen.py --instructions`.

Instruction counts do not depend on the machine's load (the same binary, inputs and
environment give the same count), where CPU times do. Standard library only.
"""

import os
import re
import subprocess
import sys

rustc, args = sys.argv[1], sys.argv[2:]
name = args[args.index("--crate-name") + 1] if "--crate-name" in args else ""
log = os.environ.get("COST_COUNT_LOG")
# The crates to count: `cost_*` (gen.py's), or the names in COST_COUNT_CRATES (comma
# separated, e.g. `gpt2,digits` for the examples).
wanted = os.environ.get("COST_COUNT_CRATES", "").split(",")
if not (name.startswith("cost_") or name in wanted) or not log:
    os.execvp(rustc, [rustc, *args])
r = subprocess.run(
    ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", rustc, *args],
    stderr=subprocess.PIPE,
    text=True,
)
m = re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)
count = int(m.group(1).replace(",", "")) if m else -1
with open(log, "a") as f:
    f.write(f"{name} {count}\n")
# rustc's own diagnostics, without valgrind's lines (`==pid==`, `--pid--`).
ours = re.compile(r"^(==|--)\d+(==|--)")
sys.stderr.write("".join(l for l in r.stderr.splitlines(True) if not ours.match(l)))
sys.exit(r.returncode)
