#!/usr/bin/env python3
"""Differential testing of the targets on generated tile programs.

  difftest.py --seeds A:B[,C:D...] [--negative E:F] [--out DIR]
              [--targets T,...] [--compile-targets T,...] [--ops N]
              [--shape RxC] [--skip I,J]
              [--no-shrink] [--fake-finding REGEX] [--bin DIR] [--timeout S]

For each seed A <= s < B (and C <= s < D ...), generate.py's program is
compiled for the host and each emulated AMD target (mla-compile
--target=host|gfx950-emu|gfx942-emu), run with the same random inputs
(mla-run --kernel, the output buffer made with empty:, i.e. filled with NaN
or the largest integer so unwritten elements show) and the outputs
compared with the host's; then it is compiled for each --compile-targets
target (default sm_90, which nothing here runs: its PTX goes through
ptxas where mla-compile finds one), which must take it. Seeds E <= s < F of
--negative get a product whose shape no matrix instruction takes: the host
must compile it, each GPU target must exit 1 with one `error:` line and
write no output.

A finding is
  crash          a tool exits >= 128 (or on a signal), or prints an LLVM
                 fatal error or "PLEASE submit a bug report";
  no-diagnostic  a tool exits non-zero without an `error:` line;
  timeout        a command runs past --timeout seconds (default 60);
  refused        a target refuses, with an error, a program every target
                 should take (on the host: a generator bug);
  emu-error      the emulator stops a run (LDS race, out-of-bounds access,
                 other hazards of docs/emulation.md) that ran on the host;
  mismatch       an output element differs from the host's beyond the rule
                 below;
  negative       a refused product not refused cleanly (see above).

The comparison rule, per element: NaN matches NaN (any payload: LLVM does
not fix NaN bits; computed values are never NaN, so a NaN is an unwritten
element); where the program's output is exact (integers, loads, stores,
selects on exact comparisons, max/min, negation, absolute values,
conversions of exact values, reductions by max/min, integer sums), the bits
must be equal, signed zeros included; elsewhere the absolute difference
must be at most the error bound generate.py derives for the output from
each op (one rounding per float op at twice the unit roundoff of its type,
plus a subnormal, n roundings for an n-element sum in any order and k + 1
for a product of depth k, a few ulp for exp). The bound also holds between
two correct targets, so it is never widened to make a finding go away.

A finding is shrunk from the same seed: smaller shapes, then fewer op slots,
then each slot left out, keeping each change under which the same kind of
finding on the same target remains. The smallest program, its inputs and
the commands that show the finding go to DIR/seed-S/ (default
difftest-findings). --fake-finding REGEX replaces the checks by "the
program text matches REGEX", to test the shrinker. Exit status 0 when
nothing was found, 1 otherwise.
"""
import argparse
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "utils"))

import amdref  # noqa: E402  (.npy files without numpy)
import generate  # noqa: E402

EMU_TARGETS = ["gfx950-emu", "gfx942-emu"]
# Targets that only compile here (no emulator): the NVPTX lowering, and
# ptxas on its PTX where mla-compile finds one.
COMPILE_TARGETS = ["sm_90"]
# Negative programs are only compiled, so the code-object targets come too.
NEGATIVE_TARGETS = ["gfx950-emu", "gfx942-emu", "gfx950", "gfx942"]
SHAPE_TRIES = 6


class Finding:
    def __init__(self, kind, target, detail):
        self.kind, self.target, self.detail = kind, target, detail

    def key(self):
        return self.kind, self.target

    def __str__(self):
        return "%s on %s: %s" % (self.kind, self.target, self.detail)


