//===- JsonTest.cpp - JSON parsing with located errors --------------------===//

#include "TestSupport.h"

#include "mla/Runtime/Json.h"

#include "gtest/gtest.h"

#include <optional>
#include <string>
#include <utility>

using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

TEST(Json, Parse) {
  llvm::json::Value value = nullptr;
  EXPECT_TRUE(succeeded(parseJson(
      R"({"a": [1, -2.5e1, 12345678901], "s": "x\"\\\n\u00e9\ud83d\ude00",
 "t": true, "f": false, "n": null, "o": {}})",
      "doc", value)));
  const llvm::json::Object *object = value.getAsObject();
  ASSERT_NE(object, nullptr);
  EXPECT_EQ(object->size(), 6u);
  const llvm::json::Array *a = object->getArray("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->size(), 3u);
  EXPECT_EQ(getNonNegativeInteger((*a)[0]), 1);
  EXPECT_EQ(getNonNegativeInteger((*a)[1]), std::nullopt);
  EXPECT_EQ((*a)[1].getAsNumber(), -25);
  EXPECT_EQ(getNonNegativeInteger((*a)[2]), 12345678901);
  EXPECT_EQ(object->getString("s").value_or("<absent>").str(),
            "x\"\\\n\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(object->getBoolean("t"), std::optional<bool>(true));
  EXPECT_EQ(object->getBoolean("f"), std::optional<bool>(false));
  EXPECT_TRUE(object->getNull("n"));
  EXPECT_NE(object->getObject("o"), nullptr);
  EXPECT_EQ(object->get("missing"), nullptr);

  // Integers are written as integers, and are not negative.
  for (const char *text : {"4.0", "1e3", "-1", "9223372036854775808"}) {
    EXPECT_TRUE(succeeded(parseJson(text, "m.json", value)));
    EXPECT_EQ(getNonNegativeInteger(value), std::nullopt) << text;
  }

  // Malformed documents, and the errors that locate what is wrong.
  const std::pair<std::string, const char *> malformed[] = {
      {"{\n  \"a\": [1, 2,, 3]\n}", "m.json:2:15: invalid JSON value"},
      {"{\"a\": 1} x", "m.json:1:10: text after end of document"},
      {"{\"a\": \"abc", "unterminated string"},
      {"{\"a\" 1}", "m.json:1:7: expected : after object key"},
      {"{\"a\": tru}", "invalid JSON value"},
      {"\"\\q\"", "invalid escape sequence"},
      {"\"\xFF\"", "invalid UTF-8 sequence"},
      {std::string(100, '['), "m.json:1:65: nesting deeper than 64 levels"},
      {"", "m.json:1:1: unexpected EOF"},
  };
  for (const auto &[text, error] : malformed)
    EXPECT_TRUE(failsWith(parseJson(text, "m.json", value), error)) << text;
  // Brackets inside strings do not nest.
  EXPECT_TRUE(succeeded(
      parseJson("[\"" + std::string(100, '[') + "\\\"\"]", "m.json", value)));
}

} // namespace
