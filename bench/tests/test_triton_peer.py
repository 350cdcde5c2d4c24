"""The Triton peer against the float64 reference on small ragged problems of
every format, every config of the tuning space and several split counts,
with poisoned outputs. Runs the real Triton where it can run (on a GPU, or
under TRITON_INTERPRET=1), else the CPU stand-in in emulated_triton/.

  python3 -m unittest discover -s bench/tests -v
"""

import unittest

import torch

import select_triton  # first: sets up the import paths
import problem  # noqa: E402
import reference  # noqa: E402
import triton_mla  # noqa: E402

DEVICE = ("cuda" if torch.cuda.is_available() and not select_triton.EMULATED
          else "cpu")

# (heads, q_lens, kv_lens): a cache ending mid-tile, q_len > kv_len, an empty
# sequence, a single key, and row blocks that straddle queries (48 heads).
RAGGED = [
    (16, [1, 4, 2, 3], [70, 3, 0, 1]),
    (48, [2, 1], [130, 64]),
    (32, [4], [200]),
]


class TritonPeerTest(unittest.TestCase):
    def run_case(self, fmt, heads, q_lens, kv_lens, config, seed):
        prob = problem.generate((heads, q_lens, kv_lens), fmt, seed, DEVICE)
        ref = reference.reference_f64(prob)
        peer = triton_mla.TritonMla(prob, config)
        peer.poison()
        out = peer()
        result = reference.check(out, ref)
        self.assertTrue(result.passed, "%s %s %s %s splits=%d: %s" % (
            fmt, (heads, q_lens, kv_lens), config, seed, peer.splits,
            result.summary()))

    def test_formats_configs_splits(self):
        seed = 11
        for fmt in problem.FORMATS:
            for config in triton_mla.TUNING_SPACE[fmt]:
                for heads, q_lens, kv_lens in RAGGED:
                    for splits in (1, 3):
                        seed += 1
                        self.run_case(fmt, heads, q_lens, kv_lens,
                                      config.with_splits(splits), seed)

    def test_split_limits(self):
        # More splits than tiles (empty splits), and the most splits.
        for fmt in problem.FORMATS:
            config = triton_mla.default_config(fmt, 32)
            self.run_case(fmt, 16, [2, 1], [40, 300],
                          config.with_splits(triton_mla.MAX_SPLITS), 3)

    def test_heuristic_splits(self):
        self.assertEqual(
            triton_mla.heuristic_splits(4, 1024, 32, 32, 64, 132), 16)
        self.assertEqual(
            triton_mla.heuristic_splits(128, 8192, 64, 64, 32, 132), 3)
        self.assertEqual(triton_mla.heuristic_splits(1, 0, 16, 16, 64, 132), 1)

    def test_candidate_configs(self):
        for fmt in problem.FORMATS:
            for rows in (16, 32, 64, 128):
                configs = triton_mla.candidate_configs(fmt, rows)
                self.assertTrue(configs)
                for config in configs:
                    self.assertLessEqual(config.block_m, max(16, rows))
                    self.assertGreaterEqual(config.block_m * 4, rows)


if __name__ == "__main__":
    unittest.main()
