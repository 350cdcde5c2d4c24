//===- KernelArgsTest.cpp - Kernel arguments from the command line --------===//

#include "TestSupport.h"

#include "mla/Runtime/Backend.h"
#include "mla/Runtime/KernelArgs.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/Npy.h"

#include "gtest/gtest.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

/// A manifest with one kernel taking every kind of argument.
const char *const kGenericManifest =
    R"({"target": "host", "binary": "k.so", "kernels": [
  {"symbol": "k", "args": [
     {"name": "a", "kind": "ptr", "type": "bf16"},
     {"name": "h", "kind": "ptr", "type": "f16"},
     {"name": "q", "kind": "ptr", "type": "f8E4M3FNUZ"},
     {"name": "p", "kind": "ptr", "type": "f4E2M1FN"},
     {"name": "n", "kind": "scalar", "type": "i32"},
     {"name": "big", "kind": "scalar", "type": "i64"},
     {"name": "alpha", "kind": "scalar", "type": "f32"}],
   "workgroup_size": [1, 1, 1], "lds_bytes": 0}]})";

TEST(KernelArgs, ShapeSyntax) {
  std::vector<int64_t> shape;
  EXPECT_TRUE(parseShape("37x200", shape));
  EXPECT_EQ(shape, (std::vector<int64_t>{37, 200}));
  EXPECT_TRUE(parseShape("0", shape));
  EXPECT_EQ(shape, (std::vector<int64_t>{0}));
  for (const char *bad : {"", "x", "3x", "x3", "3X4", "-1", "3 x4", "2,3"})
    EXPECT_FALSE(parseShape(bad, shape)) << bad;
}

TEST(KernelArgs, Scalars) {
  Manifest manifest;
  EXPECT_TRUE(
      succeeded(parseManifest(kGenericManifest, "k.so.json", manifest)));
  const KernelInfo &kernel = manifest.kernels[0];
  const KernelArg &n = kernel.args[4], &big = kernel.args[5],
                  &alpha = kernel.args[6];
  ScalarValue value;
  EXPECT_TRUE(succeeded(parseScalar(kernel, n, "-2147483648", value)));
  EXPECT_EQ(value.i32, INT32_MIN);
  EXPECT_TRUE(succeeded(parseScalar(kernel, n, "2147483647", value)));
  EXPECT_EQ(value.i32, INT32_MAX);
  EXPECT_TRUE(
      failsWith(parseScalar(kernel, n, "2147483648", value),
                "--arg n: '2147483648' is out of range (kernel 'k' takes "
                "scalar i32 'n')"));
  EXPECT_TRUE(
      failsWith(parseScalar(kernel, n, "-2147483649", value), "out of range"));
  for (const char *bad : {"", " 1", "1.0", "0x10", "1e3", "12abc"})
    EXPECT_TRUE(
        failsWith(parseScalar(kernel, n, bad, value), "is not an integer"));
  EXPECT_TRUE(
      succeeded(parseScalar(kernel, big, "-9223372036854775808", value)));
  EXPECT_EQ(value.i64, INT64_MIN);
  EXPECT_TRUE(failsWith(parseScalar(kernel, big, "9223372036854775808", value),
                        "--arg big: '9223372036854775808' is out of range"));
  EXPECT_TRUE(succeeded(parseScalar(kernel, alpha, "0.125", value)));
  EXPECT_EQ(value.f32, 0.125f);
  EXPECT_TRUE(succeeded(parseScalar(kernel, alpha, "-inf", value)));
  EXPECT_TRUE(std::isinf(value.f32));
  EXPECT_LT(value.f32, 0);
  EXPECT_TRUE(succeeded(parseScalar(kernel, alpha, "nan", value)));
  EXPECT_TRUE(std::isnan(value.f32));
  // Underflow to a subnormal or zero is a value, overflow is not.
  EXPECT_TRUE(succeeded(parseScalar(kernel, alpha, "1e-50", value)));
  EXPECT_EQ(value.f32, 0);
  EXPECT_TRUE(
      failsWith(parseScalar(kernel, alpha, "-1e39", value),
                "--arg alpha: '-1e39' is out of range (kernel 'k' takes "
                "scalar f32 'alpha')"));
  for (const char *bad : {"", " 1", "1f", "one"})
    EXPECT_TRUE(
        failsWith(parseScalar(kernel, alpha, bad, value), "is not a number"));
}

