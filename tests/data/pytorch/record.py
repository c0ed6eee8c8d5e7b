"""Records the PyTorch golden cases of this directory (all but einops.json, which
`record_einops.py` beside this file records).

Recorded with: PyTorch 2.15.0+cu132 (CPU build of the CUDA wheel; only the CPU is used),
Python 3, NumPy 2.4, `torch.set_num_threads(1)`. Seed: 1. The inputs of every case (layouts, shapes, dims, args,
explicit index/target operands, `requires_grad` flags, `grad_output` values, scenarios)
were drawn by the project's first generator with seed 1, which is not in the repository;
this script keeps those draws as they are in the committed files and asks PyTorch again
for everything PyTorch decides: results (sizes, strides, dtype, values), error messages,
views, strides of memory formats, contiguity predicates, promoted dtypes and gradients.
The committed files are the record of seed 1; a new seed needs new draws, which this
script does not make.

Run from the repository root:

    python3 tests/data/pytorch/record.py --check           # re-record every file, compare
    python3 tests/data/pytorch/record.py                   # re-record, overwrite the files
    python3 tests/data/pytorch/record.py nn autograd --out /tmp/cases   # some files, elsewhere

`--check` writes nothing: per file it prints how many cases are byte-identical once
re-recorded, how many differ only in float values within the judges' tolerance (1e-6
relative; 1e-2 for float16/bfloat16) and how many differ otherwise (each named), and
exits non-zero when any case differs beyond tolerance.

The format (operands, results, errors) is described in README.md beside this file:
element `i` of the storage of operand `k` holds `((i * 7 + k * 3) % 23) + 1` (bool:
`(i + k) % 3 != 0`); a case with `scale`/`shift` builds floating inputs as
`value * scale + shift` in float64 before converting to the dtype.
"""
import argparse
import json
import math
import os
import sys

import torch
import torch._prims_common as prims
import torch.nn.functional as F

# The committed files were recorded on one thread: with more, a few float64 layer_norm
# gradients come out one ulp apart (another split of the sums).
torch.set_num_threads(1)

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = "PyTorch %s (CPU)" % torch.__version__
SEED = 1
MAX_VALUES = 400

DTYPES = {
    "bool": torch.bool,
    "uint8": torch.uint8,
    "int8": torch.int8,
    "int16": torch.int16,
    "int32": torch.int32,
    "int64": torch.int64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
    "float64": torch.float64,
}
NAMES = {v: k for k, v in DTYPES.items()}
# Values of these dtypes are written with this many significant digits (enough to read
# every float32 back exactly; float16/bfloat16 values to about 1e-6): the committed files
# hold float32 values as %.9g and float16/bfloat16 values as %.6g. Other dtypes: repr.
SIGNIFICANT_DIGITS = {torch.float32: 9, torch.float16: 6, torch.bfloat16: 6}


# ---------------------------------------------------------------------------------------
# Operands and results
# ---------------------------------------------------------------------------------------


def operand(layout, k, scale=None, shift=0.0):
    """Operand number `k`: a fresh storage of `storage_len` (at least 1) elements filled
    as README.md says, viewed with the layout's sizes, strides and offset."""
    dt = DTYPES[layout["dtype"]]
    n = max(layout["storage_len"], 1)
    if dt == torch.bool:
        base = torch.tensor([(i + k) % 3 != 0 for i in range(n)], dtype=torch.bool)
    else:
        vals = torch.tensor([float(((i * 7 + k * 3) % 23) + 1) for i in range(n)],
                            dtype=torch.float64)
        if scale is not None and dt.is_floating_point:
            vals = vals * scale + (shift or 0.0)
        base = vals.to(dt)
    return torch.as_strided(base, layout["sizes"], layout["strides"], layout["offset"])


def explicit(spec):
    """An explicit operand (`index`, `target`): contiguous, `values` in row-major order."""
    return torch.tensor(spec["values"], dtype=DTYPES[spec["dtype"]]).reshape(spec["sizes"])


def values(t):
    """Elements in logical row-major order as floats (bools stay bools); None past 400."""
    if t.numel() > MAX_VALUES:
        return None
    flat = t.detach().reshape(-1).tolist()
    if t.dtype == torch.bool:
        return [bool(v) for v in flat]
    digits = SIGNIFICANT_DIGITS.get(t.dtype)
    if digits is None:
        return [float(v) for v in flat]
    return [float("%.*g" % (digits, v)) for v in flat]


def result(t, with_values=True):
    r = {"sizes": list(t.shape), "strides": list(t.stride()), "dtype": NAMES[t.dtype]}
    if with_values:
        r["values"] = values(t)
    return r


