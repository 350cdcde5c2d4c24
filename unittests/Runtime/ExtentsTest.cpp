//===- ExtentsTest.cpp - Buffer extents in elements -----------------------===//

#include "mla/Runtime/Extents.h"

#include "gtest/gtest.h"

using namespace mla::runtime;

namespace {

TEST(Extents, ElementsInBytes) {
  EXPECT_EQ(elementsInBytes("f32", 10), 2);
  EXPECT_EQ(elementsInBytes("bf16", 10), 5);
  EXPECT_EQ(elementsInBytes("i64", 16), 2);
  EXPECT_EQ(elementsInBytes("f8E4M3FN", 7), 7);
  EXPECT_EQ(elementsInBytes("f4E2M1FN", 7), 14);
}

} // namespace
