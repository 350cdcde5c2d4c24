//===- CompileCache.h - Content-addressed cache of compile outputs -*- C++ -*-//
//
// A compile's outputs (binary, manifest, cubin, submission or text stage)
// kept under a key that hashes everything that decides them: the source,
// the target and its tools, the options, and the compiler itself. The cache
// lives in $MLA_CACHE_DIR, else in the user's cache directory
// (~/.cache/mla). An entry is a directory of the output files and an index
// of their sizes and hashes; it is built in a staging directory and renamed
// into place whole, so a concurrent compile sees a complete entry or none.
// An entry whose files do not match its index is removed and rebuilt.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_COMPILE_COMPILECACHE_H
#define MLA_COMPILE_COMPILECACHE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/BLAKE3.h"

#include <memory>
#include <optional>
#include <string>

namespace mla {

/// Builds a cache key from parts, each delimited so that no two different
/// part lists hash alike.
class CacheKey {
public:
  void add(llvm::StringRef part);
  /// The key: the hash of every part so far, in hex.
  std::string str();

private:
  llvm::BLAKE3 hasher;
};

class CompileCache {
public:
  /// The cache directory, created if missing; null with `error` set where
  /// none can be used.
  static std::unique_ptr<CompileCache> open(std::string &error);

  llvm::StringRef getPath() const { return root; }

  /// The directory of `key`'s entry if it is complete and intact; an entry
  /// that is not is removed.
  std::optional<std::string> lookup(llvm::StringRef key);

  /// A new empty directory in the cache to compile into.
  std::optional<std::string> createStaging(std::string &error);

  /// Makes the files in `staging` the entry of `key`. Where another compile
  /// published the key first, its entry stays and `staging` is removed.
  mlir::LogicalResult publish(llvm::StringRef staging, llvm::StringRef key,
                              std::string &error);

  /// Removes a staging directory that will not be published.
  static void discard(llvm::StringRef staging);

private:
  explicit CompileCache(llvm::StringRef root) : root(root) {}
  std::string entryPath(llvm::StringRef key) const;

  llvm::SmallString<128> root;
};

/// Copies the files of `entry` to `directory` under their names, each
/// written to a temporary and renamed into place, then removes those of
/// `owned` (names in `directory` a compile may write) that the entry lacks;
/// with `toStdout`, writes the one output file to stdout instead.
mlir::LogicalResult copyEntryFiles(llvm::StringRef entry,
                                   llvm::StringRef directory, bool toStdout,
                                   llvm::ArrayRef<std::string> owned,
                                   std::string &error);

} // namespace mla

#endif // MLA_COMPILE_COMPILECACHE_H
