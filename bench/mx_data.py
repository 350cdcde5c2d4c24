"""Inputs of the fp8 and block-scaled matmul benchmarks (bench/kernels.py,
bench/triton_matmul_scaled.py) on the GPU: e4m3 and MXFP4 tensors as the
kernels read them, and MXFP4's exact values for the references and the
torch peer."""

import torch

E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0,
        -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0]


def random_e4m3(rows, cols):
    """e4m3 values of magnitude about 2^-4 to 2^4, as the kernel's bytes."""
    return (torch.randn(rows, cols, device="cuda") * 4).to(
        torch.float8_e4m3fn)


def random_mxfp4(rows, k):
    """MXFP4 rows [rows, k]: packed bytes [rows, k/2] (the low nibble the
    even k), E8M0 scales [rows, k/32] from 2^-4 to 2^4."""
    packed = torch.randint(0, 256, (rows, k // 2), dtype=torch.uint8,
                           device="cuda")
    scales = torch.randint(123, 132, (rows, k // 32), dtype=torch.uint8,
                           device="cuda")
    return packed, scales


def dequant_mxfp4(packed, scales):
    """The bf16 values [rows, k] of MXFP4 rows (exact)."""
    table = torch.tensor(E2M1, device="cuda")
    low, high = (packed & 15).long(), (packed >> 4).long()
    values = torch.stack((table[low], table[high]), dim=-1).flatten(1)
    scale = torch.exp2(scales.float() - 127).repeat_interleave(32, dim=1)
    return (values * scale).to(torch.bfloat16)
