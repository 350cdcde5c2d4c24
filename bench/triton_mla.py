"""The Triton peer: split-KV flash decoding for MLA decode (DESIGN section 5).

One program of the partial kernel takes BLOCK_M rows of one sequence's
M = q_len * heads query rows (all query tokens of the sequence at once:
row r is query r // heads, head r % heads) and one of `num_splits`
consecutive, BLOCK_N-aligned ranges of its KV rows. Each KV tile is loaded
once, dequantized in registers (fp8: exact convert, the per-tensor scale
folded into the softmax scale and the output; MXFP4: nibbles decoded with
integer operations and multiplied by the E8M0 block scale) and used as K (all
576 columns) and V (the first 512): s = Q K^T, an online softmax step, and
acc += P V, both products through `tl.dot`. A split writes its normalized
output and base-2 log-sum-exp; the combine kernel merges the splits of each
row. With one split the partial kernel writes the bf16 output itself and the
combine is not launched.

576 and 288 are not powers of two, so tiles split the 576 columns into the
512 "nope" columns and the 64 "rope" columns. MXFP4 tiles stay in the packed
order: the low nibbles (even columns) and the high nibbles (odd columns) are
separate tiles, and Q is loaded de-interleaved to match, so no shuffle is
needed; the output's even and odd columns are stored separately.
"""

import torch
import triton
import triton.language as tl

from problem import PACKED_ROW_BYTES, QK_DIM, V_DIM, generate

FORMAT_CODES = {"bf16": 0, "fp8": 1, "mxfp4": 2}
# The combine kernel reads one row's split results as one tile.
MAX_SPLITS = 64
COMBINE_ROWS = 8
# Kernels read module globals only as constexprs.
QK_COLS = tl.constexpr(QK_DIM)
V_COLS = tl.constexpr(V_DIM)
PACKED_COLS = tl.constexpr(PACKED_ROW_BYTES)


@triton.jit
def _fp4_e2m1_to_f32(nibble):
    """Exact float32 value of e2m1 codes (int32, 0..15)."""
    magnitude = nibble & 7
    # Codes 2..7 are normal: exponent field (code >> 1) - 1 + 127 lands on
    # bits 23.. and the mantissa bit on bit 22. Code 1 is 0.5, code 0 is 0.
    bits = tl.where(magnitude >= 2, (magnitude << 22) + 0x3F000000,
                    magnitude * 0x3F000000)
    bits = bits | ((nibble >> 3) << 31)
    return bits.to(tl.float32, bitcast=True)


@triton.jit
def _e8m0_to_f32(code):
    """2^(code - 127) for E8M0 codes (int32); 0 is 2^-127, 255 is NaN."""
    # Selected as bits: a float 2^-127 literal would be a float64 constant.
    bits = tl.where(code == 0, 0x00400000, code << 23)
    bits = tl.where(code == 255, 0x7FC00000, bits)
    return bits.to(tl.float32, bitcast=True)


@triton.jit
def _mxfp4_tile(kv_ptr, scale_ptr, kv_rows, n_valid, scale_stride,
                BYTE_BEGIN: tl.constexpr, GROUPS: tl.constexpr,
                BLOCK_N: tl.constexpr):
    """Dequantizes the packed bytes BYTE_BEGIN .. + 16 * GROUPS of rows
    `kv_rows` into (even columns, odd columns), each [BLOCK_N, 16 * GROUPS]
    bf16. 16 bytes are 32 elements: one E8M0 scale per group, broadcast
    over a [BLOCK_N, GROUPS, 16] view."""
    groups = tl.arange(0, GROUPS)
    lanes = tl.arange(0, 16)
    packed = tl.load(kv_ptr + kv_rows[:, None, None] * PACKED_COLS +
                     BYTE_BEGIN + groups[None, :, None] * 16 +
                     lanes[None, None, :], mask=n_valid[:, None, None],
                     other=0).to(tl.int32)
    codes = tl.load(scale_ptr + kv_rows[:, None] * scale_stride +
                    BYTE_BEGIN // 16 + groups[None, :],
                    mask=n_valid[:, None], other=127).to(tl.int32)
    scale = _e8m0_to_f32(codes)[:, :, None]
    even = (_fp4_e2m1_to_f32(packed & 15) * scale).to(tl.bfloat16)
    odd = (_fp4_e2m1_to_f32(packed >> 4) * scale).to(tl.bfloat16)
    return (tl.reshape(even, (BLOCK_N, 16 * GROUPS)),
            tl.reshape(odd, (BLOCK_N, 16 * GROUPS)))


