#!/usr/bin/env python3
"""The DSL's row kernels (examples/softmax.mlir, examples/layer_norm.mlir)
through python/mla on torch CUDA tensors, next to torch.softmax and
torch.nn.functional.layer_norm. For each shape mla.Autotune times the
module's instances and keeps the fastest; its output is checked against
float64 (filled with NaN first, so an unwritten element fails), then it
and torch are timed behind a device-side spin (bench/timing.py). Prints
GB/s as the bytes each must move (x read once, y written once) over the
median time.

  mla-compile examples/softmax.mlir --target=sm_90 -o build/dev/k/softmax.ptx
  mla-compile examples/layer_norm.mlir --target=sm_90 -o build/dev/k/layer_norm.ptx
  PYTHONPATH=python python3 bench/kernels.py build/dev/k
"""

import argparse
import os
import sys

import torch

sys.path[:0] = ["python", "bench"]
import mla  # noqa: E402
import timing  # noqa: E402

ROWS = 1 << 20


def gbs(nbytes, us):
    return nbytes / us / 1e3


def check(name, got, expected):
    error = (got.double() - expected).abs()
    bad = int((error > 1e-5 + 1e-4 * expected.abs()).sum())
    nan = int(torch.isnan(got).sum())
    ok = bad == 0 and nan == 0
    print(f"  {name}: max error {float(error.max()):.2e}, {bad} outside "
          f"tolerance, {nan} NaN: {'PASS' if ok else 'FAIL'}")
    return ok


def time_us(call, iterations):
    return timing.time_calls([call], iterations).median_us


def chosen(module, tuned, key, args):
    """The instance mla.Autotune chose for `args`, after it ran them."""
    tuned(*args)
    (symbol,) = [s for k, s in tuned.choices.items() if k == key]
    return symbol, module[symbol]


def softmax(module, rows, cols, iterations):
    tuned = mla.Autotune(module, "row_softmax", key=("rows", "cols"))
    x = torch.randn(rows, cols, device="cuda") * 4
    y = torch.full_like(x, float("nan"))
    symbol, kernel = chosen(module, tuned, f"[{rows}, {cols}]",
                            (x, y, rows, cols))
    y.fill_(float("nan"))
    kernel(x, y, rows, cols)
    ok = check(symbol, y, torch.softmax(x.double(), dim=1))
    ours = time_us(lambda: kernel(x, y, rows, cols), iterations)
    theirs = time_us(lambda: torch.softmax(x, dim=1), iterations)
    return ok, symbol, ours, theirs, 2 * x.numel() * 4


def layer_norm(module, rows, cols, iterations):
    tuned = mla.Autotune(module, "layer_norm", key=("rows", "cols"))
    x = torch.randn(rows, cols, device="cuda") * 3 + 1
    w = torch.randn(cols, device="cuda")
    b = torch.randn(cols, device="cuda")
    y = torch.full_like(x, float("nan"))
    eps = 1e-5
    symbol, kernel = chosen(module, tuned, f"[{rows}, {cols}]",
                            (x, y, w, b, rows, cols, eps))
    y.fill_(float("nan"))
    kernel(x, y, w, b, rows, cols, eps)
    expected = torch.nn.functional.layer_norm(
        x.double(), (cols,), w.double(), b.double(), eps)
    ok = check(symbol, y, expected)
    ours = time_us(lambda: kernel(x, y, w, b, rows, cols, eps), iterations)
    theirs = time_us(lambda: torch.nn.functional.layer_norm(
        x, (cols,), w, b, eps), iterations)
    return ok, symbol, ours, theirs, 2 * x.numel() * 4


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", help="folder of softmax.cubin and "
                        "layer_norm.cubin (or .ptx)")
    parser.add_argument("--cols", default="256,1024",
                        help="column counts, comma-separated")
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--iters", type=int, default=20)
    args = parser.parse_args()

    def load(stem):
        for ext in (".cubin", ".ptx"):
            path = os.path.join(args.modules, stem + ext)
            if os.path.exists(path):
                return mla.Module(path)
        sys.exit(f"error: no {stem}.cubin or {stem}.ptx in {args.modules}")

    print(f"{torch.cuda.get_device_name()}; {args.rows} rows of f32")
    print("| kernel | rows x cols | instance | ours us | ours GB/s | "
          "torch us | torch GB/s | ours / torch |")
    print("|---|---|---|---|---|---|---|---|")
    failed = False
    for name, run, module in (("softmax", softmax, load("softmax")),
                              ("layer_norm", layer_norm, load("layer_norm"))):
        for cols in (int(c) for c in args.cols.split(",")):
            try:
                ok, symbol, ours, theirs, nbytes = run(
                    module, args.rows, cols, args.iters)
            except mla.MlaError as error:
                print(f"| {name} | {args.rows}x{cols} | refused: {error} "
                      "| | | | | |")
                continue
            failed |= not ok
            print(f"| {name} | {args.rows}x{cols} | {symbol} | {ours:.1f} | "
                  f"{gbs(nbytes, ours):.0f} | {theirs:.1f} | "
                  f"{gbs(nbytes, theirs):.0f} | {theirs / ours:.2f}x |")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
