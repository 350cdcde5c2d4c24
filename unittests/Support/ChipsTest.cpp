//===- ChipsTest.cpp - The chip table is whole and self-consistent --------===//

#include "mla/Support/Chips.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace mla;

namespace {

bool isPowerOfTwo(unsigned x) { return x && !(x & (x - 1)); }

TEST(Chips, LookupFindsEachChipByItsName) {
  std::set<std::string_view> names;
  for (const Chip &chip : getChips()) {
    EXPECT_EQ(lookupChip(chip.name), &chip);
    EXPECT_TRUE(names.insert(chip.name).second) << chip.name;
  }
  EXPECT_EQ(names.size(), 3u);
  EXPECT_EQ(lookupChip("gfx90a"), nullptr);
  EXPECT_EQ(lookupChip(""), nullptr);
}

TEST(Chips, FactsAreConsistent) {
  for (const Chip &chip : getChips()) {
    SCOPED_TRACE(std::string(chip.name));
    EXPECT_EQ(chip.waveSize, chip.isAMD() ? 64u : 32u);
    EXPECT_GT(chip.ldsBytes, 0);
    EXPECT_TRUE(isPowerOfTwo(chip.mmaM) && isPowerOfTwo(chip.mmaN) &&
                isPowerOfTwo(chip.mmaK));
    EXPECT_TRUE(isPowerOfTwo(chip.minLdsCopyBytes));
    EXPECT_TRUE(isPowerOfTwo(chip.maxLdsCopyBytes));
    EXPECT_LE(chip.minLdsCopyBytes, chip.maxLdsCopyBytes);
    EXPECT_LE(chip.maxLdsCopyBytes, kMaxAccessBytes);
    EXPECT_GT(chip.computeUnits, 0u);
    EXPECT_EQ(chip.warpgroupMma, !chip.isAMD());
  }
}

TEST(Chips, KnownFacts) {
  EXPECT_EQ(lookupChip("gfx950")->mmaK, 32u);
  EXPECT_EQ(lookupChip("gfx942")->mmaK, 16u);
  EXPECT_EQ(lookupChip("gfx942")->fp8, Fp8Encoding::FNUZ);
  EXPECT_EQ(lookupChip("gfx950")->fp8, Fp8Encoding::OCP);
  EXPECT_EQ(lookupChip("gfx942")->ldsBytes, 64 * 1024);
  EXPECT_EQ(lookupChip("gfx950")->ldsBytes, 160 * 1024);
  EXPECT_TRUE(lookupChip("gfx950")->scaledFp4Mma);
  EXPECT_FALSE(lookupChip("gfx942")->scaledFp4Mma);
  EXPECT_FALSE(lookupChip("sm_90")->scaledFp4Mma);
}

TEST(Chips, ListChipsSaysWhichWereExpected) {
  EXPECT_EQ(listChips([](const Chip &c) { return c.isAMD(); }),
            "gfx950 or gfx942");
  EXPECT_EQ(listChips([](const Chip &c) { return !c.isAMD(); }), "sm_90");
  EXPECT_EQ(listChips([](const Chip &) { return true; }),
            "gfx950, gfx942 or sm_90");
  EXPECT_EQ(listChips([](const Chip &) { return false; }), "");
  EXPECT_EQ(listChips([](const Chip &c) { return c.isAMD(); }, "-emu"),
            "gfx950-emu or gfx942-emu");
}

} // namespace
