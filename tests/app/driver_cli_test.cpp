// The driver choice (--driver / GCNPROBE_DRIVER, --radv-null; docs/drivers.md): a bad folder
// is a clear error, and the chosen driver is really the one every device comes from, for
// lavapipe and for RADV's null device alike (ctest runs this once per driver).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "harness/vulkan/driver.h"
#include "reference/error.h"
#include "tests/support/cli.h"
#include "tests/support/radv.h"

namespace driver_cli_test {

namespace fs = std::filesystem;
using gcnprobe::test_support::runGcnprobe;
using gcnprobe::test_support::Stderr;

fs::path tempDir(const std::string& name) {
  const fs::path p = fs::path(::testing::TempDir()) / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

TEST(DriverCli, BadDriverFoldersAreErrorsNamingTheFolderAndTheReason) {
  auto r = runGcnprobe("--driver /nonexistent/mesa devices");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("driver /nonexistent/mesa: is neither a folder nor an ICD manifest"),
            std::string::npos)
      << r.out;

  const fs::path empty = tempDir("gcnprobe_driver_empty");
  r = runGcnprobe("--driver " + empty.string() + " run --filter 'storage.*'");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("has no ICD manifests"), std::string::npos) << r.out;

  // A manifest whose library is not an existing absolute path: named with the reason.
  const fs::path broken = tempDir("gcnprobe_driver_broken");
  fs::create_directories(broken / "icd.d");
  std::ofstream(broken / "icd.d/lvp_icd.json")
      << R"({"file_format_version": "1.0.0", "ICD": {"library_path": "libvulkan_lvp.so"}})";
  r = runGcnprobe("--driver " + broken.string() + " devices");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("lvp_icd.json"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("names no existing library file"), std::string::npos) << r.out;

  // Not JSON at all.
  std::ofstream(broken / "icd.d/lvp_icd.json") << "{ nope";
  r = runGcnprobe("--driver " + broken.string() + " devices");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("not an ICD manifest"), std::string::npos) << r.out;

  // isa validates the choice before starting any child.
  r = runGcnprobe("--driver /nonexistent/mesa isa --family tonga");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("is neither a folder nor an ICD manifest"), std::string::npos) << r.out;

  r = runGcnprobe("--radv-null gfx42 devices");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("gfx42"), std::string::npos) << r.out;
}

// Under GCNPROBE_DRIVER=<folder> every device must come from that folder's Mesa (its VERSION
// file, written by scripts/mesa25.sh from the package), never silently from the system's;
// with the system driver, from the system's Mesa (not the folder's version).
TEST(DriverCli, EveryDeviceComesFromTheChosenDriver) {
  const gcnprobe::vk::Driver& d = gcnprobe::vk::activeDriver();
  std::string want;  // "Mesa 25.0.7" for a folder whose VERSION is "Mesa 25.0.7-2~bpo12+1"
  if (!d.system()) {
    want = d.label.substr(0, d.label.find('-'));
    ASSERT_EQ(want.rfind("Mesa ", 0), 0u) << d.label;
  }
  const auto check = [&](const std::string& args) {
    const auto r = runGcnprobe(args + " devices --json", Stderr::Discard);
    ASSERT_EQ(r.exit, 0) << args << "\n" << r.out;
    const auto devices = nlohmann::json::parse(r.out);
    ASSERT_FALSE(devices.empty());
    for (const auto& dev : devices) {
      const std::string info = dev.value("driver_info", "");
      if (!want.empty())
        EXPECT_EQ(info.rfind(want, 0), 0u) << dev.dump();
      else
        EXPECT_EQ(info.find("bpo"), std::string::npos) << "a backports driver under 'system'";
    }
  };
  check("");
  if (const auto why = gcnprobe::test_support::radvMissing()) GTEST_SKIP() << *why;
  // --radv-null: exactly one device, RADV's null device for the family, from the same driver.
  const auto r = runGcnprobe("--radv-null tonga devices --json", Stderr::Discard);
  ASSERT_EQ(r.exit, 0) << r.out;
  const auto devices = nlohmann::json::parse(r.out);
  ASSERT_EQ(devices.size(), 1u) << r.out;
  EXPECT_EQ(devices[0].value("chip", ""), "tonga");
  EXPECT_EQ(devices[0].value("driver", ""), "radv");
  check("--radv-null tonga");
  // The loader's driver filters (a user's, or ones a parent gcnprobe set) cannot hide RADV
  // from --radv-null, which names its manifest alone.
  const auto filtered = gcnprobe::test_support::runCommand(
      "XDG_RUNTIME_DIR=/tmp VK_LOADER_DRIVERS_DISABLE='radeon_icd*' "
      "VK_LOADER_DRIVERS_SELECT='lvp_icd*' " +
      std::string(GCNPROBE_BINARY) + " --radv-null tonga devices --json 2>/dev/null");
  ASSERT_EQ(filtered.exit, 0) << filtered.out;
  EXPECT_EQ(nlohmann::json::parse(filtered.out).at(0).value("chip", ""), "tonga");
}

