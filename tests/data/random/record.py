"""Records seeded torch.rand / torch.randn / torch.randperm for tests/tests/random.rs.

Recorded with: PyTorch 2.15.0+cu132 (CPU), Python 3. Seeds: those of SEEDS below (0, 1,
42, 2**32 + 5, 2**64 - 1), each a fresh generator per case. Re-run on an
AVX512 CPU, every value comes out bit for bit as committed; only `meta.cpu_capability`
reads AVX512 instead of the AVX2 of the committed file (both use the AVX2 Box-Muller
kernel described below).

Run from the repository root:

    python3 tests/data/random/record.py > tests/data/random/random.json

Every case draws from a fresh `torch.Generator().manual_seed(seed)` on the CPU, with
the default dtype float32 (rand, randn) and int64 (randperm). Floats are stored as their
IEEE-754 bit patterns (`struct.unpack("<I", ...)`), so the test can compare bit for bit.

The normal values of a float32 tensor of 16 or more elements come from PyTorch's
vectorised Box-Muller kernel, which differs by CPU build: the x86 AVX2 kernel (what
`torch.backends.cpu.get_cpu_capability()` reports as AVX2 or AVX512 on x86-64) uses
Pommier's avx_mathfun log/sincos, other builds the C library's logf/cosf/sinf. `meta`
records which one this file comes from; tensor-core reproduces the AVX2 one.
"""
import json
import platform
import struct

import torch

SEEDS = [0, 1, 42, 2**32 + 5, 2**64 - 1]
RAND_SIZES = [[1], [7], [16], [17], [100], [3, 5], [1000]]
RANDN_SIZES = [[1], [2], [3], [15], [16], [17], [33], [100], [4, 5], [1000]]
RANDPERM_NS = [0, 1, 2, 10, 100, 1000]


def gen(seed):
    return torch.Generator().manual_seed(seed)


def bits(t):
    assert t.dtype == torch.float32
    return [struct.unpack("<I", struct.pack("<f", x))[0] for x in t.reshape(-1).tolist()]


def main():
    out = {
        "meta": {
            "torch": torch.__version__,
            "cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "machine": platform.machine(),
            "float_encoding": "IEEE-754 binary32 bit patterns as unsigned integers",
        },
        "rand": [],
        "randn": [],
        "randperm": [],
    }
    for seed in SEEDS:
        for sizes in RAND_SIZES:
            t = torch.rand(sizes, generator=gen(seed))
            out["rand"].append({"seed": seed, "sizes": sizes, "bits": bits(t)})
        for sizes in RANDN_SIZES:
            t = torch.randn(sizes, generator=gen(seed))
            out["randn"].append({"seed": seed, "sizes": sizes, "bits": bits(t)})
        for n in RANDPERM_NS:
            t = torch.randperm(n, generator=gen(seed))
            assert t.dtype == torch.int64
            out["randperm"].append({"seed": seed, "n": n, "values": t.tolist()})
    print(json.dumps(out, separators=(",", ":")))


if __name__ == "__main__":
    main()