def error_text(e):
    """PyTorch's message, first line."""
    return str(e).split("\n")[0]


def outcome(f):
    """`f()`'s result, or `{"error": ...}`."""
    try:
        return result(f())
    except Exception as e:  # noqa: BLE001 - every PyTorch error is a recorded outcome
        return {"error": error_text(e)}


def keep(case, outputs):
    """The case's recorded inputs (every key but the outputs), in their order."""
    return {k: v for k, v in case.items() if k not in outputs}


# ---------------------------------------------------------------------------------------
# One function per file: case (inputs as committed) -> case (outputs from PyTorch)
# ---------------------------------------------------------------------------------------


def contiguity(case):
    t = operand(case["layout"], 0)
    nd = t.dim()
    fmt = prims.suggest_memory_format(t)
    return {
        "layout": case["layout"],
        "is_contiguous": t.is_contiguous(),
        "is_channels_last_contiguous": nd == 4 and t.is_contiguous(memory_format=torch.channels_last),
        "is_channels_last_3d_contiguous": nd == 5
        and t.is_contiguous(memory_format=torch.channels_last_3d),
        "is_non_overlapping_and_dense": prims.is_non_overlapping_and_dense_or_false(t),
        "suggest_memory_format": {
            torch.contiguous_format: "contiguous",
            torch.channels_last: "channels_last",
            torch.channels_last_3d: "channels_last_3d",
        }[fmt],
    }


def memory_format(case):
    t = operand(case["input"], 0)
    out = {
        "input": case["input"],
        "clone_preserve": list(t.clone(memory_format=torch.preserve_format).stride()),
        "empty_like": list(torch.empty_like(t).stride()),
        "contiguous": list(t.contiguous().stride()),
    }
    cl = {4: torch.channels_last, 5: torch.channels_last_3d}.get(t.dim())
    if cl is not None:
        out["contiguous_cl"] = list(t.contiguous(memory_format=cl).stride())
        out["to_cl"] = list(t.to(memory_format=cl).stride())
    return out


def view_reshape(case):
    t = operand(case["input"], 0)
    out = keep(case, ("view", "reshape"))
    try:
        v = t.view(case["shape"])
        out["view"] = {"sizes": list(v.shape), "strides": list(v.stride())}
    except Exception as e:  # noqa: BLE001
        out["view"] = {"error": error_text(e)}
    try:
        r = t.reshape(case["shape"])
        out["reshape"] = {
            "sizes": list(r.shape),
            "strides": list(r.stride()),
            "is_view": r.untyped_storage().data_ptr() == t.untyped_storage().data_ptr(),
            "values": values(r),
        }
    except Exception as e:  # noqa: BLE001
        out["reshape"] = {"error": error_text(e)}
    return out


def expand(case):
    t = operand(case["input"], 0)
    out = keep(case, ("result",))
    try:
        e = t.expand(case["sizes"])
        out["result"] = {"sizes": list(e.shape), "strides": list(e.stride())}
    except Exception as e:  # noqa: BLE001
        out["result"] = {"error": error_text(e)}
    return out


def repeat(case):
    t = operand(case["input"], 0)
    out = keep(case, ("result",))
    out["result"] = outcome(lambda: t.repeat(case["repeats"]))
    return out


def reduce(case):
    t = operand(case["input"], 0)
    dims, keepdim = case["dims"], case["keepdim"]
    call = {
        "sum": lambda: t.sum(dims, keepdim),
        "amax": lambda: t.amax(dims, keepdim),
        "amin": lambda: t.amin(dims, keepdim),
        "prod": lambda: t.prod(dims[0], keepdim),
    }[case["op"]]
    out = keep(case, ("result",))
    out["result"] = outcome(call)
    return out


def elementwise(case):
    ts = [operand(l, k) for k, l in enumerate(case["inputs"])]
    call = {
        "add": lambda: torch.add(ts[0], ts[1]),
        "mul": lambda: torch.mul(ts[0], ts[1]),
        "neg": lambda: torch.neg(ts[0]),
        "addcmul": lambda: torch.addcmul(ts[0], ts[1], ts[2]),
        "where": lambda: torch.where(ts[0], ts[1], ts[2]),
    }[case["op"]]
    out = keep(case, ("output", "error"))
    r = outcome(call)
    if "error" in r:
        out["error"] = r["error"]
    else:
        out["output"] = r
    return out


def inplace_out(case):
    a, b = (operand(l, k) for k, l in enumerate(case["inputs"]))
    out = keep(case, ("output", "error"))
    op = case["op"]
    try:
        if op == "add_":
            a.add_(b)
            written = a
        elif op == "mul_":
            a.mul_(b)
            written = a
        else:
            written = operand(case["out"], 2)
            torch.add(a, b, out=written)
        out["output"] = result(written)
    except Exception as e:  # noqa: BLE001
        out["error"] = error_text(e)
    return out


