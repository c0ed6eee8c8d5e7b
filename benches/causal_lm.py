#!/usr/bin/env python3
"""Times the gpt2 or llama example against transformers on one checkpoint (random
weights, the same for both), alternating the two sides round by round:

- forward `[2, 32]` and `[1, 128]`: ours `--bench-forward 2x32,1x128`, transformers
  `model(ids).logits` under `torch.no_grad()` (PyTorch eager);
- time per generated token with the KV cache: ours `--prompt-ids ... --max-new-tokens
  N`, transformers `generate(do_sample=False, max_new_tokens=N, min_new_tokens=N)`; both
  the whole generation divided by N.

Prints each side's best time per case over the rounds and the ratio ours / PyTorch,
and checks that the greedy ids are equal.

Usage (from the workspace root, after `cargo build --release -p tensor-typed --example
gpt2 --example llama`):
    python3 benches/causal_lm.py --family gpt2|llama --dir DIR [--rounds 3]
        [--threads 2] [--new-tokens 32] [--ours BINARY]

Needs `pip install torch transformers`: a measurement, never run in CI. The checkpoint
is made once in `--dir DIR` (required; reused when it holds one) with
`torch.manual_seed(0)` and `save_pretrained`: GPT-2 small (`GPT2Config()`, 124M) or a
Llama of SmolLM2-135M's sizes (hidden 576, 30 layers, 9 query heads over 3 key/value
heads, vocab 49152, tied embeddings). Other processes on the same CPUs distort the
ratios: run it with nothing else running.
"""

import argparse
import os
import re
import subprocess
import sys
import time

import torch
from transformers import AutoModelForCausalLM, GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PROMPT = [464, 2068, 7586, 21831, 18045, 625, 262, 16931, 3290]
SHAPES = [(2, 32), (1, 128)]


def smollm2_135m():
    return LlamaConfig(vocab_size=49152, hidden_size=576, intermediate_size=1536,
                       num_hidden_layers=30, num_attention_heads=9, num_key_value_heads=3,
                       head_dim=64, max_position_embeddings=8192, rms_norm_eps=1e-5,
                       rope_theta=100000.0, tie_word_embeddings=True)


def checkpoint(family, path):
    if not os.path.exists(os.path.join(path, "model.safetensors")):
        torch.manual_seed(0)
        if family == "gpt2":
            model = GPT2LMHeadModel(GPT2Config())
        else:
            model = LlamaForCausalLM(smollm2_135m())
        model.save_pretrained(path, safe_serialization=True)
    return path


def ids_of(b, t):
    # The example's --bench-forward pattern.
    return torch.tensor([(i * 7919 % 1000) for i in range(b * t)]).reshape(b, t)


def torch_forward(model, b, t, reps):
    ids = ids_of(b, t)
    with torch.no_grad():
        for _ in range(2):
            model(ids).logits
        best = float("inf")
        for _ in range(reps):
            start = time.perf_counter()
            model(ids).logits
            best = min(best, (time.perf_counter() - start) * 1e3)
    return best


def torch_generate(model, n):
    ids = torch.tensor([PROMPT])
    with torch.no_grad():
        start = time.perf_counter()
        out = model.generate(ids, do_sample=False, max_new_tokens=n, min_new_tokens=n,
                             attention_mask=torch.ones_like(ids), pad_token_id=0)
        ms = (time.perf_counter() - start) * 1e3 / n
    return ms, out[0, len(PROMPT):].tolist()


def ours_forward(binary, path, reps, threads):
    shapes = ",".join("%dx%d" % s for s in SHAPES)
    out = run([binary, "--model", path, "--bench-forward", shapes, "--reps", str(reps)], threads)
    found = {}
    for b, t in SHAPES:
        m = re.search(r"forward \[%d, %d\]: best ([0-9.]+) ms" % (b, t), out)
        found[(b, t)] = float(m.group(1))
    return found


def ours_generate(binary, path, n, threads):
    out = run([binary, "--model", path, "--prompt-ids", ",".join(map(str, PROMPT)),
               "--max-new-tokens", str(n)], threads)
    ids = [int(x) for x in re.search(r"ids: ([0-9, ]+)", out).group(1).split(", ")]
    ms = float(re.search(r"time per token: ([0-9.]+) ms", out).group(1))
    return ms, ids


def run(cmd, threads):
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit("%s failed:\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
    return r.stdout


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--new-tokens", type=int, default=32)
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--family", choices=["gpt2", "llama"], required=True)
    p.add_argument("--dir", required=True, help="where the checkpoint is made once and reused")
    p.add_argument("--ours", help="the example's binary (default: target/release/examples/FAMILY)")
    args = p.parse_args()
    ours = args.ours or os.path.join(ROOT, "target", "release", "examples", args.family)
    torch.set_num_threads(args.threads)
    path = checkpoint(args.family, args.dir)
    model = AutoModelForCausalLM.from_pretrained(path).eval()
    cases = ["forward [%d, %d]" % s for s in SHAPES] + ["time per token"]
    best = {c: [float("inf"), float("inf")] for c in cases}
    for r in range(args.rounds):
        sides = ["ours", "torch"] if r % 2 == 0 else ["torch", "ours"]
        for side in sides:
            if side == "ours":
                fwd = ours_forward(ours, path, args.reps, args.threads)
                tok, our_ids = ours_generate(ours, path, args.new_tokens, args.threads)
                times, k = [fwd[s] for s in SHAPES] + [tok], 0
            else:
                times = [torch_forward(model, b, t, args.reps) for b, t in SHAPES]
                tok, torch_ids = torch_generate(model, args.new_tokens)
                times.append(tok)
                k = 1
            for c, ms in zip(cases, times):
                best[c][k] = min(best[c][k], ms)
    print("| case | ours ms | PyTorch ms | ratio |")
    print("|---|---:|---:|---:|")
    for c in cases:
        ours, theirs = best[c]
        print("| %s | %.2f | %.2f | %.2f |" % (c, ours, theirs, ours / theirs))
    print("greedy ids equal: %s" % (our_ids == torch_ids))


if __name__ == "__main__":
    main()
