#!/usr/bin/env python3
"""MLA decode benchmark: checks, then times, the Triton peer, the PyTorch
reference and (with --module) our compiled kernels on every benchmark shape
and KV format, next to the measured copy-bandwidth and matmul ceilings.
See bench/README.md.

  python3 bench/run.py                                  # Triton + PyTorch
  python3 bench/run.py --module mla_decode.ptx --mla-run bin/mla-run
  python3 bench/run.py --dry-run                        # CPU: no timing claims
"""

import argparse
import datetime
import json
import os
import platform
import random
import signal
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "python")]  # mla, for calls

import torch  # noqa: E402

import problem  # noqa: E402
import reference  # noqa: E402
import report  # noqa: E402
import timing  # noqa: E402

DEFAULT_TUNING = os.path.join(HERE, "triton_tuning.json")
# Rotated copies hold at least this many L2 capacities of inputs.
ROTATION_L2_MULTIPLE = 4
MAX_COPIES = 512
# mla-run's launch plans. Each is checked, since the plan decides which
# programs compute what, and timed; the table reports the fastest.
PLANS = ("reproducible", "balanced", "throughput")
# The plan of the whole call through mla.Decode: the submission's default.
CALL_PLAN = "balanced"


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--shapes", default=None,
                        help="'ranked' (the default), 'generality' or 'all' "
                        "(both; DESIGN section 6), 'small', or "
                        "'B,Q,L,H;B,Q,L,H;...'")
    parser.add_argument("--formats", default=",".join(problem.FORMATS),
                        help="comma-separated subset of bf16,fp8,mxfp4")
    parser.add_argument("--module", help="our compiled module (.ptx/.cubin "
                        "with its .json manifest)")
    parser.add_argument("--mla-run", help="the mla-run binary (default: "
                        "mla-run beside the module, else on PATH)")
    parser.add_argument("--ours-target", default="cuda",
                        help="mla-run --target for the module (host for a "
                        "CPU dry run of this path)")
    parser.add_argument("--seed", type=int, help="base seed (default: fresh, "
                        "printed); point i uses seed + i")
    parser.add_argument("--iters", type=int, default=100,
                        help="timed iterations per implementation")
    parser.add_argument("--tune", action="store_true",
                        help="sweep the Triton tuning space on every point "
                        "and write the choices to --tuning")
    parser.add_argument("--tune-iters", type=int, default=30)
    parser.add_argument("--tuning", default=DEFAULT_TUNING,
                        help="Triton choices per point (read; written with "
                        "--tune)")
    parser.add_argument("--no-triton", action="store_true")
    parser.add_argument("--jobs", type=int,
                        default=min(16, os.cpu_count() or 1),
                        help="processes compiling Triton configs up front")
    parser.add_argument("--out-dir", default=os.path.join(HERE, "results"))
    parser.add_argument("--commit", help="commit named in the results "
                        "(default: git rev-parse --short HEAD)")
    parser.add_argument("--device", default=None)
    parser.add_argument("--dry-run", action="store_true",
                        help="CPU run of everything that needs no GPU: small "
                        "shapes, host-clock timings, results to a temporary "
                        "folder")
    args = parser.parse_args(argv)
    if args.dry_run:
        args.device = args.device or "cpu"
        args.shapes = args.shapes or "small"
        args.iters = min(args.iters, 5)
        args.tune_iters = min(args.tune_iters, 3)
        if args.out_dir == os.path.join(HERE, "results"):
            args.out_dir = os.path.join("/tmp", "mla-bench-dry-run")
    args.device = args.device or ("cuda" if torch.cuda.is_available() else
                                  "cpu")
    args.shapes = problem.parse_shapes(args.shapes or "ranked")
    args.formats = [f for f in args.formats.split(",") if f]
    for fmt in args.formats:
        if fmt not in problem.FORMATS:
            parser.error("--formats: unknown format '%s'" % fmt)
    if args.module and not args.mla_run:
        beside = os.path.join(os.path.dirname(os.path.abspath(args.module)),
                              "mla-run")
        args.mla_run = beside if os.path.isfile(beside) else "mla-run"
        if args.mla_run == "mla-run":
            from shutil import which
            args.mla_run = which("mla-run") or "mla-run"
    return args


