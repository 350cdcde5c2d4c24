"""The MLA decode call from PyTorch, timed as the leaderboard times it.

For each shape and format: `mla.Decode` over a compiled module (planned on
the device by its mla_plan kernel, then the partial and combine kernels,
nothing read back) on CUDA tensors from problem.generate, or with
--submission the custom_kernel(data) of a submission.py from mla-compile
--emit=submission on the task's data tuple (leaderboard.py; the format
picked through MLA_KV_FORMAT), checked against the float64 reference with
new tensors poisoned first, then timed two ways:

- whole call: each call alone, bracketed by CUDA events, the L2 flushed
  before it (a write of twice its size), then a synchronization: what the
  leaderboard's eval measures around custom_kernel (Python, the three
  launches and any wait included);
- device: the device time of one call (timing.time_calls: calls queued
  behind a device-side spin so the events see the GPU's time, not the
  host's), which is the three kernels alone.

    PYTHONPATH=python python3 bench/call.py (--module M.cubin |
        --submission S.py) [--shapes ranked] [--formats bf16,fp8,mxfp4]
        [--plan balanced|reproducible] [--no-graphs] [--iters N]
        [--out-dir DIR]

Exit status 1 when a check fails.
"""

import argparse
import datetime
import importlib.util
import json
import os
import statistics
import subprocess
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "test", "Python", "Inputs",
                                   "task")]
from leaderboard import Poisoned, task_inputs  # noqa: E402
from ours import decode_call  # noqa: E402
from problem import Shape, generate, parse_shapes  # noqa: E402
from reference import check, reference_f64  # noqa: E402
from timing import flush_buffer, time_calls, whole_call_us  # noqa: E402

# Ragged batches, checked only: empty sequences, q_len 1..4, split ones.
RAGGED = [(16, [1, 4, 2, 3], [8192, 0, 1100, 67]),
          (32, [2, 1, 1], [5, 3000, 0])]


def run_point(call, problem, iterations, flush):
    with Poisoned():
        out = call()
    torch.cuda.synchronize()
    result = check(out, reference_f64(problem))
    row = {"check": result.summary(), "passed": result.passed}
    if iterations and result.passed:
        row["whole_us"] = whole_call_us(call, iterations, flush)
        row["device_us"] = time_calls([call], iterations).median_us
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--module", help="a module with the MLA kernels")
    source.add_argument("--submission", help="a submission.py")
    parser.add_argument("--shapes", default="ranked",
                        help="ranked, generality, all, or 'B,Q,L,H;...'")
    parser.add_argument("--formats", default="bf16,fp8,mxfp4")
    parser.add_argument("--plan", default="balanced",
                        choices=["reproducible", "balanced"])
    parser.add_argument("--no-graphs", action="store_true",
                        help="launch the kernels one by one, not as a graph")
    parser.add_argument("--iters", type=int, default=50)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--out-dir", default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else int.from_bytes(
        os.urandom(3), "little")
    if args.submission:
        spec = importlib.util.spec_from_file_location("submission",
                                                      args.submission)
        submission = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(submission)
    else:
        import mla
        module = mla.Module(args.module)  # the same package decode_call uses
    shapes = parse_shapes(args.shapes)
    flush = flush_buffer("cuda")
    rows, failed = [], False
    print(f"seed {seed}; {torch.cuda.get_device_name()}; {args.plan} plan"
          f"{'; launches one by one' if args.no_graphs else ''}")
    print(f"{'shape':>16} {'format':>6} {'whole us':>9} {'device us':>9}  check")
    points = [(s, f) for s in shapes for f in args.formats.split(",")]
    points += [(r, f) for r in RAGGED for f in args.formats.split(",")]
    for i, (shape, fmt) in enumerate(points):
        ragged = not isinstance(shape, Shape)
        lens = shape if ragged else (shape.heads, [shape.q_len] * shape.batch,
                                     [shape.kv_len] * shape.batch)
        if args.submission:
            os.environ["MLA_KV_FORMAT"] = fmt
            os.environ["MLA_PLAN"] = args.plan
            data, problems = task_inputs(*lens, seed + i, "cuda")
            problem = problems[fmt]
            call = lambda: submission.custom_kernel(data)  # noqa: E731
        else:
            problem = generate(lens, fmt, seed + i, "cuda")
            call = decode_call(module, problem, args.plan,
                               graphs=not args.no_graphs)
        row = run_point(call, problem, 0 if ragged else args.iters, flush)
        name = (f"ragged{RAGGED.index(shape)}" if ragged else shape.name)
        row.update({"shape": name, "format": fmt})
        rows.append(row)
        failed |= not row["passed"]
        print(f"{name:>16} {fmt:>6} {row.get('whole_us', 0):9.1f} "
              f"{row.get('device_us', 0):9.1f}  {row['check']}", flush=True)
    timed = [r for r in rows if "whole_us" in r]
    for fmt in args.formats.split(","):
        mine = [r for r in timed if r["format"] == fmt]
        if mine:
            geo = lambda key: statistics.geometric_mean(r[key] for r in mine)
            print(f"{'geomean':>16} {fmt:>6} {geo('whole_us'):9.1f} "
                  f"{geo('device_us'):9.1f}")
    if args.out_dir:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
        kind = "submission" if args.submission else "call"
        name = f"{datetime.date.today()}-{commit or 'tree'}-{kind}.json"
        with open(os.path.join(args.out_dir, name), "w") as f:
            json.dump({"seed": seed, "device": torch.cuda.get_device_name(),
                       "plan": args.plan, "graphs": not args.no_graphs,
                       "module": args.module or args.submission,
                       "rows": rows}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
