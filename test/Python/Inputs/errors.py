"""Calls that the `mla` package must refuse, one line per refusal:
`CASE: MlaError: message` (or `CASE: accepted` where none was raised).

    errors.py MODULE       (examples/softmax.mlir compiled for the host)
"""

import array
import sys

import mla


def main():
    module = mla.Module(sys.argv[1])
    kernel = module.row_softmax
    x = array.array("f", [0.0] * 64)
    y = array.array("f", [0.0] * 64)
    cases = {
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
        "bad-grid": lambda: kernel(x, y, 1, 64, grid=(1, -1)),
        "no-kernel": lambda: module["gemm"],
        "zero-grid": lambda: kernel(x, y, 1, 64, grid=0),
    }
    for name, call in cases.items():
        try:
            call()
            print(f"{name}: accepted")
        except mla.MlaError as e:
            print(f"{name}: MlaError: {e}")
    print(f"attribute: {hasattr(module, 'gemm')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
