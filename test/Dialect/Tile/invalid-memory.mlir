// RUN: mla-opt %s -split-input-file -verify-diagnostics

tile.kernel @view_elem(%p: !tile.ptr<bf16>) {
  // expected-error @+1 {{view element type 'f32' differs from the pointer's 'bf16'}}
  %v = tile.view %p sizes [4] strides [1] : !tile.ptr<bf16> -> !tile.view<4xf32>
  tile.return
}

// -----

tile.kernel @view_count(%p: !tile.ptr<bf16>) {
  // expected-error @+1 {{needs 2 sizes and 2 strides for a rank-2 view, got 1 and 2}}
  %v = tile.view %p sizes [4] strides [4, 1] : !tile.ptr<bf16> -> !tile.view<4x4xbf16>
  tile.return
}

// -----

tile.kernel @view_static_mismatch(%p: !tile.ptr<bf16>) {
  // expected-error @+1 {{size 1 is static but the result type says 8; they must agree}}
  %v = tile.view %p sizes [4, 4] strides [4, 1] : !tile.ptr<bf16> -> !tile.view<4x8xbf16>
  tile.return
}

// -----

tile.kernel @view_dynamic_mismatch(%p: !tile.ptr<bf16>, %n: i32) {
  %i = arith.index_cast %n : i32 to index
  // expected-error @+1 {{size 0 is dynamic but the result type says 4; they must agree}}
  %v = tile.view %p sizes [%i] strides [1] : !tile.ptr<bf16> -> !tile.view<4xbf16>
  tile.return
}

// -----

tile.kernel @view_negative_stride(%p: !tile.ptr<bf16>) {
  // expected-error @+1 {{stride 0 is negative}}
  %v = tile.view %p sizes [4] strides [-1] : !tile.ptr<bf16> -> !tile.view<4xbf16>
  tile.return
}

// -----

tile.kernel @load_indices(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %v = tile.view %p sizes [4, 4] strides [4, 1] : !tile.ptr<f32> -> !tile.view<4x4xf32>
  // expected-error @+1 {{needs 2 indices for a rank-2 view, got 1}}
  %t = tile.load %v[%c0] : !tile.view<4x4xf32> -> tensor<4x4xf32>
  tile.return
}

// -----

tile.kernel @load_rank(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %v = tile.view %p sizes [4, 4] strides [4, 1] : !tile.ptr<f32> -> !tile.view<4x4xf32>
  // expected-error @+1 {{tile 'tensor<16xf32>' must have the view's rank 2}}
  %t = tile.load %v[%c0, %c0] : !tile.view<4x4xf32> -> tensor<16xf32>
  tile.return
}

// -----

tile.kernel @load_elem(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %v = tile.view %p sizes [4] strides [1] : !tile.ptr<f32> -> !tile.view<4xf32>
  // expected-error @+1 {{tile element type 'bf16' differs from the view's 'f32'}}
  %t = tile.load %v[%c0] : !tile.view<4xf32> -> tensor<4xbf16>
  tile.return
}

// -----

tile.kernel @load_mask_shape(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %m = arith.constant dense<true> : tensor<8xi1>
  %v = tile.view %p sizes [4, 4] strides [4, 1] : !tile.ptr<f32> -> !tile.view<4x4xf32>
  // expected-error @+1 {{mask 'tensor<8xi1>' must match the tile's shape or its leading dimensions ('tensor<4x4xf32>')}}
  %t = tile.load %v[%c0, %c0] mask %m : tensor<8xi1> : !tile.view<4x4xf32> -> tensor<4x4xf32>
  tile.return
}

// -----

