//===- TileGPUTypes.td - LDS buffers ------------------------*- tablegen -*-===//

#ifndef MLA_TILEGPU_TYPES_TD
#define MLA_TILEGPU_TYPES_TD

include "TileGPU/TileGPUAttrs.td"
include "mlir/IR/AttrTypeBase.td"

def TileGPU_MemDescType : TypeDef<TileGPU_Dialect, "MemDesc"> {
  let mnemonic = "memdesc";
  let summary = "a tile staged in LDS (shared memory)";
  let description = [{
    A tile of `shape` and `elementType` held in the program's LDS, laid out
    as `layout` (a `#tilegpu.shared` row-major order with an XOR swizzle).
    Written once by `tilegpu.local_alloc`, read by `tilegpu.local_load` in
    any register layout; `tilegpu.memdesc_slice` names a static window of it
    without moving data.

    ```mlir
    !tilegpu.memdesc<64x576xbf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "SharedAttr":$layout);
  let assemblyFormat = "`<` custom<TileShape>($shape, $elementType) `,` $layout `>`";
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    int64_t getNumElements() const {
      int64_t n = 1;
      for (int64_t d : getShape())
        n *= d;
      return n;
    }
  }];
}

#endif // MLA_TILEGPU_TYPES_TD
