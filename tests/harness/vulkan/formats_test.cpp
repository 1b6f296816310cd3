// The VkFormat -> V# table. Golden values with their sources:
// - DATA_FORMAT codes: CLRX GcnMemHandling / reference/format.h (8_8_8_8 = 10, 2_10_10_10 = 9 per
//   docs/gcn-facts.md, 10_11_11 = 6, 32_32_32 = 13); NUM_FORMAT UNORM = 0, FLOAT = 7;
//   DST_SEL codes X..W = 4..7, 0 = 0, 1 = 1 (CLRX GcnMemHandling).
// - RADV's choices (radv_formats.c, radv_make_texel_buffer_descriptor): BGRA swaps through
//   DST_SEL (zyxw); one-channel formats read x,0,0,1; NUM_RECORDS in bytes on GFX8 and in
//   elements elsewhere (docs/gcn-facts.md).
// - Device counts: docs/platform.md (lavapipe 87 uniform / 44 storage / 108 vertex over all core
//   formats; RADV 52 / 77 / 107), measured independently of this table.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "harness/formats.h"
#include "harness/vsharp_selfcheck.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/driver.h"
#include "reference/error.h"
#include "reference/format.h"
#include "tests/support/cli.h"
#include "tests/support/radv.h"

namespace formats_test {

using gcn::Dfmt;
using gcn::DstSel;
using gcn::Nfmt;
using gcnprobe::vk::BufferFormat;
using gcnprobe::vk::findBufferFormat;

const BufferFormat& row(VkFormat f) {
  const BufferFormat* r = findBufferFormat(f);
  if (r == nullptr) throw std::runtime_error("format missing from the table");
  return *r;
}

TEST(BufferFormats, FactsFromTheSeedsAndRadv) {
  const auto& rgba = row(VK_FORMAT_R8G8B8A8_UNORM);
  EXPECT_EQ(static_cast<int>(rgba.dfmt), 10);
  EXPECT_EQ(static_cast<int>(rgba.nfmt), 0);
  EXPECT_EQ(rgba.dstSel, (std::array<DstSel, 4>{DstSel::X, DstSel::Y, DstSel::Z, DstSel::W}));
  EXPECT_EQ(rgba.stride, 4);
  EXPECT_EQ(rgba.name, "VK_FORMAT_R8G8B8A8_UNORM");

  const auto& bgra = row(VK_FORMAT_B8G8R8A8_UNORM);
  EXPECT_EQ(static_cast<int>(bgra.dfmt), 10);
  EXPECT_EQ(bgra.dstSel, (std::array<DstSel, 4>{DstSel::Z, DstSel::Y, DstSel::X, DstSel::W}));

  EXPECT_EQ(static_cast<int>(row(VK_FORMAT_A2B10G10R10_UNORM_PACK32).dfmt), 9);
  EXPECT_EQ(row(VK_FORMAT_A2R10G10B10_UNORM_PACK32).dstSel,
            (std::array<DstSel, 4>{DstSel::Z, DstSel::Y, DstSel::X, DstSel::W}));

  const auto& b10 = row(VK_FORMAT_B10G11R11_UFLOAT_PACK32);
  EXPECT_EQ(static_cast<int>(b10.dfmt), 6);
  EXPECT_EQ(static_cast<int>(b10.nfmt), 7);

  const auto& r8 = row(VK_FORMAT_R8_UNORM);
  EXPECT_EQ(static_cast<int>(r8.dfmt), 1);
  EXPECT_EQ(r8.dstSel, (std::array<DstSel, 4>{DstSel::X, DstSel::Zero, DstSel::Zero, DstSel::One}));

  const auto& rgb32 = row(VK_FORMAT_R32G32B32_SFLOAT);
  EXPECT_EQ(static_cast<int>(rgb32.dfmt), 13);
  EXPECT_EQ(rgb32.stride, 12);
  EXPECT_EQ(rgb32.nfmt, Nfmt::Float);

  EXPECT_EQ(row(VK_FORMAT_R16G16_SSCALED).nfmt, Nfmt::Sscaled);
  EXPECT_EQ(row(VK_FORMAT_R32_UINT).nfmt, Nfmt::Uint);

  // 3-channel 8/16-bit formats: no texel-buffer format on RADV (docs/gcn-facts.md).
  for (VkFormat f : {VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_B8G8R8_UINT, VK_FORMAT_R16G16B16_SFLOAT}) {
    EXPECT_FALSE(row(f).texel);
    EXPECT_EQ(row(f).dfmt, Dfmt::Invalid);
    EXPECT_FALSE(row(f).note.empty());
  }
  EXPECT_EQ(findBufferFormat(VK_FORMAT_R5G6B5_UNORM_PACK16), nullptr);  // not a GCN buffer format
}

TEST(BufferFormats, TableProperties) {
  std::set<int> seen;
  for (const BufferFormat& f : gcnprobe::vk::allBufferFormats()) {
    EXPECT_TRUE(seen.insert(static_cast<int>(f.vk)).second) << f.name;
    EXPECT_EQ(f.name.rfind("VK_FORMAT_", 0), 0u) << f.name;
    EXPECT_EQ(&gcnprobe::vk::parseBufferFormat(f.name), &f);
    // Where RADV has a data format, its element size is the view's stride: the V# STRIDE
    // and the format agree (CLRX GcnMemHandling component widths), except 64-bit integers read as
    // 32_32 (8 bytes either way).
    if (f.dfmt != Dfmt::Invalid) {
      EXPECT_EQ(gcn::dfmtInfo(f.dfmt).bytes, f.stride) << f.name;
    } else {
      EXPECT_FALSE(f.texel) << f.name;
    }
  }
  // Every format RADV 22.3 gives a buffer feature lies in VkFormat 9..122 (measured on the
  // null device; only R8G8B8_SRGB and B8G8R8_SRGB in that span have none): the table holds
  // all 114, so `formats` shows each device's support for the whole span. Mesa 25 adds six
  // outside it (lavapipe 25's texel-buffer formats): R10X6_UNORM_PACK16 (1000156007),
  // R10X6G10X6_UNORM_2PACK16 (1000156008), R12X4_UNORM_PACK16 (1000156017),
  // R12X4G12X4_UNORM_2PACK16 (1000156018), A1B5G5R5_UNORM_PACK16_KHR (1000470000) and
  // A8_UNORM_KHR (1000470001), values from the Vulkan registry (vk.xml).
  int core = 0;
  for (int v : seen)
    core += v >= 9 && v <= 122;
  EXPECT_EQ(core, 114);
  EXPECT_EQ(*seen.begin(), 9);
  EXPECT_EQ(seen.size(), 120u);
  for (int v : {1000156007, 1000156008, 1000156017, 1000156018, 1000470000, 1000470001})
    EXPECT_TRUE(seen.count(v)) << v;
  EXPECT_EQ(gcnprobe::vk::parseBufferFormat("r8g8b8a8_unorm").vk, VK_FORMAT_R8G8B8A8_UNORM);
  EXPECT_THROW(gcnprobe::vk::parseBufferFormat("VK_FORMAT_R5G6B5_UNORM_PACK16"), gcn::Error);
  EXPECT_THROW(gcnprobe::vk::parseBufferFormat("rgba8"), gcn::Error);
}

TEST(BufferFormats, TexelBufferVSharp) {
  // 100 elements of R16G16_UINT (4 bytes): NUM_RECORDS = 400 bytes on GFX8, 100 elsewhere.
  EXPECT_EQ(gcnprobe::vk::texelBufferNumRecords(gcn::Gen::Gfx8, 100, 4), 400u);
  for (gcn::Gen g : {gcn::Gen::Gfx6, gcn::Gen::Gfx7, gcn::Gen::Gfx9}) {
    EXPECT_EQ(gcnprobe::vk::texelBufferNumRecords(g, 100, 4), 100u);
  }
  gcn::VSharp v = gcnprobe::vk::makeTexelBufferVSharp(gcn::parseChip("tonga"), 0x12340, 100,
                                                      VK_FORMAT_B8G8R8A8_UNORM);
  EXPECT_EQ(v.base, 0x12340u);
  EXPECT_EQ(v.stride, 4);
  EXPECT_EQ(v.numRecords, 400u);
  EXPECT_EQ(v.dataFormat, Dfmt::F8_8_8_8);
  EXPECT_EQ(v.numFormat, Nfmt::Unorm);
  EXPECT_EQ(v.dstSel, (std::array<DstSel, 4>{DstSel::Z, DstSel::Y, DstSel::X, DstSel::W}));
  EXPECT_FALSE(v.swizzleEnable);
  EXPECT_FALSE(v.addTidEnable);
  gcn::VSharp w = gcnprobe::vk::makeTexelBufferVSharp(gcn::parseChip("vega10"), 0, 100,
                                                      VK_FORMAT_R32G32B32A32_SFLOAT);
  EXPECT_EQ(w.numRecords, 100u);
  EXPECT_EQ(w.stride, 16);
  EXPECT_THROW(
      gcnprobe::vk::makeTexelBufferVSharp(gcn::parseChip("tonga"), 0, 1, VK_FORMAT_R8G8B8_UNORM),
      gcn::Error);
  EXPECT_THROW(gcnprobe::vk::makeTexelBufferVSharp(gcn::parseChip("tonga"), 0, 1,
                                                   VK_FORMAT_R5G6B5_UNORM_PACK16),
               gcn::Error);
}

TEST(BufferFormats, LavapipeCountsMatchPlatformDoc) {
  auto ctx = gcnprobe::vk::Context::open("llvmpipe");
  int u = 0, s = 0, v = 0;
  for (int f = 1; f <= VK_FORMAT_E5B9G9R9_UFLOAT_PACK32; ++f) {
    auto b = ctx->formatProperties(static_cast<VkFormat>(f)).bufferFeatures;
    u += (b & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) ? 1 : 0;
    s += (b & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT) ? 1 : 0;
    v += (b & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) ? 1 : 0;
  }
  EXPECT_EQ(u, 87);
  EXPECT_EQ(s, 44);
  EXPECT_EQ(v, 108);
}

// The table's `texel` column against what RADV itself reports (null device, own process).
TEST(BufferFormats, TexelColumnMatchesRadv) {
  if (const auto why = gcnprobe::test_support::radvMissing()) GTEST_SKIP() << *why;
  const auto run = [](const std::string& args) {
    const auto r = gcnprobe::test_support::runGcnprobe("--radv-null polaris10 " + args,
                                                       gcnprobe::test_support::Stderr::Discard);
    EXPECT_EQ(r.exit, 0) << args;
    return nlohmann::json::parse(r.out);
  };
  // Measured on RADV's null device: Mesa 25 gives uniform + storage texel and vertex features
  // to five formats Mesa 22.3 has none for (A1B5G5R5_UNORM_PACK16_KHR stays without).
  const std::string driver = run("devices --json").at(0).value("driver_info", "");
  const bool mesa22 = driver.rfind("Mesa 22.", 0) == 0;
  const std::set<std::string> newInMesa25 = {
      "VK_FORMAT_R10X6_UNORM_PACK16", "VK_FORMAT_R10X6G10X6_UNORM_2PACK16",
      "VK_FORMAT_R12X4_UNORM_PACK16", "VK_FORMAT_R12X4G12X4_UNORM_2PACK16",
      "VK_FORMAT_A8_UNORM_KHR"};
  auto rows = run("formats --json");
  ASSERT_EQ(rows.size(), gcnprobe::vk::allBufferFormats().size());
  int u = 0, s = 0, v = 0;
  for (const auto& r : rows) {
    const BufferFormat& f = gcnprobe::vk::parseBufferFormat(r["vk_format"].get<std::string>());
    bool texel = r["uniform_texel"].get<bool>() || r["storage_texel"].get<bool>();
    EXPECT_EQ(texel, f.texel && !(mesa22 && newInMesa25.count(std::string(f.name))))
        << f.name << " on " << driver;
    EXPECT_EQ(r["dfmt"].get<int>(), static_cast<int>(f.dfmt)) << f.name;
    u += r["uniform_texel"].get<bool>();
    s += r["storage_texel"].get<bool>();
    v += r["vertex"].get<bool>();
  }
  const int added = mesa22 ? 0 : static_cast<int>(newInMesa25.size());
  EXPECT_EQ(u, 52 + added) << driver;
  EXPECT_EQ(s, 77 + added) << driver;
  EXPECT_EQ(v, 107 + added) << driver;
}

}  // namespace formats_test

