#!/usr/bin/env python3
"""Random, valid tile programs for differential testing across targets.

  generate.py SEED [--ops N] [--shape RxC] [--skip I,J] [--negative]

prints one `tile.kernel` (pointer inputs, one output) made from SEED alone,
so a failing program is named by its seed. Programs stay inside what every
target claims to take: tiles of any shape (a quarter of them with a
leading dimension that is not a power of two, `ODD_SHAPES`), products in
multiples of the matrix instructions, and values whose magnitude is
bounded so that no target overflows where another does not. Each value
carries a bound on the absolute difference two correct targets may show
for it (`Value.err`, 0 for exact values); difftest.py compares outputs
against it.

The ops: loads through static or dynamic, contiguous or strided views,
with row masks and pads; elementwise arith (float, integer, compare and
select) and math (exp, absf); truncf/extf/sitofp; tile.splat; tile.reduce
broadcast back with tile.broadcast; scf.for carrying a tile; tile.dot of
16, 32 or 64 rows, columns and depth (in programs on tiles of those
shapes), and from seed MX_FROM_SEED on tile.dot_scaled of MXFP4 operands
(K of 64, 128 or 256) in half of those product slots; one store, through a view that may cut the tile, with or without
a row mask.

The program is drawn op by op, each op from its own random stream
(`SEED:opI`), so dropping or truncating ops (`--skip`, `--ops`) keeps the
others: that is how difftest.py shrinks a finding. `--negative` makes a
product whose rows or depth no matrix instruction takes, for the
clean-error check.
"""
import argparse
import math
import random
import sys

MAX_ELEMENTS = 4096  # keeps the emulated runs short

# Element type: (bits, mantissa bits, largest magnitude allowed, smallest
# normal). The magnitude caps keep every value far from overflow (f16's
# 65504 in particular), so no target reaches infinity where another does not.
FLOATS = {"f32": (32, 23, 1e30, 2.0 ** -126),
          "bf16": (16, 7, 1e30, 2.0 ** -126),
          "f16": (16, 10, 3e4, 2.0 ** -14)}
INT_MAG = 2.0 ** 31
NPY = {"f32": "<f4", "bf16": "<u2", "f16": "<f2", "i32": "<i4", "i8": "|u1",
       "f8E8M0FNU": "|u1"}
ELEMENT_TYPES = ["f32", "bf16", "f16", "i32"]

SIZES_1D = [16, 32, 64, 128, 256, 512, 1024, 2048, 24, 48, 96, 100, 192,
            320, 384, 768]
ROWS = [1, 2, 4, 8, 16, 32, 64, 3, 6, 12, 24, 48]
COLS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 12, 20, 24, 36, 40, 96, 100, 200]


# ---------------------------------------------------------------------------
# Shapes.
# ---------------------------------------------------------------------------

def is_pow2(n):
    return n & (n - 1) == 0


def fits_emulation(shape):
    return math.prod(shape) <= MAX_ELEMENTS


GRID = [[n] for n in SIZES_1D] + [[r, c] for r in ROWS for c in COLS]
# A seed draws its shape from the tiles every GPU target took when the
# generator was written, those of a power-of-two leading dimension, so that
# it still names the program it did. The others, which the targets took
# later (docs/DSL.md: the part of a dimension that the lanes and warps do
# not divide goes to registers), come from a stream of their own.
SHAPES = [s for s in GRID if is_pow2(s[0]) and fits_emulation(s)]
ODD_SHAPES = [s for s in GRID + [[7], [1000], [3, 5], [48, 80]]
              if not is_pow2(s[0]) and fits_emulation(s)]
ODD_SHARE = 0.25  # of the programs, on a tile of ODD_SHAPES


# ---------------------------------------------------------------------------
# Values and their error bounds.
# ---------------------------------------------------------------------------

class Value:
    """An SSA tile: element type, a bound on |element| and on the absolute
    difference correct targets may show (0: every target gives the same
    bits)."""

    def __init__(self, name, elem, mag, err=0.0):
        self.name, self.elem, self.mag, self.err = name, elem, mag, err

    def is_float(self):
        return self.elem in FLOATS


