// The binary route as a route (harness/isa/binary_route.h): which cases it claims, the reasons
// it refuses, and the lane I/O it relies on.
// - On lavapipe every case of the binary suite is unsupported, naming the device, never pass.
// - No other route claims a binary case, and the binary route claims nothing else.
// - The templates, unpatched, do on lavapipe what their instruction does (the reference's
//   execute()): lane l's In.addr reaches VADDR, In.data the VDATA registers, and Out returns
//   the VDATA registers after the instruction. That is what a patched template is run and
//   compared by on a GCN GPU.
// - The LDS template, unpatched, copies the case's LDS image into LDS where a patched
//   BUFFER_STORE_LDS_DWORD reads it.
// - On RADV's null device (tonga, gfx8) a hosted case is built and proven, then unsupported
//   because the device cannot run; each form the templates cannot host is refused with its
//   reason.
#include "harness/isa/binary_route.h"

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>

#include "harness/cases/suite.h"
#include "harness/control/control_route.h"
#include "harness/isa/binary_patch.h"
#include "harness/judge/expect.h"
#include "harness/routes/all_routes.h"
#include "harness/routes/storage.h"
#include "harness/run/runner.h"
#include "reference/executor.h"
#include "tests/support/radv.h"

namespace gcnprobe {
namespace binary_route_test {

const judge::Case& caseNamed(const std::vector<judge::Case>& cases, const std::string& name) {
  for (const judge::Case& c : cases)
    if (c.name == name) return c;
  throw gcn::Error("no case " + name);
}

TEST(BinaryRouteRun, OnLavapipeEveryBinaryCaseIsUnsupportedWithTheReason) {
  auto ctx = vk::Context::open("");
  if (ctx->info().chip) GTEST_SKIP() << "the default device is GCN";
  auto routes = control::makeRunRoutes(*ctx);
  run::RunOptions o;
  o.profile = judge::resolveProfile("portable", std::nullopt);
  const std::vector<judge::Case> cases = cases::buildCases("binary", "", o.profile.chip);
  ASSERT_GT(cases.size(), 80u);  // every opcode of the portable profile's generation
  std::size_t seen = 0;
  const results::Summary s = run::runCases(cases, routes, o, [&](const results::CaseResult& r) {
    ++seen;
    EXPECT_EQ(r.verdict, results::Verdict::Unsupported) << r.name;
    EXPECT_NE(r.reason.find("binary route: "), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("is not a GCN device"), std::string::npos) << r.reason;
  });
  EXPECT_EQ(seen, cases.size());
  EXPECT_EQ(s.count(results::Verdict::Unsupported), cases.size());
}

TEST(BinaryRouteRun, OnlyTheBinaryRouteClaimsABinaryCase) {
  auto ctx = vk::Context::open("");
  const gcn::Chip& chip = gcn::representativeChip(gcn::Gen::Gfx8);
  const std::vector<judge::Case> binary = cases::buildCases("binary", "", chip);
  const auto all = routes::makeAllRoutes(*ctx);
  const auto withBinary = control::makeRunRoutes(*ctx);
  for (const judge::Case& c : binary) {
    EXPECT_EQ(routes::chooseRoute(all, c.device).route, nullptr) << c.name;
    const routes::RouteChoice choice = routes::chooseRoute(withBinary, c.device);
    ASSERT_NE(choice.route, nullptr) << c.name << ": " << choice.reason;
    EXPECT_EQ(choice.route->name(), "binary");
  }
  // ... and a storage case stays the storage route's.
  const std::vector<judge::Case> storage =
      cases::buildCases("storage", "storage.load_dword.offset0", chip);
  ASSERT_EQ(storage.size(), 1u);
  EXPECT_EQ(routes::chooseRoute(withBinary, storage[0].device).route->name(), "storage");
}

// The templates' lane I/O on lavapipe: the binary suite's buffer_load_dwordx4,
// buffer_store_dwordx4 and buffer_atomic_cmpswap_x2 cases (lanes at 16-byte steps, two past
// the end of the 960-byte buffer, two inactive) through the template pipelines themselves,
// against execute(): in range and out of range (zeros, no write).
TEST(BinaryRouteRun, TheTemplatesDoWhatTheirInstructionDoesOnLavapipe) {
  auto ctx = vk::Context::open("");
  if (ctx->info().chip) GTEST_SKIP() << "the default device is GCN";
  const gcn::Chip& chip = gcn::representativeChip(gcn::Gen::Gfx8);
  const std::vector<judge::Case> cases = cases::buildCases("binary", "", chip);
  const uint32_t spec[] = {0};
  for (const auto& [name, variant] :
       {std::pair{"binary.load_dwordx4", "binary_template_load"},
        std::pair{"binary.store_dwordx4", "binary_template_store"},
        std::pair{"binary.atomic_cmpswap_x2", "atomic_ssbo_cmpswap_x2"}}) {
    SCOPED_TRACE(name);
    const judge::Case& c = caseNamed(cases, name);
    vk::ComputePipeline pipeline(*ctx, routes::shaderVariant(variant),
                                 routes::lane::laneShaderBindings(false), 0, false, spec);
    const routes::DeviceCase* one[] = {&c.device};
    const gcn::OpcodeInfo& op = *c.device.inst.op;
    const unsigned words =
        op.kind == gcn::OpKind::Store ? 0 : (op.kind == gcn::OpKind::Atomic ? 2 : 4);
    const std::vector<routes::DeviceResult> got =
        routes::lane::runLaneShader(*ctx, pipeline, one, VK_FORMAT_UNDEFINED, words);
    ASSERT_EQ(got.size(), 1u);
    ASSERT_TRUE(got[0].unsupported.empty()) << got[0].unsupported;
    EXPECT_TRUE(got[0].changedGuardBytes.empty());
    const gcn::ExecResult want = gcn::execute(chip, c.device.inst, c.device.state, c.device.memory,
                                              {}, gcn::Policies::defaults(chip.gen));
    unsigned compared = 0;
    for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
      if (!((c.device.state.exec >> l) & 1)) continue;
      for (unsigned k = 0; k < words; ++k) {
        ASSERT_TRUE(want.lanes[l].vdata[k].has_value()) << "lane " << l;
        EXPECT_EQ(got[0].vdata[l][k], *want.lanes[l].vdata[k]) << "lane " << l << " reg " << k;
        ++compared;
      }
    }
    EXPECT_EQ(got[0].memory, want.memory().bytes);
    if (words != 0) {
      EXPECT_EQ(compared, 62u * words);
    }
    // The store and the atomic changed memory (the suite's CMPSWAP compares with the memory's
    // own value on even lanes): the comparison above is not vacuous.
    if (op.kind != gcn::OpKind::Load) {
      EXPECT_NE(want.memory().bytes, c.device.memory.bytes);
    }
  }
}

// The LDS template, unpatched, on lavapipe: lane l stores its neighbour's LDS dword
// (LDS word (4l + 4) mod 256) XORed with the template's mark at byte In.addr[l]. With the
// case's LDS image in In.data that shows LDS byte 4j = the image's bytes 4j..4j+3, which is
// where a patched BUFFER_STORE_LDS_DWORD reads (M0 & 0xffff) + 4 * lane.
TEST(BinaryRouteRun, TheLdsTemplateFillsLdsFromTheCaseImageOnLavapipe) {
  auto ctx = vk::Context::open("");
  if (ctx->info().chip) GTEST_SKIP() << "the default device is GCN";
  const gcn::Chip& chip = gcn::representativeChip(gcn::Gen::Gfx8);
  const std::vector<judge::Case> cases = cases::buildCases("binary", "", chip);
  routes::DeviceCase d = caseNamed(cases, "binary.store_lds_dword").device;
  ASSERT_EQ(d.lds.size(), isa::kLdsTemplateBytes);
  d.state.exec = ~0ull & ~(3ull << 62);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l)
    d.state.vgprMut(d.inst.vaddr)[l] = 4 * ((l * 7) % 64);  // distinct dwords, permuted
  const uint32_t spec[] = {0};
  vk::ComputePipeline pipeline(*ctx, routes::shaderVariant("binary_template_lds"),
                               routes::lane::laneShaderBindings(false), 0, false, spec);
  const routes::DeviceCase* one[] = {&d};
  const std::vector<routes::DeviceResult> got =
      routes::lane::runLaneShader(*ctx, pipeline, one, VK_FORMAT_UNDEFINED, 0);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].changedGuardBytes.empty());
  std::vector<uint8_t> want = d.memory.bytes;
  for (unsigned l = 0; l < 62; ++l) {
    uint32_t word = 0;
    std::memcpy(&word, d.lds.data() + 4 * ((4 * l + 4) % 256), 4);
    word ^= isa::kLdsTemplateMark;
    std::memcpy(want.data() + 4 * ((l * 7) % 64), &word, 4);
  }
  EXPECT_EQ(got[0].memory, want);
  EXPECT_NE(want, d.memory.bytes);
}

