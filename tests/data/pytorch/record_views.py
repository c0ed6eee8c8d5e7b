"""Records `views_inplace.json`: views x in-place ops x backward, as PyTorch's autograd
handles them (a view's `grad_fn` regenerated after its base changed in place;
`CopySlices` on the base after an in-place op on a view).

Recorded with: PyTorch 2.15.0+cu132 (CPU), Python 3, `torch.set_num_threads(1)`. No
randomness: the cases are every combination of the lists below, in order.

Run from the repository root:

    python3 tests/data/pytorch/record_views.py            # writes views_inplace.json
    python3 tests/data/pytorch/record_views.py --check    # re-records, compares, writes nothing

A case:
- `dtype`, `sizes`: the leaf `x` = arange(numel) * 0.25 - 1 in that dtype, requiring grad;
  the base is `y = x * 2` (a non-leaf, so in-place ops on it and its views are allowed);
- `view`: the view `v` of `y`: `["narrow", dim, start, length]`, `["select", dim, index]`,
  `["transpose", d0, d1]`, `["view", sizes]`, `["expand", sizes]`,
  `["as_strided", sizes, strides, offset]` (offset relative to `y`'s);
- `target`: what the in-place op writes: `"base"` (`y`), `"view"` (`v`), or
  `"view_of_view"` (`v.narrow(0, 0, 1)`, taken before the write);
- `op`: `["mul_scalar_", s]`, `["add_scalar_", s]`, or `["mul_", "z"]`: a second leaf
  `z` of the target's sizes, arange(numel) * 0.5 + 1, requiring grad;
- `loss`: `"base"` (`(y * y).sum()`) or `"view"` (`(v * v).sum()`), computed after the
  write;
- recorded: `error` (PyTorch's message, when the write or the backward fails), else
  `grad_fn` of the base and of the view after the write (`grad_fn.name()`), `loss_value`
  (its value), `grad_x` and `grad_z` (values, row-major; `null` for no gradient).
"""
import argparse
import json
import os

import torch

torch.set_num_threads(1)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "views_inplace.json")

VIEWS = [
    ["narrow", 0, 1, 2],
    ["narrow", 1, 0, 3],
    ["select", 1, 2],
    ["transpose", 0, 1],
    ["view", [4, 3]],
    ["view", [12]],
    ["expand", [2, 3, 4]],
    ["as_strided", [3], [5], 0],
]
TARGETS = ["base", "view", "view_of_view"]
OPS = [["mul_scalar_", 3.0], ["add_scalar_", 1.0], ["mul_", "z"]]
LOSSES = ["base", "view"]
DTYPES = {"float64": torch.float64, "float32": torch.float32}
SIZES = [3, 4]


def make_view(y, spec):
    kind = spec[0]
    if kind == "narrow":
        return y.narrow(spec[1], spec[2], spec[3])
    if kind == "select":
        return y.select(spec[1], spec[2])
    if kind == "transpose":
        return y.transpose(spec[1], spec[2])
    if kind == "view":
        return y.view(spec[1])
    if kind == "expand":
        return y.expand(spec[1])
    if kind == "as_strided":
        return y.as_strided(spec[1], spec[2], y.storage_offset() + spec[3])
    raise ValueError(kind)


def values(t):
    return [float(v) for v in t.detach().to(torch.float64).reshape(-1).tolist()]


def run(case):
    dt = DTYPES[case["dtype"]]
    n = SIZES[0] * SIZES[1]
    x = (torch.arange(n, dtype=torch.float64) * 0.25 - 1).to(dt).reshape(SIZES)
    x.requires_grad_(True)
    out = {}
    z = None
    try:
        y = x * 2
        v = make_view(y, case["view"])
        target = {"base": lambda: y, "view": lambda: v,
                  "view_of_view": lambda: v.narrow(0, 0, 1)}[case["target"]]()
        op, arg = case["op"]
        if op == "mul_scalar_":
            target.mul_(arg)
        elif op == "add_scalar_":
            target.add_(arg)
        else:
            m = target.numel()
            z = (torch.arange(m, dtype=torch.float64) * 0.5 + 1).to(dt).reshape(target.shape)
            z.requires_grad_(True)
            target.mul_(z)
        grad_fns = [y.grad_fn.name() if y.grad_fn else None,
                    v.grad_fn.name() if v.grad_fn else None]
        src = y if case["loss"] == "base" else v
        loss = (src * src).sum()
        loss.backward()
    except RuntimeError as e:
        out["error"] = str(e).split("\n")[0]
        return out
    out["grad_fn"] = grad_fns
    out["loss_value"] = float(loss.detach())
    out["grad_x"] = None if x.grad is None else values(x.grad)
    out["grad_z"] = None if z is None or z.grad is None else values(z.grad)
    return out


def cases():
    for dtype in DTYPES:
        for view in VIEWS:
            for target in TARGETS:
                for op in OPS:
                    for loss in LOSSES:
                        case = {"dtype": dtype, "sizes": SIZES, "view": view,
                                "target": target, "op": op, "loss": loss}
                        case.update(run(case))
                        yield case


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--check", action="store_true")
    args = p.parse_args()
    doc = {"meta": {"generator": "PyTorch %s (CPU)" % torch.__version__,
                    "script": "tests/data/pytorch/record_views.py"},
           "cases": list(cases())}
    text = json.dumps(doc, indent=1) + "\n"
    if args.check:
        same = open(OUT).read() == text
        print("views_inplace.json: %s" % ("identical" if same else "DIFFERS"))
        raise SystemExit(0 if same else 1)
    with open(OUT, "w") as f:
        f.write(text)
    print("views_inplace.json: %d cases" % len(doc["cases"]))


if __name__ == "__main__":
    main()
