"""Runs a submission.py from mla-compile --emit=submission as the task
would: `custom_kernel(data)` with the task's data tuple (one bf16 cache
in all three formats, bench/leaderboard.py). Each batch runs with each
format chosen through MLA_KV_FORMAT and once with the default, and is
checked against bench/'s float64 reference of the format used.

    run_submission.py SUBMISSION BENCH_DIR TASK_DIR [DEVICE]

DEVICE is a torch device (default cpu), for GPU submissions.
"""

import importlib.util
import os
import sys

import torch

submission_path, bench_dir, task_dir = sys.argv[1:4]
device = sys.argv[4] if len(sys.argv) > 4 else "cpu"
sys.path[:0] = [bench_dir, task_dir]
from leaderboard import Poisoned, task_inputs  # noqa: E402
from reference import check, reference_f64  # noqa: E402

CASES = [  # (heads, q_lens, kv_lens): ragged and empty sequences, q_len 1..4
    (16, [1, 1, 1, 1], [1100, 0, 67, 5]),
    (16, [4, 2], [3000, 1]),
    (32, [3, 1, 2], [0, 1025, 130]),
    (32, [1], [0]),
    (16, [], []),
]


def load(path):
    spec = importlib.util.spec_from_file_location("submission", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    submission = load(submission_path)
    for seed, (heads, q_lens, kv_lens) in enumerate(CASES):
        data, problems = task_inputs(heads, q_lens, kv_lens, seed, device)
        for fmt in ("bf16", "fp8", "mxfp4", None):
            if fmt:
                os.environ["MLA_KV_FORMAT"] = fmt
            else:
                os.environ.pop("MLA_KV_FORMAT", None)
            with Poisoned():  # unwritten output elements show as NaN
                out = submission.custom_kernel(data)
            used = fmt or "mxfp4"  # the fewest bytes
            result = check(out, reference_f64(problems[used]))
            shape = list(out.shape), str(out.dtype).replace("torch.", "")
            if out.device.type != torch.device(device).type:
                shape += (str(out.device),)
            print(f"task heads={heads} q_lens={q_lens} kv_lens={kv_lens} "
                  f"format={fmt or 'default'}: out={shape} "
                  f"{result.summary()}")
    os.environ["MLA_KV_FORMAT"] = "fp6"
    try:
        submission.custom_kernel(data)
    except Exception as e:  # the embedded package's MlaError
        print(f"unknown format: {type(e).__name__}: {e}")


main()
