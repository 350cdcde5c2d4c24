"""C [64, 64] of shifted-tiles.mlir against float64. `columns`: the sum
over K steps of A's columns kk-8 .. kk+23 (zero outside A) times B's rows
kk .. kk+31; `rows`: A's columns kk .. kk+31 times B's rows kk-8 .. kk+23
(zero outside B)."""
import sys

import numpy as np


def bf16(path):
    return (np.load(path).astype(np.uint32) << 16).view(np.float32)


mode = sys.argv[1]
a, b = bf16(sys.argv[2]).astype(np.float64), bf16(sys.argv[3]).astype(np.float64)
if mode == "columns":
    shifted = np.zeros_like(a)
    shifted[:, 8:] = a[:, :-8]
    expected = shifted @ b
else:
    shifted = np.zeros_like(b)
    shifted[8:] = b[:-8]
    expected = a @ shifted
for path in sys.argv[4:]:
    c = np.load(path).astype(np.float64)
    error = np.abs(c - expected).max() / np.abs(expected).max()
    print(f"{path.rsplit('/', 1)[-1]}: rel error {error:.1e}",
          "PASS" if error < 1e-5 and not np.isnan(c).any() else "FAIL")
