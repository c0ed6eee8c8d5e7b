#!/usr/bin/env bash
# Runs the global-tensor tests (tests/tests/global.rs, test `mpi_suite`, which includes
# the gradient cases of tests/src/global_grad.rs) under MPI: tensor-core built with its
# `mpi` feature (rsmpi over Debian's Open MPI), then `mpirun -np 2` and `-np 4`; then the
# data-parallel digits example under `mpirun -np 2` (its mlp's test accuracy against the
# one-rank run of the same seed, within 0.002), a rank that fails (`--fail-rank 1`) and
# one that aborts (`--drop-rank 1`, a dropped peer), each ending the job with an error
# naming it, within a timeout; its mlp with typed global tensors (`--sbp`) under
# `mpirun -np 2`, against the same one-rank accuracy; and the tensor_parallel example
# (Megatron-LM's MLP block with typed SBP) under `mpirun -np 2`, which exits 0 only when
# it equals its one-process run. Installs openmpi-bin, libopenmpi-dev and libclang-dev
# (needed by rsmpi's bindgen) with apt-get when they are missing.
# Ends with the line `mpi: N passed, M failed`: the cases counted by rank 0 over both
# runs (a run that crashes or prints no count is one failure), plus the four digits
# cases and the tensor_parallel case.
set -uo pipefail
cd "$(dirname "$0")/.."

packages=(openmpi-bin libopenmpi-dev libclang-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_log=$(mktemp)
if ! cargo test --release -p tensor-tests --features tensor-core/mpi --test global --no-run >"$build_log" 2>&1; then
    cat "$build_log"
    echo "mpi: 0 passed, 1 failed"
    exit 1
fi
bin=$(grep -o 'Executable tests/global.rs ([^)]*)' "$build_log" | tail -1 | sed 's/.*(\(.*\))/\1/')
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
    cat "$build_log"
    echo "mpi: 0 passed, 1 failed"
    exit 1
fi

passed=0
failed=0
for np in 2 4; do
    log=$(mktemp)
    echo "== mpirun -np $np $bin mpi_suite"
    timeout 900 mpirun --allow-run-as-root --oversubscribe -np "$np" \
        "$bin" --ignored --exact mpi_suite --nocapture --test-threads=1 >"$log" 2>&1
    rc=$?
    # Ranks share the terminal, so a count may follow another rank's "test ... ".
    grep -E "FAILED" "$log"
    line=$(grep -oE "mpi-suite np=$np: [0-9]+ passed, [0-9]+ failed" "$log" | tail -1)
    echo "${line:-no count printed (exit $rc)}"
    if [ -z "$line" ]; then
        tail -30 "$log"
        failed=$((failed + 1))
    else
        p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1/')
        f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\2/')
        passed=$((passed + p))
        failed=$((failed + f))
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            tail -30 "$log"
            failed=$((failed + 1))
        fi
    fi
done
# The data-parallel digits example and the tensor_parallel example (tensor-typed, built
# with tensor-core's `mpi`).
digits_log=$(mktemp)
# `count_case STATUS WHAT`: one digits case, passed when STATUS is 0 (else the end of
# its log is printed).
count_case() {
    if [ "$1" -eq 0 ]; then
        echo "$2: ok"
        passed=$((passed + 1))
    else
        tail -20 "$digits_log"
        echo "$2: FAILED"
        failed=$((failed + 1))
    fi
}
digits=""
tp=""
if cargo build --release -p tensor-typed --features tensor-core/mpi --example digits \
    --example tensor_parallel --message-format=json >"$digits_log" 2>/dev/null; then
    digits=$(grep -o '"executable":"[^"]*examples/digits"' "$digits_log" | tail -1 | sed 's/"executable":"\(.*\)"/\1/')
    tp=$(grep -o '"executable":"[^"]*examples/tensor_parallel"' "$digits_log" | tail -1 | sed 's/"executable":"\(.*\)"/\1/')
fi
if [ -z "$digits" ] || [ ! -x "$digits" ]; then
    echo "digits: the example did not build with the mpi feature"
    failed=$((failed + 4))
else
    one=$(timeout 300 "$digits" --model mlp --seed 0 | grep -oE "test accuracy: [0-9.]+" | grep -oE "[0-9.]+$")
    echo "== mpirun -np 2 $digits --mpi --model mlp --seed 0"
    timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 \
        "$digits" --mpi --model mlp --seed 0 >"$digits_log" 2>&1
    rc=$?
    grep -E "^epoch +(1|30):|^rank|test accuracy|train time" "$digits_log"
    two=$(grep -oE "test accuracy: [0-9.]+" "$digits_log" | grep -oE "[0-9.]+$" | tail -1)
    [ "$rc" -eq 0 ] && [ -n "$one" ] && [ -n "$two" ] &&
        awk -v a="$one" -v b="$two" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.002) }'
    count_case $? "digits mpirun -np 2: accuracy '$two', one rank '$one' (exit $rc)"
    echo "== mpirun -np 2 $digits --mpi --sbp --model mlp --seed 0"
    timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 \
        "$digits" --mpi --sbp --model mlp --seed 0 >"$digits_log" 2>&1
    rc=$?
    grep -E "^epoch +(1|30):|^rank|test accuracy|train time" "$digits_log"
    sbp=$(grep -oE "test accuracy: [0-9.]+" "$digits_log" | grep -oE "[0-9.]+$" | tail -1)
    [ "$rc" -eq 0 ] && [ -n "$one" ] && [ -n "$sbp" ] &&
        awk -v a="$one" -v b="$sbp" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.002) }'
    count_case $? "digits --sbp mpirun -np 2: accuracy '$sbp', one rank '$one' (exit $rc)"
    # A faulty rank 1 (flag FLAG) must end the job, naming it (the log matches PATTERN).
    faulty_case() {
        echo "== mpirun -np 2 $digits --mpi --epochs 1 $1 1 (must fail, naming rank 1)"
        start=$(date +%s)
        timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 \
            "$digits" --mpi --epochs 1 "$1" 1 >"$digits_log" 2>&1
        rc=$?
        took=$(( $(date +%s) - start ))
        grep -E "$2" "$digits_log"
        [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q "$2" "$digits_log"
        count_case $? "digits $1 1: the job ended in ${took} s (exit $rc), naming rank 1"
    }
    faulty_case --fail-rank "training failed: rank 1: .*Target 10 is out of bounds"
    faulty_case --drop-rank "process rank 1 .*exited on signal"
fi
if [ -z "$tp" ] || [ ! -x "$tp" ]; then
    echo "tensor_parallel: the example did not build with the mpi feature"
    failed=$((failed + 1))
else
    echo "== mpirun -np 2 $tp --mpi"
    timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 "$tp" --mpi >"$digits_log" 2>&1
    rc=$?
    grep -E "^step +(1|20):|^max|equal to|MISMATCH" "$digits_log"
    [ "$rc" -eq 0 ] && grep -q "^equal to the one-process run" "$digits_log"
    count_case $? "tensor_parallel mpirun -np 2: equal to the one-process run (exit $rc)"
fi

echo "mpi: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
