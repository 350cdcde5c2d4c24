# Precompiled headers. Parsing MLIR's headers is most of the compile time
# of each of the compiler's sources (about 10 s of 14 for a TileToGPU
# source; 5 s in all with them precompiled), so every library of
# mla_add_library that links MLIR compiles against one precompiled set of
# the upstream headers they use most. Only upstream headers: they change
# with the MLIR install, not with an edit here, so the set is built once
# per build tree. -DMLA_PCH=OFF builds without it (each source must still
# include what it uses; a build without it shows one that does not).
option(MLA_PCH "Precompile the common MLIR headers" ON)
if(MLA_PCH)
  add_library(mla-pch OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch.cpp)
  target_precompile_headers(mla-pch PRIVATE
    <llvm/Support/FormatVariadic.h>
    <llvm/Support/JSON.h>
    <mlir/Dialect/Arith/IR/Arith.h>
    <mlir/Dialect/GPU/IR/GPUDialect.h>
    <mlir/Dialect/LLVMIR/LLVMDialect.h>
    <mlir/Dialect/Math/IR/Math.h>
    <mlir/Dialect/SCF/IR/SCF.h>
    <mlir/Dialect/Tensor/IR/Tensor.h>
    <mlir/Dialect/Vector/IR/VectorOps.h>
    <mlir/IR/Builders.h>
    <mlir/IR/BuiltinOps.h>
    <mlir/IR/DialectImplementation.h>
    <mlir/IR/Matchers.h>
    <mlir/IR/OpImplementation.h>
    <mlir/IR/PatternMatch.h>
    <mlir/Pass/Pass.h>
    <mlir/Transforms/DialectConversion.h>)
  # The flags (exceptions, RTTI) add_mlir_library gives its sources.
  llvm_update_compile_flags(mla-pch)
endif()

# mla_add_library(name SOURCES... [DEPENDS tablegen targets...]
#                 [LIBS project libs...] [MLIR_LIBS upstream MLIR libs...])
#
# Project libraries link upstream MLIR through the shared libMLIR.so only:
# mixing static MLIR libraries with the dylib would put two copies of MLIR
# core into one process.
function(mla_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;LIBS;MLIR_LIBS;LLVM_COMPONENTS" ${ARGN})
  add_mlir_library(${name} ${ARG_SOURCES} ${ARG_UNPARSED_ARGUMENTS}
    DEPENDS ${ARG_DEPENDS}
    LINK_COMPONENTS ${ARG_LLVM_COMPONENTS}
    LINK_LIBS PUBLIC ${ARG_LIBS})
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
    # Not in libraries without MLIR: the headers' used inline functions
    # would make them reference libMLIR.
    if(MLA_PCH)
      target_precompile_headers(obj.${name} REUSE_FROM mla-pch)
    endif()
  endif()
endfunction()
