#include "reference/resource.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <random>
#include <string>

#include "reference/error.h"

namespace gcn {
namespace resource_test {

using Words = std::array<uint32_t, 4>;

// Bits [lo, hi] of the 128-bit V# set, the rest clear (word N holds bits 32N..32N+31).
Words mask(unsigned lo, unsigned hi) {
  Words w{};
  for (unsigned b = lo; b <= hi; ++b)
    w[b / 32] |= 1u << (b % 32);
  return w;
}

VSharp zeroVSharp() {
  VSharp v;
  v.dstSel = {DstSel::Zero, DstSel::Zero, DstSel::Zero, DstSel::Zero};
  return v;
}

struct BitRow {
  const char* name;
  unsigned lo, hi;
  void (*setAllOnes)(VSharp&);
};

// CLRX GcnMemHandling "Buffer resource format" table, row by row, plus the two GFX6-8 fields that
// page leaves out and docs/gcn-facts.md gives (ATC = word3[24] = bit 120, MTYPE = word3[29:27] =
// bits 123-125). Each field set to all ones must encode to exactly its bits.
const BitRow kSeed003Rows[] = {
    {"BASE", 0, 47, [](VSharp& v) { v.base = (1ull << 48) - 1; }},
    {"STRIDE", 48, 61, [](VSharp& v) { v.stride = (1u << 14) - 1; }},
    {"Cache swizzle", 62, 62, [](VSharp& v) { v.cacheSwizzle = true; }},
    {"Swizzle enable", 63, 63, [](VSharp& v) { v.swizzleEnable = true; }},
    {"NUMRECORDS", 64, 95, [](VSharp& v) { v.numRecords = 0xffffffffu; }},
    {"DST_SEL_X", 96, 98, [](VSharp& v) { v.dstSel[0] = DstSel::W; }},
    {"DST_SEL_Y", 99, 101, [](VSharp& v) { v.dstSel[1] = DstSel::W; }},
    {"DST_SEL_Z", 102, 104, [](VSharp& v) { v.dstSel[2] = DstSel::W; }},
    {"DST_SEL_W", 105, 107, [](VSharp& v) { v.dstSel[3] = DstSel::W; }},
    {"NUMFORMAT", 108, 110, [](VSharp& v) { v.numFormat = Nfmt::Float; }},
    {"DATAFORMAT", 111, 114, [](VSharp& v) { v.dataFormat = Dfmt::Reserved; }},
    {"ELEMSIZE", 115, 116, [](VSharp& v) { v.elementSize = 3; }},
    {"INDEXSTRIDE", 117, 118, [](VSharp& v) { v.indexStride = 3; }},
    {"TID_ENABLE", 119, 119, [](VSharp& v) { v.addTidEnable = true; }},
    {"ATC (AMD ISA)", 120, 120, [](VSharp& v) { v.atc = true; }},
    {"Hash enable", 121, 121, [](VSharp& v) { v.hashEnable = true; }},
    {"HEAP", 122, 122, [](VSharp& v) { v.heap = true; }},
    {"MTYPE (AMD ISA)", 123, 125, [](VSharp& v) { v.mtype = 7; }},
    {"TYPE", 126, 127, [](VSharp& v) { v.type = 3; }},
};

TEST(VSharp, Gfx6To8FieldsSitWhereSeed003SaysBothWays) {
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7, Gen::Gfx8}) {
    for (const BitRow& row : kSeed003Rows) {
      VSharp v = zeroVSharp();
      row.setAllOnes(v);
      EXPECT_EQ(encodeVSharp(gen, v), mask(row.lo, row.hi)) << row.name << " " << genName(gen);
      EXPECT_EQ(decodeVSharp(gen, mask(row.lo, row.hi)), v) << row.name << " " << genName(gen);
    }
  }
}

