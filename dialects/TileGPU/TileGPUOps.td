//===- TileGPUOps.td - Layout conversions and LDS -----------*- tablegen -*-===//

#ifndef MLA_TILEGPU_OPS_TD
#define MLA_TILEGPU_OPS_TD

include "TileGPU/TileGPUAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "move a tile to another layout";
  let description = [{
    The same tile in another layout. Lowering: nothing when the layouts put
    every element in the same lane (registers are renumbered), otherwise an
    exchange through LDS.

    ```mlir
    %b = tilegpu.convert_layout %a
        : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    ```
  }];
  let arguments = (ins AnyStaticShapeTensor:$src);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

#endif // MLA_TILEGPU_OPS_TD
