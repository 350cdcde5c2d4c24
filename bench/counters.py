#!/usr/bin/env python3
"""Nsight Compute counters of our partial kernel on every benchmark shape.

    python3 bench/counters.py --module build/sm90/mla_decode.cubin \\
        --mla-run build/bin/mla-run [--shapes all] [--formats bf16,fp8,mxfp4] \\
        [--out FILE.md]

For each shape and KV format, `ncu` profiles the first launch of the
partial kernel in an `mla-run --target cuda --bench` run (inputs generated
by mla-run; ncu flushes the caches before it) and reads its duration, DRAM, SM, shared-memory-pipe and
tensor-pipe utilization and the warps active. Each row names the unit
closest to its peak, which is what limits that shape: HBM, the shared
memory pipe, instruction issue, the tensor pipe, or, with every unit well
below its peak, latency with too few warps. Needs ncu (Nsight Compute)
and a GPU whose counters the user may read.
"""

import argparse
import csv
import io
import shutil
import subprocess
import sys

import problem

METRICS = {
    "time_us": "gpu__time_duration.sum",
    "dram": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm": "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "shared": "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed",
    "tensor": "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "warps": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "grid": "launch__grid_size",
    "registers": "launch__registers_per_thread",
}

# Utilization (% of peak) from which a unit is the limit.
BUSY = 60.0


def limit(row):
    units = {"HBM": row["dram"], "shared-memory pipe": row["shared"],
             "instruction issue": row["sm"], "tensor pipe": row["tensor"]}
    unit, busiest = max(units.items(), key=lambda item: item[1])
    if busiest >= BUSY:
        return "%s (%.0f%%)" % (unit, busiest)
    return "latency: %.0f%% warps active, busiest %s %.0f%%" % (
        row["warps"], unit, busiest)


def profile(args, shape, fmt):
    lens = ",".join([str(shape.kv_len)] * shape.batch)
    command = [args.ncu, "--kernel-name", "regex:mla_partial", "--launch-count",
               "1", "--csv", "--print-units", "base", "--metrics",
               ",".join(METRICS.values()), args.mla_run, "--target", "cuda",
               "--module", args.module, "--kv-dtype", fmt, "--heads",
               str(shape.heads), "--q-len", str(shape.q_len), "--kv-lens", lens,
               "--bench", "--iters", "1", "--rotate-mib", "0"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("counters.py: error: %s %s: ncu exit %d: %s" % (
            shape.name, fmt, done.returncode,
            (done.stderr or done.stdout).strip().splitlines()[-1:]))
    lines = [line for line in done.stdout.splitlines() if line.startswith('"')]
    values = {}
    for record in csv.DictReader(io.StringIO("\n".join(lines))):
        values[record["Metric Name"]] = float(
            record["Metric Value"].replace(",", ""))
    missing = [name for name in METRICS.values() if name not in values]
    if missing:
        sys.exit("counters.py: error: ncu reported no %s" % ", ".join(missing))
    row = {key: values[name] for key, name in METRICS.items()}
    row["time_us"] /= 1000.0
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", required=True)
    parser.add_argument("--mla-run", required=True)
    parser.add_argument("--ncu", default=shutil.which("ncu") or "ncu")
    parser.add_argument("--shapes", default="all")
    parser.add_argument("--formats", default="bf16,fp8,mxfp4")
    parser.add_argument("--out")
    args = parser.parse_args()
    shapes = problem.parse_shapes(args.shapes)
    lines = ["| B,Q,L,H | kv | programs | registers | us (profiled) | DRAM % | "
             "SM % | shared pipe % | tensor pipe % | warps active % | limit |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    print(lines[0])
    for shape in shapes:
        for fmt in args.formats.split(","):
            r = profile(args, shape, fmt)
            line = ("| %s | %s | %d | %d | %.1f | %.0f | %.0f | %.0f | %.0f | "
                    "%.0f | %s |" % (shape.name, fmt, r["grid"], r["registers"],
                                     r["time_us"], r["dram"], r["sm"],
                                     r["shared"], r["tensor"], r["warps"],
                                     limit(r)))
            print(line, flush=True)
            lines.append(line)
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
