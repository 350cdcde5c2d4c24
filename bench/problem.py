"""The MLA decode problem of DESIGN section 5: shapes, seeded inputs, the
fp8 and MXFP4 quantization, dequantization and the .npy file form.

The formats and the quantization follow lib/Runtime/Formats.cpp and
Problem.cpp bit for bit (tests/test_problem.py compares with mla-run's own
generator): the cache is drawn in bf16 and quantized from there, fp8 with one
per-tensor scale amax / 448, MXFP4 per block of 32 with an OCP E8M0 scale and
the scale tensor padded to 256 rows of stride 24 filled with NaN (0xFF).
Everything here runs on any torch device, the CPU included.
"""

import math
import os
from dataclasses import dataclass
from typing import List, Optional

import torch

QK_DIM = 576
V_DIM = 512
PE_DIM = QK_DIM - V_DIM
PACKED_ROW_BYTES = QK_DIM // 2
MX_BLOCK = 32
MX_SCALES_PER_ROW = QK_DIM // MX_BLOCK
FP8_MAX = 448.0
E8M0_NAN = 0xFF
# Problem.cpp pads the scale tensor to this many rows and row stride.
SCALE_ROW_GRANULE = 256
SCALE_STRIDE = 24
MAX_Q_LEN = 4

FORMATS = ("bf16", "fp8", "mxfp4")


@dataclass(frozen=True)
class Shape:
    """One benchmark point: every sequence has q_len queries, kv_len keys."""
    batch: int
    q_len: int
    kv_len: int
    heads: int

    @property
    def name(self) -> str:
        return "%d,%d,%d,%d" % (self.batch, self.q_len, self.kv_len,
                                self.heads)

    @property
    def rows(self) -> int:
        """Rows of one sequence's query tile: M = q_len * heads."""
        return self.q_len * self.heads


# DESIGN section 6: (batch, q_len, kv_len, heads). The ranked set is the
# leaderboard's (its geomean ranks); the generality set, other head counts
# and q_len as DeepSeek serving uses them.
RANKED_SHAPES = [Shape(b, 1, l, 16) for b in (4, 32, 64, 256)
                 for l in (1024, 8192)]
GENERALITY_SHAPES = [
    Shape(4, 1, 1024, 32),
    Shape(4, 4, 8192, 32),
    Shape(32, 1, 8192, 16),
    Shape(32, 4, 1024, 16),
    Shape(32, 1, 1024, 32),
    Shape(32, 4, 8192, 32),
    Shape(128, 1, 8192, 16),
    Shape(128, 4, 8192, 16),
]
NAMED_SHAPES = {
    "ranked": RANKED_SHAPES,
    "generality": GENERALITY_SHAPES,
    "all": RANKED_SHAPES + [s for s in GENERALITY_SHAPES
                            if s not in RANKED_SHAPES],
}

# Small shapes for runs on the CPU: ragged edges, q_len > kv_len, q_len 1..4.
SMALL_SHAPES = [
    Shape(2, 1, 100, 16),
    Shape(3, 3, 67, 32),
    Shape(2, 4, 3, 16),
    Shape(1, 2, 130, 32),
]


def parse_shapes(text: str) -> List[Shape]:
    """'ranked', 'generality', 'all' (both), 'small', or
    'B,Q,L,H;B,Q,L,H;...'."""
    if text in NAMED_SHAPES:
        return list(NAMED_SHAPES[text])
    if text == "small":
        return list(SMALL_SHAPES)
    shapes = []
    for item in text.split(";"):
        fields = [int(f) for f in item.split(",")]
        if len(fields) != 4:
            raise ValueError("shape '%s': expected B,Q,L,H" % item)
        shape = Shape(*fields)
        if not (1 <= shape.q_len <= MAX_Q_LEN and shape.batch >= 1 and
                shape.kv_len >= 0 and shape.heads % 16 == 0 and
                16 <= shape.heads <= 128):
            raise ValueError("shape '%s': needs batch >= 1, q_len 1..4, "
                             "kv_len >= 0, heads a multiple of 16 up to 128" %
                             item)
        shapes.append(shape)
    return shapes