// Mesa's drivers that need a render node, by the manifest names Mesa installs
// (src/<driver>/vulkan/meson.build: "<name>_icd.<arch>.json"); other drivers (lavapipe,
// NVIDIA's, AMDVLK) and names that only share a prefix are kept; RADV is kept when its null
// device is asked for (RADV_FORCE_FAMILY).
TEST(DriverCli, OnlyDriversThatNeedARenderNodeAreLeftOutWithoutOne) {
  const std::vector<fs::path> hardware = {
      "/usr/share/vulkan/icd.d/intel_icd.x86_64.json",
      "/usr/share/vulkan/icd.d/intel_hasvk_icd.x86_64.json",
      "/usr/share/vulkan/icd.d/radeon_icd.x86_64.json",
      "/opt/mesa/icd.d/radeon_icd.json",
      "/usr/share/vulkan/icd.d/nouveau_icd.x86_64.json",
      "/usr/share/vulkan/icd.d/freedreno_icd.aarch64.json",
      "/usr/share/vulkan/icd.d/panfrost_icd.aarch64.json",
      "/usr/share/vulkan/icd.d/broadcom_icd.aarch64.json",
      "/usr/share/vulkan/icd.d/asahi_icd.aarch64.json",
      "/usr/share/vulkan/icd.d/powervr_mesa_icd.x86_64.json",
      "/usr/share/vulkan/icd.d/virtio_icd.x86_64.json",
  };
  // Kept: lavapipe, other vendors' drivers, names that only share a prefix, not manifests.
  const std::vector<fs::path> others = {
      "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
      "/usr/share/vulkan/icd.d/nvidia_icd.json",
      "/etc/vulkan/icd.d/amd_icd64.json",
      "/usr/share/vulkan/icd.d/radeon_icd_custom.x86_64.json",
      "/usr/share/vulkan/icd.d/intel_icd.x86_64.json.bak",
  };
  // Interleaved, so that the order kept is the input's.
  std::vector<fs::path> manifests;
  for (std::size_t i = 0; i < hardware.size(); ++i) {
    manifests.push_back(hardware[i]);
    if (i < others.size()) manifests.push_back(others[i]);
  }
  EXPECT_EQ(gcnprobe::vk::renderNodeOnlyManifests(manifests, false), hardware);
  std::vector<fs::path> withoutRadv = hardware;
  std::erase_if(withoutRadv,
                [](const fs::path& m) { return m.filename().string().rfind("radeon", 0) == 0; });
  EXPECT_EQ(gcnprobe::vk::renderNodeOnlyManifests(manifests, true), withoutRadv);
}

