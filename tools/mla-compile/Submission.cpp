//===- Submission.cpp - mla-compile's leaderboard submissions -------------===//
//
// The submission is python/submission.py.in with its placeholders filled:
// the package modules and the two files, each zlib-compressed and base64,
// as Python string literals of 76 characters a line.
//
//===----------------------------------------------------------------------===//

#include "Submission.h"
#include "mla/Target/OutputFile.h"
#include "mla/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace mla;

namespace {
struct EmbeddedModule {
  const char *name;
  const char *source;
};
} // namespace

#include "EmbeddedPython.inc"

static int fail(const llvm::Twine &message) {
  llvm::errs() << "mla-compile: error: " << message << "\n";
  return 1;
}

/// `bytes` compressed and in base64, as adjacent Python string literals,
/// one per line, each line starting with `indent`.
static std::string pythonBlob(llvm::StringRef bytes, llvm::StringRef indent) {
  llvm::SmallVector<uint8_t> compressed;
  llvm::compression::zlib::compress(
      llvm::arrayRefFromStringRef(bytes), compressed,
      llvm::compression::zlib::BestSizeCompression);
  std::string encoded = llvm::encodeBase64(compressed);
  std::string text;
  constexpr size_t kLine = 76;
  for (size_t i = 0; i < encoded.size() || i == 0; i += kLine)
    text += (indent + "\"" + llvm::StringRef(encoded).substr(i, kLine) + "\"\n")
                .str();
  return text;
}

/// The launch keys that describe a module's MLA kernels: their number and
/// the KV formats of its partial kernels; fails unless every role is
/// there.
static bool describeKernels(const llvm::json::Value &manifest,
                            std::string &kernels, std::string &formats,
                            std::string &error) {
  const llvm::json::Object *root = manifest.getAsObject();
  const llvm::json::Array *list = root ? root->getArray("kernels") : nullptr;
  if (!list) {
    error = "the manifest has no kernels";
    return false;
  }
  std::set<std::string> roles, dtypes;
  for (const llvm::json::Value &kernel : *list) {
    const llvm::json::Object *launch =
        kernel.getAsObject() ? kernel.getAsObject()->getObject("launch")
                             : nullptr;
    if (!launch)
      continue;
    if (std::optional<llvm::StringRef> role = launch->getString("role"))
      roles.insert(role->str());
    if (std::optional<llvm::StringRef> dtype = launch->getString("kv_dtype"))
      dtypes.insert(dtype->str());
  }
  for (const char *role : {"mla.plan", "mla.partial", "mla.combine"})
    if (!roles.count(role)) {
      error = std::string("a submission needs the MLA decode kernels "
                          "(roles mla.plan, mla.partial and mla.combine, as "
                          "in examples/mla_decode.mlir); the program has no ") +
              role + " kernel";
      return false;
    }
  kernels = std::to_string(list->size()) + " kernels";
  formats = llvm::join(dtypes, ", ");
  return true;
}

static void replace(std::string &text, llvm::StringRef placeholder,
                    llvm::StringRef value) {
  size_t at = text.find(placeholder);
  if (at != std::string::npos)
    text.replace(at, placeholder.size(), value.str());
}

int mla::writeSubmission(llvm::StringRef outputPath, llvm::StringRef binaryPath,
                         llvm::StringRef source, llvm::StringRef target) {
  if (!llvm::compression::zlib::isAvailable())
    return fail("--emit=submission: this build of LLVM has no zlib");
  auto binary = llvm::MemoryBuffer::getFile(binaryPath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  auto manifestFile = llvm::MemoryBuffer::getFile(binaryPath + ".json");
  if (!binary || !manifestFile)
    return fail("reading the compiled module " + binaryPath);
  llvm::Expected<llvm::json::Value> manifest =
      llvm::json::parse(manifestFile.get()->getBuffer());
  if (!manifest)
    return fail("reading the manifest: " + toString(manifest.takeError()));
  std::string kernels, formats, error;
  if (!describeKernels(*manifest, kernels, formats, error))
    return fail(error);

  std::string modules;
  for (const EmbeddedModule &module : kPackageModules)
    modules += "    \"" + std::string(module.name) + "\": (\n" +
               pythonBlob(module.source, "        ") + "    ),\n";
  std::string text = kSubmissionTemplate;
  replace(text, "@TOOL@", std::string("mla-compile ") + MLA_VERSION);
  replace(text, "@SOURCE@", llvm::sys::path::filename(source));
  replace(text, "@TARGET@", target);
  replace(text, "@KERNELS@", kernels);
  replace(text, "@FORMATS@", formats);
  replace(text, "@SOURCES@", modules);
  replace(text, "@BINARY_NAME@", llvm::sys::path::filename(binaryPath));
  replace(text, "@BINARY@", pythonBlob(binary.get()->getBuffer(), "    "));
  replace(text, "@MANIFEST@",
          pythonBlob(manifestFile.get()->getBuffer(), "    "));

  std::unique_ptr<TemporaryFile> file =
      TemporaryFile::createFor(outputPath, error);
  if (!file)
    return fail(error);
  file->os() << text;
  if (failed(file->publish(outputPath, error)))
    return fail(error);
  return 0;
}
