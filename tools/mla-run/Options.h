//===- Options.h - mla-run's command line -----------------------*- C++ -*-===//
//
// What the two modes of mla-run share on the command line: the help's
// categories, the flags of both modes, the parsers of values with a syntax
// of their own, and the checks that run after llvm::cl has parsed. Each mode
// defines its own flags (MlaMode.cpp, KernelMode.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TOOLS_MLA_RUN_OPTIONS_H
#define MLA_TOOLS_MLA_RUN_OPTIONS_H

#include "mla/Runtime/Status.h"

#include "llvm/Support/CommandLine.h"

#include <cstdint>
#include <string>

namespace mla::run {

using runtime::Status;

/// The help's sections. A flag's first category also names its mode.
extern llvm::cl::OptionCategory bothModesCategory;
extern llvm::cl::OptionCategory mlaCategory;
extern llvm::cl::OptionCategory generatedInputsCategory;
extern llvm::cl::OptionCategory loadedInputsCategory;
extern llvm::cl::OptionCategory launchPlanCategory;
extern llvm::cl::OptionCategory resultsCategory;
extern llvm::cl::OptionCategory genericCategory;

/// The parser of a value type of our own: llvm::cl's generic parser, whose
/// --help line is replaced by the one every other valued flag has,
/// `--flag=<value_desc>`, with no line per value.
template <typename T> class FlagParser : public llvm::cl::parser<T> {
public:
  using llvm::cl::parser<T>::parser;

  size_t getOptionWidth(const llvm::cl::Option &option) const override {
    return llvm::cl::basic_parser_impl(this->Owner).getOptionWidth(option);
  }
  void printOptionInfo(const llvm::cl::Option &option,
                       size_t globalWidth) const override {
    llvm::cl::basic_parser_impl(this->Owner)
        .printOptionInfo(option, globalWidth);
  }
};

/// The parser of a closed set of names (cl::values): an unknown name's
/// error lists the names.
template <typename T> class ChoiceParser : public FlagParser<T> {
public:
  using FlagParser<T>::FlagParser;

  bool parse(llvm::cl::Option &option, llvm::StringRef argName,
             llvm::StringRef arg, T &value) {
    unsigned index = this->findOption(arg);
    if (index == this->getNumOptions())
      return option.error("'" + arg + "' is not " + names());
    value = this->Values[index].V.getValue();
    return false;
  }

  /// "a, b or c".
  std::string names() const {
    std::string text;
    for (unsigned i = 0, e = this->getNumOptions(); i != e; ++i) {
      if (i != 0)
        text += i + 1 == e ? " or " : ", ";
      text += this->getOption(i).str();
    }
    return text;
  }

  /// The name of `value`.
  llvm::StringRef nameOf(T value) const {
    for (const auto &entry : this->Values)
      if (entry.V.getValue() == value)
        return entry.Name;
    return "";
  }
};

/// Integers in decimal, as users write them (llvm::cl's own parser also
/// takes 0x10, and reads 010 as octal). parser<long long> is the integer
/// parser llvm::cl lets a class derive from.
class DecimalParser : public llvm::cl::parser<long long> {
public:
  using parser::parser;

  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             long long &value) {
    if (arg.getAsInteger(10, value))
      return option.error("'" + arg + "' is not an integer");
    return false;
  }
};

/// An integer flag, and a comma-separated list of them.
using IntegerFlag = llvm::cl::opt<int64_t, false, DecimalParser>;
using IntegerListFlag = llvm::cl::list<int64_t, bool, DecimalParser>;

/// Where the modules run.
enum class Target { Host, Hip, Cuda, Emu };

/// The flags of both modes, checked.
struct CommonOptions {
  Target target;
  /// As given: "host", "hip", "cuda" or "emu".
  std::string targetName;
  std::string module;
  bool bench;
  /// Timed launches of --bench.
  int64_t iterations;
  /// Host threads; 0 for all hardware threads.
  unsigned threads;
};

enum class Mode { Mla, Kernel };

/// Parses argv with llvm::cl, which reports values that do not parse (and
/// exits 1) and answers --help and --version. Then fails on unknown flags,
/// stray arguments, a single-valued flag given twice and flags of both
/// modes; otherwise sets `mode`: Kernel when a flag of the generic mode is
/// given.
Status parseCommandLine(int argc, char **argv, const char *overview,
                        Mode &mode);

/// Checks the flags of both modes, after the mode's own values
/// (checkMlaValues, checkKernelValues), and fills `options`.
Status readCommonOptions(CommonOptions &options);

/// Fails unless `flag`, when given, lies in [minimum, maximum].
Status checkRange(const IntegerFlag &flag, int64_t minimum,
                  int64_t maximum = INT64_MAX);

/// Fails when `flag` is given an empty value.
Status checkNotEmpty(const llvm::cl::opt<std::string> &flag);

/// "--NAME" of `option`.
std::string flagName(const llvm::cl::Option &option);

} // namespace mla::run

#endif // MLA_TOOLS_MLA_RUN_OPTIONS_H