namespace formats_test {

// Field names for differing bits, from the V# layout alone: word 3 bits 0-2 are DST_SEL_X and
// 6-8 DST_SEL_Z (GCN3/Vega ISA manuals, buffer resource table). 0x00050fac is an RGBA8 UNORM
// word 3 (x,y,z,w = 4,5,6,7), 0x00050f2e the BGRA one (6,5,4,7).
TEST(VSharpSelfCheck, DifferencesNameTheFields) {
  const std::array<uint32_t, 4> rgba{0x00100000, 0x00040000, 0x00000400, 0x00050fac};
  std::array<uint32_t, 4> bgra = rgba;
  bgra[3] = 0x00050f2e;
  EXPECT_TRUE(gcnprobe::routes::vsharpDifferences(gcn::Gen::Gfx8, rgba, rgba).empty());
  const auto d = gcnprobe::routes::vsharpDifferences(gcn::Gen::Gfx8, bgra, rgba);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].rfind("dst_sel_x", 0), 0u) << d[0];
  EXPECT_NE(d[0].find("driver 0x6, table 0x4"), std::string::npos) << d[0];
  EXPECT_EQ(d[1].rfind("dst_sel_z", 0), 0u) << d[1];
  // NUM_RECORDS is word 2 whole.
  std::array<uint32_t, 4> n = rgba;
  n[2] = 0x100;
  const auto dn = gcnprobe::routes::vsharpDifferences(gcn::Gen::Gfx9, n, rgba);
  ASSERT_EQ(dn.size(), 1u);
  EXPECT_EQ(dn[0].rfind("num_records", 0), 0u) << dn[0];
}

