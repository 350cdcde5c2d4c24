//===- Npy.cpp - NumPy .npy files -----------------------------------------===//

#include "mla/Runtime/Npy.h"
#include "mla/Runtime/RegularFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cstdio>
#include <cstring>
#include <utility>

namespace mla::runtime {

namespace {

/// What the runtime knows of a dtype.
struct DTypeInfo {
  NpyDType dtype;
  /// NumPy's name for it.
  const char *name;
  /// The `descr` NumPy writes for it; the first character is the byte order.
  const char *descr;
  size_t itemSize;
};

/// Every NpyDType, in its order; the .npy descrs readNpy accepts.
constexpr DTypeInfo kDTypes[] = {
    {NpyDType::UInt8, "uint8", "|u1", 1},
    {NpyDType::Int8, "int8", "|i1", 1},
    {NpyDType::UInt16, "uint16", "<u2", 2},
    {NpyDType::Float16, "float16", "<f2", 2},
    {NpyDType::Int32, "int32", "<i4", 4},
    {NpyDType::Int64, "int64", "<i8", 8},
    {NpyDType::Float32, "float32", "<f4", 4},
};

const DTypeInfo &infoOf(NpyDType dtype) {
  const DTypeInfo &info = kDTypes[static_cast<size_t>(dtype)];
  assert(info.dtype == dtype && "kDTypes is in NpyDType's order");
  return info;
}

} // namespace

const char *npyDTypeName(NpyDType dtype) { return infoOf(dtype).name; }

size_t npyItemSize(NpyDType dtype) { return infoOf(dtype).itemSize; }

/// Header text as it may appear in a one-line message: bytes that are not
/// printable ASCII show as \xNN.
static std::string printable(const std::string &text) {
  std::string result;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      result += static_cast<char>(c);
      continue;
    }
    char escaped[8];
    std::snprintf(escaped, sizeof(escaped), "\\x%02x", c);
    result += escaped;
  }
  return result;
}

int64_t NpyArray::numElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

std::string NpyArray::shapeString() const {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

namespace {

/// A cursor over the header's Python dict literal, e.g.
/// {'descr': '<u2', 'fortran_order': False, 'shape': (2, 576), }
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : text(text) {}

  /// Parses the dict into the three fields; `error` says what is wrong.
  bool parse(std::string &descr, bool &fortranOrder,
             std::vector<int64_t> &shape, std::string &error) {
    bool seenDescr = false, seenOrder = false, seenShape = false;
    if (!consume('{'))
      return fail("expected '{'", error);
    while (true) {
      skipSpaces();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key) || !consume(':'))
        return fail("expected 'key': value", error);
      skipSpaces();
      if (key == "descr") {
        if (!parseString(descr))
          return fail("'descr' is not a string", error);
        seenDescr = true;
      } else if (key == "fortran_order") {
        if (!parseBool(fortranOrder))
          return fail("'fortran_order' is not True or False", error);
        seenOrder = true;
      } else if (key == "shape") {
        if (!parseShape(shape))
          return fail("'shape' is not a tuple of non-negative integers", error);
        seenShape = true;
      } else {
        return fail("unexpected key '" + printable(key) + "'", error);
      }
      skipSpaces();
      if (consume(','))
        continue;
      if (consume('}'))
        break;
      return fail("expected ',' or '}'", error);
    }
    if (!seenDescr || !seenOrder || !seenShape)
      return fail("missing 'descr', 'fortran_order' or 'shape'", error);
    return true;
  }

private:
  bool fail(const std::string &what, std::string &error) {
    error = "malformed header: " + what;
    return false;
  }

  void skipSpaces() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t'))
      ++pos;
  }

  bool consume(char c) {
    skipSpaces();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  bool parseString(std::string &out) {
    skipSpaces();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return false;
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == std::string::npos)
      return false;
    out = text.substr(pos, end - pos);
    pos = end + 1;
    return true;
  }

  bool parseBool(bool &out) {
    for (const char *word : {"True", "False"}) {
      size_t length = std::strlen(word);
      if (text.compare(pos, length, word) == 0) {
        pos += length;
        out = word[0] == 'T';
        return true;
      }
    }
    return false;
  }

  bool parseShape(std::vector<int64_t> &shape) {
    shape.clear();
    if (!consume('('))
      return false;
    while (true) {
      if (consume(')'))
        return true;
      skipSpaces();
      if (pos >= text.size() || text[pos] < '0' || text[pos] > '9')
        return false;
      int64_t dim = 0;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        if (dim > (INT64_MAX - 9) / 10)
          return false;
        dim = dim * 10 + (text[pos++] - '0');
      }
      shape.push_back(dim);
      if (!consume(',')) {
        // A one-element tuple needs its comma; others may omit the last.
        return shape.size() != 1 && consume(')');
      }
    }
  }

  const std::string &text;
  size_t pos = 0;
};

} // namespace

