// The device side of probes: which shipped probe a route can realise (and why not), the
// DeviceCase built for it, matching a device result against predictions, the disputed
// suite, and realisable probes run on the machine's Vulkan device (lavapipe here).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "harness/cases/suite.h"
#include "harness/control/control_route.h"
#include "harness/isa/binary_route.h"
#include "harness/routes/all_routes.h"
#include "harness/run/runner.h"
#include "harness/vulkan/context.h"
#include "probe/probe_eval.h"
#include "probe/probe_file.h"
#include "reference/resource.h"

#include "tests/support/cli.h"

namespace device_test {

using namespace gcnprobe;

std::string probePath(const std::string& name) {
  return std::string(GCNPROBE_SOURCE_DIR) + "/probes/" + name + ".probe";
}

struct Loaded {
  gcn::probe::Probe probe;
  gcn::probe::ProbeSetup setup;
};
Loaded load(const std::string& name) {
  Loaded l{gcn::probe::loadProbe(probePath(name)), {}};
  l.setup = gcn::probe::prepare(l.probe, {});
  return l;
}

// The probe's case as the disputed suite and `gcnprobe probe` make it.
cases::ProbeCase realiseLoaded(const Loaded& l) {
  return cases::probeCase(l.probe.file, l.setup);
}

// The decision per shipped probe under its own `gen`, derived from the probe's text and
// what a Vulkan driver builds (docs/routes.md; harness/formats.h for texel-view V#s:
// DST_SEL x001 for one-channel formats, xyzw for four; routes/storage.h for the SSBO V#:
// DATA_FORMAT 32, NUM_FORMAT FLOAT). "" = realisable with the driver's own descriptor;
// "raw" = an instruction form a lane shader has (texel: IDXEN, OFFSET 0; SSBO: OFFEN; SOFFSET
// 0, no TFE/LDS) with a V# no driver builds: the raw V# route's case; else a piece of the
// reason.
const std::map<std::string, std::string>& decisions() {
  static const std::map<std::string, std::string> m = {
      // dfmt=0 nfmt=unorm dst_sel=0000 under an OFFEN dword load: not the SSBO V#.
      {"all-zero-vsharp", "raw"},
      // 10_11_11 FLOAT with DST_SEL xyzw: B10G11R11's view has xyz1.
      {"fmt-10-11-11-gfx6", "raw"},
      // 32_32_32_32 UINT xyzw, STRIDE 16, NUM_RECORDS 32 bytes on gfx8 = 2 elements:
      // exactly R32G32B32A32_UINT's view.
      {"format-x-on-4-components", ""},
      // 32 UINT x001 STRIDE 4: R32_UINT's view.
      {"format-xyzw-on-1-component", ""},
      // BUFFER_LOAD_DWORD with IDXEN: no lane shader's form (SSBO accesses are OFFEN); the
      // binary route's IDXEN (texel) template hosts it, the V# from a descriptor buffer.
      {"idxen-offset-vs-stride", "binary"},
      {"num-records-units-gfx8", "binary"},
      // IDXEN dword load, NUM_FORMAT UINT with STRIDE 16: the binary route's IDXEN template with
      // a raw V#; its 64-bit reading reaches the far region 4 GiB past the base, which the raw
      // placement puts in a second buffer (its reach touches it on gfx9).
      {"index-product", "binary"},
      // buffer_store_format_x: a driver-built view's imageStore writes four components; the
      // one-component store shader has the form.
      {"invalid-dfmt-store-gfx8", "raw"},
      {"uint-store-overflow", "raw"},
      // DST_SEL xyz1 on a four-channel format; xyzw on one-channel formats: no view has it.
      {"oob-dstsel-one", "raw"},
      {"snorm-minimum", "raw"},
      {"store-format-xyzw-on-1-component", "raw"},
      {"unorm8-to-float", "raw"},
      // SNORM_OGL is no VkFormat's number format.
      {"snorm-ogl-gfx6", "raw"},
      // NUM_FORMAT UINT (RADV: FLOAT) or STRIDE 16 (RADV: 0), OFFEN loads.
      // ACO splits a lane shader's 8-byte load: the probe names gcnprobe's own program.
      {"raw-straddle", "program"},
      {"stride-without-idxen", "raw"},
      // Byte offsets 1..3: GLSL indexes whole dwords, and the binary templates take VADDR in
      // multiples of their 16-byte access. No route has it.
      // A VADDR no lane shader computes (byte 1): gcnprobe's own program.
      {"unaligned-dword", "program"},
      // An SGPR SOFFSET is set and proven only in gcnprobe's own program.
      {"soffset-overflow", "program"},
      // SWIZZLE_ENABLE, and a typed IDXEN load no shader has.
      {"swizzle-multidword", "binary"},
      {"swizzle-soffset", "program"},
      // TFE: no Vulkan construct; NUM_FORMAT UINT: not RADV's SSBO V#. The binary route with
      // the V# through a descriptor buffer.
      {"tfe-load", "binary"},
      {"tid-with-idxen", "binary"},
      // No OFFEN, no IDXEN: VADDR unused, the OFFEN template hosts it.
      {"tid-without-idxen", "binary"},
      // The same three questions in a lane shader's form: a format load with IDXEN (texel),
      // an OFFEN dword load with offset 0 (SSBO).
      {"swizzle-multidword-format", "raw"},
      {"tid-with-idxen-format", "raw"},
      {"tid-without-idxen-offen", "raw"},
      // The two SOFFSET questions in the SOFFSET form: a dword load with an SGPR SOFFSET and
      // no VADDR (ADD_TID supplies the swizzle's index).
      {"soffset-overflow-sgpr", "program"},
      {"swizzle-soffset-sgpr", "program"},
      // The conversion points: a V# no driver builds (DATA_FORMAT 32 UNORM, 16 FLOAT with
      // DST_SEL xyzw, 10_11_11 FLOAT with xyzw) in the texel shaders' form.
      {"norm32-unorm", "raw"},
      {"nan-widen-half", "raw"},
      {"uf-overflow-store", "raw"},
      // The probes written to be realisable (their comments derive the V#).
      {"texel-unorm8-to-float", ""},
      {"texel-oob-dstsel-one", ""},
      {"texel-uint-store-overflow", ""},
      {"ssbo-raw-straddle", ""},
      {"texel-bgra-store", ""},
      {"texel-norm-store", ""},
      {"texel-half-store-round", ""},
      // Instructions no Vulkan construct emits, in a binary template's form with RADV's SSBO
      // V# (OFFEN, SOFFSET 0, OFFSET 0, VADDR multiples of 8; the LDS store without VADDR).
      {"d16-hi-keeps-low", "binary"},
      {"lds-store-m0-high", "binary"},
      // The driver record's questions. A dword load with a negative VGPR offset, a V# with
      // STRIDE and NUM_RECORDS 0, an untyped store through DATA_FORMAT INVALID, a format store
      // with DST_SEL yzwx: OFFEN or IDXEN in a lane shader's form, V#s no driver builds.
      {"offset-carry", "raw"},
      {"zero-records-gfx9", "raw"},
      {"invalid-dfmt-untyped-gfx7", "raw"},
      {"store-dst-sel-direction", "raw"},
      {"texel-alpha2-snorm", "raw"},
      {"packed-order-11-11-10", "raw"},
      {"packed-order-10-10-10-2", "raw"},
      // ADD_TID without VADDR: the OFFEN template hosts it, the V# through a descriptor buffer.
      {"add-tid-stride-gfx8", "binary"},
      // OFFSET 2 on an atomic: no shader indexes half a dword, and the binary templates take
      // VADDR in multiples of their access.
      // VGPR offset 2 + OFFSET 2: no template hosts it, gcnprobe's own program does.
      {"atomic-unaligned-components", "program"},
      // The record of the GFX9 line's consumers (docs/hardware-record.md R39 on).
      {"cache-swizzle-stride-noidx", "raw"},
      {"d16-oob-keep-gfx9", "binary"},
      {"invalid-dfmt-untyped-gfx9", "raw"},
      {"offset-carry-gfx9-store", "raw"},
      {"offset-carry-gfx9", "raw"},
      {"oob-atomic-offset-trick", "raw"},
      {"soffset-carry", "program"},
      {"soffset-excluded-sgpr-gfx9", "program"},
      {"swizzle-tid-multidword-gfx9", "binary"},
      {"swizzle-without-tid-gfx9", "binary"},
      {"tid-with-idxen-gfx9", "binary"},
      {"unaligned-straddle-gfx9", "program"},
      // RDNA: RADV's GFX10+ view and SSBO V#s, derived in each probe's comment (FORMAT,
      // OOB_SELECT, RESOURCE_LEVEL on gfx10/10.3).
      {"rdna1-ssbo-raw-straddle", ""},
      {"rdna1-texel-half-store-round", ""},
      {"rdna2-ssbo-raw-straddle", ""},
      {"rdna2-texel-bgra-store", ""},
      {"rdna2-texel-norm-store", ""},
      {"rdna2-texel-oob-dstsel-one", ""},
      {"rdna2-texel-uint-store-overflow", ""},
      {"rdna2-texel-unorm8-to-float", ""},
      {"rdna3-ssbo-raw-straddle", ""},
      {"rdna3-texel-half-store-round", ""},
      {"rdna3-texel-oob-dstsel-one", ""},
      {"rdna3-texel-uint-store-overflow", ""},
      {"rdna3-texel-unorm8-to-float", ""},
  };
  return m;
}

TEST(ProbeRealise, EveryShippedProbeHasTheDerivedDecision) {
  std::size_t seen = 0;
  for (const std::string& file : gcn::probe::shippedProbeFiles()) {
    const std::string name = std::filesystem::path(file).stem().string();
    SCOPED_TRACE(name);
    const auto it = decisions().find(name);
    ASSERT_NE(it, decisions().end()) << "new probe: add its realisability decision here";
    ++seen;
    const Loaded l = load(name);
    const cases::ProbeCase r = realiseLoaded(l);
    if (it->second.empty() || it->second == "raw" || it->second == "binary" ||
        it->second == "program") {
      ASSERT_TRUE(r.c.has_value()) << r.reason;
      EXPECT_TRUE(r.reason.empty());
      EXPECT_EQ(r.c->device.rawVsharp && !r.c->device.binaryPatch && !r.c->device.ownProgram,
                it->second == "raw");
      EXPECT_EQ(r.c->device.binaryPatch, it->second == "binary");
      EXPECT_EQ(r.c->device.ownProgram, it->second == "program");
    } else {
      EXPECT_FALSE(r.c.has_value());
      EXPECT_NE(r.reason.find(it->second), std::string::npos) << r.reason;
    }
  }
  EXPECT_EQ(seen, decisions().size()) << "a probe of the table is missing from probes/";
}

// The DeviceCase of each realisable probe: binding and VkFormat from the V# (formats.h
// rows), memory as the route binds it (a view is cut to elements * stride; an SSBO keeps
// the whole image, its range being NUM_RECORDS).
TEST(ProbeRealise, BuildsTheRoutesCase) {
  struct Row {
    const char* probe;
    routes::Binding binding;
    VkFormat format;
    std::size_t bytes;
  };
  const Row rows[] = {
      // 2 elements of 16 bytes (NUM_RECORDS 32 bytes on gfx8).
      {"format-x-on-4-components", routes::Binding::UniformTexel, VK_FORMAT_R32G32B32A32_UINT, 32},
      // NUM_RECORDS 2 elements (gfx9) of 4 bytes.
      {"format-xyzw-on-1-component", routes::Binding::UniformTexel, VK_FORMAT_R32_UINT, 8},
      {"texel-unorm8-to-float", routes::Binding::UniformTexel, VK_FORMAT_R8_UNORM, 64},
      {"texel-oob-dstsel-one", routes::Binding::UniformTexel, VK_FORMAT_R8_UNORM, 4},
      // A store: imageStore needs a storage texel buffer.
      {"texel-uint-store-overflow", routes::Binding::StorageTexel, VK_FORMAT_R8_UINT, 16},
      // 4 elements of 4 bytes (NUM_RECORDS counts elements on gfx9).
      {"texel-bgra-store", routes::Binding::StorageTexel, VK_FORMAT_B8G8R8A8_UNORM, 16},
      // NUM_RECORDS 16 bytes on gfx8: 16 one-byte and 8 two-byte elements.
      {"texel-norm-store", routes::Binding::StorageTexel, VK_FORMAT_R8_UNORM, 16},
      {"texel-half-store-round", routes::Binding::StorageTexel, VK_FORMAT_R16_SFLOAT, 16},
      // Default memory image: 256 bytes.
      {"ssbo-raw-straddle", routes::Binding::StorageBuffer, VK_FORMAT_UNDEFINED, 256},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.probe);
    const Loaded l = load(row.probe);
    const cases::ProbeCase r = realiseLoaded(l);
    ASSERT_TRUE(r.c.has_value()) << r.reason;
    EXPECT_EQ(r.c->name, std::string("disputed.") + row.probe);
    EXPECT_EQ(r.c->device.binding, row.binding);
    EXPECT_EQ(r.c->device.format, row.format);
    EXPECT_EQ(r.c->device.memory.bytes.size(), row.bytes);
    EXPECT_EQ(r.c->device.memory.base, 0x1000u);
    EXPECT_EQ(r.c->device.inst, l.setup.inst);
    EXPECT_EQ(r.c->device.state.exec, l.setup.state.exec);
  }
}

