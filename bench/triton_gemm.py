#!/usr/bin/env python3
"""The Triton peer of examples/gemm.mlir: a plain bf16 x bf16 -> f32
Triton GEMM (one program per BM x BN block of C, a K loop with masked edge
loads), searched over the same block sizes as the DSL's instances, with
Triton's pipeline stages and warps, timed as bench/gemm_autotune.py times
ours (bench/timing: queued behind a device-side spin) and checked against
torch's float32 product. Prints each configuration's time and the best.

  python3 bench/triton_gemm.py [MxNxK ...]

Without shapes it runs 4096^3, 8192^3 and 16x4096x4096.
"""

import itertools
import sys

import torch
import triton
import triton.language as tl

sys.path[:0] = ["bench"]
import timing  # noqa: E402

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (16, 4096, 4096)]
# (BM, BN, BK): the DSL's instances and their neighbours; the 16-row
# blocks (for M <= 64) also over deeper pipelines.
BLOCKS = [(128, 128, 32), (128, 128, 64), (128, 256, 64), (256, 128, 64),
          (64, 64, 64), (64, 128, 64)]
STAGES = [2, 3, 4]
SKINNY_BLOCKS = [(16, 16, 128), (16, 32, 128), (16, 64, 128), (16, 128, 128),
                 (16, 16, 256), (16, 32, 256)]
SKINNY_STAGES = [2, 3, 4, 6, 8]
WARPS = [4, 8]


def configs(m):
    """The (block, stages, warps) searched for M rows."""
    if m <= 64:
        return itertools.product(SKINNY_BLOCKS, SKINNY_STAGES, WARPS)
    return itertools.product(BLOCKS, STAGES, WARPS)


@triton.jit
def gemm_kernel(a, b, c, m, n, k, BM: tl.constexpr, BN: tl.constexpr,
                BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    depth = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kk in range(0, tl.cdiv(k, BK)):
        inner = kk * BK + depth
        at = tl.load(a + rows[:, None] * k + inner[None, :],
                     mask=(rows[:, None] < m) & (inner[None, :] < k), other=0.0)
        bt = tl.load(b + inner[:, None] * n + cols[None, :],
                     mask=(inner[:, None] < k) & (cols[None, :] < n), other=0.0)
        acc = tl.dot(at, bt, acc)
    tl.store(c + rows[:, None] * n + cols[None, :], acc,
             mask=(rows[:, None] < m) & (cols[None, :] < n))


def run(a, b, c, block, stages, warps):
    (m, k), n = a.shape, b.shape[1]
    bm, bn, bk = block
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_kernel[grid](a, b, c, m, n, k, BM=bm, BN=bn, BK=bk,
                      num_stages=stages, num_warps=warps)


def main():
    print(torch.cuda.get_device_name(), "triton", triton.__version__)
    shapes = [tuple(int(d) for d in s.split("x")) for s in sys.argv[1:]]
    for m, n, k in shapes or SHAPES:
        a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
        b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
        expected = a.float() @ b.float()
        scale = float(expected.abs().max())
        times = {}
        for block, stages, warps in configs(m):
            c = torch.full((m, n), float("nan"), device="cuda")
            try:
                run(a, b, c, block, stages, warps)
                torch.cuda.synchronize()
            except Exception as error:  # out of shared memory, etc.
                print(f"  {block} s{stages} w{warps}: refused "
                      f"({type(error).__name__})")
                continue
            if float((c - expected).abs().max()) > 1e-2 * scale:
                print(f"  {block} s{stages} w{warps}: WRONG")
                continue
            times[(block, stages, warps)] = timing.time_calls(
                [lambda: run(a, b, c, block, stages, warps)], 20).median_us
        best = min(times, key=times.get)
        flops = 2.0 * m * n * k
        print(f"{m}x{n}x{k}: " + ", ".join(
            f"{bl[0]}x{bl[1]}x{bl[2]} s{s} w{w} {t:.1f}"
            for (bl, s, w), t in sorted(times.items(), key=lambda x: x[1])[:6]))
        print(f"  best {best}: {times[best]:.1f} us, "
              f"{flops / times[best] / 1e6:.0f} TFLOP/s")


if __name__ == "__main__":
    main()
