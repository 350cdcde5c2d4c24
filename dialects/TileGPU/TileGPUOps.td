//===- TileGPUOps.td - Layout conversions and LDS -----------*- tablegen -*-===//

#ifndef MLA_TILEGPU_OPS_TD
#define MLA_TILEGPU_OPS_TD

include "TileGPU/TileGPUAttrs.td"
include "TileGPU/TileGPUTypes.td"
include "mlir/Interfaces/ViewLikeInterface.td"
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

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

def TileGPU_LocalAllocOp : TileGPU_Op<"local_alloc", [
    MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "stage a tile in LDS";
  let description = [{
    A buffer of the program's LDS holding `src`. Each element is written
    once (replicas of the register layout write nothing); the write waits
    for earlier readers of the buffer and is visible to every warp before
    the first read. The buffer's place in LDS is `offset` (bytes), set by
    `tilegpu-allocate-lds`.

    ```mlir
    %kv = tilegpu.local_alloc %t : tensor<64x576xbf16, #blocked>
        -> !tilegpu.memdesc<64x576xbf16, #shared>
    ```
  }];
  let arguments = (ins AnyStaticShapeTensor:$src, OptionalAttr<I64Attr>:$offset);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TileGPU_MemDescSliceOp : TileGPU_Op<"memdesc_slice", [Pure]> {
  let summary = "a static window of an LDS tile";
  let description = [{
    The elements `[offsets, offsets + result shape)` of `src`, as a tile of
    the result's shape, without moving data.

    ```mlir
    %v = tilegpu.memdesc_slice %kv[0, 0]
        : !tilegpu.memdesc<64x576xbf16, #shared> -> !tilegpu.memdesc<64x512xbf16, #shared>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$src, DenseI64ArrayAttr:$offsets);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src `` $offsets attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileGPU_LocalLoadOp : TileGPU_Op<"local_load", [
    MemoryEffects<[MemRead]>]> {
  let summary = "read an LDS tile into registers";
  let description = [{
    The tile `src` holds, in the register layout of the result type.

    ```mlir
    %k = tilegpu.local_load %kv
        : !tilegpu.memdesc<64x576xbf16, #shared> -> tensor<64x576xbf16, #linear>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$src);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

#endif // MLA_TILEGPU_OPS_TD
