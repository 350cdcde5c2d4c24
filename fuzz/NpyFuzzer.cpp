//===- NpyFuzzer.cpp - libFuzzer harness of the .npy reader ---------------===//
//
// An input is the bytes of one .npy file. Whatever they are, reading them
// gives an error or an array that holds exactly its shape's bytes and that
// writing and reading again reproduces.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "mla/Runtime/Npy.h"

using namespace mla::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &dir = mla::fuzz::scratchDirectory();
  std::string in = dir + "/in.npy", out = dir + "/out.npy";
  mla::fuzz::writeFile(in, data, size);
  NpyArray array;
  if (readNpy(in, array))
    return 0;

  int64_t elements = 1;
  for (int64_t dim : array.shape) {
    FUZZ_CHECK(dim >= 0, "negative dimension in " + array.shapeString());
    elements *= dim;
  }
  FUZZ_CHECK(elements == array.numElements(), "element count");
  FUZZ_CHECK(array.bytes.size() ==
                 static_cast<uint64_t>(elements) * npyItemSize(array.dtype),
             "data size of shape " + array.shapeString());

  // A header too long to write is the writer's error, not a finding.
  if (writeNpy(out, array.dtype, array.shape, array.bytes.data()))
    return 0;
  NpyArray again;
  Status reread = readNpy(out, again);
  FUZZ_CHECK(reread.ok(), "rereading a written array: " + reread.message());
  FUZZ_CHECK(again.dtype == array.dtype, "dtype changed by a round trip");
  FUZZ_CHECK(again.shape == array.shape, "shape changed by a round trip");
  FUZZ_CHECK(again.bytes == array.bytes, "data changed by a round trip");
  return 0;
}
