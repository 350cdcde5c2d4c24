#!/usr/bin/env python3
"""The DSL's tutorial kernels (examples/softmax.mlir, layer_norm.mlir,
attention.mlir, fp8_matmul.mlir, mx_matmul.mlir) through python/mla on
torch CUDA tensors, next to torch.softmax, torch.nn.functional.layer_norm,
scaled_dot_product_attention on its flash backend, torch._scaled_mm
(cuBLAS fp8) and, for MXFP4 weights, their dequantization in torch
followed by torch.matmul. For each shape
mla.Autotune times the module's instances and keeps the fastest; its
output is checked against float64 (filled with NaN first, so an unwritten
element fails), then it and torch are timed behind a device-side spin
(bench/timing.py). Prints GB/s for the row kernels (x read once, y
written once, over the median time) and TFLOP/s for attention (4 N^2 D
per head, half of it when causal) and the matmuls (2 M N K).

  for k in softmax layer_norm attention fp8_matmul mx_matmul; do
    mla-compile examples/$k.mlir --target=sm_90 -o build/dev/k/$k.ptx; done
  PYTHONPATH=python python3 bench/kernels.py build/dev/k
"""

import argparse
import os
import sys

import torch

sys.path[:0] = ["python", "bench"]
import mla  # noqa: E402
import timing  # noqa: E402
from mx_data import dequant_mxfp4, random_e4m3, random_mxfp4  # noqa: E402

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


def chosen(module, tuned, args=(), kwargs=None):
    """The instance a new mla.Autotune chooses for the call."""
    tuned(*args, **(kwargs or {}))
    (symbol,) = tuned.choices.values()
    return symbol, module[symbol]


def softmax(module, rows, cols, iterations):
    tuned = mla.Autotune(module, "row_softmax", key=("rows", "cols"))
    x = torch.randn(rows, cols, device="cuda") * 4
    y = torch.full_like(x, float("nan"))
    symbol, kernel = chosen(module, tuned, (x, y, rows, cols))
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
    symbol, kernel = chosen(module, tuned, (x, y, w, b, rows, cols, eps))
    y.fill_(float("nan"))
    kernel(x, y, w, b, rows, cols, eps)
    expected = torch.nn.functional.layer_norm(
        x.double(), (cols,), w.double(), b.double(), eps)
    ok = check(symbol, y, expected)
    ours = time_us(lambda: kernel(x, y, w, b, rows, cols, eps), iterations)
    theirs = time_us(lambda: torch.nn.functional.layer_norm(
        x, (cols,), w, b, eps), iterations)
    return ok, symbol, ours, theirs, 2 * x.numel() * 4


def attention(module, shape, iterations):
    batch, heads, n, d, causal = shape
    tuned = mla.Autotune(module, "attention",
                         key=("q", "heads", "seq", "head_dim",
                                             "causal"))
    q, k, v = (torch.randn(batch, heads, n, d, device="cuda")
               .to(torch.bfloat16) for _ in range(3))
    o = torch.full_like(q, float("nan"))
    scale = d ** -0.5
    args = (q, k, v, o, batch * heads, n, d, int(causal), scale)
    symbol, kernel = chosen(module, tuned, args)
    o.fill_(float("nan"))
    kernel(*args)
    ok = check_attention(symbol, o, q, k, v, causal, scale)
    ours = time_us(lambda: kernel(*args), iterations)
    from torch.nn.attention import SDPBackend, sdpa_kernel
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        theirs = time_us(lambda: torch.nn.functional.scaled_dot_product_attention(
            q, k, v, is_causal=causal, scale=scale), iterations)
    flops = 4 * batch * heads * n * n * d / (2 if causal else 1)
    return ok, symbol, ours, theirs, flops


def check_attention(name, o, q, k, v, causal, scale):
    """Against float64, a few heads at a time (the scores of all would not
    fit)."""
    n = q.shape[2]
    hidden = torch.ones(n, n, dtype=torch.bool, device="cuda").triu(1)
    worst, bad = 0.0, 0
    for b in range(q.shape[0]):
        for h in range(0, q.shape[1], 8):
            qs, ks, vs = (t[b, h:h + 8].double() for t in (q, k, v))
            s = scale * qs @ ks.transpose(1, 2)
            if causal:
                s.masked_fill_(hidden, float("-inf"))
            expected = torch.softmax(s, dim=-1) @ vs
            error = (o[b, h:h + 8].double() - expected).abs()
            worst = max(worst, float(error.max()))
            bad += int((~(error <= 1e-2 + 1e-2 * expected.abs())).sum())
    ok = bad == 0
    print(f"  {name}: max error {worst:.2e}, {bad} outside tolerance "
          f"(NaN included): {'PASS' if ok else 'FAIL'}")
    return ok


def check_matmul(name, c, expected):
    error = (c.double() - expected).abs()
    bad = int((~(error <= 1e-3 * expected.abs().max())).sum())
    ok = bad == 0
    print(f"  {name}: max error {float(error.max()):.2e} of "
          f"{float(expected.abs().max()):.2e}, {bad} outside 1e-3 of the "
          f"largest (NaN included): {'PASS' if ok else 'FAIL'}")
    return ok


