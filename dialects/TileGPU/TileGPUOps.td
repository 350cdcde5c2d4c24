//===- TileGPUOps.td - Layout conversions and LDS -----------*- tablegen -*-===//

#ifndef MLA_TILEGPU_OPS_TD
#define MLA_TILEGPU_OPS_TD

include "TileGPU/TileGPUAttrs.td"
include "TileGPU/TileGPUTypes.td"
include "Tile/TileTypes.td"
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

def TileGPU_LocalStoreOp : TileGPU_Op<"local_store", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "write a tile into an LDS buffer";
  let description = [{
    Writes `src` into `dst`, a buffer of a `tilegpu.local_buffer` or a
    window of one, each element once (replicas of the register layout write
    nothing). Unlike `tilegpu.local_alloc` it neither waits for earlier
    readers nor makes the write visible: `tilegpu.barrier`s around the
    stores that fill a buffer do, once for all of them.

    ```mlir
    tilegpu.local_store %part, %window
        : tensor<32x64xbf16, #blocked> -> !tilegpu.memdesc<32x64xbf16, #shared>
    ```
  }];
  let arguments = (ins AnyStaticShapeTensor:$src, TileGPU_MemDescType:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def TileGPU_BarrierOp : TileGPU_Op<"barrier", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for every thread of the program";
  let description = [{
    Every thread of the program reaches it before any goes on, and the LDS
    writes made before it are visible to the reads after it.

    ```mlir
    tilegpu.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Asynchronous copies into LDS
//===----------------------------------------------------------------------===//

def TileGPU_LocalBufferOp : TileGPU_Op<"local_buffer", [
    MemoryEffects<[MemAlloc]>]> {
  let summary = "LDS buffers that copies or stores fill";
  let description = [{
    `N` buffers of one tile each in the program's LDS (the leading dimension
    of the result counts them), with no contents until `tilegpu.async_copy`
    or `tilegpu.local_store` writes one. `tilegpu.memdesc_index` names one
    of them. Its place in LDS is `offset` (bytes), set by the lowering; each
    buffer is padded to a whole number of a wave's widest copies.

    ```mlir
    %kv = tilegpu.local_buffer : !tilegpu.memdesc<2x64x576xbf16, #shared3>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def TileGPU_MemDescIndexOp : TileGPU_Op<"memdesc_index", [Pure]> {
  let summary = "one buffer of a local_buffer";
  let description = [{
    Buffer `index` of `src`: its leading dimension dropped, the layout
    otherwise the same.

    ```mlir
    %b = tilegpu.memdesc_index %kv[%stage]
        : !tilegpu.memdesc<2x64x576xbf16, #shared3> -> !tilegpu.memdesc<64x576xbf16, #shared>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$src, Index:$index);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCopyOp : TileGPU_Op<"async_copy", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "start copying a tile from global memory into LDS";
  let description = [{
    Starts copying the tile of `view` at `indices`, of the buffer's shape,
    into `dst`. Positions outside the view copy zero. The copy begins after
    every warp is done with its earlier reads of `dst`, and its data may be
    read only after a `tilegpu.async_wait` that covers it. The tile's inner
    dimensions must lie inside the view, so that only the outermost one is
    bounded, and the last must be contiguous.

    ```mlir
    tilegpu.async_copy %kv_v[%t, %c0], %b
        : !tile.view<?x576xbf16> -> !tilegpu.memdesc<64x576xbf16, #shared>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<Index>:$indices,
                       TileGPU_MemDescType:$dst);
  let assemblyFormat = [{
    $view `[` $indices `]` `,` $dst attr-dict `:` qualified(type($view)) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for asynchronous copies into LDS";
  let description = [{
    Waits until at most `pending` of the program's most recent
    `tilegpu.async_copy` ops (in program order) are still in flight, then
    makes the finished copies visible to every warp.

    ```mlir
    tilegpu.async_wait {pending = 1}
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "attr-dict";
}

def TileGPU_WarpgroupDotOp : TileGPU_Op<"warpgroup_dot", [
    MemoryEffects<[MemRead]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "a tile product whose operands are read from shared memory";
  let description = [{
    `acc + a * b` on the chip's warpgroup matrix instructions (sm_90a
    wgmma), the result in the `wgmma` layout of `acc`. `a` is the [M, K]
    left operand; `b` holds the right operand as [K, N], or with
    `rhs_transposed` as its transpose [N, K] (K contiguous: a K tile's
    rows). Both are buffers (or windows of buffers) in the canonical
    swizzled layouts the instructions' matrix descriptors address.

    ```mlir
    %s = tilegpu.warpgroup_dot %q, %k, %acc {rhs_transposed}
        : !tilegpu.memdesc<64x576xbf16, #shared>,
          !tilegpu.memdesc<32x576xbf16, #shared> -> tensor<64x32xf32, #mma>
    ```

    With `async`, the product is issued and not waited for: it may still
    read `a` and `b` and write its result after the op. The result is read
    only as the accumulator of a later `async` product or through a
    `tilegpu.warpgroup_wait` that covers the product.
  }];
  let arguments = (ins TileGPU_MemDescType:$a, TileGPU_MemDescType:$b,
                       AnyStaticShapeTensor:$acc, UnitAttr:$rhs_transposed,
                       UnitAttr:$async);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` qualified(type($a)) `,`
    qualified(type($b)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TileGPU_WarpgroupWaitOp : TileGPU_Op<"warpgroup_wait", [
    MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["value", "result"]>]> {
  let summary = "wait for asynchronous warpgroup products";
  let description = [{
    Waits until at most `pending` of the warp's most recent `async`
    `tilegpu.warpgroup_dot` ops (in program order) are still in flight.
    `value` is the result of one of those products, and `result` the same
    value: readable where the product is done (`pending` leaves it out),
    else only as the accumulator of a later async product.

    ```mlir
    %acc = tilegpu.warpgroup_wait %s {pending = 1} : tensor<128x128xf32, #mma>
    ```
  }];
  let arguments = (ins AnyStaticShapeTensor:$value,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // MLA_TILEGPU_OPS_TD
