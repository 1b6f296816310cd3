// `gcnprobe convert` end to end: runs the real binary and checks its output. Expected values
// are hand-derived (see tests/reference/convert_test.cpp for the derivations).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct CliRun {
  int exitCode;
  std::string output;  // stdout and stderr
};

CliRun gcnprobe(const std::string& args) {
  const std::string cmd = std::string(GCNPROBE_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    out.append(buf.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(ConvertCli, LoadText) {
  // 0x807f0181 little-endian: X=0x81 (-127), Y=0x01, Z=0x7f, W=0x80 (-128).
  const CliRun r = gcnprobe("convert --gen gfx8 --dfmt 8_8_8_8 --nfmt snorm --load 0x807f0181");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output,
            "X 0xbf800000 -1\n"
            "Y 0x3c010204 0.007874016\n"  // 1/127
            "Z 0x3f800000 1\n"
            "W 0xbf800000 -1\n");
}

TEST(ConvertCli, StoreText) {
  // 0.5 * 65535 = 32767.5 -> even 32768 = 0x8000; 1.5 clamps to 1.0 -> 0xffff (Y, high half).
  const CliRun r = gcnprobe("convert --gen gfx8 --dfmt 16_16 --nfmt unorm --store 0.5,1.5");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "0xffff8000\n");
}

TEST(ConvertCli, LoadJson) {
  const CliRun r =
      gcnprobe("convert --gen gfx8 --dfmt 8_8_8_8 --nfmt snorm --load 0x807f0181 --json");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  ASSERT_EQ(j.at("components").size(), 4u);
  EXPECT_EQ(j["components"][0]["register"], "0xbf800000");
  EXPECT_EQ(j["components"][0]["value"], -1.0);
  EXPECT_EQ(j["components"][1]["register"], "0x3c010204");
  EXPECT_NEAR(j["components"][1]["value"].get<double>(), 1.0 / 127, 1e-9);
  EXPECT_EQ(j["components"][2]["value"], 1.0);
}

TEST(ConvertCli, StoreJson) {
  const CliRun r = gcnprobe("convert --gen gfx8 --dfmt 16_16 --nfmt unorm --store 0.5,1.5 --json");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j.at("memory"), nlohmann::json::array({"0xffff8000"}));
}

TEST(ConvertCli, UndefinedLoadIsNullWithReason) {
  // Seed 003: 10_11_11 is unknown on GCN 1.0.
  const CliRun r = gcnprobe("convert --gen gfx6 --dfmt 10_11_11 --nfmt float --load 0 --json");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_TRUE(j["components"][0]["value"].is_null());
  EXPECT_NE(j["components"][0]["reason"].get<std::string>().find("GCN 1.0"), std::string::npos);
}

TEST(ConvertCli, PoliciesAndD16) {
  // int-store=truncate: -200 = 0xffffff38 -> low byte 0x38; clamp (default) -> -128 = 0x80.
  EXPECT_EQ(gcnprobe("convert --gen gfx9 --dfmt 8_8 --nfmt sint --store=-200,1").output,
            "0x0180\n");
  EXPECT_EQ(gcnprobe("convert --gen gfx9 --dfmt 8_8 --nfmt sint --store=-200,1 --policy "
                     "int-store=truncate")
                .output,
            "0x0138\n");
  // D16: float32 1 + 4097*2^-23 truncates to half 1.0 (seed 004).
  EXPECT_EQ(
      gcnprobe("convert --gen gfx9 --dfmt 32_32 --nfmt float --load 0x3f801001,0 --d16").output,
      "X 0x3c00 1\nY 0x0000 0\n");
}

void expectError(const std::string& args, const std::string& mention) {
  const CliRun r = gcnprobe(args);
  EXPECT_NE(r.exitCode, 0) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(mention), std::string::npos) << args << "\n" << r.output;
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

}  // namespace
