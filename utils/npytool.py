#!/usr/bin/env python3
"""Random .npy inputs and float64 checks for the example kernels, with the
Python standard library only (no NumPy).

  npytool.py random FILE --dtype f32|bf16 --shape D0,D1,... [--seed S]
                   [--scale X]
      Normal values with standard deviation X (default 1) drawn from
      random.Random(S), rounded to f32, and for bf16 on to bf16 with round to
      nearest even, stored as uint16 bits.
  npytool.py check-softmax X.npy Y.npy [--bf16]
      Y [rows, cols] f32 against the softmax of each row of X [rows, cols],
      f32 (bf16 bits with --bf16).
  npytool.py check-gemm A.npy B.npy C.npy
      C [M, N] f32 against A [M, K] x B [K, N], bf16 bits.
  npytool.py random-fp8 FILE --shape D0,D1,... [--seed S]
      Random OCP e4m3 bytes (uint8) of magnitude 2^-4 to 2^4, no NaN.
  npytool.py check-fp8-matmul A.npy B.npy C.npy --a-scale X --b-scale Y
      C [M, N] f32 against X * Y * A [M, K] times the transpose of B [N, K],
      both e4m3 bytes.
  npytool.py random-mxfp4 PACKED.npy SCALES.npy --rows R --k K [--seed S]
      Random MXFP4 rows: bytes [R, K/2] (two E2M1 values each, the low
      nibble the even element) and E8M0 scales [R, K/32] from 2^-4 to 2^4,
      both uint8.
  npytool.py check-mx-matmul A.npy B.npy B_SCALES.npy C.npy [--a-scales S.npy]
      C [M, N] f32 against A [M, K] (bf16 bits; MXFP4 bytes with
      --a-scales) times the transpose of MXFP4 B [N, K].
  npytool.py check-attention Q.npy K.npy V.npy O.npy --scale S [--causal]
      O [heads, n, d] bf16 against softmax(S * Q K^T) V per head of Q, K, V
      [heads, n, d] bf16 (key j of query i masked where j > i with
      --causal), within 1e-2 (P and O are rounded to bf16).
  npytool.py check-scale X.npy Y.npy --by A
      Y [n] f32 against A * X [n] f32.
  npytool.py check-add X.npy Y.npy Z.npy
      Z [n] f32 against X + Y [n] f32.
  npytool.py check-layer-norm X.npy W.npy B.npy Y.npy --eps E
      Y [rows, cols] f32 against each row of X [rows, cols] normalized to
      mean 0 and variance 1 (variance + E under the root), times W [cols]
      plus B [cols].

A check prints one line like mla-run's,
  check: rel_fro=1.2e-07 max_abs=3.0e-08 outside_tol=0/7400 nan=0 PASS
and exits 1 unless every element is within atol + rtol * |ref| and the
relative Frobenius error is below MAX_REL_FRO. A NaN always fails: mla-run
fills new float buffers with NaN, so it marks an element nobody wrote.
"""
import argparse
import ast
import math
import random
import struct
import sys

# The kernels compute in f32 from inputs exact in f32 (products of bf16
# values are exact), so only f32 sums and exp round: errors stay below 1e-5.
# Rounding anything to bf16 (relative error up to 2^-9) fails.
RTOL = 1e-4
ATOL = 1e-4
MAX_REL_FRO = 1e-5

CODES = {"<f4": "f", "<u2": "H", "|u1": "B"}

# E2M1 codes 0..15 (sign in bit 3).
E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0,
        -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0]


def fail(message):
    sys.exit("npytool: error: " + message)


def save(path, descr, shape, values):
    """Writes a version 1.0 .npy with the header layout mla-run writes."""
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, dims)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    data = struct.pack("<%d%s" % (len(values), CODES[descr]), *values)
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
                header.encode("latin1") + data)