class Runner:
    """Runs the tools for one program in one directory, recording each
    command line for the reproduction script."""

    def __init__(self, bin_dir, directory, timeout):
        self.bin_dir, self.dir, self.timeout = bin_dir, directory, timeout
        self.commands = []

    def path(self, name):
        return os.path.join(self.dir, name)

    def run(self, tool, args):
        cmd = [os.path.join(self.bin_dir, tool)] + args
        self.commands.append(" ".join(shlex.quote(c) for c in cmd))
        try:
            done = subprocess.run(cmd, cwd=self.dir, capture_output=True,
                                  text=True, errors="replace",
                                  timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return None, ""
        return done.returncode, done.stdout + done.stderr

    def compile(self, target, output):
        return self.run("mla-compile", ["program.mlir", "--target=" + target,
                                        "-o", output, "--jobs=1"])

    def launch(self, program, target, module, saved):
        args = ["--target", target, "--module", module, "--kernel",
                program.kernel, "--grid", "1", "--threads", "1"]
        for buf in program.inputs:
            args += ["--arg", "%s=@%s.npy" % (buf.name, buf.name)]
        for name, value in program.scalars:
            args += ["--arg", "%s=%d" % (name, value)]
        args += ["--arg", "out=empty:%d" % program.output.count,
                 "--save", "out=" + saved]
        return self.run("mla-run", args)


def failure_kind(rc, output):
    """How a tool's exit reads: None (success), crash, timeout,
    no-diagnostic, or error (a clean diagnostic)."""
    if rc is None:
        return "timeout"
    if (rc < 0 or rc >= 128 or "PLEASE submit a bug report" in output or
            "LLVM ERROR" in output):
        return "crash"
    if rc == 0:
        return None
    return "error" if "error:" in output else "no-diagnostic"


def first_line(output):
    """The first `error:` line of a tool's output, else its last line."""
    for line in output.splitlines():
        if "error:" in line:
            return line.strip()
    return output.strip().splitlines()[-1] if output.strip() else ""


def tool_finding(rc, output, target, clean_kind):
    kind = failure_kind(rc, output)
    if kind is None:
        return None
    if kind == "error":
        kind = clean_kind
    detail = first_line(output)
    if kind == "crash":
        # The stack dump's frames differ from run to run; the exit and the
        # innermost project function name the crash.
        frames = re.findall(r"(?:mla|\(anonymous namespace\))::[\w:]+",
                            output)
        detail = "exit %s in %s" % (rc, frames[0] if frames else "?")
    return Finding(kind, target, detail[:300])


# ---------------------------------------------------------------------------
# Inputs and outputs.
# ---------------------------------------------------------------------------

def random_elements(rng, elem, count):
    mag = generate.INPUT_MAG[elem]
    if elem == "i32":
        return [rng.randint(-int(mag), int(mag)) for _ in range(count)]
    if elem == "i8":  # two fp4 values, every code finite
        return [rng.randrange(256) for _ in range(count)]
    if elem == "f8E8M0FNU":  # MX scales 2^-3 .. 2^3
        return [rng.randint(124, 130) for _ in range(count)]
    values = [max(-mag, min(mag, rng.gauss(0, 1))) for _ in range(count)]
    if elem == "bf16":
        return [amdref.to_bf16_bits(v) for v in values]
    if elem == "f16":
        return [amdref.to_f16_bits(v) for v in values]
    return [amdref.to_f32(v) for v in values]


def write_inputs(program, directory):
    for buf in program.inputs:
        rng = random.Random("%d:data:%s" % (program.seed, buf.name))
        amdref.save(os.path.join(directory, buf.name + ".npy"),
                    generate.NPY[buf.elem],
                    random_elements(rng, buf.elem, buf.count))


def read_output(path, elem):
    """(bits, value) of each element; bits compare exactly, values within
    the bound."""
    raw = amdref.load(path)
    if elem == "f32":
        return [(amdref.bits_f32(v) if not math.isnan(v) else None, v)
                for v in raw]
    if elem == "bf16":
        return [(b, amdref.bf16(b)) for b in raw]
    if elem == "f16":
        return [(b, amdref.f16(b)) for b in raw]
    return [(v, v) for v in raw]


def element_matches(host, other, bound):
    (hb, hv), (ob, ov) = host, other
    if isinstance(hv, float) and (math.isnan(hv) or math.isnan(ov)):
        return math.isnan(hv) and math.isnan(ov)
    if bound == 0 or math.isinf(hv) or math.isinf(ov):
        return hb == ob
    return abs(hv - ov) <= bound


def compare(host, other, bound):
    """None, or a description of the first differing element."""
    if len(host) != len(other):
        return "%d elements, the host has %d" % (len(other), len(host))
    bad = [i for i, (h, o) in enumerate(zip(host, other))
           if not element_matches(h, o, bound)]
    if not bad:
        return None
    i = bad[0]
    return ("%d/%d elements differ (bound %r); first at %d: host %r, "
            "target %r" % (len(bad), len(host), bound, i, host[i][1],
                           other[i][1]))


# ---------------------------------------------------------------------------
# Checks.
# ---------------------------------------------------------------------------

def check(program, runner, targets, compile_targets):
    """The first finding of `program` (None when there is none)."""
    with open(runner.path("program.mlir"), "w") as f:
        f.write(program.text)
    write_inputs(program, runner.dir)
    found = tool_finding(*runner.compile("host", "host.so"), "host", "refused")
    if found:
        return found
    found = tool_finding(*runner.launch(program, "host", "host.so",
                                        "out.host.npy"), "host", "refused")
    if found:
        return found
    host = read_output(runner.path("out.host.npy"), program.output.elem)
    for target in targets:
        module = target + ".so"
        found = tool_finding(*runner.compile(target, module), target,
                             "refused")
        if found:
            return found
        saved = "out.%s.npy" % target
        found = tool_finding(*runner.launch(program, "emu", module, saved),
                             target, "emu-error")
        if found:
            return found
        diff = compare(host, read_output(runner.path(saved),
                                         program.output.elem), program.err)
        if diff:
            return Finding("mismatch", target, diff)
    for target in compile_targets:
        found = tool_finding(*runner.compile(target, target + ".out"), target,
                             "refused")
        if found:
            return found
    return None


def check_negative(program, runner, targets):
    with open(runner.path("program.mlir"), "w") as f:
        f.write(program.text)
    found = tool_finding(*runner.compile("host", "host.so"), "host", "refused")
    if found:
        return found
    for target in targets:
        output = target + ".out"
        rc, text = runner.compile(target, output)
        errors = [line for line in text.splitlines() if "error:" in line]
        if rc != 1 or len(errors) != 1 or os.path.exists(runner.path(output)):
            return Finding("negative", target,
                           "exit %s, %d error lines, output %s: %s"
                           % (rc, len(errors),
                              "written" if os.path.exists(runner.path(output))
                              else "absent", first_line(text)[:300]))
    return None


class Checker:
    """Checks programs in scratch directories; a finding's predicate for
    the shrinker."""

    def __init__(self, args, scratch):
        self.args, self.scratch = args, scratch
        self.fake = (re.compile(args.fake_finding) if args.fake_finding
                     else None)

    def runner(self, directory):
        return Runner(self.args.bin, directory, self.args.timeout)

    def __call__(self, program):
        if self.fake:
            return (Finding("fake", "-", "matches " + self.fake.pattern)
                    if self.fake.search(program.text) else None)
        directory = tempfile.mkdtemp(dir=self.scratch)
        return check(program, self.runner(directory), self.args.targets,
                     self.args.compile_targets)


def smaller_shapes(shape, tries=SHAPE_TRIES):
    """Up to `tries` shapes of fewer elements, smallest first, spread over
    the candidates: each try costs a compile for every target."""
    found = sorted((s for s in generate.SHAPES + generate.ODD_SHAPES
                    if math.prod(s) < math.prod(shape)), key=math.prod)
    step = max(1, len(found) // tries)
    return found[::step][:tries]


def shrink(seed, program, finding, checker):
    """The smallest program from `seed` with a finding of the same kind on
    the same target, and that finding."""
    ops, shape, skip = program.ops, program.shape, set(program.skip)
    best, best_finding = program, finding

    def attempt(ops, shape, skip):
        nonlocal best, best_finding
        candidate = generate.generate(seed, ops, shape, skip)
        found = checker(candidate)
        if found and found.key() == finding.key():
            best, best_finding = candidate, found
            return True
        return False

    for smaller in smaller_shapes(shape):
        if attempt(ops, smaller, skip):
            shape = smaller
            break
    for fewer in range(ops):
        if attempt(fewer, shape, skip):
            ops = fewer
            break
    for slot in range(ops):
        if attempt(ops, shape, skip | {slot}):
            skip = skip | {slot}
    return best, best_finding


def reproduce_command(program):
    return ("python3 fuzz/gen/difftest.py --seeds %d:%d --ops %d --shape %s "
            "--skip %s --no-shrink"
            % (program.seed, program.seed + 1, program.ops,
               "x".join(map(str, program.shape)),
               ",".join(map(str, sorted(program.skip))) or "''"))


def record(program, finding, checker, out_dir):
    """Writes the program, its inputs and the commands that show the
    finding to out_dir/seed-S/."""
    case = os.path.join(out_dir, "seed-%d" % program.seed)
    shutil.rmtree(case, ignore_errors=True)
    os.makedirs(case)
    with open(os.path.join(case, "finding.txt"), "w") as f:
        f.write("%s\n%s\n" % (finding, reproduce_command(program)))
    if checker.fake:
        with open(os.path.join(case, "program.mlir"), "w") as f:
            f.write(program.text)
        return case
    runner = checker.runner(case)
    check(program, runner, checker.args.targets, checker.args.compile_targets)
    with open(os.path.join(case, "commands.sh"), "w") as f:
        f.write("# Run in this directory; the last command shows: %s\n"
                % finding)
        f.write("\n".join(runner.commands) + "\n")
    return case


def seed_range(text):
    """A:B is A <= seed < B; ranges may be joined with commas (A:B,C:D)."""
    seeds = []
    for part in text.split(","):
        lo, hi = (int(n) for n in part.split(":"))
        seeds.extend(range(lo, hi))
    return seeds


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=seed_range, default=[])
    parser.add_argument("--negative", type=seed_range, default=[])
    parser.add_argument("--out", default="difftest-findings")
    parser.add_argument("--targets", default=",".join(EMU_TARGETS))
    parser.add_argument("--compile-targets", default=",".join(COMPILE_TARGETS))
    parser.add_argument("--ops", type=int)
    parser.add_argument("--shape", type=generate.parse_shape)
    parser.add_argument("--skip", default="")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--fake-finding")
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)  # the tools run from a scratch directory
    args.targets = [t for t in args.targets.split(",") if t]
    args.compile_targets = [t for t in args.compile_targets.split(",") if t]
    args.skip = {int(i) for i in args.skip.split(",") if i}
    return args


