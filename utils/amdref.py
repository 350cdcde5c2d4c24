#!/usr/bin/env python3
"""Reference values for the emulated AMD instructions, computed from the
lane layouts and value tables of shared/AMD.md and the ISA's definitions,
with the Python standard library only. Nothing here calls the emulator: the
tests run an instruction under mla-run --target emu and compare.

  amdref.py random FILE --dtype D --count N [--seed S] [--values V]
      N random elements: D is u2 (bf16 or f16 bits), f4 (f32), u1, i4, u4;
      V is normal (default: normal bf16, f32 or small integers), f16,
      fp8 or bf8 (codes finite in both chips' formats), fp4 (bytes of two
      codes), e8m0 (scale codes 100..150), e8m0x4 (four such codes in a
      32-bit word) or bits (any pattern).
  amdref.py print FILE [--per-line N]
      The elements of FILE, N to a line (default 16), for FileCheck.
  amdref.py check-mfma INSTR A B C D [--chip C] [--scales SA SB SELA SELB]
      D (lane data) of the matrix instruction INSTR against C + A x B with
      A, B, C built from the lane data by the instruction's layout.

Each check prints "check: OP ... PASS" or names the first mismatch and
exits 1.
"""
import argparse
import ast
import math
import random
import struct
import sys

DTYPES = {"u2": ("<u2", "H"), "f4": ("<f4", "f"), "u1": ("|u1", "B"),
          "i4": ("<i4", "i"), "u4": ("<u4", "I"), "i8": ("<i8", "q")}
CODES = {descr: code for descr, code in DTYPES.values()}
CODES["|i1"] = "b"
CODES["<f2"] = "H"


def fail(message):
    sys.exit("amdref: error: " + message)


def save(path, descr, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (
        descr, len(values))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    data = struct.pack("<%d%s" % (len(values), CODES[descr]), *values)
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
                header.encode("latin1") + data)


