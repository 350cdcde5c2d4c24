//===- AbiRecord.h - What a binary says about its kernels -------*- C++ -*-===//
//
// Every binary mla-compile writes carries an ABI record (docs/ABI.md): a
// global holding, as JSON text, what a launcher relies on for each kernel
// (its arguments, workgroup size and launch keys), written from the same
// data as the manifest. A manifest edited by hand or left over from another
// compile is refused at load time when it disagrees with the record.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_ABIRECORD_H
#define MLA_RUNTIME_ABIRECORD_H

#include "mla/Runtime/Status.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace mla::runtime {

struct Manifest;

/// The symbol of the record in every binary: a NUL-terminated JSON text.
constexpr const char *kAbiRecordSymbol = "__mla_abi";
/// The record's "version"; bumped when its layout changes.
constexpr int64_t kAbiRecordVersion = 1;
/// The largest record a loader reads: far beyond any module's.
constexpr uint64_t kMaxAbiRecordBytes = uint64_t(1) << 24;

/// Checks `manifest` against `record`, the bytes of the ABI record global
/// of the binary at `binaryPath` (its text ends at the first NUL). Every
/// kernel of the manifest must be a kernel of the record with the same
/// arguments in the same order, the same launch object and, where the
/// record has one, the same workgroup size; the targets must agree. The
/// error names the manifest's field and both values, in one line.
Status checkAbiRecord(std::string_view record, const std::string &binaryPath,
                      const Manifest &manifest);

/// The error for a binary without a record (one compiled before records
/// existed, or not by mla-compile).
Status missingAbiRecord(const std::string &binaryPath);

} // namespace mla::runtime

#endif // MLA_RUNTIME_ABIRECORD_H
