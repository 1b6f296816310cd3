// Twins in gcnprobe's own program (harness/cases/twin.h, docs/program.md): `isa` reports a
// route-miss case's twins, checked like any case, beside the driver's verdict; `run --twins`
// adds them on a GCN device and says on other devices that it added none.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli.h"
#include "tests/support/radv.h"

namespace twin_cli_test {

using gcnprobe::test_support::runGcnprobe;

nlohmann::json isaJson(const std::string& filter) {
  const std::string path = ::testing::TempDir() + "/twin-isa.json";
  const auto r = runGcnprobe("isa --family tonga --filter '" + filter + "' --json " + path,
                             gcnprobe::test_support::Stderr::Discard);
  std::ifstream in(path);
  if (!in) return nlohmann::json();
  return nlohmann::json::parse(in);
}

// ACO re-extends a loaded byte before using it (docs/hardware-record.md R3): the storage
// route's buffer_load_ubyte case is a route-miss on every GCN chip, and its twin holds the
// instruction alone between In and Out.
TEST(TwinCli, IsaProvesTheTwinOfARouteMissCase) {
  if (const auto why = gcnprobe::test_support::radvMissing()) GTEST_SKIP() << *why;
  const nlohmann::json doc = isaJson("storage.load_ubyte.offset0");
  ASSERT_TRUE(doc.contains("chips")) << doc.dump();
  const nlohmann::json& c = doc["chips"][0]["cases"][0];
  EXPECT_EQ(c["outcome"], "route-miss") << c.dump();
  ASSERT_TRUE(c.contains("twin")) << c.dump();
  const nlohmann::json& t = c["twin"];
  EXPECT_EQ(t["outcome"], "verified") << t.dump();
  ASSERT_EQ(t["cases"].size(), 1u);
  EXPECT_EQ(t["cases"][0]["case"], "storage.load_ubyte.offset0@program");
  bool instruction = false;
  for (const auto& link : t["cases"][0]["proof"])
    instruction =
        instruction || link.get<std::string>().find("instruction: proven: buffer_load_ubyte") == 0;
  EXPECT_TRUE(instruction) << t.dump();
  EXPECT_NE(doc["chips"][0]["summary"].get<std::string>().find(
                "1 of the route-misses proven by their twin in gcnprobe's own program"),
            std::string::npos)
      << doc["chips"][0]["summary"];
}

// A three-channel view is read by three one-channel loads: one twin per load, each the load's
// instruction with its own OFFSET. Their V# is the texel view's, not an SSBO's, so they reach
// the program through a descriptor buffer: unsupported where RADV has none (Mesa 22.3).
TEST(TwinCli, AComposedViewHasOneTwinPerLoad) {
  if (const auto why = gcnprobe::test_support::radvMissing()) GTEST_SKIP() << *why;
  const nlohmann::json doc = isaJson("texel.uniform.r8g8b8_unorm.view_xyz");
  ASSERT_TRUE(doc.contains("chips")) << doc.dump();
  const nlohmann::json& c = doc["chips"][0]["cases"][0];
  ASSERT_TRUE(c.contains("twin")) << c.dump();
  const nlohmann::json& t = c["twin"];
  ASSERT_EQ(t["cases"].size(), 3u) << t.dump();
  for (int k = 0; k < 3; ++k) {
    const nlohmann::json& one = t["cases"][k];
    EXPECT_EQ(one["case"], "texel.uniform.r8g8b8_unorm.view_xyz@program." + std::to_string(k));
    const std::string outcome = one["outcome"];
    if (outcome == "unsupported") {
      EXPECT_NE(one["reason"].get<std::string>().find("VK_EXT_descriptor_buffer"),
                std::string::npos)
          << one.dump();
      continue;
    }
    EXPECT_EQ(outcome, "verified") << one.dump();
  }
}

// A dumped own-program case is a saved listing `isa --prove` proves, SOFFSET value included: the
// header's `soffset =` must be what the program's SGPR holds.
TEST(TwinCli, ADumpedOwnProgramCaseIsProvenWithItsSoffset) {
  if (const auto why = gcnprobe::test_support::radvMissing()) GTEST_SKIP() << *why;
  const auto d = runGcnprobe(
      "isa --family tonga --suite disputed --filter '*soffset-overflow' "
      "--dump-asm",
      gcnprobe::test_support::Stderr::Discard);
  const std::size_t from = d.out.find("chip = ");
  const std::size_t to = d.out.find("\ntonga: 1 cases");
  if (from == std::string::npos || d.out.find("route = program") == std::string::npos)
    GTEST_SKIP() << "no own-program listing (its raw V# needs VK_EXT_descriptor_buffer)";
  ASSERT_NE(to, std::string::npos) << d.out;
  std::string saved = d.out.substr(from, to + 1 - from);
  ASSERT_NE(saved.find("soffset = 0x00000100\n"), std::string::npos) << saved;
  const std::string file = ::testing::TempDir() + "/own-program.lst";
  std::ofstream(file) << saved;
  auto p = runGcnprobe("isa --prove " + file);
  EXPECT_EQ(p.exit, 0) << p.out;
  EXPECT_NE(p.out.find("SOFFSET s2 = 0x00000100"), std::string::npos) << p.out;
  saved.replace(saved.find("soffset = 0x00000100"), 20, "soffset = 0x104");
  std::ofstream(file) << saved;
  p = runGcnprobe("isa --prove " + file);
  EXPECT_EQ(p.exit, 1) << p.out;
  EXPECT_NE(p.out.find("not the case's SOFFSET value 0x00000104"), std::string::npos) << p.out;
}

// On a device that is no GCN GPU (lavapipe) `--twins` adds nothing and says so.
TEST(TwinCli, RunAddsTwinsOnlyOnAGcnDevice) {
  const auto r = runGcnprobe("run --twins --filter storage.load_ubyte.offset0 --json -",
                             gcnprobe::test_support::Stderr::Discard);
  const auto merged = runGcnprobe("run --twins --filter storage.load_ubyte.offset0");
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  const auto& cases = doc.contains("cases") ? doc["cases"] : doc["results"];
  if (merged.out.find("is not a GCN device") == std::string::npos) GTEST_SKIP() << "a GCN device";
  EXPECT_EQ(cases.size(), 1u) << r.out;
  EXPECT_NE(merged.out.find("--twins: "), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find("no twins were added"), std::string::npos) << merged.out;
}

}  // namespace twin_cli_test
