// The AMDGPU path from MLIR: amdgpu and rocdl ops lowered by upstream
// passes (convert-amdgpu-to-rocdl for gfx950, then mlir-translate) run under
// the emulator like any module the backend would receive. Results are
// checked against shared/AMD.md (utils/amdref.py); a hazard names the MLIR
// source location once the module carries debug scopes.
//
// RUN: mlir-opt %s --convert-amdgpu-to-rocdl=chipset=gfx950 \
// RUN:   --convert-vector-to-llvm --convert-arith-to-llvm \
// RUN:   --reconcile-unrealized-casts --ensure-debug-info-scope-on-llvm-func \
// RUN:   --mlir-print-debuginfo | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: mla-emu-compile %t.ll --chip=gfx950 -o %t.so \
// RUN:   --arg-type=arg0=bf16,arg1=bf16,arg2=f32,arg3=f32,arg4=i32,arg5=i32 \
// RUN:   --arg-type=scaled.arg0=i8,scaled.arg1=i8,buffer.arg0=f32,buffer.arg1=f32 \
// RUN:   --arg-type=past_the_end.arg0=f32
//
// RUN: %amdref random %t.a.npy --dtype u2 --count 512 --seed 1
// RUN: %amdref random %t.b.npy --dtype u2 --count 512 --seed 2
// RUN: %amdref random %t.c.npy --dtype f4 --count 256 --seed 3
// RUN: mla-run --target emu --module %t.so --kernel mfma --grid 1 \
// RUN:   --arg arg0=@%t.a.npy --arg arg1=@%t.b.npy --arg arg2=@%t.c.npy \
// RUN:   --arg arg3=empty:256 --save arg3=%t.d.npy > /dev/null
// RUN: %amdref check-mfma 16x16x32_bf16 %t.a.npy %t.b.npy %t.c.npy %t.d.npy \
// RUN:   | FileCheck %s --check-prefix=MFMA
// MFMA: check: mfma 16x16x32_bf16 {{.*}} PASS
//
// Scale indices 2 and 1 select those bytes of each lane's four E8M0 codes.
// RUN: %amdref random %t.fa.npy --dtype u1 --count 1024 --values fp4 --seed 4
// RUN: %amdref random %t.fb.npy --dtype u1 --count 1024 --values fp4 --seed 5
// RUN: %amdref random %t.sa.npy --dtype i4 --count 64 --values e8m0x4 --seed 6
// RUN: %amdref random %t.sb.npy --dtype i4 --count 64 --values e8m0x4 --seed 7
// RUN: mla-run --target emu --module %t.so --kernel scaled --grid 1 \
// RUN:   --arg arg0=@%t.fa.npy --arg arg1=@%t.fb.npy --arg arg2=@%t.c.npy \
// RUN:   --arg arg3=empty:256 --arg arg4=@%t.sa.npy --arg arg5=@%t.sb.npy \
// RUN:   --save arg3=%t.sd.npy > /dev/null
// RUN: %amdref check-mfma scale_16x16x128_fp4 %t.fa.npy %t.fb.npy %t.c.npy \
// RUN:   %t.sd.npy --scales %t.sa.npy %t.sb.npy 2 1 | FileCheck %s --check-prefix=SCALED
// SCALED: check: mfma scale_16x16x128_fp4 {{.*}} PASS
//
// raw_buffer_load with bounds checking: the last 16 of 64 lanes read past
// the 48 elements the buffer holds and get zeros.
// RUN: %amdref random %t.in.npy --dtype f4 --count 64 --values iota
// RUN: mla-run --target emu --module %t.so --kernel buffer --grid 1 \
// RUN:   --arg arg0=@%t.in.npy --arg arg1=empty:64 --save arg1=%t.out.npy > /dev/null
// RUN: %amdref print %t.out.npy | FileCheck %s --check-prefix=BUFFER
// BUFFER:      {{^}}0.0 1.0 2.0 {{.*}} 15.0{{$}}
// BUFFER:      {{^}}32.0 33.0 {{.*}} 47.0{{$}}
// BUFFER-NEXT: {{^}}0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0{{$}}
//
// RUN: not mla-run --target emu --module %t.so --kernel past_the_end --grid 1 \
// RUN:   --arg arg0=empty:64 2>&1 | FileCheck %s --check-prefix=LOCATION

