//===- TileTypes.td - Tile dialect types -------------------*- tablegen -*-===//

#ifndef MLA_TILE_TYPES_TD
#define MLA_TILE_TYPES_TD

include "Tile/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PtrType : Tile_Type<"Ptr", "ptr"> {
  let summary = "pointer to global memory";
  let description = [{
    A kernel argument addressing elements of `elementType` in global memory.
    Packed fp4 data is addressed as `i8` (two E2M1 values per byte).

    ```mlir
    !tile.ptr<bf16>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

def Tile_ViewType : Tile_Type<"View", "view"> {
  let summary = "shaped, strided window of global memory";
  let description = [{
    The result of `tile.view`: a pointer with a shape and element strides.
    Dimensions that are only known at run time print as `?`. Tile loads and
    stores are bounds-checked against the view's sizes.

    ```mlir
    !tile.view<?x576xbf16>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Tile_Fp8 : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ]>;
defvar Tile_Scale = F8E8M0FNU;

/// Element types a tile may hold.
def Tile_Element : AnyTypeOf<[BF16, F16, F32, I1, I8, I32, I64, Index,
                              Tile_Fp8, F4E2M1FN, Tile_Scale]>;

def Tile_Tensor : StaticShapeTensorOf<[Tile_Element]>;
def Tile_FloatTensor : StaticShapeTensorOf<[BF16, F16, F32]>;
def Tile_F32Tensor : StaticShapeTensorOf<[F32]>;
def Tile_MaskTensor : StaticShapeTensorOf<[I1]>;
def Tile_IndexTensor : StaticShapeTensorOf<[I32, I64, Index]>;

/// Kernel scalar arguments: the integer and float scalars every target can
/// pass by value.
def Tile_Scalar : AnyTypeOf<[I32, I64, F32]>;

#endif // MLA_TILE_TYPES_TD
