// Reproductions (harness/repro): the shader is the one gcnprobe runs (its GLSL compiles with
// glslangValidator to the embedded SPIR-V word for word, and passes spirv-val), the buffers are
// bound as the route binds them (guard bands, the descriptor's window, the lane inputs), and the
// expected values are the memory image's own bytes for in-range loads (read here from the
// image, not from the reference). Cases no Amber script can express say why.
#include <gtest/gtest.h>

#include <algorithm>
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

std::vector<judge::Case> suite(const std::string& name, const judge::Profile& p) {
  return cases::buildCases(name, "", p.chip);
}

const judge::Case& named(const std::vector<judge::Case>& cases, const std::string& name) {
  for (const judge::Case& c : cases)
    if (c.name == name) return c;
  throw std::runtime_error("no case " + name);
}

// One case of a suite under a profile, and its reproduction: most tests' first lines.
struct Named {
  judge::Profile profile;
  std::vector<judge::Case> cases;  // the suite
  std::size_t index = 0;           // the case's place in it
  repro::Reproduction r;
  const judge::Case& c() const { return cases.at(index); }
};
Named reproduceNamed(const std::string& profile, const std::string& suiteName,
                     const std::string& caseName) {
  Named n{judge::resolveProfile(profile, std::nullopt), {}, 0, {}};
  n.cases = suite(suiteName, n.profile);
  n.index = static_cast<std::size_t>(&named(n.cases, caseName) - n.cases.data());
  n.r = repro::reproduce(n.c(), n.profile);
  return n;
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
  const judge::Profile p = judge::resolveProfile("portable", std::nullopt);
  std::set<std::string> variants;
  for (const char* s : {"storage", "atomic", "texel", "vertex"})
    for (const judge::Case& c : suite(s, p)) {
      const repro::Reproduction r = repro::reproduce(c, p);
      if (r.notExpressed.empty()) variants.insert(r.variant);
    }
  ASSERT_GE(variants.size(), 40u);
  // The formatted storage-load variants differ only in their format qualifier: four of them
  // stand for the rest (each variant takes glslangValidator about 0.1 s).
  unsigned formatted = 0;
  for (auto it = variants.begin(); it != variants.end();)
    it = it->find("formatted") != std::string::npos && ++formatted > 4 ? variants.erase(it)
                                                                       : std::next(it);
  const fs::path dir = fs::path(::testing::TempDir()) / "repro_glsl";
  fs::create_directories(dir);
  for (const std::string& v : variants) {
    std::string source;
    for (const shaders::Variant& var : shaders::all())
      if (var.name == v) source = std::string(var.source);
    const fs::path glsl = dir / (v + fs::path(source).extension().string());
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
  const Named n = reproduceNamed("gfx9", "storage", "storage.load_dword.offset20");
  const judge::Case& c = n.c();
  const repro::Reproduction& r = n.r;
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
  EXPECT_NE(script.find("SHADER compute gcnprobe_case SPIRV-ASM TARGET_ENV vulkan1.1\n"),
            std::string::npos);
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
  const repro::Reproduction r =
      reproduceNamed("portable", "storage", "storage.load_dword.offset20").r;
  ASSERT_EQ(r.notExpressed, "");
  EXPECT_LT(r.checkedLanes, r.activeLanes);
  ASSERT_FALSE(r.unchecked.empty());
  EXPECT_NE(r.unchecked.front().find("acceptable outcomes"), std::string::npos);
  const std::string script = repro::amberScript(r, "test");
  EXPECT_NE(script.find("# not checked: lane "), std::string::npos);
}

// What no Amber script expresses says why, and amberScript refuses it.
TEST(Reproduction, InexpressibleCasesSayWhy) {
  const judge::Profile p = judge::resolveProfile("portable", std::nullopt);
  // A raw V# (VK_EXT_descriptor_buffer), the binary route and the own program (GCN machine
  // code): no SPIR-V expresses them.
  unsigned machine = 0;
  for (const judge::Case& c : suite("disputed", p)) {
    if (!c.device.rawVsharp && !c.device.binaryPatch && !c.device.ownProgram) continue;
    ++machine;
    const repro::Reproduction t = repro::reproduce(c, p);
    const bool why = t.notExpressed.find("VK_EXT_descriptor_buffer") != std::string::npos ||
                     t.notExpressed.find("no SPIR-V expresses it") != std::string::npos;
    EXPECT_TRUE(why) << c.name << ": " << t.notExpressed;
    EXPECT_THROW((void)repro::amberScript(t, "test"), std::exception);
  }
  EXPECT_GT(machine, 10u);
  // A 3-component format: Amber pads its buffer data (measured), so the view would read other
  // bytes.
  const repro::Reproduction three =
      repro::reproduce(named(suite("texel", p), "texel.uniform.r8g8b8_unorm.view_xyz"), p);
  EXPECT_NE(three.notExpressed.find("3 components"), std::string::npos) << three.notExpressed;
  unsigned wide = 0;
  for (const judge::Case& c : suite("atomic", p)) {
    const repro::Reproduction r = repro::reproduce(c, p);
    if (c.device.inst.op->wide) {
      ++wide;
      EXPECT_NE(r.notExpressed.find("shaderBufferInt64Atomics"), std::string::npos) << c.name;
    }
  }
  EXPECT_GT(wide, 0u);
}

// A texel view: Amber makes the view in its buffer's format over the whole buffer, so the data
// is the memory image alone (no guard bands, said as unchecked), declared with the view's
// format, each component the integer it holds: signed for SNORM (a byte 0x80 is -128), one
// 32-bit integer per element for a _PACK32 format.
TEST(Reproduction, TexelViewDataIsTheImageInTheViewsFormat) {
  const judge::Profile p = judge::resolveProfile("gfx9", std::nullopt);
  const std::vector<judge::Case> texel = suite("texel", p);
  const judge::Case& snorm = named(texel, "texel.uniform.r8g8b8a8_snorm.load_format_xyzw");
  const repro::Reproduction r = repro::reproduce(snorm, p);
  ASSERT_EQ(r.notExpressed, "");
  const repro::ReproBuffer& data = r.buffers[0];
  EXPECT_EQ(data.bindAs, "uniform_texel_buffer");
  EXPECT_EQ(data.bytes, snorm.device.memory.bytes);
  EXPECT_EQ(data.range, 0u);
  EXPECT_FALSE(r.specOffset.has_value());
  ASSERT_FALSE(r.unchecked.empty());
  EXPECT_NE(r.unchecked.front().find("guard bands"), std::string::npos);
  std::string want = "BUFFER data DATA_TYPE R8G8B8A8_SNORM DATA\n";
  for (std::size_t k = 0; k < 16; ++k)
    want += std::to_string(static_cast<int>(static_cast<int8_t>(snorm.device.memory.bytes[k]))) +
            (k == 15 ? "\n" : " ");
  const std::string script = repro::amberScript(r, "test");
  EXPECT_NE(script.find(want), std::string::npos) << want;
  EXPECT_NE(script.find("BIND BUFFER data AS uniform_texel_buffer DESCRIPTOR_SET 0 BINDING 0\n"),
            std::string::npos);

  const judge::Case& packed =
      named(texel, "texel.uniform.a2b10g10r10_unorm_pack32.load_format_xyzw");
  const repro::Reproduction q = repro::reproduce(packed, p);
  ASSERT_EQ(q.notExpressed, "");
  uint32_t first = 0;
  std::memcpy(&first, packed.device.memory.bytes.data(), 4);
  EXPECT_NE(
      repro::amberScript(q, "test").find("BUFFER data DATA_TYPE A2B10G10R10_UNORM_PACK32 DATA\n" +
                                         std::to_string(first) + " "),
      std::string::npos);
}

// A vertex case: a graphics pipeline whose vertex input reads the raw memory image in the
// case's format at the instruction's OFFSET and the V#'s STRIDE, one point per active lane's
// index; the shader stores the attribute's components in Vulkan's order, so for B8G8R8A8_UINT
// component x (R) of vertex i is memory byte i*stride + offset + 2 (Vulkan format B8G8R8A8:
// bytes B, G, R, A), read here from the image.
TEST(Reproduction, VertexInputIsTheImageInTheAttributesFormat) {
  const Named n =
      reproduceNamed("gfx9", "vertex", "vertex.b8g8r8a8_uint.tbuffer_load_format_xyzw.packed");
  const judge::Case& c = n.c();
  const repro::Reproduction& r = n.r;
  ASSERT_EQ(r.notExpressed, "");
  ASSERT_TRUE(r.vertexInput.has_value());
  const auto& vi = *r.vertexInput;
  EXPECT_EQ(vi.format, "B8G8R8A8_UINT");
  EXPECT_EQ(vi.vertices, c.device.memory.bytes);
  const uint32_t stride = c.device.state.sgpr[c.device.inst.srsrc + 1] >> 16;
  EXPECT_EQ(vi.stride, stride);
  EXPECT_EQ(vi.offset, c.device.inst.offset);
  const repro::ReproBuffer& out = r.buffers.at(1);
  ASSERT_EQ(out.name, "lane_out");
  unsigned checked = 0, active = 0;
  for (unsigned l = 0; l < 64; ++l) {
    if (((c.device.state.exec >> l) & 1u) == 0) continue;
    const uint32_t index = c.device.state.vgpr(c.device.inst.vaddr)[l];
    EXPECT_EQ(vi.indices.at(active++), index);
    const uint64_t at = uint64_t{index} * stride + vi.offset;
    if (at + 4 > c.device.memory.bytes.size() || !out.expected[16 * l].has_value()) continue;
    EXPECT_EQ(*out.expected[16 * l], c.device.memory.bytes[at + 2]) << "lane " << l << " R";
    EXPECT_EQ(*out.expected[16 * l + 8], c.device.memory.bytes[at]) << "lane " << l << " B";
    ++checked;
  }
  EXPECT_GT(checked, 8u);
  const std::string script = repro::amberScript(r, "test");
  EXPECT_NE(script.find("SHADER vertex gcnprobe_case SPIRV-ASM TARGET_ENV vulkan1.1\n"),
            std::string::npos);
  EXPECT_NE(script.find("SHADER fragment gcnprobe_fragment SPIRV-ASM"), std::string::npos);
  EXPECT_NE(script.find("VERTEX_DATA vertices LOCATION 0 RATE vertex FORMAT B8G8R8A8_UINT OFFSET " +
                        std::to_string(vi.offset) + " STRIDE " + std::to_string(stride)),
            std::string::npos);
  EXPECT_NE(
      script.find("RUN gcnprobe_pipeline DRAW_ARRAY AS POINT_LIST INDEXED START_IDX 0 COUNT " +
                  std::to_string(vi.indices.size())),
      std::string::npos);
  EXPECT_NE(
      std::find(r.deviceFeatures.begin(), r.deviceFeatures.end(), "vertexPipelineStoresAndAtomics"),
      r.deviceFeatures.end());
}

// An sRGB view under a GCN profile: R, G and B are held to the Vulkan CTS bound 2^-7 for 8-bit
// sRGB reads, alpha exactly; the script reads lane_out as floats and says the bound in a
// TOLERANCE per EXPECT, so a lane outside it fails under Amber as it does in gcnprobe.
TEST(Reproduction, SrgbLanesAreCheckedWithinTheirBound) {
  const repro::Reproduction r =
      reproduceNamed("gfx9", "texel", "texel.uniform.r8g8b8a8_srgb.load_format_xyzw").r;
  ASSERT_EQ(r.notExpressed, "");
  EXPECT_EQ(r.checkedLanes, r.activeLanes);
  const repro::ReproBuffer& out = r.buffers.at(2);
  ASSERT_TRUE(out.floats);
  EXPECT_EQ(out.dataType, "float");
  EXPECT_EQ(out.tolerance.at(0), 1.0 / 128);
  EXPECT_EQ(out.tolerance.at(2), 1.0 / 128);
  EXPECT_EQ(out.tolerance.at(3), 0.0);
  const std::string script = repro::amberScript(r, "test");
  EXPECT_NE(script.find("EXPECT lane_out IDX 0 TOLERANCE 0.0078125 EQ "), std::string::npos);
  EXPECT_NE(script.find("EXPECT lane_out IDX 12 EQ "), std::string::npos);
  // Floats are written so that Amber does not read them as integers.
  EXPECT_NE(script.find("BUFFER lane_out DATA_TYPE float DATA\n-6.2598534e+18 "),
            std::string::npos);  // 0xdeadbeef, the marker no lane overwrote yet
}

// Component by component: under the portable profile an sRGB view's R, G and B are checked
// within the CTS bound while alpha, compared in float ulps (norm-1ulp), is left out and said so.
TEST(Reproduction, ComponentsUnderUlpsAreLeftOutTheOthersChecked) {
  const Named n =
      reproduceNamed("portable", "texel", "texel.uniform.r8g8b8a8_srgb.load_format_xyzw");
  const repro::Reproduction& r = n.r;
  ASSERT_EQ(r.notExpressed, "");
  const repro::ReproBuffer& out = r.buffers.at(2);
  unsigned partial = 0;
  for (unsigned l = 0; l < 64; ++l) {
    const bool rgb = out.expected[16 * l].has_value() && out.expected[16 * l + 8].has_value();
    const bool alpha = out.expected[16 * l + 12].has_value();
    EXPECT_FALSE(alpha) << "lane " << l;
    if (!rgb) continue;
    ++partial;
    EXPECT_EQ(out.tolerance.at(4 * l), 1.0 / 128) << "lane " << l;
  }
  EXPECT_GT(partial, 8u);
  bool said = false;
  for (const std::string& u : r.unchecked)
    said = said || u.find("component 3 under the case's tolerance srgb") != std::string::npos;
  EXPECT_TRUE(said);
}

}  // namespace reproduction_test