// One bit of the V# away from what the driver builds leaves the driver's route: the case
// goes to the raw V# route, whole memory image and all.
TEST(ProbeRealise, AnyOtherVSharpGoesToTheRawRoute) {
  Loaded l = load("ssbo-raw-straddle");
  const cases::ProbeCase before = realiseLoaded(l);
  ASSERT_TRUE(before.c.has_value());
  EXPECT_FALSE(before.c->device.rawVsharp);
  const unsigned w3 = l.setup.inst.srsrc + 3u;
  l.setup.state.sgpr[w3] ^= 1u << 12;  // NUM_FORMAT FLOAT (7) -> 6 (CLRX V# table: [14:12])
  const cases::ProbeCase r = realiseLoaded(l);
  ASSERT_TRUE(r.c.has_value()) << r.reason;
  EXPECT_TRUE(r.c->device.rawVsharp);
  EXPECT_EQ(r.c->device.binding, routes::Binding::StorageBuffer);

  Loaded t = load("texel-unorm8-to-float");
  // NUM_RECORDS 300 (bytes on gfx8, STRIDE 1): a view larger than the 256-byte default image.
  t.setup.state.sgpr[t.setup.inst.srsrc + 2u] = 300;
  const cases::ProbeCase rt = realiseLoaded(t);
  ASSERT_TRUE(rt.c.has_value()) << rt.reason;
  EXPECT_TRUE(rt.c->device.rawVsharp);
  EXPECT_EQ(rt.c->device.binding, routes::Binding::UniformTexel);
  EXPECT_EQ(rt.c->device.memory.bytes.size(), t.setup.memory.bytes.size());
}

