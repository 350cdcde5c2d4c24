// RUN: mla-opt %s --convert-tile-to-gpu=chip=sm_90 -split-input-file | FileCheck %s --check-prefix=SM90

// No buffer instructions on NVIDIA: every global access is a plain
// llvm.load or llvm.store that an scf.if skips when the position is outside
// the view or the mask. Each lane's 4 consecutive f32 move as one 16-byte
// access where they are all valid and the address is 16-byte aligned (the
// row stride, 129, leaves most rows unaligned), else one by one; the loaded
// values outside the view or the mask take the padding value.
#blocked = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tilegpu.slice<dim = 1, parent = #blocked>
// SM90-LABEL: gpu.func @copy
// SM90-SAME: (%[[X:[^:]*]]: !llvm.ptr<1> {llvm.noalias}, %[[Y:[^:]*]]: !llvm.ptr<1> {llvm.noalias}, %{{.*}}: i32) kernel
// SM90-SAME: known_block_size = array<i32: 128, 1, 1>
// SM90: %[[TID:.*]] = gpu.thread_id x
// SM90: arith.divui %[[TID]], %c32
// SM90-NOT: rocdl.
// SM90: %[[OFF:.*]] = arith.extui %{{.*}} : i32 to i64
// SM90: %[[AT:.*]] = llvm.getelementptr %[[X]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// SM90: %[[INT:.*]] = llvm.ptrtoint %[[AT]] : !llvm.ptr<1> to i64
// SM90: %[[LOW:.*]] = llvm.and %[[INT]], %{{.*}} : i64
// SM90: %[[ALIGNED:.*]] = llvm.icmp "eq" %[[LOW]], %{{.*}} : i64
// SM90: %[[WHOLE:.*]] = arith.andi %{{.*}}, %[[ALIGNED]] : i1
// SM90: scf.if %[[WHOLE]] -> (vector<4xf32>) {
// SM90: scf.if %{{.*}} -> (vector<4xf32>) {
// SM90: llvm.getelementptr %[[X]]
// SM90-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// SM90: } else {
// SM90: scf.if %{{.*}} -> (f32) {
// SM90: llvm.getelementptr %[[X]]
// SM90-NEXT: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// SM90: } else {
// SM90-NEXT: arith.constant 0.000000e+00 : f32
// SM90-COUNT-3: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// SM90: vector.from_elements %{{.*}} : vector<4xf32>
// SM90: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// Stores: the vector where valid and aligned, else each valid element.
// SM90: llvm.getelementptr %[[Y]]
// SM90: llvm.ptrtoint
// SM90: scf.if %{{.*}} {
// SM90: scf.if %{{.*}} {
// SM90: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// SM90: } else {
// SM90: scf.if %{{.*}} {
// SM90: llvm.getelementptr %[[Y]]
// SM90-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// SM90: gpu.return
tile.kernel @copy(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %rows: i32)
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %n = arith.index_cast %rows : i32 to index
  %neg = arith.constant -1.0 : f32
  %in = tile.view %x sizes [%n, 129] strides [129, 1] : !tile.ptr<f32> -> !tile.view<?x129xf32>
  %keys = tile.range : tensor<8xindex, #slice>
  %limit = tile.splat %n : tensor<8xindex, #slice>
  %valid = arith.cmpi slt, %keys, %limit : tensor<8xindex, #slice>
  %t = tile.load %in[%c0, %c0] mask %valid : tensor<8xi1, #slice> pad %neg
      : !tile.view<?x129xf32> -> tensor<8x256xf32, #blocked>
  %out = tile.view %y sizes [%n, 129] strides [129, 1] : !tile.ptr<f32> -> !tile.view<?x129xf32>
  tile.store %t, %out[%c0, %c0] : tensor<8x256xf32, #blocked>, !tile.view<?x129xf32>
  tile.return
}

// -----

// The number of programs is the grid's size; the program id the block's.
#blocked = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// SM90-LABEL: gpu.func @ids
// SM90: gpu.block_id y
// SM90: gpu.grid_dim y
tile.kernel @ids(%x: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %id = tile.program_id y
  %n = tile.num_programs y
  %sum = arith.addi %id, %n : index
  %v = arith.index_cast %sum : index to i32
  %t = tile.splat %v : tensor<32xi32, #blocked>
  %c0 = arith.constant 0 : index
  %view = tile.view %x sizes [32] strides [1] : !tile.ptr<i32> -> !tile.view<32xi32>
  tile.store %t, %view[%c0] : tensor<32xi32, #blocked>, !tile.view<32xi32>
  tile.return
}