def load(path):
    """The elements of a C-order .npy file, flattened, and its dtype."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        fail("%s: not a .npy file" % path)
    size = 2 if data[6] == 1 else 4
    offset = 8 + size + int.from_bytes(data[8:8 + size], "little")
    header = ast.literal_eval(data[8 + size:offset].decode("latin1"))
    code = CODES[header["descr"]]
    count = (len(data) - offset) // struct.calcsize(code)
    return list(struct.unpack_from("<%d%s" % (count, code), data, offset))


# ---------------------------------------------------------------------------
# Number formats, from their definitions (shared/AMD.md, OCP MX spec).
# ---------------------------------------------------------------------------

def f32_bits(bits):
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def bits_f32(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


def bf16(bits):
    return f32_bits((bits & 0xFFFF) << 16)


def f16(bits):
    return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]


def minifloat(bits, exp_bits, man_bits, bias):
    """A plain binary float code (no special values)."""
    sign = -1.0 if bits >> (exp_bits + man_bits) & 1 else 1.0
    e = bits >> man_bits & ((1 << exp_bits) - 1)
    m = bits & ((1 << man_bits) - 1)
    if e == 0:
        return sign * m * 2.0 ** (1 - bias - man_bits)
    return sign * (1 + m / 2.0 ** man_bits) * 2.0 ** (e - bias)


def e4m3_ocp(b):
    """OCP E4M3 (f8E4M3FN): bias 7, S.1111.111 is NaN, no infinity."""
    return math.nan if b & 0x7F == 0x7F else minifloat(b, 4, 3, 7)


def e5m2_ocp(b):
    """OCP E5M2: bias 15, IEEE infinities and NaNs."""
    if b >> 2 & 31 == 31:
        return (math.copysign(math.inf, -1 if b & 0x80 else 1)
                if b & 3 == 0 else math.nan)
    return minifloat(b, 5, 2, 15)


def e4m3_fnuz(b):
    """FNUZ E4M3 (f8E4M3FNUZ): bias 8, 0x80 is the only NaN."""
    return math.nan if b == 0x80 else minifloat(b, 4, 3, 8)


def e5m2_fnuz(b):
    return math.nan if b == 0x80 else minifloat(b, 5, 2, 16)


def e2m1(n):
    """fp4 E2M1: bias 1, no NaN or infinity."""
    return minifloat(n & 0xF, 2, 1, 1)


def e8m0(code):
    return math.nan if code == 0xFF else 2.0 ** (code - 127)


FP8 = {"gfx950": e4m3_ocp, "gfx942": e4m3_fnuz}
BF8 = {"gfx950": e5m2_ocp, "gfx942": e5m2_fnuz}

# shared/AMD.md's table: the same byte under OCP (gfx950) and FNUZ (gfx942).
for byte, ocp, fnuz in [(0x38, 1.0, 0.5), (0x40, 2.0, 1.0), (0x7E, 448, 224),
                        (0x7F, math.nan, 240), (0x80, -0.0, math.nan)]:
    for got, want in [(e4m3_ocp(byte), ocp), (e4m3_fnuz(byte), fnuz)]:
        assert (math.isnan(got) and math.isnan(want)) or (
            got == want and math.copysign(1, got) == math.copysign(1, want))


# ---------------------------------------------------------------------------
# Rounding to the result types.
# ---------------------------------------------------------------------------

def to_f32(x):
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def to_bf16_bits(x):
    bits = bits_f32(to_f32(x))
    if math.isnan(x):
        return (bits >> 16) | 0x40
    return ((bits + 0x7FFF + (bits >> 16 & 1)) >> 16) & 0xFFFF


def to_f16_bits(x):
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return 0xFC00 if x < 0 else 0x7C00


# ---------------------------------------------------------------------------
# Random inputs.
# ---------------------------------------------------------------------------

def random_values(args):
    rng = random.Random(args.seed)
    n = args.count
    kind = args.values
    if kind == "normal":
        if args.dtype == "f4":
            return [to_f32(rng.gauss(0, 1)) for _ in range(n)]
        if args.dtype == "u2":
            return [to_bf16_bits(rng.gauss(0, 1)) for _ in range(n)]
        if args.dtype in ("i4", "u1"):
            return [rng.randrange(-128, 128) & 0xFF if args.dtype == "u1"
                    else rng.randrange(-1000, 1000) for _ in range(n)]
    if kind == "f16":
        return [to_f16_bits(rng.gauss(0, 1)) for _ in range(n)]
    if kind in ("fp8", "bf8"):
        # Finite codes of both chips' formats: not 0x80, not all ones.
        return [rng.choice([b for b in range(256)
                            if b & 0x7F not in (0x7F, 0x7C, 0x7D, 0x7E) and
                            b != 0x80]) for _ in range(n)]
    if kind == "fp4":
        return [rng.randrange(256) for _ in range(n)]
    if kind == "e8m0":
        return [rng.randrange(100, 151) for _ in range(n)]
    if kind == "e8m0x4":
        # Four scale codes per 32-bit word, for selector tests.
        words = [sum(rng.randrange(100, 151) << (8 * i) for i in range(4))
                 for _ in range(n)]
        return [w - (1 << 32) if w >= 1 << 31 else w for w in words]
    if kind == "bits":
        width = {"u1": 8, "u2": 16, "u4": 32, "i4": 32}[args.dtype]
        return [rng.getrandbits(width) - (1 << 31 if args.dtype == "i4"
                                          else 0) for _ in range(n)]
    fail("no %s values for dtype %s" % (kind, args.dtype))


def command_print(args):
    values = load(args.file)
    for i in range(0, len(values), args.per_line):
        print(" ".join(str(v) for v in values[i:i + args.per_line]))


def command_random(args):
    save(args.file, DTYPES[args.dtype][0], random_values(args))


# ---------------------------------------------------------------------------
# Matrix instructions: layouts of shared/AMD.md (AMD's matrix instruction
# calculator). For an MxNxK instruction with P values of K per lane:
#   16x16: A[i][k] in lane i+16*(k//P), element k%P; B[k][j] in lane
#          j+16*(k//P); D[i][j] in lane j+16*(i//4), register i%4
#   32x32: A[i][k] in lane i+32*(k//P), element k%P; D[i][j] in lane
#          j+32*((i//4)%2), register 4*(i//8)+i%4
# ---------------------------------------------------------------------------

MFMA = {
    # name: (M, K, P, A type, B type, integer)
    "16x16x4f32": (16, 4, 1, "f32", "f32", False),
    "32x32x2f32": (32, 2, 1, "f32", "f32", False),
    "16x16x16f16": (16, 16, 4, "f16", "f16", False),
    "32x32x8f16": (32, 8, 4, "f16", "f16", False),
    "16x16x16bf16_1k": (16, 16, 4, "bf16", "bf16", False),
    "32x32x8bf16_1k": (32, 8, 4, "bf16", "bf16", False),
    "16x16x32_bf16": (16, 32, 8, "bf16", "bf16", False),
    "32x32x16_bf16": (32, 16, 8, "bf16", "bf16", False),
    "16x16x32_f16": (16, 32, 8, "f16", "f16", False),
    "32x32x16_f16": (32, 16, 8, "f16", "f16", False),
    "16x16x32_fp8_fp8": (16, 32, 8, "fp8", "fp8", False),
    "16x16x32_fp8_bf8": (16, 32, 8, "fp8", "bf8", False),
    "16x16x32_bf8_fp8": (16, 32, 8, "bf8", "fp8", False),
    "16x16x32_bf8_bf8": (16, 32, 8, "bf8", "bf8", False),
    "32x32x16_fp8_fp8": (32, 16, 8, "fp8", "fp8", False),
    "16x16x32_i8": (16, 32, 8, "i8", "i8", True),
    "32x32x16_i8": (32, 16, 8, "i8", "i8", True),
    "16x16x64_i8": (16, 64, 16, "i8", "i8", True),
    "32x32x32_i8": (32, 32, 16, "i8", "i8", True),
    "scale_16x16x128_fp4": (16, 128, 32, "fp4", "fp4", False),
    "scale_32x32x64_fp4": (32, 64, 32, "fp4", "fp4", False),
}


def a_lane(m, p, i, k):
    return i + m * (k // p), k % p


def d_lane(m, i, j):
    if m == 16:
        return j + 16 * (i // 4), i % 4
    return j + 32 * ((i // 4) % 2), 4 * (i // 8) + i % 4


def element(data, kind, chip, lane, index, p):
    """Element `index` of a lane's operand in the flat lane data."""
    if kind in ("f32", "bf16", "f16"):
        v = data[lane * p + index]
        return v if kind == "f32" else (bf16(v) if kind == "bf16" else f16(v))
    if kind == "fp4":
        # 32 nibbles in 4 VGPRs: VGPR index//8, bits 4*(index%8)..+3.
        word = int.from_bytes(bytes(data[lane * 16 + 4 * (index // 8):
                                         lane * 16 + 4 * (index // 8) + 4]),
                              "little")
        return e2m1(word >> (4 * (index % 8)) & 0xF)
    byte = data[lane * p + index]
    if kind == "i8":
        return byte - 256 if byte >= 128 else byte
    return (FP8 if kind == "fp8" else BF8)[chip](byte)


def check_mfma(args):
    m, k, p, ta, tb, integer = MFMA[args.instr]
    a, b, c, d = (load(f) for f in (args.a, args.b, args.c, args.d))
    regs = m * m // 64
    scale_a = scale_b = None
    if args.scales:
        sa, sb = load(args.scales[0]), load(args.scales[1])
        sel_a, sel_b = int(args.scales[2]), int(args.scales[3])
        # The scale of A row i, block b (32 values) is in lane i+M*b, byte
        # sel of its 32-bit word; likewise B column j.
        scale_a = lambda i, blk: e8m0(sa[i + m * blk] >> (8 * sel_a) & 0xFF)
        scale_b = lambda j, blk: e8m0(sb[j + m * blk] >> (8 * sel_b) & 0xFF)
    worst = 0.0
    for i in range(m):
        for j in range(m):
            terms = []
            for kk in range(k):
                la, ea = a_lane(m, p, i, kk)
                lb, eb = a_lane(m, p, j, kk)
                x = element(a, ta, args.chip, la, ea, p)
                y = element(b, tb, args.chip, lb, eb, p)
                if scale_a:
                    x *= scale_a(i, kk // 32)
                    y *= scale_b(j, kk // 32)
                terms.append(x * y)
            lane, reg = d_lane(m, i, j)
            cval = c[lane * regs + reg]
            got = d[lane * regs + reg]
            if integer:
                want = (cval + sum(int(t) for t in terms) + 2**31) % 2**32 - 2**31
                if got != want:
                    fail("%s: D[%d][%d] (lane %d, register %d) is %d, "
                         "expected %d" % (args.instr, i, j, lane, reg, got,
                                          want))
                continue
            want = math.fsum(terms + [cval])
            bound = 2.0 ** -22 * (math.fsum(abs(t) for t in terms) +
                                  abs(cval)) + 1e-30
            if not abs(got - want) <= bound:
                fail("%s: D[%d][%d] (lane %d, register %d) is %r, expected "
                     "%r" % (args.instr, i, j, lane, reg, got, want))
            worst = max(worst, abs(got - want) / bound)
    print("check: mfma %s %dx%dx%d worst=%.2f of bound PASS" % (
        args.instr, m, m, k, worst))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("random")
    r.add_argument("file")
    r.add_argument("--dtype", required=True, choices=sorted(DTYPES))
    r.add_argument("--count", type=int, required=True)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--values", default="normal")
    p = sub.add_parser("print")
    p.add_argument("file")
    p.add_argument("--per-line", type=int, default=16)
    m = sub.add_parser("check-mfma")
    m.add_argument("instr", choices=sorted(MFMA))
    m.add_argument("a")
    m.add_argument("b")
    m.add_argument("c")
    m.add_argument("d")
    m.add_argument("--chip", default="gfx950")
    m.add_argument("--scales", nargs=4)
    args = parser.parse_args()
    {"random": command_random, "print": command_print,
     "check-mfma": check_mfma}[args.command](args)


if __name__ == "__main__":
    main()
