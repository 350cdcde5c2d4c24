//===- CompileCache.cpp - Content-addressed cache of compile outputs ------===//

#include "CompileCache.h"

#include "mla/Target/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <chrono>

using namespace mlir;
using namespace mla;

// An entry: KEY/index, one line per output file ("SIZE HASH NAME"), and
// KEY/files/NAME. Entries sit under the key's first two hex digits.
static constexpr llvm::StringLiteral kIndex = "index";
static constexpr llvm::StringLiteral kFiles = "files";

void CacheKey::add(llvm::StringRef part) {
  // The length first, so that parts cannot run into each other.
  std::string length = std::to_string(part.size()) + ":";
  hasher.update(length);
  hasher.update(part);
}

std::string CacheKey::str() { return llvm::toHex(hasher.final(), true); }

static std::string hashOf(llvm::StringRef data) {
  return llvm::toHex(llvm::BLAKE3::hash(llvm::arrayRefFromStringRef(data)),
                     true);
}

/// Removes the staging and discarded directories of compiles that were
/// killed more than an hour ago.
static void removeStaleStaging(llvm::StringRef root) {
  auto cutoff = std::chrono::system_clock::now() - std::chrono::hours(1);
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(root, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> status = it->status();
    if ((name.starts_with("staging-") || name.starts_with("discard-")) &&
        status && status->getLastModificationTime() < cutoff)
      llvm::sys::fs::remove_directories(it->path());
  }
}

std::unique_ptr<CompileCache> CompileCache::open(std::string &error) {
  llvm::SmallString<128> root;
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("MLA_CACHE_DIR");
      dir && !dir->empty()) {
    root = *dir;
  } else if (llvm::sys::path::cache_directory(root)) {
    llvm::sys::path::append(root, "mla");
  } else {
    error = "no cache directory: set MLA_CACHE_DIR";
    return nullptr;
  }
  if (std::error_code ec = llvm::sys::fs::make_absolute(root)) {
    error = llvm::formatv("{0}: {1}", root, ec.message()).str();
    return nullptr;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(root)) {
    error = llvm::formatv("{0}: {1}", root, ec.message()).str();
    return nullptr;
  }
  removeStaleStaging(root);
  return std::unique_ptr<CompileCache>(new CompileCache(root));
}

std::string CompileCache::entryPath(llvm::StringRef key) const {
  llvm::SmallString<128> path(root);
  llvm::sys::path::append(path, key.take_front(2), key);
  return path.str().str();
}

/// One line of an index.
struct IndexedFile {
  uint64_t size;
  llvm::StringRef hash;
  llvm::StringRef name;
};

/// The files `index` lists; none where a line is malformed.
static std::vector<IndexedFile> parseIndex(llvm::StringRef index) {
  std::vector<IndexedFile> files;
  llvm::SmallVector<llvm::StringRef> lines;
  index.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    auto [size, rest] = line.split(' ');
    auto [hash, name] = rest.split(' ');
    IndexedFile file{0, hash, name};
    if (size.getAsInteger(10, file.size) || hash.size() != 64 || name.empty() ||
        name.contains('/'))
      return {};
    files.push_back(file);
  }
  return files;
}

/// The names of the files in `directory`, sorted.
static std::vector<std::string> listFiles(llvm::StringRef directory,
                                          std::string &error) {
  std::vector<std::string> names;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       it != end && !ec; it.increment(ec))
    names.push_back(llvm::sys::path::filename(it->path()).str());
  if (ec)
    error = llvm::formatv("{0}: {1}", directory, ec.message()).str();
  llvm::sort(names);
  return names;
}

/// Whether `entry` holds exactly the files `index` lists, each with its
/// size and hash (a hit copies every file of the entry).
static bool isIntact(llvm::StringRef entry, llvm::StringRef index) {
  std::vector<IndexedFile> files = parseIndex(index);
  if (files.empty())
    return false;
  llvm::SmallString<128> directory(entry);
  llvm::sys::path::append(directory, kFiles);
  std::string error;
  std::vector<std::string> present = listFiles(directory, error);
  if (!error.empty() || present.size() != files.size())
    return false;
  for (const IndexedFile &file : files)
    if (!llvm::is_contained(present, file.name))
      return false;
  for (const IndexedFile &file : files) {
    llvm::SmallString<128> path(entry);
    llvm::sys::path::append(path, kFiles, file.name);
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer || (*buffer)->getBufferSize() != file.size ||
        hashOf((*buffer)->getBuffer()) != file.hash)
      return false;
  }
  return true;
}

/// Moves `directory` aside under a fresh name, then removes it, so that a
/// concurrent lookup never reads a half-removed entry.
static void removeDirectory(llvm::StringRef root, llvm::StringRef directory) {
  llvm::SmallString<128> model(root), aside;
  llvm::sys::path::append(model, "discard");
  bool movedAside = !llvm::sys::fs::createUniqueDirectory(model, aside) &&
                    !llvm::sys::fs::rename(directory, aside);
  if (!movedAside)
    llvm::sys::fs::remove_directories(directory);
  if (!aside.empty())
    llvm::sys::fs::remove_directories(aside);
}