// An instruction no Vulkan construct emits goes to the binary route when a template hosts its
// form; otherwise the reason says why neither a Vulkan route nor the binary route can.
TEST(ProbeRealise, InstructionsNoVulkanConstructEmitsGoToTheBinaryRoute) {
  Loaded l = load("d16-hi-keeps-low");
  const cases::ProbeCase r = realiseLoaded(l);
  ASSERT_TRUE(r.c.has_value()) << r.reason;
  EXPECT_TRUE(r.c->device.binaryPatch);
  EXPECT_EQ(r.c->device.binding, routes::Binding::StorageBuffer);
  EXPECT_TRUE(r.c->device.lds.empty());
  EXPECT_EQ(r.c->device.inst, l.setup.inst);
  l.setup.state.vgprMut(l.setup.inst.vaddr)[1] = 20;  // the atomic template's access is 8 bytes
  const cases::ProbeCase off = realiseLoaded(l);
  ASSERT_TRUE(off.c.has_value()) << off.reason;
  EXPECT_TRUE(off.c->device.ownProgram);  // gcnprobe's own program takes any VADDR
  EXPECT_NE(off.attempts.back().route, "binary");
  bool binaryWhy = false;
  for (const auto& a : off.attempts)
    binaryWhy = binaryWhy || (a.route == "binary" && !a.taken &&
                              a.why.find("lane 1's VADDR 20") != std::string::npos);
  EXPECT_TRUE(binaryWhy);

  // A V# no driver builds (NUM_FORMAT UINT): the template reads it from a descriptor buffer.
  const cases::ProbeCase tfe = realiseLoaded(load("tfe-load"));
  ASSERT_TRUE(tfe.c.has_value()) << tfe.reason;
  EXPECT_TRUE(tfe.c->device.binaryPatch);
  EXPECT_TRUE(tfe.c->device.rawVsharp);
  EXPECT_FALSE(r.c->device.rawVsharp);  // d16-hi-keeps-low has RADV's SSBO V#

  Loaded s = load("lds-store-m0-high");
  const cases::ProbeCase rs = realiseLoaded(s);
  ASSERT_TRUE(rs.c.has_value()) << rs.reason;
  EXPECT_TRUE(rs.c->device.binaryPatch);
  EXPECT_EQ(rs.c->device.lds.size(), 1024u);
  EXPECT_EQ(rs.c->device.state.m0, 0x10040u);
  s.setup.state.m0 = 0x3f0;  // lane 5 reads 0x3f0 + 20 = 1028..1031
  const cases::ProbeCase past = realiseLoaded(s);
  EXPECT_FALSE(past.c.has_value());
  EXPECT_NE(past.reason.find("lane 5 reads LDS bytes 1028..1031"), std::string::npos)
      << past.reason;
}