// docs/gcn-facts.md: GFX9 word3 keeps DST_SEL/NUM_FORMAT/DATA_FORMAT/INDEX_STRIDE/ADD_TID/TYPE,
// has USER_VM_ENABLE [19] (bit 115), USER_VM_MODE [20] (bit 116), NV [27] (bit 123).
TEST(VSharp, Gfx9Word3Layout) {
  const BitRow rows[] = {
      {"USER_VM_ENABLE", 115, 115, [](VSharp& v) { v.userVmEnable = true; }},
      {"USER_VM_MODE", 116, 116, [](VSharp& v) { v.userVmMode = true; }},
      {"NV", 123, 123, [](VSharp& v) { v.nv = true; }},
  };
  for (const BitRow& row : rows) {
    VSharp v = zeroVSharp();
    row.setAllOnes(v);
    EXPECT_EQ(encodeVSharp(Gen::Gfx9, v), mask(row.lo, row.hi)) << row.name;
    EXPECT_EQ(decodeVSharp(Gen::Gfx9, mask(row.lo, row.hi)), v) << row.name;
  }
  for (const BitRow& row : kSeed003Rows) {
    const std::string name = row.name;
    const bool gfx6to8Only = name == "ELEMSIZE" || name == "ATC (AMD ISA)" ||
                             name == "Hash enable" || name == "HEAP" || name == "MTYPE (AMD ISA)";
    VSharp v = zeroVSharp();
    row.setAllOnes(v);
    if (gfx6to8Only) {
      EXPECT_THROW(encodeVSharp(Gen::Gfx9, v), Error) << row.name;
    } else {
      EXPECT_EQ(encodeVSharp(Gen::Gfx9, v), mask(row.lo, row.hi)) << row.name;
    }
  }
}

// The same word 3 bits mean different fields per generation.
TEST(VSharp, SameBitsDifferentFieldsPerGeneration) {
  const Words w = mask(115, 115);  // word3 bit 19
  EXPECT_EQ(decodeVSharp(Gen::Gfx8, w).elementSize, 1);
  EXPECT_FALSE(decodeVSharp(Gen::Gfx8, w).userVmEnable);
  EXPECT_TRUE(decodeVSharp(Gen::Gfx9, w).userVmEnable);
  EXPECT_EQ(decodeVSharp(Gen::Gfx9, w).elementSize, 0);
  // word3 bit 24: ATC on gfx6-8, reserved on gfx9 (no field; kept as a reserved bit).
  EXPECT_TRUE(decodeVSharp(Gen::Gfx7, mask(120, 120)).atc);
  VSharp reservedOnly = zeroVSharp();
  reservedOnly.reserved[3] = 1u << 24;
  EXPECT_EQ(decodeVSharp(Gen::Gfx9, mask(120, 120)), reservedOnly);
}

// A typical texel-buffer V#: word3 = DST_SEL X,Y,Z,W = 4,5,6,7 -> 4 | 5<<3 | 6<<6 | 7<<9 =
// 0xfac; NUM_FORMAT FLOAT (7) << 12 = 0x7000; DATA_FORMAT 32 (4) << 15 = 0x20000 -> 0x27fac.
// Word1 = BASE_HI 0x12 | STRIDE 4 << 16 = 0x00040012.
TEST(VSharp, DecodesAHandAssembledDescriptor) {
  const Words w{0x89abc000u, 0x00040012u, 256u, 0x00027facu};
  for (Gen gen : kGcnGens) {
    const VSharp v = decodeVSharp(gen, w);
    EXPECT_EQ(v.base, 0x1289abc000ull);
    EXPECT_EQ(v.stride, 4);
    EXPECT_EQ(v.numRecords, 256u);
    EXPECT_EQ(v.dstSel, (std::array{DstSel::X, DstSel::Y, DstSel::Z, DstSel::W}));
    EXPECT_EQ(v.numFormat, Nfmt::Float);
    EXPECT_EQ(v.dataFormat, Dfmt::F32);
    EXPECT_FALSE(v.swizzleEnable);
    EXPECT_EQ(v.type, 0);
  }
}