def run_seed(seed, args, checker):
    program = generate.generate(seed, args.ops, args.shape, args.skip)
    finding = checker(program)
    if finding is None:
        print("seed %d: ok (%s, %d op slots, bound %r)"
              % (seed, "x".join(map(str, program.shape)), program.ops,
                 program.err))
        return False
    if not args.no_shrink:
        program, finding = shrink(seed, program, finding, checker)
    case = record(program, finding, checker, args.out)
    print("seed %d: FINDING %s [%s %s, %d op slots; %s]"
          % (seed, finding, "as generated:" if args.no_shrink else
             "shrunk to", "x".join(map(str, program.shape)), program.ops,
             case))
    return True


def run_negative(seed, args, checker):
    program = generate.generate_negative(seed)
    directory = tempfile.mkdtemp(dir=checker.scratch)
    finding = check_negative(program, checker.runner(directory),
                             NEGATIVE_TARGETS)
    shape = "x".join(map(str, program.shape))
    if finding is None:
        print("negative seed %d: ok (%s refused cleanly)" % (seed, shape))
        return False
    case = os.path.join(args.out, "negative-%d" % seed)
    shutil.rmtree(case, ignore_errors=True)
    shutil.copytree(directory, case)
    print("negative seed %d: FINDING %s [%s]" % (seed, finding, case))
    return True


def main():
    args = parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        checker = Checker(args, scratch)
        findings = sum(run_seed(s, args, checker) for s in args.seeds)
        if not checker.fake:
            findings += sum(run_negative(s, args, checker)
                            for s in args.negative)
    total = len(args.seeds) + (0 if checker.fake else len(args.negative))
    print("difftest: %d programs, %d findings" % (total, findings))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
