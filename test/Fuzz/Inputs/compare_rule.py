"""Checks difftest.py's comparison rule on hand-made elements: exact
outputs compare bits (signed zeros included), NaN matches only NaN, and
inexact ones compare within their bound and no further."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "fuzz", "gen"))
import difftest  # noqa: E402

nan = float("nan")
CASES = [
    # host (bits, value), target (bits, value), bound, expected match
    ((0x3F800000, 1.0), (0x3F800000, 1.0), 0.0, True),
    ((0x00000000, 0.0), (0x80000000, -0.0), 0.0, False),
    ((None, nan), (None, nan), 0.0, True),
    ((None, nan), (0, 0.0), 0.5, False),
    ((0x3F800000, 1.0), (0x3F800001, 1.0000001), 0.0, False),
    ((0x3F800000, 1.0), (0x3F800001, 1.0000001), 1e-6, True),
    ((0x3F800000, 1.0), (0x40000000, 2.0), 0.5, False),
    ((7, 7), (0, 0), 0.0, False),
]
for host, target, bound, want in CASES:
    got = difftest.element_matches(host, target, bound)
    if got != want:
        sys.exit("compare_rule: %r vs %r within %r: %s, want %s"
                 % (host, target, bound, got, want))
if difftest.compare([(1, 1), (2, 2)], [(1, 1), (3, 3)], 0.0) is None:
    sys.exit("compare_rule: a differing element was not reported")
print("compare_rule: %d cases PASS" % len(CASES))
