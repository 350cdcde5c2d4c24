//===- TileInterfaces.td - Tile dialect interfaces ---------*- tablegen -*-===//

#ifndef MLA_TILE_INTERFACES_TD
#define MLA_TILE_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Tile_EncodingAttrInterface : AttrInterface<"TileEncodingAttrInterface"> {
  let cppNamespace = "::mla::tile";
  let description = [{
    A tensor encoding (a layout of a tile over lanes, or the parameter names
    of a symbolic shape) that knows how it changes under the shape-changing
    tile ops. Result types are derived from operand types: where the
    operand's encoding implements this interface and has an opinion, the
    result gets its answer; otherwise the result keeps the operand's
    encoding unchanged.

    Each method returns `failure()` for "no opinion", or the result's
    encoding, which may be null for "no encoding".
  }];
  let methods = [
    InterfaceMethod<[{
        The encoding of a tile with this encoding reduced along `dim`.
      }],
      "::mlir::FailureOr<::mlir::Attribute>", "getReducedEncoding",
      (ins "int64_t":$dim)>,
    InterfaceMethod<[{
        The encoding of a tile with this encoding broadcast to
        `resultShape` by adding the dimensions `newDims` (sorted); the
        inverse of reducing them.
      }],
      "::mlir::FailureOr<::mlir::Attribute>", "getBroadcastEncoding",
      (ins "::llvm::ArrayRef<int64_t>":$newDims,
           "::llvm::ArrayRef<int64_t>":$resultShape)>,
    InterfaceMethod<[{
        The encoding of the transpose of a 2-D tile with this encoding.
      }],
      "::mlir::FailureOr<::mlir::Attribute>", "getTransposedEncoding">,
  ];
}

#endif // MLA_TILE_INTERFACES_TD
