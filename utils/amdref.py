#!/usr/bin/env python3
"""Reference values for the emulated AMD instructions, computed from the
lane layouts and value tables of shared/AMD.md and the ISA's definitions,
with the Python standard library only. Nothing here calls the emulator: the
tests run an instruction under mla-run --target emu and compare.

  amdref.py random FILE --dtype D --count N [--seed S] [--values V]
      N random elements: D is u2 (bf16 or f16 bits), f4 (f32), u1, i4, u4;
      V is normal (default: normal bf16, f32 or small integers), f16,
      fp8 or bf8 (codes finite in both chips' formats), fp4 (bytes of two
      codes), math (inputs for transcendental instructions), e8m0 (scale
      codes 100..150), e8m0x4 (four such codes in a
      32-bit word), edge (f32 values for down conversions: ties, specials,
      wide magnitudes), scale (f32 scales with an E8M0 code from --range
      LO,HI in the exponent), iota (0, 1, 2, ...) or bits (any pattern).
  amdref.py print FILE [--per-line N]
      The elements of FILE, N to a line (default 16), for FileCheck.
  amdref.py check-mfma INSTR A B C D [--chip C] [--scales SA SB SELA SELB]
      D (lane data) of the matrix instruction INSTR against C + A x B with
      A, B, C built from the lane data by the instruction's layout.
  amdref.py check-cvt OP IN... OUT [--chip C]
      The outputs of a conversion kernel of test/Emulator/convert-*.ll
      against the formats' definitions and the selector semantics.
  amdref.py check-math IN OUT
      The outputs of test/Emulator/math.ll: each transcendental instruction
      within the ISA's 1 ulp, denormals flushed as the ISA says.
  amdref.py check-lanes lanes|permlane|transpose SRC [ADDRESS] OUT
      The outputs of the cross-lane kernels of test/Emulator/lanes.ll,
      permlane-gfx950.ll and lds-transpose-gfx950.ll.

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


def signed_nan(b):
    """NaN with the sign of code `b` (NaNs keep their sign through the
    conversions, as in AMD's reference conversions)."""
    return math.copysign(math.nan, -1.0 if b & 0x80 else 1.0)


def e4m3_ocp(b):
    """OCP E4M3 (f8E4M3FN): bias 7, S.1111.111 is NaN, no infinity."""
    return signed_nan(b) if b & 0x7F == 0x7F else minifloat(b, 4, 3, 7)


def e5m2_ocp(b):
    """OCP E5M2: bias 15, IEEE infinities and NaNs."""
    if b >> 2 & 31 == 31:
        return (math.copysign(math.inf, -1 if b & 0x80 else 1)
                if b & 3 == 0 else signed_nan(b))
    return minifloat(b, 5, 2, 15)


def e4m3_fnuz(b):
    """FNUZ E4M3 (f8E4M3FNUZ): bias 8, 0x80 is the only NaN."""
    return signed_nan(b) if b == 0x80 else minifloat(b, 4, 3, 8)


def e5m2_fnuz(b):
    return signed_nan(b) if b == 0x80 else minifloat(b, 5, 2, 16)


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


def nearest_code(value, decode, codes, overflow_odd):
    """The positive code (among `codes`) nearest |value|, with ties to an
    even mantissa (the code's lowest bit), or None when rounding goes past
    the largest finite value. `overflow_odd` tells whether the grid point
    after the largest finite one has an odd mantissa."""
    finite = [(decode(c), c) for c in codes
              if not math.isnan(decode(c)) and not math.isinf(decode(c))]
    top = max(v for v, _ in finite)
    below = max(v for v, _ in finite if v < top)
    past = top + (top - below)
    magnitude = abs(value)
    if magnitude >= past:
        return None
    best = None
    for v, c in finite + [(past, None)]:
        d = abs(magnitude - v)
        if best is None or d < best[0]:
            best = (d, v, c)
        elif d == best[0]:
            odd = overflow_odd if c is None else c & 1
            best_odd = overflow_odd if best[2] is None else best[2] & 1
            if best_odd and not odd:
                best = (d, v, c)
    return best[2]


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


def same(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


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
    if kind == "math":
        # Inputs for the transcendental instructions: specials, denormals,
        # and random magnitudes from tiny to huge, both signs.
        specials = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0,
                    2.0 ** -130, -(2.0 ** -140), 2.0 ** 127, 130.0, -130.0,
                    -149.5, 0.5, 2.0 ** -126, 3.0 ** 40]
        values = []
        for i in range(n):
            if i < len(specials):
                values.append(to_f32(specials[i]))
            else:
                values.append(to_f32(rng.uniform(-1, 1) *
                                     2.0 ** rng.uniform(-30, 30)))
        return values
    if kind == "iota":
        return [float(i) if args.dtype == "f4" else i for i in range(n)]
    if kind == "edge":
        # Floats for down conversions: a grid with many ties, wide random
        # magnitudes, and the formats' special and boundary values.
        specials = [0.0, -0.0, math.inf, -math.inf, math.nan, 448.0, 464.0,
                    480.0, 57344.0, 61440.0, 240.0, 248.0, 6.0, 7.0, 5.0,
                    0.25, 0.75, 1e-10, -3.5, -464.0]
        values = []
        for _ in range(n):
            kind = rng.random()
            if kind < 0.7:
                values.append(rng.randrange(-160, 161) / 16.0)
            elif kind < 0.9:
                values.append(to_f32(rng.gauss(0, 1) *
                                     2.0 ** rng.randrange(-20, 21)))
            else:
                values.append(rng.choice(specials))
        return values
    if kind == "scale":
        # f32 scales for the scaled conversions: an E8M0 code in --range in
        # the exponent, random mantissa bits the instructions ignore.
        low, high = args.range
        return [f32_bits(rng.randrange(low, high + 1) << 23 |
                         rng.getrandbits(23)) for _ in range(n)]
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


# ---------------------------------------------------------------------------
# Conversions. Kernels store, per lane, the results of every selector; see
# the RUN lines of test/Emulator/convert-*.ll for the buffer layouts.
# ---------------------------------------------------------------------------

def fp4_pair(word, select, scale):
    """v_cvt_scalef32_pk_*_fp4: byte `select` of the source, its low nibble
    element 0, its high nibble element 1, times the scale's exponent."""
    byte = word >> (8 * select) & 0xFF
    s = e8m0(bits_f32(scale) >> 23 & 0xFF)
    return e2m1(byte & 0xF) * s, e2m1(byte >> 4) * s


def fp4_code(x):
    """The E2M1 code of x: nearest, ties to even, saturating at 6 (NaN
    and infinities too: fp4 has neither)."""
    if math.isnan(x) or math.isinf(x):
        code = 0x7
    else:
        code = nearest_code(x, e2m1, range(8), overflow_odd=False)
        code = 0x7 if code is None else code
    return code | (0x8 if math.copysign(1, x) < 0 else 0)


def fp8_code(x, decode):
    """Nearest code, ties to even; overflow gives NaN (E4M3), infinity
    (E5M2) or the FNUZ NaN."""
    fnuz = decode in (e4m3_fnuz, e5m2_fnuz)
    sign = 0x80 if math.copysign(1, x) < 0 else 0
    nan = 0x80 if fnuz else sign | (0x7F if decode is e4m3_ocp else 0x7E)
    if math.isnan(x):
        return nan
    if math.isinf(x):
        return nan if decode is not e5m2_ocp else sign | 0x7C
    odd = decode is e4m3_ocp
    code = nearest_code(x, decode, range(128), overflow_odd=odd)
    if code is None:
        return sign | 0x7C if decode is e5m2_ocp else nan
    if fnuz and code == 0:
        return 0
    return sign | code


def check_cvt(args):
    op = args.op
    files = [load(f) for f in args.files]
    out = files[-1]
    chip = args.chip
    problems = []

    def expect(index, got, want, what):
        if not same(got, want) and len(problems) < 5:
            problems.append("%s: output %d is %r, expected %r" % (
                what, index, got, want))

    if op in ("fp4-f32", "fp4-bf16", "fp4-f16"):
        # IN: src words, scale floats. OUT: per lane 4 selectors x 2 values.
        src, scale = files[0], files[1]
        for lane, (w, s) in enumerate(zip(src, scale)):
            for sel in range(4):
                pair = fp4_pair(w, sel, s)
                for e in range(2):
                    idx = lane * 8 + sel * 2 + e
                    if op == "fp4-f32":
                        expect(idx, out[idx], to_f32(pair[e]), op)
                    elif op == "fp4-bf16":
                        expect(idx, out[idx], to_bf16_bits(pair[e]), op)
                    else:
                        expect(idx, out[idx], to_f16_bits(pair[e]), op)
    elif op in ("f32-fp4", "bf16-fp4", "f16-fp4"):
        # IN: a pair of values (f32, or bf16/f16 bits) per lane, scale.
        # OUT: per lane, 4 selectors, each the word with the pair written
        # into byte sel of `old`.
        values, scale, old = files[0], files[1], files[2]
        decode = {"f32-fp4": lambda v: v, "bf16-fp4": bf16, "f16-fp4": f16}[op]
        for lane in range(len(scale)):
            a, b = decode(values[2 * lane]), decode(values[2 * lane + 1])
            s = e8m0(bits_f32(scale[lane]) >> 23 & 0xFF)
            byte = fp4_code(a / s) | fp4_code(b / s) << 4
            for sel in range(4):
                idx = lane * 4 + sel
                want = (old[lane] & ~(0xFF << 8 * sel) | byte << 8 * sel)
                expect(idx, out[idx] & 0xFFFFFFFF, want & 0xFFFFFFFF, op)
    elif op in ("fp8-f32", "bf8-f32"):
        # v_cvt_f32_fp8 with byte_sel 0-3, then cvt_pk with word_sel 0, 1.
        decode = (FP8 if op == "fp8-f32" else BF8)[chip]
        src = files[0]
        for lane, w in enumerate(src):
            for sel in range(4):
                idx = lane * 8 + sel
                expect(idx, out[idx], decode(w >> (8 * sel) & 0xFF), op)
            for word in range(2):
                for e in range(2):
                    idx = lane * 8 + 4 + word * 2 + e
                    expect(idx, out[idx],
                           decode(w >> (16 * word + 8 * e) & 0xFF), op)
    elif op in ("f32-fp8", "f32-bf8"):
        # v_cvt_pk_fp8_f32 a, b into word_sel 0 and 1 of `old`.
        decode = (FP8 if op == "f32-fp8" else BF8)[chip]
        values, old = files[0], files[1]
        for lane in range(len(old)):
            a, b = values[2 * lane], values[2 * lane + 1]
            pair = fp8_code(a, decode) | fp8_code(b, decode) << 8
            for word in range(2):
                idx = lane * 2 + word
                want = old[lane] & ~(0xFFFF << 16 * word) | pair << 16 * word
                expect(idx, out[idx] & 0xFFFFFFFF, want & 0xFFFFFFFF, op)
    elif op in ("scaled-fp8-f32", "scaled-bf8-f32"):
        # gfx950 v_cvt_scalef32_f32_{fp8,bf8} (bytes 0-3) and pk (halves 0, 1).
        decode = e4m3_ocp if op == "scaled-fp8-f32" else e5m2_ocp
        src, scale = files[0], files[1]
        for lane, (w, sc) in enumerate(zip(src, scale)):
            s = e8m0(bits_f32(sc) >> 23 & 0xFF)
            for sel in range(4):
                idx = lane * 8 + sel
                expect(idx, out[idx], to_f32(decode(w >> 8 * sel & 0xFF) * s),
                       op)
            for half in range(2):
                for e in range(2):
                    idx = lane * 8 + 4 + half * 2 + e
                    v = decode(w >> (16 * half + 8 * e) & 0xFF) * s
                    expect(idx, out[idx], to_f32(v), op)
    elif op == "scaled-fp8-16":
        # v_cvt_scalef32_pk_{bf16,f16}_{fp8,bf8}, halves 0 and 1 each.
        src, scale = files[0], files[1]
        kinds = [(e4m3_ocp, to_bf16_bits), (e5m2_ocp, to_bf16_bits),
                 (e4m3_ocp, to_f16_bits), (e5m2_ocp, to_f16_bits)]
        for lane, (w, sc) in enumerate(zip(src, scale)):
            s = e8m0(bits_f32(sc) >> 23 & 0xFF)
            idx = lane * 16
            for decode, encode in kinds:
                for half in range(2):
                    for e in range(2):
                        v = decode(w >> (16 * half + 8 * e) & 0xFF) * s
                        expect(idx, out[idx], encode(v), op)
                        idx += 1
    elif op in ("scaled-f32-fp8", "scaled-bf16-fp8", "scaled-f16-fp8"):
        # v_cvt_scalef32_pk_{fp8,bf8}_*: value / scale into half 0 or 1 of
        # the old register; per lane: fp8 half 0, half 1, bf8 half 0, 1.
        values, scale, old = files[0], files[1], files[2]
        decode16 = {"scaled-f32-fp8": lambda v: v, "scaled-bf16-fp8": bf16,
                    "scaled-f16-fp8": f16}[op]
        for lane in range(len(scale)):
            a = decode16(values[2 * lane])
            b = decode16(values[2 * lane + 1])
            s = e8m0(bits_f32(scale[lane]) >> 23 & 0xFF)
            idx = lane * 4
            for decode in (e4m3_ocp, e5m2_ocp):
                pair = fp8_code(a / s, decode) | fp8_code(b / s, decode) << 8
                for half in range(2):
                    want = old[lane] & ~(0xFFFF << 16 * half) | pair << 16 * half
                    expect(idx, out[idx] & 0xFFFFFFFF, want & 0xFFFFFFFF, op)
                    idx += 1
    else:
        fail("unknown conversion " + op)
    if problems:
        fail("; ".join(problems))
    print("check: cvt %s %s %d outputs PASS" % (op, chip, len(out)))


# ---------------------------------------------------------------------------
# Cross-lane operations of one wave (GFX9 ISA; LLVM's intrinsic docs).
# ---------------------------------------------------------------------------

DPP_CONTROLS = [0x1B, 0xE4, 0x101, 0x10F, 0x111, 0x118, 0x121, 0x12F, 0x130,
                0x134, 0x138, 0x13C, 0x140, 0x141, 0x142, 0x143]


def dpp_source(ctrl, lane):
    """The lane a GFX9 DPP control reads, or None: quad_perm, row_shl,
    row_shr, row_ror, wave_shl/rol/shr/ror, row_mirror, row_half_mirror,
    row_bcast:15 (lane 15 of each row into the next) and row_bcast:31
    (lane 31 into rows 2 and 3)."""
    row, pos = lane & ~15, lane & 15
    if ctrl <= 0xFF:
        return (lane & ~3) | (ctrl >> (2 * (lane & 3)) & 3)
    if 0x101 <= ctrl <= 0x10F:
        n = ctrl & 15
        return lane + n if pos + n < 16 else None
    if 0x111 <= ctrl <= 0x11F:
        n = ctrl & 15
        return lane - n if pos >= n else None
    if 0x121 <= ctrl <= 0x12F:
        return row | ((pos - (ctrl & 15)) & 15)
    return {0x130: lane + 1 if lane < 63 else None,
            0x134: (lane + 1) % 64,
            0x138: lane - 1 if lane > 0 else None,
            0x13C: (lane - 1) % 64,
            0x140: row | (15 - pos),
            0x141: (lane & ~7) | (7 - (lane & 7)),
            0x142: row - 1 if row else None,
            0x143: 31 if lane >= 32 else None}[ctrl]


def lane_results(wave, address, l):
    """What lane `l` of a full wave stores in test/Emulator/lanes.ll."""
    mask32 = 0xFFFFFFFF
    out = []
    for ctrl in DPP_CONTROLS:  # update.dpp, old = -1, all rows and banks
        src = dpp_source(ctrl, l)
        out.append(wave[src] if src is not None else mask32)
    src = dpp_source(0x111, l)  # bound_ctrl: a missing source gives 0
    out.append(wave[src] if src is not None else 0)
    # row_mask 0x5, bank_mask 0x3: other rows and banks keep old (-1).
    written = 0x5 >> (l // 16) & 1 and 0x3 >> (l % 16 // 4) & 1
    src = dpp_source(0x101, l)
    out.append(wave[src] if written and src is not None else mask32)
    out.append(wave[address[l] >> 2 & 63])  # ds_bpermute
    # ds_swizzle 0x80B1: quad permutation 1, 0, 3, 2.
    out.append(wave[(l & ~3) | (0xB1 >> (2 * (l & 3)) & 3)])
    # ds_swizzle 0x041F: and 0x1F, or 0, xor 1 within each 32 lanes.
    out.append(wave[((l & 0x1F) ^ 1) | (l & 32)])
    out.append(wave[5])  # readlane 5
    out.append(wave[0])  # readfirstlane
    ballot = sum(1 << i for i in range(64) if wave[i] & 1)
    out += [ballot & mask32, ballot >> 32]
    out.append(1000 if l == 7 else wave[l])  # writelane 1000 into lane 7
    permuted = [0] * 64  # ds_permute: the highest writing lane wins
    for i in range(64):
        permuted[address[i] >> 2 & 63] = wave[i]
    out.append(permuted[l])
    wide = [v << 32 | (v ^ 0xFFFF) for v in wave]
    src = dpp_source(0x111, l)  # update.dpp.i64 row_shr:1, old = -1
    value = wide[src] if src is not None else (1 << 64) - 1
    out += [value & mask32, value >> 32]
    out += [wide[9] & mask32, wide[9] >> 32]  # readlane.i64 9
    return out


def permlane_results(wave, l):
    """v_permlane16_swap vdst, vsrc with vdst = value, vsrc = value ^ 0x100:
    odd rows of vdst swap with even rows of vsrc; v_permlane32_swap: rows
    2-3 of vdst with rows 0-1 of vsrc. Each gives {vdst', vsrc'}."""
    vdst, vsrc = wave, [v ^ 0x100 for v in wave]
    out = [vsrc[l - 16], vsrc[l]] if l & 16 else [vdst[l], vdst[l + 16]]
    out += [vsrc[l - 32], vsrc[l]] if l & 32 else [vdst[l], vdst[l + 32]]
    return out


def transpose_results(src, l):
    """What lane `l` (of 128) stores in test/Emulator/lds-transpose-gfx950.ll:
    LDS holds the bytes of `src`; each read takes 8 bytes at its own
    permuted address, then the wave exchanges them (shared/AMD.md)."""
    lds = b"".join(struct.pack("<I", v) for v in src)

    def reads(mul, add):
        base = l // 64 * 64
        out = []
        for t in range(base, base + 64):
            a = (t * mul + add) % 128 * 8
            out.append(int.from_bytes(lds[a:a + 8], "little"))
        return out

    def part(value, index, bits):
        return value >> (bits * index) & ((1 << bits) - 1)

    i = l % 64
    # tr_b16: a 4x4 transpose of halfwords in each group of 4 lanes.
    r = reads(37, 11)
    g, k = i - i % 4, i % 4
    tr16 = sum(part(r[g + row], k, 16) << (16 * row) for row in range(4))
    # tr_b8: lane B+8p+b, byte b of lanes B+4p+0..3, then B+8+4p+0..3.
    r = reads(53, 5)
    block, p, b = i - i % 16, i // 8 % 2, i % 8
    sources = [block + 4 * p + j for j in range(4)]
    sources += [block + 8 + 4 * p + j for j in range(4)]
    tr8 = sum(part(r[s], b, 8) << (8 * j) for j, s in enumerate(sources))
    # tr_b4: lane H+16(G&1)+n, nibble n of group G's 8 lanes in dword G>>1.
    r = reads(91, 3)
    half, n = i - i % 32, i % 16
    tr4 = 0
    for group in (i // 16 % 2, 2 + i // 16 % 2):
        word = sum(part(r[half + 8 * group + j], n, 4) << (4 * j)
                   for j in range(8))
        tr4 |= word << (32 * (group >> 1))
    return [part(v, w, 32) for v in (tr16, tr8, tr4) for w in range(2)]


def check_lanes(args):
    files = [load(f) for f in args.files]
    if args.op == "transpose":
        lds_src = [v & 0xFFFFFFFF for v in files[0]]
        files = [[0] * (len(lds_src) // 2)] + files[1:]
    src, out = [v & 0xFFFFFFFF for v in files[0]], files[-1]
    per_lane = len(out) // len(src)
    problems = []
    for lane in range(len(src)):
        base = lane // 64 * 64
        wave = src[base:base + 64]
        if args.op == "lanes":
            address = files[1][base:base + 64]
            want = lane_results(wave, address, lane % 64)
        elif args.op == "transpose":
            want = transpose_results(lds_src, lane)
        else:
            want = permlane_results(wave, lane % 64)
        got = [v & 0xFFFFFFFF for v in out[lane * per_lane:
                                            (lane + 1) * per_lane]]
        if len(want) != len(got):
            fail("lane %d stores %d results, expected %d" % (
                lane, len(got), len(want)))
        for i, (g, w) in enumerate(zip(got, want)):
            if g != w and len(problems) < 5:
                problems.append("lane %d result %d is %#x, expected %#x" % (
                    lane, i, g, w))
    if problems:
        fail("; ".join(problems))
    print("check: %s %d lanes x %d results PASS" % (args.op, len(src),
                                                    per_lane))


# ---------------------------------------------------------------------------
# Transcendental instructions: the ISA specifies 1 ulp for v_exp_f32,
# v_log_f32, v_rcp_f32, v_rsq_f32 and v_sqrt_f32 and flushes f32 denormal
# inputs and outputs of exp, log, rcp and rsq; sin and cos take revolutions.
# ---------------------------------------------------------------------------

def ulp(x):
    x = abs(x)
    if x < 2.0 ** -126:
        return 2.0 ** -149
    return 2.0 ** (math.frexp(x)[1] - 24)


def flush(x):
    return math.copysign(0.0, x) if x != 0 and abs(x) < 2.0 ** -126 else x


def reference_math(op, x):
    """The exact value (before rounding to f32) the instruction approximates,
    and whether the result is a denormal the ISA flushes."""
    def guard(function, value):
        try:
            return function(value)
        except (ValueError, OverflowError, ZeroDivisionError):
            return None
    if op == "exp2":
        x = flush(x)
        if math.isnan(x):
            return math.nan
        v = guard(lambda t: 2.0 ** t, x)
        return math.inf if v is None else flush(to_f32(v)) if v < 2.0 ** -126 else v
    if op == "log":
        x = flush(x)
        if math.isnan(x) or x < 0:
            return math.nan
        return -math.inf if x == 0 else math.inf if math.isinf(x) else math.log2(x)
    if op == "rcp":
        x = flush(x)
        if x == 0:
            return math.copysign(math.inf, x)
        v = 1.0 / x
        return flush(v) if abs(to_f32(v)) < 2.0 ** -126 else v
    if op == "rsq":
        x = flush(x)
        if math.isnan(x) or x < 0:
            return math.nan
        if x == 0:
            return math.copysign(math.inf, x)
        return 1.0 / math.sqrt(x)
    if op == "sqrt":
        x = flush(x)
        if math.isnan(x) or x < 0:
            return math.nan
        return math.sqrt(x)
    if op == "fract":
        if math.isnan(x) or math.isinf(x):
            return math.nan
        return min(x - math.floor(x), to_f32(1.0 - 2.0 ** -24))
    if op in ("sin", "cos"):
        if math.isnan(x) or math.isinf(x):
            return math.nan
        return (math.sin if op == "sin" else math.cos)(2 * math.pi * x)
    fail("unknown op " + op)


MATH_OPS = ["exp2", "log", "rcp", "rsq", "sqrt", "fract", "sin", "cos"]


def check_math(args):
    inputs, out = load(args.files[0]), load(args.files[1])
    problems = []
    for lane, x in enumerate(inputs):
        for i, op in enumerate(MATH_OPS):
            got = out[lane * len(MATH_OPS) + i]
            want = reference_math(op, x)
            if not math.isnan(want) and math.isinf(to_f32(want)):
                want = math.copysign(math.inf, want)
            if op in ("sin", "cos") and abs(x) > 256:
                continue  # the ISA's valid range is |x| < 256 revolutions
            if math.isnan(want) or math.isinf(want) or want == 0:
                ok = same(got, want) or (want == 0 and got == 0)
            else:
                bound = 2 ** -20 if op in ("sin", "cos") else ulp(want)
                ok = abs(got - want) <= bound
            if not ok and len(problems) < 5:
                problems.append("%s(%r) is %r, expected %r" % (op, x, got,
                                                               want))
    if problems:
        fail("; ".join(problems))
    print("check: math %d inputs x %d ops PASS" % (len(inputs),
                                                   len(MATH_OPS)))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("random")
    r.add_argument("file")
    r.add_argument("--dtype", required=True, choices=sorted(DTYPES))
    r.add_argument("--count", type=int, required=True)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--values", default="normal")
    r.add_argument("--range", type=lambda text: tuple(map(int, text.split(","))),
                   default=(100, 150))
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
    c = sub.add_parser("check-cvt")
    c.add_argument("op")
    c.add_argument("files", nargs="+")
    c.add_argument("--chip", default="gfx950")
    l = sub.add_parser("check-lanes")
    l.add_argument("op", choices=["lanes", "permlane", "transpose"])
    l.add_argument("files", nargs="+")
    t = sub.add_parser("check-math")
    t.add_argument("files", nargs=2)
    args = parser.parse_args()
    {"random": command_random, "print": command_print,
     "check-mfma": check_mfma, "check-cvt": check_cvt,
     "check-lanes": check_lanes, "check-math": check_math}[args.command](args)


if __name__ == "__main__":
    main()