# Number formats (Formats.cpp)


def fp8_e4m3fn_values() -> torch.Tensor:
    """float64 value of each fp8 e4m3fn code (0x7F and 0xFF are NaN)."""
    values = []
    for code in range(256):
        sign = -1.0 if code & 0x80 else 1.0
        exponent, mantissa = (code >> 3) & 0xF, code & 0x7
        if exponent == 0xF and mantissa == 0x7:
            values.append(float("nan"))
        elif exponent == 0:
            values.append(sign * math.ldexp(mantissa, -9))
        else:
            values.append(sign * math.ldexp(8 + mantissa, exponent - 10))
    return torch.tensor(values, dtype=torch.float64)


FP4_MAGNITUDES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)


def fp4_e2m1_values() -> torch.Tensor:
    """float64 value of each fp4 e2m1 code (low nibble = even element)."""
    return torch.tensor(list(FP4_MAGNITUDES) + [-m for m in FP4_MAGNITUDES],
                        dtype=torch.float64)


def _round_to_codes(magnitude: torch.Tensor,
                    grid: torch.Tensor) -> torch.Tensor:
    """Index of the nearest value of the increasing `grid` to each
    `magnitude` (>= 0, <= grid[-1]), ties to the even index: round to nearest
    even for codes whose order is their value's order."""
    upper = torch.searchsorted(grid, magnitude).clamp(max=grid.numel() - 1)
    lower = (upper - 1).clamp(min=0)
    below, above = magnitude - grid[lower], grid[upper] - magnitude
    take_upper = (above < below) | ((above == below) & (upper % 2 == 0))
    return torch.where(take_upper, upper, lower)


def encode_fp8_e4m3fn(values: torch.Tensor) -> torch.Tensor:
    """floatToFp8E4M3FN: round to nearest even, saturate at 448, NaN to
    0x7F with the sign."""
    x = values.to(torch.float64)
    grid = fp8_e4m3fn_values().to(x.device)[:0x7F]  # 0 .. 448, increasing
    magnitude = x.abs().clamp(max=FP8_MAX)
    codes = _round_to_codes(torch.nan_to_num(magnitude, nan=0.0), grid)
    codes = torch.where(torch.isnan(x), torch.full_like(codes, 0x7F), codes)
    sign = torch.signbit(x).to(torch.int64) << 7
    return (codes | sign).to(torch.uint8)


def encode_fp4_e2m1(values: torch.Tensor) -> torch.Tensor:
    """floatToFp4E2M1: round to nearest even, saturate at 6, NaN to 0. One
    code per uint8 (not packed)."""
    x = values.to(torch.float64)
    grid = torch.tensor(FP4_MAGNITUDES, dtype=torch.float64, device=x.device)
    nan = torch.isnan(x)
    codes = _round_to_codes(torch.nan_to_num(x.abs(), nan=0.0).clamp(max=6.0),
                            grid)
    sign = torch.signbit(x).to(torch.int64) << 3
    return torch.where(nan, torch.zeros_like(codes), codes | sign).to(
        torch.uint8)


def mxfp4_block_scale(amax: torch.Tensor) -> torch.Tensor:
    """mxfp4BlockScale: E8M0 code of 2^(floor(log2 amax) - 2), so that the
    block's largest value lands in [4, 8) before rounding to fp4."""
    _, exponent = torch.frexp(amax.to(torch.float64))
    shared = (exponent.to(torch.int64) - 1 - 2).clamp(-127, 127)
    codes = shared + 127
    codes = torch.where(amax == 0, torch.zeros_like(codes), codes)
    codes = torch.where(torch.isnan(amax), torch.full_like(codes, E8M0_NAN),
                        codes)
    return codes.to(torch.uint8)


