"""Plans random ragged batches on the device (the module's mla_plan kernel)
and has mla-run compare each plan with the host planner's, table for
table: lengths around the split chunk and tile edges, empty sequences,
q_len 1..4. The seed is fresh unless given, and printed.

    random_plans.py MLA_RUN MODULE HEADS COUNT [SEED]

Half the batches are planned reproducible, half balanced over a random
thread count (the host's parallelism, which sets the balanced chunk).
"""

import random
import subprocess
import sys


def lengths(rng):
    def one():
        kind = rng.randrange(5)
        if kind == 0:
            return 0
        if kind == 1:
            return rng.randrange(1, 70)
        if kind == 2:  # around a multiple of the 1024-key chunk
            return max(0, 1024 * rng.randrange(1, 6) + rng.randrange(-2, 3))
        return rng.randrange(1, 6000)
    return [one() for _ in range(rng.randrange(1, 12))]


def main():
    mla_run, module, heads, count = sys.argv[1:5]
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else random.randrange(1 << 30)
    print(f"seed {seed}")
    rng = random.Random(seed)
    failures = 0
    for _ in range(int(count)):
        kv_lens = ",".join(str(n) for n in lengths(rng))
        q_len = rng.randrange(1, 5)
        plan = rng.choice(["reproducible", "balanced"])
        threads = str(rng.randrange(1, 300))
        command = [mla_run, "--target", "host", "--module", module,
                   "--kv-dtype", "bf16", "--heads", heads, "--q-len",
                   str(q_len), "--kv-lens", kv_lens, "--plan", plan,
                   "--threads", threads, "--plan-on-device", "--seed", "1"]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0 or "matches the host plan" not in run.stdout:
            failures += 1
            print(f"FAIL --plan {plan} --threads {threads} --q-len {q_len} "
                  f"--kv-lens {kv_lens}: "
                  f"{run.stderr.strip() or run.stdout.strip()}")
    print(f"{int(count) - failures} of {count} plans match")


main()
