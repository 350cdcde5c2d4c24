"""References and the PyTorch peer: attention from dequantized inputs,
batched over sequences with one bmm per product (never a loop over heads),
and the DESIGN section 5 check.

- reference_f64: the float64 reference, computed on the problem's device.
- reference_f32: the same in float32 (TF32 off), a second opinion.
- TorchPeer: what a PyTorch user would run and time: dequantize to bf16,
  bf16 bmm for QK and PV (float32 accumulation in cuBLAS), softmax in
  float32.
"""

from dataclasses import dataclass

import torch

from problem import (MX_BLOCK, MX_SCALES_PER_ROW, QK_DIM, V_DIM, Problem,
                     dequantize, fp4_e2m1_values, fp8_e4m3fn_values)

RTOL = 1e-2
ATOL = 1e-2
MAX_REL_FRO = 1e-2


class _Batched:
    """Index maps that lay a (possibly ragged) batch out as [B, M, *] query
    rows and [B, L, *] keys. A uniform batch is a plain view."""

    def __init__(self, problem: Problem):
        self.problem = problem
        device = problem.device
        self.batch = problem.batch
        self.heads = problem.heads
        self.max_q = max(problem.q_lens, default=0)
        self.max_kv = max(problem.kv_lens, default=0)
        self.uniform = (len(set(problem.q_lens)) <= 1 and
                        len(set(problem.kv_lens)) <= 1)
        q_lens = torch.tensor(problem.q_lens, device=device)
        kv_lens = torch.tensor(problem.kv_lens, device=device)
        rows = self.max_q * self.heads
        query = torch.arange(rows, device=device) // self.heads
        # Keys below limit[b, r] are visible to row r of sequence b
        # (bottom-right causal); rows past the sequence's queries see nothing.
        limit = (kv_lens - q_lens + 1)[:, None] + query[None, :]
        limit = torch.minimum(limit, kv_lens[:, None])
        self.limit = torch.where(query[None, :] < q_lens[:, None], limit,
                                 torch.zeros_like(limit))
        # Columns from here on may be masked for some row.
        self.mask_from = max(0, min((l - q + 1 for q, l in zip(
            problem.q_lens, problem.kv_lens)), default=0))
        self.empty_rows = any(l - q + 1 <= 0 for q, l in zip(
            problem.q_lens, problem.kv_lens))
        if not self.uniform:
            qo = problem.qo_indptr[:-1].to(torch.int64)
            kvo = problem.kv_indptr[:-1].to(torch.int64)
            row_index = (qo[:, None] * self.heads +
                         torch.arange(rows, device=device)[None, :])
            self.q_index = row_index.clamp(max=max(problem.total_q *
                                                   self.heads - 1, 0))
            self.kv_index = (kvo[:, None] + torch.arange(
                self.max_kv, device=device)[None, :]).clamp(
                    max=max(problem.total_kv - 1, 0))

    def queries(self, q: torch.Tensor) -> torch.Tensor:
        """[total_q, H, 576] -> [B, max_q * H, 576]."""
        flat = q.reshape(-1, QK_DIM)
        if self.uniform:
            return flat.reshape(self.batch, self.max_q * self.heads, QK_DIM)
        return flat[self.q_index]

    def keys(self, kv: torch.Tensor) -> torch.Tensor:
        """[total_kv, 576] -> [B, max_kv, 576]."""
        if self.uniform:
            return kv.reshape(self.batch, self.max_kv, QK_DIM)
        return kv[self.kv_index]

    def mask_(self, scores: torch.Tensor) -> torch.Tensor:
        """Sets invisible scores [B, M, L] to -inf in place."""
        if self.mask_from >= self.max_kv and self.uniform:
            return scores
        tail = scores[:, :, self.mask_from:]
        columns = torch.arange(self.mask_from, self.max_kv,
                               device=scores.device)
        tail.masked_fill_(columns[None, None, :] >= self.limit[:, :, None],
                          float("-inf"))
        return scores

    def outputs(self, out: torch.Tensor) -> torch.Tensor:
        """[B, max_q * H, 512] -> [total_q, H, 512]."""
        total_q, heads = self.problem.total_q, self.heads
        if not self.uniform:
            # Rows of real queries, in sequence order: the order of q.
            q_lens = torch.tensor(self.problem.q_lens, device=out.device)
            query = torch.arange(out.shape[1], device=out.device) // heads
            out = out[query[None, :] < q_lens[:, None]]
        return out.reshape(total_q, heads, V_DIM)


def _attention(problem: Problem, layout: _Batched, keys: torch.Tensor,
               queries: torch.Tensor, softmax_dtype) -> torch.Tensor:
    """softmax(scale Q K^T) V over [B, M, *] with causal masks."""
    if layout.batch == 0 or layout.max_kv == 0:
        return queries.new_zeros(queries.shape[0], queries.shape[1], V_DIM)
    scores = torch.bmm(queries, keys.transpose(1, 2))
    scores = scores.to(softmax_dtype) * problem.sm_scale
    layout.mask_(scores)
    weights = torch.softmax(scores, dim=-1)
    if layout.empty_rows:
        # Rows that see no key are NaN here; their output is zero.
        weights = torch.nan_to_num(weights, nan=0.0)
    return torch.bmm(weights.to(keys.dtype), keys[:, :, :V_DIM])


