//===- TileDialect.td - The tile dialect -------------------*- tablegen -*-===//
//
// A Triton-style tile language: a kernel is one program instance working on
// whole statically shaped tiles; the compiler maps tiles onto hardware.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TILE_DIALECT_TD
#define MLA_TILE_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mla::tile";
  let summary = "Tile-level kernel language for attention decode";
  let description = [{
    Every value a kernel computes on is a tile: a `tensor` of static shape.
    Global memory is reached through `!tile.ptr` kernel arguments and
    `!tile.view` values that give a pointer a shape and strides; loads and
    stores are bounds-checked against the view and take an optional mask and
    padding value, so ragged edges are correct by construction.

    Elementwise work on tiles uses `arith` and `math` on tensors and control
    flow uses `scf`. The tile dialect adds what those lack: program ids,
    index ranges, broadcasts, memory access, MX dequantization, tile matrix
    products, row reductions, the flash-attention step and the split-KV
    combine. No lane, LDS or vector width appears in a program: mapping tiles
    onto hardware is the compiler's job.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes, defined next to their storage.
    void registerAttributes();
  }];
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // MLA_TILE_DIALECT_TD
