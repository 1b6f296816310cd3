// Hostile command lines: every bad value is an error that names the flag (exit 2), every
// well-formed value gets an answer.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/cli.h"

namespace {

using gcnprobe::test_support::CliRun;
using gcnprobe::test_support::runGcnprobe;

void expectError(const std::string& args, const std::string& mention) {
  const CliRun r = runGcnprobe(args);
  EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(mention), std::string::npos) << args << "\n" << r.out;
}

// Float stores round like IEEE round to nearest even: 1e39 is +Inf (0x7f800000), 1e-50 is +0.
// 16_16 UNORM clamps +Inf to 1.0 (0xffff in X, the low half).
TEST(ConvertBadInput, OutOfRangeFloatsAreRoundedNotRejected) {
  CliRun r = runGcnprobe("convert --gen gfx8 --dfmt 32 --nfmt float --store 1e39");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out, "0x7f800000\n");
  r = runGcnprobe("convert --gen gfx8 --dfmt 32 --nfmt float --store=-1e-50");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out, "0x80000000\n");
  r = runGcnprobe("convert --gen gfx8 --dfmt 16_16 --nfmt unorm --store 1e39,1e-50");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out, "0x0000ffff\n");
}

TEST(ConvertBadInput, IntegersTooWideSayTheyDoNotFit) {
  expectError("convert --gen gfx8 --dfmt 32 --nfmt uint --load 99999999999999999999999",
              "--load: '99999999999999999999999' does not fit in 32 bits");
  expectError("convert --gen gfx8 --dfmt 32 --nfmt sint --store 99999999999999999999999",
              "--store: '99999999999999999999999' does not fit in 32 bits");
  expectError("convert --gen gfx8 --dfmt 32 --nfmt uint --store 1e39", "--store: '1e39'");
}

}  // namespace
