"""Runs examples/softmax.mlir's row_softmax through the `mla` package and
checks it against a float64 softmax: 37 rows (a ragged third block) of 200
random columns, the output poisoned with NaN first.

    softmax.py MODULE [--torch]   (--torch: torch tensors on the module's
                                   device; else array.array buffers)
"""

import array
import os
import random
import sys

import mla

# The float64 reference the example's npytool check uses.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "utils"))
from npytool import softmax_rows  # noqa: E402

ROWS, COLS = 37, 200


def main():
    module = mla.Module(sys.argv[1])
    rng = random.Random()
    x = [rng.gauss(0.0, 4.0) for _ in range(ROWS * COLS)]
    if "--torch" in sys.argv:
        import torch
        device = "cpu" if module.target == "host" else "cuda"
        xt = torch.tensor(x, dtype=torch.float32, device=device)
        yt = torch.full((ROWS, COLS), float("nan"), device=device)
        module.row_softmax(xt, yt, ROWS, COLS)  # the rule's grid: 3
        if device == "cuda":
            torch.cuda.synchronize()
        y = yt.cpu().flatten().tolist()
        x = xt.cpu().tolist()
    else:
        xb = array.array("f", x)
        yb = array.array("f", [float("nan")] * (ROWS * COLS))
        module.row_softmax(xb, yb, ROWS, COLS, grid=(3, 1, 1))
        x, y = list(xb), list(yb)
    want = softmax_rows(x, ROWS, COLS)
    worst = max(abs(a - b) for a, b in zip(y, want))
    nans = sum(1 for v in y if v != v)
    verdict = "PASS" if worst < 1e-5 and nans == 0 else "FAIL"
    print(f"softmax: target={module.target} max_abs={worst:.1e} nan={nans} "
          f"{verdict}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
