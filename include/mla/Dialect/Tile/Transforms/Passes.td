//===- Passes.td - Tile dialect transformation passes ------*- tablegen -*-===//

#ifndef MLA_TILE_TRANSFORMS_PASSES_TD
#define MLA_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileDecompose : Pass<"tile-decompose"> {
  let summary = "Rewrite attention and MX-scaled ops into primitive tile ops";
  let description = [{
    Lowers the high-level tile ops so that a target only has to lower
    primitives (`tile.dot`, `tile.reduce`, `tile.broadcast`, `tile.trans`,
    `tile.dequant_mx`, `tile.dequant_fp8`, `arith`, `math`):

    - `tile.qk_softmax_acc` becomes a scaled `Q K^T` product, masking with
      -inf, a row max, `exp`, a row sum and a `P V` product; without `v`,
      V is a `tensor.extract_slice` of K's first columns. A row whose
      running max is still -inf uses 0 as its reference point, so fully
      masked rows give `p = 0`, `l = 0`, `acc = 0` instead of NaN.
    - `tile.split_reduce` becomes weights `exp(lse_i - max lse)` and two
      sums over the split dimension; empty splits (-inf) are selected away,
      whatever their partial holds, and an all-empty row is zero.
    - `tile.dot_scaled` becomes `tile.dequant_mx` of each scaled operand
      followed by an f32 `tile.dot`.

    Before:
    ```mlir
    %m2, %l2, %a2 = tile.qk_softmax_acc %q, %k, %v, %m, %l, %acc scale %s
        : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
        -> tensor<16x512xf32>
    ```
    After (abridged):
    ```mlir
    %kt = tile.trans %k : tensor<64x576xbf16> -> tensor<576x64xbf16>
    %s0 = tile.dot %q, %kt, %zero : ... -> tensor<16x64xf32>
    %rowmax = tile.reduce max %s1 dim 1 : tensor<16x64xf32> -> tensor<16xf32>
    ...
    %a2 = tile.dot %p, %v, %scaled_acc : ... -> tensor<16x512xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mla::tile::TileDialect"];
}

#endif // MLA_TILE_TRANSFORMS_PASSES_TD
