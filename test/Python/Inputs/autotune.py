"""mla.Autotune over the host gemm example's four instances (BM 64 or 16,
ALIGN 1 or 8): the instances a key allows are timed once (a stand-in
timer with fixed times picks a known one), later calls launch the choice
untimed, a key the ALIGN = 8 instances refuse times only the others, a
cache file carries the choices to a new Autotune, `restore` puts back
what each timing overwrote, and every product is checked against numpy. Then the refusals, one line each.

    autotune.py MODULE CACHE
"""

import os
import sys

import numpy

import mla
from outcome import report

# Stand-in times: the ALIGN = 8 instance of BM 16 is the fastest.
TIMES = {"gemm_bf16": 40.0, "gemm_bf16_align8": 30.0, "gemm_bf16_bm16": 20.0,
         "gemm_bf16_bm16_align8": 10.0}


def bf16(values):
    """float32 -> bf16 bits (truncated) and the float32 they stand for."""
    bits = (values.astype(numpy.float32).view(numpy.uint32) >> 16)
    return bits.astype(numpy.uint16), (bits << 16).view(numpy.float32)


def problem(m, n, k, seed):
    rng = numpy.random.default_rng(seed)
    a_bits, a = bf16(rng.standard_normal((m, k)))
    b_bits, b = bf16(rng.standard_normal((k, n)))
    c = numpy.full((m, n), numpy.nan, dtype=numpy.float32)
    return a_bits, b_bits, c, a.astype(numpy.float64) @ b


def check(c, expected):
    error = numpy.abs(c - expected).max()
    return "PASS" if error < 1e-3 * max(1.0, numpy.abs(expected).max()) \
        else f"FAIL (max error {error})"


def timer(log):
    def time(launch):
        log.append(launch.kernel.name)
        return TIMES[launch.kernel.name]
    return time


def main():
    module = mla.Module(sys.argv[1])
    cache = sys.argv[2]
    timed = []
    gemm = mla.Autotune(module, "gemm_bf16", key=("m", "n", "k"), cache=cache,
                        timer=timer(timed))
    for m, n, k in [(70, 104, 48), (70, 104, 48), (33, 100, 48)]:
        a, b, c, expected = problem(m, n, k, m + n + k)
        del timed[:]
        gemm(a, b, c, m, n, k)
        key = f"[{m}, {n}, {k}]"
        print(f"m={m} n={n} k={k}: timed {' '.join(sorted(timed)) or 'none'};"
              f" chose {gemm.choices[key]}; {check(c, expected)}")
    print("refused:", gemm.timings["[33, 100, 48]"]["gemm_bf16_align8"])

    # numpy integers are key values like Python's: the same key, no timing.
    del timed[:]
    a, b, c, expected = problem(70, 104, 48, 5)
    gemm(a, b, c, numpy.int64(70), numpy.int32(104), numpy.array(48))
    print(f"numpy key: timed {len(timed)}; {check(c, expected)}")

    # A new Autotune reads the choices back and times nothing.
    del timed[:]
    again = mla.Autotune(module, "gemm_bf16", key=("m", "n", "k"), cache=cache,
                         timer=timer(timed))
    a, b, c, expected = problem(70, 104, 48, 1)
    again(a=a, b=b, c=c, m=70, n=104, k=48)
    print(f"cached: timed {len(timed)}; chose {again.choices['[70, 104, 48]']};"
          f" {check(c, expected)}")

    # The real timer on the host.
    real = mla.Autotune(module, "gemm_bf16", key=("m", "n", "k"))
    a, b, c, expected = problem(64, 64, 32, 2)
    real(a, b, c, 64, 64, 32)
    (timings,) = real.timings.values()
    print(f"timed on the host: {len(timings)} instances, all > 0: "
          f"{all(t > 0 for t in timings.values())}; {check(c, expected)}")

    # restore: each instance's timing sees c as the caller gave it, though
    # the one before scribbled over it.
    seen = []

    def scribbling(launch):
        seen.append(bool(numpy.isnan(c).all()))
        c[...] = 7.0
        return TIMES[launch.kernel.name]
    kept = mla.Autotune(module, "gemm_bf16", restore=("c",), timer=scribbling)
    a, b, c, expected = problem(64, 64, 32, 3)
    kept(a, b, c, 64, 64, 32)
    print(f"restored before each timing: {seen}; {check(c, expected)}")

    # A tensor less aligned than the ALIGN = 8 instances require (A and B
    # 16-byte aligned): they refuse it, and the call's key records the
    # alignment, so the choice for aligned tensors stands.
    del timed[:]
    shifted = mla.Autotune(module, "gemm_bf16", key=("m", "n", "k"),
                           timer=timer(timed))
    a, b, c, expected = problem(70, 104, 48, 4)
    shifted(a, b, c, 70, 104, 48)
    raw = numpy.zeros(a.size + 32, dtype=numpy.uint16)
    start = (-raw.ctypes.data % 64 + 8) // 2
    off = raw[start:start + a.size].reshape(a.shape)
    off[...] = a
    shifted(off, b, c, 70, 104, 48)
    print(f"misaligned: timed {' '.join(timed)}; keys "
          f"{sorted(shifted.choices)}; {check(c, expected)}")

    report("no-kernel", lambda: mla.Autotune(module, "gemm"))
    report("no-key", lambda: mla.Autotune(module, "gemm_bf16", key=("rows",)))
    report("extra", lambda: gemm(a, b, c, 64, 64, 32, rows=3))
    report("none-fits", lambda: gemm(a, b, c.astype(numpy.float64), 64, 64,
                                      32))
    with open(cache + ".bad", "w") as f:
        f.write("[")
    report("bad-cache", lambda: mla.Autotune(module, "gemm_bf16",
                                              cache=cache + ".bad"))
    os.remove(cache + ".bad")


if __name__ == "__main__":
    main()