@triton.jit(do_not_specialize=["sm_scale", "scale_stride", "num_splits"])
def _mla_partial(q_ptr, kv_ptr, kv_scale_ptr, qo_indptr_ptr, kv_indptr_ptr,
                 part_out_ptr, part_lse_ptr, out_ptr, sm_scale, heads,
                 scale_stride, num_splits, KV_FORMAT: tl.constexpr,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Axis 0 is fastest in launch order: the row blocks of one KV range run
    # side by side and share its tiles in L2.
    block = tl.program_id(0)
    split = tl.program_id(1)
    seq = tl.program_id(2)
    q_begin = tl.load(qo_indptr_ptr + seq)
    q_len = tl.load(qo_indptr_ptr + seq + 1) - q_begin
    kv_begin = tl.load(kv_indptr_ptr + seq)
    kv_len = tl.load(kv_indptr_ptr + seq + 1) - kv_begin

    rows = block * BLOCK_M + tl.arange(0, BLOCK_M)
    row_valid = rows < q_len * heads
    # Bottom-right causal: query j sees keys below kv_len - q_len + 1 + j.
    limit = kv_len - q_len + 1 + rows // heads
    q_rows = (q_begin * heads + rows).to(tl.int64)

    chunk = tl.cdiv(tl.cdiv(kv_len, num_splits), BLOCK_N) * BLOCK_N
    lo = split * chunk
    hi = tl.minimum(lo + chunk, kv_len)
    last_query = tl.minimum((block * BLOCK_M + BLOCK_M - 1) // heads,
                            q_len - 1)
    hi = tl.minimum(hi, kv_len - q_len + 1 + last_query)
    hi = tl.where(block * BLOCK_M < q_len * heads, hi, lo)

    qk_scale = sm_scale * 1.4426950408889634
    out_scale = 1.0
    if KV_FORMAT == 1:
        kv_scale = tl.load(kv_scale_ptr)
        qk_scale = qk_scale * kv_scale
        out_scale = kv_scale

    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    if KV_FORMAT == 2:
        pairs = tl.arange(0, 256)
        pe_pairs = tl.arange(0, 32)
        q_row_ptr = q_ptr + q_rows[:, None] * QK_COLS
        q_even = tl.load(q_row_ptr + 2 * pairs[None, :],
                         mask=row_valid[:, None], other=0.0)
        q_odd = tl.load(q_row_ptr + 2 * pairs[None, :] + 1,
                        mask=row_valid[:, None], other=0.0)
        qpe_even = tl.load(q_row_ptr + 512 + 2 * pe_pairs[None, :],
                           mask=row_valid[:, None], other=0.0)
        qpe_odd = tl.load(q_row_ptr + 513 + 2 * pe_pairs[None, :],
                          mask=row_valid[:, None], other=0.0)
        acc_even = tl.zeros([BLOCK_M, 256], tl.float32)
        acc_odd = tl.zeros([BLOCK_M, 256], tl.float32)
    else:
        cols = tl.arange(0, 512)
        pe_cols = tl.arange(0, 64)
        q_nope = tl.load(q_ptr + q_rows[:, None] * QK_COLS + cols[None, :],
                         mask=row_valid[:, None], other=0.0)
        q_pe = tl.load(q_ptr + q_rows[:, None] * QK_COLS + 512 +
                       pe_cols[None, :], mask=row_valid[:, None], other=0.0)
        acc = tl.zeros([BLOCK_M, 512], tl.float32)

    for start in range(lo, hi, BLOCK_N):
        keys = start + tl.arange(0, BLOCK_N)
        n_valid = keys < hi
        kv_rows = (kv_begin + keys).to(tl.int64)
        if KV_FORMAT == 2:
            k_even, k_odd = _mxfp4_tile(kv_ptr, kv_scale_ptr, kv_rows,
                                        n_valid, scale_stride, 0, 16, BLOCK_N)
            kpe_even, kpe_odd = _mxfp4_tile(kv_ptr, kv_scale_ptr, kv_rows,
                                            n_valid, scale_stride, 256, 2,
                                            BLOCK_N)
            qk = tl.dot(q_even, tl.trans(k_even))
            qk = tl.dot(q_odd, tl.trans(k_odd), qk)
            qk = tl.dot(qpe_even, tl.trans(kpe_even), qk)
            qk = tl.dot(qpe_odd, tl.trans(kpe_odd), qk)
        else:
            k = tl.load(kv_ptr + kv_rows[:, None] * QK_COLS + cols[None, :],
                        mask=n_valid[:, None], other=0.0)
            k_pe = tl.load(kv_ptr + kv_rows[:, None] * QK_COLS + 512 +
                           pe_cols[None, :], mask=n_valid[:, None], other=0.0)
            if KV_FORMAT == 1:
                # e4m3 values are exact in bf16; the scale is applied later.
                k = k.to(tl.float8e4nv, bitcast=True).to(tl.bfloat16)
                k_pe = k_pe.to(tl.float8e4nv, bitcast=True).to(tl.bfloat16)
            qk = tl.dot(q_nope, tl.trans(k))
            qk = tl.dot(q_pe, tl.trans(k_pe), qk)

        visible = (keys[None, :] < limit[:, None]) & n_valid[None, :]
        s = tl.where(visible, qk * qk_scale, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        # A row that has seen no key yet keeps m = -inf: subtract 0 instead
        # so that exp2 gives 0, not NaN.
        m_use = tl.where(m_new == float("-inf"), 0.0, m_new)
        alpha = tl.exp2(m_i - m_use)
        p = tl.exp2(s - m_use[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        p = p.to(tl.bfloat16)
        if KV_FORMAT == 2:
            acc_even = tl.dot(p, k_even, acc_even * alpha[:, None])
            acc_odd = tl.dot(p, k_odd, acc_odd * alpha[:, None])
        else:
            acc = tl.dot(p, k, acc * alpha[:, None])
        m_i = m_new

    # No visible key: output 0, log-sum-exp -inf.
    empty = l_i == 0.0
    scale = out_scale / tl.where(empty, 1.0, l_i)
    lse = tl.where(empty, float("-inf"), m_i + tl.log2(l_i))
    if num_splits == 1:
        out_row_ptr = out_ptr + q_rows[:, None] * V_COLS
        if KV_FORMAT == 2:
            tl.store(out_row_ptr + 2 * pairs[None, :],
                     (acc_even * scale[:, None]).to(tl.bfloat16),
                     mask=row_valid[:, None])
            tl.store(out_row_ptr + 2 * pairs[None, :] + 1,
                     (acc_odd * scale[:, None]).to(tl.bfloat16),
                     mask=row_valid[:, None])
        else:
            tl.store(out_row_ptr + cols[None, :],
                     (acc * scale[:, None]).to(tl.bfloat16),
                     mask=row_valid[:, None])
    else:
        slots = q_rows * num_splits + split
        part_row_ptr = part_out_ptr + slots[:, None] * V_COLS
        if KV_FORMAT == 2:
            tl.store(part_row_ptr + 2 * pairs[None, :],
                     acc_even * scale[:, None], mask=row_valid[:, None])
            tl.store(part_row_ptr + 2 * pairs[None, :] + 1,
                     acc_odd * scale[:, None], mask=row_valid[:, None])
        else:
            tl.store(part_row_ptr + cols[None, :], acc * scale[:, None],
                     mask=row_valid[:, None])
        tl.store(part_lse_ptr + slots, lse, mask=row_valid)


@triton.jit(do_not_specialize=["total_rows", "num_splits"])
def _mla_combine(part_out_ptr, part_lse_ptr, out_ptr, total_rows, num_splits,
                 BLOCK_R: tl.constexpr, SPLITS: tl.constexpr):
    """out = sum_s w_s o_s / sum_s w_s, w_s = 2^(lse_s - max lse): a split
    with no key (lse -inf) weighs 0; a row with none at all gets zeros."""
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    row_valid = rows < total_rows
    rows = rows.to(tl.int64)
    splits = tl.arange(0, SPLITS)
    lse = tl.load(part_lse_ptr + rows[:, None] * num_splits + splits[None, :],
                  mask=row_valid[:, None] & (splits[None, :] < num_splits),
                  other=float("-inf"))
    lse_max = tl.max(lse, 1)
    base = tl.where(lse_max == float("-inf"), 0.0, lse_max)
    weights = tl.exp2(lse - base[:, None])
    total = tl.sum(weights, 1)
    cols = tl.arange(0, 512)
    acc = tl.zeros([BLOCK_R, 512], tl.float32)
    for s in range(0, num_splits):
        w = tl.sum(tl.where(splits[None, :] == s, weights, 0.0), 1)
        o = tl.load(part_out_ptr + (rows[:, None] * num_splits + s) * V_COLS +
                    cols[None, :], mask=row_valid[:, None] & (w[:, None] > 0),
                    other=0.0)
        acc += w[:, None] * o
    out = acc / tl.where(total == 0.0, 1.0, total)[:, None]
    tl.store(out_ptr + rows[:, None] * V_COLS + cols[None, :],
             out.to(tl.bfloat16), mask=row_valid[:, None])


# Host side


class Config:
    """One point of the tuning space; `splits` None means the heuristic."""

    FIELDS = ("block_m", "block_n", "num_warps", "num_stages")

    def __init__(self, block_m, block_n, num_warps, num_stages, splits=None):
        self.block_m, self.block_n = block_m, block_n
        self.num_warps, self.num_stages = num_warps, num_stages
        self.splits = splits

    def kernel_key(self):
        return tuple(getattr(self, f) for f in self.FIELDS)

    def with_splits(self, splits):
        return Config(*self.kernel_key(), splits=splits)

    def to_json(self):
        data = {f: getattr(self, f) for f in self.FIELDS}
        data["splits"] = self.splits
        return data

    @staticmethod
    def from_json(data):
        return Config(*(data[f] for f in Config.FIELDS),
                      splits=data.get("splits"))

    def __repr__(self):
        return "M%d N%d w%d s%d%s" % (
            self.block_m, self.block_n, self.num_warps, self.num_stages,
            "" if self.splits is None else " x%d" % self.splits)


# The tuning space, per format: (BLOCK_M, BLOCK_N, num_warps, num_stages);
# the first config of each row height is the untuned default. fp8 and MXFP4
# decode whole tiles in registers: with 4 warps their wider configs spilled
# and ran 10 to 100 times slower on the H200 (results/2026-12-01-efb78e3),
# so they use 8 warps, as do the [64, 512] f32 accumulators of BLOCK_M 64.
# Narrower formats take longer tiles for the same bytes in flight.
TUNING_SPACE = {
    "bf16": [Config(16, 32, 4, 3), Config(16, 64, 4, 2), Config(32, 32, 4, 3),
             Config(32, 64, 4, 2), Config(64, 64, 8, 2), Config(64, 32, 8, 2)],
    "fp8": [Config(16, 64, 4, 3), Config(16, 64, 8, 3), Config(16, 128, 8, 2),
            Config(32, 64, 8, 2), Config(64, 64, 8, 2), Config(64, 32, 8, 3)],
    "mxfp4": [Config(16, 64, 8, 2), Config(16, 128, 8, 2),
              Config(16, 32, 8, 2), Config(32, 64, 8, 2),
              Config(64, 64, 8, 2), Config(64, 32, 8, 2)],
}


def candidate_configs(fmt, rows):
    """Configs of the tuning space worth trying for M = `rows`: row blocks
    no taller than M (rounded up to 16) and no shorter than M / 4."""
    tall = max(16, triton.next_power_of_2(rows))
    return [c for c in TUNING_SPACE[fmt]
            if c.block_m <= tall and c.block_m * 4 >= rows]


def default_config(fmt, rows):
    """The untuned choice: the first config of the row block that fits M
    (16, 32, or 64 from M 33 on)."""
    want = 16 if rows <= 16 else 32 if rows <= 32 else 64
    return next(c for c in TUNING_SPACE[fmt] if c.block_m == want)


def heuristic_splits(batch, max_kv, rows, block_m, block_n, sm_count):
    """Enough programs for two per multiprocessor, no split shorter than one
    tile, at most MAX_SPLITS."""
    programs = batch * triton.cdiv(max(rows, 1), block_m)
    tiles = max(1, triton.cdiv(max_kv, block_n))
    want = triton.cdiv(2 * sm_count, max(programs, 1))
    return max(1, min(want, tiles, MAX_SPLITS))


def split_candidates(batch, max_kv, rows, block_m, block_n, sm_count):
    """The heuristic split count and its neighbours by factors of two."""
    base = heuristic_splits(batch, max_kv, rows, block_m, block_n, sm_count)
    tiles = max(1, triton.cdiv(max_kv, block_n))
    found = {max(1, base // 2), base, min(base * 2, tiles, MAX_SPLITS)}
    if base >= 4:
        found.add(max(1, base // 4))
    return sorted(found)


def sm_count(device):
    if torch.device(device).type != "cuda":
        return 4
    return torch.cuda.get_device_properties(device).multi_processor_count


class TritonMla:
    """The peer bound to one problem and config: workspace allocated once;
    calling it launches the partial kernel and, with splits, the combine."""

    def __init__(self, problem, config, out=None, workspace=None):
        self.problem = problem
        self.config = config
        rows = max(problem.q_lens, default=0) * problem.heads
        max_kv = max(problem.kv_lens, default=0)
        splits = config.splits or heuristic_splits(
            problem.batch, max_kv, rows, config.block_m, config.block_n,
            sm_count(problem.device))
        self.splits = max(1, min(splits, MAX_SPLITS))
        self.total_rows = problem.total_q * problem.heads
        device = problem.device
        self.out = out if out is not None else torch.empty(
            problem.total_q, problem.heads, V_DIM, dtype=torch.bfloat16,
            device=device)
        if workspace is None:
            workspace = self.allocate_workspace(problem, self.splits)
        self.part_out, self.part_lse = workspace
        # Pointers must not be null for the bf16 kernel's unused argument.
        self.kv_scale = (problem.kv_scale if problem.kv_scale is not None else
                         torch.ones(1, dtype=torch.float32, device=device))
        self.scale_stride = (problem.kv_scale.shape[1]
                             if problem.fmt == "mxfp4" else 0)
        self.grid = (triton.cdiv(max(rows, 1), config.block_m), self.splits,
                     problem.batch)

    @staticmethod
    def allocate_workspace(problem, splits):
        rows = problem.total_q * problem.heads
        if splits == 1:
            rows = 0
        device = problem.device
        return (torch.empty(max(rows * splits, 1), V_DIM, dtype=torch.float32,
                            device=device),
                torch.empty(max(rows * splits, 1), dtype=torch.float32,
                            device=device))

    def poison(self):
        """NaN in every output and partial buffer (0xFFFF in bf16)."""
        self.out.view(torch.int16).fill_(-1)
        self.part_out.fill_(float("nan"))
        self.part_lse.fill_(float("nan"))

    def __call__(self):
        p, c = self.problem, self.config
        if p.batch == 0 or self.total_rows == 0:
            return self.out
        _mla_partial[self.grid](
            p.q, p.kv, self.kv_scale, p.qo_indptr, p.kv_indptr, self.part_out,
            self.part_lse, self.out, p.sm_scale, p.heads, self.scale_stride,
            self.splits, KV_FORMAT=FORMAT_CODES[p.fmt], BLOCK_M=c.block_m,
            BLOCK_N=c.block_n, num_warps=c.num_warps, num_stages=c.num_stages)
        if self.splits > 1:
            _mla_combine[(triton.cdiv(self.total_rows, COMBINE_ROWS),)](
                self.part_out, self.part_lse, self.out, self.total_rows,
                self.splits, BLOCK_R=COMBINE_ROWS, SPLITS=MAX_SPLITS,
                num_warps=4, num_stages=1)
        return self.out


def compile_configs(fmt, configs, device):
    """Compiles (and runs once, on a small ragged problem) each config of
    `fmt`, with and without splits; returns {kernel_key: error or None}."""
    small = generate((16, [1, 4, 2], [70, 300, 5]), fmt, 0, device)
    errors = {}
    for config in configs:
        try:
            for splits in (1, 2):
                TritonMla(small, config.with_splits(splits))()
            torch.cuda.synchronize(device) if torch.device(
                device).type == "cuda" else None
            errors[config.kernel_key()] = None
        except Exception as error:  # a config the compiler or chip refuses
            errors[config.kernel_key()] = "%s: %s" % (type(error).__name__,
                                                      str(error)[:300])
    return errors


def _compile_worker(fmt, config_json):
    """Process-pool entry: fills Triton's on-disk cache for one config."""
    config = Config.from_json(config_json)
    return compile_configs(fmt, [config], "cuda")[config.kernel_key()]


def precompile(configs, jobs):
    """Compiles each (fmt, Config) of `configs` in `jobs` processes, so that
    the main process finds them in Triton's cache. Returns {(fmt, key):
    error or None}."""
    import concurrent.futures
    import multiprocessing

    unique = {(fmt, c.kernel_key()): c for fmt, c in configs}
    tasks = [(fmt, c.to_json()) for (fmt, _), c in sorted(unique.items())]
    results = {}
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(jobs, context) as pool:
        futures = {pool.submit(_compile_worker, fmt, data): (fmt, data)
                   for fmt, data in tasks}
        for future in concurrent.futures.as_completed(futures):
            fmt, data = futures[future]
            key = Config.from_json(data).kernel_key()
            try:
                results[(fmt, key)] = future.result()
            except Exception as error:
                results[(fmt, key)] = "%s: %s" % (type(error).__name__, error)
    return results
