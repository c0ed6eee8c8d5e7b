#!/usr/bin/env python3
"""Writes a `tokenizer.json` beside the tiny GPT-2 and Llama checkpoints of tests/data and
records what text in, text out gives through transformers with them.

Each tokenizer is a byte-level BPE (GPT-2's pre-tokenizer and decoder) trained with the
`tokenizers` library on this repository's README.md and ARCHITECTURE.md, with exactly the
checkpoint's vocabulary size (1000 for GPT-2's tiny checkpoint; 256, the bytes alone, for
Llama's). For each checkpoint and prompt, `expected.json` holds the prompt's ids, the
greedy ids of `model.generate(max_new_tokens=8, do_sample=False)` (prompt included) and
their decoded text.

Run from the repository root: `python3 tests/data/tokenizers/record.py`. The versions of
torch, transformers and tokenizers it ran with are written into `expected.json`.
"""

import json
import os

import tokenizers
import torch
import transformers
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import AutoModelForCausalLM

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DATA = os.path.join(ROOT, "tests", "data")
CORPUS = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "ARCHITECTURE.md")]
PROMPTS = ["Tensors whose shapes", "The runtime behaves"]
CHECKPOINTS = {"gpt2": "gpt2/tiny", "llama": "llama/tiny"}


def train(vocab_size):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train(CORPUS, trainer)
    assert tok.get_vocab_size() == vocab_size, tok.get_vocab_size()
    return tok


def main():
    torch.manual_seed(0)
    expected = {
        "versions": {
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "tokenizers": tokenizers.__version__,
        },
        "max_new_tokens": 8,
    }
    for name, rel in CHECKPOINTS.items():
        path = os.path.join(DATA, rel)
        config = json.load(open(os.path.join(path, "config.json")))
        tok = train(config["vocab_size"])
        tok.save(os.path.join(path, "tokenizer.json"))
        model = AutoModelForCausalLM.from_pretrained(path).eval()
        cases = []
        for prompt in PROMPTS:
            ids = tok.encode(prompt).ids
            with torch.no_grad():
                out = model.generate(
                    torch.tensor([ids]),
                    max_new_tokens=8,
                    do_sample=False,
                    pad_token_id=0,
                )[0].tolist()
            cases.append({"prompt": prompt, "prompt_ids": ids, "ids": out, "text": tok.decode(out)})
        expected[name] = cases
    with open(os.path.join(os.path.dirname(__file__), "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
