// The GFX10/GFX10.3/GFX11 V# layout and unified format tables against RADV's own descriptors
// (tests/reference/data/radv25_descriptors.txt, measured on Mesa 25's null device for vega10,
// navi10, navi21 and navi31): every RDNA descriptor must decode with no reserved bit set, with
// the base, stride and record count the driver was asked for, and with a unified FORMAT whose
// (data format, number format) pair and DST_SEL are what the same driver wrote into the GCN
// (vega10) descriptor of the same VkFormat. Two independent records of one fact: the driver's
// GCN encoding and its RDNA encoding.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "reference/error.h"
#include "reference/format.h"
#include "reference/gen.h"
#include "reference/resource.h"

namespace rdna_vsharp_test {

using gcn::Gen;

struct Row {
  std::string chip, binding, format;
  uint32_t stride;
  std::array<uint32_t, 4> words;
};

std::vector<Row> readRows() {
  std::ifstream in(std::string(GCNPROBE_SOURCE_DIR) +
                   "/tests/reference/data/radv25_descriptors.txt");
  std::vector<Row> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    Row r;
    std::array<std::string, 4> w;
    ss >> r.chip >> r.binding >> r.format >> r.stride >> w[0] >> w[1] >> w[2] >> w[3];
    for (std::size_t i = 0; i < 4; ++i)
      r.words[i] = static_cast<uint32_t>(std::stoul(w[i], nullptr, 16));
    rows.push_back(r);
  }
  return rows;
}

TEST(RdnaVSharp, RadvDescriptorsDecodeAsTheGcnOnesOfTheSameFormat) {
  const std::vector<Row> rows = readRows();
  ASSERT_GT(rows.size(), 500u);
  std::map<std::tuple<std::string, std::string>, gcn::VSharp> gcnByFormat;
  for (const Row& r : rows)
    if (r.chip == "vega10")
      gcnByFormat[{r.binding, r.format}] = gcn::decodeVSharp(Gen::Gfx9, r.words);
  std::map<Gen, int> checked;
  int srgb = 0;
  for (const Row& r : rows) {
    if (r.chip == "vega10") continue;
    const Gen gen = gcn::parseAnyGen(r.chip);
    ASSERT_TRUE(gcn::isRdna(gen)) << r.chip;
    SCOPED_TRACE(r.chip + " " + r.binding + " " + r.format);
    const gcn::VSharp v = gcn::decodeVSharp(gen, r.words);
    EXPECT_EQ(gcn::encodeVSharp(gen, v), r.words);
    EXPECT_EQ(v.reserved, (std::array<uint32_t, 4>{})) << "bits no field of the layout names";
    EXPECT_EQ(v.base, 0x100000u);
    EXPECT_EQ(v.type, 0);
    // GFX10/10.3 drivers set RESOURCE_LEVEL; GFX11 has no such field.
    EXPECT_EQ(v.resourceLevel, gen != Gen::Gfx11);
    // Measured, and named in docs/rdna.md: for the storage texel buffers of the five 8-bit SRGB
    // formats RADV 25 writes FORMAT 0, 1 or 2 on GFX10/10.3 (the codes of INVALID, 8_UNORM and
    // 8_SNORM) and 64, 65 or 66 on GFX11 (no buffer format), where on vega10 it writes the UNORM
    // pair of the format's data format.
    if (r.binding == "storage-texel" && r.format.find("_SRGB") != std::string::npos) {
      const std::map<std::string, int> kMeasured = {{"VK_FORMAT_R8_SRGB", 0},
                                                    {"VK_FORMAT_R8G8_SRGB", 1},
                                                    {"VK_FORMAT_R8G8B8A8_SRGB", 2},
                                                    {"VK_FORMAT_B8G8R8A8_SRGB", 2},
                                                    {"VK_FORMAT_A8B8G8R8_SRGB_PACK32", 2}};
      ASSERT_TRUE(kMeasured.count(r.format)) << "a new SRGB storage texel descriptor";
      EXPECT_EQ(v.format, kMeasured.at(r.format) + (gen == Gen::Gfx11 ? 64 : 0));
      ++srgb;
      continue;
    }
    const gcn::UnifiedFormat* f = gcn::findUnifiedFormat(gen, v.format);
    ASSERT_NE(f, nullptr) << "FORMAT " << int(v.format) << " names no buffer format";
    if (r.binding == "storage-buffer") {
      // Raw (OOB_SELECT 3), byte-sized records, 32_FLOAT (Mesa: write_buffer_descriptor).
      EXPECT_EQ(v.oobSelect, 3);
      EXPECT_EQ(v.numRecords, 4096u);
      EXPECT_EQ(v.stride, 0u);
      EXPECT_EQ(f->dfmt, gcn::Dfmt::F32);
      EXPECT_EQ(f->nfmt, gcn::Nfmt::Float);
    } else {
      // Texel buffers: structured with offset (OOB_SELECT 0), records of one element.
      EXPECT_EQ(v.oobSelect, 0);
      EXPECT_EQ(v.numRecords, 256u);
      EXPECT_EQ(v.stride, r.stride);
      const auto g = gcnByFormat.find({r.binding, r.format});
      ASSERT_NE(g, gcnByFormat.end()) << "no vega10 descriptor of this format";
      EXPECT_EQ(f->dfmt, g->second.dataFormat) << gcn::llvmUnifiedFormatName(gen, v.format);
      EXPECT_EQ(f->nfmt, g->second.numFormat) << gcn::llvmUnifiedFormatName(gen, v.format);
      EXPECT_EQ(v.dstSel, g->second.dstSel);
    }
    ++checked[gen];
  }
  EXPECT_GT(checked[Gen::Gfx10], 100);
  EXPECT_GT(checked[Gen::Gfx10_3], 100);
  EXPECT_GT(checked[Gen::Gfx11], 100);
  EXPECT_EQ(srgb, 15);  // five formats on three chips
}

