// RUN: mla-opt %s -split-input-file -verify-diagnostics

tile.kernel @fp4_last_dim() {
  %p = arith.constant dense<0> : tensor<64x256xi8>
  %s = arith.constant dense<0x7F> : tensor<64x18xf8E8M0FNU>
  // expected-error @+1 {{packed fp4 tile's last dimension (256) times 2 must equal the result's last dimension (576): each byte holds two values}}
  %k = tile.dequant_mx %p, %s : tensor<64x256xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
  tile.return
}

// -----

tile.kernel @scale_last_dim() {
  %p = arith.constant dense<0> : tensor<64x288xi8>
  %s = arith.constant dense<0x7F> : tensor<64x17xf8E8M0FNU>
  // expected-error @+1 {{scale tile's last dimension (17) times 32 must equal the result's last dimension (576): one E8M0 scale per block of 32 values}}
  %k = tile.dequant_mx %p, %s : tensor<64x288xi8>, tensor<64x17xf8E8M0FNU> -> tensor<64x576xbf16>
  tile.return
}

// -----

tile.kernel @leading_dims() {
  %p = arith.constant dense<0> : tensor<32x288xi8>
  %s = arith.constant dense<0x7F> : tensor<64x18xf8E8M0FNU>
  // expected-error @+1 {{leading dimensions of packed ('tensor<32x288xi8>'), scales ('tensor<64x18xf8E8M0FNU>') and result ('tensor<64x576xbf16>') must agree}}
  %k = tile.dequant_mx %p, %s : tensor<32x288xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
  tile.return
}

// -----

tile.kernel @rank() {
  %p = arith.constant dense<0> : tensor<2x64x288xi8>
  %s = arith.constant dense<0x7F> : tensor<64x18xf8E8M0FNU>
  // expected-error @+1 {{packed, scale and result tiles must have the same rank (>= 1), got 3, 2 and 2}}
  %k = tile.dequant_mx %p, %s : tensor<2x64x288xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
  tile.return
}

// -----

tile.kernel @mxfp8_last_dim() {
  %p = arith.constant dense<1.0> : tensor<64x288xf8E4M3FN>
  %s = arith.constant dense<0x7F> : tensor<64x18xf8E8M0FNU>
  // expected-error @+1 {{fp8 tile's last dimension (288) must equal the result's (576)}}
  %k = tile.dequant_mx %p, %s : tensor<64x288xf8E4M3FN>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
  tile.return
}

// -----

tile.kernel @scale_type() {
  %p = arith.constant dense<0> : tensor<64x288xi8>
  %s = arith.constant dense<1> : tensor<64x18xi8>
  // expected-error @+1 {{operand #1 must be statically shaped tensor of f8E8M0FNU type values}}
  %k = tile.dequant_mx %p, %s : tensor<64x288xi8>, tensor<64x18xi8> -> tensor<64x576xbf16>
  tile.return
}

// -----

tile.kernel @result_type() {
  %p = arith.constant dense<0> : tensor<64x288xi8>
  %s = arith.constant dense<0x7F> : tensor<64x18xf8E8M0FNU>
  // expected-error @+1 {{result #0 must be statically shaped tensor of bfloat16 type or 16-bit float or 32-bit float values}}
  %k = tile.dequant_mx %p, %s : tensor<64x288xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xi32>
  tile.return
}

// -----

tile.kernel @fp8_shape(%scale: f32) {
  %x = arith.constant dense<1.0> : tensor<64x576xf8E4M3FN>
  // expected-error @+1 {{result 'tensor<64x512xbf16>' must have the shape of the input 'tensor<64x576xf8E4M3FN>'}}
  %k = tile.dequant_fp8 %x, %scale : tensor<64x576xf8E4M3FN> -> tensor<64x512xbf16>
  tile.return
}

// -----

tile.kernel @fp8_input(%scale: f32) {
  %x = arith.constant dense<1.0> : tensor<64x576xbf16>
  // expected-error @+1 {{operand #0 must be statically shaped tensor of}}
  %k = tile.dequant_fp8 %x, %scale : tensor<64x576xbf16> -> tensor<64x576xbf16>
  tile.return
}

// -----

tile.kernel @fp8_encoding(%scale: f32) {
  %x = arith.constant dense<1.0> : tensor<64x576xf8E4M3FN, "L">
  // expected-error @+1 {{result 'tensor<64x576xbf16>' must have the encoding of the input 'tensor<64x576xf8E4M3FN, "L">'}}
  %k = tile.dequant_fp8 %x, %scale : tensor<64x576xf8E4M3FN, "L"> -> tensor<64x576xbf16>
  tile.return
}
