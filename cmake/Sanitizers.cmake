# Instrumentation of the project's own code (tools, libraries, runtime,
# tests). MLIR and LLVM come from Debian's packages and are not
# instrumented: reports cover our code and what it calls inline.
#
# MLA_SANITIZE  comma-separated clang sanitizers, e.g. address,undefined.
#               Every report is fatal (-fno-sanitize-recover=all).
set(MLA_SANITIZE "" CACHE STRING
  "Sanitizers to build the project with, e.g. address,undefined")

include(CheckCXXSourceCompiles)

# Fails the configuration early, with the flags named, when the compiler or
# its runtimes (libclang-rt-22-dev) cannot build a program with `flags`.
function(mla_require_flags flags)
  string(MAKE_C_IDENTIFIER "MLA_FLAGS_WORK_${flags}" result)
  set(CMAKE_REQUIRED_FLAGS "${flags}")
  set(CMAKE_REQUIRED_LINK_OPTIONS "${flags}")
  set(CMAKE_REQUIRED_QUIET ON)
  check_cxx_source_compiles("int main() { return 0; }" ${result})
  if(NOT ${result})
    message(FATAL_ERROR "${CMAKE_CXX_COMPILER} cannot build and link with "
      "'${flags}' (unknown sanitizer, or compiler runtimes missing: "
      "scripts/setup installs libclang-rt-22-dev)")
  endif()
endfunction()

if(MLA_SANITIZE)
  mla_require_flags("-fsanitize=${MLA_SANITIZE}")
  add_compile_options(-fsanitize=${MLA_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${MLA_SANITIZE})
endif()