def reference_f64(problem: Problem) -> torch.Tensor:
    """float64 [total_q, H, 512] from the exactly dequantized inputs."""
    layout = _Batched(problem)
    keys = layout.keys(dequantize(problem, torch.float64))
    queries = layout.queries(problem.q.to(torch.float64))
    out = _attention(problem, layout, keys, queries, torch.float64)
    return layout.outputs(out)


def reference_f32(problem: Problem) -> torch.Tensor:
    """float32 [total_q, H, 512], TF32 off."""
    layout = _Batched(problem)
    saved = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        keys = layout.keys(dequantize(problem, torch.float32))
        queries = layout.queries(problem.q.to(torch.float32))
        out = _attention(problem, layout, keys, queries, torch.float32)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = saved
    return layout.outputs(out)


def dequantize_bf16(problem: Problem, fp4_table: torch.Tensor,
                    fp8_table: torch.Tensor) -> torch.Tensor:
    """The covered KV rows as bf16, the way a PyTorch user would: fp8 through
    torch's float8 type (a table where it has none) times the scale in
    float32; fp4 codes through a 16-entry bf16 table, times the E8M0 scale
    built as bf16 bits (exact)."""
    rows = problem.total_kv
    kv = problem.kv[:rows]
    if problem.fmt == "bf16":
        return kv
    if problem.fmt == "fp8":
        if hasattr(torch, "float8_e4m3fn"):
            values = kv.view(torch.float8_e4m3fn).to(torch.float32)
        else:
            values = fp8_table.index_select(0, kv.reshape(-1).int()).reshape(
                rows, QK_DIM)
        return (values * problem.kv_scale).to(torch.bfloat16)
    low = fp4_table.index_select(0, (kv & 0xF).reshape(-1).int())
    high = fp4_table.index_select(0, (kv >> 4).reshape(-1).int())
    values = torch.stack((low, high), dim=1).reshape(rows, MX_SCALES_PER_ROW,
                                                     MX_BLOCK)
    codes = problem.kv_scale[:rows, :MX_SCALES_PER_ROW].to(torch.int16)
    bits = torch.where(codes == 0, torch.full_like(codes, 0x0040),
                       codes << 7)  # 2^-127 is a bf16 subnormal
    bits = torch.where(codes == 0xFF, torch.full_like(codes, 0x7FC0), bits)
    scales = bits.view(torch.bfloat16)
    return (values * scales[:, :, None]).reshape(rows, QK_DIM)


class TorchPeer:
    """The timed PyTorch implementation: dequantize the cache to bf16, then
    bmm, float32 softmax, bmm. The layout (index maps, masks) and the
    decoding tables are built once, as a serving system would."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.layout = _Batched(problem)
        device = problem.device
        self.fp4_table = fp4_e2m1_values().to(device, torch.bfloat16)
        self.fp8_table = fp8_e4m3fn_values().to(device, torch.float32)

    def __call__(self) -> torch.Tensor:
        problem, layout = self.problem, self.layout
        keys = layout.keys(dequantize_bf16(problem, self.fp4_table,
                                           self.fp8_table))
        queries = layout.queries(problem.q)
        out = _attention(problem, layout, keys, queries, torch.float32)
        return layout.outputs(out.to(torch.bfloat16))


@dataclass
class CheckResult:
    rel_fro: float
    max_abs: float
    outside: int
    count: int
    nan: int

    @property
    def passed(self) -> bool:
        return (self.rel_fro < MAX_REL_FRO and self.outside == 0 and
                self.nan == 0)

    def summary(self) -> str:
        return ("rel_fro=%.1e max_abs=%.1e outside_tol=%d/%d nan=%d %s" %
                (self.rel_fro, self.max_abs, self.outside, self.count,
                 self.nan, "PASS" if self.passed else "FAIL"))


def check(out: torch.Tensor, reference: torch.Tensor) -> CheckResult:
    """DESIGN section 5: relative Frobenius error < 1e-2, every element
    within atol + rtol |ref|, no NaN (a NaN anywhere fails)."""
    value = out.to(torch.float64).reshape(-1)
    expected = reference.to(torch.float64).reshape(-1)
    error = (value - expected).abs()
    within = error <= ATOL + RTOL * expected.abs()  # False for NaN
    ref_squares = float((expected * expected).sum())
    err_squares = float((error * error).sum())
    rel_fro = (err_squares / ref_squares) ** 0.5 if ref_squares > 0 else \
        err_squares ** 0.5
    max_abs = float(error.max()) if error.numel() else 0.0
    if bool(torch.isnan(error).any()):
        max_abs = rel_fro = float("nan")
    return CheckResult(rel_fro, max_abs, int((~within).sum()),
                       value.numel(), int(torch.isnan(value).sum()))