// Every case of the binary suite has a reference prediction on its generation's profile (a
// GPU run compares each against it): the reference models every opcode in the suite's form.
TEST(BinaryRouteRun, EveryBinaryCaseHasAPredictionOnItsGeneration) {
  std::size_t predicted = 0;
  for (const char* gen : {"gfx6", "gfx7", "gfx8", "gfx9"}) {
    const judge::Profile profile = judge::resolveProfile(gen, std::nullopt);
    for (const judge::Case& c : cases::buildCases("binary", "", profile.chip)) {
      SCOPED_TRACE(std::string(gen) + " " + c.name);
      EXPECT_NO_THROW((void)judge::buildExpected(c, profile, judge::DeviceRules{}));
      ++predicted;
    }
  }
  EXPECT_EQ(predicted, 66u + 64u + 75u + 85u);
}

// On the null device: built and proven, then unsupported for want of memory; the forms the
// templates cannot host refused with their reasons.
TEST(BinaryRouteRun, OnTheNullDeviceHostedCasesAreProvenAndOthersRefusedWithTheReason) {
  if (const auto why = test_support::radvMissing()) GTEST_SKIP() << *why;
  test_support::ScopedRadvNull radv("tonga");
  auto ctx = vk::Context::open("");
  ASSERT_TRUE(ctx->info().chip.has_value());
  const gcn::Chip& chip = *ctx->info().chip;
  const std::vector<judge::Case> cases = cases::buildCases("binary", "", chip);
  const auto route = isa::makeBinaryRoute(*ctx);
  const auto reason = [&](const routes::DeviceCase& d) { return route->unsupportedReason(d); };
  // Hosted: a load no Vulkan construct emits, a store, an atomic ACO never selects.
  for (const char* name : {"binary.load_sbyte", "binary.tbuffer_store_format_xy",
                           "binary.atomic_inc", "binary.store_format_d16_xyzw"}) {
    SCOPED_TRACE(name);
    const std::string why = reason(caseNamed(cases, name).device);
    EXPECT_NE(why.find("built and proven"), std::string::npos) << why;
    EXPECT_NE(why.find("cannot run here"), std::string::npos) << why;
  }
  // Refused before anything is built, each with its reason.
  routes::DeviceCase d = caseNamed(cases, "binary.load_sbyte").device;
  d.state.vgprMut(d.inst.vaddr)[5] = 88;  // not a multiple of 16
  EXPECT_NE(reason(d).find("lane 5's VADDR 88 is not a multiple of 16"), std::string::npos)
      << reason(d);
  d = caseNamed(cases, "binary.load_sbyte").device;
  // The V# RADV writes for a buffer 16 bytes further on: not this buffer's.
  gcn::setVsharpWords(
      d.state, d.inst.srsrc,
      gcn::encodeVSharp(chip.gen, routes::makeStorageBufferVSharp(d.memory.base + 16, 944)));
  EXPECT_NE(reason(d).find("not the one RADV writes"), std::string::npos) << reason(d);
  // OFFSET is the instruction's own immediate: any (its reach is checked), but the LDS
  // store's LDS address may add it, so that one stays at 0.
  d = caseNamed(cases, "binary.load_sbyte").device;
  d.inst.offset = 16;
  EXPECT_NE(reason(d).find("'buffer_load_sbyte v4, v1, s[8:11], 0 offen offset:16'"),
            std::string::npos)
      << reason(d);
  d = caseNamed(cases, "binary.store_lds_dword").device;
  d.inst.offset = 4;
  EXPECT_NE(reason(d).find("LDS store with OFFSET 0"), std::string::npos) << reason(d);
  // A V# reaching far past the buffer: refused for confinement before anything else.
  d = caseNamed(cases, "binary.load_sbyte").device;
  gcn::setVsharpWords(d.state, d.inst.srsrc,
                      gcn::encodeVSharp(chip.gen, routes::makeStorageBufferVSharp(
                                                      d.memory.base, uint32_t{1} << 20)));
  d.state.vgprMut(d.inst.vaddr)[5] = 16000;
  EXPECT_NE(reason(d).find("outside the buffer and its 1024-byte guard band"), std::string::npos)
      << reason(d);
  // IDXEN: the texel (IDXEN) template's form, a storage texel buffer with a raw V#; OFFEN
  // and IDXEN together: two VADDR registers, no template.
  d = caseNamed(cases, "binary.load_sbyte").device;
  d.inst.idxen = true;
  d.inst.offen = false;
  EXPECT_NE(reason(d).find("storage texel buffer"), std::string::npos) << reason(d);
  d.binding = routes::Binding::StorageTexel;
  EXPECT_NE(reason(d).find("needs a raw V#"), std::string::npos) << reason(d);
  d.rawVsharp = true;
  const std::string texel = reason(d);
  if (ctx->features().descriptorBuffer) {
    EXPECT_NE(texel.find("'buffer_load_sbyte v4, v1, s[8:11], 0 idxen'"), std::string::npos)
        << texel;
    EXPECT_NE(texel.find("in place of the template's 'buffer_load_format_xyzw"), std::string::npos)
        << texel;
  } else {
    EXPECT_NE(texel.find("VK_EXT_descriptor_buffer"), std::string::npos) << texel;
  }
  d.inst.offen = true;
  EXPECT_NE(reason(d).find("one VADDR register"), std::string::npos) << reason(d);
  // A raw V# (NUM_FORMAT UINT, not RADV's FLOAT) reaches the template through a descriptor
  // buffer: built and proven where the driver has VK_EXT_descriptor_buffer (Mesa 25), else
  // refused naming the extension.
  d = caseNamed(cases, "binary.load_sbyte").device;
  d.rawVsharp = true;
  gcn::VSharp raw = gcn::decodeVSharp(chip.gen, gcn::vsharpWords(d.state, d.inst.srsrc));
  raw.numFormat = gcn::Nfmt::Uint;
  gcn::setVsharpWords(d.state, d.inst.srsrc, gcn::encodeVSharp(chip.gen, raw));
  const std::string rawWhy = reason(d);
  if (ctx->features().descriptorBuffer) {
    EXPECT_NE(rawWhy.find("built and proven (descriptor-buffer pipeline"), std::string::npos)
        << rawWhy;
  } else {
    EXPECT_NE(rawWhy.find("VK_EXT_descriptor_buffer"), std::string::npos) << rawWhy;
  }
  // Its reach bounded as on the raw route: a V# whose lanes may touch gigabytes is refused.
  raw.numRecords = 0xffffffffu;
  raw.stride = 16;
  d.inst.idxen = false;
  gcn::setVsharpWords(d.state, d.inst.srsrc, gcn::encodeVSharp(chip.gen, raw));
  d.state.vgprMut(d.inst.vaddr)[7] = 0xfffffff0u;
  EXPECT_NE(reason(d).find("reach"), std::string::npos) << reason(d);
  // Unpacked D16 (gfx8.0) writes the low half of each register: up to two registers run in
  // the atomic template, whose registers hold the case's VDATA first; more are refused.
  const std::string d16x = reason(caseNamed(cases, "binary.load_format_d16_xy").device);
  EXPECT_NE(d16x.find("built and proven"), std::string::npos) << d16x;
  EXPECT_NE(d16x.find("in place of the template's 'buffer_atomic_cmpswap_x2"), std::string::npos)
      << d16x;
  EXPECT_NE(reason(caseNamed(cases, "binary.load_format_d16_xyz").device)
                .find("half of each of its 3 registers"),
            std::string::npos);
  d = caseNamed(cases, "binary.load_format_d16_xy").device;
  d.inst.tfe = true;  // a third register the atomic template does not return
  EXPECT_NE(reason(d).find("half of each of its 3 registers"), std::string::npos) << reason(d);
  d = caseNamed(cases, "binary.load_format_d16_x").device;
  d.state.vgprMut(d.inst.vaddr)[3] = 44;  // the atomic template's access is 8 bytes
  EXPECT_NE(reason(d).find("lane 3's VADDR 44 is not a multiple of 8"), std::string::npos)
      << reason(d);
  // BUFFER_STORE_LDS_DWORD: built in the LDS template with the case's M0 patched in; refused
  // when a lane would read LDS outside the case's image, or the image outgrows the template.
  const routes::DeviceCase& ldsStore = caseNamed(cases, "binary.store_lds_dword").device;
  const std::string lds = reason(ldsStore);
  EXPECT_NE(lds.find("built and proven"), std::string::npos) << lds;
  EXPECT_NE(lds.find("s_mov_b32 m0, 0x00000104"), std::string::npos) << lds;
  d = ldsStore;
  d.state.m0 = 1024 - 4 * 37;  // lane 37 reads bytes 1024..1027
  EXPECT_NE(reason(d).find("lane 37 reads LDS bytes 1024..1027"), std::string::npos) << reason(d);
  d = ldsStore;
  d.lds.resize(2048);
  EXPECT_NE(reason(d).find("the LDS template has 1024"), std::string::npos) << reason(d);
  d = caseNamed(cases, "binary.load_dword").device;
  d.inst.lds = true;
  EXPECT_NE(reason(d).find("writes LDS"), std::string::npos) << reason(d);
}

