"""The amd-mixed-mla task's inputs (DESIGN section 8) from this bench's
problems: `data = (q, kv_data, qo_indptr, kv_indptr, config)` with one
bf16 cache in all three formats, fp8 and MXFP4 quantized from it as
problem.py quantizes (byte views: torch before 2.1 has no fp8 dtypes; the
MXFP4 scales padded in both dimensions), and the problem each format
encodes, for the reference.
"""

import torch

from problem import Problem, generate, quantize_cache

FORMATS = ("bf16", "fp8", "mxfp4")


def task_inputs(heads, q_lens, kv_lens, seed, device):
    """(data, {format: Problem}) for one batch."""
    base = generate((heads, q_lens, kv_lens), "bf16", seed, device)
    rows = base.kv.shape[0]
    problems, kv_data = {}, {}
    for fmt in FORMATS:
        kv, scale = quantize_cache(base.kv, fmt)
        problems[fmt] = Problem(fmt, heads, base.q, kv, scale, base.qo_indptr,
                                base.kv_indptr, base.sm_scale, q_lens, kv_lens)
        width = 288 if fmt == "mxfp4" else 576
        packed = kv.reshape(rows, 1, width)
        kv_data[fmt] = packed if scale is None else (packed, scale)
    config = {"batch_size": len(q_lens), "num_heads": heads,
              "q_seq_len": max(q_lens, default=0),
              "kv_seq_len": max(kv_lens, default=0),
              "sm_scale": base.sm_scale, "qk_head_dim": 576, "v_head_dim": 512}
    return (base.q, kv_data, base.qo_indptr, base.kv_indptr, config), problems


class Poisoned:
    """Within it, every floating tensor torch.empty makes starts as NaN, so
    that an output element a submission leaves unwritten fails the check
    (its outputs are not the caller's to poison)."""

    def __enter__(self):
        self.empty = empty = torch.empty

        def poisoned(*args, **kwargs):
            tensor = empty(*args, **kwargs)
            if tensor.is_floating_point():
                tensor.fill_(float("nan"))
            return tensor
        torch.empty = poisoned
        return self

    def __exit__(self, *exc):
        torch.empty = self.empty
