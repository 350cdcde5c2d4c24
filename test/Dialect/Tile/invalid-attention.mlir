// RUN: mla-opt %s -split-input-file -verify-diagnostics

tile.kernel @features(%s: f32) {
  %q = arith.constant dense<1.0> : tensor<16x576xbf16>
  %k = arith.constant dense<1.0> : tensor<64x512xbf16>
  %v = arith.constant dense<1.0> : tensor<64x512xbf16>
  %m = arith.constant dense<0.0> : tensor<16xf32>
  %acc = arith.constant dense<0.0> : tensor<16x512xf32>
  // expected-error @+1 {{q rows have 576 features but k rows have 512}}
  %r:3 = tile.qk_softmax_acc %q, %k, %v, %m, %m, %acc scale %s
      : tensor<16x576xbf16>, tensor<64x512xbf16>, tensor<64x512xbf16> -> tensor<16x512xf32>
  tile.return
}

// -----

tile.kernel @values(%s: f32) {
  %q = arith.constant dense<1.0> : tensor<16x576xbf16>
  %k = arith.constant dense<1.0> : tensor<64x576xbf16>
  %v = arith.constant dense<1.0> : tensor<32x512xbf16>
  %m = arith.constant dense<0.0> : tensor<16xf32>
  %acc = arith.constant dense<0.0> : tensor<16x512xf32>
  // expected-error @+1 {{k has 64 keys but v has 32 rows}}
  %r:3 = tile.qk_softmax_acc %q, %k, %v, %m, %m, %acc scale %s
      : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<32x512xbf16> -> tensor<16x512xf32>
  tile.return
}

// -----

tile.kernel @acc_shape(%s: f32) {
  %q = arith.constant dense<1.0> : tensor<16x576xbf16>
  %k = arith.constant dense<1.0> : tensor<64x576xbf16>
  %v = arith.constant dense<1.0> : tensor<64x512xbf16>
  %m = arith.constant dense<0.0> : tensor<16xf32>
  %acc = arith.constant dense<0.0> : tensor<16x576xf32>
  // expected-error @+1 {{acc must be 'tensor<16x512xf32>' (q rows x v columns), got 'tensor<16x576xf32>'}}
  %r:3 = tile.qk_softmax_acc %q, %k, %v, %m, %m, %acc scale %s
      : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16> -> tensor<16x576xf32>
  tile.return
}

// -----

tile.kernel @mask_shape(%s: f32) {
  %q = arith.constant dense<1.0> : tensor<16x576xbf16>
  %k = arith.constant dense<1.0> : tensor<64x576xbf16>
  %v = arith.constant dense<1.0> : tensor<64x512xbf16>
  %m = arith.constant dense<0.0> : tensor<16xf32>
  %acc = arith.constant dense<0.0> : tensor<16x512xf32>
  %mask = arith.constant dense<true> : tensor<16xi1>
  // expected-error @+1 {{mask must be 'tensor<64xi1>' (per key) or 'tensor<16x64xi1>' (per query and key), got 'tensor<16xi1>'}}
  %r:3 = tile.qk_softmax_acc %q, %k, %v, %m, %m, %acc scale %s mask %mask : tensor<16xi1>
      : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16> -> tensor<16x512xf32>
  tile.return
}

// -----

tile.kernel @state_rows(%s: f32) {
  %q = arith.constant dense<1.0> : tensor<16x576xbf16>
  %k = arith.constant dense<1.0> : tensor<64x576xbf16>
  %v = arith.constant dense<1.0> : tensor<64x512xbf16>
  // expected-note @+1 {{prior use here}}
  %m = arith.constant dense<0.0> : tensor<32xf32>
  %acc = arith.constant dense<0.0> : tensor<16x512xf32>
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'tensor<16xf32>' vs 'tensor<32xf32>'}}
  %r:3 = tile.qk_softmax_acc %q, %k, %v, %m, %m, %acc scale %s
      : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16> -> tensor<16x512xf32>
  tile.return
}

// -----

tile.kernel @rank(%s: f32) {
  %q = arith.constant dense<1.0> : tensor<2x16x576xbf16>
  %k = arith.constant dense<1.0> : tensor<64x576xbf16>
  %v = arith.constant dense<1.0> : tensor<64x512xbf16>
  %m = arith.constant dense<0.0> : tensor<16xf32>
  %acc = arith.constant dense<0.0> : tensor<16x512xf32>
  // expected-error @+1 {{q, k, v and acc must be 2-D tiles}}
  %r:3 = tile.qk_softmax_acc %q, %k, %v, %m, %m, %acc scale %s
      : tensor<2x16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16> -> tensor<16x512xf32>
  tile.return
}

// -----