def eps(elem):
    """Twice the unit roundoff of `elem`: room for either rounding of a
    result that lies close to a tie."""
    return 2.0 ** -FLOATS[elem][1]


def rounded(elem, mag, err):
    """A float op's bounds: one rounding of the result (and a flushed
    subnormal, which some targets flush and others keep)."""
    return err + eps(elem) * mag + FLOATS[elem][3]


def fits(elem, mag):
    limit = FLOATS[elem][2] if elem in FLOATS else INT_MAG
    return mag <= limit


def float_binary(op, elem, a, b):
    """(mag, err) of `a op b`, from the operands' bounds."""
    if op in ("addf", "subf"):
        mag = a.mag + b.mag
        return mag, rounded(elem, mag, a.err + b.err)
    if op == "mulf":
        mag = a.mag * b.mag
        err = a.err * b.mag + b.err * a.mag + a.err * b.err
        return mag, rounded(elem, mag, err)
    return max(a.mag, b.mag), max(a.err, b.err)  # maximumf, minimumf


def int_binary(op, a, b):
    if op in ("addi", "subi"):
        return min(a.mag + b.mag, INT_MAG)
    if op == "muli":
        return min(a.mag * b.mag, INT_MAG)
    if op in ("maxsi", "minsi"):
        return max(a.mag, b.mag)
    return min(2 * max(a.mag, b.mag) + 2, INT_MAG)  # andi, ori, xori


# ---------------------------------------------------------------------------
# The program text.
# ---------------------------------------------------------------------------

def tensor(shape, elem):
    return "tensor<%sx%s>" % ("x".join(map(str, shape)), elem)


def view_type(sizes, elem):
    return "!tile.view<%sx%s>" % ("x".join(map(str, sizes)), elem)


def literal(value, elem):
    return str(int(value)) if elem in ("i32", "index") else repr(float(value))


class Buffer:
    """A pointer argument: its name, element type and element count."""

    def __init__(self, name, elem, count):
        self.name, self.elem, self.count = name, elem, count


