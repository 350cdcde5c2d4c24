//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reads and writes the NumPy .npy format (versions 1.0 and 2.0), C order,
// little-endian, for the element types of kernel arguments.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_NPY_H
#define MLA_RUNTIME_NPY_H

#include "mla/Runtime/Status.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace mla::runtime {

/// The element types the runtime reads and writes.
enum class NpyDType { UInt8, Int8, UInt16, Float16, Int32, Int64, Float32 };

/// NumPy's name for the type ("uint16").
const char *npyDTypeName(NpyDType dtype);
/// Bytes per element.
size_t npyItemSize(NpyDType dtype);

/// An array read from or to be written to a .npy file.
struct NpyArray {
  NpyDType dtype = NpyDType::UInt8;
  std::vector<int64_t> shape;
  /// The elements in C order, little-endian.
  std::vector<uint8_t> bytes;

  int64_t numElements() const;
  /// The shape as NumPy prints it: "(3, 4)", "(5,)", "()".
  std::string shapeString() const;
  /// Copies the elements out as `T`, which must match the dtype's size.
  template <typename T> std::vector<T> elementsAs() const {
    std::vector<T> result(bytes.size() / sizeof(T));
    if (!result.empty())
      std::memcpy(result.data(), bytes.data(), result.size() * sizeof(T));
    return result;
  }
};

/// Reads `path`. Errors name the file: missing or unreadable file, bad magic,
/// unsupported version, malformed or truncated header, unsupported or
/// big-endian dtype, Fortran order, and data shorter or longer than the
/// shape says.
Status readNpy(const std::string &path, NpyArray &array);

/// Writes `data` (C order, `shape`) as a version 1.0 file. The bytes go to a
/// temporary file in the same directory that is renamed over `path` once
/// complete, so `path` never holds a partial file.
Status writeNpy(const std::string &path, NpyDType dtype,
                const std::vector<int64_t> &shape, const void *data);

} // namespace mla::runtime

#endif // MLA_RUNTIME_NPY_H
