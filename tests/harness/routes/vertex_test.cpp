// The vertex-fetch route and suite: RADV's vertex V# against hand-derived values, ACO's
// instruction choice against docs/platform.md's observations, and the whole suite on lavapipe
// (portable profile) with at least one passing case per format class.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "harness/cases/suite.h"
#include "harness/formats.h"
#include "harness/judge/diff.h"
#include "harness/judge/expect.h"
#include "harness/routes/vertex.h"
#include "harness/run/runner.h"
#include "harness/vulkan/context.h"
#include "reference/error.h"
#include "reference/resource.h"
#include "tests/harness/support.h"

namespace vertex_test {

using namespace gcnprobe;

const gcn::Chip& portableChip() {
  return gcn::representativeChip(judge::kPortableGen);
}

std::vector<results::CaseResult> runVertex(vk::Context& ctx,
                                           const std::vector<judge::Case>& cases) {
  std::vector<std::unique_ptr<routes::Route>> list;
  list.push_back(routes::makeVertexRoute(ctx));
  const run::RunOptions ro = test_support::portableOptions(ctx);
  std::vector<results::CaseResult> out;
  run::runCases(cases, list, ro, [&](const results::CaseResult& r) { out.push_back(r); });
  return out;
}

// NUM_RECORDS of RADV's per-attribute descriptor (radv_write_vertex_descriptors), by hand:
// 100-byte binding, stride 12, attribute at offset 4 of 4 bytes -> attrib_end 8: vertices
// whose attribute ends inside: (100 - 8) / 12 + 1 = 7 + 1 = 8 (vertex 7 ends at 7*12+8 = 92
// <= 100, vertex 8 at 104 > 100). GFX8 counts bytes: (8 - 1) * 12 + 8 = 92. A binding
// shorter than attrib_end holds no vertex: 0.
TEST(VertexVSharp, NumRecordsPerGeneration) {
  EXPECT_EQ(routes::vertexNumRecords(gcn::Gen::Gfx6, 100, 12, 8), 8u);
  EXPECT_EQ(routes::vertexNumRecords(gcn::Gen::Gfx7, 100, 12, 8), 8u);
  EXPECT_EQ(routes::vertexNumRecords(gcn::Gen::Gfx9, 100, 12, 8), 8u);
  EXPECT_EQ(routes::vertexNumRecords(gcn::Gen::Gfx8, 100, 12, 8), 92u);
  EXPECT_EQ(routes::vertexNumRecords(gcn::Gen::Gfx9, 7, 12, 8), 0u);
  EXPECT_EQ(routes::vertexNumRecords(gcn::Gen::Gfx8, 7, 12, 8), 0u);
  // Exactly one vertex: 8 bytes -> (8 - 8) / 12 + 1 = 1; GFX8: 0 * 12 + 8 = 8.
  EXPECT_EQ(routes::vertexNumRecords(gcn::Gen::Gfx9, 8, 12, 8), 1u);
  EXPECT_EQ(routes::vertexNumRecords(gcn::Gen::Gfx8, 8, 12, 8), 8u);
  EXPECT_THROW(routes::vertexNumRecords(gcn::Gen::Gfx9, 8, 0, 8), gcn::Error);
}

// Words by hand from docs/gcn-facts.md's V# layout: word 1 = BASE_HI | STRIDE << 16
// (0x12 | 24 << 16 = 0x180012); word 2 = NUM_RECORDS; word 3 = DST_SEL X,Y,Z,W (0xfac) |
// NUM_FORMAT UNORM (0) | DATA_FORMAT 8_8_8_8 (10 << 15 = 0x50000) = 0x50fac.
// R8G8B8A8_UNORM, 200 bytes, stride 24, offset 4: attrib_end 8, (200 - 8) / 24 + 1 = 9.
TEST(VertexVSharp, WordsForR8G8B8A8) {
  const gcn::VSharp v = routes::makeVertexBufferVSharp(gcn::Gen::Gfx9, 0x1200001000ull, 200, 24, 4,
                                                       VK_FORMAT_R8G8B8A8_UNORM);
  const auto w = gcn::encodeVSharp(gcn::Gen::Gfx9, v);
  EXPECT_EQ(w[0], 0x00001000u);
  EXPECT_EQ(w[1], 0x180012u);
  EXPECT_EQ(w[2], 9u);
  EXPECT_EQ(w[3], 0x50facu);
  EXPECT_THROW(
      routes::makeVertexBufferVSharp(gcn::Gen::Gfx9, 0, 64, 0x4000, 0, VK_FORMAT_R8G8B8A8_UNORM),
      gcn::Error);
  EXPECT_THROW(routes::makeVertexBufferVSharp(gcn::Gen::Gfx9, 0, 64, 8, 0, VK_FORMAT_R8G8B8_UNORM),
               gcn::Error);
}

// docs/platform.md, "Instruction selection" (RADV null device, Mesa 22.3.6): 8/16-bit
// and packed formats -> tbuffer_load_format_* with the format's dfmt/nfmt, e.g. the
// observed `tbuffer_load_format_xyzw ... format:[BUF_DATA_FORMAT_2_10_10_10,
// BUF_NUM_FORMAT_SNORM]` for A2B10G10R10_SNORM; 32-bit channels -> buffer_load_dword*.
TEST(VertexFetch, InstructionPerFormatClass) {
  const auto op = [](VkFormat f) {
    const gcn::OpcodeInfo* o = routes::vertexFetchOpcode(*vk::findBufferFormat(f));
    return o == nullptr ? std::string("none") : std::string(o->mnemonic);
  };
  EXPECT_EQ(op(VK_FORMAT_R8_UNORM), "tbuffer_load_format_x");
  EXPECT_EQ(op(VK_FORMAT_R8G8_SINT), "tbuffer_load_format_xy");
  EXPECT_EQ(op(VK_FORMAT_R16G16B16A16_SFLOAT), "tbuffer_load_format_xyzw");
  EXPECT_EQ(op(VK_FORMAT_A2B10G10R10_SNORM_PACK32), "tbuffer_load_format_xyzw");
  EXPECT_EQ(op(VK_FORMAT_B10G11R11_UFLOAT_PACK32), "tbuffer_load_format_xyz");
  EXPECT_EQ(op(VK_FORMAT_R32_SFLOAT), "buffer_load_dword");
  EXPECT_EQ(op(VK_FORMAT_R32G32_UINT), "buffer_load_dwordx2");
  EXPECT_EQ(op(VK_FORMAT_R32G32B32_SINT), "buffer_load_dwordx3");
  EXPECT_EQ(op(VK_FORMAT_R32G32B32A32_SFLOAT), "buffer_load_dwordx4");
  // No single instruction: 3 channels of 8 bits (no data format), 64-bit channels.
  std::string why;
  EXPECT_EQ(routes::vertexFetchOpcode(*vk::findBufferFormat(VK_FORMAT_R8G8B8_UNORM), &why),
            nullptr);
  EXPECT_NE(why.find("3 channels"), std::string::npos) << why;
  EXPECT_EQ(op(VK_FORMAT_R64_SFLOAT), "none");
}

TEST(VertexSuite, CasesCarryTheirFetch) {
  const std::vector<judge::Case> cases = cases::vertexSuite(portableChip());
  ASSERT_FALSE(cases.empty());
  EXPECT_EQ(cases::buildCases("vertex", "", portableChip()).size(), cases.size());
  for (const judge::Case& c : cases) {
    const routes::DeviceCase& d = c.device;
    EXPECT_EQ(d.binding, routes::Binding::VertexAttribute) << c.name;
    EXPECT_EQ(d.inst.op, routes::vertexFetchOpcode(*vk::findBufferFormat(d.format))) << c.name;
    EXPECT_TRUE(d.inst.idxen) << c.name;
    // Some active lane is past NUM_RECORDS (elements on gfx9, the portable generation).
    const uint32_t numRecords = d.state.sgpr[d.inst.srsrc + 2];
    bool past = false, inside = false;
    for (unsigned l = 0; l < 62; ++l) {
      past = past || d.state.vgpr(d.inst.vaddr)[l] >= numRecords;
      inside = inside || d.state.vgpr(d.inst.vaddr)[l] == numRecords - 1;
    }
    EXPECT_TRUE(past && inside) << c.name;
  }
}

// On every generation the reference, reading the suite's V#, puts exactly the vertices
// whose attribute ends inside the binding in range: index * STRIDE + OFFSET + format size
// <= buffer bytes (the Vulkan robustBufferAccess2 rule for vertex input), computed here
// from the case's layout, not from the V#.
TEST(VertexSuite, ReferenceRangeMatchesTheVulkanVertexRule) {
  for (gcn::Gen gen : gcn::kGcnGens) {
    const judge::Profile profile = judge::resolveProfile(gcn::genName(gen), std::nullopt);
    for (const judge::Case& c : cases::vertexSuite(profile.chip)) {
      const routes::DeviceCase& d = c.device;
      const uint64_t stride = (d.state.sgpr[d.inst.srsrc + 1] >> 16) & 0x3fff;
      const uint64_t size = vk::findBufferFormat(d.format)->stride;
      const judge::Expected e = judge::buildExpected(c, profile, {true});
      const gcn::ExecResult& r = e.alternatives.front().result;
      for (unsigned l = 0; l < 62; ++l) {
        const uint64_t index = d.state.vgpr(d.inst.vaddr)[l];
        const bool inside = index * stride + d.inst.offset + size <= d.memory.bytes.size();
        ASSERT_FALSE(r.lanes[l].accesses.empty()) << c.name << " lane " << l;
        bool inRange = true;
        for (const gcn::LaneAccess& a : r.lanes[l].accesses)
          inRange = inRange && a.inRange;
        EXPECT_EQ(inRange, inside)
            << gcn::genName(gen) << " " << c.name << " lane " << l << " index " << index;
      }
    }
  }
}

// Format class of a case by its data format (CLRX GcnMemHandling names).
std::string formatClass(gcn::Dfmt d) {
  switch (d) {
    case gcn::Dfmt::F8:
    case gcn::Dfmt::F8_8:
    case gcn::Dfmt::F8_8_8_8:
      return "8-bit";
    case gcn::Dfmt::F16:
    case gcn::Dfmt::F16_16:
    case gcn::Dfmt::F16_16_16_16:
      return "16-bit";
    case gcn::Dfmt::F2_10_10_10:
    case gcn::Dfmt::F10_11_11:
    case gcn::Dfmt::F11_11_10:
    case gcn::Dfmt::F10_10_10_2:
      return "packed";
    default:
      return "32-bit";
  }
}

TEST(VertexSuite, PassesOnLavapipeWithEveryFormatClass) {
  auto ctx = vk::Context::open("llvmpipe");
  const std::vector<judge::Case> cases = cases::vertexSuite(portableChip());
  const auto results = runVertex(*ctx, cases);
  ASSERT_EQ(results.size(), cases.size());
  std::map<std::string, int> passing;
  std::set<VkFormat> covered;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const results::CaseResult& r = results[i];
    const auto it = std::find_if(cases.begin(), cases.end(),
                                 [&](const judge::Case& c) { return c.name == r.name; });
    ASSERT_NE(it, cases.end());
    EXPECT_TRUE(r.verdict == results::Verdict::Pass || r.verdict == results::Verdict::Unsupported)
        << r.name << ": " << results::verdictName(r.verdict) << ": " << r.reason;
    if (r.verdict == results::Verdict::Unsupported) {
      // Unsupported only where the device lacks the format (never for a route limit).
      EXPECT_NE(r.reason.find("VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT"), std::string::npos)
          << r.name << ": " << r.reason;
    }
    if (r.verdict == results::Verdict::Pass) {
      ++passing[formatClass(vk::findBufferFormat(it->device.format)->dfmt)];
      covered.insert(it->device.format);
    }
  }
  for (const char* cls : {"8-bit", "16-bit", "packed", "32-bit"})
    EXPECT_GT(passing[cls], 0) << cls;
  // Every table format lavapipe can fetch as a vertex attribute either passes here or has
  // no single GCN fetch instruction (the reason vertexFetchOpcode gives).
  for (const vk::BufferFormat& f : vk::allBufferFormats()) {
    if ((ctx->formatProperties(f.vk).bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) == 0)
      continue;
    std::string why;
    if (routes::vertexFetchOpcode(f, &why) == nullptr) {
      EXPECT_FALSE(why.empty()) << f.name;
      continue;
    }
    EXPECT_TRUE(covered.count(f.vk)) << f.name << " has no passing case";
  }
}

