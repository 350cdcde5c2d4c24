#!/usr/bin/env python3
"""The DSL's bf16 GEMM (examples/gemm.mlir) through mla.Autotune on the
GPU: for each shape the instances the module has are timed on the call's
own tensors, the fastest kept, its product checked against torch's
float32 one and timed again next to torch.matmul (cuBLAS), both queued
behind a device-side spin. Prints each instance's time, the choice and
TFLOP/s.

  mla-compile examples/gemm.mlir --target=sm_90 -o build/dev/gemm.ptx \\
      --instances=gemm_bf16:BM=64,128:BN=64,128:BK=32,64:ALIGN=8
  PYTHONPATH=python python3 bench/gemm_autotune.py build/dev/gemm.cubin \\
      [MxNxK ...]

Without shapes it runs 4096^3, 8192^3 and 16x4096x4096.
"""

import sys

import torch

sys.path[:0] = ["python", "bench"]
import mla  # noqa: E402
import timing  # noqa: E402

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (16, 4096, 4096)]


def device_us(call, iterations=20):
    """Median device time of `call` (bench/timing: queued behind a spin)."""
    return timing.time_calls([call], iterations).median_us


def main():
    module = mla.Module(sys.argv[1])
    shapes = [tuple(int(d) for d in s.split("x")) for s in sys.argv[2:]]
    gemm = mla.Autotune(module, "gemm_bf16", key=("m", "n", "k"))
    print(f"{torch.cuda.get_device_name()}; instances: "
          f"{', '.join(k.name for k in gemm.instances)}")
    for m, n, k in shapes or SHAPES:
        a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
        b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
        c = torch.full((m, n), float("nan"), device="cuda")
        gemm(a, b, c, m, n, k)
        expected = a.float() @ b.float()
        error = float((c - expected).abs().max())
        scale = float(expected.abs().max())
        (timings,) = [t for key, t in gemm.timings.items()
                      if key == f"[{m}, {n}, {k}]"]
        (choice,) = [s for key, s in gemm.choices.items()
                     if key == f"[{m}, {n}, {k}]"]
        ours = device_us(lambda: module[choice](a, b, c, m, n, k))
        theirs = device_us(lambda: torch.matmul(a, b))
        flops = 2.0 * m * n * k
        print(f"{m}x{n}x{k}: " + ", ".join(
            f"{s} {t:.1f} us" if isinstance(t, float) else f"{s} refused"
            for s, t in sorted(timings.items())))
        print(f"  chose {choice}: {ours:.1f} us, {flops / ours / 1e6:.0f} "
              f"TFLOP/s; torch.matmul {theirs:.1f} us, "
              f"{flops / theirs / 1e6:.0f} TFLOP/s; max error "
              f"{error:.2e} of {scale:.2e} "
              f"{'PASS' if error <= 1e-2 * scale else 'FAIL'}")


if __name__ == "__main__":
    main()
