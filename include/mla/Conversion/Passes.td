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

#endif // MLA_CONVERSION_PASSES_TD
