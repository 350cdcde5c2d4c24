//===- Status.h - Success or a one-line error -------------------*- C++ -*-===//
//
// The runtime links LLVM's Support library statically (lib/Runtime/
// CMakeLists.txt: mla-run runs on machines with no LLVM installed) and is
// built without exceptions. Its fallible functions return a Status: one
// line for the user, naming what to fix.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_STATUS_H
#define MLA_RUNTIME_STATUS_H

#include <string>
#include <utility>

namespace mla::runtime {

/// The outcome of an operation that can fail. A failure carries one line of
/// the form "<subject>: <what is wrong>", where the subject names the file or
/// flag the user has to fix. Like llvm::Error, a Status converts to true when
/// it is a failure, so callers write `if (Status s = f()) return s;`.
class [[nodiscard]] Status {
public:
  static Status success() { return Status(); }

  /// A failure whose message is `subject + ": " + what`.
  static Status failure(const std::string &subject, const std::string &what) {
    Status status;
    status.failed = true;
    status.text = subject.empty() ? what : subject + ": " + what;
    return status;
  }

  bool ok() const { return !failed; }
  explicit operator bool() const { return failed; }
  const std::string &message() const { return text; }

private:
  Status() = default;

  bool failed = false;
  std::string text;
};

} // namespace mla::runtime

#endif // MLA_RUNTIME_STATUS_H
