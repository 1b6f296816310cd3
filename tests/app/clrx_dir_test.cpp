// Where gcnprobe finds its clrxdisasm stand-in (app/clrx_dir.h): beside the program in the build
// tree, in libexec/gcnprobe/ when installed (GNUInstallDirs: bin/ and libexec/ under one
// prefix), and the temp dir ACO's PATH starts with links to it.
#include "app/clrx_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace clrx_dir_test {
namespace fs = std::filesystem;
using gcnprobe::app::ClrxDir;
using gcnprobe::app::findClrxHelper;

// A fresh folder of this test process's own temp dir.
fs::path freshDir(const std::string& name) {
  const fs::path p = fs::path(::testing::TempDir()) / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

void writeFile(const fs::path& p, bool executable) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "#!/bin/sh\n";
  fs::permissions(
      p, executable ? fs::perms::owner_all : fs::perms::owner_read | fs::perms::owner_write);
}

TEST(ClrxDir, HelperBesideTheProgramIsFound) {
  const fs::path tmp = freshDir("clrx-beside");
  writeFile(tmp / "bin/gcnprobe", true);
  writeFile(tmp / "bin/gcnprobe-clrxdisasm", true);
  writeFile(tmp / "libexec/gcnprobe/gcnprobe-clrxdisasm", true);
  const auto found = findClrxHelper(tmp / "bin/gcnprobe");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(*found, tmp / "bin/gcnprobe-clrxdisasm");
}

TEST(ClrxDir, InstalledHelperIsFoundInLibexec) {
  const fs::path tmp = freshDir("clrx-libexec");
  writeFile(tmp / "bin/gcnprobe", true);
  // Where GNUInstallDirs puts bin/ and libexec/ under one prefix (the build's own layout).
  const fs::path installed = tmp / "bin" / GCNPROBE_CLRX_INSTALL_RELATIVE;
  writeFile(installed, true);
  const auto found = findClrxHelper(tmp / "bin/gcnprobe");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(*found, installed.lexically_normal());
}

TEST(ClrxDir, AHelperThatCannotRunIsNotFound) {
  const fs::path tmp = freshDir("clrx-noexec");
  writeFile(tmp / "bin/gcnprobe", true);
  writeFile(tmp / "bin/gcnprobe-clrxdisasm", false);
  fs::create_directories(tmp / "libexec/gcnprobe/gcnprobe-clrxdisasm");  // a folder
  EXPECT_FALSE(findClrxHelper(tmp / "bin/gcnprobe").has_value());
}

TEST(ClrxDir, TheBuiltProgramsStandInIsTheSmallProgram) {
  const fs::path program = GCNPROBE_BINARY;
  const ClrxDir dir(program);
  EXPECT_TRUE(dir.usesHelper());
  const fs::path link = dir.path() / "clrxdisasm";
  ASSERT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(fs::read_symlink(link), fs::canonical(program).parent_path() / "gcnprobe-clrxdisasm");
  const std::string path = dir.prependTo("/usr/bin");
  EXPECT_EQ(path, dir.path().string() + ":/usr/bin");
}

TEST(ClrxDir, WithoutTheSmallProgramTheStandInRunsGcnprobe) {
  const fs::path tmp = freshDir("clrx-fallback");
  writeFile(tmp / "bin/gcnprobe", true);
  const ClrxDir dir(tmp / "bin/gcnprobe");
  EXPECT_FALSE(dir.usesHelper());
  std::ifstream in(dir.path() / "clrxdisasm");
  const std::string script((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(script.find(fs::canonical(tmp / "bin/gcnprobe").string() + "' _clrxdisasm"),
            std::string::npos)
      << script;
}

}  // namespace clrx_dir_test
