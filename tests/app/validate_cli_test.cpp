// The validation gate: the whole default suite under the Khronos validation layer (core and
// synchronization validation) raises no message, and the layer is proven loaded: a
// deliberate invalid call (a documented test hook) is reported, attached to a case, and
// fails the run.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli.h"

namespace validate_cli_test {

using gcnprobe::test_support::runGcnprobe;
using gcnprobe::test_support::Stderr;

nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TEST(ValidateCli, FullSuiteRaisesNoValidationMessage) {
  const std::string json = ::testing::TempDir() + "gcnprobe_validate_full.json";
  const auto r = runGcnprobe("run --validate --json " + json, Stderr::Discard);
  EXPECT_EQ(r.exit, 0) << r.out.substr(r.out.size() > 3000 ? r.out.size() - 3000 : 0);
  const auto doc = readJson(json);
  ASSERT_TRUE(doc.contains("validation")) << doc["summary"];
  EXPECT_EQ(doc["validation"]["layer"], "VK_LAYER_KHRONOS_validation");
  EXPECT_EQ(doc["validation"]["messages"], 0);
  EXPECT_NE(doc["summary"].get<std::string>().find(", 0 validation messages"), std::string::npos);
  EXPECT_GT(doc["cases"].size(), 800u);
}

TEST(ValidateCli, TheLayerIsLoadedAndItsMessagesFailTheRun) {
  const std::string json = ::testing::TempDir() + "gcnprobe_validate_hook.json";
  const std::string cmd =
      "XDG_RUNTIME_DIR=/tmp GCNPROBE_TEST_INVALID_CALL=1 " + std::string(GCNPROBE_BINARY) +
      " run --validate --filter 'storage.load_dword.*' --json " + json + " >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  const auto doc = readJson(json);
  EXPECT_GE(doc["validation"]["messages"].get<int>(), 1);
  // The invalid VkFormat value is caught by the layer's parameter validation.
  bool attached = false;
  for (const auto& c : doc["cases"])
    for (const auto& n : c["notes"])
      attached = attached || n.get<std::string>().find(
                                 "VUID-vkGetPhysicalDeviceFormatProperties-format-parameter") !=
                                 std::string::npos;
  EXPECT_TRUE(attached) << doc.dump().substr(0, 2000);
  // Without --validate the hook does nothing and no layer runs.
  const auto plain = runGcnprobe("run --filter 'storage.load_dword.*'", Stderr::Discard);
  EXPECT_EQ(plain.exit, 0) << plain.out;
  EXPECT_EQ(plain.out.find("validation"), std::string::npos) << plain.out;
}

}  // namespace validate_cli_test
