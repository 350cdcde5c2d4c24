//===- Passes.td - Conversion passes -----------------------*- tablegen -*-===//

#ifndef MLA_CONVERSION_PASSES_TD
#define MLA_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToHost : Pass<"convert-tile-to-host", "::mlir::ModuleOp"> {
  let summary = "Lower tile programs to host functions over tensors and loops";
  let description = [{
    Turns every `tile.kernel` into a C-callable host function

    ```
    void SYMBOL(void **args, const int64_t program_id[3],
                const int64_t num_programs[3])
    ```

    that runs one program instance (docs/ABI.md), and lowers the primitive
    tile ops to `tensor`, `linalg`, `scf` and `arith` on tensors plus
    `llvm.load` / `llvm.store` for global memory:

    - `tile.load` becomes a `tensor.generate` whose elements are loaded only
      where they are inside the view and the mask (else the padding value);
      `tile.store` becomes a loop nest of guarded stores.
    - `tile.dot` becomes `linalg.matmul` (f32 accumulation), `tile.reduce`
      `linalg.reduce`, `tile.broadcast` / `tile.trans` their linalg forms.
    - `tile.dequant_mx` / `tile.dequant_fp8` decode the narrow formats with
      integer arithmetic (E8M0 0x00 = 2^-127, 0xFF = NaN).

    High-level ops (`tile.qk_softmax_acc`, `tile.split_reduce`,
    `tile.dot_scaled`) must have been decomposed (`tile-decompose`); any tile
    op left over is reported as unsupported by the host target. The result
    is ready for one-shot bufferization and the standard LLVM lowering.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def HostExpandArith : Pass<"host-expand-arith"> {
  let summary = "Expand the arith ops the host's LLVM lowering cannot take";
  let description = [{
    What `arith-expand{include-bf16}` does for the host, except for the
    float maxima and minima: bf16 `extf` / `truncf` become integer code (the
    host object needs no compiler runtime) and `ceildivsi` / `ceildivui` /
    `floordivsi` become integer arithmetic.

    `maximumf`, `minimumf`, `maxnumf` and `minnumf` stay for
    `convert-arith-to-llvm`, which maps them to the LLVM intrinsics of the
    same semantics. `arith-expand` would rewrite them into a compare and a
    select that ignore the sign of zero: `maximumf(+0, -0)` would depend on
    the operands' order, where arith (and every GPU target) gives +0.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ConvertTileToGPU : Pass<"convert-tile-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower tile kernels with layouts to GPU kernels over lanes";
  let description = [{
    Turns every `tile.kernel` whose tiles carry `#tilegpu` layouts (see
    `tilegpu-assign-layouts`) into a `gpu.func` kernel of
    `tilegpu.num_warps` warps in a `gpu.module` of its own, named after
    the kernel, and every tile into the per-lane vector of the elements
    its layout gives the lane (register i = vector element i):

    - loads and stores address each register's element, bounds-checked
      against the view (AMD: buffer instructions bounded by the view's
      extent; inner bounds, masks and padding by selects), moving up to 16
      bytes per access along a unit-stride dimension;
    - elementwise ops apply to the vectors; `exp` becomes the chip's `exp2`;
    - reductions combine registers, then lanes (xor shuffles), then warps
      (LDS); layout conversions renumber registers or go through LDS;
    - `tile.dot` becomes the chip's matrix-core instructions.

    LDS scratch is one block per kernel (an `llvm.mlir.global` in address
    space 3), shared by every exchange, each fenced by barriers. What
    differs between chips comes from the target interface of `chip`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"gfx950\"",
           "Target chip: gfx950, gfx942 or sm_90">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::amdgpu::AMDGPUDialect",
                           "::mlir::ROCDL::ROCDLDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def ConvertGPUKernelsToLLVM : Pass<"convert-gpu-kernels-to-llvm",
                                  "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower the GPU kernels of convert-tile-to-gpu to the LLVM dialect";
  let description = [{
    Lowers a `gpu.module` (kernels built by `convert-tile-to-gpu`: the
    gpu, vector, arith, math, scf and cf dialects plus the chip's own ops)
    to the LLVM dialect in one conversion: for AMD chips `gpu` and
    `amdgpu` to ROCDL (kernels get the `amdgpu_kernel` calling convention
    and their workgroup size), for NVIDIA chips `gpu` to NVVM. No call to a
    device library remains (`exp` and `log` are LLVM intrinsics the
    backends select natively).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"gfx950\"",
           "Target chip: gfx950, gfx942 or sm_90">,
  ];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::ROCDL::ROCDLDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // MLA_CONVERSION_PASSES_TD
