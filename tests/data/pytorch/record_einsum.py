"""Records einsum.json: `torch.einsum` golden cases (values, sizes, strides, dtypes,
errors, gradients) for `Tensor::einsum`.

Every case is made here, from the lists below and a `random.Random(SEED)` stream, so
the file is reproducible: `--check` re-records and compares with the committed file,
writing nothing. Contraction order: `torch.backends.opt_einsum.enabled = False`, so
PyTorch contracts the operands from left to right (with opt_einsum, three or more
operands may be contracted in another order). One thread (`torch.set_num_threads(1)`).

Run from the repository root:

    python3 tests/data/pytorch/record_einsum.py            # write einsum.json
    python3 tests/data/pytorch/record_einsum.py --check    # re-record and compare

Operands follow README.md beside this file: each input is a layout (a strided view of a
fresh storage whose element `i` of operand `k` holds `((i * 7 + k * 3) % 23) + 1`, bool
`(i + k) % 3 != 0`); float inputs are built as `value * scale + shift` (float32/float64:
scale 0.125, shift -1.4375; float16/bfloat16: scale 0.125, no shift, so that every
product is positive). A case's keys: `kind` (what it exercises), `equation`, `inputs`,
`scale`/`shift`, `output` (a result or `{"error": first line}`); gradient cases also
`requires_grad`, `grad_output` (`{"sizes", "values"}`, nonzero multiples of 1/32 in
[-1, 1]) and `grads` (per input the result of its `.grad`, null where it does not
require grad). Float cases whose float32 (float16/bfloat16) result differs from the same
computation in float64 by more than 1e-7 (4e-3) relative are not kept.
"""
import argparse
import json
import os
import random
import sys

import torch

torch.set_num_threads(1)
torch.backends.opt_einsum.enabled = False

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from record import DTYPES, NAMES, close, dumps, error_text, operand, result  # noqa: E402

SEED = 1
FILE = os.path.join(HERE, "einsum.json")
MAX_VALUES = 400
FLOAT_SCALE = {"float32": (0.125, -1.4375), "float64": (0.125, -1.4375),
               "float16": (0.125, None), "bfloat16": (0.125, None)}


# ---------------------------------------------------------------------------------------
# Layouts
# ---------------------------------------------------------------------------------------

def contiguous_strides(sizes):
    strides, acc = [], 1
    for s in reversed(sizes):
        strides.append(acc)
        acc *= max(s, 1)
    return strides[::-1]


def storage_len(sizes, strides, offset):
    if any(s == 0 for s in sizes):
        return 0
    return offset + sum((s - 1) * st for s, st in zip(sizes, strides)) + 1


def layout(sizes, kind, dtype):
    """A layout of `sizes`: contiguous, transposed (dims reversed in memory), strided
    (every other element of the last dim, from offset 1) or expanded (stride 0 at the
    first dim of size above 1)."""
    sizes = list(sizes)
    offset = 0
    if kind == "contiguous" or not sizes:
        strides = contiguous_strides(sizes)
    elif kind == "transposed":
        strides = contiguous_strides(sizes[::-1])[::-1]
    elif kind == "strided":
        wide = sizes[:-1] + [sizes[-1] * 2]
        strides = contiguous_strides(wide)
        strides[-1] = 2
        offset = 1
    elif kind == "expanded":
        strides = contiguous_strides(sizes)
        big = [d for d, s in enumerate(sizes) if s > 1]
        if big:
            d = big[0]
            rest = sizes[:d] + [1] + sizes[d + 1:]
            strides = contiguous_strides(rest)
            strides[d] = 0
    else:
        raise ValueError(kind)
    return {"sizes": sizes, "strides": strides, "offset": offset,
            "storage_len": storage_len(sizes, strides, offset), "dtype": dtype}


# ---------------------------------------------------------------------------------------
# Shapes from an equation
# ---------------------------------------------------------------------------------------

def split_terms(equation):
    lhs = equation.split("->")[0]
    return [t.replace(" ", "") for t in lhs.split(",")]


def shapes_for(equation, sizes, ell=None):
    """Each operand's sizes: a letter's size from `sizes`, the ellipsis dims from `ell`
    (one list per operand, [] by default)."""
    out = []
    for k, term in enumerate(split_terms(equation)):
        shape = []
        rest = term
        while rest:
            if rest.startswith("..."):
                shape += list(ell[k]) if ell else []
                rest = rest[3:]
            else:
                shape.append(sizes[rest[0]])
                rest = rest[1:]
        out.append(shape)
    return out


