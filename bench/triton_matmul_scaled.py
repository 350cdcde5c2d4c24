#!/usr/bin/env python3
"""Triton peers of examples/fp8_matmul.mlir and examples/mx_matmul.mlir,
written as those programs are (one program per BM x BN block of C, a K
loop with masked edge loads, B read as stored: [N, K], K-contiguous),
searched over comparable block sizes with Triton's stages and warps. Each
config is checked against float64 (C filled with NaN first), then timed as
bench/kernels.py times ours (bench/timing), next to torch._scaled_mm
(fp8) or dequantizing in torch then torch.matmul (MXFP4). fp8: C f32 =
a_scale * b_scale * A @ B^T, both e4m3; mx_bf16: C f32 = A @ dequant(B)^T,
A bf16, B MXFP4 ([N, K/2] bytes, low nibble the even k; E8M0 scales
[N, K/32]); mx_mxfp4: A MXFP4 as B.

  python3 bench/triton_matmul_scaled.py [--kernels fp8,mx_bf16,mx_mxfp4]
      [--shapes 4096x4096x4096,16x4096x4096] [--iters 20]
"""

import argparse
import itertools
import sys

import torch
import triton
import triton.language as tl

sys.path[:0] = ["bench"]
import timing  # noqa: E402
from mx_data import dequant_mxfp4, random_e4m3, random_mxfp4  # noqa: E402

SHAPES = "4096x4096x4096,16x4096x4096"
# Our sm_90 instances are 64x64 and 128x128 (fp8 also 128x256) blocks, BK 64
# (fp8) or 128 (MXFP4), 4 or 8 warps, 16-row blocks for skinny MXFP4.
BLOCK_NS, BLOCK_KS, STAGES, WARPS = [64, 128], [64, 128], [3, 4], [4, 8]


