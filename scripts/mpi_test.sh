#!/usr/bin/env bash
# Runs the global-tensor tests (tests/tests/global.rs, test `mpi_suite`) under MPI:
# tensor-core built with its `mpi` feature (rsmpi over Debian's Open MPI), then
# `mpirun -np 2` and `-np 4`. Installs openmpi-bin, libopenmpi-dev and libclang-dev
# (needed by rsmpi's bindgen) with apt-get when they are missing.
# Ends with the line `mpi: N passed, M failed`: the cases counted by rank 0 over both
# runs (a run that crashes or prints no count is one failure).
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
echo "mpi: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