def log(message):
    print(message, flush=True)


def git_commit():
    try:
        return subprocess.run(["git", "-C", HERE, "rev-parse", "--short",
                               "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


class Context:
    """What every benchmark point shares."""

    def __init__(self, args):
        self.args = args
        self.device = torch.device(args.device)
        self.cuda = self.device.type == "cuda"
        self.triton = None
        self.triton_reason = None
        self.compile_errors = {}
        self.tuning = {"entries": {}}
        self.ours = None
        self.decode_module = None  # mla.Module of --module, for whole calls
        self.flush = None
        self.l2_bytes = 0

    def synchronize(self):
        if self.cuda:
            torch.cuda.synchronize(self.device)


def load_triton(ctx):
    if ctx.args.no_triton:
        ctx.triton_reason = "--no-triton"
        return
    try:
        import triton
        import triton_mla
    except Exception as error:  # the peer is optional; say why it is absent
        ctx.triton_reason = "%s: %s" % (type(error).__name__, error)
        return
    # Off the GPU only the tests' CPU stand-in for Triton can run it.
    if not ctx.cuda and not getattr(triton, "EMULATED", False):
        ctx.triton_reason = "no GPU (device %s)" % ctx.device
        return
    ctx.triton = triton_mla
    if os.path.isfile(ctx.args.tuning):
        with open(ctx.args.tuning) as f:
            ctx.tuning = json.load(f)


def precompile(ctx):
    """Compiles the configs this run may use in parallel processes. Returns
    the formats whose every config the compiler refused."""
    tm = ctx.triton
    configs = [(fmt, config) for shape in ctx.args.shapes
               for fmt in ctx.args.formats
               for config in triton_variants(ctx, shape, fmt)]
    if ctx.args.jobs <= 1 or not ctx.cuda or not configs:
        return []
    start = time.time()
    try:
        results = tm.precompile(configs, ctx.args.jobs)
    except Exception as error:  # fall back to compiling in this process
        log("precompile: failed (%s); compiling as needed" % error)
        return []
    for (fmt, key), error in sorted(results.items(), key=str):
        if error:
            ctx.compile_errors[(fmt, key)] = error
            log("precompile: %s %s refused: %s" % (fmt, key, error))
    log("precompile: %d configs in %.0f s, %d refused" % (
        len(results), time.time() - start, len(ctx.compile_errors)))
    return [fmt for fmt in ctx.args.formats
            if all(results.get(key) for key in results if key[0] == fmt)
            and any(key[0] == fmt for key in results)]


def check_entry(out, ref):
    result = reference.check(out, ref)
    return {"check": result.summary(), "passed": result.passed}


def check_ours(ctx, prob, ref):
    """Each plan's check entry: our output with that plan against the
    float64 reference."""
    try:
        ctx.ours.prepare(prob)
    except Exception as error:
        message = "%s: %s" % (type(error).__name__, error)
        return {plan: {"passed": False, "error": message} for plan in PLANS}
    plans = {}
    for plan in PLANS:
        try:
            result = ctx.ours.output(prob, plan)
            plans[plan] = (
                check_entry(result.out, ref) if result.error is None else
                {"passed": False, "error": result.error})
        except Exception as error:
            plans[plan] = {"passed": False, "error": "%s: %s" % (
                type(error).__name__, error)}
    return plans


def check_call(ctx, prob, ref):
    """Our whole call through mla.Decode (CALL_PLAN, planned on the device),
    every new tensor poisoned first: (the call, its check entry)."""
    from leaderboard import Poisoned
    from ours import decode_call
    try:
        call = decode_call(ctx.decode_module, prob, CALL_PLAN)
        with Poisoned():
            out = call()
        ctx.synchronize()
        return call, check_entry(out, ref)
    except Exception as error:
        return None, {"passed": False, "error": "%s: %s" % (
            type(error).__name__, error)}


def ours_entries(plans, timings):
    """The impls entries of our kernels: "ours", the fastest plan that
    passed (failing when none did), with every plan's numbers under
    "plans"; and "ours[PLAN]" for each plan that failed, so that the run
    fails: a wrong answer with one plan is a bug, however fast the other."""
    summary = {}
    for plan, entry in plans.items():
        summary[plan] = {"passed": entry["passed"], "us": entry.get("us"),
                         "whole_us": entry.get("whole_us")}
        # A plan that passed its check and then failed to run has both.
        for key in ("check", "error"):
            if entry.get(key):
                summary[plan][key] = entry[key]
    passing = [plan for plan in PLANS if plans[plan]["passed"]]
    if passing:
        best = min(passing, key=lambda plan: plans[plan]["us"])
        result = timings[best]
        ours = {"passed": True, "check": plans[best]["check"],
                "plan": best, "us": result.median_us,
                "whole_us": result.whole_us,
                "timing": {"median_us": result.median_us,
                           "whole_us": result.whole_us,
                           "iterations": result.iterations, "copies": 1}}
    else:
        ours = {"passed": False, "error": "no plan passed"}
        checks = ["%s: %s" % (plan, plans[plan]["check"]) for plan in PLANS
                  if plans[plan].get("check")]
        if checks:  # the table says FAIL, a wrong answer, not "error"
            ours["check"] = checks[0]
    ours["plans"] = summary
    entries = {"ours": ours}
    for plan in PLANS:
        if not plans[plan]["passed"]:
            entries["ours[%s]" % plan] = dict(summary[plan])
    return entries


def triton_variants(ctx, shape, fmt):
    """The Triton configs to check on this point: the whole candidate space
    with split counts when tuning, else the recorded choice (or the
    default)."""
    tm = ctx.triton
    rows = shape.rows
    if ctx.args.tune:
        variants = []
        for config in tm.candidate_configs(fmt, rows):
            if (fmt, config.kernel_key()) in ctx.compile_errors:
                continue
            for splits in tm.split_candidates(
                    shape.batch, shape.kv_len, rows, config.block_m,
                    config.block_n, tm.sm_count(ctx.device)):
                variants.append(config.with_splits(splits))
        return variants
    entry = ctx.tuning.get("entries", {}).get("%s/%s" % (shape.name, fmt))
    if entry:
        return [tm.Config.from_json(entry["config"])]
    config = tm.default_config(fmt, rows)
    return [config.with_splits(tm.heuristic_splits(
        shape.batch, shape.kv_len, rows, config.block_m, config.block_n,
        tm.sm_count(ctx.device)))]


def rotation_copies(ctx, prob):
    if not ctx.cuda:
        return 1
    per_copy = max(1, prob.storage_bytes())
    wanted = -(-ROTATION_L2_MULTIPLE * ctx.l2_bytes // per_copy)
    return int(max(2, min(MAX_COPIES, wanted)))


def bench_point(ctx, shape, fmt, seed):
    args = ctx.args
    prob = problem.generate(shape, fmt, seed, ctx.device)
    ref = reference.reference_f64(prob)
    bound, floor_us, mem_us, mma_us = report.classify(
        prob.essential_bytes(), prob.flops(), ctx.bandwidth, ctx.matmul_rate)
    row = {"shape": shape.name, "batch": shape.batch, "q_len": shape.q_len,
           "kv_len": shape.kv_len, "heads": shape.heads, "fmt": fmt,
           "rows": shape.rows, "seed": seed, "bytes": prob.essential_bytes(),
           "flops": prob.flops(), "bound": bound, "floor_us": floor_us,
           "mem_floor_us": mem_us, "mma_floor_us": mma_us,
           "l2_resident": prob.storage_bytes() <= ctx.l2_bytes, "impls": {}}
    impls = row["impls"]

    # Checks, before any timing.
    impls["torch_f32"] = check_entry(reference.reference_f32(prob), ref)
    impls["torch"] = check_entry(reference.TorchPeer(prob)(), ref)
    passing = []
    if ctx.triton:
        variants = triton_variants(ctx, shape, fmt)
        failures = []
        for config in variants:
            try:
                runner = ctx.triton.TritonMla(prob, config)
                runner.poison()
                out = runner()
                ctx.synchronize()
                entry = check_entry(out, ref)
            except Exception as error:  # a refused config fails this variant
                entry = {"passed": False, "error": "%s: %s" % (
                    type(error).__name__, str(error).splitlines()[0][:200])}
            if entry["passed"]:
                passing.append((config.with_splits(runner.splits), entry))
            else:
                failures.append("%s: %s" % (config, entry.get("check") or
                                            entry.get("error")))
        for failure in failures:
            log("  triton %s" % failure)
        if passing:
            impls["triton"] = dict(passing[0][1])
        else:
            impls["triton"] = {"passed": False, "error": "no config passed",
                               "check": failures[0] if failures else None}
        impls["triton"]["variants_checked"] = len(variants)
        impls["triton"]["variants_failed"] = len(failures)
    ours_plans = check_ours(ctx, prob, ref) if ctx.ours else {}
    call, call_entry = (check_call(ctx, prob, ref) if ctx.decode_module
                        else (None, None))
    del ref
    checks = list(impls.items()) + [("ours[%s]" % plan, entry) for plan, entry
                                    in ours_plans.items()]
    if call_entry:
        checks.append(("ours[call]", call_entry))
    for name, entry in checks:
        log("  check %-9s %s" % (name, entry.get("check") or
                                 entry.get("error")))

    # Timing.
    extra = rotation_copies(ctx, prob) - 1
    copies = [prob] + [prob.clone() for _ in range(extra)]
    row["copies"] = len(copies)
    if impls["torch"]["passed"]:
        t = timing.time_calls([reference.TorchPeer(p) for p in copies],
                              args.iters, cuda=ctx.cuda)
        impls["torch"].update(us=t.median_us, timing=t.to_json(),
                              call_us=timing.whole_call_us(
                                  reference.TorchPeer(prob), args.iters,
                                  ctx.flush))
    if passing:
        tm = ctx.triton

        def calls_for(config):
            splits = config.splits
            workspace = tm.TritonMla.allocate_workspace(prob, splits)
            return [tm.TritonMla(p, config, workspace=workspace)
                    for p in copies]

        tried = []
        if len(passing) > 1:
            for config, _ in passing:
                t = timing.time_calls(calls_for(config), args.tune_iters,
                                      cuda=ctx.cuda)
                tried.append((t.median_us, config))
            tried.sort(key=lambda item: item[0])
            best = tried[0][1]
        else:
            best = passing[0][0]
        t = timing.time_calls(calls_for(best), args.iters, cuda=ctx.cuda)
        impls["triton"].update(us=t.median_us, timing=t.to_json(),
                               config=repr(best),
                               call_us=timing.whole_call_us(
                                   calls_for(best)[0], args.iters, ctx.flush))
        if args.tune:
            ctx.tuning["entries"]["%s/%s" % (shape.name, fmt)] = {
                "config": best.to_json(), "us": t.median_us,
                "tried": [[repr(c), round(us, 2)] for us, c in tried]}
    if ctx.ours:
        # As many bytes as the peers rotate over (not fewer than the L2).
        rotate_mib = (ROTATION_L2_MULTIPLE * ctx.l2_bytes >> 20
                      if ctx.cuda else 0)
        timings = {}
        for plan, entry in ours_plans.items():
            if not entry["passed"]:
                continue  # a plan that fails its check is not timed
            result = ctx.ours.bench(prob, args.iters, rotate_mib, plan)
            if result.error:
                entry.update(passed=False, error=result.error)
            else:
                entry.update(us=result.median_us, whole_us=result.whole_us)
                timings[plan] = result
        impls.update(ours_entries(ours_plans, timings))
    if call_entry and not call_entry["passed"]:
        impls["ours[call]"] = call_entry  # a wrong call fails the run
    elif call_entry and impls.get("ours", {}).get("passed"):
        impls["ours"].update(call_check=call_entry["check"],
                             call_us=timing.whole_call_us(call, args.iters,
                                                          ctx.flush))
    return row


def environment(ctx):
    meta = {"device_name": str(ctx.device), "torch": torch.__version__,
            "python": platform.python_version()}
    if ctx.cuda:
        props = torch.cuda.get_device_properties(ctx.device)
        meta["device_name"] = props.name
        meta["multiprocessors"] = props.multi_processor_count
        ctx.l2_bytes = getattr(props, "L2_cache_size", 50 << 20)
        meta["l2_mib"] = round(ctx.l2_bytes / 2 ** 20, 1)
        meta["cuda"] = torch.version.cuda
        try:
            meta["driver"] = subprocess.run(
                ["nvidia-smi", "--query-gpu=driver_version,clocks.sm,"
                 "clocks.max.sm,clocks.mem", "--format=csv,noheader"],
                capture_output=True, text=True, timeout=20).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            meta["driver"] = "unknown"
    if ctx.triton:
        import triton
        meta["triton"] = triton.__version__
    return meta


def time_detail(entry):
    """What the time log line adds: the Triton config, or our plan with
    every plan's kernel and whole-call times."""
    if "plans" not in entry:
        return entry.get("config", "")
    return "%s plan; %s" % (entry["plan"], ", ".join(
        "%s %.1f us (whole call %.1f)" % (plan, each["us"], each["whole_us"])
        for plan, each in entry["plans"].items() if each["passed"]))


def _interrupt(signum, frame):
    """SIGTERM (a time limit) ends the points early; the report still gets
    written."""
    del signum, frame
    raise KeyboardInterrupt


def main(argv):
    args = parse_args(argv)
    ctx = Context(args)
    seed = args.seed if args.seed is not None else random.SystemRandom(
    ).randrange(1 << 31)
    log("seed: %d (point i uses seed + i)" % seed)
    load_triton(ctx)
    meta = environment(ctx)
    log("device: %s" % json.dumps(meta))
    if ctx.triton is None:
        log("Triton peer: skipped (%s)" % ctx.triton_reason)
    if args.module:
        from ours import MlaRun
        ctx.ours = MlaRun(args.mla_run, args.module, args.ours_target)
        log("ours: %s --target %s --module %s" % (args.mla_run,
                                                  args.ours_target,
                                                  args.module))
        try:
            import mla
            ctx.decode_module = mla.Module(args.module)
        except Exception as error:  # the kernels still run through mla-run
            log("ours: no whole calls through mla.Decode (%s: %s)" % (
                type(error).__name__, error))
    ctx.flush = timing.flush_buffer(ctx.device)

    if ctx.cuda:
        ctx.bandwidth = timing.copy_bandwidth(ctx.device)
        ctx.matmul_rate = timing.matmul_rate(ctx.device)
    else:
        ctx.bandwidth = timing.copy_bandwidth(ctx.device, nbytes=64 << 20,
                                              iterations=3)
        ctx.matmul_rate = timing.matmul_rate(ctx.device, n=512, iterations=3)
    log("ceilings: copy %.0f GB/s (read + write), bf16 matmul %.1f TFLOP/s" %
        (ctx.bandwidth / 1e9, ctx.matmul_rate / 1e12))
    if ctx.triton:
        refused = precompile(ctx)
        if refused:
            log("Triton: every config of %s was refused; stopping before the "
                "points" % ", ".join(refused))
            return 3

    rows = []
    points = [(shape, fmt) for shape in args.shapes for fmt in args.formats]
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        for index, (shape, fmt) in enumerate(points):
            point_seed = seed + index
            log("point %s %s seed=%d" % (shape.name, fmt, point_seed))
            try:
                rows.append(bench_point(ctx, shape, fmt, point_seed))
                if ctx.cuda:
                    torch.cuda.empty_cache()
            except Exception:  # report the point and go on with the others
                log(traceback.format_exc())
                rows.append({"shape": shape.name, "fmt": fmt, "rows":
                             shape.rows, "seed": point_seed, "bound": "-",
                             "floor_us": float("nan"), "bytes": 0, "flops": 0,
                             "impls": {"harness": {"passed": False,
                                                   "error": "exception"}}})
            for impl, entry in rows[-1]["impls"].items():
                if entry.get("us"):
                    log("  time  %-9s %.1f us, call %s us %s" % (
                        impl, entry["us"], report.number(entry.get(
                            "call_us")), time_detail(entry)))
    except KeyboardInterrupt:
        log("stopped after %d of %d points; reporting those" %
            (len(rows), len(points)))
    if ctx.ours:
        ctx.ours.close()

    date = datetime.date.today().isoformat()
    commit = args.commit or git_commit()
    meta.update({
        "date": date, "commit": commit, "seed": seed,
        "copy_bandwidth_gbs": round(ctx.bandwidth / 1e9, 1),
        "matmul_tflops": round(ctx.matmul_rate / 1e12, 1),
        "iterations": args.iters, "command": " ".join(["run.py"] + argv),
        "tuning": "swept in this run (--tune)" if args.tune else
        os.path.relpath(args.tuning, HERE)})
    meta["header_keys"] = [k for k in (
        "device_name", "multiprocessors", "l2_mib", "driver", "cuda", "torch",
        "triton", "python", "copy_bandwidth_gbs", "matmul_tflops", "seed",
        "iterations", "tuning", "command") if k in meta]
    meta["notes"] = [
        "floor = max(essential bytes / copy bandwidth, flops / bf16 matmul "
        "rate), both ceilings measured in this run; bound names the larger "
        "term; rate is GB/s of essential bytes for mem rows, TFLOP/s for mma "
        "rows; %floor = floor / time.",
        "times: median of %d iterations, each bracketed by CUDA events, "
        "rotating over copies of the inputs (at least %dx the L2 size, >= 2 "
        "copies); see bench/README.md." % (args.iters, ROTATION_L2_MULTIPLE),
        "call us: the whole call as the leaderboard times custom_kernel: "
        "each call alone, the L2 flushed before it, bracketed by events "
        "and waited for (host work included); median of %d." % args.iters,
        "PyTorch: dequantize to bf16, bmm, float32 softmax, bmm (batched "
        "over sequences). Triton: bench/triton_mla.py, config column = row "
        "block, KV block, warps, stages, splits.",
        "* inputs fit in L2 (every implementation rotates over copies of "
        "them, ours with mla-run --bench --rotate-mib)."]
    if ctx.ours:
        meta["notes"].append(
            "ours us = the fastest of mla-run's plans (%s; ours plan names "
            "it), its kernels timed queued back to back behind one "
            "device-side wait; ours call us = a whole call through "
            "mla.Decode, the %s plan made on the device by the module's "
            "plan kernel, nothing read back (the submission's path). "
            "mla-run's whole calls (the plan made on the host) are in the "
            "JSON (plans.*.whole_us)." % (", ".join(PLANS), CALL_PLAN))
    if ctx.triton is None:
        meta["notes"].append("Triton peer not run: %s." % ctx.triton_reason)
    if not ctx.cuda:
        meta["notes"].append("CPU dry run: host-clock times, not results.")

    with_ours = ctx.ours is not None
    log("")
    log(report.table(rows, with_ours))
    log("")
    for note in meta["notes"]:
        log("- " + note)
    stem = "%s-%s" % (date, commit)
    for path in report.save(args.out_dir, stem, meta, rows, with_ours):
        log("wrote %s" % path)
    if args.tune and ctx.triton:
        ctx.tuning.update({"device": meta["device_name"], "date": date,
                           "commit": commit, "triton": meta.get("triton")})
        with open(args.tuning, "w") as f:
            json.dump(ctx.tuning, f, indent=1, sort_keys=True)
        log("wrote %s" % args.tuning)

    failed = [(r["shape"], r["fmt"], name) for r in rows
              for name, entry in r["impls"].items() if not entry.get("passed")]
    for shape, fmt, name in failed:
        log("FAILED: %s %s %s" % (shape, fmt, name))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
