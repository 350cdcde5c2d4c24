#!/usr/bin/env python3
"""Where a whole call through mla.Decode spends its time, on the GPU
machine: the host's share (the signature key, the output's allocation, the
three launches through the driver) and the device's (the plan kernel
alone, the partial and combine kernels, the whole call, with its launches
replayed as a graph or run one by one), each the median
of repeated single calls bracketed by events or the host clock. No L2
flush: this splits the call, bench/run.py's `call us` times it.

  PYTHONPATH=python python3 bench/call_profile.py build/dev/mla_decode.cubin
"""

import statistics
import sys
import time

import torch

sys.path[:0] = ["python", "bench"]
import mla  # noqa: E402
from mla import decode as decode_module  # noqa: E402
import problem  # noqa: E402
import timing  # noqa: E402

SHAPES = [problem.Shape(4, 1, 1024, 16), problem.Shape(64, 1, 8192, 16)]
FORMATS = ["bf16", "mxfp4"]


def host_us(call, n=200):
    """Median host time of `call`, the device idle before each."""
    times = []
    for _ in range(n):
        torch.cuda.synchronize()
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e6)
    torch.cuda.synchronize()
    return statistics.median(times)


def device_us(call, n=100):
    """Median time between events recorded around `call`, waited for."""
    return timing.alone_us(call, n)


def profile(module, shape, fmt):
    p = problem.generate(shape, fmt, 1, "cuda")
    decode, plain = (mla.Decode(module, kv_dtype=fmt, heads=shape.heads,
                                plan="balanced", graphs=graphs)
                     for graphs in (True, False))
    out = torch.empty(p.q.shape[0], shape.heads, 512, dtype=torch.bfloat16,
                      device="cuda")
    args = (p.q, p.kv, p.qo_indptr, p.kv_indptr)
    kwargs = dict(kv_scale=p.kv_scale, sm_scale=p.sm_scale)
    call = lambda: decode(*args, **kwargs)  # noqa: E731
    call_into = lambda: decode(*args, out=out, **kwargs)  # noqa: E731
    plain_call = lambda: plain(*args, **kwargs)  # noqa: E731
    call_into()
    plain_call()
    launches = next(iter(plain._calls.values()))[0]
    launches = [bound for bound, _ in launches]
    tensors = (p.q, p.kv, p.qo_indptr, p.kv_indptr, p.kv_scale, out)
    return {
        "host: call": host_us(call),
        "host: call, out given": host_us(call_into),
        "host: call, 3 launches": host_us(plain_call),
        "host: signature key": host_us(
            lambda: tuple(decode_module._signature(t) for t in tensors)),
        "host: 3 launches": host_us(lambda: [f() for f in launches]),
        "host: out allocated": host_us(lambda: torch.empty(
            out.numel(), dtype=torch.bfloat16, device="cuda")),
        "device: whole call": device_us(call),
        "device: whole call, out given": device_us(call_into),
        "device: whole call, 3 launches": device_us(plain_call),
        "device: plan kernel": device_us(launches[0]),
        "device: partial + combine": device_us(
            lambda: [f() for f in launches[1:]]),
        "device: events alone": device_us(lambda: None),
    }


def main():
    module = mla.Module(sys.argv[1])
    for shape in SHAPES:
        for fmt in FORMATS:
            result = profile(module, shape, fmt)
            print(shape.name, fmt, " ".join(
                f"{key}={value:.1f}" for key, value in result.items()))


if __name__ == "__main__":
    main()