def random_sizes(rng, equation, low=1, high=4):
    letters = sorted({c for c in equation if c.isalpha()})
    return {c: rng.randint(low, high) for c in letters}


# ---------------------------------------------------------------------------------------
# Running a case
# ---------------------------------------------------------------------------------------

def build_inputs(case):
    scale = case.get("scale")
    shift = case.get("shift", 0.0)
    return [operand(l, k, scale, shift) for k, l in enumerate(case["inputs"])]


def run(case, ops):
    if not ops:
        return torch.einsum(case["equation"])
    return torch.einsum(case["equation"], *ops)


def record(case):
    out = {k: v for k, v in case.items() if k not in ("output", "grads")}
    ops = build_inputs(case)
    if "requires_grad" not in case:
        try:
            out["output"] = result(run(case, ops))
        except Exception as e:  # noqa: BLE001 - every PyTorch error is a recorded outcome
            out["output"] = {"error": error_text(e)}
        return out
    leaves = [t.detach().requires_grad_(rg) for t, rg in zip(ops, case["requires_grad"])]
    y = run(case, leaves)
    go = case["grad_output"]
    g = torch.tensor(go["values"], dtype=torch.float64).reshape(go["sizes"]).to(y.dtype)
    y.backward(g)
    out["output"] = result(y.detach())
    out["grads"] = [None if x.grad is None else result(x.grad) for x in leaves]
    return out


def well_conditioned(case):
    """The float result (and grads) within 1e-7 (halves: 4e-3) of float64's."""
    ops = build_inputs(case)
    floats = [t.dtype.is_floating_point for t in ops]
    if not any(floats):
        return True
    tol = 4e-3 if any(t.dtype in (torch.float16, torch.bfloat16) for t in ops) else 1e-7
    try:
        y = run(case, ops)
    except Exception:  # noqa: BLE001 - an error case has no values to judge
        return True
    wide = [t.to(torch.float64) if t.dtype.is_floating_point else t for t in ops]
    try:
        y64 = run(case, wide)
    except Exception:  # noqa: BLE001 - mixed dtypes that only fail in float64
        return True
    a = y.detach().to(torch.float64).reshape(-1)
    b = y64.detach().reshape(-1)
    if not torch.all((a - b).abs() <= tol * torch.maximum(a.abs(), b.abs()) + 1e-300):
        return False
    return True


# ---------------------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------------------