class Builder:
    def __init__(self, shape):
        self.shape = shape
        self.lines = []
        self.args = []      # (name, MLIR type)
        self.inputs = []    # Buffer
        self.scalars = []   # (name, value)
        self.counter = 0
        self.constants = {}

    def fresh(self, prefix="v"):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def emit(self, text):
        self.lines.append("  " + text)

    def const(self, value, elem):
        key = (value, elem)
        if key not in self.constants:
            name = self.fresh("c")
            self.emit("%%%s = arith.constant %s : %s"
                      % (name, literal(value, elem), elem))
            self.constants[key] = name
        return self.constants[key]

    def index(self, value):
        return self.const(value, "index")

    def splat(self, value, elem, shape=None):
        name = self.fresh("s")
        self.emit("%%%s = tile.splat %%%s : %s"
                  % (name, self.const(value, elem), tensor(shape or self.shape,
                                                           elem)))
        return name

    def op(self, text, prefix="v"):
        name = self.fresh(prefix)
        self.emit("%%%s = %s" % (name, text))
        return name

    def row_mask(self, rng, rows):
        """An i1 tile over the leading dimension: rows below a limit."""
        shape = [rows]
        iota = self.op("tile.range : %s" % tensor(shape, "i32"), "r")
        limit = self.splat(rng.randint(0, rows), "i32", shape)
        return self.op("arith.cmpi slt, %%%s, %%%s : %s"
                       % (iota, limit, tensor(shape, "i32")), "m"), shape

    def view(self, rng, ptr, elem, extent):
        """A view of `extent` (rows, cols or one size) with a row stride of
        at least its row; sizes static or from i32 arguments. Returns the
        view's name, type and the buffer's element count."""
        stride_gap = rng.choice([0, 0, 1, 3])
        if len(extent) == 1:
            strides = [rng.choice([1, 1, 2])]
            count = (extent[0] - 1) * strides[0] + 1
        else:
            strides = [extent[1] + stride_gap, 1]
            count = (extent[0] - 1) * strides[0] + extent[1]
        sizes = []
        for d, n in enumerate(extent):
            if rng.random() < 0.3:
                arg = "n%d" % len(self.scalars)
                self.args.append((arg, "i32"))
                self.scalars.append((arg, n))
                cast = "arith.index_cast %%%s : i32 to index" % arg
                sizes.append("%" + self.op(cast, "d"))
            else:
                sizes.append(str(n))
        vtype = view_type(["?" if s.startswith("%") else s for s in sizes],
                          elem)
        name = self.op("tile.view %%%s sizes [%s] strides [%s] "
                       ": !tile.ptr<%s> -> %s"
                       % (ptr, ", ".join(sizes), ", ".join(map(str, strides)),
                          elem, vtype), "w")
        return name, vtype, max(count, 1)

    def placement(self, rng, shape):
        """A view extent and tile origin for a tile of `shape`: inside the
        view, or hanging over its end (the view cut short) or its start."""
        extent, origin = [], []
        for n in shape:
            shift = rng.choice([0, 0, 0, 1, min(3, n)])
            cut = rng.choice([0, 0, 0, 1, n // 2])
            extent.append(max(1, n + shift - cut))
            origin.append(shift)
        return extent, origin

    def load_input(self, rng, shape=None, elems=ELEMENT_TYPES, pads=True,
                   whole=False):
        """A tile of `shape` (the program's by default) loaded from a new
        pointer argument, with or without mask and (where `pads`) pad;
        `whole`: the tile inside its view, no mask, no pad (MX scales, whose
        padding zeros would be 2^-127)."""
        shape = shape or self.shape
        elem = rng.choice(elems)
        ptr = "a%d" % len(self.inputs)
        self.args.append((ptr, "!tile.ptr<%s>" % elem))
        if whole:
            extent, origin = list(shape), [0] * len(shape)
        else:
            extent, origin = self.placement(rng, shape)
        view, vtype, count = self.view(rng, ptr, elem, extent)
        self.inputs.append(Buffer(ptr, elem, count))
        mag = INPUT_MAG[elem]
        suffix = ""
        if not whole and rng.random() < 0.4:
            mask, rows = self.row_mask(rng, shape[0])
            suffix += " mask %%%s : %s" % (mask, tensor(rows, "i1"))
        if pads and not whole and rng.random() < 0.4:
            pad = rng.choice([1.5, -2.0, 0.25] if elem in FLOATS else [7, -3])
            suffix += " pad %%%s" % self.const(pad, elem)
            mag = max(mag, abs(pad))
        indices = ", ".join("%" + self.index(o) for o in origin)
        name = self.op("tile.load %%%s[%s]%s : %s -> %s"
                       % (view, indices, suffix, vtype,
                          tensor(shape, elem)), "t")
        return Value(name, elem, mag)

    def store_output(self, rng, value):
        self.args.append(("out", "!tile.ptr<%s>" % value.elem))
        extent, origin = self.placement(rng, self.shape)
        view, vtype, count = self.view(rng, "out", value.elem, extent)
        suffix = ""
        if rng.random() < 0.3:
            mask, rows = self.row_mask(rng, self.shape[0])
            suffix = " mask %%%s : %s" % (mask, tensor(rows, "i1"))
        indices = ", ".join("%" + self.index(o) for o in origin)
        self.emit("tile.store %%%s, %%%s[%s]%s : %s, %s"
                  % (value.name, view, indices, suffix,
                     tensor(self.shape, value.elem), vtype))
        return Buffer("out", value.elem, count)

    def text(self, kernel, header):
        args = ", ".join("%%%s: %s" % a for a in self.args)
        return "\n".join(["// " + line for line in header] +
                         ["tile.kernel @%s(%s) {" % (kernel, args)] +
                         self.lines + ["  tile.return", "}", ""])


# Inputs are drawn within these magnitudes (difftest.py makes them); i8
# inputs are packed fp4 pairs (E2M1, at most 6), f8E8M0FNU ones MX scales
# from 2^-3 to 2^3.
INPUT_MAG = {"f32": 2.0, "bf16": 2.0, "f16": 2.0, "i32": 100.0, "i8": 6.0,
             "f8E8M0FNU": 8.0}


# ---------------------------------------------------------------------------
# Ops. Each takes the builder, its random stream and the values so far, and
# returns a new value or None when it does not fit them.
# ---------------------------------------------------------------------------

def pick(rng, pool, want):
    found = [v for v in pool if want(v)]
    return rng.choice(found) if found else None


def second_operand(b, rng, pool, a, want=lambda v: True):
    """Another value of a's type, or a splatted constant."""
    other = pick(rng, pool, lambda v: v.elem == a.elem and want(v))
    if other is None or rng.random() < 0.25:
        value = rng.choice([0.5, -1.5, 2.0, 0.0] if a.is_float()
                           else [3, -5, 1])
        return Value(b.splat(value, a.elem), a.elem, abs(value))
    return other


def op_float_binary(b, rng, pool):
    a = pick(rng, pool, Value.is_float)
    if a is None:
        return None
    other = second_operand(b, rng, pool, a)
    op = rng.choice(["addf", "subf", "mulf", "maximumf", "minimumf"])
    mag, err = float_binary(op, a.elem, a, other)
    if not fits(a.elem, mag):
        return None
    name = b.op("arith.%s %%%s, %%%s : %s"
                % (op, a.name, other.name, tensor(b.shape, a.elem)))
    return Value(name, a.elem, mag, err)


def op_float_unary(b, rng, pool):
    a = pick(rng, pool, Value.is_float)
    if a is None:
        return None
    op = rng.choice(["arith.negf", "math.absf", "math.exp"])
    mag, err = a.mag, a.err
    if op == "math.exp":
        if a.mag > 20:
            return None
        mag = math.exp(a.mag)
        # exp(x + d) = exp(x) (1 + ~d); the targets' exp (exp2 of x * log2 e
        # on AMD) is within a few ulp plus the rounding of x * log2 e.
        err = rounded(a.elem, mag, mag * (math.expm1(a.err) +
                                          8 * eps(a.elem) * (1 + a.mag)))
        if not fits(a.elem, mag):
            return None
    name = b.op("%s %%%s : %s" % (op, a.name, tensor(b.shape, a.elem)))
    return Value(name, a.elem, mag, err)


def op_int_binary(b, rng, pool):
    a = pick(rng, pool, lambda v: v.elem == "i32")
    if a is None:
        return None
    other = second_operand(b, rng, pool, a)
    op = rng.choice(["addi", "subi", "muli", "maxsi", "minsi", "andi", "ori",
                     "xori"])
    name = b.op("arith.%s %%%s, %%%s : %s"
                % (op, a.name, other.name, tensor(b.shape, "i32")))
    return Value(name, "i32", int_binary(op, a, other))


def op_select(b, rng, pool):
    """select(x cmp y, p, q). The comparison reads exact values only: on
    an inexact one the targets may rightly decide differently."""
    x = pick(rng, pool, lambda v: v.err == 0)
    if x is None:
        return None
    y = second_operand(b, rng, pool, x, lambda v: v.err == 0)
    if x.is_float():
        pred = rng.choice(["olt", "ogt", "oeq", "une", "ole"])
        cmp = b.op("arith.cmpf %s, %%%s, %%%s : %s"
                   % (pred, x.name, y.name, tensor(b.shape, x.elem)), "m")
    else:
        pred = rng.choice(["slt", "sgt", "eq", "ne", "sle"])
        cmp = b.op("arith.cmpi %s, %%%s, %%%s : %s"
                   % (pred, x.name, y.name, tensor(b.shape, x.elem)), "m")
    p = pick(rng, pool, lambda v: True)
    q = second_operand(b, rng, pool, p)
    name = b.op("arith.select %%%s, %%%s, %%%s : %s, %s"
                % (cmp, p.name, q.name, tensor(b.shape, "i1"),
                   tensor(b.shape, p.elem)))
    return Value(name, p.elem, max(p.mag, q.mag), max(p.err, q.err))


def op_convert(b, rng, pool):
    a = pick(rng, pool, lambda v: True)
    if a is None:
        return None
    src = tensor(b.shape, a.elem)
    if a.elem == "f32":
        elem = rng.choice(["bf16", "f16"])
        if not fits(elem, a.mag):
            return None
        name = b.op("arith.truncf %%%s : %s to %s"
                    % (a.name, src, tensor(b.shape, elem)))
        return Value(name, elem, a.mag, truncated(elem, a))
    if a.elem in ("bf16", "f16"):
        name = b.op("arith.extf %%%s : %s to %s"
                    % (a.name, src, tensor(b.shape, "f32")))
        return Value(name, "f32", a.mag, a.err)
    name = b.op("arith.sitofp %%%s : %s to %s"
                % (a.name, src, tensor(b.shape, "f32")))
    return Value(name, "f32", a.mag)


def truncated(elem, a):
    """A rounding of an exact value is exact (every target rounds to
    nearest even); of an inexact one, it adds the rounding."""
    return 0.0 if a.err == 0 else rounded(elem, a.mag, a.err)


def op_reduce(b, rng, pool):
    """A reduction along one dimension of a 2-D tile, broadcast back."""
    if len(b.shape) != 2:
        return None
    # The GPU targets reduce f32 and i32 tiles only.
    a = pick(rng, pool, lambda v: v.elem in ("f32", "i32"))
    if a is None:
        return None
    dim = rng.choice([0, 1])
    kind = rng.choice(["sum", "max", "min"])
    n = b.shape[dim]
    mag, err = a.mag, a.err
    if kind == "sum":
        mag = n * a.mag if a.is_float() else min(n * a.mag, INT_MAG)
        if a.is_float():
            # Any order of additions: n roundings of partial sums <= mag.
            err = n * a.err + n * (eps(a.elem) * mag + FLOATS[a.elem][3])
    if not fits(a.elem, mag):
        return None
    kept = [s for d, s in enumerate(b.shape) if d != dim]
    red = b.op("tile.reduce %s %%%s dim %d : %s -> %s"
               % (kind, a.name, dim, tensor(b.shape, a.elem),
                  tensor(kept, a.elem)), "r")
    name = b.op("tile.broadcast %%%s dims [%d] : %s -> %s"
                % (red, dim, tensor(kept, a.elem), tensor(b.shape, a.elem)))
    return Value(name, a.elem, mag, err)


def op_loop(b, rng, pool):
    """acc = acc op x, a few times, in an scf.for carrying the tile."""
    a = pick(rng, pool, lambda v: True)
    other = second_operand(b, rng, pool, a)
    trips = rng.randint(1, 3)
    acc = Value(None, a.elem, a.mag, a.err)
    if a.is_float():
        op = rng.choice(["addf", "subf", "mulf", "maximumf"])
        for _ in range(trips):
            acc.mag, acc.err = float_binary(op, a.elem, acc, other)
    else:
        op = rng.choice(["addi", "muli", "xori", "maxsi"])
        for _ in range(trips):
            acc.mag = int_binary(op, acc, other)
    if not fits(a.elem, acc.mag):
        return None
    ty = tensor(b.shape, a.elem)
    lo, hi, step = b.index(0), b.index(trips), b.index(1)
    name, iv, carried, nxt = (b.fresh("l"), b.fresh("i"), b.fresh("acc"),
                              b.fresh("n"))
    b.emit("%%%s = scf.for %%%s = %%%s to %%%s step %%%s "
           "iter_args(%%%s = %%%s) -> (%s) {"
           % (name, iv, lo, hi, step, carried, a.name, ty))
    b.emit("  %%%s = arith.%s %%%s, %%%s : %s"
           % (nxt, op, carried, other.name, ty))
    b.emit("  scf.yield %%%s : %s" % (nxt, ty))
    b.emit("}")
    return Value(name, a.elem, acc.mag, acc.err)


DOT_SIZES = [16, 32, 64]
DOT_SHARE = 0.3  # of the op slots of a program whose tile a product makes
# Of the products, those over a K 8 times as long: the warps split such a K
# where the result is one instruction row of few columns (LayoutChoice.cpp).
LONG_K_SHARE = 0.25


def dot_takes(shape):
    return len(shape) == 2 and all(n in DOT_SIZES for n in shape)


def op_dot(b, rng, pool, long_k, k=None):
    """acc + x * y on the matrix cores, x [M, K] and y [K, N] new loads of
    bf16 or f16, whose products are exact in f32; K 8 times as long when
    `long_k`, or `k`."""
    m, n = b.shape
    k = k or rng.choice(DOT_SIZES) * (8 if long_k else 1)
    elem = rng.choice(["bf16", "f16"])
    x = b.load_input(rng, [m, k], [elem], pads=False)
    y = b.load_input(rng, [k, n], [elem], pads=False)
    acc = pick(rng, pool, lambda v: v.elem == "f32")
    if acc is None:
        acc = Value(b.splat(0.0, "f32"), "f32", 0.0)
    mag = acc.mag + k * x.mag * y.mag
    if not fits("f32", mag):
        return None
    # k + 1 roundings of partial sums at most mag, in any order.
    err = acc.err + (k + 1) * (eps("f32") * mag + FLOATS["f32"][3])
    name = b.op("tile.dot %%%s, %%%s, %%%s : %s, %s -> %s"
                % (x.name, y.name, acc.name, tensor([m, k], elem),
                   tensor([k, n], elem), tensor([m, n], "f32")))
    return Value(name, "f32", mag, err)


# Programs from this seed on may take block-scaled fp4 products in their
# product slots (MX_SHARE of them): the programs of earlier seeds, which
# the campaign and the regression tests name, stay as they were.
MX_FROM_SEED = 13000
MX_SHARE = 0.5


def op_dot_scaled(b, rng, pool):
    """acc + x * y for MXFP4 x [M, K] and y [K, N] (tile.dot_scaled): packed
    bytes [M, K/2] and [K/2, N] loaded with masks and edges like any input,
    their E8M0 scales [M, K/32] and [N, K/32] whole. K of 64 (decomposed
    everywhere) or a multiple of 128 (gfx950's scaled MFMA); 256 only where
    M + N <= 64: gfx942 converts the dequantized bf16 operands through LDS,
    81 KiB of its 64 for 64x256 by 256x64. Every product of two scaled fp4
    values is exact in f32."""
    m, n = b.shape
    k = rng.choice([64, 128, 256] if m + n <= 64 else [64, 128])
    x = b.load_input(rng, [m, k // 2], ["i8"], pads=False)
    xs = b.load_input(rng, [m, k // 32], ["f8E8M0FNU"], whole=True)
    y = b.load_input(rng, [k // 2, n], ["i8"], pads=False)
    ys = b.load_input(rng, [n, k // 32], ["f8E8M0FNU"], whole=True)
    acc = pick(rng, pool, lambda v: v.elem == "f32")
    if acc is None:
        acc = Value(b.splat(0.0, "f32"), "f32", 0.0)
    mag = acc.mag + k * (x.mag * xs.mag) * (y.mag * ys.mag)
    if not fits("f32", mag):
        return None
    err = acc.err + (k + 1) * (eps("f32") * mag + FLOATS["f32"][3])
    scale_type = lambda rows: tensor([rows, k // 32], "f8E8M0FNU")
    name = b.op("tile.dot_scaled %%%s scale %%%s : %s, %%%s scale %%%s : %s, "
                "%%%s : %s, %s -> %s"
                % (x.name, xs.name, scale_type(m), y.name, ys.name,
                   scale_type(n), acc.name, tensor([m, k // 2], "i8"),
                   tensor([k // 2, n], "i8"), tensor([m, n], "f32")))
    return Value(name, "f32", mag, err)


OPS = [(op_float_binary, 4), (op_float_unary, 2), (op_int_binary, 2),
       (op_select, 2), (op_convert, 2), (op_reduce, 2), (op_loop, 1)]


def one_op(b, rng, pool):
    """Tries ops until one fits the values so far; None when none did."""
    for _ in range(8):
        fn = rng.choices([f for f, _ in OPS], [w for _, w in OPS])[0]
        value = fn(b, rng, pool)
        if value is not None:
            return value
    return None


# ---------------------------------------------------------------------------
# Programs.
# ---------------------------------------------------------------------------

class Program:
    """A generated kernel and what running it needs: its inputs, scalar
    arguments, output buffer and the output's error bound."""

    def __init__(self, seed, text, kernel, inputs, scalars, output, err,
                 ops, shape, skip=()):
        self.seed, self.text, self.kernel = seed, text, kernel
        self.inputs, self.scalars, self.output = inputs, scalars, output
        self.err, self.ops, self.shape = err, ops, shape
        self.skip = set(skip)


def parse_shape(text):
    return [int(n) for n in text.split("x")]


def generate(seed, ops=None, shape=None, skip=()):
    """The program of `seed`, optionally with `ops` op slots, tile `shape`
    (a list) and the op slots in `skip` left out."""
    rng = random.Random("%d:program" % seed)
    # Both are drawn either way, so that the draws after them stay put.
    chosen_shape = rng.choice(SHAPES)
    chosen_ops = rng.randint(1, 8)
    odd = random.Random("%d:odd" % seed)
    if odd.random() < ODD_SHARE:
        chosen_shape = odd.choice(ODD_SHAPES)
    shape = shape or chosen_shape
    ops = chosen_ops if ops is None else ops
    b = Builder(shape)
    pool = [b.load_input(random.Random("%d:in%d" % (seed, i)))
            for i in range(rng.randint(1, 3))]
    for i in range(ops):
        if i in skip:
            continue
        # Products come from their own stream, so that adding them left the
        # programs of other shapes as they were.
        dot_rng = random.Random("%d:dot%d" % (seed, i))
        if dot_takes(shape) and dot_rng.random() < DOT_SHARE:
            mx = random.Random("%d:mx%d" % (seed, i))
            long_k = random.Random("%d:dotk%d" % (seed, i)).random()
            if seed >= MX_FROM_SEED and mx.random() < MX_SHARE:
                value = op_dot_scaled(b, mx, pool)
            else:
                value = op_dot(b, dot_rng, pool, long_k < LONG_K_SHARE)
        else:
            value = one_op(b, random.Random("%d:op%d" % (seed, i)), pool)
        if value is not None:
            pool.append(value)
    out = pool[-1]
    output = b.store_output(random.Random("%d:out" % seed), out)
    kernel = "fuzz%d" % seed
    header = ["difftest program: seed %d, %d op slots, shape %s, skip %s"
              % (seed, ops, "x".join(map(str, shape)),
                 ",".join(map(str, sorted(skip))) or "none"),
              "output error bound: %r (0: bitwise)" % out.err]
    return Program(seed, b.text(kernel, header), kernel, b.inputs, b.scalars,
                   output, out.err, ops, shape, skip)


def generate_negative(seed):
    """A product whose rows or depth are not a multiple of 16, which no
    GPU target's matrix instruction takes (docs/DSL.md)."""
    rng = random.Random("%d:negative" % seed)
    m, n, k = (rng.choice(DOT_SIZES) for _ in range(3))
    if rng.random() < 0.5:
        m = rng.choice([8, 24, 40])
    else:
        k = rng.choice([8, 24, 40])
    b = Builder([m, n])
    value = op_dot(b, rng, [], False, k)
    output = b.store_output(random.Random("%d:out" % seed), value)
    kernel = "fuzz_negative%d" % seed
    header = ["difftest negative program: seed %d, a %dx%dx%d product (refused "
              "by the GPU targets)" % (seed, m, n, k)]
    return Program(seed, b.text(kernel, header), kernel, b.inputs, b.scalars,
                   output, value.err, 1, [m, n])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seed", type=int)
    parser.add_argument("--ops", type=int)
    parser.add_argument("--shape", type=parse_shape)
    parser.add_argument("--skip", default="")
    parser.add_argument("--negative", action="store_true")
    args = parser.parse_args()
    if args.negative:
        program = generate_negative(args.seed)
    else:
        skip = {int(i) for i in args.skip.split(",") if i}
        program = generate(args.seed, args.ops, args.shape, skip)
    sys.stdout.write(program.text)


if __name__ == "__main__":
    main()