def pow2(exponent: torch.Tensor) -> torch.Tensor:
    """float64 2^exponent for integer exponents in [-1022, 1023], built from
    the bits (exact; pow and ldexp may round through float32)."""
    bits = (exponent.to(torch.int64) + 1023) << 52
    return bits.view(torch.float64)


def e8m0_values(codes: torch.Tensor) -> torch.Tensor:
    """float64 2^(code - 127); 0xFF is NaN."""
    values = pow2(codes.to(torch.int64) - 127)
    return torch.where(codes == E8M0_NAN,
                       torch.full_like(values, float("nan")), values)


# The problem


@dataclass
class Problem:
    """Inputs of one MLA decode call, in the kernels' data contract."""
    fmt: str
    heads: int
    q: torch.Tensor  # [total_q, H, 576] bf16
    kv: torch.Tensor  # [rows, 576] bf16 or uint8 (fp8), [rows, 288] uint8
    kv_scale: Optional[torch.Tensor]  # fp8: [1] f32; mxfp4: [rows', stride]
    qo_indptr: torch.Tensor  # [B + 1] int32
    kv_indptr: torch.Tensor  # [B + 1] int32
    sm_scale: float
    q_lens: List[int]
    kv_lens: List[int]

    @property
    def batch(self) -> int:
        return len(self.q_lens)

    @property
    def total_q(self) -> int:
        return self.q.shape[0]

    @property
    def total_kv(self) -> int:
        return sum(self.kv_lens)

    @property
    def device(self) -> torch.device:
        return self.q.device

    def kv_row_bytes(self) -> int:
        """Bytes of one KV row a kernel must read, scales included."""
        if self.fmt == "bf16":
            return 2 * QK_DIM
        if self.fmt == "fp8":
            return QK_DIM
        return PACKED_ROW_BYTES + MX_SCALES_PER_ROW

    def essential_bytes(self) -> int:
        """Problem::essentialBytes: each input read once, the output written
        once (only the covered KV rows and their 18 scales a row)."""
        total = (self.q.numel() * 2 + self.total_kv * self.kv_row_bytes() +
                 2 * (self.batch + 1) * 4 + self.total_q * self.heads *
                 V_DIM * 2)
        if self.fmt == "fp8":
            total += 4
        return total

    def flops(self) -> int:
        """Multiply-adds of QK (576) and PV (512) over the visible keys,
        two flops each."""
        visible = 0
        for q_len, kv_len in zip(self.q_lens, self.kv_lens):
            for j in range(q_len):
                visible += max(0, min(kv_len, kv_len - q_len + 1 + j))
        return 2 * visible * self.heads * (QK_DIM + V_DIM)

    def storage_bytes(self) -> int:
        """Device bytes of the inputs (for sizing the rotation)."""
        total = self.q.numel() * 2 + self.kv.numel() * self.kv.element_size()
        if self.kv_scale is not None:
            total += self.kv_scale.numel() * self.kv_scale.element_size()
        return total + self.total_q * self.heads * V_DIM * 2

    def clone(self) -> "Problem":
        """An independent copy of the device buffers (for input rotation)."""
        return Problem(self.fmt, self.heads, self.q.clone(), self.kv.clone(),
                       None if self.kv_scale is None else self.kv_scale.clone(),
                       self.qo_indptr.clone(), self.kv_indptr.clone(),
                       self.sm_scale, list(self.q_lens), list(self.kv_lens))


# Cache rows encoded at once: the float64 temporaries of a whole
# (256, 8192) cache take more memory than an 80 GB GPU has.
ENCODE_ROWS = 1 << 16


def _by_rows(rows: int, encode) -> torch.Tensor:
    """encode(begin, end) of every range of ENCODE_ROWS rows, concatenated."""
    parts = [encode(begin, min(begin + ENCODE_ROWS, rows))
             for begin in range(0, rows, ENCODE_ROWS)] or [encode(0, 0)]
    return parts[0] if len(parts) == 1 else torch.cat(parts)


