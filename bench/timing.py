"""Timing with device events, and the two ceilings.

Each timed iteration is bracketed by its own pair of CUDA events and the
median is reported. The iterations rotate over copies of the inputs, so a
copy is touched again only after the others have pushed it out of L2. Every
chunk of iterations starts behind a short device-side spin
(torch.cuda._sleep) long enough for the host to enqueue the whole chunk:
the events then measure the device's time for one call, not the host's
launch overhead.
"""

import statistics
import time
from dataclasses import dataclass
from typing import Callable, List, Optional

import torch

# Device clock cycles per microsecond for sizing the spin; a slower clock
# only lengthens it.
SPIN_CYCLES_PER_US = 2000
CHUNK = 50
MAX_SPIN_US = 20000


@dataclass
class Timing:
    median_us: float
    p10_us: float
    p90_us: float
    iterations: int
    copies: int

    def to_json(self):
        return {"median_us": self.median_us, "p10_us": self.p10_us,
                "p90_us": self.p90_us, "iterations": self.iterations,
                "copies": self.copies}


def _quantile(sorted_values, q):
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values)
                                                          - 1))))
    return sorted_values[index]


def _summary(times_us, copies):
    values = sorted(times_us)
    return Timing(statistics.median(values), _quantile(values, 0.1),
                  _quantile(values, 0.9), len(values), copies)


def time_calls(calls: List[Callable[[], object]], iterations: int,
               warmup: int = 5, cuda: bool = True) -> Timing:
    """Median device time of one call, rotating over `calls` (one per input
    copy). With cuda=False the host clock times each call."""
    copies = len(calls)
    for i in range(max(warmup, copies)):
        calls[i % copies]()
    if not cuda:
        times = []
        for i in range(iterations):
            start = time.perf_counter()
            calls[i % copies]()
            times.append((time.perf_counter() - start) * 1e6)
        return _summary(times, copies)

    torch.cuda.synchronize()
    # The host's cost of enqueueing one call, for sizing the spin.
    probe = min(10, iterations)
    start = time.perf_counter()
    for i in range(probe):
        calls[i % copies]()
    host_us = (time.perf_counter() - start) * 1e6 / probe
    torch.cuda.synchronize()

    sleep = getattr(torch.cuda, "_sleep", None)
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(iterations)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(iterations)]
    for first in range(0, iterations, CHUNK):
        count = min(CHUNK, iterations - first)
        if sleep is not None:
            spin_us = min(MAX_SPIN_US, 1.5 * host_us * count + 20)
            sleep(int(spin_us * SPIN_CYCLES_PER_US))
        for i in range(first, first + count):
            starts[i].record()
            calls[i % copies]()
            ends[i].record()
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) * 1e3 for s, e in zip(starts, ends)]
    return _summary(times, copies)


def flush_buffer(device):
    """Twice the L2, written before each whole call that whole_call_us
    times; None off the GPU."""
    if torch.device(device).type != "cuda":
        return None
    l2 = torch.cuda.get_device_properties(device).L2_cache_size
    return torch.empty(2 * l2 // 4, dtype=torch.int32, device=device)


def whole_call_us(call: Callable[[], object], iterations: int, flush,
                  warmup: int = 3) -> float:
    """Median time of one call alone, as the leaderboard times
    custom_kernel: the L2 flushed (`flush` written), then the call bracketed
    by events and waited for, so the host's work (Python, launches, any
    wait inside) counts. Without `flush` (the CPU) the host clock times
    it."""
    times = []
    if flush is None:
        for _ in range(iterations + warmup):
            start = time.perf_counter()
            call()
            times.append((time.perf_counter() - start) * 1e6)
        return statistics.median(times[warmup:])
    return alone_us(call, iterations, before=flush.zero_, warmup=warmup)


def alone_us(call: Callable[[], object], iterations: int,
             before: Optional[Callable[[], object]] = None,
             warmup: int = 3) -> float:
    """Median device time of `call` run alone: `before` run, the device
    waited for, then the call bracketed by events and waited for."""
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(iterations + warmup):
        if before is not None:
            before()
        torch.cuda.synchronize()
        start.record()
        call()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1e3)
    return statistics.median(times[warmup:])


# Ceilings


def copy_bandwidth(device, nbytes=2 << 30, iterations=20) -> float:
    """Bytes per second of a large device-to-device copy, counting the bytes
    read and the bytes written."""
    elements = nbytes // 4
    source = torch.randn(elements, device=device)
    target = torch.empty_like(source)
    timing = time_calls([lambda: target.copy_(source)], iterations, warmup=3,
                        cuda=torch.device(device).type == "cuda")
    return 2 * elements * 4 / (timing.median_us * 1e-6)


def matmul_rate(device, n=8192, iterations=20) -> float:
    """Flops per second of a large bf16 matrix product on random data."""
    a = torch.randn(n, n, device=device).to(torch.bfloat16)
    b = torch.randn(n, n, device=device).to(torch.bfloat16)
    timing = time_calls([lambda: torch.matmul(a, b)], iterations, warmup=3,
                        cuda=torch.device(device).type == "cuda")
    return 2.0 * n ** 3 / (timing.median_us * 1e-6)
