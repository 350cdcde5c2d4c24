#!/usr/bin/env python3
"""Triton versions of the DSL's tutorial kernels (examples/softmax.mlir,
layer_norm.mlir, attention.mlir), written as those programs are (ROWS
rows of BLOCK columns per program, one read where a row fits a block,
column tiles otherwise; attention's unmasked and diagonal key loops) and
searched over the same block sizes, with Triton's warps and stages. Each
configuration is checked against torch, then timed as bench/kernels.py
times ours (bench/timing: queued behind a device-side spin); prints the
best per shape in kernels.py's table format.

  python3 bench/triton_kernels.py [--kernels softmax,layer_norm,attention]
"""

import argparse
import itertools
import sys

import torch
import triton
import triton.language as tl

sys.path[:0] = ["bench"]
import timing  # noqa: E402

ROWS = 1 << 20
COLS = [256, 1024]
# (ROWS, BLOCK) per program and warps: the DSL's sm_90 instances.
ROW_BLOCKS = [(16, 256), (8, 256), (32, 256), (4, 1024), (8, 1024),
              (1, 4096)]
ROW_WARPS = [2, 4, 8]
ATTENTION_SHAPES = [(4, 32, 4096, 128, True), (4, 32, 4096, 128, False),
                    (4, 32, 4096, 64, True), (16, 16, 1024, 128, True)]
# (BM, BN, warps): the DSL's instances (64 queries on 4 warps, 128 on 8).
ATTENTION_BLOCKS = [(64, 64, 4), (128, 64, 8), (128, 128, 8)]
ATTENTION_STAGES = [2, 3]


@triton.jit
def softmax_kernel(x, y, rows, cols, R: tl.constexpr, B: tl.constexpr):
    r = tl.program_id(0) * R + tl.arange(0, R)
    c = tl.arange(0, B)
    if cols <= B:
        mask = (r[:, None] < rows) & (c[None, :] < cols)
        t = tl.load(x + r[:, None] * cols + c[None, :], mask=mask,
                    other=-float("inf"))
        e = tl.exp(t - tl.max(t, axis=1)[:, None])
        tl.store(y + r[:, None] * cols + c[None, :],
                 e / tl.sum(e, axis=1)[:, None], mask=mask)
    else:
        m = tl.full((R,), -float("inf"), tl.float32)
        s = tl.zeros((R,), tl.float32)
        for start in range(0, cols, B):
            cc = start + c
            t = tl.load(x + r[:, None] * cols + cc[None, :],
                        mask=(r[:, None] < rows) & (cc[None, :] < cols),
                        other=-float("inf"))
            m_next = tl.maximum(m, tl.max(t, axis=1))
            s = s * tl.exp(m - m_next) + tl.sum(
                tl.exp(t - m_next[:, None]), axis=1)
            m = m_next
        for start in range(0, cols, B):
            cc = start + c
            mask = (r[:, None] < rows) & (cc[None, :] < cols)
            t = tl.load(x + r[:, None] * cols + cc[None, :], mask=mask,
                        other=-float("inf"))
            tl.store(y + r[:, None] * cols + cc[None, :],
                     tl.exp(t - m[:, None]) / s[:, None], mask=mask)


