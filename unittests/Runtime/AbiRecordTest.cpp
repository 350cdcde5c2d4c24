//===- AbiRecordTest.cpp - The manifest checked against the binary --------===//

#include "TestSupport.h"

#include "mla/Runtime/AbiRecord.h"
#include "mla/Runtime/Manifest.h"

#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"

#include <string>
#include <string_view>

using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

/// The ABI record of the binary `manifestText(kPartialArgs)` describes.
std::string recordText() {
  Manifest manifest;
  EXPECT_TRUE(succeeded(
      parseManifest(manifestText(kPartialArgs), "m.so.json", manifest)));
  llvm::json::Array kernels;
  for (const KernelInfo &kernel : manifest.kernels) {
    llvm::json::Array args;
    for (const KernelArg &arg : kernel.args)
      args.push_back(llvm::json::Object{
          {"name", arg.name},
          {"kind", arg.kind == ArgKind::Pointer ? "ptr" : "scalar"},
          {"type", arg.type}});
    kernels.push_back(llvm::json::Object{
        {"symbol", kernel.symbol},
        {"args", std::move(args)},
        {"workgroup_size",
         llvm::json::Array{kernel.workgroupSize[0], kernel.workgroupSize[1],
                           kernel.workgroupSize[2]}},
        {"launch", llvm::json::Object(kernel.launch)}});
  }
  llvm::json::Value record =
      llvm::json::Object{{"version", kAbiRecordVersion},
                         {"target", "host"},
                         {"kernels", std::move(kernels)}};
  return llvm::formatv("{0}", record).str();
}

/// The result of checking the manifest `text` against `record`, given as
/// the bytes of the record's global (with its NUL and what may follow).
Status checkRecord(const std::string &text, const std::string &record) {
  Manifest manifest;
  if (Status s = parseManifest(text, "m.so.json", manifest))
    return s;
  return checkAbiRecord(std::string_view(record.data(), record.size() + 1),
                        "m.so", manifest);
}

/// Manifest edits that no longer match the binary's record.
const ManifestEdit kMismatches[] = {
    {"\"max_splits\": 8", "\"max_splits\": 16",
     "m.so.json: kernels[0].launch.max_splits: 16 does not match the binary "
     "(8)"},
    {"\"max_splits\": 8,", "",
     "m.so.json: kernels[0].launch.max_splits: absent, the binary has 8"},
    {"\"block_rows\": 16,", "\"block_rows\": 16, \"splits\": 2,",
     "m.so.json: kernels[1].launch.splits: 2, absent from the binary"},
    {"[\"programs\", 1, 1]", "[\"programs\", 2, 1]",
     "kernels[0].launch.grid: [\"programs\",2,1] does not match the binary "
     "([\"programs\",1,1])"},
    {"\"heads\": 16", "\"heads\": 32",
     "kernels[0].launch.heads: 32 does not match the binary (16)"},
    {"[64, 1, 1]", "[128, 1, 1]",
     "m.so.json: kernels[1].workgroup_size: [128,1,1] does not match the "
     "binary ([64,1,1])"},
    {R"("name": "sm_scale", "kind": "scalar", "type": "f32")",
     R"("name": "sm_scale", "kind": "scalar", "type": "i32")",
     "m.so.json: kernels[0].args[9]: scalar i32 'sm_scale' does not match "
     "the binary (scalar f32 'sm_scale')"},
    {"\"partial\"", "\"getpid\"",
     "m.so.json: kernels[0].symbol: 'getpid' is not a kernel of m.so"},
    {"\"host\"", "\"gfx950\"",
     "m.so.json: target: 'gfx950' does not match the binary ('host')"},
};

TEST(AbiRecord, Check) {
  std::string text = manifestText(kPartialArgs);
  std::string record = recordText();
  EXPECT_TRUE(succeeded(checkRecord(text, record)));
  // The text ends at the global's NUL.
  EXPECT_TRUE(
      succeeded(checkRecord(text, record + std::string("\0garbage", 8))));

  // What a launcher relies on, changed in the manifest.
  for (const ManifestEdit &edit : kMismatches) {
    // An edit that matches nothing would test the unedited manifest.
    ASSERT_NE(text.find(edit.from), std::string::npos) << edit.from;
    EXPECT_TRUE(failsWith(
        checkRecord(replaced(text, edit.from, edit.to), record), edit.error))
        << "replacing " << edit.from << " with " << edit.to;
  }
  // Two arguments swapped.
  std::string swapped =
      replaced(replaced(text, R"("name": "qo_indptr")", R"("name": "TMP")"),
               R"("name": "kv_indptr")", R"("name": "qo_indptr")");
  EXPECT_TRUE(failsWith(
      checkRecord(
          replaced(swapped, R"("name": "TMP")", R"("name": "kv_indptr")"),
          record),
      "m.so.json: kernels[0].args[2]: ptr i32 'kv_indptr' does not match the "
      "binary (ptr i32 'qo_indptr')"));
  EXPECT_TRUE(failsWith(
      checkRecord(manifestText(std::string(kPartialArgs) +
                               R"(, {"name": "extra", "kind": "scalar",
                                     "type": "i32"})"),
                  record),
      "m.so.json: kernels[0].args: 11 arguments, the binary's kernel takes "
      "10"));

  // A record without a workgroup size does not constrain it.
  std::string sizeless = record;
  for (size_t at;
       (at = sizeless.find(",\"workgroup_size\":[")) != std::string::npos;)
    sizeless.erase(at, sizeless.find(']', at) - at + 1);
  EXPECT_TRUE(succeeded(
      checkRecord(replaced(text, "[64, 1, 1]", "[128, 1, 1]"), sizeless)));

  // Records that are not this mla-run's.
  EXPECT_TRUE(failsWith(
      checkRecord(text, replaced(record, "\"version\":1", "\"version\":2")),
      "m.so: ABI record version 2, this mla-run reads "
      "version 1"));
  EXPECT_TRUE(failsWith(checkRecord(text, "{\"kernels\": [}"),
                        "m.so: ABI record:1:15: invalid JSON value"));
  EXPECT_TRUE(failsWith(checkRecord(text, "[]"),
                        "m.so: malformed ABI record: not an object"));
  EXPECT_TRUE(failsWith(
      checkRecord(text, replaced(record, "\"args\":[", "\"args\":[1,")),
      "m.so: malformed ABI record: an argument of "
      "'partial'"));
  EXPECT_TRUE(failsWith(missingAbiRecord("m.so"),
                        "m.so: has no ABI record (__mla_abi)"));
}

} // namespace