// Text example: word1 = stride 16 << 16 = 0x00100000; word3 = dst_sel z,y,x,1 =
// 6 | 5<<3 | 4<<6 | 1<<9 = 0x32e, NUM_FORMAT UNORM 0, DATA_FORMAT 8_8_8_8 (10) << 15 = 0x50000.
TEST(VSharp, ParsesTheTextForm) {
  const VSharp v = parseVSharp(
      Gen::Gfx8, "base=0x1000 stride=16 num_records=64 dst_sel=zyx1 dfmt=8_8_8_8 nfmt=unorm");
  EXPECT_EQ(encodeVSharp(Gen::Gfx8, v), (Words{0x1000u, 0x00100000u, 64u, 0x0005032eu}));
  // Names are case-insensitive, order free, flags take 0/1/true/false.
  const VSharp w = parseVSharp(Gen::Gfx6, "SWIZZLE_ENABLE=true Element_Size=2 mtype=0x5");
  EXPECT_TRUE(w.swizzleEnable);
  EXPECT_EQ(w.elementSize, 2);
  EXPECT_EQ(w.mtype, 5);
  // CLRX GcnMemHandling names that look like numbers are names: "32" is DATA_FORMAT 4, "8" is 1.
  EXPECT_EQ(parseVSharp(Gen::Gfx8, "dfmt=32").dataFormat, Dfmt::F32);
  EXPECT_EQ(parseVSharp(Gen::Gfx8, "dfmt=8").dataFormat, Dfmt::F8);
  // Left out: 0 and the identity DST_SEL.
  EXPECT_EQ(parseVSharp(Gen::Gfx9, ""), VSharp{});
}

TEST(VSharp, ParsesRawWords) {
  const VSharp v = parseVSharp(Gen::Gfx8, "0x00001000 0x00100000 0x00000040 0x0005032e");
  EXPECT_EQ(v.base, 0x1000u);
  EXPECT_EQ(v.stride, 16);
  EXPECT_EQ(v.numRecords, 64u);
  EXPECT_EQ(v.dstSel, (std::array{DstSel::Z, DstSel::Y, DstSel::X, DstSel::One}));
  EXPECT_EQ(v.dataFormat, Dfmt::F8_8_8_8);
}

// A random V# whose fields all exist on `gen` and fit their widths (widths from CLRX GcnMemHandling
// and docs/gcn-facts.md, written here independently of the code under test).
VSharp randomVSharp(Gen gen, std::mt19937_64& rng) {
  auto bits = [&rng](unsigned n) { return rng() & ((1ull << n) - 1); };
  VSharp v;
  v.base = bits(48);
  v.stride = static_cast<uint16_t>(bits(14));
  v.cacheSwizzle = bits(1);
  v.swizzleEnable = bits(1);
  v.numRecords = static_cast<uint32_t>(bits(32));
  for (DstSel& s : v.dstSel)
    s = static_cast<DstSel>(bits(3));
  v.numFormat = static_cast<Nfmt>(bits(3));
  v.dataFormat = static_cast<Dfmt>(bits(4));
  v.indexStride = static_cast<uint8_t>(bits(2));
  v.addTidEnable = bits(1);
  v.type = static_cast<uint8_t>(bits(2));
  if (gen == Gen::Gfx9) {
    v.userVmEnable = bits(1);
    v.userVmMode = bits(1);
    v.nv = bits(1);
  } else {
    v.elementSize = static_cast<uint8_t>(bits(2));
    v.atc = bits(1);
    v.hashEnable = bits(1);
    v.heap = bits(1);
    v.mtype = static_cast<uint8_t>(bits(3));
  }
  return v;
}

TEST(VSharp, RoundTripsBinaryAndText) {
  std::mt19937_64 rng(20240601);
  for (Gen gen : kGcnGens) {
    for (int i = 0; i < 2000; ++i) {
      const VSharp v = randomVSharp(gen, rng);
      const Words w = encodeVSharp(gen, v);
      ASSERT_EQ(decodeVSharp(gen, w), v) << genName(gen) << " " << formatVSharp(gen, v);
      const std::string text = formatVSharp(gen, v);
      ASSERT_EQ(parseVSharp(gen, text), v) << genName(gen) << " " << text;
      char raw[64];
      std::snprintf(raw, sizeof raw, "0x%08x 0x%08x 0x%08x 0x%08x", w[0], w[1], w[2], w[3]);
      ASSERT_EQ(parseVSharp(gen, raw), v) << raw;
    }
  }
}

