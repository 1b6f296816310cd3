// `gcnprobe convert` end to end: runs the real binary and checks its output. Expected values
// are hand-derived (see tests/reference/convert_test.cpp for the derivations).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli.h"

namespace convert_cli_test {

using gcnprobe::test_support::CliRun;
using gcnprobe::test_support::runGcnprobe;

TEST(ConvertCli, LoadText) {
  // 0x807f0181 little-endian: X=0x81 (-127), Y=0x01, Z=0x7f, W=0x80 (-128).
  const CliRun r = runGcnprobe("convert --gen gfx8 --dfmt 8_8_8_8 --nfmt snorm --load 0x807f0181");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out,
            "X 0xbf800000 -1\n"
            "Y 0x3c010204 0.007874016\n"  // 1/127
            "Z 0x3f800000 1\n"
            "W 0xbf800000 -1\n");
}

TEST(ConvertCli, StoreText) {
  // 0.5 * 65535 = 32767.5 -> even 32768 = 0x8000; 1.5 clamps to 1.0 -> 0xffff (Y, high half).
  const CliRun r = runGcnprobe("convert --gen gfx8 --dfmt 16_16 --nfmt unorm --store 0.5,1.5");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out, "0xffff8000\n");
}

TEST(ConvertCli, LoadJson) {
  const CliRun r =
      runGcnprobe("convert --gen gfx8 --dfmt 8_8_8_8 --nfmt snorm --load 0x807f0181 --json");
  ASSERT_EQ(r.exit, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.at("components").size(), 4u);
  EXPECT_EQ(j["components"][0]["register"], "0xbf800000");
  EXPECT_EQ(j["components"][0]["value"], -1.0);
  EXPECT_EQ(j["components"][1]["register"], "0x3c010204");
  EXPECT_NEAR(j["components"][1]["value"].get<double>(), 1.0 / 127, 1e-9);
  EXPECT_EQ(j["components"][2]["value"], 1.0);
}

TEST(ConvertCli, StoreJson) {
  const CliRun r =
      runGcnprobe("convert --gen gfx8 --dfmt 16_16 --nfmt unorm --store 0.5,1.5 --json");
  ASSERT_EQ(r.exit, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("memory"), nlohmann::json::array({"0xffff8000"}));
}

TEST(ConvertCli, UndefinedLoadIsNullWithReason) {
  // CLRX GcnMemHandling: 10_11_11 is unknown on GCN 1.0.
  const CliRun r = runGcnprobe("convert --gen gfx6 --dfmt 10_11_11 --nfmt float --load 0 --json");
  ASSERT_EQ(r.exit, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["components"][0]["value"].is_null());
  EXPECT_NE(j["components"][0]["reason"].get<std::string>().find("GCN 1.0"), std::string::npos);
}

TEST(ConvertCli, PoliciesAndD16) {
  // int-store=truncate: -200 = 0xffffff38 -> low byte 0x38; clamp (default) -> -128 = 0x80.
  EXPECT_EQ(runGcnprobe("convert --gen gfx9 --dfmt 8_8 --nfmt sint --store=-200,1").out,
            "0x0180\n");
  EXPECT_EQ(runGcnprobe("convert --gen gfx9 --dfmt 8_8 --nfmt sint --store=-200,1 --policy "
                        "int-store=truncate")
                .out,
            "0x0138\n");
  // D16: float32 1 + 4097*2^-23 truncates to half 1.0 (AMD RDNA3 ISA).
  EXPECT_EQ(
      runGcnprobe("convert --gen gfx9 --dfmt 32_32 --nfmt float --load 0x3f801001,0 --d16").out,
      "X 0x3c00 1\nY 0x0000 0\n");
}

void expectError(const std::string& args, const std::string& mention) {
  const CliRun r = runGcnprobe(args);
  EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;  // bad input (README), not a crash
  EXPECT_NE(r.out.find(mention), std::string::npos) << args << "\n" << r.out;
}

TEST(ConvertCli, BadInput) {
  expectError("convert --gen gfx8 --dfmt 8_8_8_9 --nfmt unorm --load 0", "8_8_8_9");
  expectError("convert --gen gfx8 --dfmt 8_8 --nfmt bogus --load 0", "bogus");
  expectError("convert --gen gfx42 --dfmt 8_8 --nfmt unorm --load 0", "gfx42");
  expectError("convert --gen gfx8 --dfmt 8_8_8_8 --nfmt float --load 0", "illegal");
  expectError("convert --gen gfx8 --dfmt 8_8_8_8 --nfmt uscaled --store 1,2,3,4", "illegal");
  expectError("convert --gen gfx8 --dfmt 16_16 --nfmt unorm --store 0.5,abc", "abc");
  expectError("convert --gen gfx8 --dfmt 16_16 --nfmt unorm --store 0.5", "--store");
  expectError("convert --gen gfx8 --dfmt 32_32 --nfmt uint --load 1", "--load");
  expectError("convert --gen gfx8 --dfmt 8_8 --nfmt uint --load 0x10000", "0x10000");
  expectError("convert --gen gfx8 --dfmt 8_8 --nfmt uint --load 12z", "12z");
  expectError("convert --gen gfx8 --dfmt 8_8 --nfmt uint --load 1 --policy norm=fast", "fast");
  expectError("convert --gen gfx8 --dfmt 8_8 --nfmt uint", "--load");
}

}  // namespace convert_cli_test
