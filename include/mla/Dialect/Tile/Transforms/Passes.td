//===- Passes.td - Tile dialect transformation passes ------*- tablegen -*-===//

#ifndef MLA_TILE_TRANSFORMS_PASSES_TD
#define MLA_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileSpecialize : Pass<"tile-specialize", "::mlir::ModuleOp"> {
  let summary = "Turn parameterized kernels into one kernel per instance";
  let description = [{
    For each kernel with compile-time parameters and each of its instances
    (the cartesian product of the values in `tile.instances`, defaults for
    parameters it leaves out; a list of such dictionaries is the union of
    their products), clones the kernel and, in the clone:
    inlines every `tile.call`; keeps the region of each `tile.static_switch`
    that matches the instance (deleting the others); replaces `tile.param`
    by `arith.constant`, `#tile.param` by the value, symbolic tile types by
    static ones and `!tile.switch` types by their case (`tile.resolve`
    becomes its input); removes the
    arguments whose type has no case (which must have no use left); records
    the values in `tile.params`; and verifies the result, reporting errors
    with the instance named. Then erases the generic kernels and every
    `tile.func`. Ordinary kernels only get their calls inlined.

    An instance's symbol is the kernel's name followed, for each parameter
    in declaration order whose value is not its default, by `_<value>` for
    a `str` parameter and `_<lowercase name><value>` for an `i64` one.

    `target` names the target compiled for (host, gfx950, gfx942, sm_90):
    a kernel's `tile.target_instances` entry for it, when there is one,
    replaces its `tile.instances` (a target's tile sizes).

    `instances` replaces the instance set of the kernels it names:
    `KERNEL:PARAM=V1,V2[:PARAM=...]`, several separated by `;`; a kernel
    named several times gets the union of the products. An instance in
    several sets is made once.

    Before:
    ```mlir
    tile.kernel @scale<BLOCK: i64 = 64>(%x: !tile.ptr<f32>)
        attributes {tile.instances = {BLOCK = [64, 128]}} {
      %t = tile.load %v[%c0] : !tile.view<?xf32> -> tensor<?xf32, #tile.dims<[BLOCK]>>
      ...
    }
    ```
    After:
    ```mlir
    tile.kernel @scale(%x: !tile.ptr<f32>) attributes {tile.params = {BLOCK = 64 : i64}} {
      %t = tile.load %v[%c0] : !tile.view<?xf32> -> tensor<64xf32>
      ...
    }
    tile.kernel @scale_block128(%x: !tile.ptr<f32>) attributes {tile.params = {BLOCK = 128 : i64}} {
      ...
    }
    ```
  }];
  let options = [
    Option<"instances", "instances", "std::string", /*default=*/"",
           "Instance sets replacing those of the named kernels: "
           "KERNEL:PARAM=V1,V2[:PARAM=...][;KERNEL:...]">,
    Option<"target", "target", "std::string", /*default=*/"",
           "The target whose tile.target_instances entry applies">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mla::tile::TileDialect"];
}

def TileAssumeRequirements : Pass<"tile-assume-requirements",
                                  "::mlir::ModuleOp"> {
  let summary = "State a kernel's launch requirements as facts for LLVM";
  let description = [{
    Each condition of a specialized kernel's `tile.launch` `requires`
    (docs/DSL.md, "Launch rules") holds at every launch, because the
    launchers check it first. This pass computes each one from the
    kernel's scalar arguments at the start of its body, in 64-bit integer
    arithmetic as the launchers evaluate it, and passes the result to
    `llvm.intr.assume`, so that LLVM's analyses may rely on it (a loop
    trip count, a value range, a comparison that folds).

    A kernel launched by other means must meet its requirements too: one
    that does not has undefined behaviour. The GPU pipelines run this pass;
    the host pipeline does not, since its buffer deallocation refuses ops
    whose memory effects it does not know.

    Before:
    ```mlir
    tile.kernel @k(%n: i32) attributes {tile.launch = {requires = ["n >= 64"]}} {
      ...
    }
    ```
    After:
    ```mlir
    tile.kernel @k(%n: i32) attributes {tile.launch = {requires = ["n >= 64"]}} {
      %0 = arith.extsi %n : i32 to i64
      %c64 = arith.constant 64 : i64
      %1 = arith.cmpi sge, %0, %c64 : i64
      llvm.intr.assume %1 : i1
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def TileDecompose : Pass<"tile-decompose"> {
  let summary = "Rewrite attention and MX-scaled ops into primitive tile ops";
  let description = [{
    Lowers the high-level tile ops so that a target only has to lower
    primitives (`tile.dot`, `tile.reduce`, `tile.broadcast`, `tile.trans`,
    `tile.dequant_mx`, `tile.dequant_fp8`, `arith`, `math`):

    - `tile.qk_softmax_acc` becomes a scaled `Q K^T` product, masking with
      -inf, a row max, `exp`, a row sum and a `P V` product; without `v`,
      V is a `tensor.extract_slice` of K's first columns. A row whose
      running max is still -inf uses 0 as its reference point, so fully
      masked rows give `p = 0`, `l = 0`, `acc = 0` instead of NaN.
    - `tile.split_reduce` becomes weights `exp(lse_i - max lse)` and two
      sums over the split dimension; empty splits (-inf) are selected away,
      whatever their partial holds, and an all-empty row is zero.
    - `tile.dot_scaled` becomes `tile.dequant_mx` of each scaled operand
      followed by a bf16 `tile.dot` where every value is exact in bf16, an
      f32 one otherwise. With `keep-scaled-fp4`, a product of two
      block-scaled fp4 operands over a K that is a multiple of 128 stays:
      the chip multiplies those itself (gfx950's scaled MFMA).

    Before:
    ```mlir
    %m2, %l2, %a2 = tile.qk_softmax_acc %q, %k, %v, %m, %l, %acc scale %s
        : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
        -> tensor<16x512xf32>
    ```
    After (abridged):
    ```mlir
    %kt = tile.trans %k : tensor<64x576xbf16> -> tensor<576x64xbf16>
    %s0 = tile.dot %q, %kt, %zero : ... -> tensor<16x64xf32>
    %rowmax = tile.reduce max %s1 dim 1 : tensor<16x64xf32> -> tensor<16xf32>
    ...
    %a2 = tile.dot %p, %v, %scaled_acc : ... -> tensor<16x512xf32>
    ```
  }];
  let options = [
    Option<"keepScaledFp4", "keep-scaled-fp4", "bool", "false",
           "Keep tile.dot_scaled products of two block-scaled fp4 operands">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mla::tile::TileDialect"];
}

def TileDeferLoopSums : Pass<"tile-defer-loop-sums"> {
  let summary = "Carry loop-accumulated row sums unreduced, reduce once after the loop";
  let description = [{
    For an `scf.for` iter_arg that starts at zero and is updated as
    `l' = l * a + reduce_sum(x, d)` (or `l' = l + reduce_sum(x, d)`), with
    `a` shaped like `l` and nothing else reading `l` or `l'` in the loop,
    the loop carries `x`'s shape instead: `L' = L * broadcast(a, d) + x`,
    and `reduce_sum(L, d)` after the loop replaces the loop's result. The
    two are equal in exact arithmetic; in floating point the additions run
    in a different order.

    This is online softmax's row sum. On GPU targets a reduction along the
    rows is a butterfly of shuffles and, when warps split the keys, an
    exchange through LDS with two barriers; the carried tile costs one
    multiply and one add per register. The GPU pipelines run it; the host
    pipeline, where both cost the same, does not.

    Only sums along a tile's last (contiguous) dimension are deferred:
    lanes split that dimension, so its reduction crosses them. A tile's
    leading dimensions are register repeats within each lane where the
    layout keeps warps off a dimension it is reduced along
    (tilegpu-assign-layouts), so reducing one of them each iteration costs
    an add per register, and carrying it unreduced would multiply the
    loop's live registers by its size (a combine merging 16 splits of a
    512-wide row at a time would carry two 16x512 tiles).

    Before:
    ```mlir
    %r = scf.for ... iter_args(%l = %zeros) -> (tensor<16xf32>) {
      %p = ... : tensor<16x64xf32>
      %s = tile.reduce sum %p dim 1 : tensor<16x64xf32> -> tensor<16xf32>
      %scaled = arith.mulf %l, %alpha : tensor<16xf32>
      %l2 = arith.addf %scaled, %s : tensor<16xf32>
      scf.yield %l2 : tensor<16xf32>
    }
    ```
    After (before canonicalization drops the old iter_arg):
    ```mlir
    %r:2 = scf.for ... iter_args(%l = %zeros, %L = %tile_zeros)
        -> (tensor<16xf32>, tensor<16x64xf32>) {
      %p = ... : tensor<16x64xf32>
      %wide = tile.broadcast %alpha dims [1] : tensor<16xf32> -> tensor<16x64xf32>
      %scaled = arith.mulf %L, %wide : tensor<16x64xf32>
      %L2 = arith.addf %scaled, %p : tensor<16x64xf32>
      scf.yield %l, %L2 : tensor<16xf32>, tensor<16x64xf32>
    }
    %sum = tile.reduce sum %r#1 dim 1 : tensor<16x64xf32> -> tensor<16xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mla::tile::TileDialect"];
}

#endif // MLA_TILE_TRANSFORMS_PASSES_TD