// A loader older than 1.3.234 ignores VK_LOADER_DRIVERS_DISABLE: for the system driver,
// gcnprobe then takes its own value back (the drivers are loaded) and names none as left out;
// a newer loader, or a value the user set, is left alone.
TEST(DriverCli, AnOldLoaderLoadsEveryDriverAndNothingIsNamedLeftOut) {
  if (!gcnprobe::vk::activeDriver().system()) GTEST_SKIP() << "the system driver's mechanism";
  const auto value = [](const char* v) {
    const char* s = std::getenv(v);
    return s == nullptr ? std::string("(unset)") : std::string(s);
  };
  setenv("VK_LOADER_DRIVERS_DISABLE", "intel_icd.x86_64.json", 1);
  setenv("GCNPROBE_DRIVERS_LEFT_OUT", "intel_icd.x86_64.json", 1);
  gcnprobe::vk::noteLoaderVersion(VK_MAKE_API_VERSION(0, 1, 3, 234));
  EXPECT_EQ(value("VK_LOADER_DRIVERS_DISABLE"), "intel_icd.x86_64.json");
  gcnprobe::vk::noteLoaderVersion(VK_MAKE_API_VERSION(0, 1, 3, 204));
  EXPECT_EQ(value("VK_LOADER_DRIVERS_DISABLE"), "(unset)");
  EXPECT_EQ(value("GCNPROBE_DRIVERS_LEFT_OUT"), "(unset)");
  EXPECT_TRUE(gcnprobe::vk::skippedManifests().empty());
  // The user's own value (no note of gcnprobe's): kept.
  setenv("VK_LOADER_DRIVERS_DISABLE", "lvp_icd*", 1);
  gcnprobe::vk::noteLoaderVersion(VK_MAKE_API_VERSION(0, 1, 3, 204));
  EXPECT_EQ(value("VK_LOADER_DRIVERS_DISABLE"), "lvp_icd*");
  unsetenv("VK_LOADER_DRIVERS_DISABLE");
}

// On a machine without a render node the drivers that need one are not loaded, `devices` says
// which and how to load them, and the devices are exactly those every driver loaded gives.
TEST(DriverCli, LeavingOutDriversThatNeedARenderNodeLosesNoDevice) {
  if (gcnprobe::vk::hasRenderNode()) GTEST_SKIP() << "this machine has a render node";
  for (const char* v : {"VK_LOADER_DRIVERS_SELECT", "VK_LOADER_DRIVERS_DISABLE", "VK_DRIVER_FILES",
                        "VK_ICD_FILENAMES", "VK_ADD_DRIVER_FILES"})
    if (std::getenv(v) != nullptr) GTEST_SKIP() << v << " is set: the drivers are the user's";
  const auto text = runGcnprobe("devices", Stderr::Discard);
  ASSERT_EQ(text.exit, 0) << text.out;
  const auto all = gcnprobe::test_support::runCommand(
      "XDG_RUNTIME_DIR=/tmp VK_LOADER_DRIVERS_DISABLE= " + std::string(GCNPROBE_BINARY) +
      " devices 2>/dev/null");
  ASSERT_EQ(all.exit, 0) << all.out;
  EXPECT_EQ(all.out.find("not loaded"), std::string::npos) << all.out;
  // The device lines are the same; only the note differs.
  const std::size_t note = text.out.find("not loaded: ");
  if (note != std::string::npos) {
    EXPECT_NE(text.out.find("set VK_LOADER_DRIVERS_DISABLE, even empty, to load them", note),
              std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.substr(0, note), all.out);
  } else {
    EXPECT_EQ(text.out, all.out);
  }
  // A child process that inherits the variable as gcnprobe set it decides again, as its
  // parent did: the same output.
  const std::size_t left = text.out.find("not loaded: ");
  if (left != std::string::npos && gcnprobe::vk::activeDriver().system()) {
    std::string names;
    const std::string list = text.out.substr(left + 12, text.out.find(" (", left) - left - 12);
    for (char ch : list)
      if (ch != ' ') names += ch;
    const auto child = gcnprobe::test_support::runCommand(
        "XDG_RUNTIME_DIR=/tmp VK_LOADER_DRIVERS_DISABLE=" + names + " GCNPROBE_DRIVERS_LEFT_OUT=" +
        names + " " + std::string(GCNPROBE_BINARY) + " devices 2>/dev/null");
    EXPECT_EQ(child.out, text.out);
  }
  const gcnprobe::vk::Driver& d = gcnprobe::vk::activeDriver();
  // Each driver under test ships RADV, which needs a render node, so some are left out.
  if (d.system() && !gcnprobe::test_support::radvMissing()) {
    EXPECT_NE(note, std::string::npos) << text.out;
  } else if (!d.system()) {
    ASSERT_NE(note, std::string::npos) << text.out;
    EXPECT_NE(text.out.find("radeon_icd", note), std::string::npos) << text.out;
  }
}

}  // namespace driver_cli_test