@triton.jit
def fp8_kernel(a, b, c, m, n, k, a_scale, b_scale, BM: tl.constexpr,
               BN: tl.constexpr, BK: tl.constexpr, IMPRECISE: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    depth = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kk in range(0, tl.cdiv(k, BK)):
        inner = kk * BK + depth
        at = tl.load(a + rows[:, None] * k + inner[None, :],
                     mask=(rows[:, None] < m) & (inner[None, :] < k), other=0.0)
        # B^T's tile [BK, BN] straight from B [N, K]: K-major, as Hopper's
        # fp8 warpgroup products need it.
        bt = tl.load(b + cols[None, :] * k + inner[:, None],
                     mask=(inner[:, None] < k) & (cols[None, :] < n), other=0.0)
        # IMPRECISE None: Triton's default (on sm_90 the tensor cores'
        # reduced-precision fp8 accumulation); BK: promoted to f32 per step.
        acc = tl.dot(at, bt, acc, max_num_imprecise_acc=IMPRECISE)
    # The per-tensor scales, once per product (as ours).
    tl.store(c + rows[:, None] * n + cols[None, :], acc * (a_scale * b_scale),
             mask=(rows[:, None] < m) & (cols[None, :] < n))


@triton.jit
def mx_kernel(a, a_scale, b, b_scale, c, m, n, k, A_FMT: tl.constexpr,
              SWAP: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
              BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    kb, ks = k // 2, k // 32  # bytes and scales per row
    acc = tl.zeros((BN, BM) if SWAP else (BM, BN), dtype=tl.float32)
    for kk in range(0, tl.cdiv(k, BK)):
        nbytes = kk * (BK // 2) + tl.arange(0, BK // 2)
        blocks = kk * (BK // 32) + tl.arange(0, BK // 32)
        # B^T's packed tile [BK/2, BN] (k along its rows) and B's scales
        # [BN, BK/32], the layouts dot_scaled takes for its rhs.
        bt = tl.load(b + cols[None, :] * kb + nbytes[:, None],
                     mask=(nbytes[:, None] < kb) & (cols[None, :] < n), other=0)
        bs = tl.load(b_scale + cols[:, None] * ks + blocks[None, :],
                     mask=(cols[:, None] < n) & (blocks[None, :] < ks),
                     other=127)
        if A_FMT == "e2m1":
            at = tl.load(a + rows[:, None] * kb + nbytes[None, :],
                         mask=(rows[:, None] < m) & (nbytes[None, :] < kb),
                         other=0)
            ascale = tl.load(a_scale + rows[:, None] * ks + blocks[None, :],
                             mask=(rows[:, None] < m) & (blocks[None, :] < ks),
                             other=127)
        else:
            inner = kk * BK + tl.arange(0, BK)
            at = tl.load(a + rows[:, None] * k + inner[None, :],
                         mask=(rows[:, None] < m) & (inner[None, :] < k),
                         other=0.0)
            ascale = None
        if SWAP:
            # C^T = B A^T: B's MXFP4 as the lhs (the only scaled operand
            # Triton 3.2 accepts; it also puts N on the products' M side).
            acc = tl.dot_scaled(tl.trans(bt), bs, "e2m1", tl.trans(at),
                                ascale, A_FMT, acc=acc)
        else:
            acc = tl.dot_scaled(at, ascale, A_FMT, bt, bs, "e2m1", acc=acc)
    if SWAP:
        acc = tl.trans(acc)
    tl.store(c + rows[:, None] * n + cols[None, :], acc,
             mask=(rows[:, None] < m) & (cols[None, :] < n))


def scaled_mm(a, b, sa, sb):
    """torch._scaled_mm, whose signature and result changed across
    releases (a tuple with amax before 2.4)."""
    scale_a = torch.tensor(sa, device="cuda")
    scale_b = torch.tensor(sb, device="cuda")
    out = torch._scaled_mm(a, b.T, scale_a=scale_a, scale_b=scale_b,
                           out_dtype=torch.float32)
    return out[0] if isinstance(out, tuple) else out


def reason(error):
    """One line of an exception: Triton's compilation errors open with the
    source position and end with the reason."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    line = lines[-1] if lines and lines[0].startswith("at ") else (
        lines + [""])[0]
    return f"{type(error).__name__}: {line}"[:160]


def best_of(configs, launch, c, expected, iterations):
    """The fastest config whose output passes bench/kernels.py's
    check_matmul (every element within 1e-3 of the largest |expected|,
    no NaN), its time and its error; or None and the first refusal."""
    tolerance = 1e-3 * float(expected.abs().max())
    times, errors, refusals = {}, {}, []
    for config in configs:
        c.fill_(float("nan"))
        try:
            launch(config)
            torch.cuda.synchronize()
        except Exception as error:  # refused, out of shared memory, ...
            if reason(error) not in refusals:
                print(f"    {config}: refused: {reason(error)}")
            refusals.append(reason(error))
            continue
        error = (c.double() - expected).abs()
        if not bool((error <= tolerance).all()):
            print(f"    {config}: WRONG (max error {float(error.max()):.2e}, "
                  f"tolerance {tolerance:.2e})")
            continue
        errors[config] = float(error.max()) / float(expected.abs().max())
        times[config] = timing.time_calls([lambda: launch(config)],
                                          iterations).median_us
    if not times:
        return None, (refusals[0] if refusals else "no config passed"), None
    best = min(times, key=times.get)
    return best, times[best], errors[best]


def row_blocks(m):
    return [16, 64] if m <= 16 else [64, 128]


def fp8(m, n, k, iterations):
    a, b = random_e4m3(m, k), random_e4m3(n, k)
    sa, sb = 0.5, 2.0
    c = torch.empty(m, n, device="cuda")
    expected = sa * sb * (a.double() @ b.double().T)

    def launch(config):
        bm, bn, bk, stages, warps, accumulation = config
        fp8_kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
            a, b, c, m, n, k, sa, sb, BM=bm, BN=bn, BK=bk,
            IMPRECISE=bk if accumulation == "f32 every BK" else None,
            num_stages=stages, num_warps=warps)

    configs = itertools.product(row_blocks(m), BLOCK_NS, BLOCK_KS, STAGES,
                                WARPS, ["fast fp8 accumulation",
                                        "f32 every BK"])
    return (best_of(configs, launch, c, expected, iterations),
            "torch._scaled_mm", lambda: scaled_mm(a, b, sa, sb))


def mx(m, n, k, a_fmt, iterations):
    b, b_scale = random_mxfp4(n, k)
    if a_fmt == "e2m1":
        a, a_scale = random_mxfp4(m, k)
        a_values = dequant_mxfp4(a, a_scale)
    else:
        a = a_values = torch.randn(m, k, device="cuda").to(torch.bfloat16)
        a_scale = torch.empty(1, dtype=torch.uint8, device="cuda")  # unused
    c = torch.empty(m, n, device="cuda")
    expected = a_values.double() @ dequant_mxfp4(b, b_scale).double().T

    def launch(config):
        bm, bn, bk, stages, warps, swap = config
        mx_kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
            a, a_scale, b, b_scale, c, m, n, k, A_FMT=a_fmt,
            SWAP=swap != "A B^T", BM=bm, BN=bn, BK=bk, num_stages=stages,
            num_warps=warps)

    def torch_call():  # the dequantization counts, as in bench/kernels.py
        left = dequant_mxfp4(a, a_scale) if a_fmt == "e2m1" else a
        return left @ dequant_mxfp4(b, b_scale).T

    configs = itertools.product(row_blocks(m), BLOCK_NS, BLOCK_KS, STAGES,
                                WARPS, ["A B^T", "C^T = B A^T"])
    return (best_of(configs, launch, c, expected, iterations),
            "dequantize + torch.matmul", torch_call)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", default="fp8,mx_bf16,mx_mxfp4")
    parser.add_argument("--shapes", default=SHAPES,
                        help="MxNxK, comma-separated (K a multiple of 32)")
    parser.add_argument("--iters", type=int, default=20)
    args = parser.parse_args()
    shapes = [tuple(int(x) for x in s.split("x"))
              for s in args.shapes.split(",")]
    sys.stdout.reconfigure(line_buffering=True)  # progress through a pipe
    print(torch.cuda.get_device_name(), "triton", triton.__version__,
          "torch", torch.__version__)
    print("| kernel | shape | best Triton config | max error / max ref "
          "| Triton us | Triton TFLOP/s | torch us | torch TFLOP/s "
          "| Triton / torch |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kernel in args.kernels.split(","):
        for m, n, k in shapes:
            print(f"  {kernel} {m}x{n}x{k}: searching")
            (best, us, err), peer, call = (
                fp8(m, n, k, args.iters) if kernel == "fp8" else
                mx(m, n, k, {"mx_bf16": "bf16", "mx_mxfp4": "e2m1"}[kernel],
                   args.iters))
            try:
                theirs = timing.time_calls([call], args.iters).median_us
            except Exception as error:  # an older or newer _scaled_mm
                theirs, peer = None, f"{peer} unsupported: {reason(error)}"
            flops = 2.0 * m * n * k
            torch_cols = (f"{theirs:.1f} | {flops / theirs / 1e6:.0f} "
                          f"({peer})" if theirs else f"{peer} | ")
            if best is None:
                print(f"| {kernel} | {m}x{n}x{k} | unsupported: {us} | | | "
                      f"| {torch_cols} | |")
                continue
            bm, bn, bk, stages, warps, variant = best
            print(f"| {kernel} | {m}x{n}x{k} | {bm}x{bn}x{bk}, {stages} "
                  f"stages, {warps} warps, {variant} | {err:.1e} | {us:.1f} "
                  f"| {flops / us / 1e6:.0f} | {torch_cols} | "
                  + (f"{theirs / us:.2f}x |" if theirs else " |"))


if __name__ == "__main__":
    main()
