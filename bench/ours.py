"""Our kernels, through the runtime tool: `mla-run --module M --inputs DIR
--plan PLAN`.

Every call names its launch plan (reproducible or throughput), which mla-run
builds from the indptrs before it launches anything; it fills out, part_out
and part_lse with NaN before the checked run. Here the check run writes
--out, the output is compared with the float64 reference, and only a
passing module and plan is timed, by a second run with --bench. That prints
two medians of --iters calls, after 3 untimed ones: `bench:`, the partial
and combine launches queued back to back behind one device-side wait, each
call bracketed by events (the plan made once, untimed); and `whole call:`,
each call timed alone with the indptrs read back, the plan made on the host
and uploaded, and the kernels launched, as a leaderboard times a call.
mla-run rotates the launches over copies of q and the KV cache (and its
scales) totalling `rotate_mib` (--rotate-mib), as the peers' timing does.
"""

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Optional

import torch

from problem import Problem, save_inputs

_BENCH_LINE = re.compile(r"bench: ([0-9.eE+-]+) us median of (\d+)")
_WHOLE_LINE = re.compile(r"whole call: ([0-9.eE+-]+) us median of (\d+)")


@dataclass
class OursResult:
    out: Optional[torch.Tensor] = None
    median_us: Optional[float] = None  # the kernels, queued back to back
    whole_us: Optional[float] = None  # a whole call, planning included
    iterations: int = 0
    error: Optional[str] = None


class MlaRun:
    """Runs one module of `target` (cuda, or host for a CPU dry run)."""

    def __init__(self, mla_run: str, module: str, target: str = "cuda",
                 workdir: Optional[str] = None, timeout_s: int = 600):
        self.mla_run = mla_run
        self.module = module
        self.target = target
        self.timeout_s = timeout_s
        self.workdir = workdir or tempfile.mkdtemp(prefix="mla-bench-")
        for path, what in ((mla_run, "--mla-run"), (module, "--module"),
                           (module + ".json", "--module (manifest)")):
            if not os.path.isfile(path):
                raise FileNotFoundError("%s: no file '%s'" % (what, path))

    def _run(self, problem: Problem, extra):
        command = [self.mla_run, "--target", self.target, "--module",
                   self.module, "--kv-dtype", problem.fmt, "--inputs",
                   os.path.join(self.workdir, "inputs")] + extra
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=self.timeout_s)
        if done.returncode != 0:
            message = (done.stderr.strip() or done.stdout.strip()).splitlines()
            return None, "mla-run exit %d: %s" % (
                done.returncode, message[-1] if message else "")
        return done.stdout, None

    def prepare(self, problem: Problem):
        """Writes the problem's .npy files (once per problem)."""
        inputs = os.path.join(self.workdir, "inputs")
        shutil.rmtree(inputs, ignore_errors=True)
        save_inputs(problem, inputs)

    def output(self, problem: Problem, plan: str) -> OursResult:
        """One checked-form run with `plan`: the output, read back from
        --out."""
        import numpy

        path = os.path.join(self.workdir, "out.npy")
        if os.path.exists(path):
            os.remove(path)
        _, error = self._run(problem, ["--plan", plan, "--out", path])
        if error:
            return OursResult(error=error)
        bits = numpy.load(path)
        expected = (problem.total_q, problem.heads, 512)
        if tuple(bits.shape) != expected:
            return OursResult(error="out.npy has shape %s, expected %s" %
                              (bits.shape, expected))
        out = torch.from_numpy(bits.view("<i2").copy()).view(torch.bfloat16)
        return OursResult(out=out.to(problem.device))

    def bench(self, problem: Problem, iterations: int, rotate_mib: int,
              plan: str) -> OursResult:
        """The kernels' median and the whole call's, both with `plan`."""
        stdout, error = self._run(problem,
                                  ["--plan", plan, "--bench", "--iters",
                                   str(iterations), "--rotate-mib",
                                   str(rotate_mib)])
        if error:
            return OursResult(error=error)
        match = _BENCH_LINE.search(stdout)
        if not match:
            return OursResult(error="no 'bench:' line in mla-run's output")
        whole = _WHOLE_LINE.search(stdout)
        if not whole:
            return OursResult(error="no 'whole call:' line in mla-run's "
                              "output")
        return OursResult(median_us=float(match.group(1)),
                          whole_us=float(whole.group(1)),
                          iterations=int(match.group(2)))

    def close(self):
        shutil.rmtree(self.workdir, ignore_errors=True)


def decode_call(module, problem: Problem, plan: str, graphs: bool = True):
    """A call of `module` (an mla.Module) on `problem` through mla.Decode, as
    a PyTorch caller or the submission makes it: planned on the device,
    nothing read back; `graphs` False launches the kernels one by one."""
    # Imported here: call.py --submission runs the package the submission
    # embeds, where PYTHONPATH need not reach this one.
    import mla
    decode = mla.Decode(module, kv_dtype=problem.fmt, heads=problem.heads,
                        plan=plan, graphs=graphs)
    return lambda: decode(problem.q, problem.kv, problem.qo_indptr,
                          problem.kv_indptr, kv_scale=problem.kv_scale,
                          sm_scale=problem.sm_scale)