def load(path, descr, rank):
    """Returns (shape, values) of a C-order .npy of `descr` and `rank`."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY" or data[6] not in (1, 2):
        fail("%s: not a version 1 or 2 .npy file" % path)
    size = 2 if data[6] == 1 else 4
    offset = 8 + size + int.from_bytes(data[8:8 + size], "little")
    header = ast.literal_eval(data[8 + size:offset].decode("latin1"))
    shape = tuple(header["shape"])
    fortran = header["fortran_order"]
    if header["descr"] != descr or fortran or len(shape) != rank:
        fail("%s: %s %s%s, expected %s of rank %d" % (
            path, header["descr"], shape,
            " (Fortran order)" if fortran else "", descr, rank))
    count = math.prod(shape)
    if len(data) - offset != count * struct.calcsize(CODES[descr]):
        fail("%s: data does not match shape %s" % (path, shape))
    return shape, struct.unpack_from("<%d%s" % (count, CODES[descr]), data,
                                     offset)


def to_f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def to_bf16(x):
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16


def from_bf16(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def check(out, ref, atol=ATOL, rtol=RTOL, max_rel_fro=MAX_REL_FRO):
    """Prints the summary line; returns whether the output passes."""
    err2 = ref2 = max_abs = 0.0
    outside = nans = 0
    for y, r in zip(out, ref):
        e = abs(y - r)
        nans += math.isnan(y)
        # Written so that a NaN counts as outside.
        outside += not e <= atol + rtol * abs(r)
        max_abs = e if math.isnan(e) or e > max_abs else max_abs
        err2 += e * e
        ref2 += r * r
    rel_fro = math.sqrt(err2 / ref2) if ref2 > 0 else math.sqrt(err2)
    passed = outside == 0 and nans == 0 and rel_fro < max_rel_fro
    print("check: rel_fro=%.1e max_abs=%.1e outside_tol=%d/%d nan=%d %s" % (
        abs(rel_fro), abs(max_abs), outside, len(ref), nans,
        "PASS" if passed else "FAIL"))
    return passed


def random_array(args):
    shape = [int(d) for d in args.shape.split(",")]
    rng = random.Random(args.seed)
    values = [to_f32(rng.gauss(0.0, args.scale))
              for _ in range(math.prod(shape))]
    if args.dtype == "bf16":
        save(args.file, "<u2", shape, [to_bf16(v) for v in values])
    else:
        save(args.file, "<f4", shape, values)
    return True


def softmax_rows(x, rows, cols):
    """The float64 softmax of each row of x [rows, cols], flattened."""
    out = []
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        top = max(row)
        e = [math.exp(v - top) for v in row]
        total = math.fsum(e)
        out += [v / total for v in e]
    return out


def check_softmax(args):
    if args.bf16:
        (rows, cols), bits = load(args.x, "<u2", 2)
        x = [from_bf16(v) for v in bits]
    else:
        (rows, cols), x = load(args.x, "<f4", 2)
    shape, y = load(args.y, "<f4", 2)
    if shape != (rows, cols):
        fail("%s: shape %s, expected %s" % (args.y, shape, (rows, cols)))
    return check(y, softmax_rows(x, rows, cols))


def product(a, b, m, n, k, b_strides, scale=1.0):
    """scale * A [M, K] times B [K, N] in float64, flattened; element
    (p, j) of B is b[p * b_strides[0] + j * b_strides[1]] ((1, K) for a B
    stored transposed, [N, K])."""
    row, col = b_strides
    return [scale * math.fsum(a[i * k + p] * b[p * row + j * col]
                              for p in range(k))
            for i in range(m) for j in range(n)]


def check_gemm(args):
    (m, k), a = load(args.a, "<u2", 2)
    (k2, n), b = load(args.b, "<u2", 2)
    shape, c = load(args.c, "<f4", 2)
    if k2 != k or shape != (m, n):
        fail("shapes %s x %s -> %s do not fit" % ((m, k), (k2, n), shape))
    a = [from_bf16(v) for v in a]
    b = [from_bf16(v) for v in b]
    return check(c, product(a, b, m, n, k, b_strides=(n, 1)))


def random_mxfp4(args):
    """Random MXFP4 rows: packed bytes [rows, k/2] (low nibble the even
    element) and E8M0 scales [rows, k/32] between 2^-4 and 2^4."""
    if args.k % 32:
        fail("--k %d is not a multiple of 32" % args.k)
    rng = random.Random(args.seed)
    save(args.packed, "|u1", (args.rows, args.k // 2),
         [rng.randrange(256) for _ in range(args.rows * args.k // 2)])
    save(args.scales, "|u1", (args.rows, args.k // 32),
         [127 + rng.randrange(-4, 5) for _ in range(args.rows * args.k // 32)])
    return True


def mxfp4_rows(packed_path, scales_path):
    """The float values [rows, k] of MXFP4 rows, flattened, and the shape."""
    (rows, half), packed = load(packed_path, "|u1", 2)
    shape, scales = load(scales_path, "|u1", 2)
    k = 2 * half
    if shape != (rows, k // 32) or k % 32:
        fail("%s: shape %s, expected %s" % (scales_path, shape,
                                             (rows, k // 32)))
    values = []
    for r in range(rows):
        for c in range(k):
            byte = packed[r * half + c // 2]
            nibble = byte >> 4 if c % 2 else byte & 15
            code = scales[r * (k // 32) + c // 32]
            scale = math.nan if code == 255 else 2.0 ** (code - 127)
            values.append(E2M1[nibble] * scale)
    return (rows, k), values


def e4m3(byte):
    """The value of an OCP e4m3 byte (0x7F and 0xFF are NaN)."""
    sign = -1.0 if byte & 0x80 else 1.0
    exponent, mantissa = (byte >> 3) & 15, byte & 7
    if exponent == 15 and mantissa == 7:
        return math.nan
    if exponent == 0:
        return sign * mantissa * 2.0 ** -9
    return sign * (1 + mantissa / 8) * 2.0 ** (exponent - 7)


def random_fp8(args):
    """Random e4m3 bytes of magnitude 2^-4 to 2^4 (no NaN)."""
    shape = [int(d) for d in args.shape.split(",")]
    rng = random.Random(args.seed)
    save(args.file, "|u1", shape,
         [rng.randrange(2) << 7 | rng.randrange(3 << 3, 11 << 3 | 8)
          for _ in range(math.prod(shape))])
    return True


def check_fp8_matmul(args):
    """C [M, N] f32 against a_scale * b_scale * A [M, K] times the
    transpose of B [N, K], both e4m3."""
    (m, k), a = load(args.a, "|u1", 2)
    (n, k2), b = load(args.b, "|u1", 2)
    shape, c = load(args.c, "<f4", 2)
    if k2 != k or shape != (m, n):
        fail("shapes %s x %s^T -> %s do not fit" % ((m, k), (n, k2), shape))
    a = [e4m3(v) for v in a]
    b = [e4m3(v) for v in b]
    return check(c, product(a, b, m, n, k, b_strides=(1, k),
                            scale=args.a_scale * args.b_scale))


def check_mx_matmul(args):
    """C [M, N] f32 against A [M, K] (bf16, or MXFP4 with --a-scales) times
    the transpose of MXFP4 B [N, K]."""
    if args.a_scales:
        (m, k), a = mxfp4_rows(args.a, args.a_scales)
    else:
        (m, k), bits = load(args.a, "<u2", 2)
        a = [from_bf16(v) for v in bits]
    (n, k2), b = mxfp4_rows(args.b, args.b_scales)
    shape, c = load(args.c, "<f4", 2)
    if k2 != k or shape != (m, n):
        fail("shapes %s x %s^T -> %s do not fit" % ((m, k), (n, k2), shape))
    return check(c, product(a, b, m, n, k, b_strides=(1, k)))


def check_attention(args):
    shape, q = load(args.q, "<u2", 3)
    heads, n, d = shape
    for path in (args.k, args.v, args.o):
        if load(path, "<u2", 3)[0] != shape:
            fail("%s: shape does not match q's %s" % (path, shape))
    q, k, v, o = ([from_bf16(x) for x in load(path, "<u2", 3)[1]]
                  for path in (args.q, args.k, args.v, args.o))
    ref = []
    for h in range(heads):
        rows = [h * n * d + i * d for i in range(n)]
        for i in range(n):
            keys = range(i + 1 if args.causal else n)
            s = [args.scale * math.fsum(q[rows[i] + c] * k[rows[j] + c]
                                        for c in range(d)) for j in keys]
            top = max(s)
            p = [math.exp(x - top) for x in s]
            total = math.fsum(p)
            ref += [math.fsum(p[j] * v[rows[j] + c] for j in keys) / total
                    for c in range(d)]
    # P is rounded to bf16 before its product with V, O to bf16 at the end.
    return check(o, ref, atol=1e-2, rtol=1e-2, max_rel_fro=1e-2)


def check_scale(args):
    (n,), x = load(args.x, "<f4", 1)
    shape, y = load(args.y, "<f4", 1)
    if shape != (n,):
        fail("%s: shape %s, expected %s" % (args.y, shape, (n,)))
    return check(y, [args.by * v for v in x])


def check_add(args):
    (n,), x = load(args.x, "<f4", 1)
    shape_y, y = load(args.y, "<f4", 1)
    shape_z, z = load(args.z, "<f4", 1)
    if shape_y != (n,) or shape_z != (n,):
        fail("shapes %s + %s -> %s do not fit" % ((n,), shape_y, shape_z))
    return check(z, [a + b for a, b in zip(x, y)])


def check_layer_norm(args):
    (rows, cols), x = load(args.x, "<f4", 2)
    _, w = load(args.w, "<f4", 1)
    _, b = load(args.b, "<f4", 1)
    shape, y = load(args.y, "<f4", 2)
    if shape != (rows, cols) or len(w) != cols or len(b) != cols:
        fail("shapes do not fit: x %s, w %d, b %d, y %s" % (
            (rows, cols), len(w), len(b), shape))
    ref = []
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        mean = math.fsum(row) / cols
        var = math.fsum((v - mean) ** 2 for v in row) / cols
        std = math.sqrt(var + args.eps)
        ref += [(v - mean) / std * w[i] + b[i] for i, v in enumerate(row)]
    return check(y, ref)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    rand = sub.add_parser("random")
    rand.add_argument("file")
    rand.add_argument("--dtype", choices=["f32", "bf16"], required=True)
    rand.add_argument("--shape", required=True)
    rand.add_argument("--seed", type=int, default=0)
    rand.add_argument("--scale", type=float, default=1.0)
    rand.set_defaults(run=random_array)
    softmax = sub.add_parser("check-softmax")
    softmax.add_argument("x")
    softmax.add_argument("y")
    softmax.add_argument("--bf16", action="store_true")
    softmax.set_defaults(run=check_softmax)
    gemm = sub.add_parser("check-gemm")
    gemm.add_argument("a")
    gemm.add_argument("b")
    gemm.add_argument("c")
    gemm.set_defaults(run=check_gemm)
    mxfp4 = sub.add_parser("random-mxfp4")
    mxfp4.add_argument("packed")
    mxfp4.add_argument("scales")
    mxfp4.add_argument("--rows", type=int, required=True)
    mxfp4.add_argument("--k", type=int, required=True)
    mxfp4.add_argument("--seed", type=int, default=0)
    mxfp4.set_defaults(run=random_mxfp4)
    fp8 = sub.add_parser("random-fp8")
    fp8.add_argument("file")
    fp8.add_argument("--shape", required=True)
    fp8.add_argument("--seed", type=int, default=0)
    fp8.set_defaults(run=random_fp8)
    fp8_matmul = sub.add_parser("check-fp8-matmul")
    for name in ("a", "b", "c"):
        fp8_matmul.add_argument(name)
    fp8_matmul.add_argument("--a-scale", type=float, required=True)
    fp8_matmul.add_argument("--b-scale", type=float, required=True)
    fp8_matmul.set_defaults(run=check_fp8_matmul)
    mx_matmul = sub.add_parser("check-mx-matmul")
    mx_matmul.add_argument("a")
    mx_matmul.add_argument("b")
    mx_matmul.add_argument("b_scales")
    mx_matmul.add_argument("c")
    mx_matmul.add_argument("--a-scales")
    mx_matmul.set_defaults(run=check_mx_matmul)
    attention = sub.add_parser("check-attention")
    for name in ("q", "k", "v", "o"):
        attention.add_argument(name)
    attention.add_argument("--scale", type=float, required=True)
    attention.add_argument("--causal", action="store_true")
    attention.set_defaults(run=check_attention)
    scale = sub.add_parser("check-scale")
    scale.add_argument("x")
    scale.add_argument("y")
    scale.add_argument("--by", type=float, required=True)
    scale.set_defaults(run=check_scale)
    add = sub.add_parser("check-add")
    for name in ("x", "y", "z"):
        add.add_argument(name)
    add.set_defaults(run=check_add)
    norm = sub.add_parser("check-layer-norm")
    for name in ("x", "w", "b", "y"):
        norm.add_argument(name)
    norm.add_argument("--eps", type=float, required=True)
    norm.set_defaults(run=check_layer_norm)
    args = parser.parse_args()
    sys.exit(0 if args.run(args) else 1)


if __name__ == "__main__":
    main()