// The driver's own descriptors against the table on the five chips. Where the driver has
// VK_EXT_descriptor_buffer (RADV since Mesa 23), every texel V# must agree field by field;
// where it has not (Mesa 22.3), the command must refuse and say why.
TEST(VSharpSelfCheck, TableAgreesWithTheDriversDescriptors) {
  if (const auto why = gcnprobe::test_support::radvMissing()) GTEST_SKIP() << *why;
  for (const char* chip : {"tahiti", "bonaire", "tonga", "polaris10", "vega10"}) {
    SCOPED_TRACE(chip);
    const auto r = gcnprobe::test_support::runGcnprobe(std::string("--radv-null ") + chip +
                                                       " formats --self-check --json");
    const std::string& out = r.out;
    const int exit = r.exit;
    if (out.find("has no VK_EXT_descriptor_buffer") != std::string::npos) {
      EXPECT_EQ(exit, 2) << out;
      EXPECT_NE(out.find("Mesa 22."), std::string::npos) << "only Mesa 22 lacks it here: " << out;
      continue;
    }
    ASSERT_EQ(exit, 0) << out.substr(0, 3000);
    const auto doc = nlohmann::json::parse(out.substr(out.find('{')));
    EXPECT_EQ(doc["chip"], chip);
    // The SSBO descriptor first (the raw route writes V#s into SSBO slots too), then every
    // table format RADV offers as a texel buffer, on both texel bindings.
    EXPECT_GT(doc["checks"].size(), 100u);
    EXPECT_EQ(doc["checks"][0]["binding"], "storage-buffer");
    EXPECT_EQ(doc["checks"][0]["vk_format"], "(raw buffer)");
    for (const auto& c : doc["checks"])
      EXPECT_TRUE(c["agrees"].get<bool>()) << c.dump();
  }
}

