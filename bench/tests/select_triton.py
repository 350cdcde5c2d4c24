"""Imported first by the tests: puts bench/ on sys.path and, where the real
Triton cannot run (no GPU and no TRITON_INTERPRET=1, or not installed), the
CPU stand-in in emulated_triton/ in its place. EMULATED says which one
`import triton` gives."""

import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
STAND_IN = os.path.join(HERE, "emulated_triton")
sys.path.insert(0, os.path.dirname(HERE))
if not (torch.cuda.is_available() or
        os.environ.get("TRITON_INTERPRET") == "1"):
    sys.path.insert(0, STAND_IN)
try:
    import triton
except ImportError:
    sys.path.insert(0, STAND_IN)
    import triton

EMULATED = getattr(triton, "EMULATED", False)
