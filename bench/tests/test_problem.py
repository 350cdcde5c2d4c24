"""The data generation against the runtime's own generator and formats.

mla-run --save-inputs writes the problem it generated: its bf16 cache (the
bf16 run) quantized here must give the bytes and scales of its fp8 and MXFP4
runs with the same seed. Needs build/bin/mla-run and mla-compile (skipped
without them). The number formats are also checked on edge values.
"""

import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

import torch  # noqa: E402

import problem  # noqa: E402

MLA_RUN = os.path.join(ROOT, "build", "bin", "mla-run")
MLA_COMPILE = os.path.join(ROOT, "build", "bin", "mla-compile")


class FormatTest(unittest.TestCase):
    def test_fp8_round_trip_and_edges(self):
        table = problem.fp8_e4m3fn_values()
        codes = torch.tensor([c for c in range(256) if c not in (0x7F, 0xFF)])
        self.assertTrue(torch.equal(
            problem.encode_fp8_e4m3fn(table[codes]), codes.to(torch.uint8)))
        values = torch.tensor([1000.0, -449.0, 464.0, float("nan"),
                               2.0 ** -10, 1.0625, 1.1875, -0.0])
        self.assertEqual(problem.encode_fp8_e4m3fn(values).tolist(),
                         [0x7E, 0xFE, 0x7E, 0x7F, 0x00, 0x38, 0x3A, 0x80])

    def test_fp4_and_scales(self):
        values = torch.tensor([0.25, 0.75, 1.25, 2.5, 5.0, 7.0, -0.3,
                               float("nan")])
        # Ties go to the even code: 0.25 -> 0, 0.75 -> 1.0, 1.25 -> 1.0,
        # 2.5 -> 2.0, 5.0 -> 4.0.
        self.assertEqual(problem.encode_fp4_e2m1(values).tolist(),
                         [0, 2, 2, 4, 6, 7, 9, 0])
        amax = torch.tensor([0.0, 1.0, 7.99, 8.0, 2.0 ** -130,
                             float("nan")])
        self.assertEqual(problem.mxfp4_block_scale(amax).tolist(),
                         [0, 125, 127, 128, 0, 255])
        scales = problem.e8m0_values(torch.tensor([0, 127, 254, 255]))
        self.assertEqual(scales[:3].tolist(),
                         [2.0 ** -127, 1.0, 2.0 ** 127])
        self.assertTrue(math.isnan(scales[3]))


@unittest.skipUnless(os.path.isfile(MLA_RUN) and os.path.isfile(MLA_COMPILE),
                     "needs a build of this checkout")
class GeneratorTest(unittest.TestCase):
    def test_quantization_matches_mla_run(self):
        with tempfile.TemporaryDirectory() as work:
            module = os.path.join(work, "mla_decode.so")
            subprocess.run([MLA_COMPILE, os.path.join(
                ROOT, "examples", "mla_decode.mlir"), "--target=host", "-o",
                module], check=True)
            for fmt in problem.FORMATS:
                subprocess.run(
                    [MLA_RUN, "--target", "host", "--module", module,
                     "--kv-dtype", fmt, "--kv-lens", "300,0,517", "--q-len",
                     "2", "--heads", "16", "--seed", "7", "--save-inputs",
                     os.path.join(work, fmt)], check=True,
                    stdout=subprocess.DEVNULL)
            cache = problem.load_inputs(os.path.join(work, "bf16"), "bf16",
                                        "cpu")
            for fmt in ("fp8", "mxfp4"):
                theirs = problem.load_inputs(os.path.join(work, fmt), fmt,
                                             "cpu")
                kv, scale = problem.quantize_cache(cache.kv, fmt)
                self.assertTrue(torch.equal(kv, theirs.kv), fmt)
                self.assertTrue(torch.equal(scale, theirs.kv_scale), fmt)
            # save_inputs writes what load_inputs (and mla-run) read.
            ours = problem.load_inputs(os.path.join(work, "mxfp4"), "mxfp4",
                                       "cpu")
            problem.save_inputs(ours, os.path.join(work, "again"))
            again = problem.load_inputs(os.path.join(work, "again"), "mxfp4",
                                        "cpu")
            for name in ("q", "kv", "kv_scale", "qo_indptr", "kv_indptr"):
                self.assertTrue(torch.equal(getattr(ours, name),
                                            getattr(again, name)), name)


if __name__ == "__main__":
    unittest.main()
