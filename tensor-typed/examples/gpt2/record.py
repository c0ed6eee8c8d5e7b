"""Records the gpt2 example's test fixture with transformers.

    python3 tensor-typed/examples/gpt2/record.py

Writes tests/data/gpt2/tiny/ (`save_pretrained` of a `GPT2LMHeadModel`: config.json,
generation_config.json, model.safetensors; the tied lm_head is not stored) and
tests/data/gpt2/expected.safetensors (what transformers computes with that model), with
tests/data/gpt2/RECORDED.txt naming the versions and the seed.

The model is GPT-2 shrunk: vocab 1000, 128 positions, n_embd 64, 2 layers, 4 heads,
random weights from `torch.manual_seed(SEED)`. Every bias and every layer norm's weight
and bias is then overwritten with random values far from 0 and 1 (a model that drops a
bias, or a layer norm's affine part, cannot match), and the token embedding is scaled up
so that the greedy choices are clear (the recorded margins are printed).

expected.safetensors holds:
- `prompt` [1, 7] i64 and `batch_prompts` [2, 5] i64: the inputs;
- `logits` [1, 7, 1000] and `batch_logits` [2, 5, 1000]: the full forward, no cache;
- `greedy` [1, 24] i64: `generate(do_sample=False, max_new_tokens=24)`'s new tokens;
- `step_logits` [24, 1000]: the logits `generate` chose each of those tokens from (the
  cached path).
"""

import pathlib
import sys

import torch
import transformers
from safetensors.torch import save_file
from transformers import GPT2Config, GPT2LMHeadModel

SEED = 0
NEW_TOKENS = 24
WEIGHT_SCALE = 10.0

root = pathlib.Path(__file__).resolve().parents[3] / "tests/data/gpt2"
model_dir = root / "tiny"

torch.manual_seed(SEED)
config = GPT2Config(
    vocab_size=1000, n_positions=128, n_embd=64, n_layer=2, n_head=4,
    bos_token_id=None, eos_token_id=None,
)
model = GPT2LMHeadModel(config).eval()
with torch.no_grad():
    for name, p in model.named_parameters():
        if name.endswith(".bias"):
            p.copy_(torch.randn_like(p) * 0.1 + 0.05)
        elif ".ln_" in name or "ln_f" in name:
            p.copy_(1.0 + torch.randn_like(p) * 0.2)
        elif name.endswith(".weight"):
            p.mul_(WEIGHT_SCALE)
model.save_pretrained(model_dir)

prompt = torch.tensor([[464, 208, 17, 981, 3, 640, 77]])
batch_prompts = torch.randint(0, 1000, (2, 5))
with torch.no_grad():
    logits = model(prompt).logits
    batch_logits = model(batch_prompts).logits
    out = model.generate(
        prompt,
        attention_mask=torch.ones_like(prompt),
        do_sample=False,
        max_new_tokens=NEW_TOKENS,
        pad_token_id=0,
        output_logits=True,
        return_dict_in_generate=True,
    )
greedy = out.sequences[:, prompt.shape[1]:]
step_logits = torch.cat(out.logits, dim=0)
assert torch.equal(step_logits.argmax(-1), greedy[0]), "generate's logits and ids disagree"
top2 = step_logits.topk(2, dim=-1).values
margin = (top2[:, 0] - top2[:, 1]).min().item()

save_file(
    {
        "prompt": prompt.contiguous(),
        "batch_prompts": batch_prompts.contiguous(),
        "logits": logits.contiguous(),
        "batch_logits": batch_logits.contiguous(),
        "greedy": greedy.contiguous(),
        "step_logits": step_logits.contiguous(),
    },
    str(root / "expected.safetensors"),
    metadata={"recorded_by": "tensor-typed/examples/gpt2/record.py"},
)
(root / "RECORDED.txt").write_text(
    f"recorded by tensor-typed/examples/gpt2/record.py\n"
    f"transformers {transformers.__version__}\n"
    f"torch {torch.__version__}\n"
    f"python {sys.version.split()[0]}\n"
    f"seed torch.manual_seed({SEED})\n"
)
print(f"wrote {root}: greedy {greedy.tolist()[0]}, smallest top-1/top-2 margin {margin:.4f}")