// The text form reads and writes the RDNA fields by name (format by LLVM's name without
// BUF_FMT_); a GCN-only field is refused there.
TEST(RdnaVSharp, TextForm) {
  const gcn::VSharp v =
      gcn::parseVSharp(Gen::Gfx10,
                       "base=0x1000 num_records=16 dst_sel=xyzw format=8_8_8_8_UNORM oob_select=3 "
                       "resource_level=1");
  EXPECT_EQ(v.format, 56);
  EXPECT_EQ(gcn::formatVSharp(Gen::Gfx10, v),
            "base=0x1000 num_records=16 dst_sel=xyzw format=8_8_8_8_UNORM resource_level=1 "
            "oob_select=3");
  EXPECT_EQ(gcn::parseVSharp(Gen::Gfx11, "format=8_8_8_8_UNORM").format, 42);
  EXPECT_THROW(gcn::parseVSharp(Gen::Gfx10, "dfmt=32"), gcn::Error);
  EXPECT_THROW(gcn::parseVSharp(Gen::Gfx11, "resource_level=1"), gcn::Error);
  EXPECT_THROW(gcn::parseVSharp(Gen::Gfx10, "llc_noalloc=1"), gcn::Error);  // GFX10.3 only
  EXPECT_EQ(gcn::parseVSharp(Gen::Gfx10_3, "llc_noalloc=2").llcNoalloc, 2);
  EXPECT_EQ(gcn::parseVSharp(Gen::Gfx11, "swizzle_enable=3").swizzleEnableGfx11, 3);
  EXPECT_THROW(gcn::parseVSharp(Gen::Gfx11, "cache_swizzle=1"), gcn::Error);
  EXPECT_THROW(gcn::parseVSharp(Gen::Gfx9, "oob_select=1"), gcn::Error);
}

}  // namespace rdna_vsharp_test