tile.kernel @split_both_forms() {
  %p = arith.constant dense<1.0> : tensor<8x16x128xf32>
  %s = arith.constant dense<0.0> : tensor<8x16xf32>
  // expected-error @+1 {{takes either `lse` or both `max` and `sum`}}
  %o = tile.split_reduce %p lse %s max %s sum %s : tensor<8x16x128xf32> -> tensor<16x128xf32>
  tile.return
}

// -----

tile.kernel @split_no_form() {
  %p = arith.constant dense<1.0> : tensor<8x16x128xf32>
  // expected-error @+1 {{takes either `lse` or both `max` and `sum`}}
  %o = tile.split_reduce %p : tensor<8x16x128xf32> -> tensor<16x128xf32>
  tile.return
}

// -----

tile.kernel @split_rank() {
  %p = arith.constant dense<1.0> : tensor<8x128xf32>
  %s = arith.constant dense<0.0> : tensor<8xf32>
  // expected-error @+1 {{partial must be a [splits, rows, columns] tile, got 'tensor<8x128xf32>'}}
  %o = tile.split_reduce %p lse %s : tensor<8x128xf32> -> tensor<128xf32>
  tile.return
}

// -----

tile.kernel @split_result() {
  %p = arith.constant dense<1.0> : tensor<8x16x128xf32>
  %s = arith.constant dense<0.0> : tensor<8x16xf32>
  // expected-error @+1 {{result must be 'tensor<16x128xf32>' (partial without the split dimension)}}
  %o = tile.split_reduce %p lse %s : tensor<8x16x128xf32> -> tensor<8x128xf32>
  tile.return
}

// -----

tile.kernel @split_state_shape() {
  %p = arith.constant dense<1.0> : tensor<8x16x128xf32>
  // expected-note @+1 {{prior use here}}
  %s = arith.constant dense<0.0> : tensor<8x128xf32>
  // expected-error @+1 {{use of value '%s' expects different type than prior uses: 'tensor<8x16xf32>' vs 'tensor<8x128xf32>'}}
  %o = tile.split_reduce %p lse %s : tensor<8x16x128xf32> -> tensor<16x128xf32>
  tile.return
}

// -----

tile.kernel @split_max_only() {
  %p = arith.constant dense<1.0> : tensor<8x16x128xf32>
  %s = arith.constant dense<0.0> : tensor<8x16xf32>
  // expected-error @+1 {{the max/sum form needs both `max` and `sum`}}
  %o = "tile.split_reduce"(%p, %s) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>}>
      : (tensor<8x16x128xf32>, tensor<8x16xf32>) -> tensor<16x128xf32>
  tile.return
}

// -----

tile.kernel @split_result_encoding() {
  %p = arith.constant dense<1.0> : tensor<8x16x128xf32, "L">
  %s = arith.constant dense<0.0> : tensor<8x16xf32, "L">
  // expected-error @+1 {{result must be 'tensor<16x128xf32, "L">' (partial without the split dimension)}}
  %o = tile.split_reduce %p lse %s : tensor<8x16x128xf32, "L"> -> tensor<16x128xf32>
  tile.return
}

// -----

// The running state is derived from the accumulator, encoding included.
tile.kernel @state_encoding(%s: f32) {
  %q = arith.constant dense<1.0> : tensor<16x64xbf16>
  %k = arith.constant dense<1.0> : tensor<32x64xbf16>
  // expected-note @+1 {{prior use here}}
  %m = arith.constant dense<0.0> : tensor<16xf32>
  %acc = arith.constant dense<0.0> : tensor<16x64xf32, "L">
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'tensor<16xf32, "L">' vs 'tensor<16xf32>'}}
  %r:3 = tile.qk_softmax_acc %q, %k, %k, %m, %m, %acc scale %s
      : tensor<16x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16> -> tensor<16x64xf32, "L">
  tile.return
}

// -----

tile.kernel @values_too_wide(%s: f32) {
  %q = arith.constant dense<1.0> : tensor<16x64xbf16>
  %k = arith.constant dense<1.0> : tensor<32x64xbf16>
  %m = arith.constant dense<0.0> : tensor<16xf32>
  %acc = arith.constant dense<0.0> : tensor<16x128xf32>
  // expected-error @+1 {{without v, the values are the first 128 columns of k (acc's columns), but k has 64}}
  %r:3 = tile.qk_softmax_acc %q, %k, %m, %m, %acc scale %s
      : tensor<16x64xbf16>, tensor<32x64xbf16> -> tensor<16x128xf32>
  tile.return
}

// -----

tile.kernel @operand_count(%s: f32) {
  %q = arith.constant dense<1.0> : tensor<16x64xbf16>
  %acc = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error @+1 {{expected q, k, [v,] m, l, acc: 5 or 6 operands, got 4}}
  %r:3 = tile.qk_softmax_acc %q, %q, %acc, %acc scale %s
      : tensor<16x64xbf16>, tensor<16x64xbf16> -> tensor<16x64xf32>
  tile.return
}