// On vega10 (gfx9, packed D16) every opcode's case is built and proven in the run path: the
// D16 loads that write half a register (D16_HI, odd halves) in the atomic template,
// BUFFER_STORE_LDS_DWORD in the LDS template.
TEST(BinaryRouteRun, OnTheGfx9NullDeviceEveryCaseIsBuiltAndProven) {
  if (const auto why = test_support::radvMissing()) GTEST_SKIP() << *why;
  test_support::ScopedRadvNull radv("vega10");
  auto ctx = vk::Context::open("");
  ASSERT_TRUE(ctx->info().chip.has_value());
  const std::vector<judge::Case> cases = cases::buildCases("binary", "", *ctx->info().chip);
  EXPECT_EQ(cases.size(), 85u);
  const auto route = isa::makeBinaryRoute(*ctx);
  for (const judge::Case& c : cases) {
    const std::string why = route->unsupportedReason(c.device);
    EXPECT_NE(why.find("built and proven"), std::string::npos) << c.name << ": " << why;
  }
  const std::string hi =
      route->unsupportedReason(caseNamed(cases, "binary.load_short_d16_hi").device);
  EXPECT_NE(hi.find("in place of the template's 'buffer_atomic_cmpswap_x2"), std::string::npos)
      << hi;
}

}  // namespace binary_route_test
}  // namespace gcnprobe
