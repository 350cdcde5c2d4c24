"""Calls that the `mla` package must refuse, one line per refusal:
`CASE: MlaError: message` (or `CASE: accepted` where none was raised).

    errors.py MODULE [--numpy | --torch]
        (examples/softmax.mlir compiled for the host; --numpy, --torch: only
        the cases of numpy or torch values, where that package is)
"""

import array
import sys

import mla
from outcome import report


class Index:
    """An integer that is not an int, as numpy's and torch's are."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


def python_cases(module, x, y):
    kernel = module.row_softmax
    return {
        "no-grid": lambda: kernel(x, y, 1, 64),
        "missing": lambda: kernel(x, y, 1, grid=1),
        "unknown": lambda: kernel(x, y, 1, 64, colz=1, grid=1),
        "twice": lambda: kernel(x, y, 1, 64, rows=1, grid=1),
        "too-many": lambda: kernel(x, y, 1, 64, 5, grid=1),
        "dtype": lambda: kernel(array.array("d", [0.0]), y, 1, 64, grid=1),
        "bytes": lambda: kernel(x, bytearray(8), 1, 64, grid=1),
        "read-only": lambda: kernel(x, memoryview(bytes(8)).cast("f"), 1, 64,
                                    grid=1),
        "not-a-tensor": lambda: kernel(x, "y", 1, 64, grid=1),
        "float-for-int": lambda: kernel(x, y, 1, 2.5, grid=1),
        "int-range": lambda: kernel(x, y, 1, 1 << 40, grid=1),
        "bool-for-int": lambda: kernel(x, y, True, 64, grid=1),
        "index-for-int": lambda: kernel(x, y, Index(1), Index(64), grid=1),
        "bad-grid": lambda: kernel(x, y, 1, 64, grid=(1, -1)),
        "float-grid": lambda: kernel(x, y, 1, 64, grid=3.0),
        "float-in-grid": lambda: kernel(x, y, 1, 64, grid=(1, 2.0)),
        "string-grid": lambda: kernel(x, y, 1, 64, grid="3"),
        "long-grid": lambda: kernel(x, y, 1, 64, grid=(1, 1, 1, 1)),
        "index-grid": lambda: kernel(x, y, 1, 64, grid=(Index(1), 1)),
        "no-kernel": lambda: module["gemm"],
        # The program's grid rule: cdiv(rows, 16).
        "zero-grid": lambda: kernel(x, y, 1, 64, grid=0),
        "zero-rows": lambda: kernel(x, y, 0, 64, grid=0),
        "small-grid": lambda: kernel(x, y, 37, 64, grid=2),
        "negative-rule": lambda: kernel(x, y, -20, 64),
        # The extents (rows x cols elements of x and y) against the buffers.
        "small-y": lambda: kernel(x, array.array("f", [0.0] * 63), 1, 64,
                                  grid=1),
        "more-rows": lambda: kernel(x, y, 37, 64, grid=3),
        "negative-rows": lambda: kernel(x, y, -1, 64, grid=1),
        "exact-fit": lambda: kernel(x, y, 2, 32, grid=1),
        "long-row": lambda: kernel(x, y, 1, 300),
    }


def numpy_cases(module, x, y):
    import numpy as np
    kernel = module.row_softmax
    return {
        "numpy-int": lambda: kernel(x, y, np.int64(1), np.int32(64), grid=1),
        "numpy-0d": lambda: kernel(x, y, np.array(1), np.array(64, np.int16),
                                   grid=1),
        "numpy-grid": lambda: kernel(x, y, 1, 64, grid=(np.int64(1), 1)),
        "numpy-grid-0d": lambda: kernel(x, y, 1, 64, grid=np.array(1)),
        "numpy-float": lambda: kernel(x, y, 1, np.float64(64.0), grid=1),
        "numpy-bool": lambda: kernel(x, y, np.bool_(True), 64, grid=1),
        "numpy-1d": lambda: kernel(x, y, np.array([1]), 64, grid=1),
        "numpy-range": lambda: kernel(x, y, 1, np.uint64(1 << 63), grid=1),
        "numpy-float-grid": lambda: kernel(x, y, 1, 64, grid=np.float32(1)),
        "numpy-small": lambda: kernel(x, np.zeros((7, 9), np.float32),
                                      np.int32(1), 64, grid=1),
        "numpy-long-row": lambda: kernel(x, y, np.int32(1), np.int64(300)),
        "numpy-small-grid": lambda: kernel(x, y, np.int64(37), 64,
                                           grid=np.int32(2)),
    }


def torch_cases(module, x, y):
    import torch
    kernel = module.row_softmax
    return {
        "torch-0d": lambda: kernel(x, y, torch.tensor(1),
                                   torch.tensor(64, dtype=torch.int32), grid=1),
        "torch-grid": lambda: kernel(x, y, 1, 64, grid=(torch.tensor(1), 1)),
        "torch-float": lambda: kernel(x, y, 1, torch.tensor(64.0), grid=1),
        "torch-bool": lambda: kernel(x, y, torch.tensor(True), 64, grid=1),
        "torch-1d": lambda: kernel(x, y, torch.tensor([1]), 64, grid=1),
        "torch-small": lambda: kernel(x, torch.zeros(63), 1, 64, grid=1),
        "torch-long-row": lambda: kernel(x, y, 1, torch.tensor(300)),
        "torch-small-grid": lambda: kernel(x, y, torch.tensor(37), 64,
                                           grid=torch.tensor(2)),
    }


CASES = {None: python_cases, "--numpy": numpy_cases, "--torch": torch_cases}


def main():
    module = mla.Module(sys.argv[1])
    which = sys.argv[2] if len(sys.argv) > 2 else None
    x = array.array("f", [0.0] * 64)
    y = array.array("f", [0.0] * 64)
    for name, call in CASES[which](module, x, y).items():
        report(name, call)
    if which is None:
        print(f"attribute: {hasattr(module, 'gemm')}")
        try:
            module.row_sofmax
        except AttributeError as e:
            print(f"attribute-typo: AttributeError: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
