//===- AbiRecord.h - What a binary says about its kernels -------*- C++ -*-===//
//
// Every binary mla-compile writes carries an ABI record (docs/ABI.md): a
// global holding, as JSON text, what a launcher relies on for each kernel
// (its arguments, workgroup size and launch keys), written from the same
// data as the manifest.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_ABIRECORD_H
#define MLA_RUNTIME_ABIRECORD_H

#include <cstdint>

namespace mla::runtime {

/// The symbol of the record in every binary: a NUL-terminated JSON text.
constexpr const char *kAbiRecordSymbol = "__mla_abi";
/// The record's "version"; bumped when its layout changes.
constexpr int64_t kAbiRecordVersion = 1;
/// The largest record a loader reads: far beyond any module's.
constexpr uint64_t kMaxAbiRecordBytes = uint64_t(1) << 24;

} // namespace mla::runtime

#endif // MLA_RUNTIME_ABIRECORD_H
