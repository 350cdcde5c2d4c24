//===- TileGPUAttrs.td - Distributed and shared layouts -----*- tablegen -*-===//

#ifndef MLA_TILEGPU_ATTRS_TD
#define MLA_TILEGPU_ATTRS_TD

include "TileGPU/TileGPUDialect.td"
include "Tile/TileInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"

//===----------------------------------------------------------------------===//
// Interface
//===----------------------------------------------------------------------===//

def TileGPU_DistributedLayout : AttrInterface<"DistributedLayoutAttr"> {
  let cppNamespace = "::mla::tilegpu";
  let description = [{
    A layout that spreads a tile over the registers of the lanes of the
    warps of one program. Its meaning is its lane map for a shape.
  }];
  let methods = [
    InterfaceMethod<"The map of a tile of `shape`, or failure with `why` set "
                    "when the layout cannot hold that shape.",
      "::mlir::FailureOr<::mla::tilegpu::LaneMap>", "getLaneMap",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "std::string *":$why)>,
    InterfaceMethod<"Lanes per warp.", "unsigned", "getWaveSize">,
    InterfaceMethod<"Warps per program.", "unsigned", "getNumWarps">,
  ];
}

class TileGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TileGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

/// A distributed layout usable as a tensor encoding; the tensor type's
/// verifier checks that the layout can hold its shape.
class TileGPU_LayoutAttr<string name, string attrMnemonic>
    : TileGPU_Attr<name, attrMnemonic, [
        DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>,
        DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
        DeclareAttrInterfaceMethods<Tile_EncodingAttrInterface>]>;

//===----------------------------------------------------------------------===//
// Blocked
//===----------------------------------------------------------------------===//

