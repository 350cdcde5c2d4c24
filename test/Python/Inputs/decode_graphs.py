"""mla.Decode on a CUDA device, a call's launches replayed as a graph
(mla.graph): for each format, calls cycling over more input sets of one
signature than the graphs kept (fresh random data each, the output
poisoned with NaN first), each checked against bench/'s float64 reference
and compared bit for bit with the same call made launch by launch; then a
call on torch's side stream.

    decode_graphs.py MODULE BENCH_DIR
"""

import sys

import torch

import mla
from mla.graph import DEFAULT_COPIES

sys.path.insert(0, sys.argv[2])
from problem import generate  # noqa: E402
from reference import check, reference_f64  # noqa: E402

CASES = [  # (format, heads, q_lens, kv_lens)
    ("bf16", 16, [1, 1, 1, 1], [1024, 300, 2048, 77]),
    ("fp8", 128, [4], [5000]),
    ("mxfp4", 64, [2, 1, 3], [900, 4000, 17]),
]
# Input sets in call order: hits, then more sets than graphs kept.
ORDER = [0, 1, 0, 0] + list(range(2, DEFAULT_COPIES + 2)) + [1, 0]


def main():
    module = mla.Module(sys.argv[1])
    for seed, (fmt, heads, q_lens, kv_lens) in enumerate(CASES):
        decode = mla.Decode(module, kv_dtype=fmt, heads=heads,
                            plan="balanced")
        plain = mla.Decode(module, kv_dtype=fmt, heads=heads,
                           plan="balanced", graphs=False)
        problems = [generate((heads, q_lens, kv_lens), fmt,
                             100 * seed + i, "cuda")
                    for i in range(max(ORDER) + 1)]
        failures, same = 0, 0
        for i in ORDER:
            p = problems[i]
            args = (p.q, p.kv, p.qo_indptr, p.kv_indptr)
            kwargs = dict(kv_scale=p.kv_scale, sm_scale=p.sm_scale)
            out = torch.full((p.total_q, heads, 512), float("nan"),
                             dtype=torch.bfloat16, device="cuda")
            decode(*args, out=out, **kwargs)
            expected = plain(*args, **kwargs)
            result = check(out, reference_f64(p))
            failures += not result.passed
            same += torch.equal(out.view(torch.int16),
                                expected.view(torch.int16))
        (_, graph, _), = decode._calls.values()
        print(f"graphs {fmt} heads={heads}: graph={graph is not None} "
              f"calls={len(ORDER)} failed={failures} "
              f"same_bits={same}/{len(ORDER)}")

    p = generate((16, [1, 1], [500, 1500]), "bf16", 7, "cuda")
    decode = mla.Decode(module, kv_dtype="bf16", heads=16)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        out = decode(p.q, p.kv, p.qo_indptr, p.kv_indptr, sm_scale=p.sm_scale)
    side.synchronize()
    result = check(out, reference_f64(p))
    print(f"graphs side stream: {result.summary()}")


if __name__ == "__main__":
    main()
