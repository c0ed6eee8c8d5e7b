"""Records the transformer_block example's test file with PyTorch.

Recorded with: PyTorch 2.15.0+cu132 (CPU), safetensors 0.8, Python 3. Seed:
`torch.manual_seed(0)` (weights, then the input x). Re-running it gives
block.safetensors byte for byte, except that the header's two metadata keys come out in
either order from run to run (the safetensors package keeps them in a hash map). `tests/data/transformer_block/record.py` runs this
script (it stays beside the model it mirrors; the file's metadata names it).

    python3 tensor-typed/examples/transformer_block/record.py

Writes tests/data/transformer_block/block.safetensors (with the `safetensors`
package's torch API): the block's weights (small seeded random values), an input
batch x [2, 16, 64] and PyTorch's output y for it. The block is the one of
examples/transformer_block/model.rs, written here with the same functional ops:
pre-norm, 4 causal heads of 16, a GELU MLP 64 -> 256 -> 64, residuals. Linear
weights are stored [in, out] (a layer is x @ w + b), as the Rust model multiplies.
"""

import math
import pathlib

import torch
import torch.nn.functional as F
from safetensors.torch import save_file

S, E, H, FF = 16, 64, 4, 256
HD = E // H

torch.manual_seed(0)


def param(*shape, scale):
    return (torch.randn(*shape, dtype=torch.float64) * scale).float()


w = {
    "ln1.weight": 1.0 + param(E, scale=0.1),
    "ln1.bias": param(E, scale=0.1),
    "attn.wq": param(E, E, scale=1 / math.sqrt(E)),
    "attn.bq": param(E, scale=0.02),
    "attn.wk": param(E, E, scale=1 / math.sqrt(E)),
    "attn.bk": param(E, scale=0.02),
    "attn.wv": param(E, E, scale=1 / math.sqrt(E)),
    "attn.bv": param(E, scale=0.02),
    "attn.wo": param(E, E, scale=1 / math.sqrt(E)),
    "attn.bo": param(E, scale=0.02),
    "ln2.weight": 1.0 + param(E, scale=0.1),
    "ln2.bias": param(E, scale=0.1),
    "mlp.w1": param(E, FF, scale=1 / math.sqrt(E)),
    "mlp.b1": param(FF, scale=0.02),
    "mlp.w2": param(FF, E, scale=1 / math.sqrt(FF)),
    "mlp.b2": param(E, scale=0.02),
}


def block(x, w):
    b = x.shape[0]
    h = F.layer_norm(x, (E,), w["ln1.weight"], w["ln1.bias"], 1e-5)

    def heads(t):  # b s (h d) -> b h s d
        return t.reshape(b, S, H, HD).permute(0, 2, 1, 3)

    q = heads(h @ w["attn.wq"] + w["attn.bq"])
    k = heads(h @ w["attn.wk"] + w["attn.bk"])
    v = heads(h @ w["attn.wv"] + w["attn.bv"])
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(HD)
    causal = torch.ones(S, S).tril(0)
    p = scores.masked_fill(causal == 0, float("-inf")).softmax(-1)
    a = (p @ v).permute(0, 2, 1, 3).reshape(b, S, E)  # b h s d -> b s (h d)
    x = x + (a @ w["attn.wo"] + w["attn.bo"])
    h = F.layer_norm(x, (E,), w["ln2.weight"], w["ln2.bias"], 1e-5)
    m = F.gelu(h @ w["mlp.w1"] + w["mlp.b1"]) @ w["mlp.w2"] + w["mlp.b2"]
    return x + m


x = torch.randn(2, S, E)
with torch.no_grad():
    y = block(x, w)

out = pathlib.Path(__file__).resolve().parents[3] / "tests/data/transformer_block"
out.mkdir(parents=True, exist_ok=True)
tensors = {name: t.contiguous() for name, t in w.items()}
tensors["x"] = x
tensors["y"] = y.contiguous()
save_file(
    tensors,
    str(out / "block.safetensors"),
    metadata={"recorded_by": "tensor-typed/examples/transformer_block/record.py",
              "torch": torch.__version__},
)
print(f"wrote {out / 'block.safetensors'}: y checksum {y.double().sum().item():.6f}")