@triton.jit
def layer_norm_kernel(x, y, w, b, rows, cols, eps, R: tl.constexpr,
                      B: tl.constexpr):
    r = tl.program_id(0) * R + tl.arange(0, R)
    c = tl.arange(0, B)
    if cols <= B:
        mask = (r[:, None] < rows) & (c[None, :] < cols)
        t = tl.load(x + r[:, None] * cols + c[None, :], mask=mask, other=0.0)
        mean = tl.sum(t, axis=1) / cols
        d = tl.where(mask, t - mean[:, None], 0.0)
        rstd = 1 / tl.sqrt(tl.sum(d * d, axis=1) / cols + eps)
        wt = tl.load(w + c, mask=c < cols)
        bt = tl.load(b + c, mask=c < cols)
        tl.store(y + r[:, None] * cols + c[None, :],
                 d * rstd[:, None] * wt[None, :] + bt[None, :], mask=mask)
    else:
        acc = tl.zeros((R, B), tl.float32)
        for start in range(0, cols, B):
            cc = start + c
            acc += tl.load(x + r[:, None] * cols + cc[None, :],
                           mask=(r[:, None] < rows) & (cc[None, :] < cols),
                           other=0.0)
        mean = tl.sum(acc, axis=1) / cols
        acc = tl.zeros((R, B), tl.float32)
        for start in range(0, cols, B):
            cc = start + c
            mask = (r[:, None] < rows) & (cc[None, :] < cols)
            t = tl.load(x + r[:, None] * cols + cc[None, :], mask=mask,
                        other=0.0)
            d = tl.where(mask, t - mean[:, None], 0.0)
            acc += d * d
        rstd = 1 / tl.sqrt(tl.sum(acc, axis=1) / cols + eps)
        for start in range(0, cols, B):
            cc = start + c
            mask = (r[:, None] < rows) & (cc[None, :] < cols)
            t = tl.load(x + r[:, None] * cols + cc[None, :], mask=mask,
                        other=0.0)
            wt = tl.load(w + cc, mask=cc < cols)
            bt = tl.load(b + cc, mask=cc < cols)
            tl.store(y + r[:, None] * cols + cc[None, :],
                     (t - mean[:, None]) * rstd[:, None] * wt[None, :]
                     + bt[None, :], mask=mask)


@triton.jit
def attention_step(acc, m, l, q, kp, vp, keys, queries, n, scale,
                   D: tl.constexpr, MASKED: tl.constexpr):
    d = tl.arange(0, D)
    kt = tl.load(kp + keys[:, None] * D + d[None, :],
                 mask=keys[:, None] < n, other=0.0)
    vt = tl.load(vp + keys[:, None] * D + d[None, :],
                 mask=keys[:, None] < n, other=0.0)
    s = tl.dot(q, tl.trans(kt)) * scale
    if MASKED:
        s = tl.where((keys[None, :] < n) & (keys[None, :] <= queries[:, None]),
                     s, -float("inf"))
    m_next = tl.maximum(m, tl.max(s, axis=1))
    p = tl.exp(s - m_next[:, None])
    alpha = tl.exp(m - m_next)
    l = l * alpha + tl.sum(p, axis=1)
    acc = acc * alpha[:, None] + tl.dot(p.to(tl.bfloat16), vt)
    return acc, m_next, l


