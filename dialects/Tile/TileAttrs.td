//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//

#ifndef MLA_TILE_ATTRS_TD
#define MLA_TILE_ATTRS_TD

include "Tile/TileDialect.td"
include "Tile/TileInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"

def Tile_ProgramAxis : I32EnumAttr<"ProgramAxis", "axis of the launch grid", [
    I32EnumAttrCase<"x", 0>, I32EnumAttrCase<"y", 1>, I32EnumAttrCase<"z", 2>
  ]> {
  let cppNamespace = "::mla::tile";
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "row reduction combiner", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>, I32EnumAttrCase<"maxnum", 3>,
    I32EnumAttrCase<"minnum", 4>
  ]> {
  let cppNamespace = "::mla::tile";
}

def Tile_ParamKind : I32EnumAttr<"ParamKind", "kind of a kernel parameter", [
    I32EnumAttrCase<"i64", 0>, I32EnumAttrCase<"str", 1>
  ]> {
  let cppNamespace = "::mla::tile";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Compile-time kernel parameters
//===----------------------------------------------------------------------===//

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_ParamDeclAttr : Tile_Attr<"ParamDecl", "param_decl"> {
  let summary = "a compile-time parameter declared by a kernel";
  let description = [{
    One entry of a kernel's `<...>` parameter list: a name, a kind (`i64`
    for integers such as heads and tile sizes, `str` for enum-like strings
    such as a KV format) and an optional default. Kernels print their
    parameters in the signature; the attribute shows in the generic form.

    ```mlir
    #tile.param_decl<"BLOCK_N", i64 = 64>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$name,
                        EnumParameter<Tile_ParamKind>:$kind,
                        OptionalParameter<"::mlir::Attribute">:$defaultValue);
  let assemblyFormat = "`<` $name `,` $kind (`=` $defaultValue^)? `>`";
  let genVerifyDecl = 1;
}

def Tile_ParamAttr : Tile_Attr<"Param", "param"> {
  let summary = "the value of a kernel parameter, in an attribute";
  let description = [{
    Replaced by the parameter's value (an `i64` integer or a string) when
    the kernel is specialized; used in `tile.launch` so that each instance
    has its own launch keys.

    ```mlir
    tile.launch = {role = "mla.partial", kv_dtype = #tile.param<"KV">,
                   heads = #tile.param<"H">, grid = ["work_items", 1, 1]}
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$name);
  let assemblyFormat = "`<` $name `>`";
}

def Tile_DimsAttr : Tile_Attr<"Dims", "dims", [
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
    DeclareAttrInterfaceMethods<Tile_EncodingAttrInterface>]> {
  let summary = "names the symbolic dimensions of a tile type";
  let description = [{
    The encoding of a tile whose shape depends on `i64` kernel parameters:
    each dimension is an integer or a parameter name, and the tensor's `?`
    dimensions are exactly the named ones. Specialization replaces the type
    with the static tensor of the instance. A reduce drops the dimension's
    entry and a transpose swaps the entries.

    ```mlir
    !q_tile = tensor<?x576xbf16, #tile.dims<[BLOCK_M, 576]>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::Attribute">:$dims);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The parameter naming dimension `dim`, or null for a static one.
    ::mlir::StringAttr getParam(unsigned dim) const {
      return ::llvm::dyn_cast<::mlir::StringAttr>(getDims()[dim]);
    }
    /// The encoding for `entries`, or null where none of them is symbolic.
    static DimsAttr getIfSymbolic(::mlir::MLIRContext *context,
                                  ::llvm::ArrayRef<::mlir::Attribute> entries);
  }];
}

#endif // MLA_TILE_ATTRS_TD
