// RUN: mla-opt %s -split-input-file -verify-diagnostics

tile.kernel @dim_range() {
  %x = arith.constant dense<1.0> : tensor<16x64xf32>
  // expected-error @+1 {{dim 2 is outside the input's 2 dimensions}}
  %r = tile.reduce max %x dim 2 : tensor<16x64xf32> -> tensor<16xf32>
  tile.return
}

// -----

tile.kernel @wrong_result() {
  %x = arith.constant dense<1.0> : tensor<16x64xf32>
  // expected-error @+1 {{result must be 'tensor<16xf32>' (the input without dim 1)}}
  %r = tile.reduce sum %x dim 1 : tensor<16x64xf32> -> tensor<64xf32>
  tile.return
}

// -----

tile.kernel @result_element() {
  %x = arith.constant dense<1.0> : tensor<16x64xf32>
  // expected-error @+1 {{result must be 'tensor<16xf32>' (the input without dim 1)}}
  %r = tile.reduce sum %x dim 1 : tensor<16x64xf32> -> tensor<16xbf16>
  tile.return
}

// -----

tile.kernel @sum_i1() {
  %x = arith.constant dense<true> : tensor<16xi1>
  // expected-error @+1 {{sum of i1 tiles is not defined; extend to i32 first}}
  %r = tile.reduce sum %x dim 0 : tensor<16xi1> -> tensor<i1>
  tile.return
}

// -----

tile.kernel @unknown_kind() {
  %x = arith.constant dense<1.0> : tensor<16xf32>
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, max, min, maxnum, minnum]}}
  %r = tile.reduce prod %x dim 0 : tensor<16xf32> -> tensor<f32>
  tile.return
}

// -----

tile.kernel @result_encoding() {
  %x = arith.constant dense<1.0> : tensor<16x64xf32, "L">
  // expected-error @+1 {{result must be 'tensor<16xf32, "L">' (the input without dim 1)}}
  %r = tile.reduce sum %x dim 1 : tensor<16x64xf32, "L"> -> tensor<16xf32>
  tile.return
}
