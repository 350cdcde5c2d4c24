//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//

#ifndef MLA_TILE_ATTRS_TD
#define MLA_TILE_ATTRS_TD

include "Tile/TileDialect.td"
include "mlir/IR/EnumAttr.td"

def Tile_ProgramAxis : I32EnumAttr<"ProgramAxis", "axis of the launch grid", [
    I32EnumAttrCase<"x", 0>, I32EnumAttrCase<"y", 1>, I32EnumAttrCase<"z", 2>
  ]> {
  let cppNamespace = "::mla::tile";
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "row reduction combiner", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>
  ]> {
  let cppNamespace = "::mla::tile";
}

#endif // MLA_TILE_ATTRS_TD
