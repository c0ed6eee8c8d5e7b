#!/usr/bin/env python3
"""Reference runs of the digits models in PyTorch eager mode: the same data, split,
optimiser and hyper-parameters as the typed examples (see CASES.md).

Usage: python3 digits_models_torch.py MODEL [EPOCHS] [PATH_TO_digits.csv.gz] [SEED]
MODEL: mlp | cnn | transformer

- mlp: 64 -> 64 (ReLU) -> 10, SGD lr 0.1, batch 32 (as digits_torch.py).
- cnn: image [1, 8, 8]; conv 1->8 3x3 pad 1, ReLU, max-pool 2; conv 8->16 3x3 pad 1,
  ReLU, max-pool 2; flatten 16*2*2 = 64; linear 64 -> 10. AdamW lr 1e-2, batch 32.
- transformer: the 8 rows of an image are 8 tokens of 8 pixels; linear 8 -> 32 plus a
  learned position embedding [8, 32]; one pre-norm block (LayerNorm, 4-head
  self-attention with head dim 8, residual; LayerNorm, MLP 32 -> 64 GELU(tanh) -> 32,
  residual); final LayerNorm; mean over tokens; linear 32 -> 10. AdamW lr 3e-3,
  batch 32.
Prints the training time (epochs only) and the test accuracy.
"""
import gzip, math, sys, time
import numpy as np
import torch
import torch.nn.functional as F

model = sys.argv[1] if len(sys.argv) > 1 else "mlp"
epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 30
path = sys.argv[3] if len(sys.argv) > 3 else "tensor-typed/data/digits.csv.gz"
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 0
torch.set_num_threads(2)
torch.manual_seed(seed)
d = np.loadtxt(gzip.open(path), delimiter=",")
X = torch.tensor(d[:, :64], dtype=torch.float32) / 16.0
y = torch.tensor(d[:, 64], dtype=torch.int64)
test = torch.arange(len(y)) % 5 == 4
Xtr, ytr, Xte, yte = X[~test], y[~test], X[test], y[test]
n = len(ytr)


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = torch.nn.Linear(64, 64), torch.nn.Linear(64, 10)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))


class Cnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(1, 8, 3, padding=1)
        self.c2 = torch.nn.Conv2d(8, 16, 3, padding=1)
        self.fc = torch.nn.Linear(64, 10)

    def forward(self, x):
        x = x.view(-1, 1, 8, 8)
        x = F.max_pool2d(torch.relu(self.c1(x)), 2)
        x = F.max_pool2d(torch.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


class Transformer(torch.nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.heads = heads
        self.embed = torch.nn.Linear(8, d)
        self.pos = torch.nn.Parameter(torch.randn(8, d) * 0.02)
        self.ln1, self.ln2, self.lnf = (torch.nn.LayerNorm(d) for _ in range(3))
        self.qkv, self.proj = torch.nn.Linear(d, 3 * d), torch.nn.Linear(d, d)
        self.fc1, self.fc2 = torch.nn.Linear(d, 2 * d), torch.nn.Linear(2 * d, d)
        self.head = torch.nn.Linear(d, 10)

    def forward(self, x):
        b = x.shape[0]
        h = self.embed(x.view(b, 8, 8)) + self.pos
        q, k, v = self.qkv(self.ln1(h)).split(h.shape[-1], dim=-1)
        q, k, v = (t.view(b, 8, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1)
        h = h + self.proj((att @ v).transpose(1, 2).reshape(b, 8, -1))
        h = h + self.fc2(F.gelu(self.fc1(self.ln2(h)), approximate="tanh"))
        return self.head(self.lnf(h).mean(1))


net = {"mlp": Mlp, "cnn": Cnn, "transformer": Transformer}[model]()
opt = (torch.optim.SGD(net.parameters(), lr=0.1) if model == "mlp"
       else torch.optim.AdamW(net.parameters(), lr=1e-2 if model == "cnn" else 3e-3))
t = time.perf_counter()
for _ in range(epochs):
    perm = torch.randperm(n)
    for i in range(0, n, 32):
        idx = perm[i:i + 32]
        loss = F.cross_entropy(net(Xtr[idx]), ytr[idx])
        opt.zero_grad(); loss.backward(); opt.step()
elapsed = time.perf_counter() - t
with torch.no_grad():
    acc = (net(Xte).argmax(1) == yte).float().mean().item()
print(f"{model}: train {n} samples, {epochs} epochs: {elapsed:.3f} s; test accuracy {acc:.4f} on {len(yte)}")
