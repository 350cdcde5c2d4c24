"""The whole harness on the CPU: small shapes, every format, the Triton
peer with tuning (on the CPU stand-in, where the real Triton cannot run),
and our kernels through mla-run's host target, with every launch plan, when
a build of this checkout exists.

  python3 -m unittest discover -s bench/tests -v
"""

import json
import os
import subprocess
import tempfile
import unittest

import select_triton  # first: sets up the import paths
import run  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)

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
            # The dry run is on the CPU: only the stand-in runs the peer.
            expected = {"torch", "torch_f32"} | (
                {"triton"} if select_triton.EMULATED else set()) | (
                {"ours"} if with_ours else set())
            for row in rows:
                self.assertEqual(set(row["impls"]), expected)
                for name, entry in row["impls"].items():
                    self.assertTrue(entry["passed"], (row["shape"], name))
                if with_ours:
                    ours = row["impls"]["ours"]
                    self.assertIn(ours["plan"], run.PLANS)
                    self.assertIsNotNone(ours["whole_us"])
                    self.assertEqual(set(ours["plans"]), set(run.PLANS))
                    for plan, entry in ours["plans"].items():
                        self.assertTrue(entry["passed"], (row["shape"], plan))
                        self.assertIsNotNone(entry["us"])
                        self.assertIsNotNone(entry["whole_us"])
                    self.assertEqual(ours["us"], min(
                        entry["us"] for entry in ours["plans"].values()))
                    # The whole call through mla.Decode, checked and timed.
                    self.assertTrue(ours["call_check"].endswith(" PASS"))
                    self.assertGreater(ours["call_us"], 0)
                self.assertGreater(row["impls"]["torch"]["call_us"], 0)
            with open(os.path.join(work, "tuning.json")) as f:
                self.assertEqual(len(json.load(f)["entries"]), 9)
            markdown = [s for s in stems if s.endswith(".md")]
            self.assertTrue(markdown)
            if with_ours:  # the checks table has a line per plan
                with open(os.path.join(work, markdown[0])) as f:
                    text = f.read()
                for plan in run.PLANS + ("call",):
                    self.assertIn("| ours[%s] |" % plan, text)
                for fmt in ("bf16", "fp8", "mxfp4"):
                    self.assertIn("| geomean %s |" % fmt, text)

    def test_failing_plan(self):
        """A plan that fails its check is not chosen and fails the run."""
        from ours import OursResult
        plans = {"reproducible": {"passed": True, "check": "PASS",
                                  "us": 20.0, "whole_us": 30.0},
                 "balanced": {"passed": True, "check": "PASS",
                              "us": 21.0, "whole_us": 29.0},
                 "throughput": {"passed": False, "check": "FAIL"}}
        timings = {"reproducible": OursResult(median_us=20.0, whole_us=30.0,
                                              iterations=5),
                   "balanced": OursResult(median_us=21.0, whole_us=29.0,
                                          iterations=5)}
        impls = run.ours_entries(plans, timings)
        self.assertEqual(set(impls), {"ours", "ours[throughput]"})
        self.assertTrue(impls["ours"]["passed"])
        self.assertEqual(impls["ours"]["plan"], "reproducible")
        self.assertEqual(impls["ours"]["us"], 20.0)
        self.assertEqual(impls["ours"]["whole_us"], 30.0)
        self.assertFalse(impls["ours[throughput]"]["passed"])
        self.assertEqual(impls["ours"]["plans"]["throughput"],
                         {"passed": False, "check": "FAIL", "us": None,
                          "whole_us": None})
        # With no plan passing, "ours" fails too, as a wrong answer.
        plans["reproducible"] = {"passed": False, "error": "mla-run exit 1"}
        plans["balanced"] = {"passed": False, "error": "mla-run exit 1"}
        impls = run.ours_entries(plans, {})
        self.assertEqual(set(impls), {"ours", "ours[reproducible]",
                                      "ours[balanced]", "ours[throughput]"})
        self.assertFalse(impls["ours"]["passed"])
        self.assertEqual(impls["ours"]["check"], "throughput: FAIL")


if __name__ == "__main__":
    unittest.main()