namespace driver_cli_test {

// No driver at all is infrastructure (exit 3), not bad input (2): a CI runner whose image
// lost its Vulkan driver must not look like a typo in the job. A manifest list that names
// no file leaves the loader with no device.
TEST(DriverCli, NoVulkanDeviceExitsThree) {
  const auto r = gcnprobe::test_support::runCommand(
      "XDG_RUNTIME_DIR=/tmp GCNPROBE_DRIVER=system VK_DRIVER_FILES=/nonexistent/icd.json "
      "VK_ICD_FILENAMES=/nonexistent/icd.json " +
      std::string(GCNPROBE_BINARY) + " run --suite storage 2>&1");
  EXPECT_EQ(r.exit, 3) << r.out;
  EXPECT_NE(r.out.find("no Vulkan device"), std::string::npos) << r.out;
}

}  // namespace driver_cli_test

namespace driver_cli_test {

// A Mesa build of one's own, as a driver developer has it (docs/drivers.md "Test your own Mesa
// build"): meson leaves src/amd/vulkan/radeon_devenv_icd.<arch>.json naming the built
// libvulkan_radeon.so. Laid out here with the unpacked Mesa 25 library (scripts/mesa25.sh) and
// its libdrm on LD_LIBRARY_PATH, as a user of a build against a newer libdrm would run it. The
// folder, the manifest itself and VK_ICD_FILENAMES naming it all reach that RADV, which RADV is
// decided by the library the manifest names, not its file name; VK_ICD_FILENAMES naming no
// RADV is refused under the null device instead of being replaced.
TEST(DriverCli, AMesaBuildFolderItsManifestOrVkIcdFilenamesReachThatRadv) {
  const fs::path mesa25 = fs::path(GCNPROBE_SOURCE_DIR) / "build/drivers/mesa25";
  std::ifstream libdirFile(mesa25 / "LIBDIR");
  std::string libdir;
  if (!std::getline(libdirFile, libdir) || !fs::exists(libdir + "/libvulkan_radeon.so"))
    GTEST_SKIP() << "no unpacked Mesa 25 (scripts/mesa25.sh) under " << mesa25;
  const fs::path build = tempDir("gcnprobe_mesa_build");
  const fs::path vulkan = build / "src/amd/vulkan";
  fs::create_directories(vulkan);
  const fs::path manifest = vulkan / "radeon_devenv_icd.x86_64.json";
  std::ofstream(manifest) << R"({"file_format_version": "1.0.0", "ICD": {"library_path": ")"
                          << libdir << R"(/libvulkan_radeon.so", "api_version": "1.4.305"}})";
  const std::string env = "XDG_RUNTIME_DIR=/tmp GCNPROBE_DRIVER= LD_LIBRARY_PATH=" + libdir + " ";
  const auto isaHeader = [&](const std::string& prefix, const std::string& driver) {
    return gcnprobe::test_support::runCommand(
        env + prefix + std::string(GCNPROBE_BINARY) + driver +
        " isa --family tonga --filter 'texel.uniform.r8_unorm.load_format_x' 2>&1");
  };
  for (const std::string& driver :
       {" --driver " + vulkan.string(), " --driver " + manifest.string()}) {
    const auto r = isaHeader("", driver);
    EXPECT_EQ(r.exit, 0) << driver << "\n" << r.out;
    EXPECT_NE(r.out.find("driver radv Mesa 25."), std::string::npos) << driver << "\n" << r.out;
  }
  auto r = isaHeader("VK_ICD_FILENAMES=" + manifest.string() + " ", "");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("driver radv Mesa 25."), std::string::npos) << r.out;
  const fs::path lvp = build / "lvp_icd.json";
  std::ofstream(lvp) << R"({"file_format_version": "1.0.0", "ICD": {"library_path": ")" << libdir
                     << R"(/libvulkan_lvp.so", "api_version": "1.4.305"}})";
  r = isaHeader("VK_ICD_FILENAMES=" + lvp.string() + " ", "");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("VK_ICD_FILENAMES: names no RADV manifest"), std::string::npos) << r.out;
}

}  // namespace driver_cli_test
