// z = x + y over n f32 elements, BLOCK elements per program: the first of
// Triton's tutorials. The grid is the program's rule, cdiv(n, BLOCK); the
// view bounds the ragged last block, so its loads past n read nothing and
// its stores past n write nothing.
//
// RUN: mla-opt %s | mla-opt | FileCheck %s
//
// On the host and both emulated AMD chips against the float64 sum: 10000
// elements, the tenth block ragged.
// RUN: mla-compile %s --target=host -o %t.so
// RUN: %npytool random %t.x.npy --dtype f32 --shape 10000 --seed 1
// RUN: %npytool random %t.y.npy --dtype f32 --shape 10000 --seed 2
// RUN: mla-run --target host --module %t.so --kernel add --arg x=@%t.x.npy \
// RUN:   --arg y=@%t.y.npy --arg z=empty:10000 --arg n=10000 --save z=%t.z.npy \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// RUN: %npytool check-add %t.x.npy %t.y.npy %t.z.npy | FileCheck %s --check-prefix=SUM
// RUN: mla-compile %s --target=gfx950-emu -o %t.950.so
// RUN: mla-run --target emu --module %t.950.so --kernel add --arg x=@%t.x.npy \
// RUN:   --arg y=@%t.y.npy --arg z=empty:10000 --arg n=10000 --save z=%t.z950.npy
// RUN: %npytool check-add %t.x.npy %t.y.npy %t.z950.npy | FileCheck %s --check-prefix=SUM
// RUN: mla-compile %s --target=gfx942-emu -o %t.942.so
// RUN: mla-run --target emu --module %t.942.so --kernel add --arg x=@%t.x.npy \
// RUN:   --arg y=@%t.y.npy --arg z=empty:10000 --arg n=10000 --save z=%t.z942.npy
// RUN: %npytool check-add %t.x.npy %t.y.npy %t.z942.npy | FileCheck %s --check-prefix=SUM
//
// The NVIDIA lowering compiles to PTX.
// RUN: mla-compile %s --target=sm_90 --emit=asm -o - | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: tile.kernel @add<BLOCK: i64 = 1024>
// CHECK: arith.addf
// CHECK: tile.store
// LAUNCH: run: target=host kernel=add grid=10x1x1
// SUM: check: rel_fro={{.*}} outside_tol=0/10000 nan=0 PASS
// PTX-LABEL: .visible .entry add(
// PTX: ld.global
// PTX: add.rn.f32
// PTX: st.global

!block = tensor<?xf32, #tile.dims<[BLOCK]>>

tile.kernel @add<BLOCK: i64 = 1024>(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>,
                                    %z: !tile.ptr<f32>, %n: i32)
    attributes {tile.launch = {grid = ["cdiv(n, BLOCK)", 1, 1]}} {
  %block = tile.param "BLOCK" : index
  %pid = tile.program_id x
  %start = arith.muli %pid, %block : index
  %len = arith.index_cast %n : i32 to index
  %xv = tile.view %x sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %yv = tile.view %y sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %zv = tile.view %z sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %a = tile.load %xv[%start] : !tile.view<?xf32> -> !block
  %b = tile.load %yv[%start] : !tile.view<?xf32> -> !block
  %c = arith.addf %a, %b : !block
  tile.store %c, %zv[%start] : !block, !tile.view<?xf32>
  tile.return
}
