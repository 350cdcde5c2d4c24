//===- CodeObject.cpp - What a GPU driver may be handed -------------------===//

#include "mla/Runtime/CodeObject.h"

#include <cstdint>
#include <cstring>

namespace mla::runtime {

namespace {

/// Little-endian fields of an image, read with bounds already checked.
struct Reader {
  llvm::ArrayRef<char> image;

  template <typename T> T read(uint64_t offset) const {
    T value;
    std::memcpy(&value, image.data() + offset, sizeof(T));
    return value;
  }
  /// Whether [offset, offset + count * size) lies within the image.
  bool holds(uint64_t offset, uint64_t count, uint64_t size) const {
    uint64_t total = image.size();
    if (size != 0 && count > total / size)
      return false;
    return offset <= total && count * size <= total - offset;
  }
};

// Offsets and sizes of the ELF64 header and its tables (the ELF spec).
constexpr uint64_t kHeaderBytes = 64;
constexpr unsigned kClass64 = 2;
constexpr unsigned kLittleEndian = 1;
constexpr uint32_t kSectionNoBits = 8;

} // namespace

bool isElfImage(llvm::ArrayRef<char> image) {
  return image.size() >= 4 && std::memcmp(image.data(),
                                          "\x7F"
                                          "ELF",
                                          4) == 0;
}

Status checkElfExtents(llvm::ArrayRef<char> image, const std::string &path) {
  auto fail = [&](const std::string &what) {
    return Status::failure(path, "not a valid code object: " + what);
  };
  Reader r{image};
  if (!isElfImage(image) || image.size() < kHeaderBytes)
    return fail("shorter than an ELF header");
  if (static_cast<unsigned char>(image[4]) != kClass64 ||
      static_cast<unsigned char>(image[5]) != kLittleEndian)
    return fail("not a 64-bit little-endian ELF");
  uint64_t programOffset = r.read<uint64_t>(32);
  uint64_t sectionOffset = r.read<uint64_t>(40);
  uint16_t programEntryBytes = r.read<uint16_t>(54);
  uint16_t programCount = r.read<uint16_t>(56);
  uint16_t sectionEntryBytes = r.read<uint16_t>(58);
  uint16_t sectionCount = r.read<uint16_t>(60);
  if (programCount &&
      (programEntryBytes < 56 ||
       !r.holds(programOffset, programCount, programEntryBytes)))
    return fail("its program headers lie past its end (truncated?)");
  if (sectionCount &&
      (sectionEntryBytes < 64 ||
       !r.holds(sectionOffset, sectionCount, sectionEntryBytes)))
    return fail("its section headers lie past its end (truncated?)");
  for (uint16_t i = 0; i < programCount; ++i) {
    uint64_t entry = programOffset + uint64_t(i) * programEntryBytes;
    if (!r.holds(r.read<uint64_t>(entry + 8), 1, r.read<uint64_t>(entry + 32)))
      return fail("segment " + std::to_string(i) +
                  " lies past its end (truncated?)");
  }
  for (uint16_t i = 0; i < sectionCount; ++i) {
    uint64_t entry = sectionOffset + uint64_t(i) * sectionEntryBytes;
    if (r.read<uint32_t>(entry + 4) == kSectionNoBits)
      continue;
    if (!r.holds(r.read<uint64_t>(entry + 24), 1, r.read<uint64_t>(entry + 32)))
      return fail("section " + std::to_string(i) +
                  " lies past its end (truncated?)");
  }
  return Status::success();
}

} // namespace mla::runtime
