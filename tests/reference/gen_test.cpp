#include "reference/gen.h"

#include <gtest/gtest.h>

#include "reference/error.h"

namespace gcn {
namespace gen_test {

TEST(Gen, AcceptsGenerationNamesInEveryForm) {
  EXPECT_EQ(parseGen("gfx6"), Gen::Gfx6);
  EXPECT_EQ(parseGen("GCN1.1"), Gen::Gfx7);
  EXPECT_EQ(parseGen("gcn 1.2"), Gen::Gfx8);
  EXPECT_EQ(parseGen("GFX9"), Gen::Gfx9);
}

// Chip -> generation per LLVM's AMDGPUUsage processor table.
TEST(Gen, ChipsMapToTheirGeneration) {
  EXPECT_EQ(parseGen("tahiti"), Gen::Gfx6);
  EXPECT_EQ(parseGen("Pitcairn"), Gen::Gfx6);
  EXPECT_EQ(parseGen("bonaire"), Gen::Gfx7);
  EXPECT_EQ(parseGen("hawaii"), Gen::Gfx7);
  EXPECT_EQ(parseGen("tonga"), Gen::Gfx8);
  EXPECT_EQ(parseGen("fiji"), Gen::Gfx8);
  EXPECT_EQ(parseGen("polaris10"), Gen::Gfx8);
  EXPECT_EQ(parseGen("polaris12"), Gen::Gfx8);
  EXPECT_EQ(parseGen("stoney"), Gen::Gfx8);
  EXPECT_EQ(parseGen("vega10"), Gen::Gfx9);
  EXPECT_EQ(parseGen("vega20"), Gen::Gfx9);
  EXPECT_EQ(parseGen("gfx803"), Gen::Gfx8);
}

// docs/gcn-facts.md: D16 unpacked on gfx801-803, packed on gfx810 and GFX9.
TEST(Gen, D16PackingPerChip) {
  EXPECT_FALSE(parseChip("tonga").d16Packed);
  EXPECT_FALSE(parseChip("polaris10").d16Packed);
  EXPECT_TRUE(parseChip("stoney").d16Packed);
  EXPECT_TRUE(parseChip("vega10").d16Packed);
}

TEST(Gen, UnknownNameIsAnErrorNamingTheText) {
  try {
    parseChip("navi10");
    FAIL() << "navi10 is RDNA, not GCN";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("navi10"), std::string::npos);
  }
}

}  // namespace gen_test
}  // namespace gcn