def quantize_cache(cache: torch.Tensor, fmt: str):
    """(kv, kv_scale) of a bf16 cache [rows, 576] in `fmt`."""
    rows = cache.shape[0]
    if fmt == "bf16":
        return cache.contiguous(), None
    if fmt == "fp8":
        amax = (cache.abs().max().to(torch.float32) if rows else
                torch.zeros((), device=cache.device))
        scale = (amax / FP8_MAX if amax > 0 else
                 torch.ones((), device=cache.device)).to(torch.float32)
        # The float division of Problem.cpp, then the exact encoding.
        kv = _by_rows(rows, lambda begin, end: encode_fp8_e4m3fn(
            cache[begin:end].to(torch.float32) / scale))
        return kv, scale.reshape(1)
    if fmt != "mxfp4":
        raise ValueError("unknown KV format '%s'" % fmt)
    blocks = cache.reshape(rows, MX_SCALES_PER_ROW, MX_BLOCK)
    codes = mxfp4_block_scale(
        blocks.abs().amax(dim=2).to(torch.float32) if rows else
        blocks.new_zeros(0, MX_SCALES_PER_ROW, dtype=torch.float32))

    def encode(begin, end):
        # Dividing by a power of two is exact.
        powers = pow2(127 - codes[begin:end].to(torch.int64))
        scaled = blocks[begin:end].to(torch.float64) * powers[:, :, None]
        nibbles = encode_fp4_e2m1(scaled).reshape(end - begin, QK_DIM)
        return nibbles[:, 0::2] | (nibbles[:, 1::2] << 4)
    kv = _by_rows(rows, encode)
    scale_rows = -(-rows // SCALE_ROW_GRANULE) * SCALE_ROW_GRANULE
    scales = torch.full((scale_rows, SCALE_STRIDE), E8M0_NAN, dtype=torch.uint8,
                        device=cache.device)
    scales[:rows, :MX_SCALES_PER_ROW] = codes
    return kv.contiguous(), scales


def generate(shape_or_lens, fmt: str, seed: int, device,
             sm_scale: Optional[float] = None) -> Problem:
    """Seeded randn inputs in the problem's form. `shape_or_lens` is a Shape
    or (heads, q_lens, kv_lens) for ragged batches."""
    if isinstance(shape_or_lens, Shape):
        heads = shape_or_lens.heads
        q_lens = [shape_or_lens.q_len] * shape_or_lens.batch
        kv_lens = [shape_or_lens.kv_len] * shape_or_lens.batch
    else:
        heads, q_lens, kv_lens = shape_or_lens
        q_lens, kv_lens = list(q_lens), list(kv_lens)
    generator = torch.Generator(device=device)
    generator.manual_seed(seed)
    total_q, total_kv = sum(q_lens), sum(kv_lens)
    q = torch.randn(total_q, heads, QK_DIM, generator=generator,
                    device=device).to(torch.bfloat16)
    cache = torch.randn(total_kv, QK_DIM, generator=generator,
                        device=device).to(torch.bfloat16)
    kv, kv_scale = quantize_cache(cache, fmt)
    return Problem(fmt, heads, q, kv, kv_scale,
                   _indptr(q_lens, device), _indptr(kv_lens, device),
                   1.0 / math.sqrt(QK_DIM) if sm_scale is None else sm_scale,
                   q_lens, kv_lens)


def _indptr(lengths: List[int], device) -> torch.Tensor:
    offsets = [0]
    for length in lengths:
        offsets.append(offsets[-1] + length)
    return torch.tensor(offsets, dtype=torch.int32, device=device)


def dequantize(problem: Problem, dtype=torch.float64) -> torch.Tensor:
    """The covered KV rows [total_kv, 576] as `dtype` values. Exact for
    float64 and float32; bf16 and fp8 scales round for bf16."""
    rows = problem.total_kv
    kv = problem.kv[:rows]
    if problem.fmt == "bf16":
        return kv.to(dtype)
    if problem.fmt == "fp8":
        table = fp8_e4m3fn_values().to(device=kv.device)
        values = table[kv.to(torch.int64)] * problem.kv_scale.to(torch.float64)
        return values.to(dtype)
    table = fp4_e2m1_values().to(device=kv.device)
    low, high = table[(kv & 0xF).to(torch.int64)], table[(kv >> 4).to(
        torch.int64)]
    values = torch.stack((low, high), dim=2).reshape(rows, QK_DIM)
    scales = e8m0_values(problem.kv_scale[:rows, :MX_SCALES_PER_ROW])
    values = values.reshape(rows, MX_SCALES_PER_ROW, MX_BLOCK) * scales[:, :,
                                                                        None]
    return values.reshape(rows, QK_DIM).to(dtype)


# The .npy file form of `mla-run --inputs DIR`


def _bits(tensor: torch.Tensor):
    """A NumPy array of the tensor's raw bits (bf16 as uint16)."""
    host = tensor.detach().cpu().contiguous()
    if host.dtype == torch.bfloat16:
        return host.view(torch.int16).numpy().view("<u2")
    return host.numpy()


def save_inputs(problem: Problem, directory: str) -> None:
    """Writes q.npy, kv.npy, kv_scale.npy, qo_indptr.npy, kv_indptr.npy."""
    import numpy

    os.makedirs(directory, exist_ok=True)
    numpy.save(os.path.join(directory, "q.npy"), _bits(problem.q))
    kv = _bits(problem.kv[:problem.total_kv])
    numpy.save(os.path.join(directory, "kv.npy"),
               kv.reshape(kv.shape[0], 1, kv.shape[1]))
    scale_path = os.path.join(directory, "kv_scale.npy")
    if problem.kv_scale is not None:
        numpy.save(scale_path, _bits(problem.kv_scale))
    elif os.path.exists(scale_path):
        os.remove(scale_path)
    for name in ("qo_indptr", "kv_indptr"):
        numpy.save(os.path.join(directory, name + ".npy"),
                   _bits(getattr(problem, name)))


def load_inputs(directory: str, fmt: str, device) -> Problem:
    """Reads the files save_inputs (or `mla-run --save-inputs`) writes."""
    import numpy

    def read(name):
        return numpy.load(os.path.join(directory, name + ".npy"))

    q_bits = read("q")
    q = torch.from_numpy(q_bits.view("<i2").copy()).view(torch.bfloat16)
    kv_array = read("kv")
    kv_array = kv_array.reshape(kv_array.shape[0], kv_array.shape[-1])
    if fmt == "bf16":
        kv = torch.from_numpy(kv_array.view("<i2").copy()).view(torch.bfloat16)
    else:
        kv = torch.from_numpy(kv_array.view("u1").copy())
    kv_scale = None
    if fmt == "fp8":
        kv_scale = torch.from_numpy(read("kv_scale").astype("<f4"))
    elif fmt == "mxfp4":
        kv_scale = torch.from_numpy(read("kv_scale").view("u1").copy())
    qo = [int(v) for v in read("qo_indptr")]
    kvi = [int(v) for v in read("kv_indptr")]
    q_lens = [qo[i + 1] - qo[i] for i in range(len(qo) - 1)]
    kv_lens = [kvi[i + 1] - kvi[i] for i in range(len(kvi) - 1)]
    return Problem(fmt, q.shape[1], q.to(device), kv.to(device),
                   None if kv_scale is None else kv_scale.to(device),
                   _indptr(q_lens, device), _indptr(kv_lens, device),
                   1.0 / math.sqrt(QK_DIM), q_lens, kv_lens)