// matchPrediction without a device: a lane matches a prediction only with equal bits, an
// undefined register matches anything, changed guard bytes fail the memory of every one.
TEST(ProbeMatch, ComparesBitsLaneByLane) {
  const Loaded l = load("texel-unorm8-to-float");
  const cases::ProbeCase rz = realiseLoaded(l);
  ASSERT_TRUE(rz.c.has_value());
  const judge::Case& c = *rz.c;
  gcn::ExecResult a, b;
  a.written = b.written = c.device.memory;
  for (unsigned lane = 0; lane < gcn::kWaveSize; ++lane) {
    a.lanes[lane].active = b.lanes[lane].active = true;
    a.lanes[lane].vdataCount = b.lanes[lane].vdataCount = 1;
    a.lanes[lane].vdata[0] = 0x3f000000u;
    b.lanes[lane].vdata[0] = 0x3f000001u;
  }
  b.lanes[5].vdata[0].reset();  // the reference claims nothing for lane 5 under B
  routes::DeviceResult dev;
  dev.vdataCount = 1;
  for (auto& v : dev.vdata)
    v[0] = 0x3f000000u;
  dev.memory = c.device.memory.bytes;
  const gcn::Chip& chip = *l.setup.chip;
  cases::PredictionMatch ma = cases::matchPrediction(chip, c, a, dev);
  cases::PredictionMatch mb = cases::matchPrediction(chip, c, b, dev);
  EXPECT_TRUE(ma.all);
  EXPECT_FALSE(mb.all);
  EXPECT_TRUE(ma.lanes[0]);
  EXPECT_FALSE(mb.lanes[0]);
  EXPECT_TRUE(mb.lanes[5]);
  EXPECT_TRUE(ma.memory && mb.memory);

  dev.memory[3] ^= 0xff;  // a byte no prediction wrote
  ma = cases::matchPrediction(chip, c, a, dev);
  EXPECT_FALSE(ma.memory);
  EXPECT_FALSE(ma.all);
  EXPECT_TRUE(ma.lanes[0]);
  dev.memory[3] ^= 0xff;
  dev.changedGuardBytes = {-1};
  ma = cases::matchPrediction(chip, c, a, dev);
  EXPECT_FALSE(ma.memory);
}

// A prediction's image is the whole probe memory; the route binds a prefix of it (a texel
// view is cut to its elements), and only that prefix is compared.
TEST(ProbeMatch, ComparesTheBoundPrefixOfTheImage) {
  const Loaded l = load("texel-oob-dstsel-one");
  const cases::ProbeCase rz = realiseLoaded(l);
  ASSERT_TRUE(rz.c.has_value());
  const judge::Case& c = *rz.c;
  ASSERT_LT(c.device.memory.bytes.size(), l.setup.memory.bytes.size());
  gcn::ExecResult p;
  gcn::MemoryImage image = l.setup.memory;
  image.bytes.back() ^= 0x5a;  // past the view: never bound, never compared
  p.written = image;
  routes::DeviceResult dev;
  dev.memory = c.device.memory.bytes;
  EXPECT_TRUE(cases::matchPrediction(*l.setup.chip, c, p, dev).memory);
  image.bytes.front() ^= 0x5a;  // inside the view
  p.written = image;
  EXPECT_FALSE(cases::matchPrediction(*l.setup.chip, c, p, dev).memory);
}

