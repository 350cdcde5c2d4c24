"""Runs a module's MLA decode kernels through `mla.Decode` (planned on the
device by the module's mla.plan kernel) on CPU tensors and checks every
batch against bench/'s float64 reference: ragged and empty sequences,
q_len 1..4, split sequences, each KV format with 16 and 32 heads, the
output poisoned with NaN first. Then the refusals.

    decode.py MODULE BENCH_DIR
"""

import sys

import numpy
import torch

import mla
from outcome import report

sys.path.insert(0, sys.argv[2])
from problem import generate  # noqa: E402
from reference import check, reference_f64  # noqa: E402

CASES = [  # (format, heads, q_lens, kv_lens)
    ("bf16", 16, [1, 1, 1], [1100, 0, 67]),
    ("bf16", 32, [4, 2, 3], [3, 2100, 130]),
    ("fp8", 16, [2, 2], [1025, 1]),
    ("fp8", 32, [1, 4, 1, 1], [0, 64, 1300, 5]),
    ("mxfp4", 16, [3, 1], [2100, 33]),
    ("mxfp4", 32, [1, 2], [65, 1030]),
    ("bf16", 16, [], []),
    ("fp8", 16, [1, 1], [0, 0]),
]


def run(module, fmt, heads, q_lens, kv_lens, seed, **plan):
    """Two batches of one signature: the second call only re-points the
    first's launches at its own tensors (and a fresh output)."""
    decode = mla.Decode(module, kv_dtype=fmt, heads=heads, **plan)
    results = []
    for batch_seed in (seed, seed + 100):
        problem = generate((heads, q_lens, kv_lens), fmt, batch_seed, "cpu")
        out = torch.full((problem.total_q, heads, 512), float("nan"),
                         dtype=torch.bfloat16)
        decode(problem.q, problem.kv, problem.qo_indptr, problem.kv_indptr,
               kv_scale=problem.kv_scale, sm_scale=problem.sm_scale, out=out)
        results.append(check(out, reference_f64(problem)).summary())
    print(f"decode {fmt} heads={heads} q_lens={q_lens} kv_lens={kv_lens}"
          f"{''.join(f' {k}={v}' for k, v in plan.items())}: "
          f"workspaces={len(decode._workspaces)} {' | '.join(results)}")


def main():
    module = mla.Module(sys.argv[1])
    for seed, case in enumerate(CASES):
        run(module, *case, seed)
    # The balanced plan over 37 programs splits even short sequences.
    run(module, "bf16", 32, [4, 2, 3], [3, 2100, 130], 20, plan="balanced",
        parallelism=37)
    run(module, "mxfp4", 16, [1, 1, 1, 1], [64, 0, 1100, 70], 21,
        plan="balanced", parallelism=37)

    problem = generate((16, [1], [70]), "fp8", 99, "cpu")
    args = (problem.q, problem.kv, problem.qo_indptr, problem.kv_indptr)
    # A numpy integer is a head count like any other.
    fp8 = mla.Decode(module, kv_dtype="fp8", heads=numpy.int64(16))
    report("format", lambda: mla.Decode(module, kv_dtype="fp6", heads=16))
    report("plan", lambda: mla.Decode(module, kv_dtype="fp8", heads=16,
                                       plan="throughput"))
    report("heads", lambda: mla.Decode(module, kv_dtype="fp8", heads=20))
    report("heads-float", lambda: mla.Decode(module, kv_dtype="fp8",
                                              heads=16.0))
    report("no-kernel", lambda: mla.Decode(module, kv_dtype="fp8_fnuz",
                                            heads=16))
    report("no-scale", lambda: fp8(*args))
    report("q-shape", lambda: fp8(problem.q[:, :8], *args[1:],
                                   kv_scale=problem.kv_scale))
    report("kv-shape", lambda: fp8(problem.q, problem.kv[:, :288], *args[2:],
                                    kv_scale=problem.kv_scale))
    report("indptrs", lambda: fp8(*args[:3], problem.kv_indptr[:1],
                                   kv_scale=problem.kv_scale))
    report("kv-dtype", lambda: fp8(problem.q, problem.kv.to(torch.int32),
                                    *args[2:], kv_scale=problem.kv_scale))
    report("indptr-dtype", lambda: fp8(
        *args[:2], problem.qo_indptr.to(torch.int64), args[3],
        kv_scale=problem.kv_scale))


main()
