"""Records the llama example's test fixture with transformers.

    python3 tensor-typed/examples/llama/record.py

Writes under tests/data/llama/:
- tiny/: `save_pretrained` of a random `LlamaForCausalLM` (config.json,
  generation_config.json, model.safetensors): vocab 256, hidden 64, 2 layers of 4 query
  heads over 2 key/value heads of head_dim 16, intermediate 128, rope_theta 10000 with
  default RoPE, rms_norm_eps 1e-5, an untied lm_head;
- tiny_bf16/: the same model's weights stored as bfloat16 (config.json and
  model.safetensors);
- tiny_llama3/: another random model of the same sizes with 1 layer, llama3 RoPE
  scaling (factor 8, low_freq_factor 1, high_freq_factor 4,
  original_max_position_embeddings 32, so positions 0..31 meet the three frequency
  bands) and the lm_head tied to the token embedding (not stored);
- expected.safetensors: what transformers computes with them (below);
- RECORDED.txt: the versions of torch and transformers, and the seed.

Every weight is scaled up and every RMSNorm weight set to random values far from 1 (a
model that drops a norm's weight cannot match), so that the greedy choices are clear
(the smallest top-1/top-2 margins are printed).

expected.safetensors holds, for `tiny` and (prefixed `llama3_`) `tiny_llama3`:
- `prompt` [1, 7] i64 and `batch_prompts` [2, 5] i64: the inputs (stored once, for both);
- `logits` [1, 7, 256] and `batch_logits` [2, 5, 256]: the full forward, no cache;
- `greedy` [1, 24] i64: `generate(do_sample=False, max_new_tokens=24)`'s new tokens;
- `step_logits` [24, 256]: the logits `generate` chose each of those tokens from (the
  cached path);
and `bf16_logits` [1, 7, 256]: `tiny`'s forward of `prompt` with the bfloat16 weights
upcast to float32.
"""

import pathlib
import sys

import torch
import transformers
from safetensors.torch import load_file, save_file
from transformers import LlamaConfig, LlamaForCausalLM

SEED = 0
NEW_TOKENS = 24
WEIGHT_SCALE = 4.0
VOCAB = 256

root = pathlib.Path(__file__).resolve().parents[3] / "tests/data/llama"


def tiny_config(**overrides):
    fields = dict(
        vocab_size=VOCAB,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=16,
        max_position_embeddings=128,
        rms_norm_eps=1e-5,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
        tie_word_embeddings=False,
        bos_token_id=None,
        eos_token_id=None,
        pad_token_id=None,
    )
    fields.update(overrides)
    return LlamaConfig(**fields)


def randomise(model):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("norm.weight"):
                p.copy_(1.0 + torch.randn_like(p) * 0.3)
            else:
                p.mul_(WEIGHT_SCALE)
    return model.eval()


def record(model, prompt, batch_prompts):
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
    tensors = {
        "prompt": prompt,
        "batch_prompts": batch_prompts,
        "logits": logits,
        "batch_logits": batch_logits,
        "greedy": greedy,
        "step_logits": step_logits,
    }
    return {k: v.contiguous() for k, v in tensors.items()}, margin


torch.manual_seed(SEED)
prompt = torch.tensor([[17, 208, 3, 99, 140, 251, 64]])
batch_prompts = torch.randint(0, VOCAB, (2, 5))

model = randomise(LlamaForCausalLM(tiny_config()))
model.save_pretrained(root / "tiny")
expected, margin = record(model, prompt, batch_prompts)

bf16_dir = root / "tiny_bf16"
bf16_dir.mkdir(parents=True, exist_ok=True)
state = load_file(str(root / "tiny/model.safetensors"))
save_file({k: v.to(torch.bfloat16) for k, v in state.items()}, str(bf16_dir / "model.safetensors"),
          metadata={"format": "pt"})
(bf16_dir / "config.json").write_text((root / "tiny/config.json").read_text().replace(
    '"dtype": "float32"', '"dtype": "bfloat16"'))
upcast = randomise(LlamaForCausalLM(tiny_config()))
upcast.load_state_dict({k: v.to(torch.bfloat16).float() for k, v in state.items()})
with torch.no_grad():
    expected["bf16_logits"] = upcast.eval()(prompt).logits.contiguous()

llama3 = tiny_config(
    num_hidden_layers=1,
    tie_word_embeddings=True,
    rope_parameters={
        "rope_type": "llama3",
        "rope_theta": 10000.0,
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 32,
    },
)
model3 = randomise(LlamaForCausalLM(llama3))
model3.save_pretrained(root / "tiny_llama3")
expected3, margin3 = record(model3, prompt, batch_prompts)
expected.update({f"llama3_{k}": v for k, v in expected3.items() if "prompts" not in k and k != "prompt"})

save_file(expected, str(root / "expected.safetensors"),
          metadata={"recorded_by": "tensor-typed/examples/llama/record.py"})
(root / "RECORDED.txt").write_text(
    f"recorded by tensor-typed/examples/llama/record.py\n"
    f"transformers {transformers.__version__}\n"
    f"torch {torch.__version__}\n"
    f"python {sys.version.split()[0]}\n"
    f"seed torch.manual_seed({SEED})\n"
)
print(f"transformers {transformers.__version__}, torch {torch.__version__}")
print(f"tiny: greedy {expected['greedy'].tolist()[0]}, smallest top-1/top-2 margin {margin:.4f}")
print(f"tiny_llama3: greedy {expected3['greedy'].tolist()[0]}, smallest margin {margin3:.4f}")
d = (expected["bf16_logits"] - expected["logits"]).abs().max().item()
print(f"bf16 weights move the logits by at most {d:.4f}")