llvm.func @mfma(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>, %d: !llvm.ptr<1>)
    attributes {rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 64, 1, 1>} {
  %lane = rocdl.workitem.id.x : i32
  %pa = llvm.getelementptr %a[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<8xbf16>
  %va = llvm.load %pa : !llvm.ptr<1> -> vector<8xbf16>
  %pb = llvm.getelementptr %b[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<8xbf16>
  %vb = llvm.load %pb : !llvm.ptr<1> -> vector<8xbf16>
  %pc = llvm.getelementptr %c[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<4xf32>
  %vc = llvm.load %pc : !llvm.ptr<1> -> vector<4xf32>
  %vd = amdgpu.mfma 16x16x32 %va * %vb + %vc {blocks = 1 : i32, abid = 0 : i32, cbsz = 0 : i32}
      blgp = none : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %pd = llvm.getelementptr %d[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<4xf32>
  llvm.store %vd, %pd : vector<4xf32>, !llvm.ptr<1>
  llvm.return
}

llvm.func @scaled(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>, %d: !llvm.ptr<1>,
                  %sa: !llvm.ptr<1>, %sb: !llvm.ptr<1>)
    attributes {rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 64, 1, 1>} {
  %lane = rocdl.workitem.id.x : i32
  %pa = llvm.getelementptr %a[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<16xi8>
  %ra = llvm.load %pa : !llvm.ptr<1> -> vector<16xi8>
  %va = vector.bitcast %ra : vector<16xi8> to vector<32xf4E2M1FN>
  %pb = llvm.getelementptr %b[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<16xi8>
  %rb = llvm.load %pb : !llvm.ptr<1> -> vector<16xi8>
  %vb = vector.bitcast %rb : vector<16xi8> to vector<32xf4E2M1FN>
  %pc = llvm.getelementptr %c[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<4xf32>
  %vc = llvm.load %pc : !llvm.ptr<1> -> vector<4xf32>
  %psa = llvm.getelementptr %sa[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<4xi8>
  %rsa = llvm.load %psa : !llvm.ptr<1> -> vector<4xi8>
  %vsa = vector.bitcast %rsa : vector<4xi8> to vector<4xf8E8M0FNU>
  %psb = llvm.getelementptr %sb[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<4xi8>
  %rsb = llvm.load %psb : !llvm.ptr<1> -> vector<4xi8>
  %vsb = vector.bitcast %rsb : vector<4xi8> to vector<4xf8E8M0FNU>
  %vd = amdgpu.scaled_mfma 16x16x128 (%vsa[2] * %va) * (%vsb[1] * %vb) + %vc
      : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>,
        vector<32xf4E2M1FN>, vector<4xf32>
  %pd = llvm.getelementptr %d[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<4xf32>
  llvm.store %vd, %pd : vector<4xf32>, !llvm.ptr<1>
  llvm.return
}

llvm.func @buffer(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>)
    attributes {rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 64, 1, 1>} {
  %lane = rocdl.workitem.id.x : i32
  // The memref descriptor of `in` as 48 floats.
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c48 = llvm.mlir.constant(48 : i64) : i64
  %d0 = llvm.mlir.undef : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
  %d1 = llvm.insertvalue %in, %d0[0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
  %d2 = llvm.insertvalue %in, %d1[1] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
  %d3 = llvm.insertvalue %c0, %d2[2] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
  %d4 = llvm.insertvalue %c48, %d3[3, 0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
  %d5 = llvm.insertvalue %c1, %d4[4, 0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
  %view = builtin.unrealized_conversion_cast %d5
      : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)> to memref<48xf32, 1>
  %v = amdgpu.raw_buffer_load %view[%lane] : memref<48xf32, 1>, i32 -> f32
  %p = llvm.getelementptr %out[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  llvm.store %v, %p : f32, !llvm.ptr<1>
  llvm.return
}

llvm.func @past_the_end(%out: !llvm.ptr<1>)
    attributes {rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 64, 1, 1>} {
  %lane = rocdl.workitem.id.x : i32
  %c64 = llvm.mlir.constant(64 : i32) : i32
  %i = llvm.add %lane, %c64 : i32
  %p = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  %one = llvm.mlir.constant(1.0 : f32) : f32
  // LOCATION: error: emu: kernel 'past_the_end' workgroup (0,0,0): wave 0 lane 0 writes 4 bytes at {{.*}}, outside the kernel's buffers (byte 256 of argument 'arg0', which has 256 bytes) at {{.*}}rocdl.mlir:[[@LINE+1]]:3 in @past_the_end
  llvm.store %one, %p : f32, !llvm.ptr<1>
  llvm.return
}
