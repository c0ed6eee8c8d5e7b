"""Records block.safetensors beside this file: runs the transformer_block example's own
recorder, tensor-typed/examples/transformer_block/record.py, which stays beside the model
it mirrors (model.rs) and is named in the file's metadata (`recorded_by`).

Recorded with: PyTorch 2.15.0+cu132 (CPU), safetensors 0.8, Python 3. Seed:
`torch.manual_seed(0)`. Run from anywhere: `python3 tests/data/transformer_block/record.py`.
"""
import pathlib
import runpy

ROOT = pathlib.Path(__file__).resolve().parents[3]
runpy.run_path(str(ROOT / "tensor-typed/examples/transformer_block/record.py"), run_name="__main__")