def TileGPU_BlockedAttr : TileGPU_LayoutAttr<"Blocked", "blocked"> {
  let summary = "contiguous elements per lane, lanes and warps tiled over dims";
  let description = [{
    Each lane holds `sizePerThread[d]` consecutive elements of dimension `d`;
    `threadsPerWarp` lanes and `warpsPerCTA` warps tile the dimensions in
    `order` (fastest first); the pattern repeats over the tile, and a tile
    smaller than it is replicated. The layout of global loads and stores:
    with `sizePerThread` 16 bytes along the contiguous dimension, each lane
    moves 16 bytes per access and a warp's accesses are contiguous.

    ```mlir
    #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8],
                     warpsPerCTA = [4, 1], order = [1, 0]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat =
      "`<` `sizePerThread` `=` `[` $sizePerThread `]` `,` `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,` `order` `=` `[` $order `]` `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Matrix-core layouts
//===----------------------------------------------------------------------===//

def TileGPU_MmaKind : I32EnumAttr<"MmaKind", "matrix-core instruction family", [
    I32EnumAttrCase<"mfma", 0>, I32EnumAttrCase<"mma_sync", 1>,
    I32EnumAttrCase<"wgmma", 2>
  ]> {
  let cppNamespace = "::mla::tilegpu";
  let genSpecializedAttr = 0;
}
def TileGPU_MmaKindAttr : EnumAttr<TileGPU_Dialect, TileGPU_MmaKind, "mma_kind">;

def TileGPU_MmaAttr : TileGPU_LayoutAttr<"Mma", "mma"> {
  let summary = "the result layout of a matrix-core instruction";
  let description = [{
    The accumulator layout of `kind` (AMD `mfma`, wave64, or NVIDIA
    `mma_sync`, warp 32) with instruction shape `instrShape` = [m, n, k];
    `warpsPerCTA` = [wm, wn] warps split the rows and columns of the tile,
    and each warp repeats the instruction over its part. The lane layout of
    one instruction is the hardware's (shared/AMD.md, PTX ISA).

    A third count, `warpsPerCTA` = [wm, wn, wk], splits K too (not for
    `wgmma`): each group of wm x wn warps multiplies its own K steps of the
    operands (K step i on group i % wk), and the product sums the groups'
    partial results through LDS, so every group holds the whole result.
    The result's lane map has the wk groups as replicas; the operands'
    split K.

    `wgmma` is sm_90a's warpgroup product: one instruction of m = 64 rows
    is issued by 4 consecutive warps, warp w % 4 holding rows
    16 * (w % 4) ..+16 of it; wm is a multiple of 4 and wm / 4 warpgroups
    split the rows, wn the columns, n columns each. Its operands are read
    from shared memory (`tilegpu.warpgroup_dot`), not from registers.

    ```mlir
    #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [4, 1]>
    ```
  }];
  let parameters = (ins "MmaKind":$kind,
                        ArrayRefParameter<"unsigned">:$instrShape,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA);
  let assemblyFormat =
      "`<` `kind` `=` $kind `,` `instrShape` `=` `[` $instrShape `]` `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getInstrM() const { return getInstrShape()[0]; }
    unsigned getInstrN() const { return getInstrShape()[1]; }
    unsigned getInstrK() const { return getInstrShape()[2]; }
    /// The warp groups that split K (1 unless warpsPerCTA has a third
    /// count).
    unsigned getWarpsK() const {
      return getWarpsPerCTA().size() > 2 ? getWarpsPerCTA()[2] : 1;
    }
    /// Consecutive K elements of an operand one lane holds per instruction.
    unsigned getKWidth() const;
  }];
}

def TileGPU_DotOperandAttr : TileGPU_LayoutAttr<"DotOperand", "dot_operand"> {
  let summary = "an operand layout of a matrix-core instruction";
  let description = [{
    Operand `opIdx` (0: A = [M, K], 1: B = [K, N]) of the instructions of
    `parent`. The warps of the parent that do not split the operand hold
    replicas of it.

    ```mlir
    #tilegpu.dot_operand<opIdx = 1, parent = #mma>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx, "MmaAttr":$parent);
  let assemblyFormat =
      "`<` `opIdx` `=` $opIdx `,` `parent` `=` $parent `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Slice
//===----------------------------------------------------------------------===//

def TileGPU_SliceAttr : TileGPU_LayoutAttr<"Slice", "slice"> {
  let summary = "a parent layout with one dimension reduced away";
  let description = [{
    The layout of `tile.reduce ... dim D` applied to a tile in `parent`:
    the lanes and warps that held a row of the parent each hold its result
    (replicated along the reduced dimension). Broadcasting a slice back
    along `dim` gives the parent layout without moving data.

    ```mlir
    #tilegpu.slice<dim = 1, parent = #blocked>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat =
      "`<` `dim` `=` $dim `,` `parent` `=` $parent `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Linear
//===----------------------------------------------------------------------===//

def TileGPU_LinearAttr : TileGPU_LayoutAttr<"Linear", "linear"> {
  let summary = "any lane map, spelled out digit by digit";
  let description = [{
    The layout for tiles whose map no named layout describes, such as the
    E8M0 scales of an MX tile (one per 32 elements of its dequantized
    result's lanes): the digits of the register, lane and warp indices,
    least significant first, each moving one dimension by a stride or
    nothing (`*`, a replica).

    ```mlir
    #tilegpu.linear<[lane 2 -> d1 x1, lane 32 -> d0 x1, warp 4 -> *,
                     reg 9 -> d1 x2]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$digits);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The digits as lane factors.
    ::llvm::SmallVector<::mla::tilegpu::LaneFactor> getFactors() const;
    static LinearAttr get(::mlir::MLIRContext *ctx,
                          ::llvm::ArrayRef<::mla::tilegpu::LaneFactor> factors);
  }];
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def TileGPU_SharedAttr : TileGPU_Attr<"Shared", "shared"> {
  let summary = "how a tile is laid out in LDS / shared memory";
  let description = [{
    Row-major in `order` (fastest first) with an XOR swizzle of groups of
    `vec` elements along the fastest dimension: group `g` of row `r` is
    stored at group `g ^ ((r / perPhase) % maxPhase)`. A swizzle spreads the
    rows a matrix-core operand read touches at once over distinct banks.
    `vec = 1, perPhase = 1, maxPhase = 1` is plain row-major.

    A nonzero `atom` cuts the fastest dimension into atoms of that many
    elements, stored one after another, each as deep as the buffer
    ([cols / atom][rows][atom]); the swizzle stays inside an atom
    (`atom = vec * maxPhase`). With 16-byte groups and 32, 64 or 128-byte
    atoms these are the canonical swizzled layouts that sm_90a's warpgroup
    products read through matrix descriptors (PTX ISA, "Shared Memory
    Matrix Layout").

    ```mlir
    #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
    #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 64>
    ```
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order,
                        DefaultValuedParameter<"unsigned", "0">:$atom);
  let assemblyFormat =
      "`<` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,` `maxPhase` `=` $maxPhase `,` `order` `=` `[` $order `]` (`,` `atom` `=` $atom^)? `>`";
  let builders = [
    AttrBuilder<(ins "unsigned":$vec, "unsigned":$perPhase,
                     "unsigned":$maxPhase, "::llvm::ArrayRef<unsigned>":$order), [{
      return $_get($_ctxt, vec, perPhase, maxPhase, order, 0);
    }]>
  ];
  let genVerifyDecl = 1;
}

#endif // MLA_TILEGPU_ATTRS_TD