// The diff must see a wrong fetch: expectations built from memory whose in-range elements
// differ from what the device read fail the case (every lane in range is then wrong).
TEST(VertexSuite, WrongExpectationFails) {
  auto ctx = vk::Context::open("llvmpipe");
  std::vector<judge::Case> cases = cases::buildCases(
      "vertex", "vertex.r16g16_uint.tbuffer_load_format_xy.packed", portableChip());
  ASSERT_EQ(cases.size(), 1u);
  auto route = routes::makeVertexRoute(*ctx);
  ASSERT_EQ(route->unsupportedReason(cases[0].device), "");
  const routes::DeviceCase* in[] = {&cases[0].device};
  const auto actual = route->run(in);
  ASSERT_EQ(actual.size(), 1u);
  // Lane 3 fetched vertex 3 = bytes 12..15 of the buffer: R16G16_UINT is exact.
  const auto& mem = cases[0].device.memory.bytes;
  EXPECT_EQ(actual[0].vdata[3][0], uint32_t{mem[12]} | uint32_t{mem[13]} << 8);
  EXPECT_EQ(actual[0].vdata[3][1], uint32_t{mem[14]} | uint32_t{mem[15]} << 8);
  EXPECT_TRUE(actual[0].changedGuardBytes.empty());

  judge::Case wrong = cases[0];
  for (uint8_t& b : wrong.device.memory.bytes)
    b = static_cast<uint8_t>(b ^ 0x01);
  judge::Profile profile = judge::resolveProfile("portable", std::nullopt);
  const judge::Expected e =
      judge::buildExpected(wrong, profile, {ctx->features().robustBufferAccess2});
  const judge::DiffResult d =
      judge::diffCase(cases[0].device, judge::formatViewOf(profile.chip, cases[0].device), e,
                      actual[0], judge::findTolerance("exact"));
  EXPECT_FALSE(d.pass);
}

// A case whose instruction is not the format's fetch is unsupported with the reason.
TEST(VertexRoute, RejectsAnInstructionThatIsNotTheFetch) {
  auto ctx = vk::Context::open("llvmpipe");
  auto route = routes::makeVertexRoute(*ctx);
  std::vector<judge::Case> cases = cases::buildCases(
      "vertex", "vertex.r8g8b8a8_unorm.tbuffer_load_format_xyzw.packed", portableChip());
  ASSERT_EQ(cases.size(), 1u);
  routes::DeviceCase d = cases[0].device;
  d.inst.dfmt = gcn::Dfmt::F16_16;
  EXPECT_NE(route->unsupportedReason(d).find("DFMT/NFMT"), std::string::npos);
  d = cases[0].device;
  d.inst.op = gcn::findOpcode("tbuffer_load_format_xy");
  EXPECT_NE(route->unsupportedReason(d).find("is tbuffer_load_format_xyzw"), std::string::npos);
  d = cases[0].device;
  d.inst.offen = true;
  EXPECT_NE(route->unsupportedReason(d), "");
}

}  // namespace vertex_test