// The same on RADV's RDNA null devices (docs/rdna.md): every descriptor agrees with the table's
// V# (the unified FORMAT of the pair, OOB_SELECT, RESOURCE_LEVEL) except the storage texel
// buffers of the five 8-bit SRGB formats, for which RADV 25 writes a FORMAT that names another
// format or none; exactly those differ, in FORMAT alone. Mesa 22.3 has no descriptor buffers.
TEST(VSharpSelfCheck, TableAgreesWithRadvsRdnaDescriptors) {
  if (const auto why = gcnprobe::test_support::radvMissing()) GTEST_SKIP() << *why;
  for (const char* chip : {"navi10", "navi21", "navi31"}) {
    SCOPED_TRACE(chip);
    // navi31 by its name: --radv-null finds the name this RADV knows (gfx1100 on Mesa 22.3).
    const auto r = gcnprobe::test_support::runGcnprobe(std::string("--radv-null ") + chip +
                                                       " formats --self-check --json");
    if (r.out.find("has no VK_EXT_descriptor_buffer") != std::string::npos) {
      EXPECT_EQ(r.exit, 2) << r.out;
      EXPECT_NE(r.out.find("Mesa 22."), std::string::npos) << "only Mesa 22 lacks it: " << r.out;
      continue;
    }
    ASSERT_EQ(r.exit, 1) << r.out.substr(0, 3000);
    const auto doc = nlohmann::json::parse(r.out.substr(r.out.find('{')));
    EXPECT_EQ(doc["chip"], chip);
    EXPECT_GT(doc["checks"].size(), 100u);
    EXPECT_TRUE(doc["checks"][0]["agrees"].get<bool>()) << doc["checks"][0].dump();
    std::set<std::string> differing;
    for (const auto& c : doc["checks"]) {
      if (c["agrees"].get<bool>()) continue;
      differing.insert(c["vk_format"].get<std::string>() + " " + c["binding"].get<std::string>());
      ASSERT_EQ(c["differences"].size(), 1u) << c.dump();
      EXPECT_EQ(c["differences"][0].get<std::string>().rfind("format (FORMAT)", 0), 0u) << c.dump();
    }
    EXPECT_EQ(differing,
              (std::set<std::string>{
                  "VK_FORMAT_R8_SRGB storage-texel", "VK_FORMAT_R8G8_SRGB storage-texel",
                  "VK_FORMAT_R8G8B8A8_SRGB storage-texel", "VK_FORMAT_B8G8R8A8_SRGB storage-texel",
                  "VK_FORMAT_A8B8G8R8_SRGB_PACK32 storage-texel"}));
  }
}

}  // namespace formats_test
