# Instrumentation of the project's own code (tools, libraries, runtime,
# tests). MLIR and LLVM come from Debian's packages and are not
# instrumented: reports cover our code and what it calls inline.
#
# MLA_SANITIZE  comma-separated clang sanitizers, e.g. address,undefined.
#               Every report is fatal (-fno-sanitize-recover=all).
# MLA_FUZZ      also instrument for libFuzzer (-fsanitize=fuzzer-no-link)
#               and build the harnesses in fuzz/.
set(MLA_SANITIZE "" CACHE STRING
  "Sanitizers to build the project with, e.g. address,undefined")
option(MLA_FUZZ "Build the libFuzzer harnesses in fuzz/ (clang only)" OFF)

include(CheckCXXSourceCompiles)

# Fails the configuration early, with the flags named, when the compiler or
# its runtimes (libclang-rt-22-dev) cannot build program `source` with
# `flags`.
function(mla_require_flags flags source)
  string(MAKE_C_IDENTIFIER "MLA_FLAGS_WORK_${flags}" result)
  # Checked anew on each configuration: a failure may have been fixed since.
  unset(${result} CACHE)
  set(CMAKE_REQUIRED_FLAGS "${flags}")
  set(CMAKE_REQUIRED_LINK_OPTIONS "${flags}")
  set(CMAKE_REQUIRED_QUIET ON)
  check_cxx_source_compiles("${source}" ${result})
  if(NOT ${result})
    message(FATAL_ERROR "${CMAKE_CXX_COMPILER} cannot build and link with "
      "'${flags}' (unknown sanitizer, or compiler runtimes missing: "
      "scripts/setup installs libclang-rt-22-dev)")
  endif()
endfunction()

if(MLA_SANITIZE)
  mla_require_flags("-fsanitize=${MLA_SANITIZE}" "int main() { return 0; }")
  add_compile_options(-fsanitize=${MLA_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${MLA_SANITIZE})
endif()


if(MLA_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "MLA_FUZZ needs clang, whose runtime has libFuzzer")
  endif()
  mla_require_flags("-fsanitize=fuzzer" [[
    #include <cstddef>
    #include <cstdint>
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t *, size_t) {
      return 0;
    }]])
  # Coverage feedback from every library a harness links; the harnesses
  # alone link libFuzzer and its main() (fuzz/CMakeLists.txt).
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
