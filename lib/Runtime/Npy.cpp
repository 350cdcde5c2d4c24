//===- Npy.cpp - NumPy .npy files -----------------------------------------===//

#include "mla/Runtime/Npy.h"
#include "mla/Runtime/RegularFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace mla::runtime {

const char *npyDTypeName(NpyDType dtype) {
  switch (dtype) {
  case NpyDType::UInt8:
    return "uint8";
  case NpyDType::Int8:
    return "int8";
  case NpyDType::UInt16:
    return "uint16";
  case NpyDType::Float16:
    return "float16";
  case NpyDType::Int32:
    return "int32";
  case NpyDType::Int64:
    return "int64";
  case NpyDType::Float32:
    return "float32";
  }
  return "?";
}

size_t npyItemSize(NpyDType dtype) {
  switch (dtype) {
  case NpyDType::UInt8:
  case NpyDType::Int8:
    return 1;
  case NpyDType::UInt16:
  case NpyDType::Float16:
    return 2;
  case NpyDType::Int32:
  case NpyDType::Float32:
    return 4;
  case NpyDType::Int64:
    return 8;
  }
  return 1;
}

/// The `descr` NumPy writes for the type.
static const char *npyDescr(NpyDType dtype) {
  switch (dtype) {
  case NpyDType::UInt8:
    return "|u1";
  case NpyDType::Int8:
    return "|i1";
  case NpyDType::UInt16:
    return "<u2";
  case NpyDType::Float16:
    return "<f2";
  case NpyDType::Int32:
    return "<i4";
  case NpyDType::Int64:
    return "<i8";
  case NpyDType::Float32:
    return "<f4";
  }
  return "";
}

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
  if (descr.size() != 3) {
    error = "unsupported dtype '" + printable(descr) + "'";
    return false;
  }
  char order = descr[0];
  std::string type = descr.substr(1);
  if (type == "u1" || type == "i1") {
    if (order != '|' && order != '<' && order != '>' && order != '=') {
      error = "unsupported dtype '" + printable(descr) + "'";
      return false;
    }
    dtype = type == "u1" ? NpyDType::UInt8 : NpyDType::Int8;
    return true;
  }
  static const std::pair<const char *, NpyDType> kMultiByte[] = {
      {"u2", NpyDType::UInt16},
      {"f2", NpyDType::Float16},
      {"i4", NpyDType::Int32},
      {"i8", NpyDType::Int64},
      {"f4", NpyDType::Float32}};
  for (auto [name, candidate] : kMultiByte) {
    if (type != name)
      continue;
    if (order != '<') {
      error = "dtype '" + printable(descr) + "' is not little-endian";
      return false;
    }
    dtype = candidate;
    return true;
  }
  error = "unsupported dtype '" + printable(descr) +
          "' (expected one of |u1 |i1 <u2 <f2 <i4 <i8 <f4)";
  return false;
}

Status readNpy(const std::string &path, NpyArray &array) {
  InputFile input;
  if (Status s = input.open(path))
    return s;
  std::FILE *file = input.get();
  uint64_t fileSize = input.size();

  unsigned char preamble[12];
  size_t got = std::fread(preamble, 1, 8, file);
  if (got < 8 || std::memcmp(preamble, "\x93NUMPY", 6) != 0)
    return Status::failure(path, "not a .npy file (bad magic)");
  int major = preamble[6], minor = preamble[7];
  size_t lengthBytes = major == 1 ? 2 : major == 2 ? 4 : 0;
  if (!lengthBytes)
    return Status::failure(
        path, formatString("unsupported .npy version %d.%d (expected 1.0 or "
                           "2.0)",
                           major, minor));
  if (std::fread(preamble + 8, 1, lengthBytes, file) != lengthBytes)
    return Status::failure(path, "truncated header");
  uint64_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= static_cast<uint64_t>(preamble[8 + i]) << (8 * i);
  uint64_t dataOffset = 8 + lengthBytes + headerLength;
  if (dataOffset > fileSize)
    return Status::failure(
        path, formatString(
                  "truncated header: %llu bytes declared, %llu in "
                  "the file",
                  static_cast<unsigned long long>(headerLength),
                  static_cast<unsigned long long>(fileSize - 8 - lengthBytes)));
  std::string header(headerLength, '\0');
  if (std::fread(header.data(), 1, headerLength, file) != headerLength)
    return Status::failure(path, "truncated header");

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
        path, formatString("truncated data: shape %s of %s needs %llu bytes, "
                           "the file has %llu",
                           result.shapeString().c_str(), npyDTypeName(dtype),
                           static_cast<unsigned long long>(dataBytes),
                           static_cast<unsigned long long>(available)));
  if (available > dataBytes)
    return Status::failure(
        path,
        formatString("%llu bytes after the data of shape %s",
                     static_cast<unsigned long long>(available - dataBytes),
                     result.shapeString().c_str()));
  result.bytes.resize(dataBytes);
  if (dataBytes &&
      std::fread(result.bytes.data(), 1, dataBytes, file) != dataBytes)
    return Status::failure(path,
                           std::string("read failed: ") + std::strerror(errno));
  array = std::move(result);
  return Status::success();
}

/// Writes all of `size` bytes to `fd`.
static bool writeAll(int fd, const void *data, size_t size) {
  const char *cursor = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t written = ::write(fd, cursor, size);
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    cursor += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

Status writeNpy(const std::string &path, NpyDType dtype,
                const std::vector<int64_t> &shape, const void *data) {
  NpyArray layout;
  layout.shape = shape;
  std::string header =
      std::string("{'descr': '") + npyDescr(dtype) +
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

  std::string temporary = path + ".tmp.XXXXXX";
  int fd = mkstemp(temporary.data());
  if (fd < 0)
    return Status::failure(path, std::string("cannot create: ") +
                                     std::strerror(errno));
  // mkstemp creates the file private; give it the usual umask permissions.
  mode_t mask = umask(0);
  umask(mask);
  bool ok = fchmod(fd, 0666 & ~mask) == 0 &&
            writeAll(fd, preamble.data(), preamble.size()) &&
            writeAll(fd, header.data(), header.size()) &&
            writeAll(fd, data, dataBytes);
  int savedErrno = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    savedErrno = errno;
  }
  if (ok && std::rename(temporary.c_str(), path.c_str()) != 0) {
    ok = false;
    savedErrno = errno;
  }
  if (!ok) {
    ::unlink(temporary.c_str());
    return Status::failure(path, std::string("cannot write: ") +
                                     std::strerror(savedErrno));
  }
  return Status::success();
}

} // namespace mla::runtime