// Realisable probes whose V# also holds on gfx9 (the portable profile's generation):
// format-x-on-4-components' NUM_RECORDS 32 counts elements there, a 512-byte view larger
// than its 256-byte image, so it drops out; the stride-1 and SSBO probes keep their meaning.
TEST(DisputedSuite, HoldsTheRealisableProbes) {
  const std::vector<judge::Case> cases =
      cases::disputedSuite(gcn::representativeChip(gcn::Gen::Gfx9));
  std::set<std::string> names;
  for (const judge::Case& c : cases) {
    names.insert(c.name);
    EXPECT_EQ(c.suite, "disputed");
  }
  std::set<std::string> driver, raw, binary, program;
  for (const judge::Case& c : cases)
    (c.device.binaryPatch  ? binary
     : c.device.ownProgram ? program
     : c.device.rawVsharp  ? raw
                           : driver)
        .insert(c.name);
  // The probes marked "binary" above; tfe-load, num-records-units-gfx8, tid-with-idxen and
  // add-tid-stride-gfx8 are gfx8 probes whose V#s mean the same on gfx9.
  EXPECT_EQ(binary, (std::set<std::string>{
                        "disputed.add-tid-stride-gfx8", "disputed.d16-hi-keeps-low",
                        "disputed.d16-oob-keep-gfx9", "disputed.index-product",
                        "disputed.swizzle-tid-multidword-gfx9", "disputed.swizzle-without-tid-gfx9",
                        "disputed.tid-with-idxen-gfx9", "disputed.idxen-offset-vs-stride",
                        "disputed.lds-store-m0-high", "disputed.num-records-units-gfx8",
                        "disputed.swizzle-multidword", "disputed.tfe-load",
                        "disputed.tid-with-idxen", "disputed.tid-without-idxen"}));
  const std::set<std::string> want = {
      "disputed.format-xyzw-on-1-component", "disputed.ssbo-raw-straddle",
      "disputed.texel-oob-dstsel-one",       "disputed.texel-uint-store-overflow",
      "disputed.texel-bgra-store",           "disputed.texel-unorm8-to-float",
      "disputed.texel-norm-store",           "disputed.texel-half-store-round"};
  EXPECT_EQ(driver, want);
  // Raw V# cases: the probes marked "raw" above that are not tied to another generation.
  for (const char* name : {"disputed.oob-dstsel-one", "disputed.unorm8-to-float",
                           "disputed.stride-without-idxen", "disputed.offset-carry-gfx9"})
    EXPECT_EQ(raw.count(name), 1u) << name;
  // gcnprobe's own program: the SGPR-SOFFSET probes, VADDRs no lane shader computes, and the
  // probes that name it.
  for (const char* name :
       {"disputed.raw-straddle", "disputed.soffset-overflow-sgpr", "disputed.unaligned-dword",
        "disputed.soffset-excluded-sgpr-gfx9", "disputed.unaligned-straddle-gfx9"})
    EXPECT_EQ(program.count(name), 1u) << name;
  EXPECT_EQ(cases::buildCases("disputed", "", gcn::representativeChip(gcn::Gen::Gfx9)).size(),
            cases.size());
  // On gfx8 the 2-element R32G32B32A32_UINT view of format-x-on-4-components is realisable.
  bool found = false;
  for (const judge::Case& c : cases::disputedSuite(gcn::representativeChip(gcn::Gen::Gfx8)))
    found = found || c.name == "disputed.format-x-on-4-components";
  EXPECT_TRUE(found);
}

std::unique_ptr<vk::Context> openDevice() {
  try {
    return vk::Context::open("");
  } catch (const std::exception&) {
    return nullptr;
  }
}

// texel-unorm8-to-float on the device: docs/platform.md measured that lavapipe converts UNORM8
// as float(c) * float(1/255), i.e. the norm=mulrcp prediction and not the correctly rounded
// one; lanes where both round the same match both.
TEST(ProbeDevice, Unorm8OnLavapipeMatchesMulRcp) {
  auto ctx = openDevice();
  if (!ctx) GTEST_SKIP() << "no Vulkan device";
  if (ctx->info().chip) GTEST_SKIP() << "a GCN device: the lavapipe golden does not apply";
  const Loaded l = load("texel-unorm8-to-float");
  const gcn::probe::Exploration ex = gcn::probe::explore(l.probe, l.setup);
  ASSERT_EQ(ex.predictions.size(), 2u);
  const cases::ProbeCase rz = realiseLoaded(l);
  ASSERT_TRUE(rz.c.has_value()) << rz.reason;
  const routes::DeviceCase& dc = rz.c->device;
  const auto routeList = control::makeRunRoutes(*ctx);
  const routes::RouteChoice choice = routes::chooseRoute(routeList, dc);
  ASSERT_NE(choice.route, nullptr) << choice.reason;
  ASSERT_EQ(choice.route->unsupportedReason(dc), "");
  const routes::DeviceCase* one[] = {&dc};
  const std::vector<routes::DeviceResult> res = choice.route->run(one);
  ASSERT_EQ(res.size(), 1u);
  const cases::PredictionMatch m0 =
      cases::matchPrediction(*l.setup.chip, *rz.c, ex.predictions[0].result, res[0]);
  const cases::PredictionMatch m1 =
      cases::matchPrediction(*l.setup.chip, *rz.c, ex.predictions[1].result, res[0]);
  const bool firstIsExact = ex.predictions[0].policies.get(gcn::PolicyId::NormToFloat) == 0;
  const cases::PredictionMatch& mulrcp = firstIsExact ? m1 : m0;
  const cases::PredictionMatch& exact = firstIsExact ? m0 : m1;
  EXPECT_TRUE(mulrcp.all);
  EXPECT_FALSE(exact.all);
  // Lane 0 reads code 1: 1/255 = 0x3b808081 both ways (no second rounding at this code).
  EXPECT_EQ(res[0].vdata[0][0], 0x3b808081u);
  EXPECT_TRUE(m0.lanes[0] && m1.lanes[0]);
}