CONTRACTIONS = [
    "ij,jk->ik", "ij,kj->ik", "ji,jk->ik", "ij,jk->ki", "bij,bjk->bik", "bij,bjk->kbi",
    "i,i->", "i,j->ij", "ij,j->i", "j,ij->i", "ij,ij->", "ij,ij->ij", "ij,ij->ji",
    "bhsd,bhtd->bhst", "bsh,hd->bsd", "bi,ij,bj->b", "bi,bj->bij", "ij,jk,kl->il",
    "a,b,c->abc", "ab,bc,cd,de->ae", "ab,bc,cd,da->", "ijk,jkl->il", "ijk,ikl->ijl",
    "ab,ab,ab->ab", "abc,cd,de->abe", "i,ij,j->", "ab,cd->abcd", "ab,cd->", "ab,bc->",
    "ij,jk->j", "ij,jk->ijk", "abc,bcd->ad", "abcd,cd->ab", "ab,b,bc->ac",
    "ij,ki,jk->", "ab,bc,ca->abc", "abc,ab->c", "a,a,a,a->a", "ia,ib,ic,id->abcd",
]
IMPLICIT = [
    "ij", "ji", "ij,jk", "ba", "aB", "Ba", "AbC,Cd", "zA,Az", "ij,jk,kl", "i", "iij",
    "Xy,yZ", "bij,bjk", "i,i", "i,j", "kj,ji", "Ab,bA", "cba", "b,a", "ZzAa",
]
SINGLE = [
    "ij->i", "ij->j", "ijk->", "ijk->j", "ij->", "ij->ij", "ij->ji", "ijk->kij",
    "ijk->ik", "abcd->db", "i->i", "i->",
]
DIAGONAL = [
    "ii->i", "ii", "iii->i", "iij->ij", "iji->j", "ii,i->i", "ii,jj->ij", "ii,ij->j",
    "ijij->ij", "iij,jk->ik", "ii->", "bii->bi", "aab,bc->ac", "ii,ii->i", "ijji->ij",
    "ii->i,", "iij->", "ijj->ji", "ii,i", "aa,ab->ab", "abab->ba", "iji->ij",
]
ELLIPSIS = [
    # (equation, ellipsis dims per operand)
    ("...ij,...jk->...ik", [[2], [2]]), ("...ij,...jk", [[2, 1], [3]]),
    ("i...,i...->...", [[2, 3], [2, 3]]), ("...i,...i", [[1, 2], [3, 1]]),
    ("...,...->...", [[2, 3], [3]]), ("a...b,b...->a...", [[2], [2]]),
    ("...ij->...ji", [[2, 2]]), ("...ii->...i", [[3]]), ("...->...", [[2, 3]]),
    ("i...->i", [[2, 2]]), ("...ab,ab->...", [[3], []]), ("ab,...b->...a", [[], [2, 1]]),
    ("...i,i->...", [[2], []]), ("b...,b...->b", [[2], [2]]), ("a...c,c...->a...", [[2, 1], [3]]),
    ("...ij,jk->...ik", [[2], []]), ("...", [[2, 3]]), ("...ij", [[2]]), ("i...j", [[3]]),
    ("...,...", [[2, 1, 3], [4, 3]]), ("...ij,...jk", [[], []]), ("i...,j...->ij...", [[2], [1]]),
    ("...ij->...", [[2]]), ("...ij->", [[2]]), ("i...->...", [[2, 3]]),
    ("...i,...j->...ij", [[2], [2]]), ("a...,...a->...", [[3], [3]]),
    ("...ab,...bc,...cd->...ad", [[2], [1], [2]]), ("i...i->...i", [[2]]),
    ("...ii", [[2]]), ("...i,...i->i...", [[2], [1]]), ("a...->...a", [[]]),
]
BROADCAST = [
    # (equation, sizes per operand, letters given size 1 in some operand)
    ("ij,jk->ik", [[2, 1], [3, 4]]), ("i,i->i", [[1], [3]]), ("i,i->", [[3], [1]]),
    ("bij,bjk->bik", [[1, 2, 3], [3, 3, 4]]), ("bij,bjk->bik", [[2, 2, 3], [1, 3, 4]]),
    ("ij,ij->ij", [[1, 3], [2, 1]]), ("ij,ij->", [[1, 3], [2, 1]]), ("ij,jk,kl->il", [[2, 1], [3, 1], [1, 5]]),
    ("ab,ab->a", [[2, 1], [1, 3]]), ("ab,ab,ab->", [[1, 3], [2, 1], [2, 3]]),
    ("i,i,i->i", [[1], [1], [4]]), ("ij,jk->ijk", [[2, 1], [3, 4]]), ("ij,j->", [[1, 3], [1]]),
    ("ii,i->i", [[1, 1], [3]]), ("bi,bj->bij", [[1, 3], [4, 2]]),
]
EMPTY = [
    ("ij,jk->ik", {"i": 2, "j": 0, "k": 3}), ("ij,jk->ik", {"i": 0, "j": 2, "k": 3}),
    ("i,i->", {"i": 0}), ("i,i->i", {"i": 0}), ("ij->i", {"i": 0, "j": 3}), ("ij->j", {"i": 0, "j": 3}),
    ("ii->i", {"i": 0}), ("bij,bjk->bik", {"b": 0, "i": 2, "j": 2, "k": 2}),
    ("ij,jk,kl->il", {"i": 2, "j": 0, "k": 2, "l": 2}), ("i,j->ij", {"i": 0, "j": 3}),
    ("ij", {"i": 0, "j": 2}), ("ij,jk", {"i": 2, "j": 0, "k": 0}), ("ab,bc->", {"a": 2, "b": 0, "c": 2}),
    ("ij->", {"i": 2, "j": 0}), ("ii", {"i": 0}),
]
SCALARS = [
    ("", [[]]), ("->", [[]]), (",->", [[], []]), (",i->i", [[], [3]]), ("i,->i", [[3], []]),
    (",", [[], []]), ("...,...", [[], [2, 3]]), ("i,->", [[3], []]), (",,->", [[], [], []]),
    ("ij,->ji", [[2, 3], []]), ("...->", [[]]), (",ij,->", [[], [2, 2], []]),
]
SPACES = ["i j , j k -> i k", " ij -> ji ", "ij,jk ->ik", "i i", " . . . ", "... ij , ... jk"]
DTYPE_EQUATIONS = ["ij,jk->ik", "ij->i", "ij->ji", "i,j->ij", "ii->i", "bij,bjk->bik",
                   "i,i->", "ij,ij->ij", "ij,j->i", "ij,jk->i", "ij,jk,kl->il", "ii"]
