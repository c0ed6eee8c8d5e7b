"""Records the small files tests/tests/io.rs reads back: safetensors written by
PyTorch's `safetensors` package and .npy/.npz written by NumPy, with the values each
holds in expected.json. Run from this folder: `python3 record.py` (torch, numpy and
safetensors installed). CI never runs it; its outputs are committed.

Recorded with: PyTorch 2.15.0+cu132 (CPU), NumPy 2.4, safetensors 0.8, Python 3. Seed:
none (no random draw: values are `base(n)`). Re-running it gives every file byte for
byte."""
import json

import numpy as np
import torch
from safetensors.torch import save_file

expected = {}


def values(t):
    return [float(x) for x in t.reshape(-1).tolist()]


def base(n):
    # Small integers with signs, exact in every dtype below (bool: odd ones).
    return [((i * 7) % 11) - 5 for i in range(n)]


# --- safetensors from PyTorch -------------------------------------------------------
torch_dtypes = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
    "int32": torch.int32, "int64": torch.int64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
}
tensors = {}
entries = {}
for i, (name, dt) in enumerate(torch_dtypes.items()):
    shape = [2, 3] if i % 2 == 0 else [5]  # odd element counts too
    n = int(np.prod(shape))
    raw = torch.tensor(base(n) if dt != torch.uint8 else [abs(x) for x in base(n)])
    raw = raw.reshape(shape)
    t = (raw % 2 == 1) if dt == torch.bool else raw.to(dt)
    if dt.is_floating_point:
        t = t / 4  # quarters: exact in half, bfloat16, float, double
    tensors[name] = t.contiguous()
    entries[name] = {"dtype": name, "shape": shape, "values": values(t)}
# A weight of a GPT-2-like name, and an empty tensor.
tensors["wte.weight"] = torch.arange(12, dtype=torch.float32).reshape(4, 3) / 8
entries["wte.weight"] = {"dtype": "float32", "shape": [4, 3], "values": values(tensors["wte.weight"])}
tensors["empty"] = torch.zeros(0, 3)
entries["empty"] = {"dtype": "float32", "shape": [0, 3], "values": []}
save_file(tensors, "torch_all_dtypes.safetensors", metadata={"format": "pt"})
expected["torch_all_dtypes.safetensors"] = entries

# --- .npy and .npz from NumPy -------------------------------------------------------
np_dtypes = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
arrays = {}
for name in np_dtypes:
    raw = np.array(base(6)).reshape(2, 3)
    if name == "bool":
        a = raw % 2 == 1
    elif name == "uint8":
        a = np.abs(raw).astype(np.uint8)
    else:
        a = raw.astype(name)
        if a.dtype.kind == "f":
            a = a / np.array(4, dtype=name)
    arrays[name] = a
    np.save(f"np_{name}.npy", a)
    expected[f"np_{name}.npy"] = {"dtype": name, "shape": [2, 3], "values": [float(x) for x in a.reshape(-1)]}

f = np.asfortranarray(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
np.save("np_fortran_f32.npy", f)
expected["np_fortran_f32.npy"] = {"dtype": "float32", "shape": [2, 3, 4], "values": [float(x) for x in f.reshape(-1)], "fortran": True}
b = np.arange(6, dtype=">i4").reshape(3, 2) - 2
np.save("np_bigendian_i4.npy", b)
expected["np_bigendian_i4.npy"] = {"dtype": "int32", "shape": [3, 2], "values": [float(x) for x in b.reshape(-1)]}
s = np.array(2.5, dtype=np.float64)
np.save("np_scalar_f64.npy", s)
expected["np_scalar_f64.npy"] = {"dtype": "float64", "shape": [], "values": [2.5]}
e = np.zeros((0, 3), dtype=np.int64)
np.save("np_empty_i64.npy", e)
expected["np_empty_i64.npy"] = {"dtype": "int64", "shape": [0, 3], "values": []}

np.savez("np_arrays.npz", x=arrays["float32"], mask=arrays["bool"], fortran=f)
np.savez_compressed("np_arrays_compressed.npz", x=arrays["float32"], mask=arrays["bool"], fortran=f)
for z in ["np_arrays.npz", "np_arrays_compressed.npz"]:
    expected[z] = {
        "x": expected["np_float32.npy"],
        "mask": expected["np_bool.npy"],
        "fortran": expected["np_fortran_f32.npy"],
    }

with open("expected.json", "w") as out:
    json.dump(expected, out, indent=1, sort_keys=True)
    out.write("\n")
