#!/usr/bin/env bash
# Runs tensor-core's unit tests, the fuzz test (tests/tests/fuzz.rs) and the concurrency
# test (tests/tests/concurrency.rs) under AddressSanitizer, on the nightly toolchain
# (`-Zsanitizer=address` is unstable): every heap, stack and global access of the
# unsafe kernels is bounds- and lifetime-checked, and a bad one aborts with ASan's
# report. Built with the `test` profile (opt-level 1: the specialised kernels, not the
# simple bodies of cfg(unoptimized)), for the host target only, so build scripts and
# proc macros are not instrumented; in its own target dir (target/asan, or
# $ASAN_TARGET_DIR) so it never invalidates the normal builds.
#
# Ends with the line `asan: N passed, M failed`: N and M summed over the test binaries'
# `test result` lines; a binary that ASan aborted (no result line) counts one failure,
# and its report is printed.
set -uo pipefail
cd "$(dirname "$0")/.."

target=x86_64-unknown-linux-gnu
export CARGO_TARGET_DIR="${ASAN_TARGET_DIR:-$PWD/target/asan}"
export RUSTFLAGS="-Zsanitizer=address"
export RUSTDOCFLAGS="-Zsanitizer=address"
# allocator_may_return_null: the fuzz test asks for unallocatable sizes on purpose and
# expects tensor-core's fallible allocation to turn the null into Error::OutOfMemory.
# detect_leaks stays on: a leak is reported (and fails the binary).
export ASAN_OPTIONS="${ASAN_OPTIONS:-allocator_may_return_null=1:detect_stack_use_after_return=1:abort_on_error=1}"
export RUST_BACKTRACE=1
# Instrumented, the two concurrency tests run side by side take longer than their
# 20 s deadlock deadline on 2 cores (alone: 5 s and 13 s); a deadlock still fails.
export TENSOR_CONCURRENCY_DEADLINE_SECS="${TENSOR_CONCURRENCY_DEADLINE_SECS:-120}"

if ! rustup toolchain list | grep -q '^nightly'; then
    echo "asan: the nightly toolchain is missing (rustup toolchain install nightly)"
    echo "asan: 0 passed, 1 failed"
    exit 1
fi

log=$(mktemp)
start=$(date +%s)
cargo +nightly test --target "$target" \
    -p tensor-core --lib \
    -p tensor-tests --test fuzz --test concurrency \
    --no-fail-fast 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
end=$(date +%s)

passed=0
failed=0
while read -r p f; do
    passed=$((passed + p))
    failed=$((failed + f))
done < <(grep -E '^test result: ' "$log" | sed -E 's/.* ([0-9]+) passed; ([0-9]+) failed.*/\1 \2/')

# A binary that started ("Running ...") but printed no `test result` was killed (ASan
# aborts on the first error).
binaries=$(grep -cE '^\s+Running ' "$log")
results=$(grep -cE '^test result: ' "$log")
if [ "$binaries" -gt "$results" ]; then
    failed=$((failed + binaries - results))
fi
if grep -q "ERROR: AddressSanitizer\|ERROR: LeakSanitizer" "$log"; then
    echo "== AddressSanitizer reports:"
    grep -A40 "ERROR: AddressSanitizer\|ERROR: LeakSanitizer" "$log"
    [ "$failed" -eq 0 ] && failed=1
fi
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    # A build failure or another error cargo reported without a failing test.
    failed=1
fi
echo "asan: took $((end - start)) s (build and run)"
echo "asan: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
