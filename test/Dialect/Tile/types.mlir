// RUN: mla-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func private @types
// CHECK-SAME: !tile.ptr<bf16>, !tile.ptr<f8E8M0FNU>, !tile.view<?x576xbf16>, !tile.view<16xf32>, !tile.view<?x?x512xi8>
func.func private @types(!tile.ptr<bf16>, !tile.ptr<f8E8M0FNU>, !tile.view<?x576xbf16>,
                         !tile.view<16xf32>, !tile.view<?x?x512xi8>)

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{failed to parse Tile_PtrType parameter 'elementType'}}
func.func private @ptr_without_type(!tile.ptr<>)

// -----

// expected-error @+1 {{expected 'x' in dimension list}}
func.func private @view_without_x(!tile.view<?576xbf16>)

// -----

// expected-error @+1 {{unknown  type `tensor_ptr` in dialect `tile`}}
func.func private @unknown(!tile.tensor_ptr<bf16>)

// -----

// expected-error @+1 {{f4E2M1FN is not byte-addressable; address packed fp4 as i8 (two values per byte)}}
func.func private @fp4_ptr(!tile.ptr<f4E2M1FN>)

// -----

// expected-error @+1 {{global memory holds scalars of a tile element type, not 'tensor<4xf32>'}}
func.func private @tensor_ptr(!tile.ptr<tensor<4xf32>>)

// -----

// expected-error @+1 {{global memory holds scalars of a tile element type, not 'f64'}}
func.func private @f64_view(!tile.view<?xf64>)
