// Data/number format table against CLRX GcnMemHandling ("MUBUF/MTBUF format conversion") and
// docs/gcn-facts.md (layouts of codes 6-9, NUM_FORMAT 6 per generation, 10_11_11 on GCN 1.0).
#include "reference/format.h"

#include <gtest/gtest.h>

#include <string>

#include "reference/error.h"

namespace gcn {
namespace format_test {

TEST(Format, DfmtNamesAndCodesParse) {
  for (const DfmtInfo& d : allDfmts()) {
    const auto code = static_cast<unsigned>(d.code);
    if (d.code != Dfmt::Invalid && d.code != Dfmt::Reserved) {
      // Plain "8", "16", "32" are checked in DfmtNumericNamesAreNames.
      if (d.name.find('_') != std::string_view::npos) {
        EXPECT_EQ(parseDfmt(d.name), d.code);
      }
      EXPECT_EQ(parseDfmt("BUF_DATA_FORMAT_" + std::string(d.name)), d.code);
      EXPECT_EQ(parseDfmt("buf_data_format_" + std::string(d.name)), d.code);
    }
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%x", code);
    EXPECT_EQ(parseDfmt(hex), d.code) << hex;
  }
  EXPECT_EQ(parseDfmt("10"), Dfmt::F8_8_8_8);  // CLRX GcnMemHandling: code 10 = 8_8_8_8
  EXPECT_EQ(parseDfmt("0xE"), Dfmt::F32_32_32_32);
  EXPECT_EQ(llvmDfmtName(Dfmt::F8_8_8_8), "BUF_DATA_FORMAT_8_8_8_8");
}

// CLRX GcnMemHandling's names "8", "16" and "32" are also decimal numbers: the name must win (the
// CLRX spells data formats by name; `--dfmt 32` meaning code 32 or `--dfmt 8` meaning
// 10_10_10_2 would silently pick the wrong format).
TEST(Format, DfmtNumericNamesAreNames) {
  EXPECT_EQ(parseDfmt("8"), Dfmt::F8);
  EXPECT_EQ(parseDfmt("16"), Dfmt::F16);
  EXPECT_EQ(parseDfmt("32"), Dfmt::F32);
}

TEST(Format, NfmtNamesAndCodesParse) {
  const char* names[8] = {"UNORM", "SNORM", "USCALED",   "SSCALED",
                          "UINT",  "SINT",  "SNORM_OGL", "FLOAT"};
  for (unsigned i = 0; i < 8; ++i) {
    const auto n = static_cast<Nfmt>(i);
    EXPECT_EQ(parseNfmt(names[i], Gen::Gfx7), n);
    EXPECT_EQ(parseNfmt("buf_num_format_" + std::string(names[i]), Gen::Gfx7), n);
    EXPECT_EQ(parseNfmt(std::to_string(i), Gen::Gfx8), n);
  }
  EXPECT_EQ(parseNfmt("unorm_uint", Gen::Gfx9), Nfmt::SnormOgl);
  EXPECT_EQ(nfmtName(Nfmt::SnormOgl, Gen::Gfx6), "SNORM_OGL");
  EXPECT_EQ(nfmtName(Nfmt::SnormOgl, Gen::Gfx8), "RESERVED");
  EXPECT_EQ(nfmtName(Nfmt::SnormOgl, Gen::Gfx9), "UNORM_UINT");
  EXPECT_EQ(llvmNfmtName(Nfmt::Float, Gen::Gfx9), "BUF_NUM_FORMAT_FLOAT");
}

TEST(Format, BadNamesThrowNamingTheText) {
  for (const char* bad : {"8_8_8_9", "", "0x", "16x"}) {
    try {
      parseDfmt(bad);
      FAIL() << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(parseDfmt("0x10"), Error);  // 16 is out of range
  EXPECT_THROW(parseNfmt("reserved", Gen::Gfx8), Error);
  EXPECT_THROW(parseNfmt("8", Gen::Gfx8), Error);
  try {
    parseNfmt("bogus", Gen::Gfx9);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bogus"), std::string::npos);
  }
}

TEST(Format, LayoutsMatchSeedAndFacts) {
  struct Row {
    Dfmt d;
    unsigned comps;
    std::array<uint8_t, 4> bits;
    std::array<uint8_t, 4> offset;
    unsigned bytes;
  };
  // CLRX GcnMemHandling component descriptions ("from lowest bit"); docs/gcn-facts.md for 6..9.
  const Row rows[] = {
      {Dfmt::F8, 1, {8, 0, 0, 0}, {0, 0, 0, 0}, 1},
      {Dfmt::F16, 1, {16, 0, 0, 0}, {0, 0, 0, 0}, 2},
      {Dfmt::F8_8, 2, {8, 8, 0, 0}, {0, 8, 0, 0}, 2},
      {Dfmt::F32, 1, {32, 0, 0, 0}, {0, 0, 0, 0}, 4},
      {Dfmt::F16_16, 2, {16, 16, 0, 0}, {0, 16, 0, 0}, 4},
      {Dfmt::F10_11_11, 3, {11, 11, 10, 0}, {0, 11, 22, 0}, 4},     // X 11 bits at 0
      {Dfmt::F11_11_10, 3, {10, 11, 11, 0}, {0, 10, 21, 0}, 4},     // X 10 bits at 0
      {Dfmt::F10_10_10_2, 4, {2, 10, 10, 10}, {0, 2, 12, 22}, 4},   // X 2 bits at 0
      {Dfmt::F2_10_10_10, 4, {10, 10, 10, 2}, {0, 10, 20, 30}, 4},  // W 2 bits at 30
      {Dfmt::F8_8_8_8, 4, {8, 8, 8, 8}, {0, 8, 16, 24}, 4},
      {Dfmt::F32_32, 2, {32, 32, 0, 0}, {0, 32, 0, 0}, 8},
      {Dfmt::F16_16_16_16, 4, {16, 16, 16, 16}, {0, 16, 32, 48}, 8},
      {Dfmt::F32_32_32, 3, {32, 32, 32, 0}, {0, 32, 64, 0}, 12},
      {Dfmt::F32_32_32_32, 4, {32, 32, 32, 32}, {0, 32, 64, 96}, 16},
  };
  for (const Row& r : rows) {
    const DfmtInfo& i = dfmtInfo(r.d);
    EXPECT_EQ(i.components, r.comps) << i.name;
    for (unsigned c = 0; c < r.comps; ++c) {
      EXPECT_EQ(i.bits[c], r.bits[c]) << i.name << c;
      EXPECT_EQ(i.offset[c], r.offset[c]) << i.name << c;
    }
    EXPECT_EQ(i.bytes, r.bytes) << i.name;
  }
  EXPECT_EQ(dfmtInfo(Dfmt::Invalid).components, 0);
  EXPECT_EQ(dfmtInfo(Dfmt::Reserved).components, 0);
}

// Property: fields tile the element exactly, without overlap.
TEST(Format, FieldsTileTheElement) {
  for (const DfmtInfo& i : allDfmts()) {
    std::array<int, 128> owner{};
    owner.fill(-1);
    unsigned total = 0;
    for (unsigned c = 0; c < i.components; ++c) {
      total += i.bits[c];
      for (unsigned b = i.offset[c]; b < i.offset[c] + i.bits[c]; ++b) {
        ASSERT_LT(b, 128u);
        EXPECT_EQ(owner[b], -1) << i.name << " bit " << b;
        owner[b] = static_cast<int>(c);
      }
    }
    EXPECT_EQ(total, i.bytes * 8u) << i.name;
  }
}

TEST(Format, PairStatusDocumentedCases) {
  const auto st = [](Gen g, Dfmt d, Nfmt n, Direction dir) {
    return pairStatus(g, d, n, dir).status;
  };
  using enum PairStatus;
  constexpr auto L = Direction::Load;
  constexpr auto S = Direction::Store;
  EXPECT_EQ(st(Gen::Gfx8, Dfmt::F8_8_8_8, Nfmt::Float, L), Illegal);  // FLOAT needs 32/16/11/10
  EXPECT_EQ(st(Gen::Gfx8, Dfmt::F2_10_10_10, Nfmt::Float, L), Illegal);
  EXPECT_EQ(st(Gen::Gfx8, Dfmt::F32, Nfmt::Float, L), Defined);
  EXPECT_EQ(st(Gen::Gfx8, Dfmt::F16_16, Nfmt::Float, S), Defined);
  EXPECT_EQ(st(Gen::Gfx8, Dfmt::F8, Nfmt::SnormOgl, L), Illegal);  // reserved on gfx8
  EXPECT_EQ(st(Gen::Gfx9, Dfmt::F8, Nfmt::SnormOgl, L), Unknown);  // UNORM_UINT undocumented
  EXPECT_EQ(st(Gen::Gfx7, Dfmt::F8, Nfmt::SnormOgl, L), Defined);
  EXPECT_EQ(st(Gen::Gfx7, Dfmt::F8, Nfmt::SnormOgl, S), Illegal);      // CLRX: no BufW
  EXPECT_EQ(st(Gen::Gfx6, Dfmt::F10_11_11, Nfmt::Float, L), Unknown);  // "seemingly don't work"
  EXPECT_EQ(st(Gen::Gfx6, Dfmt::F11_11_10, Nfmt::Float, S), Unknown);
  EXPECT_EQ(st(Gen::Gfx7, Dfmt::F10_11_11, Nfmt::Float, L), Defined);
  for (Nfmt n : {Nfmt::Uscaled, Nfmt::Sscaled}) {
    EXPECT_EQ(st(Gen::Gfx8, Dfmt::F8, n, L), Defined);
    EXPECT_EQ(st(Gen::Gfx8, Dfmt::F8, n, S), Illegal);
  }
  EXPECT_EQ(st(Gen::Gfx8, Dfmt::Invalid, Nfmt::Uint, L), Illegal);
  EXPECT_EQ(st(Gen::Gfx8, Dfmt::Reserved, Nfmt::Uint, S), Illegal);
  EXPECT_EQ(st(Gen::Gfx8, Dfmt::F32, Nfmt::Unorm, L), Unknown);
  EXPECT_EQ(st(Gen::Gfx8, Dfmt::F32_32, Nfmt::Uint, S), Defined);
  // Defined pairs come without a reason, the others always with one.
  for (Gen g : kGcnGens)
    for (const DfmtInfo& d : allDfmts())
      for (unsigned n = 0; n < 8; ++n)
        for (Direction dir : {L, S}) {
          const PairVerdict v = pairStatus(g, d.code, static_cast<Nfmt>(n), dir);
          EXPECT_EQ(v.status == Defined, v.reason.empty()) << d.name << " " << n;
        }
}

}  // namespace format_test
using namespace format_test;  // NOLINT(google-build-using-namespace)
}  // namespace gcn

// Two's complement over every width and code of up to 16 bits: the value equals the unsigned
// code minus 2^bits when the top bit is set.
TEST(FormatHelpers, SignExtendIsTwosComplementForEveryCode) {
  for (unsigned bits = 1; bits <= 16; ++bits) {
    for (uint32_t code = 0; code < (1u << bits); ++code) {
      const int64_t want = (code >> (bits - 1)) ? static_cast<int64_t>(code) - (int64_t{1} << bits)
                                                : static_cast<int64_t>(code);
      ASSERT_EQ(gcn::signExtend(code, bits), want) << bits << " bits, code " << code;
    }
  }
  EXPECT_EQ(gcn::signExtend(0x80000000u, 32), INT32_MIN);
  EXPECT_EQ(gcn::signExtend(0x7fffffffu, 32), INT32_MAX);
}

// Float fields: the 32-, 16- and 11/10-bit data formats under NUM_FORMAT FLOAT, nothing else
// (docs/gcn-facts.md: only those data formats have a float interpretation).
TEST(FormatHelpers, FloatFieldsAreTheFloatCapableFormatsUnderFloat) {
  EXPECT_TRUE(gcn::isFloatField(gcn::Dfmt::F32, gcn::Nfmt::Float));
  EXPECT_TRUE(gcn::isFloatField(gcn::Dfmt::F16_16, gcn::Nfmt::Float));
  EXPECT_TRUE(gcn::isFloatField(gcn::Dfmt::F10_11_11, gcn::Nfmt::Float));
  EXPECT_FALSE(gcn::isFloatField(gcn::Dfmt::F8, gcn::Nfmt::Float));
  EXPECT_FALSE(gcn::isFloatField(gcn::Dfmt::F2_10_10_10, gcn::Nfmt::Float));
  EXPECT_FALSE(gcn::isFloatField(gcn::Dfmt::F32, gcn::Nfmt::Uint));
}
