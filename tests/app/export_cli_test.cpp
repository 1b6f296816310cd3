// `gcnprobe export`: a script per case, a folder per case whose SPIR-V the Khronos tools accept
// and whose assembly is the Khronos disassembler's, the reasons of what is not exported, and
// bad input. Whether Amber runs the scripts is measured by hand (docs/export.md): Amber is not
// a Debian package.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/cli.h"

namespace export_cli_test {

namespace fs = std::filesystem;
using gcnprobe::test_support::runCommand;
using gcnprobe::test_support::runGcnprobe;

std::string dir(const std::string& name) {
  const std::string d = ::testing::TempDir() + "export_" + name;
  fs::remove_all(d);
  return d;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ExportCli, OneScriptPerCase) {
  const std::string out = dir("scripts");
  const auto r = runGcnprobe("export --filter 'storage.load_dword.*' -o " + out);
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("export: 2 of 2 cases written"), std::string::npos) << r.out;
  const std::string script = readFile(fs::path(out) / "storage.load_dword.offset0.amber");
  EXPECT_EQ(script.rfind("#!amber\n", 0), 0u);
  EXPECT_NE(script.find("# instruction the case tests: buffer_load_dword v1, v0, s[4:7], 0 offen"),
            std::string::npos);
  EXPECT_TRUE(fs::exists(fs::path(out) / "storage.load_dword.offset20.amber"));
}

// The folder: its SPIR-V passes spirv-val, its assembly is spirv-dis's text of that SPIR-V and
// reassembles (spirv-as) to a valid module, and the buffers are the sizes the README says.
TEST(ExportCli, FolderHoldsValidSpirvAndItsAssembly) {
  const std::string out = dir("folder");
  const auto r = runGcnprobe(
      "export --dir --filter 'texel.uniform.r8g8b8a8_unorm.load_format_xyzw' -o " + out);
  ASSERT_EQ(r.exit, 0) << r.out;
  const fs::path c = fs::path(out) / "texel.uniform.r8g8b8a8_unorm.load_format_xyzw";
  for (const char* f : {"case.amber", "shader.comp", "shader.spv", "shader.spvasm", "data.bin",
                        "lane_in.bin", "lane_out.bin", "expected.json", "README.md"})
    EXPECT_TRUE(fs::exists(c / f)) << f;
  const auto val = runCommand("spirv-val --target-env vulkan1.1 " + (c / "shader.spv").string());
  EXPECT_EQ(val.exit, 0) << val.out;
  const std::string again = (c / "again.spv").string();
  const auto as = runCommand("spirv-as --target-env vulkan1.1 " + (c / "shader.spvasm").string() +
                             " -o " + again);
  ASSERT_EQ(as.exit, 0) << as.out;
  // The assembly is what the Khronos disassembler prints for shader.spv, and what it assembles
  // to is valid again.
  const auto dis = runCommand("spirv-dis --no-header " + (c / "shader.spv").string());
  ASSERT_EQ(dis.exit, 0) << dis.out;
  EXPECT_NE(dis.out.find("OpImageFetch"), std::string::npos);
  EXPECT_EQ(readFile(c / "shader.spvasm"), dis.out);
  EXPECT_EQ(runCommand("spirv-val --target-env vulkan1.1 " + again).exit, 0);
  EXPECT_EQ(fs::file_size(c / "lane_in.bin"), (64u + 64u + 256u) * 4u);
  EXPECT_EQ(fs::file_size(c / "lane_out.bin"), 256u * 4u);
  EXPECT_NE(readFile(c / "README.md")
                .find("| 0 | uniform_texel_buffer (R8G8B8A8_UNORM) | `data.bin` | " +
                      std::to_string(fs::file_size(c / "data.bin"))),
            std::string::npos);
}

TEST(ExportCli, WhatIsNotExportedSaysWhy) {
  // Raw V#s reach the shader through VK_EXT_descriptor_buffer: nothing of the binary suite is
  // expressible.
  const auto r = runGcnprobe("export --suite binary -o " + dir("binary"));
  EXPECT_EQ(r.exit, 1) << r.out;  // nothing could be written
  EXPECT_NE(r.out.find("not exported"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no selected case can be exported"), std::string::npos) << r.out;
  // A 3-component texel format among others: the others are written, the reason is grouped.
  const auto t = runGcnprobe("export --filter 'texel.uniform.r8g8b8*_unorm.*' -o " + dir("three"));
  EXPECT_EQ(t.exit, 0) << t.out;
  EXPECT_NE(t.out.find("has 3 components"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("(R8G8B8_UNORM)"), std::string::npos) << t.out;
}

TEST(ExportCli, BadInputExitsTwo) {
  const auto none = runGcnprobe("export --filter 'no.such.case' -o " + dir("none"));
  EXPECT_EQ(none.exit, 2) << none.out;
  EXPECT_NE(none.out.find("no.such.case"), std::string::npos) << none.out;
  const auto profile = runGcnprobe("export --profile gfx42 -o " + dir("profile"));
  EXPECT_EQ(profile.exit, 2) << profile.out;
  EXPECT_NE(profile.out.find("gfx42"), std::string::npos) << profile.out;
  const auto missing = runGcnprobe("export --filter 'storage.*'");
  EXPECT_EQ(missing.exit, 2) << missing.out;
  // A folder that cannot be made is infrastructure: exit 3.
  const auto unwritable =
      runGcnprobe("export --filter 'storage.load_dword.*' -o /proc/no-such-dir/x");
  EXPECT_EQ(unwritable.exit, 3) << unwritable.out;
}

}  // namespace export_cli_test
