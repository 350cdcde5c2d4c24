//===- TileOps.td - Tile dialect operations ----------------*- tablegen -*-===//

#ifndef MLA_TILE_OPS_TD
#define MLA_TILE_OPS_TD

include "Tile/TileAttrs.td"
include "Tile/TileTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>
  ]> {
  let summary = "a tile kernel: the program one instance of the grid runs";
  let description = [{
    The body runs once per program instance of a 1-3 dimensional launch
    grid. Arguments are global pointers (`!tile.ptr`) or `i32`, `i64`, `f32`
    scalars, passed by the launcher; a kernel returns nothing. The SSA names
    of the arguments are kept (`arg_names`) because launchers bind
    arguments by name.

    The optional `tile.launch` dictionary tells a launcher how to size the
    grid: its `grid` entry holds three integers or problem-quantity names.

    Every loop in the body with a constant step must step by a positive
    amount (as a signed integer): a zero or negative step never reaches
    its upper bound.

    ```mlir
    tile.kernel @scale(%x: !tile.ptr<f32>, %n: i32)
        attributes {tile.launch = {grid = ["n", 1, 1]}} {
      ...
      tile.return
    }
    ```

    A kernel may declare compile-time parameters after its name, `i64`
    (integers) or `str` (enum-like strings), each with an optional default.
    `tile-specialize` turns it into one ordinary kernel per instance:
    `tile.instances` lists each parameter's values (the instances are their
    cartesian product; a parameter with a default may be left out).

    ```mlir
    tile.kernel @attend<KV: str, H: i64, BLOCK_N: i64 = 64>(...)
        attributes {tile.instances = {KV = ["bf16", "fp8"], H = [16, 32]}} {
      %h = tile.param "H" : index
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrArrayAttr>:$arg_names,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<TypedArrayAttrBase<Tile_ParamDeclAttr,
                           "kernel parameters">>:$params);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// FunctionOpInterface.
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// The launcher-visible name of argument `i`.
    ::llvm::StringRef getArgName(unsigned i);
    /// The declaration of parameter `name`, or null.
    ParamDeclAttr lookupParam(::llvm::StringRef name);
  }];
}

def Tile_ReturnOp : Tile_Op<"return", [Pure,
    ParentOneOf<["KernelOp", "FuncOp"]>, ReturnLike, Terminator]> {
  let summary = "ends a kernel or a helper function";
  let description = [{
    Terminates a `tile.kernel` body (no operands) or a `tile.func` body
    (the function's results).

    ```mlir
    tile.return
    tile.return %o, %lse : tensor<16x512xf32>, tensor<16xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Parameters and helpers
//===----------------------------------------------------------------------===//

def Tile_ParamOp : Tile_Op<"param", [Pure]> {
  let summary = "the value of an i64 kernel parameter";
  let description = [{
    Becomes an `arith.constant` in each instance. A `str` parameter has no
    value: branch on it with `tile.static_switch`.

    ```mlir
    %h = tile.param "H" : index
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs AnyTypeOf<[Index, I32, I64]>:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_ResolveOp : Tile_Op<"resolve", [Pure]> {
  let summary = "a parameter-dependent value, as the type it has here";
  let description = [{
    Gives a value whose type holds `!tile.switch` types on one parameter
    the type it has for one of that parameter's values, typically inside
    the `tile.static_switch` case for that value, where ops need the
    concrete type (`arith` does not know switch types). Specialization
    removes it; in an instance where the input's type is not the result's,
    it is an error.

    ```mlir
    case "mxfp4" {
      %s = tile.resolve %scale_stride : !tile.switch<KV, {mxfp4 = i32}> -> i32
      %stride = arith.index_cast %s : i32 to index
      ...
    }
    ```
  }];
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_StaticSwitchOp : Tile_Op<"static_switch", [
    RecursiveMemoryEffects, NoRegionArguments,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a branch on a kernel parameter, resolved at specialization";
  let description = [{
    Each instance keeps the region of the case that matches the parameter's
    value (or the `default` region) in place of the op; the other regions
    are deleted before the instance is verified, so a case may use types
    that are only valid for its own value. Cases are string literals for a
    `str` parameter and integers for an `i64` one. Results are yielded by
    every region.

    ```mlir
    %k = tile.static_switch "KV" -> tensor<64x576xbf16> {
    case "bf16" {
      tile.yield %raw : tensor<64x576xbf16>
    }
    case "fp8" {
      %d = tile.dequant_fp8 %raw8, %s : tensor<64x576xf8E4M3FN> -> tensor<64x576xbf16>
      tile.yield %d : tensor<64x576xbf16>
    }
    }
    ```
  }];
  let arguments = (ins StrAttr:$param, ArrayAttr:$cases);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region AnyRegion:$defaultRegion,
                        VariadicRegion<SizedRegion<1>>:$caseRegions);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The region an instance with parameter value `value` keeps, or null
    /// where no case matches and there is no default.
    ::mlir::Region *getRegionFor(::mlir::Attribute value);
  }];
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, HasParent<"StaticSwitchOp">,
                                     ReturnLike, Terminator]> {
  let summary = "the results of a tile.static_switch case";
  let description = [{
    ```mlir
    tile.yield %k : tensor<64x576xbf16>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def Tile_FuncOp : Tile_Op<"func", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "a helper function shared by kernels, inlined at every call";
  let description = [{
    Holds code several kernels share. It may use parameters (`tile.param`,
    `#tile.dims` types, `!tile.switch`, `tile.static_switch`): they resolve
    in the calling kernel's instance after inlining. `tile-specialize`
    inlines every call and erases the helpers, so they never reach a target
    or the manifest. A helper may not call itself, directly or not.

    ```mlir
    tile.func @normalize(%acc: tensor<16x512xf32>, %l: tensor<16xf32>)
        -> tensor<16x512xf32> {
      %lb = tile.broadcast %l dims [1] : tensor<16xf32> -> tensor<16x512xf32>
      %o = arith.divf %acc, %lb : tensor<16x512xf32>
      tile.return %o : tensor<16x512xf32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// FunctionOpInterface.
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
}

def Tile_CallOp : Tile_Op<"call", [CallOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a call of a tile.func helper";
  let description = [{
    ```mlir
    %o = tile.call @normalize(%acc, %l)
        : (tensor<16x512xf32>, tensor<16xf32>) -> tensor<16x512xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    /// CallOpInterface.
    ::mlir::Operation::operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return getCalleeAttr();
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      setCalleeAttr(::llvm::cast<::mlir::FlatSymbolRefAttr>(
          ::llvm::cast<::mlir::SymbolRefAttr>(callee)));
    }
  }];
}

//===----------------------------------------------------------------------===//
// Grid
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "index of this program instance along a grid axis";
  let description = [{
    ```mlir
    %w = tile.program_id x
    ```
  }];
  let arguments = (ins Tile_ProgramAxis:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$axis attr-dict";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "number of program instances along a grid axis";
  let description = [{
    ```mlir
    %n = tile.num_programs y
    ```
  }];
  let arguments = (ins Tile_ProgramAxis:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$axis attr-dict";
}

//===----------------------------------------------------------------------===//
// Building tiles
//===----------------------------------------------------------------------===//

def Tile_RangeOp : Tile_Op<"range", [Pure,
    OptionalTypesMatchWith<"start has the tile's element type", "result",
                           "start", "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "consecutive integers: start, start + 1, ...";
  let description = [{
    A 1-D tile whose element `i` is `start + i` (`start` defaults to 0).
    Used to build row indices and masks for ragged tiles.

    ```mlir
    %rows = tile.range from %t : tensor<64xindex>
    %valid = arith.cmpi slt, %rows, %n_splat : tensor<64xindex>
    ```
  }];
  let arguments = (ins Optional<AnyTypeOf<[I32, I64, Index]>>:$start);
  let results = (outs Tile_TensorOf<[I32, I64, Index]>:$result);
  let assemblyFormat = "(`from` $start^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"value has the tile's element type", "result", "value",
                   "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "tile with every element equal to a scalar";
  let description = [{
    ```mlir
    %m0 = tile.splat %neg_inf : tensor<16xf32>
    ```
  }];
  let arguments = (ins Tile_AnyElement:$value);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$value attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "replicate a tile along new dimensions";
  let description = [{
    `dims` lists the result dimensions that the input does not have; the
    input's dimensions map, in order, onto the remaining result dimensions.

    ```mlir
    // [16] -> [16, 512]: each row's value repeated along the columns.
    %b = tile.broadcast %m dims [1] : tensor<16xf32> -> tensor<16x512xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, DenseI64ArrayAttr:$dims);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat =
      "$input `dims` $dims attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure]> {
  let summary = "transpose of a 2-D tile";
  let description = [{
    ```mlir
    %kt = tile.trans %k : tensor<64x576xbf16> -> tensor<576x64xbf16>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

def Tile_ViewOp : Tile_Op<"view", [Pure, AttrSizedOperandSegments]> {
  let summary = "give a global pointer a shape and element strides";
  let description = [{
    Element `[i0, .., in]` of the view is `base[offset + sum(ik * stride_k)]`.
    Sizes and strides are mixed static/dynamic lists; `offset` (elements)
    defaults to 0. Loads and stores through the view are bounds-checked
    against its sizes, so a view over one sequence's rows makes the ragged
    last tile safe.

    ```mlir
    %kv_seq = tile.view %kv[%row0_elems] sizes [%len, 576] strides [576, 1]
        : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
    ```
  }];
  let arguments = (ins Tile_PtrType:$base, Optional<Index>:$offset,
                       Variadic<Index>:$sizes,
                       DenseI64ArrayAttr:$static_sizes,
                       Variadic<Index>:$strides,
                       DenseI64ArrayAttr:$static_strides);
  let results = (outs Tile_ViewType:$result);
  let assemblyFormat = [{
    $base (`[` $offset^ `]`)?
    `sizes` custom<DynamicIndexList>($sizes, $static_sizes)
    `strides` custom<DynamicIndexList>($strides, $static_strides)
    attr-dict `:` qualified(type($base)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// Size `dim` as a value-or-constant.
    ::mlir::OpFoldResult getMixedSize(unsigned dim);
    ::mlir::OpFoldResult getMixedStride(unsigned dim);
  }];
}

def Tile_LoadOp : Tile_Op<"load", [
    MemoryEffects<[MemRead]>, AttrSizedOperandSegments,
    OptionalTypesMatchWith<"pad has the tile's element type", "result", "pad",
                           "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "bounds-checked, masked load of a tile through a view";
  let description = [{
    Element `i` of the result is `view[indices + i]` when that position is
    inside the view and the mask is true there, and `pad` otherwise (zero
    when absent). A mask of lower rank than the tile applies to its leading
    dimensions (a row mask for a 2-D tile).

    ```mlir
    %k = tile.load %kv_seq[%t, %c0] mask %valid : tensor<64xi1>
        : !tile.view<?x576xbf16> -> tensor<64x576xbf16>
    %lse = tile.load %lse_v[%c0, %c0] pad %neg_inf
        : !tile.view<?x16xf32> -> tensor<16x16xf32>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<Index>:$indices,
                       Optional<Tile_MaskTensor>:$mask,
                       Optional<Tile_AnyElement>:$pad);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $view `[` $indices `]` (`mask` $mask^ `:` type($mask))? (`pad` $pad^)?
    attr-dict `:` qualified(type($view)) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_StoreOp : Tile_Op<"store", [MemoryEffects<[MemWrite]>,
                                     AttrSizedOperandSegments]> {
  let summary = "bounds-checked, masked store of a tile through a view";
  let description = [{
    Writes element `i` of `value` to `view[indices + i]` where that position
    is inside the view and the mask is true; other elements are dropped.

    ```mlir
    tile.store %o, %out_v[%c0, %col] : tensor<16x128xbf16>, !tile.view<16x512xbf16>
    ```
  }];
  let arguments = (ins Tile_Tensor:$value, Tile_ViewType:$view,
                       Variadic<Index>:$indices,
                       Optional<Tile_MaskTensor>:$mask);
  let assemblyFormat = [{
    $value `,` $view `[` $indices `]` (`mask` $mask^ `:` type($mask))?
    attr-dict `:` type($value) `,` qualified(type($view))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_LoadScalarOp : Tile_Op<"load_scalar", [
    MemoryEffects<[MemRead]>,
    TypesMatchWith<"result is the pointee type", "ptr", "result",
        "::llvm::cast<::mla::tile::PtrType>($_self).getElementType()">]> {
  let summary = "load one element through a global pointer";
  let description = [{
    For per-program metadata such as indptrs and work lists; the index is in
    elements and is not bounds-checked.

    ```mlir
    %begin = tile.load_scalar %kv_indptr[%seq] : !tile.ptr<i32>
    ```
  }];
  let arguments = (ins Tile_PtrType:$ptr, Index:$index);
  let results = (outs Tile_AnyElement:$result);
  let assemblyFormat = "$ptr `[` $index `]` attr-dict `:` qualified(type($ptr))";
}

//===----------------------------------------------------------------------===//
// Dequantization
//===----------------------------------------------------------------------===//

def Tile_DequantMxOp : Tile_Op<"dequant_mx", [Pure]> {
  let summary = "MX tile (fp4 or fp8 elements + E8M0 block scales) to float";
  let description = [{
    MXFP4: `packed` is `i8` holding two E2M1 values per byte, the low nibble
    being the even element, so its last dimension is half the result's.
    MXFP8: `packed` holds fp8 elements, one per result element. `scales`
    holds one E8M0 exponent per block of 32 consecutive elements of the last
    dimension (0x00 = 2^-127, 0xFF = NaN). Leading dimensions of all three
    agree.

    ```mlir
    %k = tile.dequant_mx %kp, %ks : tensor<64x288xi8>, tensor<64x18xf8E8M0FNU>
        -> tensor<64x576xbf16>
    ```
  }];
  let arguments = (ins Tile_TensorOf<[I8, Tile_Fp8]>:$packed,
                       Tile_TensorOf<[Tile_Scale]>:$scales);
  let results = (outs Tile_FloatTensor:$result);
  let assemblyFormat = [{
    $packed `,` $scales attr-dict `:` type($packed) `,` type($scales)
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_DequantFp8Op : Tile_Op<"dequant_fp8", [Pure]> {
  let summary = "fp8 tile with one per-tensor f32 scale to float";
  let description = [{
    Each element is converted exactly to f32, multiplied by `scale` and
    rounded to the result type. Before specialization, the scale may be a
    `!tile.switch` value loaded through a parameter-dependent pointer; its
    type then follows the input's (`: T, !tile.switch<...> -> R`).

    ```mlir
    %k = tile.dequant_fp8 %k8, %scale : tensor<64x576xf8E4M3FN> -> tensor<64x576xbf16>
    ```
  }];
  let arguments = (ins Tile_TensorOf<[Tile_Fp8]>:$input,
                       AnyTypeOf<[F32, Tile_SwitchType]>:$scale);
  let results = (outs Tile_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale attr-dict `:`
    custom<InputAndScaleTypes>(type($input), type($scale)) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix products and reductions
//===----------------------------------------------------------------------===//

def Tile_DotOp : Tile_Op<"dot", [Pure,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "tile matrix product with f32 accumulation";
  let description = [{
    `result = acc + lhs * rhs` for `lhs: [M, K]`, `rhs: [K, N]`,
    `acc: [M, N] f32`. The operands share one float element type; products
    are formed and summed in f32.

    ```mlir
    %s = tile.dot %q, %kt, %zero
        : tensor<16x576xbf16>, tensor<576x64xbf16> -> tensor<16x64xf32>
    ```
  }];
  let arguments = (ins Tile_TensorOf<[BF16, F16, F32, Tile_Fp8]>:$lhs,
                       Tile_TensorOf<[BF16, F16, F32, Tile_Fp8]>:$rhs,
                       Tile_F32Tensor:$acc);
  let results = (outs Tile_F32Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs)
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_DotScaledOp : Tile_Op<"dot_scaled", [Pure, AttrSizedOperandSegments,
    TypesMatchWith<"accumulator has the result type", "result", "acc",
                   "$_self">]> {
  let summary = "tile matrix product of MX-scaled operands";
  let description = [{
    `result = acc + dequant(lhs, lhs_scale) * dequant(rhs, rhs_scale)` with
    `lhs: [M, K]` and `rhs: [K, N]` in logical elements. An operand is
    bf16/f16/f32 (no scale), fp8 (optional scale) or packed fp4 given as
    `i8` with two E2M1 values per byte along K (lhs `[M, K/2]`, rhs
    `[K/2, N]`, low nibble = even k; scale required). Scales are E8M0, one
    per 32 elements of K: lhs `[M, K/32]`, rhs `[N, K/32]`. This is the
    operation of gfx950's `v_mfma_scale_f32_*_f8f6f4`.

    ```mlir
    %s = tile.dot_scaled %q, %kt scale %ks : tensor<64x18xf8E8M0FNU>, %zero
        : tensor<16x576xbf16>, tensor<288x64xi8> -> tensor<16x64xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$lhs,
                       Optional<Tile_TensorOf<[Tile_Scale]>>:$lhs_scale,
                       Tile_Tensor:$rhs,
                       Optional<Tile_TensorOf<[Tile_Scale]>>:$rhs_scale,
                       Tile_F32Tensor:$acc);
  let results = (outs Tile_F32Tensor:$result);
  let assemblyFormat = [{
    $lhs (`scale` $lhs_scale^ `:` type($lhs_scale))? `,`
    $rhs (`scale` $rhs_scale^ `:` type($rhs_scale))? `,` $acc
    attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "reduce a tile along one dimension";
  let description = [{
    Combines all elements along `dim` with `sum`, `max`, `min`, `maxnum` or
    `minnum`; the result drops that dimension. `max`/`min` follow IEEE
    maximum/minimum (NaN propagates); `maxnum`/`minnum` follow IEEE
    maxNum/minNum (a NaN element is skipped; only NaNs give NaN), which
    GPU targets reduce with cheaper instructions. On integers the two
    pairs are the same signed max and min.

    ```mlir
    %rowmax = tile.reduce max %s dim 1 : tensor<16x64xf32> -> tensor<16xf32>
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind, Tile_Tensor:$input,
                       I64Attr:$dim);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $kind $input `dim` $dim attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

def Tile_QKSoftmaxAccOp : Tile_Op<"qk_softmax_acc", [Pure,
    AttrSizedOperandSegments,
    TypesMatchWith<"m holds one f32 per query row", "acc", "m",
                   "::mla::tile::getRowStateType($_self)">,
    TypesMatchWith<"l holds one f32 per query row", "acc", "l",
                   "::mla::tile::getRowStateType($_self)">,
    TypesMatchWith<"new_m holds one f32 per query row", "acc", "new_m",
                   "::mla::tile::getRowStateType($_self)">,
    TypesMatchWith<"new_l holds one f32 per query row", "acc", "new_l",
                   "::mla::tile::getRowStateType($_self)">,
    AllTypesMatch<["acc", "new_acc"]>]> {
  let summary = "one online-softmax attention step over a key/value tile";
  let description = [{
    With `q: [M, D]`, `k: [N, D]`, `v: [N, Dv]` and running state
    `m, l: [M] f32`, `acc: [M, Dv] f32`:

    ```
    s    = scale * q * k^T            (masked entries -inf)
    m'   = max(m, rowmax(s))
    p    = exp(s - m')                (rounded to v's element type)
    l'   = l * exp(m - m') + rowsum(p)
    acc' = acc * exp(m - m') + p * v
    ```

    `v` is optional: without it, V is the first Dv columns of `k` (Dv being
    `acc`'s column count), as in MLA, where keys and values are one latent
    tile. A target can then stage the tile once and read both operands
    from it.

    A row with no unmasked key so far keeps `m = -inf`, `l = 0`, `acc = 0`
    (never NaN). `mask` is `[N]` (per key) or `[M, N]` (per query and key,
    for causal rules). Masked keys contribute exactly nothing, provided
    their `v` rows are finite (pad masked loads with zero).

    ```mlir
    %m2, %l2, %acc2 = tile.qk_softmax_acc %q, %k, %v, %m, %l, %acc
        scale %sm_scale mask %valid : tensor<64xi1>
        : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
        -> tensor<16x512xf32>
    // V = the first 512 columns of %kv
    %m2, %l2, %acc2 = tile.qk_softmax_acc %q, %kv, %m, %l, %acc
        scale %sm_scale : tensor<16x576xbf16>, tensor<64x576xbf16>
        -> tensor<16x512xf32>
    ```
  }];
  // `v` follows the operands the result types are inferred from.
  let arguments = (ins Tile_FloatTensor:$q, Tile_FloatTensor:$k,
                       Tile_F32Tensor:$m, Tile_F32Tensor:$l,
                       Tile_F32Tensor:$acc, Optional<Tile_FloatTensor>:$v,
                       F32:$scale, Optional<Tile_MaskTensor>:$mask);
  let results = (outs Tile_F32Tensor:$new_m, Tile_F32Tensor:$new_l,
                      Tile_F32Tensor:$new_acc);
  let assemblyFormat = [{
    custom<AttentionOperands>($q, $k, $v, $m, $l, $acc) `scale` $scale
    (`mask` $mask^ `:` type($mask))? attr-dict
    `:` type($q) `,` type($k) (`,` type($v)^)? `->` type($acc)
  }];
  let hasVerifier = 1;
}

def Tile_SplitReduceOp : Tile_Op<"split_reduce", [Pure,
    AttrSizedOperandSegments,
    OptionalTypesMatchWith<"lse holds one f32 per split and row", "partial",
        "lse", "::mla::tile::getSplitStateType($_self)">,
    OptionalTypesMatchWith<"max holds one f32 per split and row", "partial",
        "max", "::mla::tile::getSplitStateType($_self)">,
    OptionalTypesMatchWith<"sum holds one f32 per split and row", "partial",
        "sum", "::mla::tile::getSplitStateType($_self)">]> {
  let summary = "combine split-KV partial attention results";
  let description = [{
    Reduces `S` partial results over dimension 0 of `partial: [S, M, D]`.
    Two forms:

    - `lse`: `partial` holds normalized outputs `o_i` with log-sum-exp
      `lse_i: [S, M]`; `out = sum_i w_i o_i / sum_i w_i`.
    - `max`/`sum`: `partial` holds unnormalized accumulators with running
      max `m_i` and sum `l_i`; `out = sum_i w_i acc_i / sum_i w_i l_i`.

    with `w_i = exp(lse_i - max_j lse_j)` (resp. `m_i`). A split whose
    `lse` (resp. `m`) is -inf is empty and contributes nothing, whatever its
    partial holds; a row whose splits are all empty is zero.

    ```mlir
    %o = tile.split_reduce %parts lse %lse
        : tensor<16x16x128xf32> -> tensor<16x128xf32>
    ```
  }];
  let arguments = (ins Tile_F32Tensor:$partial,
                       Optional<Tile_F32Tensor>:$lse,
                       Optional<Tile_F32Tensor>:$max,
                       Optional<Tile_F32Tensor>:$sum);
  let results = (outs Tile_F32Tensor:$result);
  let assemblyFormat = [{
    $partial (`lse` $lse^)? (`max` $max^ `sum` $sum)? attr-dict
    `:` type($partial) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // MLA_TILE_OPS_TD
