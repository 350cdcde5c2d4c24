// The manifest lists the instances of a parameterized kernel, each with its
// parameter values; an argument absent from an instance is absent from its
// entry. --instances replaces a kernel's instance set.
// RUN: rm -f %t.so %t.so.json
// RUN: mla-compile %s --target=host -o %t.so
// RUN: FileCheck %s < %t.so.json
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=SYMBOLS

// Keys are sorted: each kernel's symbol comes after its params.
// CHECK: "args": [
// CHECK-NEXT: {
// CHECK-NEXT: "extent": 0,
// CHECK-NEXT: "kind": "ptr",
// CHECK-NEXT: "name": "x",
// CHECK-NEXT: "type": "f32"
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "kind": "scalar",
// CHECK-NEXT: "name": "n",
// CHECK-NEXT: "type": "i32"
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK-NEXT: "instance_of": "scale",
// CHECK-NEXT: "launch": {
// CHECK-NEXT: "block": 64,
// CHECK-NEXT: "dtype": "f32",
// The grid rule and the requirement with the instance's BLOCK, computed
// where the parameters make it constant; 'BLOCK % 32 == 0', which they
// decide, is no requirement of the instance.
// CHECK-NEXT: "grid": [
// CHECK-NEXT: [
// CHECK-NEXT: "ceildiv",
// CHECK-NEXT: {
// CHECK-NEXT: "arg": "n"
// CHECK-NEXT: },
// CHECK-NEXT: 64
// CHECK-NEXT: ],
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "requires": [
// CHECK-NEXT: [
// CHECK-NEXT: "le",
// CHECK-NEXT: {
// CHECK-NEXT: "arg": "n"
// CHECK-NEXT: },
// CHECK-NEXT: 65536
// CHECK-NEXT: ]
// CHECK-NEXT: ]
// CHECK-NEXT: },
// CHECK: "params": {
// CHECK-NEXT: "BLOCK": 64,
// CHECK-NEXT: "DT": "f32"
// CHECK-NEXT: },
// CHECK: "symbol": "scale_f32",
// CHECK: "block": 128,
// CHECK: "ceildiv",
// CHECK-NEXT: {
// CHECK-NEXT: "arg": "n"
// CHECK-NEXT: },
// CHECK-NEXT: 128
// CHECK: "params": {
// CHECK-NEXT: "BLOCK": 128,
// CHECK-NEXT: "DT": "f32"
// CHECK: "symbol": "scale_f32_block128",
// The i8 instances have the factor argument.
// CHECK: "name": "x",
// CHECK-NEXT: "type": "i8"
// CHECK: "name": "factor",
// CHECK-NEXT: "type": "f32"
// CHECK: "name": "n",
// CHECK: "params": {
// CHECK-NEXT: "BLOCK": 64,
// CHECK-NEXT: "DT": "i8"
// CHECK: "symbol": "scale_i8",
// CHECK: "symbol": "scale_i8_block128",
// CHECK-NOT: "symbol"
// SYMBOLS-DAG: T scale_f32
// SYMBOLS-DAG: T scale_f32_block128
// SYMBOLS-DAG: T scale_i8
// SYMBOLS-DAG: T scale_i8_block128

// RUN: rm -f %t.one.so %t.one.so.json
// RUN: mla-compile %s --target=host -o %t.one.so --instances=scale:DT=i8:BLOCK=32
// RUN: FileCheck %s --check-prefix=ONE < %t.one.so.json
// ONE: "symbol": "scale_i8_block32"
// ONE-NOT: "symbol"

// Bad instance sets: a one-line error and no output.
// RUN: rm -f %t.bad.so %t.bad.so.json
// RUN: not mla-compile %s --target=host -o %t.bad.so --instances=scale:DT 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: mla-compile: error: --instances: 'scale:DT': expected PARAM=V1,V2 after 'scale:', got 'DT'
// RUN: not mla-compile %s --target=host -o %t.bad.so --instances=scal:DT=f32 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL: error: tile-specialize: instances: the program has no parameterized kernel 'scal'
// RUN: not mla-compile %s --target=host -o %t.bad.so --instances=scale:BLOCK=8 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: manifest-params.mlir:[[@LINE+5]]:1: error: 'tile.kernel' op has no value for parameter 'DT', which has no default; list it in the instances option
// RUN: not mla-compile %s --target=host -o %t.bad.so --instances=scale:DT=f32:BLOCK=48 2>&1 | FileCheck %s --check-prefix=NEVER
// NEVER: error: in instance @scale_f32_block48 (DT = "f32", BLOCK = 48): 'tile.launch' requires: 'BLOCK % 32 == 0' never holds
// RUN: not ls %t.bad.so %t.bad.so.json

tile.kernel @scale<DT: str, BLOCK: i64 = 64>(%x: !tile.ptr<!tile.switch<DT, {f32 = f32, i8 = i8}>>,
    %factor: !tile.switch<DT, {i8 = f32}>, %n: i32)
    attributes {tile.instances = {DT = ["f32", "i8"], BLOCK = [64, 128]},
                tile.launch = {dtype = #tile.param<"DT">, block = #tile.param<"BLOCK">,
                               grid = ["cdiv(n, BLOCK)", 1, 1],
                               requires = ["n <= BLOCK * 1024", "BLOCK % 32 == 0"]}} {
  tile.return
}