MIXED = [("float32", "float64"), ("float64", "float32"), ("int32", "float64"), ("int64", "int32"),
         ("float16", "float32"), ("bool", "int32"), ("int32", "bool"), ("bool", "float32"),
         ("uint8", "int8"), ("bfloat16", "float16")]
ERRORS = [
    # (equation, operand sizes)
    ("i", []), ("i$j", [[2, 2]]), ("ij->i$", [[2, 2]]), ("i-j", [[2, 3]]), ("ij->i>", [[2, 3]]),
    ("i1,j", [[2], [2]]), ("i\u00e9", [[2, 2]]), ("i", [[2], [2]]), ("i,i", [[2]]),
    ("ij,jk,k", [[2, 2], [2, 2]]), ("i.j", [[2, 2]]), ("...i...", [[2, 3]]),
    ("i->...i...", [[2]]), ("ij->i.", [[2, 2]]), (". ..i", [[2]]), ("i..", [[2]]),
    ("ij", [[2, 2, 2]]), ("ijk", [[2, 2]]), ("ij...", [[2]]), ("i,j", [[2], [3, 3]]),
    ("i->ii", [[2]]), ("i->j", [[2]]), ("ij->iI", [[2, 2]]), ("ij,jk->ik", [[2, 3], [4, 4]]),
    ("bij,bjk->bik", [[2, 2, 3], [3, 3, 4]]), ("ii->i", [[2, 3]]), ("ii", [[3, 2]]),
    ("...i,...i", [[2, 3], [4, 3]]), ("a...,a...", [[2, 3], [2, 3, 4]]), ("i,i", [[2], [3]]),
    ("i->->i", [[2]]), ("ij->ji-", [[2, 2]]), ("iij->j", [[2, 3, 4]]), ("i,i,i", [[2], [2], [3]]),
    ("->i", [[]]), ("ij,jk->ik,", [[2, 2], [2, 2]]), ("...ij,...jk->...ik", [[2, 2, 3], [3, 3, 4]]),
    ("i->...", [[2]]), (",", [[]]), ("", [[2]]), ("ij->j i i", [[2, 2]]), ("ab,bc->ac", [[2, 2], [3, 2]]),
]
KINDS = ["contiguous", "transposed", "strided", "expanded"]


def grad_output(rng, sizes):
    n = 1
    for s in sizes:
        n *= s
    vals = []
    for _ in range(n):
        v = rng.randint(1, 32) / 32.0
        vals.append(v if rng.random() < 0.5 else -v)
    return {"sizes": list(sizes), "values": vals}


def make(kind, equation, shapes, dtypes, layouts=None):
    if isinstance(dtypes, str):
        dtypes = [dtypes] * len(shapes)
    layouts = layouts or ["contiguous"] * len(shapes)
    case = {"kind": kind, "equation": equation,
            "inputs": [layout(s, l, d) for s, l, d in zip(shapes, layouts, dtypes)]}
    floats = [d for d in dtypes if d in FLOAT_SCALE]
    if floats:
        scale, shift = FLOAT_SCALE[floats[0]]
        case["scale"] = scale
        if shift is not None:
            case["shift"] = shift
    return case


def with_grads(rng, case):
    """Adds `requires_grad` and `grad_output` when the case is a float32/float64 success
    with at most 400 output elements."""
    dts = {l["dtype"] for l in case["inputs"]}
    if not case["inputs"] or not dts <= {"float32", "float64"} or len(dts) != 1:
        return case
    try:
        y = run(case, build_inputs(case))
    except Exception:  # noqa: BLE001 - error cases carry no gradients
        return case
    if y.numel() > MAX_VALUES:
        return case
    n = len(case["inputs"])
    flags = [rng.random() < 0.7 for _ in range(n)]
    if not any(flags):
        flags[rng.randrange(n)] = True
    case["requires_grad"] = flags
    case["grad_output"] = grad_output(rng, list(y.shape))
    return case