/// Maps a header `descr` to a dtype; single-byte types may carry any byte
/// order mark.
static bool parseDescr(const std::string &descr, NpyDType &dtype,
                       std::string &error) {
  std::string unsupported = "unsupported dtype '" + printable(descr) + "'";
  if (descr.size() != 3) {
    error = unsupported;
    return false;
  }
  char order = descr[0];
  llvm::StringRef type = llvm::StringRef(descr).drop_front();
  for (const DTypeInfo &info : kDTypes) {
    if (type != info.descr + 1)
      continue;
    if (info.itemSize == 1 && !llvm::StringRef("|<>=").contains(order)) {
      error = unsupported;
      return false;
    }
    if (info.itemSize > 1 && order != '<') {
      error = "dtype '" + printable(descr) + "' is not little-endian";
      return false;
    }
    dtype = info.dtype;
    return true;
  }
  error = unsupported + " (expected one of";
  for (const DTypeInfo &info : kDTypes)
    error += std::string(" ") + info.descr;
  error += ")";
  return false;
}

Status readNpy(const std::string &path, NpyArray &array) {
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  ReadOptions options;
  options.mayMap = true;
  if (Status s = readRegularFile(path, buffer, options))
    return s;
  llvm::StringRef file = buffer->getBuffer();
  uint64_t fileSize = file.size();

  if (!file.starts_with(llvm::StringRef("\x93NUMPY", 6)) || fileSize < 8)
    return Status::failure(path, "not a .npy file (bad magic)");
  int major = static_cast<unsigned char>(file[6]);
  int minor = static_cast<unsigned char>(file[7]);
  size_t lengthBytes = major == 1 ? 2 : major == 2 ? 4 : 0;
  if (!lengthBytes)
    return Status::failure(
        path, llvm::formatv("unsupported .npy version {0}.{1} (expected 1.0 "
                            "or 2.0)",
                            major, minor));
  if (fileSize < 8 + lengthBytes)
    return Status::failure(path, "truncated header");
  uint64_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |=
        static_cast<uint64_t>(static_cast<unsigned char>(file[8 + i]))
        << (8 * i);
  uint64_t dataOffset = 8 + lengthBytes + headerLength;
  if (dataOffset > fileSize)
    return Status::failure(
        path, llvm::formatv("truncated header: {0} bytes declared, {1} in the "
                            "file",
                            headerLength, fileSize - 8 - lengthBytes));
  std::string header = file.substr(8 + lengthBytes, headerLength).str();

  std::string descr, error;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  if (!HeaderParser(header).parse(descr, fortranOrder, shape, error))
    return Status::failure(path, error);
  NpyDType dtype;
  if (!parseDescr(descr, dtype, error))
    return Status::failure(path, error);
  if (fortranOrder)
    return Status::failure(
        path, "Fortran-order array (save a C-contiguous array instead)");

  uint64_t itemSize = npyItemSize(dtype);
  uint64_t dataBytes = itemSize;
  for (int64_t dim : shape) {
    if (dim != 0 &&
        dataBytes > (uint64_t(1) << 62) / static_cast<uint64_t>(dim))
      return Status::failure(path, "shape is too large");
    dataBytes *= static_cast<uint64_t>(dim);
  }
  uint64_t available = fileSize - dataOffset;
  NpyArray result;
  result.dtype = dtype;
  result.shape = shape;
  if (available < dataBytes)
    return Status::failure(
        path, llvm::formatv("truncated data: shape {0} of {1} needs {2} bytes, "
                            "the file has {3}",
                            result.shapeString(), npyDTypeName(dtype),
                            dataBytes, available));
  if (available > dataBytes)
    return Status::failure(
        path, llvm::formatv("{0} bytes after the data of shape {1}",
                            available - dataBytes, result.shapeString()));
  llvm::StringRef data = file.substr(dataOffset);
  result.bytes.assign(data.begin(), data.end());
  array = std::move(result);
  return Status::success();
}

Status writeNpy(const std::string &path, NpyDType dtype,
                const std::vector<int64_t> &shape, const void *data) {
  NpyArray layout;
  layout.shape = shape;
  std::string header =
      std::string("{'descr': '") + infoOf(dtype).descr +
      "', 'fortran_order': False, 'shape': " + layout.shapeString() + ", }";
  // NumPy pads the header with spaces and a newline so that the data starts
  // on a 64-byte boundary.
  size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');
  if (header.size() > 0xFFFF)
    return Status::failure(path, "shape too long for a .npy header");

  std::string preamble("\x93NUMPY\x01\x00", 8);
  preamble.push_back(static_cast<char>(header.size() & 0xFF));
  preamble.push_back(static_cast<char>(header.size() >> 8));
  size_t dataBytes =
      static_cast<size_t>(layout.numElements()) * npyItemSize(dtype);

  // Created with the usual umask permissions, in `path`'s directory so that
  // keep() renames it into place.
  llvm::Expected<llvm::sys::fs::TempFile> temporary =
      llvm::sys::fs::TempFile::create(path + ".tmp.%%%%%%");
  if (!temporary)
    return Status::failure(path, "cannot create: " +
                                     llvm::toString(temporary.takeError()));
  std::string writeError;
  {
    llvm::raw_fd_ostream out(temporary->FD, /*shouldClose=*/false);
    out << preamble << header;
    out.write(static_cast<const char *>(data), dataBytes);
    out.flush();
    if (out.has_error()) {
      writeError = out.error().message();
      out.clear_error();
    }
  }
  if (!writeError.empty()) {
    llvm::consumeError(temporary->discard());
    return Status::failure(path, "cannot write: " + writeError);
  }
  if (llvm::Error error = temporary->keep(path))
    return Status::failure(path,
                           "cannot write: " + llvm::toString(std::move(error)));
  return Status::success();
}

} // namespace mla::runtime
