// The raw V# route: which probes it takes (a lane shader's instruction form with a V# no
// driver builds), where it puts a case's memory (the reference's reach plus guard bands),
// that only BASE changes in the V# it writes, that a device whose descriptors are not V#s
// refuses it with the self-check's reason, and that on RADV's null device the descriptor-buffer
// pipeline holds the probe's instruction on the probe's buffer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>

#include "harness/cases/suite.h"
#include "harness/routes/raw.h"
#include "harness/vulkan/buffer.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/driver.h"
#include "probe/probe_eval.h"
#include "probe/probe_file.h"
#include "reference/error.h"
#include "reference/opcodes.h"
#include "reference/reach.h"
#include "reference/resource.h"
#include "tests/support/cli.h"
#include "tests/support/radv.h"

namespace gcnprobe {
namespace raw_route_test {

using routes::DeviceCase;

cases::ProbeCase caseOf(const std::string& text) {
  const gcn::probe::Probe probe = gcn::probe::parseProbe(text, "t.probe");
  const gcn::probe::ProbeSetup setup = gcn::probe::prepare(probe, {});
  return cases::probeCase("t.probe", setup);
}

// A swizzled V# (SWIZZLE_ENABLE, INDEX_STRIDE code 1 = 16, ELEMENT_SIZE code 1 = 4 bytes) under an
// SSBO-shaped dword load: no driver builds that V#, the instruction is the storage shader's.
const char* kSwizzledOffen =
    "gen = gfx8\n"
    "inst = buffer_load_dword v1, v0, s[4:7], 0 offen\n"
    "vsharp = base=0x1000 stride=16 num_records=256 swizzle_enable=1 index_stride=1 "
    "element_size=1 dfmt=32 nfmt=uint\n"
    "lanes = 4\n"
    "v0 = lane * 4\n"
    "mem @0 u32 x64 = i\n";

TEST(RawRoute, AVSharpNoDriverBuildsGoesRawWhenTheFormIsAShaders) {
  const cases::ProbeCase pc = caseOf(kSwizzledOffen);
  ASSERT_TRUE(pc.c.has_value()) << pc.reason;
  EXPECT_TRUE(pc.c->device.rawVsharp);
  EXPECT_EQ(pc.c->device.binding, routes::Binding::StorageBuffer);
  EXPECT_EQ(routes::rawVariant(pc.c->device), "storage_load_dword");
}

TEST(RawRoute, ADriverBuiltVSharpStaysOnItsRoute) {
  // RADV's SSBO V#: STRIDE 0, NUM_RECORDS a multiple of 4, DST_SEL xyzw, 32 FLOAT.
  const cases::ProbeCase pc = caseOf(
      "gen = gfx8\n"
      "inst = buffer_load_dword v1, v0, s[4:7], 0 offen\n"
      "vsharp = base=0x1000 stride=0 num_records=256 dst_sel=xyzw dfmt=32 nfmt=float\n"
      "lanes = 4\n"
      "v0 = lane * 4\n"
      "memory size = 256\n");
  ASSERT_TRUE(pc.c.has_value()) << pc.reason;
  EXPECT_FALSE(pc.c->device.rawVsharp);
}

TEST(RawRoute, AFormNoLaneShaderHasGoesToTheBinaryRouteOrNamesEveryReason) {
  // A typed load with IDXEN: ACO addresses SSBOs with OFFEN only, so no lane shader has it;
  // the binary route's IDXEN template does, the V# through a descriptor buffer.
  const std::string idxen =
      "gen = gfx8\n"
      "inst = buffer_load_dword v1, v0, s[4:7], 0 idxen\n"
      "vsharp = base=0x1000 stride=16 num_records=16 swizzle_enable=1 index_stride=1 "
      "element_size=1 dfmt=32 nfmt=uint\n"
      "lanes = 2\n"
      "v0 = lane\n";
  const cases::ProbeCase pc = caseOf(idxen);
  ASSERT_TRUE(pc.c.has_value()) << pc.reason;
  EXPECT_TRUE(pc.c->device.binaryPatch);
  EXPECT_TRUE(pc.c->device.rawVsharp);
  EXPECT_EQ(pc.c->device.binding, routes::Binding::StorageTexel);
  // IDXEN and OFFEN together (two VADDR registers): no route, each one's reason named.
  std::string both = idxen;
  both.replace(both.find("0 idxen"), 7, "0 idxen offen");
  both.replace(both.find("v1, v0,"), 7, "v1, v[2:3],");
  const cases::ProbeCase none = caseOf(both);
  ASSERT_FALSE(none.c.has_value());
  EXPECT_NE(none.reason.find("SWIZZLE_ENABLE"), std::string::npos) << none.reason;
  EXPECT_NE(none.reason.find("raw V# route: an SSBO access is OFFEN without IDXEN"),
            std::string::npos)
      << none.reason;
  EXPECT_NE(none.reason.find("binary route: the templates address with one VADDR register"),
            std::string::npos)
      << none.reason;
}

// The SOFFSET form: an SGPR SOFFSET with no VADDR is a dword load the push-constant shader
// produces; an SGPR SOFFSET beside OFFEN (or on a store) is no shader's form.
TEST(RawRoute, AnSgprSoffsetTakesTheSoffsetFormOnly) {
  // Left to choose, an SGPR SOFFSET goes to gcnprobe's own program, which proves its value;
  // `route = raw` asks for the raw route's SOFFSET form.
  const cases::ProbeCase own = caseOf(
      "gen = gfx8\n"
      "inst = buffer_load_dwordx2 v[1:2], off, s[4:7], s8\n"
      "vsharp = base=0x1000 num_records=0x40 dfmt=32 nfmt=uint\n"
      "s8 = 0x100\n"
      "lanes = 2\n"
      "memory size = 0x200\n");
  ASSERT_TRUE(own.c.has_value()) << own.reason;
  EXPECT_TRUE(own.c->device.ownProgram);
  const cases::ProbeCase pc = caseOf(
      "gen = gfx8\n"
      "route = raw\n"
      "inst = buffer_load_dwordx2 v[1:2], off, s[4:7], s8\n"
      "vsharp = base=0x1000 num_records=0x40 dfmt=32 nfmt=uint\n"
      "s8 = 0x100\n"
      "lanes = 2\n"
      "memory size = 0x200\n");
  ASSERT_TRUE(pc.c.has_value()) << pc.reason;
  EXPECT_TRUE(pc.c->device.rawVsharp);
  EXPECT_EQ(pc.c->device.binding, routes::Binding::StorageBuffer);
  EXPECT_EQ(routes::rawVariant(pc.c->device), "storage_soffset_load_dwordx2");
  for (const char* inst :
       {"buffer_load_dword v1, v0, s[4:7], s8 offen", "buffer_store_dword v1, off, s[4:7], s8"}) {
    SCOPED_TRACE(inst);
    const cases::ProbeCase no = caseOf(std::string("gen = gfx8\nroute = raw\ninst = ") + inst +
                                       "\nvsharp = base=0x1000 num_records=0x40 dfmt=32 nfmt=uint\n"
                                       "s8 = 4\nlanes = 2\nmemory size = 0x200\n");
    ASSERT_FALSE(no.c.has_value());
    EXPECT_NE(no.reason.find("an SGPR SOFFSET comes only from the SOFFSET form"), std::string::npos)
        << no.reason;
  }
}

// A cache instruction (BUFFER_WBINVL1) has no data access, so no lane shader's form: the raw
// route refuses it by name, whatever binding the case has.
TEST(RawRoute, ACacheInstructionHasNoLaneShaderForm) {
  for (routes::Binding b : {routes::Binding::UniformTexel, routes::Binding::StorageBuffer}) {
    DeviceCase c;
    c.inst.op = &gcn::requireOpcode("buffer_wbinvl1");
    c.binding = b;
    c.rawVsharp = true;
    EXPECT_EQ(routes::rawFormProblem(c),
              "buffer_wbinvl1 has no data access: no lane shader emits it");
  }
}

// The placement covers the memory image and every byte of the reach (computed here from the
// executor's accesses under the default policies, a subset of the reach) with guard bands,
// from a 256-byte aligned origin.
TEST(RawRoute, PlacementCoversTheImageAndTheReachWithGuards) {
  const cases::ProbeCase pc = caseOf(kSwizzledOffen);
  ASSERT_TRUE(pc.c.has_value());
  const DeviceCase& c = pc.c->device;
  const gcn::Chip& chip = gcn::representativeChip(gcn::Gen::Gfx8);
  const routes::RawPlacement p = routes::placeRawCase(chip, c, 256);
  EXPECT_EQ(p.origin % 256, 0u);
  EXPECT_LE(p.origin + 256, c.memory.base);
  EXPECT_GE(p.origin + p.bytes, c.memory.base + c.memory.bytes.size() + 256);
  const gcn::ExecResult e =
      gcn::execute(chip, c.inst, c.state, c.memory, {}, gcn::Policies::defaults(gcn::Gen::Gfx8));
  for (unsigned l = 0; l < 4; ++l)
    for (const gcn::LaneAccess& a : e.lanes[l].accesses) {
      if (!a.inRange) continue;
      EXPECT_GE(a.address, p.origin + 256) << "lane " << l;
      EXPECT_LE(a.address + a.size + 256, p.origin + p.bytes) << "lane " << l;
    }
}

TEST(RawRoute, AReachOverTheBoundIsRefusedWithTheNumbers) {
  // Index 0x100000 * STRIDE 64 with NUM_RECORDS 0xffffffff: lane 1 reads 64 MiB past lane 0.
  // The routes that place a raw V# refuse it when the probe is realised, with the numbers.
  const cases::ProbeCase pc = caseOf(
      "gen = gfx8\n"
      "inst = buffer_load_format_x v1, v0, s[4:7], 0 idxen\n"
      "vsharp = base=0x1000 stride=64 num_records=0xffffffff add_tid_enable=1 dfmt=32 "
      "nfmt=uint\n"
      "lanes = 2\n"
      "v0 = lane * 0x100000\n");
  EXPECT_FALSE(pc.c.has_value());
  EXPECT_NE(pc.reason.find("raw V# route: reach from "), std::string::npos) << pc.reason;
  EXPECT_NE(pc.reason.find(std::to_string(gcn::kMaxReachSpanBytes)), std::string::npos)
      << pc.reason;
}

// index-product on gfx9: index 0x10000000 * STRIDE 16 = 2^32 reaches the image under a 32-bit
// product and 4 GiB past it under a 64-bit one; the far region there gets its own buffer at
// that distance, each buffer holding its accesses with the guard bytes on both sides. On gfx8
// (the 32-bit product only) the far region is out of reach and stays off the device.
const char* kIndexProduct =
    "gen = gfx9\n"
    "inst = buffer_load_dword v1, v0, s[4:7], 0 idxen\n"
    "vsharp = base=0x1000 stride=16 num_records=0xffffffff dfmt=32 nfmt=uint\n"
    "lanes = 2\n"
    "v0 = 0x10000000 + lane\n"
    "mem @0 u32 x8 = i\n"
    "far @0x100000000 = 256\n"
    "mem @0x100000000 u32 x8 = 0xf0000000 + i\n";

TEST(RawRoute, AFarRegionTheReachTouchesGetsItsOwnBufferAtItsDistance) {
  const cases::ProbeCase pc = caseOf(kIndexProduct);
  ASSERT_TRUE(pc.c.has_value()) << pc.reason;
  const DeviceCase& c = pc.c->device;
  const gcn::Chip& chip = gcn::representativeChip(gcn::Gen::Gfx9);
  const routes::RawPlacement p = routes::placeRawCase(chip, c, 256);
  ASSERT_EQ(p.far.size(), 1u);
  EXPECT_EQ(p.far[0].region, 0u);
  // Both buffers are small: the 4 GiB between them is not memory.
  EXPECT_LT(p.bytes, 4096u);
  EXPECT_LT(p.far[0].bytes, 4096u);
  EXPECT_EQ(p.far[0].origin % 256, 0u);
  const auto inside = [&](uint64_t a, unsigned size) {
    const bool first = a >= p.origin + 256 && a + size + 256 <= p.origin + p.bytes;
    const bool far =
        a >= p.far[0].origin + 256 && a + size + 256 <= p.far[0].origin + p.far[0].bytes;
    return first || far;
  };
  for (const char* product : {"index-product=trunc32", "index-product=wide64"}) {
    gcn::Policies pol = gcn::Policies::defaults(gcn::Gen::Gfx9);
    pol.set(product);
    const gcn::ExecResult e = gcn::execute(chip, c.inst, c.state, c.memory, {}, pol);
    for (unsigned l = 0; l < 2; ++l)
      for (const gcn::LaneAccess& a : e.lanes[l].accesses) {
        EXPECT_TRUE(a.inRange);
        EXPECT_TRUE(a.mapped) << product << " lane " << l;
        EXPECT_TRUE(inside(a.address, a.size)) << product << " lane " << l << " at " << a.address;
      }
    // The two readings differ: lane 0 gets word 0 of the image or of the far region.
    EXPECT_EQ(e.lanes[0].vdata[0],
              std::string(product) == "index-product=trunc32" ? 0u : 0xf0000000u);
  }
  EXPECT_GE(c.memory.far[0].base, p.far[0].origin + 256);
  EXPECT_LE(c.memory.far[0].base + 256 + 256, p.far[0].origin + p.far[0].bytes);

  gcn::probe::EvalOptions gfx8;
  gfx8.gen = "gfx8";
  const gcn::probe::Probe probe = gcn::probe::parseProbe(kIndexProduct, "t.probe");
  const cases::ProbeCase on8 = cases::probeCase("t.probe", gcn::probe::prepare(probe, gfx8));
  ASSERT_TRUE(on8.c.has_value()) << on8.reason;
  EXPECT_TRUE(routes::placeRawCase(gcn::representativeChip(gcn::Gen::Gfx8), on8.c->device, 256)
                  .far.empty());
}

// A far region close enough that its buffer would overlap the image's is refused (make one
// image), and a reach near no region is over the bound as before.
TEST(RawRoute, FarBuffersNeverOverlapAndAReachNearNoRegionIsRefused) {
  std::string close = kIndexProduct;
  close.replace(close.find("far @0x100000000"), 16, "far @0x200");
  close.replace(close.find("mem @0x100000000"), 16, "mem @0x200");
  close.replace(close.find("v0 = 0x10000000 + lane"), 22, "v0 = 0x20 + lane");
  // The routes that place far regions refuse it at realisation, with the placement's reason.
  const cases::ProbeCase pc = caseOf(close);
  EXPECT_FALSE(pc.c.has_value());
  EXPECT_NE(pc.reason.find("make them one region"), std::string::npos) << pc.reason;
  std::string nowhere = kIndexProduct;
  nowhere.replace(nowhere.find("far @0x100000000"), 16, "far @0x300000000");
  nowhere.replace(nowhere.find("mem @0x100000000"), 16, "mem @0x300000000");
  const cases::ProbeCase far = caseOf(nowhere);
  EXPECT_FALSE(far.c.has_value());
  EXPECT_NE(far.reason.find("the reach and the memory image together span"), std::string::npos)
      << far.reason;
}

// Each reach range goes to the region nearest to it: two far regions 1 MiB apart each get a
// buffer holding their own region, and a read inside the image stays with the image although a
// far region lies within 16 MiB. Far buffers sit a multiple of 64 KiB from the first (pages).
TEST(RawRoute, ReachRangesGoToTheNearestRegionAndFarBuffersArePageDistant) {
  const cases::ProbeCase two = caseOf(
      "gen = gfx9\n"
      "inst = buffer_load_dword v1, v0, s[4:7], 0 idxen\n"
      "vsharp = base=0x1000 stride=16 num_records=0xffffffff dfmt=32 nfmt=uint\n"
      "lanes = 2\n"
      "v0 = 0x10000000, 0x10010000\n"
      "far @0x100000000 = 256\n"
      "far @0x100100000 = 256\n");
  ASSERT_TRUE(two.c.has_value()) << two.reason;
  const gcn::Chip& chip = gcn::representativeChip(gcn::Gen::Gfx9);
  const routes::RawPlacement p = routes::placeRawCase(chip, two.c->device, 256);
  ASSERT_EQ(p.far.size(), 2u);
  for (const routes::RawPlacement::Far& f : p.far) {
    const gcn::MemoryRegion& r = two.c->device.memory.far[f.region];
    EXPECT_LE(f.origin + 256, r.base);
    EXPECT_GE(f.origin + f.bytes, r.base + r.bytes.size() + 256);
    EXPECT_LT(f.bytes, 1u << 20) << "one buffer stretched over both regions";
    EXPECT_EQ((f.origin - p.origin) % (64u << 10), 0u);
  }
  EXPECT_NE(p.far[0].region, p.far[1].region);

  const cases::ProbeCase near = caseOf(
      "gen = gfx9\n"
      "inst = buffer_load_dword v1, v0, s[4:7], 0 offen\n"
      "vsharp = base=0x1000 stride=16 num_records=0xffffffff dfmt=32 nfmt=uint\n"
      "lanes = 2\n"
      "v0 = 0, 0x100000\n"
      "far @0x100000 = 256\n");
  ASSERT_TRUE(near.c.has_value()) << near.reason;
  const routes::RawPlacement q = routes::placeRawCase(chip, near.c->device, 256);
  ASSERT_EQ(q.far.size(), 1u);
  EXPECT_LT(q.bytes, 4096u) << "the image's buffer holds lane 0's read only";
}

// An atomic that reaches a far region is refused: the judge of atomic orders reads the image.
TEST(RawRoute, AnAtomicIntoAFarRegionIsRefused) {
  const cases::ProbeCase pc = caseOf(
      "gen = gfx9\n"
      "inst = buffer_atomic_swap v1, v0, s[4:7], 0 offen glc\n"
      "vsharp = base=0x1000 stride=16 num_records=0xffffffff dfmt=32 nfmt=uint\n"
      "lanes = 2\n"
      "v0 = 0x80000000\n"
      "far @0x80000000 = 256\n");
  EXPECT_FALSE(pc.c.has_value());
  EXPECT_NE(pc.reason.find("the judge of atomic orders does not read"), std::string::npos)
      << pc.reason;
}

// A buffer at a chosen device address needs bufferDeviceAddressCaptureReplay (lavapipe has
// none): the refusal names the device and the feature, and nothing is left allocated.
TEST(RawRoute, ABufferAtAChosenAddressNeedsCaptureReplay) {
  std::unique_ptr<vk::Context> ctx;
  try {
    ctx = vk::Context::open("", false, /*descriptorBuffer=*/true);
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no Vulkan device: " << e.what();
  }
  if (!ctx->features().bufferDeviceAddress) GTEST_SKIP() << "no bufferDeviceAddress";
  if (ctx->features().bufferDeviceAddressCaptureReplay)
    GTEST_SKIP() << ctx->info().name << " has bufferDeviceAddressCaptureReplay";
  constexpr VkBufferUsageFlags kUsage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  try {
    vk::HostBuffer b(*ctx, 256, kUsage, VkDeviceAddress{0x100000000});
    FAIL() << "placed at a chosen address without capture replay";
  } catch (const gcn::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(ctx->info().name), std::string::npos) << what;
    EXPECT_NE(what.find("bufferDeviceAddressCaptureReplay"), std::string::npos) << what;
  }
  // The plain constructor still works on the same device.
  vk::HostBuffer plain(*ctx, 256, kUsage);
  EXPECT_NE(plain.deviceAddress(), 0u);
}

// Only BASE moves: every other bit of the 128, reserved ones included, is the case's.
TEST(RawRoute, RebasingChangesOnlyTheBase) {
  std::mt19937 gen32(7);
  const auto rng = [&] { return static_cast<uint32_t>(gen32()); };
  for (gcn::Gen gen : {gcn::Gen::Gfx6, gcn::Gen::Gfx7, gcn::Gen::Gfx8, gcn::Gen::Gfx9}) {
    for (int k = 0; k < 200; ++k) {
      DeviceCase c;
      c.inst.srsrc = 4;
      const std::array<uint32_t, 4> words{rng(), rng(), rng(), rng()};
      gcn::setVsharpWords(c.state, 4, words);
      const uint64_t oldBase = words[0] | (uint64_t{words[1] & 0xffffu} << 32);
      const uint64_t origin = oldBase & ~uint64_t{0xff};
      const std::array<uint32_t, 4> out = routes::rebasedVSharp(gen, c, origin, 0x7f0000000000);
      EXPECT_EQ(out[1] & 0xffff0000u, words[1] & 0xffff0000u);
      EXPECT_EQ(out[2], words[2]);
      EXPECT_EQ(out[3], words[3]);
      const uint64_t newBase = out[0] | (uint64_t{out[1] & 0xffffu} << 32);
      EXPECT_EQ(newBase, 0x7f0000000000 + (oldBase - origin));
    }
  }
}

// lavapipe (Mesa 22.3 and 25) has no V# descriptors: every raw case is refused with the
// self-check's reason, and no other route claims it.
TEST(RawRoute, ADeviceWhoseDescriptorsAreNotVSharpsRefusesIt) {
  std::unique_ptr<vk::Context> ctx;
  try {
    ctx = vk::Context::open("", false, true);
  } catch (const gcn::Error& e) {
    GTEST_SKIP() << e.what();
  }
  if (ctx->info().chip) GTEST_SKIP() << "a GCN device: the raw route may run here";
  const cases::ProbeCase pc = caseOf(kSwizzledOffen);
  ASSERT_TRUE(pc.c.has_value());
  const auto route = routes::makeRawRoute(*ctx);
  ASSERT_TRUE(route->handles(pc.c->device));
  const std::string why = route->unsupportedReason(pc.c->device);
  EXPECT_EQ(why.rfind("raw V# route: ", 0), 0u) << why;
  EXPECT_NE(why.find("is not a GCN device: its descriptors are not V#s"), std::string::npos) << why;
}

// RADV's null device builds the descriptor-buffer pipeline, and the ISA check finds the
// probe's instruction on set 0 binding 0 (the descriptor-buffer slot of the case's V#), for
// shipped probes whose V#s no driver builds. gfx8 and gfx9: Mesa 25 prints their Assembly
// itself. Mesa 22.3 has no VK_EXT_descriptor_buffer and says so.
TEST(RawRoute, TheNullDeviceProvesTheInstructionOnTheDescriptorBufferSlot) {
  if (const auto why = test_support::radvMissing()) GTEST_SKIP() << *why;
  const std::string probes = std::string(GCNPROBE_SOURCE_DIR) + "/probes/";
  for (const auto& [chip, gen] : {std::pair{"tonga", "gfx8"}, std::pair{"vega10", "gfx9"}}) {
    SCOPED_TRACE(chip);
    const auto r = test_support::runGcnprobe(
        std::string("--radv-null ") + chip + " probe --json --gen " + gen + " " + probes +
            "oob-dstsel-one.probe " + probes + "stride-without-idxen.probe " + probes +
            "uint-store-overflow.probe " + probes + "soffset-overflow-sgpr.probe " + probes +
            "nan-widen-half.probe" +
            // ELEMENT_SIZE is no V# field on gfx9 (fixed at 4 bytes).
            (std::string(gen) == "gfx8" ? " " + probes + "swizzle-soffset-sgpr.probe" : ""),
        test_support::Stderr::Discard);
    ASSERT_EQ(r.exit, 0) << r.out;
    const auto doc = nlohmann::json::parse(r.out);
    const auto& list = doc.is_array() ? doc : doc.at("probes");
    ASSERT_EQ(list.size(), std::string(gen) == "gfx8" ? 6u : 5u);
    for (const auto& p : list) {
      const auto& d = p.at("device");
      SCOPED_TRACE(p.at("file").template get<std::string>());
      if (d.at("reason").template get<std::string>().find("has no VK_EXT_descriptor_buffer") !=
          std::string::npos) {
        EXPECT_NE(d.at("reason").template get<std::string>().find("Mesa 22."), std::string::npos);
        continue;
      }
      // The SGPR-SOFFSET probes go to gcnprobe's own program, which builds and proves its
      // pipeline before saying it cannot run; the others to the raw route.
      if (p.at("file").template get<std::string>().find("soffset") != std::string::npos) {
        EXPECT_EQ(d.at("route"), "program") << d.dump();
        EXPECT_EQ(d.at("run"), false);
        EXPECT_NE(
            d.at("reason").template get<std::string>().find("the program was built and proven"),
            std::string::npos)
            << d.dump();
        continue;
      }
      EXPECT_EQ(d.at("route"), "raw") << d.dump();
      EXPECT_EQ(d.at("run"), false);
      EXPECT_EQ(d.at("isa_check"), "verified") << d.dump();
      EXPECT_NE(d.at("reason").template get<std::string>().find("execution needs hardware"),
                std::string::npos);
      bool onSlot = false;
      for (const auto& line : d.at("isa_lines"))
        onSlot =
            onSlot || line.template get<std::string>().find("set 0 binding 0") != std::string::npos;
      EXPECT_TRUE(onSlot) << d.dump();
    }
  }
}

// On gfx6/7 ACO needs clrxdisasm for its Assembly text: `probe` on the null device puts the
// stand-in on PATH (app/clrx_dir.h), so the ISA check has text to read. There ACO keeps a
// uniform SSBO offset in VADDR (no SGPR SOFFSET on gfx6/7): the SOFFSET form is a route-miss
// naming the OFFEN load it did emit, while a texel probe is verified.
TEST(RawRoute, OnTheGfx6NullDeviceTheSoffsetFormIsARouteMissAndATexelProbeIsVerified) {
  if (const auto why = test_support::radvMissing()) GTEST_SKIP() << *why;
  const std::string probes = std::string(GCNPROBE_SOURCE_DIR) + "/probes/";
  // The probe pinned to the raw route (left to choose, gcnprobe's own program takes it).
  const std::filesystem::path pinned =
      std::filesystem::path(::testing::TempDir()) / "soffset-overflow-sgpr-raw.probe";
  {
    std::ifstream in(probes + "soffset-overflow-sgpr.probe");
    std::ofstream out(pinned);
    out << in.rdbuf() << "route = raw\n";
  }
  const auto r =
      test_support::runGcnprobe("--radv-null tahiti probe --json --gen gfx6 " + pinned.string() +
                                    " " + probes + "nan-widen-half.probe",
                                test_support::Stderr::Discard);
  const auto doc = nlohmann::json::parse(r.out);
  const auto& list = doc.is_array() ? doc : doc.at("probes");
  ASSERT_EQ(list.size(), 2u);
  const auto& soffset = list[0].at("device");
  if (soffset.at("reason").template get<std::string>().find("has no VK_EXT_descriptor_buffer") !=
      std::string::npos)
    GTEST_SKIP() << "Mesa 22.3: no descriptor buffers";
  EXPECT_EQ(soffset.at("isa_check"), "route-miss") << soffset.dump();
  EXPECT_NE(soffset.at("isa_reason").template get<std::string>().find(" offen ; "),
            std::string::npos)
      << soffset.dump();
  EXPECT_EQ(list[1].at("device").at("isa_check"), "verified") << list[1].dump();
}

}  // namespace raw_route_test
}  // namespace gcnprobe