def generate():
    rng = random.Random(SEED)
    cases = []

    def add(case, grads=True):
        if grads:
            case = with_grads(rng, case)
        if well_conditioned(case):
            cases.append(case)

    def float_dtype():
        return rng.choice(["float32", "float64"])

    def kinds(n):
        return [rng.choice(KINDS) for _ in range(n)]

    for eq in CONTRACTIONS:
        sizes = random_sizes(rng, eq, 1, 4)
        add(make("explicit", eq, shapes_for(eq, sizes), float_dtype()))
        sizes = random_sizes(rng, eq, 2, 4)
        shapes = shapes_for(eq, sizes)
        add(make("layout", eq, shapes, float_dtype(), kinds(len(shapes))))
    for eq in IMPLICIT:
        sizes = random_sizes(rng, eq, 2, 4)
        add(make("implicit", eq, shapes_for(eq, sizes), float_dtype()))
        sizes = random_sizes(rng, eq, 1, 3)
        shapes = shapes_for(eq, sizes)
        add(make("implicit", eq, shapes, "float32", kinds(len(shapes))))
    for eq in SINGLE:
        sizes = random_sizes(rng, eq, 2, 4)
        shapes = shapes_for(eq, sizes)
        add(make("single", eq, shapes, float_dtype()))
        add(make("single", eq, shapes, float_dtype(), kinds(len(shapes))))
    for eq in DIAGONAL:
        if eq.endswith(","):
            continue
        sizes = random_sizes(rng, eq, 2, 4)
        shapes = shapes_for(eq, sizes)
        add(make("diagonal", eq, shapes, float_dtype()))
        add(make("diagonal", eq, shapes, float_dtype(), kinds(len(shapes))))
    for eq, ell in ELLIPSIS:
        sizes = random_sizes(rng, eq, 2, 3)
        shapes = shapes_for(eq, sizes, ell)
        add(make("ellipsis", eq, shapes, float_dtype()))
        add(make("ellipsis", eq, shapes, float_dtype(), kinds(len(shapes))))
    for eq, shapes in BROADCAST:
        add(make("broadcast", eq, shapes, float_dtype()))
        add(make("broadcast", eq, shapes, float_dtype(), kinds(len(shapes))))
    for eq, sizes in EMPTY:
        shapes = shapes_for(eq, sizes)
        add(make("empty", eq, shapes, float_dtype()))
    for eq, shapes in SCALARS:
        add(make("scalar", eq, shapes, float_dtype()))
        add(make("scalar", eq, shapes, "int64"), grads=False)
    for eq in SPACES:
        sizes = random_sizes(rng, eq, 2, 3)
        ell = [[2], [2]] if "..." in eq else None
        add(make("spaces", eq, shapes_for(eq, sizes, ell), float_dtype()))
    for dt in DTYPES:
        for eq in DTYPE_EQUATIONS:
            sizes = random_sizes(rng, eq, 2, 3)
            shapes = shapes_for(eq, sizes)
            add(make("dtype", eq, shapes, dt), grads=False)
        sizes = random_sizes(rng, "ij,jk->ik", 2, 3)
        shapes = shapes_for("ij,jk->ik", sizes)
        add(make("dtype", "ij,jk->ik", shapes, dt, ["transposed", "strided"]), grads=False)
    for a, b in MIXED:
        for eq in ["ij,jk->ik", "i,j->ij", "ij,ij->ij", "i,i->"]:
            sizes = random_sizes(rng, eq, 2, 3)
            add(make("mixed_dtype", eq, shapes_for(eq, sizes), [a, b]), grads=False)
    for eq, shapes in ERRORS:
        add(make("error", eq, shapes, "float32"), grads=False)
    return cases


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = p.parse_args()
    cases = [record(c) for c in generate()]
    meta = {"generator": "PyTorch %s (CPU)" % torch.__version__, "seed": SEED,
            "opt_einsum": False, "threads": 1}
    new = {"meta": meta, "cases": cases}
    if args.check:
        with open(FILE) as f:
            old = json.load(f)
        bad = 0
        if len(old["cases"]) != len(cases):
            print("einsum.json: %d committed cases, %d re-recorded" % (len(old["cases"]), len(cases)))
            sys.exit(1)
        same = within = 0
        for i, (a, b) in enumerate(zip(old["cases"], cases)):
            if dumps(a) == dumps(b):
                same += 1
                continue
            tol = 1e-2 if "float16" in dumps(a) else 1e-6
            d = close(a, b, tol)
            if d is None:
                within += 1
            else:
                bad += 1
                print("  case %d (%s): %s" % (i, a["equation"], d))
        print("einsum.json: %d cases, %d identical, %d within tolerance, %d differ"
              % (len(cases), same, within, bad))
        sys.exit(1 if bad else 0)
    with open(FILE, "w") as f:
        f.write(dumps(new))
    counts = {}
    for c in cases:
        counts[c["kind"]] = counts.get(c["kind"], 0) + 1
    grads = sum(1 for c in cases if "grads" in c)
    errors = sum(1 for c in cases if "error" in c["output"])
    print("einsum.json: %d cases (%s); %d with gradients, %d errors"
          % (len(cases), ", ".join("%s %d" % kv for kv in sorted(counts.items())), grads, errors))


if __name__ == "__main__":
    main()