// Any 128-bit pattern decodes to something that encodes back to the same bits, minus the bits
// the generation does not define: none on gfx6-8 (CLRX GcnMemHandling plus ATC and MTYPE cover word
// 3), word3 bits 24-26 and 28-29 on gfx9 (docs/gcn-facts.md drops ATC/HASH/HEAP/MTYPE, NV is bit
// 27).
TEST(VSharp, EncodeOfDecodeKeepsDefinedBits) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const Words w{static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()),
                  static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng())};
    // gfx6-8 define every bit of word 3 (ATC, MTYPE included); word1 all; word0 all.
    EXPECT_EQ(encodeVSharp(Gen::Gfx8, decodeVSharp(Gen::Gfx8, w)), w);
    // gfx9 names no field at word 3 bits 24-26 and 28-29: they survive as reserved bits.
    EXPECT_EQ(encodeVSharp(Gen::Gfx9, decodeVSharp(Gen::Gfx9, w)), w);
  }
}

void expectErrorMentions(const std::function<void()>& f, std::initializer_list<std::string> parts,
                         int column = -1) {
  try {
    f();
    ADD_FAILURE() << "no gcn::Error";
  } catch (const Error& e) {
    for (const std::string& part : parts) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
          << "'" << e.what() << "' lacks '" << part << "'";
    }
    if (column >= 0) {
      EXPECT_EQ(e.place().column, column) << e.what();
    }
  }
}

TEST(VSharp, EncodeRejectsMissingOrOversizedFields) {
  VSharp atc;
  atc.atc = true;
  expectErrorMentions([&] { encodeVSharp(Gen::Gfx9, atc); }, {"ATC", "gfx9"});
  VSharp nv;
  nv.nv = true;
  expectErrorMentions([&] { encodeVSharp(Gen::Gfx7, nv); }, {"NV", "gfx7"});
  VSharp stride;
  stride.stride = 1u << 14;
  expectErrorMentions([&] { encodeVSharp(Gen::Gfx6, stride); }, {"STRIDE", "14", "gfx6"});
  VSharp base;
  base.base = 1ull << 48;
  expectErrorMentions([&] { encodeVSharp(Gen::Gfx8, base); }, {"BASE", "48"});
  VSharp mtype;
  mtype.mtype = 8;
  expectErrorMentions([&] { encodeVSharp(Gen::Gfx8, mtype); }, {"MTYPE", "3 bits"});
}

TEST(VSharp, ParseErrorsNameFieldAndColumn) {
  // columns are 1-based positions in the text
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "stride=4 colour=3"); }, {"colour", "unknown"},
                      10);
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "dst_sel=xyq1"); }, {"dst_sel", "q"}, 11);
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "dst_sel=xy"); }, {"dst_sel", "four"}, 9);
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "dfmt=9_9_9"); }, {"dfmt", "9_9_9"}, 6);
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "nfmt=bogus"); }, {"nfmt", "bogus"}, 6);
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "stride=16384"); }, {"stride", "14 bits"}, 8);
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "stride=ten"); }, {"stride", "not a number"}, 8);
  expectErrorMentions([] { parseVSharp(Gen::Gfx9, "atc=1"); }, {"atc", "gfx9"}, 1);
  expectErrorMentions([] { parseVSharp(Gen::Gfx6, "nv=1"); }, {"nv", "gfx6"}, 1);
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "heap=2"); }, {"heap", "flag"}, 6);
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "type=1 type=2"); }, {"type", "twice"}, 8);
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "stride"); }, {"name=value"}, 1);
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "0x1 0x2 0x3"); }, {"four dwords"}, 1);
  expectErrorMentions([] { parseVSharp(Gen::Gfx8, "0x1 0x2 0x3 0x100000000"); }, {"dword 3"}, 13);
}