// Every case of the disputed suite runs on the device and is judged (portable profile).
TEST(ProbeDevice, DisputedSuiteRuns) {
  auto ctx = openDevice();
  if (!ctx) GTEST_SKIP() << "no Vulkan device";
  run::RunOptions ro;
  ro.profile = judge::resolveProfile("portable", std::nullopt);
  ro.rules.robustBufferAccess2 = ctx->features().robustBufferAccess2;
  const auto routeList = control::makeRunRoutes(*ctx);
  const std::vector<judge::Case> cases = cases::disputedSuite(ro.profile.chip);
  ASSERT_FALSE(cases.empty());
  std::size_t judged = 0;
  std::map<std::string, const judge::Case*> byName;
  for (const judge::Case& c : cases)
    byName[c.name] = &c;
  run::runCases(cases, routeList, ro, [&](const results::CaseResult& r) {
    const routes::DeviceCase& d = byName.at(r.name)->device;
    if (d.rawVsharp && !d.binaryPatch && !d.ownProgram && !ctx->info().chip) {
      // A device whose descriptors are not V#s (lavapipe): the raw V# route refuses.
      EXPECT_EQ(r.verdict, results::Verdict::Unsupported) << r.name;
      EXPECT_NE(r.reason.find("raw V# route: "), std::string::npos) << r.name << ": " << r.reason;
    } else if (d.ownProgram && !ctx->info().chip) {
      // No GCN device to run gcnprobe's own program: the own-program route refuses.
      EXPECT_EQ(r.verdict, results::Verdict::Unsupported) << r.name;
      EXPECT_NE(r.reason.find("own program: "), std::string::npos) << r.name << ": " << r.reason;
      EXPECT_NE(r.reason.find("not a GCN device"), std::string::npos) << r.name << ": " << r.reason;
    } else if (d.binaryPatch && !ctx->info().chip) {
      // No GCN machine code to patch: the binary route refuses.
      EXPECT_EQ(r.verdict, results::Verdict::Unsupported) << r.name;
      EXPECT_NE(r.reason.find("binary route: "), std::string::npos) << r.name << ": " << r.reason;
      EXPECT_NE(r.reason.find("not a GCN device"), std::string::npos) << r.name << ": " << r.reason;
    } else {
      EXPECT_TRUE(r.verdict == results::Verdict::Pass || r.verdict == results::Verdict::Fail)
          << r.name << ": " << r.reason;
    }
    ++judged;
  });
  EXPECT_EQ(judged, cases.size());
}

using gcnprobe::test_support::CliRun;
CliRun runCli(const std::string& args) {
  return gcnprobe::test_support::runGcnprobe(args, gcnprobe::test_support::Stderr::Discard);
}

TEST(ProbeDeviceCli, PrintsTheDeviceResultAndWhatItMatched) {
  if (!openDevice()) GTEST_SKIP() << "no Vulkan device";
  const CliRun r = runCli("probe " + probePath("texel-oob-dstsel-one"));
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("route: texel (uniform-texel, VK_FORMAT_R8_UNORM)"), std::string::npos)
      << r.out;
  // Lane 0 reads code 0 of R8_UNORM: (0, 0, 0, 1) from DST_SEL x001 under every prediction.
  EXPECT_NE(r.out.find(" lane  0 device: v1=0x0 (0) v2=0x0 (0) v3=0x0 (0) v4=0x3f800000 (1)  "
                       "matches A B"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("device matched: "), std::string::npos) << r.out;
  const auto j =
      nlohmann::json::parse(runCli("probe --json " + probePath("texel-oob-dstsel-one")).out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["device"]["run"], true);
  EXPECT_EQ(j[0]["device"]["lanes"].size(), 6u);
  EXPECT_EQ(j[0]["device"]["format"], "VK_FORMAT_R8_UNORM");
  if (!j[0]["device"]["gcn"].get<bool>()) {
    EXPECT_NE(r.out.find("NOT an AMD GCN device"), std::string::npos) << r.out;
  }
}

