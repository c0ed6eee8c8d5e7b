"""Records einops.json: einops's own results for the patterns `layout!` must reproduce.

Recorded with: einops 0.8.2 on NumPy 2.4 (no PyTorch: einops' numpy backend), Python 3.
Seed: none for the cases, the hand-picked list below (no random draw); Python's string
hash seed 2 (the script re-runs itself with PYTHONHASHSEED=2), see below. Run from the
repository root:

    python3 tests/data/pytorch/record_einops.py --check   # compare with einops.json
    python3 tests/data/pytorch/record_einops.py           # overwrite einops.json

Every input is `arange(numel)` as float64 reshaped to the case's input shape; a case
records `einops.rearrange/repeat/reduce(x, pattern, [reduction,] **sizes)`'s output
shape and values (row-major). An error case records the last line of einops' message
(the line after the pattern and shape einops repeats). A message that prints a set of
axis names (`{'h', 'd'}`) lists them in Python's string-hash order, which
PYTHONHASHSEED decides: with seed 2 the file comes out byte for byte as committed; with
another seed `--check` compares such sets as sets.
`tests/tests/einops/gen_cases.py` turns this file into the `layout!` test cases.
"""
import argparse
import json
import os
import re
import sys

import einops
import numpy as np

HASH_SEED = "2"
if os.environ.get("PYTHONHASHSEED") != HASH_SEED:
    os.environ["PYTHONHASHSEED"] = HASH_SEED
    os.execv(sys.executable, [sys.executable] + sys.argv)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "einops.json")

# (input shape, op, pattern, sizes, reduction)
CASES = [
    ([2, 3], 'rearrange', 'h w -> w h', {}, None),
    ([2, 3, 4], 'rearrange', 'a b c -> c a b', {}, None),
    ([2, 3, 4], 'rearrange', 'a b c -> a (b c)', {}, None),
    ([2, 3, 4], 'rearrange', 'a b c -> (a b c)', {}, None),
    ([2, 3, 4], 'rearrange', 'a b c -> (c a) b', {}, None),
    ([6, 4], 'rearrange', '(h d) w -> h d w', {'h': 2}, None),
    ([6, 4], 'rearrange', '(h d) w -> d h w', {'d': 2}, None),
    ([6, 4], 'rearrange', '(h d) w -> w (d h)', {'h': 3}, None),
    ([42, 50, 6], 'rearrange', '(g t) a d -> g a (t d)', {'t': 7}, None),
    ([2, 3, 4, 5], 'rearrange', 'b c h w -> b h w c', {}, None),
    ([2, 3, 4, 5], 'rearrange', 'b c h w -> (b h w) c', {}, None),
    ([2, 3, 4, 6], 'rearrange', 'b c h (w p) -> b (c p) h w', {'p': 2}, None),
    ([2, 3, 4, 6], 'rearrange', 'b c (h p1) (w p2) -> b (h w) (p1 p2 c)', {'p1': 2, 'p2': 3}, None),
    ([2, 3, 4], 'rearrange', 'b ... -> ... b', {}, None),
    ([2, 3, 4], 'rearrange', '... c -> c ...', {}, None),
    ([2, 3, 4, 5], 'rearrange', 'b ... c -> b c ...', {}, None),
    ([2, 3, 4, 5], 'rearrange', 'b ... -> b (...)', {}, None),
    ([2, 3], 'rearrange', 'h w -> h 1 w', {}, None),
    ([2, 1, 3], 'rearrange', 'h 1 w -> h w', {}, None),
    ([2, 3], 'rearrange', 'h w -> h () w ()', {}, None),
    ([2, 3], 'rearrange', 'h w -> (h w)', {}, None),
    ([12], 'rearrange', '(a b c) -> c b a', {'a': 2, 'b': 3}, None),
    ([2, 3], 'repeat', 'h w -> h w c', {'c': 4}, None),
    ([2, 3], 'repeat', 'h w -> c h w', {'c': 2}, None),
    ([2, 3], 'repeat', 'h w -> (r h) w', {'r': 2}, None),
    ([2, 3], 'repeat', 'h w -> (h r) w', {'r': 2}, None),
    ([2, 3], 'repeat', 'h w -> h (w 2)', {}, None),
    ([2, 3], 'repeat', 'h w -> (2 h) (w 3)', {}, None),
    ([3], 'repeat', 'w -> h w', {'h': 4}, None),
    ([2, 3], 'repeat', 'h w -> h w 1', {}, None),
    ([2, 1, 3], 'repeat', 'a 1 c -> a b c', {'b': 4}, None),
    ([2, 3, 4], 'repeat', 'b ... -> b r ...', {'r': 2}, None),
    ([2, 3, 4, 5], 'reduce', 'b c h w -> b c', {}, 'mean'),
    ([2, 3, 4, 5], 'reduce', 'b c h w -> b c', {}, 'sum'),
    ([2, 3, 4, 5], 'reduce', 'b c h w -> c', {}, 'max'),
    ([2, 3, 4, 5], 'reduce', 'b c h w -> b', {}, 'min'),
    ([2, 3, 4], 'reduce', 'a b c -> a', {}, 'prod'),
    ([2, 3, 4, 6], 'reduce', 'b c (h h2) (w w2) -> b c h w', {'h2': 2, 'w2': 2}, 'max'),
    ([2, 3, 4, 6], 'reduce', 'b c (h h2) (w w2) -> b h w c', {'h2': 2, 'w2': 3}, 'mean'),
    ([2, 3, 4], 'reduce', 'b ... -> b', {}, 'sum'),
    ([2, 3, 4], 'reduce', 'a b c -> a 1 c', {}, 'sum'),
    ([2, 3, 4], 'reduce', 'a b c -> c a', {}, 'max'),
]

