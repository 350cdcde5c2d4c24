//===- TileGPUDialect.td - Tiles mapped onto a GPU ----------*- tablegen -*-===//
//
// The tile dialect says what a program computes on whole tiles; this dialect
// says where each element of a tile lives on a GPU: layouts (tensor
// encodings) that spread tiles over registers, lanes and warps, LDS buffers,
// and the explicit conversions between them. Its IR is the input of the GPU
// lowering shared by the AMDGPU and NVVM targets.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TILEGPU_DIALECT_TD
#define MLA_TILEGPU_DIALECT_TD

include "mlir/IR/OpBase.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::mla::tilegpu";
  let summary = "Layouts and LDS for tiles on GPUs";
  let description = [{
    A tile (`tensor` of static shape) carries a layout as its encoding:
    `#tilegpu.blocked` for coalesced global memory access, `#tilegpu.mma`
    and `#tilegpu.dot_operand` for matrix-core results and operands,
    `#tilegpu.slice` for the result of a reduction. Each layout is a map from
    (register, lane, warp) to tile coordinates (see LaneMap.h).
    `tilegpu.convert_layout` moves a tile between layouts.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["::mla::tile::TileDialect"];
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
  }];
}

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

#endif // MLA_TILEGPU_DIALECT_TD
