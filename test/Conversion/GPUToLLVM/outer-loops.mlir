// RUN: mla-opt %s --convert-gpu-kernels-to-llvm=chip=gfx950 | FileCheck %s
// RUN: mla-opt %s --convert-gpu-kernels-to-llvm=chip=sm_90 | FileCheck %s

// A loop that holds another loop (a partial program's run of work items
// around its KV loop) keeps LLVM's LICM out: what it would hoist stays live
// across the inner loop. Its back edge carries the mark; the inner loop's
// does not.
// CHECK: #[[$LICM:.*]] = #llvm.loop_licm<disable = true>
// CHECK: #[[$KEEP:.*]] = #llvm.loop_annotation<licm = #[[$LICM]]>
// CHECK-LABEL: llvm.func @nested
// CHECK: llvm.cond_br
// CHECK: llvm.cond_br
// CHECK: llvm.br ^{{bb[0-9]+}}({{.*}}){{$}}
// CHECK: llvm.br ^{{bb[0-9]+}}({{.*}}) {loop_annotation = #[[$KEEP]]}
// CHECK-NOT: loop_annotation
// CHECK-LABEL: llvm.func @flat
// CHECK-NOT: loop_annotation
gpu.module @kernels {
  gpu.func @nested(%p: !llvm.ptr<1>, %n: i32) kernel {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        %x = arith.addi %i, %j : i32
        llvm.store %x, %p : i32, !llvm.ptr<1>
      }
    }
    gpu.return
  }
  gpu.func @flat(%p: !llvm.ptr<1>, %n: i32) kernel {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      llvm.store %i, %p : i32, !llvm.ptr<1>
    }
    gpu.return
  }
}