# Patterns einops rejects, with the same fields.
ERRORS = [
    ([2, 3], 'rearrange', 'h w -> h w c', {}, None),
    ([2, 3], 'rearrange', 'h h -> h', {}, None),
    ([2, 3], 'rearrange', '(h d) w -> h d w', {'h': 4}, None),
    ([2, 3], 'rearrange', 'b h w -> b w h', {}, None),
    ([2, 3], 'rearrange', 'h w -> h', {}, None),
    ([2, 3], 'rearrange', 'h w -> ... h w', {}, None),
    ([2, 3], 'rearrange', 'h w -> h w 2', {}, None),
    ([2, 3], 'repeat', 'h w -> h w c', {}, None),
    ([2, 3], 'rearrange', 'h (w -> h w', {}, None),
    ([2, 3], 'rearrange', '((h w)) -> h w', {}, None),
    ([2, 3, 4], 'rearrange', '(a ...) c -> a c', {}, None),
    ([2, 3], 'rearrange', 'h w -> w h', {'q': 2}, None),
    ([2, 3], 'reduce', 'h w -> h x', {}, 'sum'),
    ([6, 4], 'rearrange', '(h d) w -> h d w', {}, None),
]


def run(shape, op, pattern, sizes, reduction):
    x = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    if op == "reduce":
        return einops.reduce(x, pattern, reduction, **sizes)
    return getattr(einops, op)(x, pattern, **sizes)


def fields(shape, op, pattern, sizes, reduction):
    return {"input_shape": shape, "op": op, "pattern": pattern, "sizes": sizes,
            "reduction": reduction}


def record():
    cases = []
    for c in CASES:
        y = run(*c)
        cases.append(dict(fields(*c), output_shape=list(y.shape),
                          values=[float(v) for v in y.reshape(-1)]))
    errors = []
    for c in ERRORS:
        try:
            run(*c)
        except einops.EinopsError as e:
            errors.append(dict(fields(*c), einops_message=str(e).split("\n")[-1].strip()))
        else:
            raise AssertionError("einops accepted %r" % (c,))
    meta = {"generator": "einops %s (numpy)" % einops.__version__,
            "input": "arange(numel) as float64, reshaped to the input shape"}
    return {"meta": meta, "cases": cases, "errors": errors}


def canonical(message):
    """The message with each `{'a', 'b'}` set of names sorted."""
    def sort_set(m):
        names = sorted(n.strip() for n in m.group(1).split(","))
        return "{" + ", ".join(names) + "}"
    return re.sub(r"\{('[^{}]*')\}", sort_set, message)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true", help="compare with einops.json only")
    args = p.parse_args()
    new = record()
    text = json.dumps(new, separators=(",", ":"))
    if not args.check:
        with open(OUT, "w") as f:
            f.write(text)
        return
    with open(OUT) as f:
        old_text = f.read()
    old = json.loads(old_text)
    if old_text == text:
        print("einops.json: %d cases, %d errors, identical" % (len(CASES), len(ERRORS)))
        return
    same_cases = sum(a == b for a, b in zip(old["cases"], new["cases"]))
    same_errors = 0
    for a, b in zip(old["errors"], new["errors"]):
        a, b = dict(a), dict(b)
        a["einops_message"] = canonical(a["einops_message"])
        b["einops_message"] = canonical(b["einops_message"])
        same_errors += a == b
    ok = (old["meta"] == new["meta"] and same_cases == len(old["cases"]) == len(CASES)
          and same_errors == len(old["errors"]) == len(ERRORS))
    print("einops.json: %d/%d cases equal, %d/%d errors equal (sets of names as sets)%s"
          % (same_cases, len(CASES), same_errors, len(ERRORS), "" if ok else ", DIFFERS"))
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