TEST(KernelArgs, Bind) {
  const std::string &scratch = scratchDirectory();
  Manifest manifest;
  EXPECT_TRUE(
      succeeded(parseManifest(kGenericManifest, "k.so.json", manifest)));
  const KernelInfo *kernel = nullptr;
  EXPECT_TRUE(succeeded(findKernel(manifest, "k", kernel)));
  EXPECT_TRUE(failsWith(findKernel(manifest, "kk", kernel),
                        "k.so.json: no kernel 'kk' (the module has k)"));
  EXPECT_EQ(kernel, &manifest.kernels[0]);

  ElementLayout layout;
  EXPECT_TRUE(getElementLayout("f32", layout));
  EXPECT_EQ(layout.poison, 0xFFFFFFFFu);
  EXPECT_TRUE(getElementLayout("i64", layout));
  EXPECT_EQ(layout.dtype, NpyDType::Int64);
  EXPECT_EQ(layout.poison, 0x7FFFFFFFFFFFFFFFu);
  EXPECT_TRUE(getElementLayout("i8", layout));
  EXPECT_EQ(layout.dtype, NpyDType::Int8);
  EXPECT_EQ(layout.alternative, NpyDType::UInt8);
  EXPECT_EQ(layout.poison, 0x7Fu);
  EXPECT_TRUE(getElementLayout("f8E8M0FNU", layout));
  EXPECT_EQ(layout.poison, 0xFFu);
  EXPECT_FALSE(getElementLayout("f4E2M1FN", layout));
  EXPECT_FALSE(getElementLayout("f64", layout));

  std::string f16Path = scratch + "/h.npy", u16Path = scratch + "/u.npy";
  std::vector<uint16_t> halves = {0x3C00, 0x4000, 0xC000};
  EXPECT_TRUE(
      succeeded(writeNpy(f16Path, NpyDType::Float16, {3}, halves.data())));
  EXPECT_TRUE(
      succeeded(writeNpy(u16Path, NpyDType::UInt16, {3}, halves.data())));
  // The kernel without its f4 argument, which has no .npy form.
  KernelInfo usable = *kernel;
  usable.args.erase(usable.args.begin() + 3);
  std::vector<ArgSpec> specs = {{"alpha", "0.5"},     {"a", "@" + u16Path},
                                {"h", "@" + f16Path}, {"q", "empty:2x3"},
                                {"n", "-3"},          {"big", "4"}};
  std::vector<BoundArg> bound;
  EXPECT_TRUE(succeeded(bindArgs(usable, specs, bound)));
  ASSERT_EQ(bound.size(), 6u);
  EXPECT_EQ(bound[0].arg, &usable.args[0]);
  EXPECT_EQ(bound[0].buffer.dtype, NpyDType::UInt16);
  EXPECT_EQ(bound[0].buffer.elementsAs<uint16_t>(), halves);
  EXPECT_EQ(bound[1].buffer.dtype, NpyDType::Float16);
  EXPECT_EQ(bound[2].buffer.dtype, NpyDType::UInt8);
  EXPECT_EQ(bound[2].buffer.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(bound[2].buffer.bytes, std::vector<uint8_t>(6, 0x80));
  EXPECT_EQ(bound[3].scalar.i32, -3);
  EXPECT_EQ(bound[4].scalar.i64, 4);
  EXPECT_EQ(bound[5].scalar.f32, 0.5f);
  // f16 also takes uint16 bits.
  specs[2].value = "@" + u16Path;
  EXPECT_TRUE(succeeded(bindArgs(usable, specs, bound)));

  auto bindWith = [&](std::vector<ArgSpec> changed) {
    std::vector<BoundArg> result;
    return bindArgs(usable, changed, result);
  };
  std::vector<ArgSpec> missing(specs.begin(), specs.end() - 1);
  EXPECT_TRUE(failsWith(
      bindWith(missing),
      "--arg: argument 'big' (scalar i64) of kernel 'k' is not bound"));
  std::vector<ArgSpec> twice = specs;
  twice.push_back({"n", "4"});
  EXPECT_TRUE(
      failsWith(bindWith(twice),
                "--arg n: argument 'n' of kernel 'k' is bound more than once"));
  std::vector<ArgSpec> unknown = specs;
  unknown.insert(unknown.begin(), {"m", "4"});
  EXPECT_TRUE(failsWith(bindWith(unknown),
                        "--arg m: kernel 'k' has no argument 'm' "
                        "(its arguments: a, h, q, n, big, alpha)"));
  std::vector<ArgSpec> changed = specs;
  changed[1].value = "@" + f16Path;
  EXPECT_TRUE(
      failsWith(bindWith(changed),
                f16Path + ": dtype float16, expected uint16 (kernel 'k' takes "
                          "ptr bf16 'a')"));
  changed = specs;
  changed[3].value = "empty:2x";
  EXPECT_TRUE(
      failsWith(bindWith(changed), "--arg q: 'empty:2x' is not a shape"));
  changed[3].value = "2x3";
  EXPECT_TRUE(failsWith(bindWith(changed),
                        "--arg q: '2x3' is not @FILE.npy or empty:D0xD1x..."));
  changed[3].value = "empty:0";
  EXPECT_TRUE(succeeded(bindWith(changed)));
  changed[3].value = "empty:1099511627777";
  EXPECT_TRUE(failsWith(bindWith(changed), "is more than 2^40 bytes"));
  changed = specs;
  changed[4].value = "@" + u16Path;
  EXPECT_TRUE(failsWith(bindWith(changed),
                        "--arg n: '@" + u16Path + "' is not an integer"));
  std::vector<ArgSpec> withFp4 = specs;
  withFp4.push_back({"p", "empty:4"});
  EXPECT_TRUE(failsWith(bindArgs(*kernel, withFp4, bound),
                        "--arg p: no .npy dtype holds f4E2M1FN elements"));

  EXPECT_TRUE(succeeded(
      checkSaves(usable, {{"a", scratch + "/a.npy"}, {"q", "q.npy"}})));
  EXPECT_TRUE(
      failsWith(checkSaves(usable, {{"n", "n.npy"}}),
                "--save n: argument 'n' of kernel 'k' is scalar i32, not a "
                "buffer"));
  EXPECT_TRUE(failsWith(checkSaves(usable, {{"z", "z.npy"}}),
                        "--save z: kernel 'k' has no argument 'z'"));
  EXPECT_TRUE(failsWith(checkSaves(usable, {{"a", "1.npy"}, {"a", "2.npy"}}),
                        "--save a: given more than once"));
  EXPECT_TRUE(
      failsWith(checkSaves(usable, {{"a", scratch + "/none/a.npy"}}),
                "--save a: directory '" + scratch + "/none/' does not exist"));
}

} // namespace
