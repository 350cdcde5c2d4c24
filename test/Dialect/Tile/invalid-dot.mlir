// RUN: mla-opt %s -split-input-file -verify-diagnostics

tile.kernel @contraction() {
  %a = arith.constant dense<1.0> : tensor<16x576xbf16>
  %b = arith.constant dense<1.0> : tensor<512x64xbf16>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error @+1 {{contraction sizes differ: lhs is 'tensor<16x576xbf16>', rhs is 'tensor<512x64xbf16>'; lhs dim 1 must equal rhs dim 0}}
  %d = tile.dot %a, %b, %c : tensor<16x576xbf16>, tensor<512x64xbf16> -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @element_types() {
  %a = arith.constant dense<1.0> : tensor<16x64xbf16>
  %b = arith.constant dense<1.0> : tensor<64x64xf16>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error @+1 {{operand element types differ ('bf16' vs 'f16'); convert one, or use tile.dot_scaled}}
  %d = tile.dot %a, %b, %c : tensor<16x64xbf16>, tensor<64x64xf16> -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @accumulator() {
  %a = arith.constant dense<1.0> : tensor<16x64xbf16>
  %b = arith.constant dense<1.0> : tensor<64x32xbf16>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error @+1 {{accumulator must be 'tensor<16x32xf32>', got 'tensor<16x64xf32>'}}
  %d = tile.dot %a, %b, %c : tensor<16x64xbf16>, tensor<64x32xbf16> -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @rank() {
  %a = arith.constant dense<1.0> : tensor<64xbf16>
  %b = arith.constant dense<1.0> : tensor<64x32xbf16>
  %c = arith.constant dense<0.0> : tensor<16x32xf32>
  // expected-error @+1 {{operands must be 2-D tiles}}
  %d = tile.dot %a, %b, %c : tensor<64xbf16>, tensor<64x32xbf16> -> tensor<16x32xf32>
  tile.return
}

// -----

tile.kernel @i8_dot() {
  %a = arith.constant dense<1> : tensor<16x64xi8>
  %b = arith.constant dense<1> : tensor<64x32xi8>
  %c = arith.constant dense<0.0> : tensor<16x32xf32>
  // expected-error @+1 {{operand #0 must be statically shaped tensor of}}
  %d = tile.dot %a, %b, %c : tensor<16x64xi8>, tensor<64x32xi8> -> tensor<16x32xf32>
  tile.return
}

// -----

tile.kernel @scaled_missing_scale() {
  %a = arith.constant dense<1.0> : tensor<16x576xbf16>
  %b = arith.constant dense<0> : tensor<288x64xi8>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error @+1 {{rhs is packed fp4 (i8) and needs its E8M0 scale}}
  %d = tile.dot_scaled %a, %b, %c : tensor<16x576xbf16>, tensor<288x64xi8> -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @scaled_bf16_with_scale() {
  %a = arith.constant dense<1.0> : tensor<16x576xbf16>
  %as = arith.constant dense<0x7F> : tensor<16x18xf8E8M0FNU>
  %b = arith.constant dense<0> : tensor<288x64xi8>
  %bs = arith.constant dense<0x7F> : tensor<64x18xf8E8M0FNU>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error @+1 {{lhs is 'bf16'; only fp8 and fp4 operands take a scale}}
  %d = tile.dot_scaled %a scale %as : tensor<16x18xf8E8M0FNU>, %b scale %bs : tensor<64x18xf8E8M0FNU>, %c
      : tensor<16x576xbf16>, tensor<288x64xi8> -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @scaled_k_mismatch() {
  %a = arith.constant dense<1.0> : tensor<16x576xbf16>
  %b = arith.constant dense<0> : tensor<576x64xi8>
  %bs = arith.constant dense<0x7F> : tensor<64x36xf8E8M0FNU>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error @+1 {{contraction lengths differ: lhs has 576 and rhs 1152 logical elements (packed fp4 counts twice)}}
  %d = tile.dot_scaled %a, %b scale %bs : tensor<64x36xf8E8M0FNU>, %c
      : tensor<16x576xbf16>, tensor<576x64xi8> -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @scaled_scale_shape() {
  %a = arith.constant dense<1.0> : tensor<16x576xbf16>
  %b = arith.constant dense<0> : tensor<288x64xi8>
  %bs = arith.constant dense<0x7F> : tensor<18x64xf8E8M0FNU>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error @+1 {{rhs scale must be 'tensor<64x18xf8E8M0FNU>' (one per 32 of K), got 'tensor<18x64xf8E8M0FNU>'}}
  %d = tile.dot_scaled %a, %b scale %bs : tensor<18x64xf8E8M0FNU>, %c
      : tensor<16x576xbf16>, tensor<288x64xi8> -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @scaled_block() {
  %a = arith.constant dense<1.0> : tensor<16x48xf8E4M3FN>
  %as = arith.constant dense<0x7F> : tensor<16x1xf8E8M0FNU>
  %b = arith.constant dense<1.0> : tensor<48x64xbf16>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error @+1 {{contraction length 48 must be a multiple of the MX block of 32}}
  %d = tile.dot_scaled %a scale %as : tensor<16x1xf8E8M0FNU>, %b, %c
      : tensor<16x48xf8E4M3FN>, tensor<48x64xbf16> -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @scaled_element() {
  %a = arith.constant dense<1> : tensor<16x64xi32>
  %b = arith.constant dense<1.0> : tensor<64x64xbf16>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error @+1 {{lhs element type 'i32' is not bf16, f16, f32, fp8 or packed fp4 (i8)}}
  %d = tile.dot_scaled %a, %b, %c : tensor<16x64xi32>, tensor<64x64xbf16> -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @scaled_accumulator() {
  %a = arith.constant dense<1.0> : tensor<16x64xbf16>
  %b = arith.constant dense<1.0> : tensor<64x64xbf16>
  %c = arith.constant dense<0.0> : tensor<16x32xf32>
  // expected-error @+1 {{accumulator must be 'tensor<16x64xf32>', got 'tensor<16x32xf32>'}}
  %d = tile.dot_scaled %a, %b, %c : tensor<16x64xbf16>, tensor<64x64xbf16> -> tensor<16x32xf32>
  tile.return
}

// -----

tile.kernel @scaled_rank() {
  %a = arith.constant dense<1.0> : tensor<64xbf16>
  %b = arith.constant dense<1.0> : tensor<64x64xbf16>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error @+1 {{lhs must be a 2-D tile}}
  %d = tile.dot_scaled %a, %b, %c : tensor<64xbf16>, tensor<64x64xbf16> -> tensor<16x64xf32>
  tile.return
}