tile.kernel @load_trailing_mask(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %m = arith.constant dense<true> : tensor<8xi1>
  %v = tile.view %p sizes [4, 8] strides [8, 1] : !tile.ptr<f32> -> !tile.view<4x8xf32>
  // A mask covers leading dimensions only.
  // expected-error @+1 {{must match the tile's shape or its leading dimensions}}
  %t = tile.load %v[%c0, %c0] mask %m : tensor<8xi1> : !tile.view<4x8xf32> -> tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @load_pad_type(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0 : i32
  %v = tile.view %p sizes [4] strides [1] : !tile.ptr<f32> -> !tile.view<4xf32>
  // expected-note @-2 {{prior use here}}
  // expected-error @+1 {{use of value '%pad' expects different type than prior uses: 'f32' vs 'i32'}}
  %t = tile.load %v[%c0] pad %pad : !tile.view<4xf32> -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @store_elem(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant dense<1> : tensor<4xi32>
  %v = tile.view %p sizes [4] strides [1] : !tile.ptr<f32> -> !tile.view<4xf32>
  // expected-error @+1 {{tile element type 'i32' differs from the view's 'f32'}}
  tile.store %x, %v[%c0] : tensor<4xi32>, !tile.view<4xf32>
  tile.return
}

// -----

tile.kernel @store_mask(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant dense<1.0> : tensor<4xf32>
  %m = arith.constant dense<true> : tensor<2xi1>
  %v = tile.view %p sizes [4] strides [1] : !tile.ptr<f32> -> !tile.view<4xf32>
  // expected-error @+1 {{mask 'tensor<2xi1>' must match the tile's shape}}
  tile.store %x, %v[%c0] mask %m : tensor<2xi1> : tensor<4xf32>, !tile.view<4xf32>
  tile.return
}

// -----

tile.kernel @load_scalar_index(%p: !tile.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{use of value '%c0' expects different type than prior uses: 'index' vs 'i32'}}
  %x = tile.load_scalar %p[%c0] : !tile.ptr<i32>
  // expected-note @-3 {{prior use here}}
  tile.return
}

// -----

tile.kernel @view_rank0(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{views have at least one dimension}}
  %v = "tile.view"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,
                        static_sizes = array<i64>, static_strides = array<i64>}>
      : (!tile.ptr<f32>) -> !tile.view<f32>
  tile.return
}

// -----

// A mask of the tile's rank is read element for element with it: the two
// share one layout.
tile.kernel @load_mask_encoding(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %m = arith.constant dense<true> : tensor<4xi1, "M">
  %v = tile.view %p sizes [4] strides [1] : !tile.ptr<f32> -> !tile.view<4xf32>
  // expected-error @+1 {{mask 'tensor<4xi1, "M">' must have the tile's encoding ('tensor<4xf32, "L">')}}
  %t = tile.load %v[%c0] mask %m : tensor<4xi1, "M"> : !tile.view<4xf32> -> tensor<4xf32, "L">
  tile.return
}

// -----

tile.kernel @store_mask_encoding(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant dense<1.0> : tensor<4x2xf32, "L">
  %m = arith.constant dense<true> : tensor<4x2xi1>
  %v = tile.view %p sizes [4, 2] strides [2, 1] : !tile.ptr<f32> -> !tile.view<4x2xf32>
  // expected-error @+1 {{mask 'tensor<4x2xi1>' must have the tile's encoding ('tensor<4x2xf32, "L">')}}
  tile.store %x, %v[%c0, %c0] mask %m : tensor<4x2xi1> : tensor<4x2xf32, "L">, !tile.view<4x2xf32>
  tile.return
}

// -----

// A row mask (lower rank) is not compared: its layout is the tile's reduced.
// expected-no-diagnostics
tile.kernel @row_mask_encoding(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %m = arith.constant dense<true> : tensor<4xi1>
  %v = tile.view %p sizes [4, 2] strides [2, 1] : !tile.ptr<f32> -> !tile.view<4x2xf32>
  %t = tile.load %v[%c0, %c0] mask %m : tensor<4xi1> : !tile.view<4x2xf32> -> tensor<4x2xf32, "L">
  tile.return
}
