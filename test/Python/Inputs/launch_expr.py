"""Evaluates the manifest's expressions (docs/ABI.md, "Extents") with mla.launch_expr,
one line each: `EXPR = VALUE`, or `EXPR ! ERROR` where it is refused.
The scalars are rows=37, cols=200, big=2^63-1, small=-2^63, zero=0 and the
grid is 3x2x1. Needs no compiled module.
"""

import json
import sys

from mla import MlaError
from mla import launch_expr

SCALARS = {"rows": 37, "cols": 200, "big": (1 << 63) - 1, "small": -(1 << 63),
           "zero": 0}
GRID = (3, 2, 1)
ROWS, COLS = {"arg": "rows"}, {"arg": "cols"}
BIG, SMALL, ZERO = {"arg": "big"}, {"arg": "small"}, {"arg": "zero"}

CASES = [
    # Leaves.
    7, ROWS, {"programs": 0}, {"programs": 1}, {"programs": 2},
    # Signed arithmetic, rounding of negative quotients.
    ["add", ROWS, COLS], ["sub", 5, 9], ["mul", ROWS, COLS],
    ["div", -7, 2], ["div", 7, -2], ["floordiv", -7, 2], ["floordiv", 7, 2],
    ["ceildiv", -7, 2], ["ceildiv", 7, 2], ["rem", -7, 2], ["rem", 7, -2],
    ["rem", SMALL, -1],
    # Unsigned: the bits of -1 are 2^64 - 1; umin and umax pick an operand.
    ["udiv", -1, 2], ["udiv", 7, 2], ["uceildiv", -1, 4], ["uceildiv", 7, 2],
    ["urem", -1, 10],
    ["min", -7, 2], ["max", -7, 2], ["umin", -7, 2], ["umax", -7, 2],
    ["umax", 3, 9],
    ["max", 1, 9, 4, -2],
    # Comparisons, signed and unsigned on a negative value.
    ["eq", 3, 3], ["ne", 3, 3], ["lt", -1, 0], ["le", 0, 0], ["gt", -1, 0],
    ["ge", 0, -1], ["ult", -1, 0], ["ule", 0, -1], ["ugt", -1, 0],
    ["uge", 0, -1],
    # select reads only the chosen side.
    ["select", 5, 1, 2], ["select", ["lt", ROWS, 0], ["div", 1, 0], ROWS],
    ["zext", 32, -1], ["zext", 8, 300], ["zext", 63, -1],
    # Views: a row-major matrix, empty ones, negative strides.
    ["view", 0, [ROWS, COLS], [COLS, 1]],
    ["view", 400, [ROWS, COLS], [COLS, 1]],
    ["view", 5, [0, COLS], [COLS, 1]], ["view", 5, [-3], [1]],
    ["view", -100, [ROWS, 0], [1, 1]],
    ["view", 10, [5], [-2]], ["view", 8, [5, 2], [-2, 3]],
    ["view", 7, [], []], ["view", 0, [0, ["div", 1, 0]], [1, 1]],
    # A load_scalar at index rows.
    ["add", ROWS, 1],
    # Refused: values outside int64, division by zero, negative indices.
    ["add", BIG, 1], ["sub", SMALL, 1], ["mul", BIG, 2],
    ["sub", ["add", BIG, 1], 1], ["div", SMALL, -1], ["udiv", -2, 1],
    9223372036854775808, ["urem", -2, -1],
    ["div", 1, 0], ["floordiv", 1, ZERO], ["ceildiv", 1, 0], ["rem", 1, 0],
    ["udiv", 1, 0], ["uceildiv", 1, 0], ["urem", 1, 0],
    ["view", 3, [5], [-2]], ["view", 0, [BIG, 3], [1, 1]],
    ["view", 0, [BIG], [2]],
    # Refused: names and shapes outside the language.
    {"arg": "depth"}, {"programs": 3}, {"programs": True}, {"arg": 5},
    {"arg": "rows", "programs": 0}, True, 1.5, "rows", [],
    ["pow", 2, 3], [5, 1, 2], ["add", 1], ["add", 1, 2, 3], ["max", 1],
    ["select", 1, 2], ["zext", 0, 5], ["zext", 64, 5], ["zext", ROWS, 5],
    ["view", 0, [1, 2], [1]], ["view", 0, 1, 1], ["add", 1, None],
]


# Printed as a program writes them, for launch errors.
PRINTED = [
    ["ceildiv", ROWS, 16], ["le", COLS, 256], ["mul", ["add", 1, 2], 3],
    ["add", 1, ["mul", 2, 3]], ["sub", 1, ["sub", 2, 3]],
    ["sub", ["sub", 1, 2], 3], ["floordiv", ROWS, ["mul", 2, 4]],
    ["max", 1, 2, {"programs": 1}], ["view", 0, [ROWS], [1]],
]


def main():
    for expr in CASES:
        text = json.dumps(expr)
        try:
            print(f"{text} = {launch_expr.evaluate(expr, SCALARS, GRID)}")
        except MlaError as e:
            print(f"{text} ! {e}")
    for expr in PRINTED:
        print(f"printed: {launch_expr.describe(expr)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
