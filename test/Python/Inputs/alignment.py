"""Calls of examples/gemm.mlir's host module with numpy arrays whose data
starts 8 bytes past a 64-byte boundary: the ALIGN = 8 instance, which
requires 16-byte aligned A and B, refuses them, naming the requirement;
the ALIGN = 1 one (2-byte alignment) takes them; Launch.point keeps the
requirement."""
import sys

import numpy as np

import mla


def aligned(elements, offset_bytes):
    """uint16 (bf16 bits) of `elements`, the data `offset_bytes` past a
    64-byte boundary."""
    raw = np.zeros(elements + 64, dtype=np.uint16)
    skip = (-raw.ctypes.data % 64 + offset_bytes) // 2
    return raw[skip:skip + elements]


def outcome(name, call):
    try:
        call()
        print(f"{name}: accepted")
    except mla.MlaError as e:
        print(f"{name}: MlaError: {e}")


module = mla.Module(sys.argv[1])
m, n, k = 16, 16, 16
c = np.zeros(m * n, dtype=np.float32)
good_a, good_b = aligned(m * k, 0), aligned(k * n, 0)
bad_a = aligned(m * k, 8)
wide, plain = module["gemm_bf16_align8"], module["gemm_bf16"]
outcome("aligned", lambda: wide(good_a, good_b, c, m, n, k))
outcome("misaligned", lambda: wide(bad_a, good_b, c, m, n, k))
outcome("misaligned-plain", lambda: plain(bad_a, good_b, c, m, n, k))
launch = wide.bind(good_a, good_b, c, m, n, k)
outcome("point-aligned", lambda: launch.point("b", good_a.ctypes.data))
outcome("point-misaligned", lambda: launch.point("a", bad_a.ctypes.data))
