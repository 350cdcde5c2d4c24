"""The whole harness on the CPU: small shapes, every format, the Triton
peer (real or the CPU stand-in) with tuning, and our kernels through
mla-run's host target when a build of this checkout exists.

  python3 -m unittest discover -s bench/tests -v
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
try:
    import triton  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(HERE, "emulated_triton"))

import run  # noqa: E402

MLA_RUN = os.path.join(ROOT, "build", "bin", "mla-run")
MLA_COMPILE = os.path.join(ROOT, "build", "bin", "mla-compile")


class RunTest(unittest.TestCase):
    def test_dry_run(self):
        with tempfile.TemporaryDirectory() as work:
            argv = ["--dry-run", "--tune", "--seed", "9", "--shapes",
                    "2,1,100,16;1,4,70,32;1,3,2,16", "--out-dir", work,
                    "--tuning", os.path.join(work, "tuning.json"),
                    "--commit", "test"]
            with_ours = os.path.isfile(MLA_RUN) and os.path.isfile(
                MLA_COMPILE)
            if with_ours:
                module = os.path.join(work, "mla_decode.so")
                subprocess.run([MLA_COMPILE, os.path.join(
                    ROOT, "examples", "mla_decode.mlir"), "--target=host",
                    "-o", module], check=True)
                argv += ["--module", module, "--mla-run", MLA_RUN,
                         "--ours-target", "host"]
            self.assertEqual(run.main(argv), 0)
            stems = sorted(os.listdir(work))
            self.assertIn("tuning.json", stems)
            with open(os.path.join(work, [s for s in stems
                                          if s.endswith(".json") and
                                          s != "tuning.json"][0])) as f:
                rows = json.load(f)["rows"]
            self.assertEqual(len(rows), 9)
            expected = {"torch", "torch_f32", "triton"} | (
                {"ours"} if with_ours else set())
            for row in rows:
                self.assertEqual(set(row["impls"]), expected)
                for name, entry in row["impls"].items():
                    self.assertTrue(entry["passed"], (row["shape"], name))
            with open(os.path.join(work, "tuning.json")) as f:
                self.assertEqual(len(json.load(f)["entries"]), 9)
            self.assertTrue(any(s.endswith(".md") for s in stems))


if __name__ == "__main__":
    unittest.main()