def fp8_matmul(module, shape, iterations):
    m, n, k = shape
    tuned = mla.Autotune(module, "fp8_matmul", key=("a", "b", "m", "n", "k"))
    a, b = random_e4m3(m, k), random_e4m3(n, k)
    c = torch.full((m, n), float("nan"), device="cuda")
    sa, sb = 0.5, 2.0
    args = (a, b, c, m, n, k, sa, sb)
    symbol, kernel = chosen(module, tuned, args)
    c.fill_(float("nan"))
    kernel(*args)
    ok = check_matmul(symbol, c, sa * sb * (a.double() @ b.double().T))
    ours = time_us(lambda: kernel(*args), iterations)
    scale_a = torch.tensor(sa, device="cuda")
    scale_b = torch.tensor(sb, device="cuda")
    theirs = time_us(lambda: torch._scaled_mm(
        a, b.T, scale_a=scale_a, scale_b=scale_b, out_dtype=torch.float32),
        iterations)
    return ok, symbol, ours, theirs, 2.0 * m * n * k, "torch._scaled_mm"


def mx_matmul(module, shape, iterations):
    """bf16 A against MXFP4 B; the peer dequantizes B, then cuBLAS."""
    m, n, k = shape
    tuned = mla.Autotune(module, "mx_matmul", key=("a", "b", "m", "n", "k"))
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b, b_scale = random_mxfp4(n, k)
    c = torch.full((m, n), float("nan"), device="cuda")
    args = dict(a=a, b=b, b_scale=b_scale, c=c, m=m, n=n, k=k)
    # The A = "mxfp4" instances take a_scale too: arguments by name.
    symbol, kernel = chosen(module, tuned, kwargs=args)
    c.fill_(float("nan"))
    kernel(**args)
    ok = check_matmul(symbol, c,
                      a.double() @ dequant_mxfp4(b, b_scale).double().T)
    ours = time_us(lambda: kernel(**args), iterations)
    theirs = time_us(lambda: a @ dequant_mxfp4(b, b_scale).T, iterations)
    return (ok, symbol, ours, theirs, 2.0 * m * n * k,
            "dequantize + torch.matmul")


MATMUL_SHAPES = [(4096, 4096, 4096), (16, 4096, 4096)]

ATTENTION_SHAPES = [(4, 32, 4096, 128, True), (4, 32, 4096, 128, False),
                    (4, 32, 4096, 64, True), (16, 16, 1024, 128, True)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", help="folder of softmax.cubin and "
                        "layer_norm.cubin (or .ptx)")
    parser.add_argument("--cols", default="256,1024",
                        help="column counts, comma-separated")
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--kernels", default="softmax,layer_norm,attention,"
                        "fp8_matmul,mx_matmul")
    args = parser.parse_args()

    def load(stem):
        for ext in (".cubin", ".ptx"):
            path = os.path.join(args.modules, stem + ext)
            if os.path.exists(path):
                return mla.Module(path)
        sys.exit(f"error: no {stem}.cubin or {stem}.ptx in {args.modules}")

    kernels = args.kernels.split(",")
    print(f"{torch.cuda.get_device_name()}; {args.rows} rows of f32")
    print("| kernel | shape | instance | ours us | ours rate | "
          "torch us | torch rate | ours / torch |")
    print("|---|---|---|---|---|---|---|---|")
    failed = False
    for name, run in (("softmax", softmax), ("layer_norm", layer_norm)):
        if name not in kernels:
            continue
        module = load(name)
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
                  f"{gbs(nbytes, ours):.0f} GB/s | {theirs:.1f} | "
                  f"{gbs(nbytes, theirs):.0f} GB/s | {theirs / ours:.2f}x |")
    if "attention" in kernels:
        module = load("attention")
        for shape in ATTENTION_SHAPES:
            label = "x".join(str(x) for x in shape[:4]) + (
                " causal" if shape[4] else "")
            try:
                ok, symbol, ours, theirs, flops = attention(module, shape,
                                                            args.iters)
            except mla.MlaError as error:
                print(f"| attention | {label} | refused: {error} "
                      "| | | | | |")
                continue
            failed |= not ok
            print(f"| attention | {label} | {symbol} | {ours:.1f} | "
                  f"{flops / ours / 1e6:.0f} TFLOP/s | {theirs:.1f} | "
                  f"{flops / theirs / 1e6:.0f} TFLOP/s | "
                  f"{theirs / ours:.2f}x |")
    for name, run in (("fp8_matmul", fp8_matmul), ("mx_matmul", mx_matmul)):
        if name not in kernels:
            continue
        module = load(name)
        for shape in MATMUL_SHAPES:
            label = "x".join(str(x) for x in shape)
            try:
                ok, symbol, ours, theirs, flops, peer = run(module, shape,
                                                            args.iters)
            except mla.MlaError as error:
                print(f"| {name} | {label} | refused: {error} | | | | | |")
                continue
            failed |= not ok
            print(f"| {name} | {label} | {symbol} | {ours:.1f} | "
                  f"{flops / ours / 1e6:.0f} TFLOP/s | {theirs:.1f} | "
                  f"{flops / theirs / 1e6:.0f} TFLOP/s ({peer}) | "
                  f"{theirs / ours:.2f}x |")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
