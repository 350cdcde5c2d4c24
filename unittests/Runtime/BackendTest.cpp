//===- BackendTest.cpp - What every backend shares ------------------------===//

#include "TestSupport.h"

#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Manifest.h"

#include "gtest/gtest.h"

#include <memory>
#include <vector>

using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

TEST(Backend, BenchmarkLaunches) {
  llvm::ThreadPoolInterface &pool = testPool();
  std::unique_ptr<Backend> backend = createHostBackend(pool);
  int launches = 0;
  double median = -1;
  EXPECT_TRUE(succeeded(benchmarkLaunches(
      *backend, 2, 3,
      [&] {
        ++launches;
        return Status::success();
      },
      median)));
  EXPECT_EQ(launches, 5);
  EXPECT_GE(median, 0);
  EXPECT_TRUE(
      failsWith(benchmarkLaunches(
                    *backend, 0, 3,
                    [] { return Status::failure("launch", "failed"); }, median),
                "launch: failed"));

  // Every backend checks the grid it is given.
  Manifest manifest;
  ASSERT_TRUE(succeeded(
      parseManifest(manifestText(kPartialArgs), "m.so.json", manifest)));
  const KernelInfo &kernel = manifest.kernels[0];
  EXPECT_TRUE(succeeded(checkLaunchGrid(kernel, {kMaxGridX, 1, kMaxGridYZ})));
  EXPECT_TRUE(failsWith(checkLaunchGrid(kernel, {1, 0, 1}),
                        "partial: grid dimension y is 0, expected 1..65535"));
  EXPECT_TRUE(failsWith(checkLaunchGrid(kernel, {1, 1, 65536}),
                        "grid dimension z is 65536"));
  EXPECT_TRUE(failsWith(checkLaunchGrid(kernel, {kMaxGridX + 1, 1, 1}),
                        "grid dimension x is 2147483648, expected "
                        "1..2147483647"));
  std::vector<void *> args(kernel.args.size(), nullptr);
  EXPECT_TRUE(failsWith(backend->launch(kernel, {1, 1, 0}, args.data()),
                        "grid dimension z is 0"));
}

} // namespace
