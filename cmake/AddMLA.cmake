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
  endif()
endfunction()