@triton.jit
def attention_kernel(q, k, v, o, n, scale, CAUSAL: tl.constexpr,
                     BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    block = tl.num_programs(0) - 1 - tl.program_id(0)
    base = tl.program_id(1).to(tl.int64) * n * D
    queries = block * BM + tl.arange(0, BM)
    d = tl.arange(0, D)
    qt = tl.load(q + base + queries[:, None] * D + d[None, :],
                 mask=queries[:, None] < n, other=0.0)
    m = tl.full((BM,), -float("inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    if CAUSAL:
        unmasked_end = (block * BM) // BN * BN
        end = tl.minimum(block * BM + BM, n)
    else:
        unmasked_end = n // BN * BN
        end = n
    for start in range(0, unmasked_end, BN):
        keys = start + tl.arange(0, BN)
        acc, m, l = attention_step(acc, m, l, qt, k + base, v + base, keys,
                                   queries, n, scale, D, False)
    for start in range(unmasked_end, end, BN):
        keys = start + tl.arange(0, BN)
        acc, m, l = attention_step(acc, m, l, qt, k + base, v + base, keys,
                                   queries, n, scale, D, True)
    tl.store(o + base + queries[:, None] * D + d[None, :],
             (acc / l[:, None]).to(tl.bfloat16), mask=queries[:, None] < n)


def best_of(configs, launch, check, iterations):
    """The fastest config that passes `check`, and its time."""
    times = {}
    for config in configs:
        try:
            launch(config)
            torch.cuda.synchronize()
        except Exception as error:  # out of registers or shared memory
            print(f"  {config}: refused ({type(error).__name__})")
            continue
        if not check():
            print(f"  {config}: WRONG")
            continue
        times[config] = timing.time_calls([lambda: launch(config)],
                                          iterations).median_us
    best = min(times, key=times.get)
    return best, times[best]


def close(got, expected):
    return bool(((got.float() - expected.float()).abs()
                 <= 1e-2 + 1e-2 * expected.float().abs()).all())


def row_kernels(which, iterations):
    for cols in COLS:
        x = torch.randn(ROWS, cols, device="cuda") * 4
        y = torch.full_like(x, float("nan"))
        w = torch.randn(cols, device="cuda")
        b = torch.randn(cols, device="cuda")
        if which == "softmax":
            expected = torch.softmax(x, dim=1)

            def launch(config):
                (r, block), warps = config
                softmax_kernel[(triton.cdiv(ROWS, r),)](
                    x, y, ROWS, cols, R=r, B=block, num_warps=warps)
        else:
            expected = torch.nn.functional.layer_norm(x, (cols,), w, b, 1e-5)

            def launch(config):
                (r, block), warps = config
                layer_norm_kernel[(triton.cdiv(ROWS, r),)](
                    x, y, w, b, ROWS, cols, 1e-5, R=r, B=block,
                    num_warps=warps)

        def check():
            good = close(y, expected)
            y.fill_(float("nan"))
            return good

        best, us = best_of(itertools.product(ROW_BLOCKS, ROW_WARPS), launch,
                           check, iterations)
        (r, block), warps = best
        print(f"| {which} | {ROWS}x{cols} | {r} rows x {block}, {warps} "
              f"warps | {us:.1f} | {2 * x.numel() * 4 / us / 1e3:.0f} GB/s |")


def attention(iterations):
    for batch, heads, n, d, causal in ATTENTION_SHAPES:
        q, k, v = (torch.randn(batch, heads, n, d, device="cuda")
                   .to(torch.bfloat16) for _ in range(3))
        o = torch.full_like(q, float("nan"))
        scale = d ** -0.5
        expected = torch.nn.functional.scaled_dot_product_attention(
            q, k, v, is_causal=causal, scale=scale)

        def launch(config):
            (bm, bn, warps), stages = config
            attention_kernel[(triton.cdiv(n, bm), batch * heads)](
                q, k, v, o, n, scale, CAUSAL=causal, BM=bm, BN=bn, D=d,
                num_warps=warps, num_stages=stages)

        def check():
            good = close(o, expected)
            o.fill_(float("nan"))
            return good

        best, us = best_of(
            itertools.product(ATTENTION_BLOCKS, ATTENTION_STAGES), launch,
            check, iterations)
        (bm, bn, warps), stages = best
        flops = 4 * batch * heads * n * n * d / (2 if causal else 1)
        label = f"{batch}x{heads}x{n}x{d}" + (" causal" if causal else "")
        print(f"| attention | {label} | {bm}x{bn}, {warps} warps, {stages} "
              f"stages | {us:.1f} | {flops / us / 1e6:.0f} TFLOP/s |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", default="softmax,layer_norm,attention")
    parser.add_argument("--iters", type=int, default=20)
    args = parser.parse_args()
    kernels = args.kernels.split(",")
    print(torch.cuda.get_device_name(), "triton", triton.__version__)
    print("| kernel | shape | best config | Triton us | Triton rate |")
    print("|---|---|---|---|---|")
    for which in ("softmax", "layer_norm"):
        if which in kernels:
            row_kernels(which, args.iters)
    if "attention" in kernels:
        attention(args.iters)


if __name__ == "__main__":
    main()