TEST(ProbeDeviceCli, SaysWhyAProbeIsNotRun) {
  const CliRun r = runCli("probe " + probePath("swizzle-soffset"));
  ASSERT_EQ(r.exit, 0) << r.out;
  // An SGPR SOFFSET is gcnprobe's own program's; lavapipe is no GCN device.
  auto dev = openDevice();
  if (dev && !dev->info().chip) {
    EXPECT_NE(r.out.find("device: not run: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("own program: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("is not a GCN device"), std::string::npos) << r.out;
  }
  // A raw V# case on a device whose descriptors are not V#s: the self-check's reason.
  auto ctx = openDevice();
  if (!ctx || ctx->info().chip) return;
  const CliRun raw = runCli("probe " + probePath("oob-dstsel-one"));
  ASSERT_EQ(raw.exit, 0) << raw.out;
  EXPECT_NE(raw.out.find("raw V# route: " + ctx->info().name +
                         " is not a GCN device: its descriptors are not V#s"),
            std::string::npos)
      << raw.out;
}

// A probe's `route` and `format` lines pick what the device runs, and every route considered is
// listed with why it was passed over. texel-unorm8-to-float's V# is RADV's R8_UNORM view, so
// unpicked the texel route takes it; picked raw, the texel route is passed over for the pick;
// picked R8_UINT (another V#), nothing stands in for the view. Names are checked at their line.
TEST(ProbeRealise, RouteAndFormatLinesPickAndEveryPassedOverRouteSaysWhy) {
  std::ifstream in(probePath("texel-unorm8-to-float"));
  std::stringstream text;
  text << in.rdbuf();
  const auto realiseWith = [&](const std::string& extra) {
    const gcn::probe::Probe probe = gcn::probe::parseProbe(text.str() + extra, "t.probe");
    return cases::probeCase(probe.file, gcn::probe::prepare(probe, {}));
  };
  const auto attempt = [](const cases::ProbeCase& pc, const std::string& route) {
    for (const cases::RouteAttempt& a : pc.attempts)
      if (a.route == route) return a;
    return cases::RouteAttempt{"(none)", false, "not tried"};
  };
  const cases::ProbeCase plain = realiseWith("");
  ASSERT_TRUE(plain.c.has_value()) << plain.reason;
  EXPECT_EQ(plain.c->device.format, VK_FORMAT_R8_UNORM);
  EXPECT_TRUE(attempt(plain, "texel").taken);
  EXPECT_EQ(plain.attempts.size(), 1u);

  const cases::ProbeCase viaRaw = realiseWith("route = raw\n");
  ASSERT_TRUE(viaRaw.c.has_value()) << viaRaw.reason;
  EXPECT_TRUE(viaRaw.c->device.rawVsharp);
  EXPECT_FALSE(attempt(viaRaw, "texel").taken);
  EXPECT_NE(attempt(viaRaw, "texel").why.find("not the probe's route = raw (t.probe:18)"),
            std::string::npos)
      << attempt(viaRaw, "texel").why;
  EXPECT_TRUE(attempt(viaRaw, "raw").taken);

  const cases::ProbeCase same = realiseWith("format = r8_unorm\n");
  ASSERT_TRUE(same.c.has_value()) << same.reason;
  EXPECT_EQ(same.c->device.format, VK_FORMAT_R8_UNORM);
  const cases::ProbeCase other = realiseWith("format = VK_FORMAT_R8_UINT\n");
  EXPECT_FALSE(other.c.has_value());
  EXPECT_NE(other.reason.find("VK_FORMAT_R8_UINT (the probe's format)"), std::string::npos)
      << other.reason;
  EXPECT_FALSE(attempt(other, "raw").taken);
  EXPECT_NE(attempt(other, "raw").why.find("format = VK_FORMAT_R8_UINT (t.probe:18)"),
            std::string::npos)
      << attempt(other, "raw").why;

  // A probe that names the own program passes every other route over, each saying why.
  const cases::ProbeCase straddle = realiseLoaded(load("raw-straddle"));
  ASSERT_TRUE(straddle.c.has_value()) << straddle.reason;
  EXPECT_FALSE(attempt(straddle, "storage").taken);
  EXPECT_NE(attempt(straddle, "storage").why.find("route = program"), std::string::npos)
      << attempt(straddle, "storage").why;
  EXPECT_FALSE(attempt(straddle, "raw").taken);
  EXPECT_TRUE(attempt(straddle, "program").taken);

  // A driver-built route ruled out by the V# alone (ADD_TID_ENABLE) is listed with the reason.
  const cases::ProbeCase tid = realiseLoaded(load("add-tid-stride-gfx8"));
  EXPECT_FALSE(attempt(tid, "storage").taken);
  EXPECT_NE(attempt(tid, "storage").why.find("ADD_TID_ENABLE"), std::string::npos)
      << attempt(tid, "storage").why;

  for (const auto& [extra, reason] : std::vector<std::pair<std::string, std::string>>{
           {"route = texle\n", "unknown route 'texle'"},
           {"format = R8_UNROM\n", "unknown buffer format 'R8_UNROM'"},
           {"route = storage\nformat = R8_UNORM\n", "but the probe's route is storage"}}) {
    try {
      (void)realiseWith(extra);
      ADD_FAILURE() << extra << " accepted";
    } catch (const gcn::Error& e) {
      EXPECT_EQ(e.place().file, "t.probe") << e.what();
      EXPECT_GE(e.place().line, 18) << e.what();
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  }
}

}  // namespace device_test

namespace preferred_test {

using namespace gcnprobe;

// A route that claims the own program's cases or the others, and runs or builds as told.
class StubRoute : public routes::Route {
 public:
  StubRoute(std::string_view name, bool program, std::string unsupported, std::string unbuildable)
      : name_(name),
        program_(program),
        unsupported_(std::move(unsupported)),
        unbuildable_(std::move(unbuildable)) {}
  std::string_view name() const override { return name_; }
  bool handles(const routes::DeviceCase& c) const override { return c.ownProgram == program_; }
  std::string unsupportedReason(const routes::DeviceCase&) const override { return unsupported_; }
  std::string unbuildableReason(const routes::DeviceCase&) const override { return unbuildable_; }
  std::string batchKey(const routes::DeviceCase&) const override { return ""; }
  std::vector<routes::DeviceResult> run(std::span<const routes::DeviceCase* const>) override {
    return {};
  }

 private:
  std::string_view name_;
  bool program_;
  std::string unsupported_, unbuildable_;
};

std::vector<std::unique_ptr<routes::Route>> stubRoutes(std::string programUnsupported,
                                                       std::string programUnbuildable) {
  std::vector<std::unique_ptr<routes::Route>> list;
  list.push_back(std::make_unique<StubRoute>("storage", false, "", ""));
  list.push_back(std::make_unique<StubRoute>("program", true, std::move(programUnsupported),
                                             std::move(programUnbuildable)));
  return list;
}

// `route = program, storage`: each named route is realised; the last is the case's device case
// (what `list`, `export` and every other device take), the first the preferred one, taken
// wherever its route can run (or build, for `isa`); the note says which ran and why.
TEST(PreferredRoute, TheFirstNamedRouteRunsWhereItCanTheLastEverywhereElse) {
  const device_test::Loaded l = device_test::load("ssbo-raw-straddle");
  const cases::ProbeCase pc = device_test::realiseLoaded(l);
  ASSERT_TRUE(pc.c.has_value()) << pc.reason;
  const judge::Case& c = *pc.c;
  EXPECT_FALSE(c.device.ownProgram);
  EXPECT_EQ(c.device.binding, routes::Binding::StorageBuffer);
  ASSERT_EQ(c.preferred.size(), 1u);
  EXPECT_TRUE(c.preferred[0].ownProgram);
  // The same question either way: instruction, V# words, lanes and memory.
  EXPECT_EQ(c.preferred[0].inst.op, c.device.inst.op);
  EXPECT_EQ(gcn::vsharpWords(c.preferred[0].state, c.preferred[0].inst.srsrc),
            gcn::vsharpWords(c.device.state, c.device.inst.srsrc));
  EXPECT_EQ(c.preferred[0].memory.bytes, c.device.memory.bytes);
  unsigned taken = 0;
  for (const cases::RouteAttempt& a : pc.attempts)
    taken += a.taken ? 1u : 0u;
  EXPECT_EQ(taken, 2u) << "program and storage both realised it";

  std::string note;
  // A device that runs the own program.
  const auto runs = stubRoutes("", "");
  judge::Case got = run::withRunnableRoute(c, runs, run::RouteNeed::Run, &note);
  EXPECT_TRUE(got.device.ownProgram);
  EXPECT_TRUE(got.preferred.empty());
  EXPECT_EQ(note, "route program, the case's preferred route; elsewhere route storage");
  // One that builds it but cannot execute (a null device): `isa` takes it, `run` does not.
  const auto buildsOnly = stubRoutes("cannot execute", "");
  got = run::withRunnableRoute(c, buildsOnly, run::RouteNeed::Build, &note);
  EXPECT_TRUE(got.device.ownProgram);
  got = run::withRunnableRoute(c, buildsOnly, run::RouteNeed::Run, &note);
  EXPECT_FALSE(got.device.ownProgram);
  EXPECT_EQ(note, "route storage (route program passed over: cannot execute)");
  // One that cannot even build it (RADV before VK_EXT_descriptor_buffer).
  const auto neither = stubRoutes("no descriptor buffer", "no descriptor buffer");
  got = run::withRunnableRoute(c, neither, run::RouteNeed::Build, &note);
  EXPECT_FALSE(got.device.ownProgram);
  EXPECT_NE(note.find("passed over: no descriptor buffer"), std::string::npos) << note;
  // A case without preferred realisations is left as it is, without a note.
  judge::Case plain = c;
  plain.preferred.clear();
  got = run::withRunnableRoute(plain, runs, run::RouteNeed::Run, &note);
  EXPECT_FALSE(got.device.ownProgram);
  EXPECT_EQ(note, "");
}

// Route lists are checked at their line: an unknown name, a name twice.
TEST(PreferredRoute, ARouteListNamesKnownRoutesOnce) {
  std::ifstream in(device_test::probePath("ssbo-raw-straddle"));
  std::stringstream text;
  text << in.rdbuf();
  std::string body = text.str();
  const std::size_t at = body.find("route = program, storage\n");
  ASSERT_NE(at, std::string::npos);
  const unsigned line = 1 + static_cast<unsigned>(std::count(
                                body.begin(), body.begin() + static_cast<long>(at), '\n'));
  for (const auto& [list, reason] : std::vector<std::pair<std::string, std::string>>{
           {"route = program, storag\n", "unknown route 'storag'"},
           {"route = program,\n", "unknown route ''"},
           {"route = storage , storage\n", "route 'storage' is named twice"}}) {
    std::string edited = body;
    edited.replace(at, std::string("route = program, storage\n").size(), list);
    try {
      const gcn::probe::Probe probe = gcn::probe::parseProbe(edited, "t.probe");
      (void)cases::probeCase(probe.file, gcn::probe::prepare(probe, {}));
      ADD_FAILURE() << list << " accepted";
    } catch (const gcn::Error& e) {
      EXPECT_EQ(e.place().file, "t.probe") << e.what();
      EXPECT_EQ(e.place().line, static_cast<int>(line)) << e.what();
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  }
}

// On lavapipe the storage route runs it, as before the list, and the record says why.
TEST(PreferredRoute, LavapipeRunsTheStorageRouteAndSaysWhy) {
  auto ctx = device_test::openDevice();
  if (!ctx) GTEST_SKIP() << "no Vulkan device";
  if (ctx->info().chip) GTEST_SKIP() << "a GCN device runs the own program";
  run::RunOptions ro;
  ro.profile = judge::resolveProfile("portable", std::nullopt);
  ro.rules.robustBufferAccess2 = ctx->features().robustBufferAccess2;
  const std::vector<judge::Case> cases = cases::disputedSuite(
      ro.profile.chip,
      [](const std::string& name) { return name == "disputed.ssbo-raw-straddle"; });
  ASSERT_EQ(cases.size(), 1u);
  ASSERT_EQ(cases[0].preferred.size(), 1u);
  const auto routeList = control::makeRunRoutes(*ctx);
  std::vector<results::CaseResult> got;
  run::runCases(cases, routeList, ro, [&](const results::CaseResult& r) { got.push_back(r); });
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].verdict, results::Verdict::Pass) << got[0].reason;
  ASSERT_FALSE(got[0].notes.empty());
  EXPECT_EQ(got[0].notes[0].rfind("route storage (route program passed over: ", 0), 0u)
      << got[0].notes[0];
  EXPECT_NE(got[0].notes[0].find("is not a GCN device"), std::string::npos) << got[0].notes[0];
  // `probe --json` says the same: program realised but passed over here, storage taken.
  const auto j = nlohmann::json::parse(
      device_test::runCli("probe --json " + device_test::probePath("ssbo-raw-straddle")).out);
  ASSERT_EQ(j.size(), 1u);
  for (const nlohmann::json& a : j[0]["device"]["routes"]) {
    if (a["route"] == "program") {
      EXPECT_FALSE(a["taken"].get<bool>()) << a.dump();
      EXPECT_NE(a["why"].get<std::string>().find("passed over on this device"), std::string::npos);
    }
    if (a["route"] == "storage") {
      EXPECT_TRUE(a["taken"].get<bool>()) << a.dump();
    }
  }
  EXPECT_EQ(j[0]["device"]["route"], "storage");
}

}  // namespace preferred_test