std::optional<std::string> CompileCache::lookup(llvm::StringRef key) {
  std::string entry = entryPath(key);
  if (!llvm::sys::fs::is_directory(entry))
    return std::nullopt;
  llvm::SmallString<128> indexPath(entry);
  llvm::sys::path::append(indexPath, kIndex);
  auto index = llvm::MemoryBuffer::getFile(indexPath);
  if (index && isIntact(entry, (*index)->getBuffer()))
    return entry;
  removeDirectory(root, entry);
  return std::nullopt;
}

std::optional<std::string> CompileCache::createStaging(std::string &error) {
  llvm::SmallString<128> model(root), staging;
  llvm::sys::path::append(model, "staging");
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory(model, staging)) {
    error = llvm::formatv("{0}: {1}", model, ec.message()).str();
    return std::nullopt;
  }
  llvm::SmallString<128> files(staging);
  llvm::sys::path::append(files, kFiles);
  if (std::error_code ec = llvm::sys::fs::create_directory(files)) {
    error = llvm::formatv("{0}: {1}", files, ec.message()).str();
    discard(staging);
    return std::nullopt;
  }
  return staging.str().str();
}

void CompileCache::discard(llvm::StringRef staging) {
  llvm::sys::fs::remove_directories(staging);
}

LogicalResult CompileCache::publish(llvm::StringRef staging,
                                    llvm::StringRef key, std::string &error) {
  llvm::SmallString<128> files(staging);
  llvm::sys::path::append(files, kFiles);
  std::string index;
  for (const std::string &name : listFiles(files, error)) {
    llvm::SmallString<128> path(files);
    llvm::sys::path::append(path, name);
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer || llvm::StringRef(name).contains('\n')) {
      error = llvm::formatv("{0}: not cacheable", path).str();
      return failure();
    }
    index += llvm::formatv("{0} {1} {2}\n", (*buffer)->getBufferSize(),
                           hashOf((*buffer)->getBuffer()), name);
  }
  if (!error.empty())
    return failure();
  llvm::SmallString<128> indexPath(staging);
  llvm::sys::path::append(indexPath, kIndex);
  if (failed(writeOutputFile(
          indexPath,
          [&](llvm::raw_pwrite_stream &os, std::string &) {
            os << index;
            return success();
          },
          error)))
    return failure();
  std::string entry = entryPath(key);
  if (std::error_code ec = llvm::sys::fs::create_directories(
          llvm::sys::path::parent_path(entry))) {
    error = llvm::formatv("{0}: {1}", entry, ec.message()).str();
    return failure();
  }
  // rename(2) refuses to replace a non-empty directory: the first compile
  // of a key to finish keeps its entry.
  if (llvm::sys::fs::rename(staging, entry))
    discard(staging);
  return success();
}

LogicalResult mla::copyEntryFiles(llvm::StringRef entry,
                                  llvm::StringRef directory, bool toStdout,
                                  llvm::ArrayRef<std::string> owned,
                                  std::string &error) {
  llvm::SmallString<128> files(entry);
  llvm::sys::path::append(files, kFiles);
  std::vector<std::string> names = listFiles(files, error);
  if (!error.empty())
    return failure();
  if (toStdout && names.size() != 1) {
    error =
        llvm::formatv("{0}: {1} outputs for stdout", entry, names.size()).str();
    return failure();
  }
  // Every output is written to a temporary first. Then, as publishModule
  // does (docs/ABI.md): nothing is replaced where one output cannot be, the
  // old manifests go first and the new ones come last, so no interruption
  // leaves a manifest next to a binary it was not written for.
  llvm::sort(names, [](llvm::StringRef a, llvm::StringRef b) {
    return std::make_pair(a.ends_with(".json"), a) <
           std::make_pair(b.ends_with(".json"), b);
  });
  std::vector<std::pair<std::string, std::unique_ptr<TemporaryFile>>> outputs;
  for (const std::string &name : names) {
    llvm::SmallString<128> source(files), destination(directory);
    llvm::sys::path::append(source, name);
    llvm::sys::path::append(destination, name);
    auto buffer = llvm::MemoryBuffer::getFile(source, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      error =
          llvm::formatv("{0}: {1}", source, buffer.getError().message()).str();
      return failure();
    }
    if (toStdout) {
      llvm::outs() << (*buffer)->getBuffer();
      llvm::outs().flush();
      return success();
    }
    if (failed(refuseDirectory(destination, error)))
      return failure();
    std::unique_ptr<TemporaryFile> file =
        TemporaryFile::createFor(destination, error);
    if (!file)
      return failure();
    file->os() << (*buffer)->getBuffer();
    if (failed(file->close(error)))
      return failure();
    outputs.emplace_back(destination.str().str(), std::move(file));
  }
  for (auto &[destination, file] : outputs)
    if (llvm::StringRef(destination).ends_with(".json"))
      if (std::error_code ec = llvm::sys::fs::remove(destination)) {
        error = destination + ": " + ec.message();
        return failure();
      }
  for (auto &[destination, file] : outputs)
    if (failed(file->publish(destination, error)))
      return failure();
  for (const std::string &name : owned) {
    if (llvm::is_contained(names, name))
      continue;
    llvm::SmallString<128> stale(directory);
    llvm::sys::path::append(stale, name);
    llvm::sys::fs::remove(stale);
  }
  return success();
}
