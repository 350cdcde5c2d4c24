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

def Tile_SwitchType : Tile_Type<"Switch", "switch"> {
  let summary = "a type chosen by a kernel parameter";
  let description = [{
    Resolves, in each instance of a parameterized kernel, to the case of
    the parameter's value (string keys for a `str` parameter, integers for
    an `i64` one). Usable as the element type of a pointer, view or tile
    and as the type of a scalar kernel argument. A kernel argument whose
    type has no case for an instance is absent from that instance.

    ```mlir
    !tile.ptr<!tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN, mxfp4 = i8}>>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$param,
                        ArrayRefParameter<"::mlir::Attribute">:$keys,
                        ArrayRefParameter<"::mlir::Type">:$types);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The case for `value`, or null where there is none.
    ::mlir::Type resolve(::mlir::Attribute value) const;
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

/// A scalar of a tile element type, or one chosen by a kernel parameter.
def Tile_AnyElement : AnyTypeOf<[Tile_Element, Tile_SwitchType]>;

/// A tile: a ranked tensor of one of `allowedTypes`. Before specialization
/// its shape may be symbolic (`#tile.dims`) and its element type a
/// `!tile.switch`; the checks that depend on them wait for the instance.
class Tile_TensorOf<list<Type> allowedTypes> : Type<
    And<[IsRankedTensorTypePred, CPred<"::mla::tile::hasTileShape($_self)">,
         Or<[Concat<"[](::mlir::Type elementType) { return ",
                    SubstLeaves<"$_self", "elementType",
                                AnyTypeOf<allowedTypes>.predicate>,
                    "; }(::llvm::cast<::mlir::ShapedType>($_self)"
                    ".getElementType())">,
             CPred<"::llvm::isa<::mla::tile::SwitchType>("
                   "::llvm::cast<::mlir::ShapedType>($_self)"
                   ".getElementType())">]>]>,
    "statically shaped tensor of " # AnyTypeOf<allowedTypes>.summary #
        " values",
    "::mlir::RankedTensorType">;

def Tile_Tensor : Tile_TensorOf<[Tile_Element]>;
def Tile_FloatTensor : Tile_TensorOf<[BF16, F16, F32]>;
def Tile_F32Tensor : Tile_TensorOf<[F32]>;
def Tile_MaskTensor : Tile_TensorOf<[I1]>;
def Tile_IndexTensor : Tile_TensorOf<[I32, I64, Index]>;


#endif // MLA_TILE_TYPES_TD
