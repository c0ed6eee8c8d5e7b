"""Records a few steps of torch.optim.SGD and torch.optim.AdamW for tests/tests/optim.rs.

Recorded with: PyTorch 2.15.0+cu132 (CPU), Python 3. Seed: none (no random draw: the
initial values and gradients are the sine formula of `values(n, seed)`, its `seed` a
per-tensor offset). Re-running it gives optim.json byte for byte.

Run from the repository root: python3 tests/data/optim/record.py > tests/data/optim/optim.json

Each case: three float32 parameters (sizes below) with fixed initial values, and for
each of STEPS steps a gradient per parameter (or None: that parameter has no grad at
that step and must be skipped) set directly on `.grad`; the parameters are recorded
after every step. `foreach=False` pins PyTorch's single-tensor algorithm (the CPU
default).
"""
import json
import math

import torch

SIZES = [[3, 2], [4], [2, 2]]
STEPS = 5

CASES = [
    ("sgd_plain", "sgd", dict(lr=0.1)),
    ("sgd_momentum", "sgd", dict(lr=0.1, momentum=0.9)),
    ("sgd_momentum_dampening", "sgd", dict(lr=0.05, momentum=0.9, dampening=0.1)),
    ("sgd_nesterov", "sgd", dict(lr=0.1, momentum=0.9, nesterov=True)),
    ("sgd_weight_decay", "sgd", dict(lr=0.1, momentum=0.9, weight_decay=0.01)),
    ("sgd_maximize", "sgd", dict(lr=0.1, momentum=0.5, maximize=True)),
    ("adamw_defaults", "adamw", dict(lr=1e-3)),
    ("adamw_custom", "adamw", dict(lr=1e-2, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)),
    ("adamw_no_weight_decay", "adamw", dict(lr=0.05, weight_decay=0.0)),
    ("adamw_amsgrad", "adamw", dict(lr=1e-2, amsgrad=True)),
]


def values(n, seed):
    """Deterministic float32-representable values in about [-2, 2]."""
    return [float(torch.tensor(2.0 * math.sin(1.7 * i + 0.37 * seed + 0.1), dtype=torch.float32))
            for i in range(n)]


def grad_of(step, k, n):
    # Parameter 2 has no gradient at step 1 (skipped, its state untouched).
    if k == 2 and step == 1:
        return None
    # Growing then shrinking gradients, including a sign change per element.
    return values(n, 10 * step + k + 5)


def run(kind, options):
    params = [torch.tensor(values(math.prod(s), k), dtype=torch.float32).reshape(s).requires_grad_()
              for k, s in enumerate(SIZES)]
    init = [p.detach().flatten().tolist() for p in params]
    if kind == "sgd":
        opt = torch.optim.SGD(params, foreach=False, **options)
    else:
        opt = torch.optim.AdamW(params, foreach=False, **options)
    grads, after = [], []
    for step in range(STEPS):
        gs = []
        for k, p in enumerate(params):
            g = grad_of(step, k, p.numel())
            p.grad = None if g is None else torch.tensor(g, dtype=torch.float32).reshape(p.shape)
            gs.append(g)
        opt.step()
        grads.append(gs)
        after.append([p.detach().flatten().tolist() for p in params])
    return init, grads, after


def main():
    cases = []
    for name, kind, options in CASES:
        init, grads, after = run(kind, options)
        opts = dict(options)
        if "betas" in opts:
            opts["betas"] = list(opts["betas"])
        cases.append(dict(name=name, optimizer=kind, options=opts, sizes=SIZES,
                          init=init, grads=grads, after=after))
    print(json.dumps(dict(torch_version=torch.__version__, cases=cases), indent=None))


if __name__ == "__main__":
    main()
