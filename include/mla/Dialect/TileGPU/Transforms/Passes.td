//===- Passes.td - Layout passes for tiles on GPUs ---------*- tablegen -*-===//

#ifndef MLA_TILEGPU_TRANSFORMS_PASSES_TD
#define MLA_TILEGPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileGPUAssignLayouts : Pass<"tilegpu-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "Give every tile of every kernel a distributed layout";
  let description = [{
    Chooses where each element of each tile lives on `chip`, and makes the
    IR say so: every tile type gets a `#tilegpu` layout encoding, and a
    `tilegpu.convert_layout` is inserted only where two layouts meet.

    - Anchors: loads get a blocked layout that moves 16 bytes per lane along
      the view's contiguous dimension; `tile.dot` results get the chip's
      matrix-core layout and its operands the matching operand layouts.
      The product's warp grid is the one whose warps read the fewest
      operand rows and columns per K step, each warp taking at most two
      instruction rows: a 64x512 product on 8 warps gets 2x4 warps of
      32x128, a 64x32 one 4x2 warps of 16x16.
    - Elementwise ops, `scf.for` loop-carried values and `scf.if` results
      share one layout with their operands; `tile.reduce` results take the
      slice of their input's layout and `tile.broadcast` inputs the slice
      of their result's; constants, splats and ranges take whatever layout
      their user needs.
    - Where two anchors meet in one such group the matrix-core layout wins
      over a blocked one and the other is converted.

    The warps per program come from the kernel's `tile.launch` key `waves`
    when present, else from `num-warps`; the kernel records the result in
    `tilegpu.num_warps`.

    Before:
    ```mlir
    %t = tile.load %v[%i, %c0] : !tile.view<?x256xf32> -> tensor<16x256xf32>
    %m = tile.reduce max %t dim 1 : tensor<16x256xf32> -> tensor<16xf32>
    ```
    After:
    ```mlir
    %t = tile.load %v[%i, %c0] : !tile.view<?x256xf32>
        -> tensor<16x256xf32, #tilegpu.blocked<...>>
    %m = tile.reduce max %t dim 1 : tensor<16x256xf32, #tilegpu.blocked<...>>
        -> tensor<16xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.blocked<...>>>
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"gfx950\"",
           "Target chip: gfx950, gfx942 or sm_90">,
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps (waves) per program when the kernel does not say">,
  ];
  let dependentDialects = ["::mla::tilegpu::TileGPUDialect"];
}

def TileGPUPrintLaneMaps : Pass<"tilegpu-print-lane-maps"> {
  let summary = "Report the lane map of every tile result with a layout";
  let description = [{
    For reading and testing layouts: each op whose results carry a
    distributed layout gets a remark listing, per result, the digits of its
    lane map (`reg 4 -> d0 x1, lane 16 -> d1 x1, ...`: register, lane and
    warp digits, least significant first, each moving a tile dimension by a
    stride, or `*` for a replica).
  }];
}

def TileGPUStageOperands : Pass<"tilegpu-stage-operands", "::mlir::ModuleOp"> {
  let summary = "Stage matrix-core operands loaded from global memory in LDS";
  let description = [{
    A tile loaded from global memory in a blocked layout (16 bytes per lane,
    coalesced) reaches a matrix-core operand layout through LDS. Instead of
    one exchange per use, each such load is written to LDS once
    (`tilegpu.local_alloc`, in a swizzled shared layout) and every use
    reads what it needs from there (`tilegpu.local_load`): a transposed
    operand or a column window (`tilegpu.memdesc_slice`: V is the first 512
    columns of the KV tile). The flagship's KV tile is thus read from
    global memory once and staged once for both of its products.

    An fp8 or MX tile is decoded once, by all the program's lanes: its
    bytes (and scales) are staged as they were loaded, then read back part
    by part, each lane one 16-byte run, decoded, and written with
    `tilegpu.local_store` into one bf16 buffer (a `tilegpu.local_buffer`)
    between two `tilegpu.barrier`s; the operands read that buffer. Only one
    part is in registers at a time, and no warp decodes an element another
    has decoded.

    A left operand loaded straight into its operand layout outside the loop
    of its product, whose share is more than 96 registers per lane, is
    staged too: loaded again in a coalesced layout and written to LDS
    before the loop, and each K block read from there right before its
    product (Q of a 16-row block on 32-lane warps would hold 144).

    Before:
    ```mlir
    %kv = tile.load ... -> tensor<64x576xbf16, #blocked>
    %kt = tile.trans %kv : ... -> tensor<576x64xbf16, #blocked1>
    %b = tilegpu.convert_layout %kt : ... -> tensor<576x64xbf16, #dot_op>
    ```
    After:
    ```mlir
    %kv = tile.load ... -> tensor<64x576xbf16, #blocked>
    %m = tilegpu.local_alloc %kv : ... -> !tilegpu.memdesc<64x576xbf16, #shared>
    %k = tilegpu.local_load %m : ... -> tensor<64x576xbf16, #linear>
    %kt = tile.trans %k : ... -> tensor<576x64xbf16, #linear1>
    %b = tilegpu.convert_layout %kt : ... -> tensor<576x64xbf16, #dot_op>
    ```
    (the last conversion only renames registers: both layouts put every
    element in the same lane).

    In a kernel whose products are warpgroup products (a `wgmma` result
    layout), the staged 16-bit tiles take the canonical swizzled layouts
    (atoms) those read through matrix descriptors, and each product stays
    whole: it holds no operand registers (tilegpu-warpgroup-dots).
  }];
  let dependentDialects = ["::mla::tilegpu::TileGPUDialect"];
}

def TileGPUWarpgroupDots : Pass<"tilegpu-warpgroup-dots", "::mlir::ModuleOp"> {
  let summary = "Feed warpgroup products from shared memory";
  let description = [{
    A `tile.dot` whose result has a `wgmma` layout (sm_90a) becomes a
    `tilegpu.warpgroup_dot` of shared buffers, which the instructions read
    through matrix descriptors. An operand that tilegpu-stage-operands
    reads from a staged buffer (a `tilegpu.local_load` of a buffer or a
    window of one; for the right operand also through a `tile.trans`, which
    makes it the transposed [N, K] form) is replaced by that buffer. Any
    other operand (one computed in registers: an attention step's
    probabilities) is written to a buffer of its own with
    `tilegpu.local_alloc`, in the canonical layout.

    Before:
    ```mlir
    %q = tilegpu.local_load %qs : ... -> tensor<64x576xbf16, #dot_op>
    %k = tilegpu.local_load %ks : ... -> tensor<32x576xbf16, #linear>
    %kt = tile.trans %k : ... -> tensor<576x32xbf16, #linear1>
    %b = tilegpu.convert_layout %kt : ... -> tensor<576x32xbf16, #dot_op1>
    %s = tile.dot %q, %b, %acc : ... -> tensor<64x32xf32, #mma>
    ```
    After:
    ```mlir
    %s = tilegpu.warpgroup_dot %qs, %ks, %acc {rhs_transposed} : ...
    ```
  }];
  let dependentDialects = ["::mla::tilegpu::TileGPUDialect"];
}

def TileGPUPipelineLoads : Pass<"tilegpu-pipeline-loads", "::mlir::ModuleOp"> {
  let summary = "Issue each loop iteration's global tile loads iterations ahead";
  let description = [{
    A `tile.load` in the body of an `scf.for` whose operands come from
    outside the loop, from the induction variable, or from side-effect-free
    ops of the body over those, is loaded one iteration ahead: the first
    iteration's tile before the loop, and at the start of each iteration
    the next one, carried to the next iteration by the loop. The next
    tile's global loads are then in flight while this iteration computes
    (for a staged tile: while the math reads the LDS copy written from the
    current one). The load of the last iteration's successor reads past the
    loop's range; tile loads are bounded by their view, so it reads padding
    and never faults. A loop that may write memory tile loads read (any
    write but a local_alloc's to LDS) keeps its loads in place.

    A kernel opts in with the launch key `stages` (the tiles in flight, 2
    to 4; 1, the default, leaves its loops alone); the pass option
    `stages` applies to kernels that do not say. The carried tile costs
    its registers across the whole loop body, so it is carried one
    iteration ahead whatever the stage count.

    A tile that only goes to LDS (its one user a `tilegpu.local_alloc`)
    costs no registers where `chip` copies from global memory straight into
    LDS as many bytes per lane as a global load moves (16: gfx950, sm_90;
    gfx942's 4-byte copies would cost a quarter of the width, so its tiles
    keep the register path; see LdsCopy.h). It gets S = `stages` LDS
    buffers (`tilegpu.local_buffer`): the first S - 1 tiles are copied into
    buffers 0 .. S - 2 before the loop, and each iteration starts the copy
    of the tile S - 1 iterations ahead into the buffer the previous
    iteration read (`tilegpu.async_copy`), waits for its own tile, leaving
    the later ones in flight (`tilegpu.async_wait {pending = (S - 1) x
    copies per iteration}`), and reads it. After the loop every copy is
    waited for.

    With three stages or more, where every product of the loop is a
    `tilegpu.warpgroup_dot` that accumulates into a loop-carried tile only
    it reads and reads only the staged tiles or buffers the loop does not
    write, the products stay in flight from one iteration into the next:
    each is issued `async`, the loop carries its result through a
    `tilegpu.warpgroup_wait` that leaves this iteration's products in
    flight (so the previous iteration's are done), and the loop's result
    is read after a wait for all of them. One buffer per tile is then kept
    for the products in flight: tiles are copied S - 2 iterations ahead,
    into the buffer read two iterations before.

    Before:
    ```mlir
    scf.for %t = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (...) {
      %kv = tile.load %view[%t, %c0] : ... -> tensor<64x576xbf16, #blocked>
      %m = tilegpu.local_alloc %kv : ...
      ... math on %m ...
    }
    ```
    After:
    ```mlir
    %kv0 = tile.load %view[%c0, %c0] : ...
    scf.for %t = %c0 to %n step %c64 iter_args(%acc = %acc0, %kv = %kv0) -> (...) {
      %t1 = arith.addi %t, %c64 : index
      %next = tile.load %view[%t1, %c0] : ...
      %m = tilegpu.local_alloc %kv : ...
      ... math on %m ...
      scf.yield ..., %next
    }
    ```
  }];
  let options = [
    Option<"stages", "stages", "unsigned", /*default=*/"1",
           "Tiles in flight for kernels whose launch keys do not say (1 to 8)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip (gfx950, gfx942 or sm_90); staged tiles are copied "
           "into LDS asynchronously where that is as wide as a global load. "
           "Empty: carried in registers">,
  ];
}

#endif // MLA_TILEGPU_TRANSFORMS_PASSES_TD
