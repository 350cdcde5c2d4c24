//===- OutputFile.cpp - Writing and publishing compiler outputs -----------===//

#include "mla/Target/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

using namespace mlir;
using namespace mla;

/// Creates a new file named after `model` (its `%` random), registered for
/// removal on the signals that end the process before it exists: an
/// interrupt right after the file appears still removes it.
static std::error_code
createRemovedOnSignal(const llvm::Twine &model, int &fd,
                      llvm::SmallVectorImpl<char> &path) {
  namespace fs = llvm::sys::fs;
  std::error_code ec;
  for (int attempt = 0; attempt < 128; ++attempt) {
    fs::createUniquePath(model, path, /*MakeAbsolute=*/false);
    llvm::StringRef name(path.data(), path.size());
    llvm::sys::RemoveFileOnSignal(name);
    ec = fs::openFileForWrite(name, fd, fs::CD_CreateNew);
    if (!ec)
      return ec;
    llvm::sys::DontRemoveFileOnSignal(name);
    if (ec != std::errc::file_exists)
      return ec;
  }
  return ec;
}

TemporaryFile::TemporaryFile(llvm::StringRef path, int fd) : path(path) {
  stream.emplace(fd, /*shouldClose=*/true);
}

TemporaryFile::~TemporaryFile() {
  if (published)
    return;
  // A write error is reported by close(); here it must not abort.
  if (stream) {
    stream->close();
    stream->clear_error();
    stream.reset();
  }
  llvm::sys::fs::remove(path);
  llvm::sys::DontRemoveFileOnSignal(path);
}

std::unique_ptr<TemporaryFile>
TemporaryFile::createFor(llvm::StringRef destination, std::string &error) {
  llvm::SmallString<128> path;
  int fd;
  if (std::error_code ec =
          createRemovedOnSignal(destination + "-%%%%%%%%.tmp", fd, path)) {
    error = (destination + ": cannot create a temporary file: " + ec.message())
                .str();
    return nullptr;
  }
  return std::unique_ptr<TemporaryFile>(new TemporaryFile(path, fd));
}

std::unique_ptr<TemporaryFile>
TemporaryFile::createScratch(llvm::StringRef prefix, llvm::StringRef suffix,
                             std::string &error) {
  llvm::SmallString<128> path;
  int fd;
  llvm::SmallString<128> model;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, model);
  llvm::sys::path::append(model, prefix + "-%%%%%%." + suffix);
  if (std::error_code ec = createRemovedOnSignal(model, fd, path)) {
    error = "cannot create a temporary file: " + ec.message();
    return nullptr;
  }
  return std::unique_ptr<TemporaryFile>(new TemporaryFile(path, fd));
}

LogicalResult TemporaryFile::close(std::string &error) {
  if (!stream)
    return success();
  stream->close();
  std::error_code ec = stream->error();
  stream->clear_error();
  stream.reset();
  if (ec) {
    error = (path + ": " + ec.message()).str();
    return failure();
  }
  return success();
}

LogicalResult TemporaryFile::publish(llvm::StringRef destination,
                                     std::string &error) {
  if (failed(close(error)))
    return failure();
  if (std::error_code ec = llvm::sys::fs::rename(path, destination)) {
    error = (destination + ": " + ec.message()).str();
    return failure();
  }
  published = true;
  llvm::sys::DontRemoveFileOnSignal(path);
  return success();
}

LogicalResult mla::writeOutputFile(
    llvm::StringRef path,
    llvm::function_ref<LogicalResult(llvm::raw_pwrite_stream &, std::string &)>
        write,
    std::string &error) {
  if (path == "-") {
    if (failed(write(llvm::outs(), error)))
      return failure();
    llvm::outs().flush();
    return success();
  }
  std::unique_ptr<TemporaryFile> file = TemporaryFile::createFor(path, error);
  if (!file || failed(write(file->os(), error)))
    return failure();
  return file->publish(path, error);
}

LogicalResult mla::refuseDirectory(llvm::StringRef path, std::string &error) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status, /*Follow=*/false) ||
      !llvm::sys::fs::is_directory(status))
    return success();
  error = (path + ": is a directory").str();
  return failure();
}

LogicalResult mla::publishModule(TemporaryFile &binary, TemporaryFile &manifest,
                                 llvm::StringRef binaryPath,
                                 std::string &error) {
  std::string manifestPath = (binaryPath + ".json").str();
  if (failed(refuseDirectory(binaryPath, error)) ||
      failed(refuseDirectory(manifestPath, error)))
    return failure();
  if (std::error_code ec = llvm::sys::fs::remove(manifestPath)) {
    error = manifestPath + ": " + ec.message();
    return failure();
  }
  if (failed(binary.publish(binaryPath, error)))
    return failure();
  return manifest.publish(manifestPath, error);
}

LogicalResult mla::publishModule(TemporaryFile &binary,
                                 const llvm::json::Value &manifest,
                                 llvm::StringRef binaryPath,
                                 std::string &error) {
  std::unique_ptr<TemporaryFile> manifestFile =
      TemporaryFile::createFor((binaryPath + ".json").str(), error);
  if (!manifestFile)
    return failure();
  manifestFile->os() << llvm::formatv("{0:2}", manifest) << "\n";
  return publishModule(binary, *manifestFile, binaryPath, error);
}