// CLRX GcnMemHandling: ELEMSIZE = 2 << field, INDEXSTRIDE = 8 << field; docs/gcn-facts.md: GFX9
// swizzles with a fixed 4-byte element.
TEST(VSharp, SwizzleSizes) {
  const uint32_t elem[] = {2, 4, 8, 16};
  const uint32_t istride[] = {8, 16, 32, 64};
  for (uint8_t f = 0; f < 4; ++f) {
    VSharp v;
    v.elementSize = f;
    v.indexStride = f;
    for (Gen gen : {Gen::Gfx6, Gen::Gfx7, Gen::Gfx8})
      EXPECT_EQ(swizzleElementBytes(gen, v), elem[f]);
    EXPECT_EQ(swizzleIndexStride(v), istride[f]);
    VSharp g9;
    g9.indexStride = f;
    EXPECT_EQ(swizzleElementBytes(Gen::Gfx9, g9), 4u);
  }
}

// CLRX GcnMemHandling DST_SEL table: 0, 1, R(4), G(5), B(6), A(7).
TEST(VSharp, DstSelNames) {
  EXPECT_EQ(parseDstSel("r"), DstSel::X);
  EXPECT_EQ(parseDstSel("G"), DstSel::Y);
  EXPECT_EQ(parseDstSel("SEL_Z"), DstSel::Z);
  EXPECT_EQ(parseDstSel("7"), DstSel::W);
  EXPECT_EQ(parseDstSel("0"), DstSel::Zero);
  EXPECT_EQ(parseDstSel("1"), DstSel::One);
  EXPECT_EQ(dstSelName(DstSel::W), "w");
  EXPECT_EQ(dstSelName(DstSel::One), "1");
  EXPECT_THROW(parseDstSel("8"), Error);
  EXPECT_THROW(parseDstSel("q"), Error);
}

// A reader that does not know the generation gets the fields every layout shares, bit for bit,
// and none of the generation-specific ones: a gfx9 V# with NV (bit 123) and a gfx8 one with
// MTYPE 7 (bits 125:123) decode to the same shared fields.
TEST(VSharp, SharedFieldsWithoutAGeneration) {
  // BASE 0x123456789abc, STRIDE 0x3fff, SWIZZLE_ENABLE, NUM_RECORDS 0xdeadbeef, DST_SEL
  // w,z,y,x (7,6,5,4), NFMT 7 (FLOAT), DFMT 14 (32_32_32_32), ADD_TID_ENABLE (bit 119), TYPE 0.
  const uint32_t w3 = 7u | 6u << 3 | 5u << 6 | 4u << 9 | 7u << 12 | 14u << 15 | 1u << 23;
  for (const uint32_t extra : {0u, 1u << 27, 7u << 27}) {
    const VSharp v = decodeVSharpSharedFields(
        {0x56789abcu, 0x1234u | 0x3fffu << 16 | 1u << 31, 0xdeadbeefu, w3 | extra});
    EXPECT_EQ(v.base, 0x123456789abcull);
    EXPECT_EQ(v.stride, 0x3fff);
    EXPECT_TRUE(v.swizzleEnable);
    EXPECT_FALSE(v.cacheSwizzle);
    EXPECT_EQ(v.numRecords, 0xdeadbeefu);
    EXPECT_EQ(v.dstSel[0], DstSel::W);
    EXPECT_EQ(v.dstSel[3], DstSel::X);
    EXPECT_EQ(v.numFormat, Nfmt::Float);
    EXPECT_EQ(static_cast<int>(v.dataFormat), 14);
    EXPECT_TRUE(v.addTidEnable);
    EXPECT_EQ(v.mtype, 0);
    EXPECT_FALSE(v.nv);
    EXPECT_EQ(v.reserved, (std::array<uint32_t, 4>{}));
  }
}

}  // namespace resource_test
}  // namespace gcn