SCALARS = {"bool_scalar": True, "int_scalar": 2, "float_scalar": 2.5}


def promotion(case):
    a_dt = DTYPES[case["a"]]
    kind = case["b_kind"]
    if kind in ("scalar", "scalar_zero_dim_a"):
        a = torch.ones([] if kind == "scalar_zero_dim_a" else [2], dtype=a_dt)
        b = SCALARS[case["b"]]
    else:
        b_dt = DTYPES[case["b"]]
        a = torch.ones([] if kind == "both_zero_dim" else [2], dtype=a_dt)
        b = torch.ones([] if kind in ("zero_dim", "both_zero_dim") else [2], dtype=b_dt)
    out = keep(case, ("result",))
    out["result"] = NAMES[torch.result_type(a, b)]
    return out


# nn.json and autograd.json share the op table of README.md.


def nn_call(op, ts, case):
    """The PyTorch call of `op` on inputs `ts` (the op table of README.md)."""
    a = case.get("args", {})
    x = ts[0] if ts else None
    if op in ("softmax", "log_softmax"):
        return getattr(torch, op)(x, a["dim"])
    if op == "layer_norm":
        w = ts[1] if len(ts) > 1 else None
        b = ts[2] if len(ts) > 2 else None
        return F.layer_norm(x, a["normalized_shape"], w, b, a["eps"])
    if op == "gelu":
        return F.gelu(x, approximate=a["approximate"])
    if op == "silu":
        return F.silu(x)
    if op == "embedding":
        return F.embedding(explicit(case["index"]), x)
    if op == "index_select":
        return torch.index_select(x, a["dim"], explicit(case["index"]))
    if op == "gather":
        return torch.gather(x, a["dim"], explicit(case["index"]))
    if op == "cat":
        return torch.cat(ts, a["dim"])
    if op == "stack":
        return torch.stack(ts, a["dim"])
    if op == "cross_entropy":
        return F.cross_entropy(x, explicit(case["target"]), reduction=a["reduction"])
    if op == "conv2d":
        bias = ts[2] if len(ts) > 2 else None
        return F.conv2d(x, ts[1], bias, a["stride"], a["padding"], a["dilation"], a["groups"])
    if op in ("max_pool2d", "avg_pool2d"):
        return getattr(F, op)(x, a["kernel_size"], a["stride"], a["padding"])
    if op in ("var", "std"):
        return getattr(torch, op)(x, dim=a["dims"], correction=a["correction"], keepdim=a["keepdim"])
    if op == "mean":
        return torch.mean(x, dim=a["dims"], keepdim=a["keepdim"])
    if op == "masked_fill":
        return x.masked_fill(ts[1], a["value"])
    if op in ("tril", "triu"):
        return getattr(torch, op)(x, a["diagonal"])
    if op in ("maximum", "minimum", "sub", "div", "add", "mul", "matmul"):
        return getattr(torch, op)(ts[0], ts[1])
    if op == "pow_scalar":
        return torch.pow(x, a["exponent"])
    if op == "narrow":
        return torch.narrow(x, a["dim"], a["start"], a["length"])
    if op == "squeeze":
        return torch.squeeze(x) if a["dim"] is None else torch.squeeze(x, a["dim"])
    if op == "unsqueeze":
        return torch.unsqueeze(x, a["dim"])
    if op == "transpose":
        return torch.transpose(x, a["dim0"], a["dim1"])
    if op == "sum":
        return torch.sum(x) if a["dims"] is None else torch.sum(x, a["dims"], a["keepdim"])
    if op == "amax":
        return torch.amax(x, a["dims"], a["keepdim"])
    if op == "prod":
        return torch.prod(x, a["dim"])
    if op == "permute":
        return x.permute(a["dims"])
    if op == "expand":
        return x.expand(a["sizes"])
    if op == "reshape":
        return x.reshape(a["shape"])
    if op == "repeat":
        return x.repeat(a["repeats"])
    if op == "where":
        return torch.where(ts[0], ts[1], ts[2])
    if op == "clamp":
        return torch.clamp(x, a["min"], a["max"])
    if op in ("relu", "exp", "log", "sqrt", "sigmoid", "tanh", "abs", "neg"):
        return getattr(torch, op)(x)
    raise ValueError("unknown op %s" % op)


def nn_inputs(case):
    return [operand(l, k, case.get("scale"), case.get("shift", 0.0))
            for k, l in enumerate(case["inputs"])]


