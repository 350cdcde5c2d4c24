// Each --emit stage of the host target, on one small kernel.
// RUN: mla-compile %s --target=host --emit=mlir -o - | FileCheck %s --check-prefix=MLIR
// RUN: mla-compile %s --target=host --emit=llvm -o - | FileCheck %s --check-prefix=LLVM
// RUN: mla-compile %s --target=host --emit=asm -o - | FileCheck %s --check-prefix=ASM
// RUN: mla-compile %s --target=host --emit=obj -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ
// RUN: rm -f %t.so %t.so.json
// RUN: mla-compile %s --target=host -o %t.so
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=BIN
// RUN: llvm-nm -D --defined-only %t.so | count 2
// RUN: llvm-nm -D --undefined-only %t.so | FileCheck %s --check-prefix=UNDEF
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.so.json

// MLIR: llvm.func @scale(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// MLIR-NOT: tile.
// LLVM: target triple = "x86_64-unknown-linux-gnu"
// LLVM: @__mla_abi = constant [{{[0-9]+}} x i8] c"{\22kernels\22:[{\22args\22:[{\22extent\22:[\22view\22,0,[{\22arg\22:\22n\22}],[1]],\22kind\22:\22ptr\22,\22name\22:\22x\22,\22type\22:\22f32\22},{{.*}}\22symbol\22:\22scale\22,\22workgroup_size\22:[1,1,1]}],\22target\22:\22host\22,\22version\22:1}\00", align 1
// LLVM: define void @scale(ptr {{.*}}, ptr {{.*}}, ptr {{.*}})
// ASM: scale:
// OBJ: T scale
// BIN: R __mla_abi
// BIN: T scale
// The kernel and the ABI record are the only exports; compiler-runtime
// helpers are linked in.
// UNDEF-NOT: __
// MANIFEST: "target": "host"

tile.kernel @scale(%x: !tile.ptr<f32>, %n: i32, %factor: f32)
    attributes {tile.launch = {grid = ["cdiv(n, 64)", 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %len = arith.index_cast %n : i32 to index
  %block = tile.program_id x
  %start = arith.muli %block, %c64 : index
  %v = tile.view %x sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %t = tile.load %v[%start] : !tile.view<?xf32> -> tensor<64xf32>
  %f = tile.splat %factor : tensor<64xf32>
  %r = arith.mulf %t, %f : tensor<64xf32>
  tile.store %r, %v[%start] : tensor<64xf32>, !tile.view<?xf32>
  tile.return
}
