// Reproductions (harness/repro): the shader is the one gcnprobe runs (its GLSL compiles with
// glslangValidator to the embedded SPIR-V word for word, and passes spirv-val), the buffers are
// bound as the route binds them (guard bands, the descriptor's window, the lane inputs), and the
// expected values are the memory image's own bytes for in-range loads (read here from the
// image, not from the reference). Cases no Amber script can express say why.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness/cases/suite.h"
#include "harness/judge/profile.h"
#include "harness/repro/amber.h"
#include "harness/repro/reproduction.h"
#include "shaders/embedded.h"
#include "tests/support/cli.h"

namespace reproduction_test {

namespace fs = std::filesystem;
using namespace gcnprobe;

std::vector<run::Case> suite(const std::string& name, const run::Profile& p) {
  return run::buildCases(name, "", p.chip);
}

const run::Case& named(const std::vector<run::Case>& cases, const std::string& name) {
  for (const run::Case& c : cases)
    if (c.name == name) return c;
  throw std::runtime_error("no case " + name);
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every variant an exported case uses: its GLSL compiles to the embedded SPIR-V, which
// spirv-val (the Khronos tool, not the library the export uses) accepts for Vulkan 1.1.
TEST(Reproduction, ShaderIsTheEmbeddedOneAndValid) {
  const run::Profile p = run::resolveProfile("portable", std::nullopt);
  std::set<std::string> variants;
  for (const char* s : {"storage", "atomic"})
    for (const run::Case& c : suite(s, p)) {
      const repro::Reproduction r = repro::reproduce(c, p);
      if (r.notExpressed.empty()) variants.insert(r.variant);
    }
  ASSERT_GE(variants.size(), 20u);
  const fs::path dir = fs::path(::testing::TempDir()) / "repro_glsl";
  fs::create_directories(dir);
  for (const std::string& v : variants) {
    const fs::path glsl = dir / (v + ".comp");
    const fs::path spv = dir / (v + ".spv");
    std::ofstream(glsl) << shaders::glslOf(v);
    const auto compiled = test_support::runCommand("glslangValidator -V --target-env vulkan1.1 " +
                                                   glsl.string() + " -o " + spv.string());
    ASSERT_EQ(compiled.exit, 0) << v << "\n" << compiled.out;
    const std::string words = readFile(spv);
    const std::span<const uint32_t> embedded = shaders::get(v);
    ASSERT_EQ(words.size(), embedded.size() * 4) << v;
    EXPECT_EQ(std::memcmp(words.data(), embedded.data(), words.size()), 0) << v;
    const auto val = test_support::runCommand("spirv-val --target-env vulkan1.1 " + spv.string());
    EXPECT_EQ(val.exit, 0) << v << "\n" << val.out;
    EXPECT_EQ(repro::spirvValidationProblem(embedded), "") << v;
  }
  // The validator does refuse a broken module.
  std::vector<uint32_t> broken(shaders::get(*variants.begin()).begin(),
                               shaders::get(*variants.begin()).end());
  broken.resize(broken.size() / 2);
  EXPECT_NE(repro::spirvValidationProblem(broken), "");
}

// A storage load under GFX9: the data buffer is the memory image between 1280-byte guard bands
// of 0xa5, bound at offset 1280 with the V#'s NUM_RECORDS as the range; lane_in holds each
// lane's VADDR and enable; each in-range lane must return the image's dword at VADDR + OFFSET,
// an out-of-range one 0 (GCN returns 0 for a load past NUM_RECORDS: AMD GCN3 ISA, "Buffer
// instructions", range checking).
TEST(Reproduction, StorageLoadBuffersAndExpectedWords) {
  const run::Profile p = run::resolveProfile("gfx9", std::nullopt);
  const std::vector<run::Case> cases = suite("storage", p);
  const run::Case& c = named(cases, "storage.load_dword.offset20");
  const repro::Reproduction r = repro::reproduce(c, p);
  ASSERT_EQ(r.notExpressed, "");
  EXPECT_EQ(r.route, "storage");
  EXPECT_EQ(r.specOffset, std::optional<uint32_t>(20));
  ASSERT_EQ(r.buffers.size(), 3u);
  const repro::ReproBuffer& data = r.buffers[0];
  const std::vector<uint8_t>& image = c.device.memory.bytes;
  ASSERT_EQ(data.bytes.size(), 1280 + image.size() + 1280);
  EXPECT_EQ(data.offset, 1280u);
  const uint32_t numRecords = c.device.state.sgpr[c.device.inst.srsrc + 2];
  EXPECT_EQ(data.range, numRecords);
  for (std::size_t k = 0; k < 1280; ++k) {
    ASSERT_EQ(data.bytes[k], 0xa5);
    ASSERT_EQ(data.bytes[data.bytes.size() - 1 - k], 0xa5);
    ASSERT_EQ(data.expected[k], std::optional<uint8_t>(0xa5));
  }
  EXPECT_EQ(std::memcmp(data.bytes.data() + 1280, image.data(), image.size()), 0);

  const repro::ReproBuffer& in = r.buffers[1];
  const repro::ReproBuffer& out = r.buffers[2];
  const auto word = [](const std::vector<uint8_t>& b, std::size_t i) {
    uint32_t w;
    std::memcpy(&w, b.data() + 4 * i, 4);
    return w;
  };
  unsigned inRange = 0, outOfRange = 0;
  for (unsigned l = 0; l < 64; ++l) {
    const uint32_t vaddr = c.device.state.vgpr(c.device.inst.vaddr)[l];
    const bool enabled = (c.device.state.exec >> l) & 1u;
    EXPECT_EQ(word(in.bytes, l), vaddr) << l;
    EXPECT_EQ(word(in.bytes, 64 + l), enabled ? 1u : 0u) << l;
    EXPECT_EQ(word(out.bytes, 4 * l), 0xdeadbeefu) << l;
    if (!enabled) continue;
    const uint64_t at = uint64_t{vaddr} + 20;
    uint32_t want = 0;
    if (at + 4 <= numRecords) {
      ASSERT_LE(at + 4, image.size());
      std::memcpy(&want, image.data() + at, 4);
      ++inRange;
    } else {
      ++outOfRange;
    }
    uint32_t got = 0;
    for (unsigned b = 0; b < 4; ++b) {
      ASSERT_TRUE(out.expected[16 * l + b].has_value()) << "lane " << l;
      got |= uint32_t{*out.expected[16 * l + b]} << (8 * b);
    }
    EXPECT_EQ(got, want) << "lane " << l;
  }
  EXPECT_GT(inRange, 0u);
  EXPECT_GT(outOfRange, 0u);  // the suite's cases reach past NUM_RECORDS
  EXPECT_EQ(r.checkedLanes, r.activeLanes);
  EXPECT_TRUE(r.unchecked.empty());

  // The script: the shader, the three bindings, the dispatch, and an EXPECT for lane 0's word.
  const std::string script = repro::amberScript(r, "test");
  EXPECT_EQ(script.rfind("#!amber\n", 0), 0u);
  EXPECT_NE(script.find("SHADER compute gcnprobe_case SPIRV-ASM\n"), std::string::npos);
  EXPECT_NE(script.find("OpEntryPoint GLCompute"), std::string::npos);
  EXPECT_NE(script.find("BIND BUFFER data AS storage DESCRIPTOR_SET 0 BINDING 0 "
                        "DESCRIPTOR_OFFSET 1280 DESCRIPTOR_RANGE " +
                        std::to_string(numRecords)),
            std::string::npos);
  EXPECT_NE(script.find("SPECIALIZE 0 AS uint32 20"), std::string::npos);
  EXPECT_NE(script.find("RUN gcnprobe_pipeline 1 1 1"), std::string::npos);
  EXPECT_NE(script.find("EXPECT lane_out IDX 0 EQ "), std::string::npos);
}

// Under the portable profile an out-of-range lane may return what the Vulkan robustness rules
// allow: several outcomes, which the script leaves unchecked and says so.
TEST(Reproduction, PortableLeavesSeveralOutcomesUncheckedAndSaysSo) {
  const run::Profile p = run::resolveProfile("portable", std::nullopt);
  const repro::Reproduction r =
      repro::reproduce(named(suite("storage", p), "storage.load_dword.offset20"), p);
  ASSERT_EQ(r.notExpressed, "");
  EXPECT_LT(r.checkedLanes, r.activeLanes);
  ASSERT_FALSE(r.unchecked.empty());
  EXPECT_NE(r.unchecked.front().find("acceptable outcomes"), std::string::npos);
  const std::string script = repro::amberScript(r, "test");
  EXPECT_NE(script.find("# not checked (gcnprobe accepts more than one outcome): lane "),
            std::string::npos);
}

// What no Amber script expresses says why, and amberScript refuses it.
TEST(Reproduction, InexpressibleCasesSayWhy) {
  const run::Profile p = run::resolveProfile("portable", std::nullopt);
  const std::vector<run::Case> texel = suite("texel", p);
  const repro::Reproduction t = repro::reproduce(texel.front(), p);
  EXPECT_NE(t.notExpressed, "");
  EXPECT_THROW((void)repro::amberScript(t, "test"), std::exception);
  unsigned wide = 0;
  for (const run::Case& c : suite("atomic", p)) {
    const repro::Reproduction r = repro::reproduce(c, p);
    if (c.device.inst.op->wide) {
      ++wide;
      EXPECT_NE(r.notExpressed.find("shaderBufferInt64Atomics"), std::string::npos) << c.name;
    }
  }
  EXPECT_GT(wide, 0u);
}

}  // namespace reproduction_test