def nn(case):
    ts = nn_inputs(case)
    out = keep(case, ("output", "error"))
    r = outcome(lambda: nn_call(case["op"], ts, case))
    if "error" in r:
        out["error"] = r["error"]
    else:
        out["output"] = r
    return out


def scenario(case):
    """Runs an autograd error case's Python `scenario` on its leaves; the error."""
    ts = nn_inputs(case)
    env = {"torch": torch}
    for k, (t, rg) in enumerate(zip(ts, case["requires_grad"])):
        env["x%d" % k] = t.detach().requires_grad_(rg)
    code = case["scenario"]
    if " with g = " in code:  # grad_shape_mismatch: g = ones(grad_sizes) in x0's dtype
        code = code.split(" with g = ")[0]
        env["g"] = torch.ones(case["grad_sizes"], dtype=env["x0"].dtype)
    try:
        exec(code, env)  # noqa: S102 - the case's own recorded scenario
    except Exception as e:  # noqa: BLE001
        return error_text(e)
    raise AssertionError("scenario raised no error: %s" % case["scenario"])


def autograd(case):
    if "scenario" in case:
        out = keep(case, ("error",))
        out["error"] = scenario(case)
        return out
    leaves = [t.detach().requires_grad_(rg)
              for t, rg in zip(nn_inputs(case), case["requires_grad"])]
    out = keep(case, ("output", "grads"))
    y = nn_call(case["op"], leaves, case)
    go = case["grad_output"]
    g = torch.tensor(go["values"], dtype=torch.float64).reshape(go["sizes"]).to(y.dtype)
    y.backward(g)
    out["output"] = result(y.detach())
    out["grads"] = [None if x.grad is None else result(x.grad) for x in leaves]
    return out


RECORDERS = {
    "contiguity": contiguity,
    "memory_format": memory_format,
    "view_reshape": view_reshape,
    "expand": expand,
    "repeat": repeat,
    "reduce": reduce,
    "elementwise": elementwise,
    "inplace_out": inplace_out,
    "promotion": promotion,
    "nn": nn,
    "autograd": autograd,
}


# ---------------------------------------------------------------------------------------
# Comparison with the committed file
# ---------------------------------------------------------------------------------------


def tolerance(case):
    text = json.dumps(case)
    return 1e-2 if ("float16" in text or "bfloat16" in text) else 1e-6


def close(a, b, tol):
    """Equal structure; floats within `tol` relative; the first difference or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a.keys()) != list(b.keys()):
            return "keys %s vs %s" % (list(a.keys()), list(b.keys()))
        for k in a:
            d = close(a[k], b[k], tol)
            if d:
                return "%s.%s" % (k, d) if not d.startswith("[") else k + d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return ": %d vs %d elements" % (len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            d = close(x, y, tol)
            if d:
                return "[%d]%s" % (i, d if d.startswith((".", "[", ":")) else ": " + d)
        return None
    if isinstance(a, float) and isinstance(b, float) and not isinstance(a, bool):
        if a == b or (math.isnan(a) and math.isnan(b)):
            return None
        if abs(a - b) <= tol * max(abs(a), abs(b)):
            return None
        return "%r vs %r" % (a, b)
    if type(a) is not type(b) or a != b:
        return "%r vs %r" % (a, b)
    return None


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("files", nargs="*", help="stems to record (default: all)")
    p.add_argument("--from", dest="src", default=HERE, help="where the committed cases are")
    p.add_argument("--out", default=HERE, help="where to write the re-recorded files")
    p.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = p.parse_args()
    stems = args.files or list(RECORDERS)
    bad = 0
    for stem in stems:
        with open(os.path.join(args.src, stem + ".json")) as f:
            old = json.load(f)
        cases = [RECORDERS[stem](c) for c in old["cases"]]
        new = {"meta": {"generator": GENERATOR, "seed": SEED}, "cases": cases}
        if args.check:
            same = within = 0
            diffs = []
            for i, (a, b) in enumerate(zip(old["cases"], cases)):
                if dumps(a) == dumps(b):
                    same += 1
                    continue
                d = close(a, b, tolerance(a))
                if d is None:
                    within += 1
                else:
                    diffs.append("  case %d (%s): %s" % (i, a.get("op", stem), d))
            print("%s.json: %d cases, %d identical, %d within tolerance, %d differ"
                  % (stem, len(cases), same, within, len(diffs)))
            if dumps(old["meta"]) != dumps(new["meta"]):
                print("  meta: %s vs %s" % (dumps(old["meta"]), dumps(new["meta"])))
            for d in diffs[:20]:
                print(d)
            bad += len(diffs)
        else:
            with open(os.path.join(args.out, stem + ".json"), "w") as f:
                f.write(dumps(new))
    if bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
