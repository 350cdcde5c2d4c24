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
