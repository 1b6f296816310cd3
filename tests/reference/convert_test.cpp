// Conversions: golden values derived by hand from CLRX GcnMemHandling (number formats, RNE on
// writes), AMD RDNA3 ISA (D16: float32->half truncates, the rest RNE), docs/gcn-facts.md
// ("Conversions"), plus exhaustive round trips and an exhaustive proof that `norm=exact` is
// correctly rounded.
#include "reference/convert.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "reference/error.h"
#include "reference/float_bits.h"

namespace gcn {
namespace convert_test {

using fbits::bitsToFloat;
using fbits::floatToBits;

__extension__ typedef __int128 I128;

constexpr uint32_t kOne = 0x3f800000u;
constexpr uint32_t kMinusOne = 0xbf800000u;

// `set`: space-separated name=option assignments.
Policies pol(Gen g, std::string_view set = "") {
  Policies p = Policies::defaults(g);
  while (!set.empty()) {
    const std::size_t space = set.find(' ');
    p.set(set.substr(0, space));
    set = space == std::string_view::npos ? std::string_view{} : set.substr(space + 1);
  }
  return p;
}

uint32_t load(Gen g, Dfmt d, Nfmt n, unsigned comp, uint32_t code, std::string_view set = "") {
  const auto r = loadComponent(g, d, n, comp, code, pol(g, set));
  EXPECT_TRUE(r.has_value()) << dfmtName(d) << " " << nfmtName(n, g) << " code " << code;
  return r.value_or(0xdeadbeef);
}
uint32_t store(Gen g, Dfmt d, Nfmt n, unsigned comp, uint32_t reg, std::string_view set = "") {
  const auto r = storeComponent(g, d, n, comp, reg, pol(g, set));
  EXPECT_TRUE(r.has_value()) << dfmtName(d) << " " << nfmtName(n, g) << " reg " << reg;
  return r.value_or(0xdeadbeef);
}
uint32_t storeF(Gen g, Dfmt d, Nfmt n, unsigned comp, float f, std::string_view set = "") {
  return store(g, d, n, comp, floatToBits(f), set);
}

constexpr Gen G8 = Gen::Gfx8;

// ---------------------------------------------------------------- loads, hand-derived
TEST(ConvertLoad, UnormGolden) {
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Unorm, 0, 0), 0u);
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Unorm, 0, 255), kOne);
  // 128/255 = 2^-1 * 256/255; 2^23/255 = 32896.502 -> 32897 = 0x8081.
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Unorm, 0, 128), 0x3f008081u);
  // 1/255 = 2^-8 * 256/255: same mantissa 0x8081, exponent 127-8.
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Unorm, 0, 1), 0x3b808081u);
  // 32768/65535 = 2^-1 * (1 + 1/65535); 2^23/65535 = 128.002 -> 128 = 0x80.
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Unorm, 0, 0x8000), 0x3f000080u);
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Unorm, 0, 0xffff), kOne);
  // 512/1023 = 2^-1 * (1 + 1/1023); 2^23/1023 = 8200.008 -> 8200 = 0x2008 (X of 2_10_10_10).
  EXPECT_EQ(load(G8, Dfmt::F2_10_10_10, Nfmt::Unorm, 0, 512), 0x3f002008u);
  // 2-bit X of 10_10_10_2: 1/3 = 0x3eaaaaab, 2/3 = 0x3f2aaaab, 3/3 = 1.
  EXPECT_EQ(load(G8, Dfmt::F10_10_10_2, Nfmt::Unorm, 0, 1), 0x3eaaaaabu);
  EXPECT_EQ(load(G8, Dfmt::F10_10_10_2, Nfmt::Unorm, 0, 2), 0x3f2aaaabu);
  EXPECT_EQ(load(G8, Dfmt::F10_10_10_2, Nfmt::Unorm, 0, 3), kOne);
  EXPECT_EQ(load(G8, Dfmt::F2_10_10_10, Nfmt::Unorm, 3, 3), kOne);  // W of 2_10_10_10
}

TEST(ConvertLoad, SnormGolden) {
  // docs/gcn-facts.md: both MIN (-128) and MIN+1 (-127) read as -1.0.
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Snorm, 0, 0x80), kMinusOne);
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Snorm, 0, 0x81), kMinusOne);
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Snorm, 0, 0x7f), kOne);
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Snorm, 0, 0x00), 0u);  // +0.0, never -0.0
  // 1/127 = 2^-7 * 128/127; 2^23/127 = 66052.03 -> 66052 = 0x10204.
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Snorm, 0, 0x01), 0x3c010204u);
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Snorm, 0, 0xff), 0xbc010204u);
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Snorm, 0, 0x8000), kMinusOne);
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Snorm, 0, 0x8001), kMinusOne);
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Snorm, 0, 0x7fff), kOne);
  // 2-bit SNORM (max 1): codes 0,1,2(-2),3(-1) -> 0, 1, -1, -1.
  EXPECT_EQ(load(G8, Dfmt::F10_10_10_2, Nfmt::Snorm, 0, 0), 0u);
  EXPECT_EQ(load(G8, Dfmt::F10_10_10_2, Nfmt::Snorm, 0, 1), kOne);
  EXPECT_EQ(load(G8, Dfmt::F10_10_10_2, Nfmt::Snorm, 0, 2), kMinusOne);
  EXPECT_EQ(load(G8, Dfmt::F10_10_10_2, Nfmt::Snorm, 0, 3), kMinusOne);
  // 10-bit: -512 and -511 -> -1; 511 -> 1.
  EXPECT_EQ(load(G8, Dfmt::F2_10_10_10, Nfmt::Snorm, 1, 0x200), kMinusOne);
  EXPECT_EQ(load(G8, Dfmt::F2_10_10_10, Nfmt::Snorm, 1, 0x201), kMinusOne);
  EXPECT_EQ(load(G8, Dfmt::F2_10_10_10, Nfmt::Snorm, 1, 0x1ff), kOne);
}

TEST(ConvertLoad, SnormOglGolden) {
  // docs/gcn-facts.md: (2c+1)/(2^n-1), gfx6/7 only.
  for (Gen g : {Gen::Gfx6, Gen::Gfx7}) {
    EXPECT_EQ(load(g, Dfmt::F8, Nfmt::SnormOgl, 0, 0x80), kMinusOne);    // -255/255
    EXPECT_EQ(load(g, Dfmt::F8, Nfmt::SnormOgl, 0, 0x7f), kOne);         // 255/255
    EXPECT_EQ(load(g, Dfmt::F8, Nfmt::SnormOgl, 0, 0x00), 0x3b808081u);  // 1/255
    EXPECT_EQ(load(g, Dfmt::F8, Nfmt::SnormOgl, 0, 0xff), 0xbb808081u);  // -1/255
    // 2-bit: c = -2..1 -> -3/3, -1/3, 1/3, 3/3.
    EXPECT_EQ(load(g, Dfmt::F10_10_10_2, Nfmt::SnormOgl, 0, 2), kMinusOne);
    EXPECT_EQ(load(g, Dfmt::F10_10_10_2, Nfmt::SnormOgl, 0, 3), 0xbeaaaaabu);
    EXPECT_EQ(load(g, Dfmt::F10_10_10_2, Nfmt::SnormOgl, 0, 0), 0x3eaaaaabu);
  }
  EXPECT_FALSE(loadComponent(Gen::Gfx8, Dfmt::F8, Nfmt::SnormOgl, 0, 0, pol(G8)));
  EXPECT_FALSE(loadComponent(Gen::Gfx9, Dfmt::F8, Nfmt::SnormOgl, 0, 0, pol(Gen::Gfx9)));
}

TEST(ConvertLoad, ScaledAndIntegerGolden) {
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Uscaled, 0, 0xffff), 0x477fff00u);  // 65535.0
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Sscaled, 0, 0x8000), 0xc7000000u);  // -32768.0
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Sscaled, 0, 0xff), kMinusOne);       // -1.0
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Uscaled, 0, 0x00), 0u);
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Uint, 0, 0xff), 255u);
  EXPECT_EQ(load(G8, Dfmt::F8, Nfmt::Sint, 0, 0x80), 0xffffff80u);
  EXPECT_EQ(load(G8, Dfmt::F2_10_10_10, Nfmt::Sint, 0, 0x200), 0xfffffe00u);  // -512
  EXPECT_EQ(load(G8, Dfmt::F10_10_10_2, Nfmt::Sint, 0, 2), 0xfffffffeu);      // 2-bit -2
  EXPECT_EQ(load(G8, Dfmt::F10_10_10_2, Nfmt::Uint, 0, 3), 3u);
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Uint, 0, 0xffffffff), 0xffffffffu);
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Sint, 0, 0x80000000), 0x80000000u);
}

TEST(ConvertLoad, FloatGolden) {
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Float, 0, 0x7f800001), 0x7f800001u);  // raw, sNaN kept
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Float, 0, 0x3c00), kOne);
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Float, 0, 0x0001), 0x33800000u);  // denormal 2^-24
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Float, 0, 0xfc00), 0xff800000u);
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Float, 0, 0x8000), 0x80000000u);
  EXPECT_EQ(load(G8, Dfmt::F16_16, Nfmt::Float, 1, 0x7e00), 0x7fc00000u);
  // 10_11_11: X,Y uf11, Z uf10; 11_11_10: X uf10, Y,Z uf11 (docs/gcn-facts.md layouts).
  EXPECT_EQ(load(G8, Dfmt::F10_11_11, Nfmt::Float, 0, 0x3c0), kOne);
  EXPECT_EQ(load(G8, Dfmt::F10_11_11, Nfmt::Float, 2, 0x1e0), kOne);
  EXPECT_EQ(load(G8, Dfmt::F11_11_10, Nfmt::Float, 0, 0x1e0), kOne);
  EXPECT_EQ(load(G8, Dfmt::F11_11_10, Nfmt::Float, 2, 0x7bf), 0x477e0000u);  // 65024
  EXPECT_EQ(load(G8, Dfmt::F10_11_11, Nfmt::Float, 1, 0x7c0), 0x7f800000u);  // +Inf
  // Unknown on gfx6 (CLRX GcnMemHandling): no value claimed.
  EXPECT_FALSE(loadComponent(Gen::Gfx6, Dfmt::F10_11_11, Nfmt::Float, 0, 0x3c0, pol(Gen::Gfx6)));
  EXPECT_EQ(load(Gen::Gfx7, Dfmt::F10_11_11, Nfmt::Float, 0, 0x3c0), kOne);
}

TEST(ConvertLoad, UndefinedAndBadInput) {
  EXPECT_FALSE(loadComponent(G8, Dfmt::F8_8_8_8, Nfmt::Float, 0, 0, pol(G8)));  // Illegal
  EXPECT_FALSE(loadComponent(G8, Dfmt::F32, Nfmt::Unorm, 0, 0, pol(G8, "norm32=undefined")));
  EXPECT_THROW(loadComponent(G8, Dfmt::F8, Nfmt::Unorm, 1, 0, pol(G8)), Error);    // no Y
  EXPECT_THROW(loadComponent(G8, Dfmt::F8, Nfmt::Unorm, 0, 256, pol(G8)), Error);  // > 8 bits
  try {
    loadComponent(G8, Dfmt::F8_8, Nfmt::Unorm, 3, 0, pol(G8));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("8_8"), std::string::npos) << e.what();
  }
}

// alpha2: the 2-bit W of 2_10_10_10 SNORM/SSCALED/SINT. radeonsi si_state.c: "The hardware always
// treats the 2-bit alpha channel as unsigned" on GFX8 and older except Stoney; Mesa
// ac_shader_util.c sets alpha_adjust for level <= GFX8 && family != CHIP_STONEY. W code 2 (0b10):
// unsigned, SNORM reads 2/3 (0x3f2aaaab, the UNORM formula), SSCALED 2.0, SINT 2; signed, -2
// clamps to -1.0 for SNORM, -2.0 for SSCALED, -2 for SINT. X, Y, Z are unaffected.
TEST(ConvertLoad, Alpha2IsUnsignedOnGfx6To8ButStoney) {
  struct Row {
    Nfmt n;
    uint32_t asUnsigned, asSigned;
  };
  const Row rows[] = {{Nfmt::Snorm, 0x3f2aaaabu, kMinusOne},
                      {Nfmt::Sscaled, 0x40000000u, 0xc0000000u},
                      {Nfmt::Sint, 2u, 0xfffffffeu}};
  for (const Chip& chip : gcnChips()) {
    const bool signedW = chip.gen == Gen::Gfx9 || chip.name == "stoney";
    const Policies p = Policies::defaults(chip);
    for (const Row& row : rows) {
      EXPECT_EQ(loadComponent(chip.gen, Dfmt::F2_10_10_10, row.n, 3, 2, p),
                signedW ? row.asSigned : row.asUnsigned)
          << chip.name;
      // X is a 10-bit signed field either way: code 0x3fe is -2.
      EXPECT_EQ(loadComponent(chip.gen, Dfmt::F2_10_10_10, Nfmt::Sint, 0, 0x3fe, p), 0xfffffffeu);
    }
  }
  EXPECT_EQ(load(G8, Dfmt::F2_10_10_10, Nfmt::Sint, 3, 2, "alpha2=signed"), 0xfffffffeu);
  EXPECT_EQ(load(Gen::Gfx9, Dfmt::F2_10_10_10, Nfmt::Sint, 3, 2, "alpha2=unsigned"), 2u);
  // D16 (GFX8 unpacked chips): the same rule, in half precision: 2/3 -> 0x3955, -1 -> 0xbc00.
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F2_10_10_10, Nfmt::Snorm, 3, 2,
                             Policies::defaults(parseChip("tonga"))),
            uint16_t{0x3955});
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F2_10_10_10, Nfmt::Snorm, 3, 2,
                             Policies::defaults(parseChip("stoney"))),
            uint16_t{0xbc00});
}

// packed-order: CLRX GcnMemHandling puts X of 11_11_10 in bits 0-9 ("one 10-bit and two 11-bit
// components from lowest bit") and X of 10_10_10_2 in bits 0-1; shadPS4 reads the fields in the
// reverse order. 0x882003C0 as 11_11_10 FLOAT: CLRX X = 0x3c0 (10-bit float, exponent 30:
// 32768), Y = 0, Z = 0x441 (11-bit, exponent 17, mantissa 1/64: 4.0625); reversed X = 0x220
// (exponent 17: 4), Y = 0x400 (exponent 16: 2), Z = 0x3c0 (11-bit, exponent 15: 1).
// 0xC0300C01 as 10_10_10_2 UINT: CLRX (1, 0x300, 0x300, 0x300); reversed (3, 3, 3, 1).
TEST(ConvertLoad, PackedOrderOf11_11_10And10_10_10_2) {
  const auto element = [](uint32_t dword) {
    return std::vector<uint8_t>{static_cast<uint8_t>(dword), static_cast<uint8_t>(dword >> 8),
                                static_cast<uint8_t>(dword >> 16),
                                static_cast<uint8_t>(dword >> 24)};
  };
  const auto regs = [&](Dfmt d, Nfmt n, uint32_t dword, std::string_view set) {
    const LoadedElement e = loadElement(G8, d, n, element(dword), pol(G8, set));
    std::vector<uint32_t> out;
    for (unsigned c = 0; c < e.count; ++c)
      out.push_back(e.reg[c].value_or(0xdeadbeef));
    return out;
  };
  EXPECT_EQ(regs(Dfmt::F11_11_10, Nfmt::Float, 0x882003C0u, ""),
            (std::vector<uint32_t>{0x47000000u, 0u, 0x40820000u}));
  EXPECT_EQ(regs(Dfmt::F11_11_10, Nfmt::Float, 0x882003C0u, "packed-order=reversed"),
            (std::vector<uint32_t>{0x40800000u, 0x40000000u, kOne}));
  EXPECT_EQ(regs(Dfmt::F10_10_10_2, Nfmt::Uint, 0xC0300C01u, ""),
            (std::vector<uint32_t>{1u, 0x300u, 0x300u, 0x300u}));
  EXPECT_EQ(regs(Dfmt::F10_10_10_2, Nfmt::Uint, 0xC0300C01u, "packed-order=reversed"),
            (std::vector<uint32_t>{3u, 3u, 3u, 1u}));
  // The other packed formats keep their order under both options.
  EXPECT_EQ(regs(Dfmt::F2_10_10_10, Nfmt::Uint, 0xC0300C01u, "packed-order=reversed"),
            regs(Dfmt::F2_10_10_10, Nfmt::Uint, 0xC0300C01u, ""));
  // Stores put each field where loads read it: a round trip under reversed.
  const Policies rev = pol(G8, "packed-order=reversed");
  const std::array<uint32_t, 4> in{3u, 3u, 3u, 1u};
  const StoredElement st = storeElement(G8, Dfmt::F10_10_10_2, Nfmt::Uint, in, rev);
  ASSERT_TRUE(st.defined);
  EXPECT_EQ(std::vector<uint8_t>(st.bytes.begin(), st.bytes.begin() + 4), element(0xC0300C01u));
}

// D16 loads of 32-bit normalized/scaled fields: norm32=raw keeps the 32 bits, which no 16-bit
// register can hold, so no value is claimed; under formula SSCALED's minimum -2^31 rounds to
// nearest even in half precision, which overflows to -Inf (0xfc00), and 2^31-1 to +Inf.
TEST(ConvertLoad, D16Norm32PerPolicy) {
  const Gen g9 = Gen::Gfx9;
  for (Nfmt n : {Nfmt::Unorm, Nfmt::Snorm, Nfmt::Uscaled, Nfmt::Sscaled})
    EXPECT_FALSE(loadComponentD16(g9, Dfmt::F32, n, 0, 0x80000000u, pol(g9)));
  EXPECT_EQ(
      loadComponentD16(g9, Dfmt::F32, Nfmt::Sscaled, 0, 0x80000000u, pol(g9, "norm32=formula")),
      uint16_t{0xfc00});
  EXPECT_EQ(
      loadComponentD16(g9, Dfmt::F32, Nfmt::Sscaled, 0, 0x7fffffffu, pol(g9, "norm32=formula")),
      uint16_t{0x7c00});
  // UNORM 2^31 / (2^32 - 1) is 0.5 + 2^-33 + ...: half 0.5 (0x3800).
  EXPECT_EQ(loadComponentD16(g9, Dfmt::F32, Nfmt::Unorm, 0, 0x80000000u, pol(g9, "norm32=formula")),
            uint16_t{0x3800});
}

// norm32: raw bits by default (AMD Southern Islands ISA on MTBUF, quoted by Mesa radeonsi and
// RADV: "Memory reads of data in memory that is 32 or 64 bits do not undergo any format
// conversion"); the formula at 32 bits on request (hand-derived: 2^31/(2^32-1) is
// 0.5 + 2^-33 + ..., which rounds to 0.5; 2^32-1 and 2^24+1 round to nearest even in float);
// undefined as the third option.
TEST(ConvertLoad, Norm32PerPolicy) {
  for (Nfmt n : {Nfmt::Unorm, Nfmt::Snorm, Nfmt::Uscaled, Nfmt::Sscaled}) {
    for (uint32_t code : {0u, 1u, 0x80000000u, 0xffffffffu, 0x3f800000u}) {
      EXPECT_EQ(loadComponent(G8, Dfmt::F32, n, 0, code, pol(G8)), code);
      EXPECT_EQ(loadComponent(Gen::Gfx6, Dfmt::F32_32_32_32, n, 3, code, pol(Gen::Gfx6)), code);
    }
    EXPECT_FALSE(loadComponent(G8, Dfmt::F32, n, 0, 1, pol(G8, "norm32=undefined")));
    EXPECT_FALSE(loadComponent(G8, Dfmt::F32_32, n, 1, 1, pol(G8, "norm32=undefined")));
    EXPECT_EQ(pairVerdict(G8, Dfmt::F32, n, Direction::Load, pol(G8)).status, PairStatus::Defined);
    EXPECT_EQ(pairVerdict(G8, Dfmt::F32, n, Direction::Load, pol(G8, "norm32=undefined")).status,
              PairStatus::Unknown);
    EXPECT_EQ(pairVerdict(G8, Dfmt::F32, n, Direction::Load, pol(G8, "norm32=formula")).status,
              PairStatus::Defined);
    // Stores stay undefined under every option.
    for (std::string_view o : {"norm32=raw", "norm32=formula", "norm32=undefined"})
      EXPECT_FALSE(storeComponent(G8, Dfmt::F32, n, 0, kOne, pol(G8, o)));
  }
  const std::string_view f = "norm32=formula";
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Unorm, 0, 0xffffffff, f), kOne);
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Unorm, 0, 0, f), 0u);
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Unorm, 0, 0x80000000, f), 0x3f000000u);  // 0.5
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Snorm, 0, 0x7fffffff, f), kOne);
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Snorm, 0, 0x80000000, f), kMinusOne);  // MIN -> -1
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Snorm, 0, 0x80000001, f), kMinusOne);
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Uscaled, 0, 0xffffffff, f), 0x4f800000u);  // 2^32
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Uscaled, 0, 0x01000001, f), 0x4b800000u);  // 2^24
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Uscaled, 0, 0x01000003, f), 0x4b800002u);  // tie up
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Sscaled, 0, 0x80000000, f), 0xcf000000u);  // -2^31
  EXPECT_EQ(load(G8, Dfmt::F32, Nfmt::Sscaled, 0, 0xffffffff, f), kMinusOne);
  // SNORM_OGL (gfx6/7) is not one of the four: undefined under every option.
  for (std::string_view o : {"norm32=raw", "norm32=formula", "norm32=undefined"})
    EXPECT_FALSE(loadComponent(Gen::Gfx7, Dfmt::F32, Nfmt::SnormOgl, 0, 1, pol(Gen::Gfx7, o)));
  // Narrower fields ignore the point.
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Uscaled, 0, 0xffff, f), 0x477fff00u);
}

// nan-widen: IEEE quiets a signalling NaN; "exact" shifts the mantissa bits up unchanged.
// Hand-derived: half 0x7c01 has payload 1 -> bit 13; uf11 0x7c1 payload 1 -> bit 17; uf10
// 0x3e1 -> bit 18; the float quiet bit is 0x400000.
TEST(ConvertLoad, NanWidenPerPolicy) {
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Float, 0, 0x7c01), 0x7fc02000u);
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Float, 0, 0x7c01, "nan-widen=exact"), 0x7f802000u);
  EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Float, 0, 0xfc01, "nan-widen=exact"), 0xff802000u);
  // A quiet NaN is the same under both; so are Inf and finite values.
  for (std::string_view o : {"nan-widen=quiet", "nan-widen=exact"}) {
    EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Float, 0, 0xfe00, o), 0xffc00000u);
    EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Float, 0, 0x7c00, o), 0x7f800000u);
    EXPECT_EQ(load(G8, Dfmt::F16, Nfmt::Float, 0, 0x3c00, o), kOne);
  }
  EXPECT_EQ(load(G8, Dfmt::F10_11_11, Nfmt::Float, 0, 0x7c1), 0x7fc20000u);
  EXPECT_EQ(load(G8, Dfmt::F10_11_11, Nfmt::Float, 0, 0x7c1, "nan-widen=exact"), 0x7f820000u);
  EXPECT_EQ(load(G8, Dfmt::F10_11_11, Nfmt::Float, 2, 0x3e1, "nan-widen=exact"), 0x7f840000u);
  // D16 (gfx8+): an 11/10-bit NaN widening to half; a half field is returned as it is.
  const auto d16 = [](uint32_t code, unsigned comp, std::string_view o) {
    return loadComponentD16(G8, Dfmt::F10_11_11, Nfmt::Float, comp, code, pol(G8, o));
  };
  EXPECT_EQ(d16(0x7c1, 0, "nan-widen=quiet"), uint16_t{0x7e10});
  EXPECT_EQ(d16(0x7c1, 0, "nan-widen=exact"), uint16_t{0x7c10});
  EXPECT_EQ(d16(0x3e1, 2, "nan-widen=exact"), uint16_t{0x7c20});
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F16, Nfmt::Float, 0, 0x7c01, pol(G8)), uint16_t{0x7c01});
}

// Every 16-bit code under nan-widen=exact: finite and Inf values widen exactly as under quiet;
// every NaN keeps its sign and its whole payload with no bit added (widened back by hand).
TEST(ConvertExhaustive, NanWidenExactKeepsEveryPayload) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const uint32_t q = load(G8, Dfmt::F16, Nfmt::Float, 0, h);
    const uint32_t x = load(G8, Dfmt::F16, Nfmt::Float, 0, h, "nan-widen=exact");
    const bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
    if (!nan) {
      ASSERT_EQ(x, q) << h;
      continue;
    }
    ASSERT_EQ(x, ((h & 0x8000u) << 16) | 0x7f800000u | ((h & 0x3ffu) << 13)) << h;
    ASSERT_EQ(q, x | 0x400000u) << h;
  }
}

// ---------------------------------------------------------------- stores, hand-derived
TEST(ConvertStore, UnormGolden) {
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, 1.0f), 255u);
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, 0.0f), 0u);
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, -0.0f), 0u);
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, 1.5f), 255u);  // clamp
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, -0.5f), 0u);   // clamp
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, NAN), 0u);     // NaN -> 0
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, INFINITY), 255u);
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, -INFINITY), 0u);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Unorm, 0, 0x00000001u), 0u);  // denormal -> 0
  // Exact tie: 0.5 * 255 = 127.5 -> even 128.
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, 0.5f), 128u);
  // 0.5f/255 is float(1/510) = 2^-9 * (1 + 32897/2^23) (1/510 rounded UP: 2^23/255 =
  // 32896.502), so f*255 is just above 0.5 -> 1. The float below it gives just under 0.5 ->
  // 0. (Computing f*255 in float would give exactly 0.5 and round to 0: the product must be
  // exact.)
  const float f = 0.5f / 255.0f;
  EXPECT_EQ(floatToBits(f), 0x3b008081u);
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, f), 1u);
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, std::nextafter(f, 0.0f)), 0u);
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Unorm, 0, 0.5f), 0x8000u);       // 32767.5 -> 32768
  EXPECT_EQ(storeF(G8, Dfmt::F2_10_10_10, Nfmt::Unorm, 0, 0.5f), 512u);  // 511.5 -> 512
  EXPECT_EQ(storeF(G8, Dfmt::F10_10_10_2, Nfmt::Unorm, 0, 0.5f), 2u);    // 1.5 -> 2
  // 1.0f/6 = 0x3e2aaaab is 1/6 rounded UP (1/3's mantissa pattern), so f*3 is just above the
  // 0.5 tie -> 1; the float below it (0x3e2aaaaa) is below 1/6 -> 0.
  EXPECT_EQ(floatToBits(1.0f / 6), 0x3e2aaaabu);
  EXPECT_EQ(storeF(G8, Dfmt::F10_10_10_2, Nfmt::Unorm, 0, 1.0f / 6), 1u);
  EXPECT_EQ(store(G8, Dfmt::F10_10_10_2, Nfmt::Unorm, 0, 0x3e2aaaaau), 0u);
  EXPECT_EQ(storeF(G8, Dfmt::F10_10_10_2, Nfmt::Unorm, 0, 0.25f), 1u);  // 0.75 -> 1
}

TEST(ConvertStore, SnormGolden) {
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Snorm, 0, 1.0f), 0x7fu);
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Snorm, 0, -1.0f), 0x81u);  // -127, never MIN
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Snorm, 0, -1.5f), 0x81u);
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Snorm, 0, -INFINITY), 0x81u);
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Snorm, 0, NAN), 0u);
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Snorm, 0, -0.0f), 0u);     // -0.0 -> code 0
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Snorm, 0, 0.5f), 0x40u);   // 63.5 -> even 64
  EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Snorm, 0, -0.5f), 0xc0u);  // -63.5 -> -64
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Snorm, 0, -1.0f), 0x8001u);
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Snorm, 0, 0.5f), 0x4000u);  // 16383.5 -> 16384
  // 2-bit (max 1): 0.5 -> tie 0/1 -> even 0; -0.5 -> 0; 0.75 -> 1; -1 -> 3 (= -1).
  EXPECT_EQ(storeF(G8, Dfmt::F10_10_10_2, Nfmt::Snorm, 0, 0.5f), 0u);
  EXPECT_EQ(storeF(G8, Dfmt::F10_10_10_2, Nfmt::Snorm, 0, -0.5f), 0u);
  EXPECT_EQ(storeF(G8, Dfmt::F10_10_10_2, Nfmt::Snorm, 0, 0.75f), 1u);
  EXPECT_EQ(storeF(G8, Dfmt::F10_10_10_2, Nfmt::Snorm, 0, -1.0f), 3u);
}

TEST(ConvertStore, IntegerPerPolicy) {
  // clamp: register read as uint32 (UINT) or int32 (SINT), saturated to the field.
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Uint, 0, 300), 255u);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Uint, 0, 0xffffffffu), 255u);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Uint, 0, 7), 7u);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Sint, 0, static_cast<uint32_t>(-200)), 0x80u);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Sint, 0, 200), 0x7fu);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Sint, 0, 0x80000000u), 0x80u);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Sint, 0, static_cast<uint32_t>(-5)), 0xfbu);
  EXPECT_EQ(store(G8, Dfmt::F10_10_10_2, Nfmt::Uint, 0, 4), 3u);
  EXPECT_EQ(store(G8, Dfmt::F10_10_10_2, Nfmt::Sint, 0, static_cast<uint32_t>(-3)), 2u);
  EXPECT_EQ(store(G8, Dfmt::F32, Nfmt::Uint, 0, 0xffffffffu), 0xffffffffu);
  // truncate: the low bits. 300 = 0x12c -> 0x2c; -200 = 0xffffff38 -> 0x38.
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Uint, 0, 300, "int-store=truncate"), 0x2cu);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Sint, 0, static_cast<uint32_t>(-200), "int-store=truncate"),
            0x38u);
  EXPECT_EQ(store(G8, Dfmt::F16, Nfmt::Uint, 0, 0x12345, "int-store=truncate"), 0x2345u);
}

TEST(ConvertStore, FloatGolden) {
  EXPECT_EQ(store(G8, Dfmt::F32, Nfmt::Float, 0, 0x7f800001u), 0x7f800001u);  // raw
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Float, 0, 1.0f), 0x3c00u);
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Float, 0, -0.0f), 0x8000u);
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Float, 0, 1e9f), 0x7c00u);      // overflow -> Inf
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Float, 0, 65520.0f), 0x7c00u);  // tie -> even = Inf
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Float, 0, std::ldexp(1.0f, -24)), 0x0001u);
  EXPECT_EQ(store(G8, Dfmt::F16, Nfmt::Float, 0, 0xffc00000u), 0xfe00u);  // NaN keeps sign
  EXPECT_EQ(storeF(G8, Dfmt::F10_11_11, Nfmt::Float, 0, -1.0f), 0u);      // uf11: neg -> 0
  EXPECT_EQ(storeF(G8, Dfmt::F10_11_11, Nfmt::Float, 2, 1e6f), 0x3dfu);   // uf10: -> max
  EXPECT_EQ(storeF(G8, Dfmt::F11_11_10, Nfmt::Float, 0, 1.0f), 0x1e0u);   // X is uf10
  EXPECT_EQ(storeF(G8, Dfmt::F11_11_10, Nfmt::Float, 1, -0.0f), 0u);
}

// uf-overflow: uf11 max is 65024 (0x7bf), uf10 max 64512 (0x3df); the next step up would be
// 65536 / 65536, so the midpoints are 65280 (uf11) and 65024 (uf10). A tie rounds to even,
// which is the infinity encoding (the max's mantissa is odd).
TEST(ConvertStore, UfOverflowPerPolicy) {
  const auto uf11 = [](float f, std::string_view o) {
    return storeF(G8, Dfmt::F10_11_11, Nfmt::Float, 0, f, o);
  };
  const auto uf10 = [](float f, std::string_view o) {
    return storeF(G8, Dfmt::F10_11_11, Nfmt::Float, 2, f, o);
  };
  EXPECT_EQ(uf11(1e6f, "uf-overflow=max"), 0x7bfu);
  EXPECT_EQ(uf11(1e6f, "uf-overflow=inf"), 0x7c0u);
  EXPECT_EQ(uf10(1e6f, "uf-overflow=max"), 0x3dfu);
  EXPECT_EQ(uf10(1e6f, "uf-overflow=inf"), 0x3e0u);
  EXPECT_EQ(uf11(65279.0f, "uf-overflow=inf"), 0x7bfu);  // below the midpoint
  EXPECT_EQ(uf11(65280.0f, "uf-overflow=inf"), 0x7c0u);  // the midpoint: tie to even
  EXPECT_EQ(uf11(65280.0f, "uf-overflow=max"), 0x7bfu);
  EXPECT_EQ(uf10(65023.0f, "uf-overflow=inf"), 0x3dfu);
  EXPECT_EQ(uf10(65024.0f, "uf-overflow=inf"), 0x3e0u);
  // Both agree on the largest finite, +Inf, NaN and negative values.
  for (std::string_view o : {"uf-overflow=max", "uf-overflow=inf"}) {
    EXPECT_EQ(uf11(65024.0f, o), 0x7bfu);
    EXPECT_EQ(uf11(INFINITY, o), 0x7c0u);
    EXPECT_EQ(uf11(-1e6f, o), 0u);
    EXPECT_EQ(store(G8, Dfmt::F10_11_11, Nfmt::Float, 1, 0x7fc00000u, std::string(o)), 0x7e0u);
  }
  // Half stores overflow to Inf whatever the point says (it is about 11/10-bit fields).
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Float, 0, 1e9f, "uf-overflow=max"), 0x7c00u);
}

// norm-store: the product f * max rounded once (exact), or first to float32 (f32mul). Golden
// values from exact rational arithmetic (Python fractions), not from the code under test:
// 0.3f * 255 = 76.5000030398...: exact 77; as a float32 the product is 76.5, a tie, even 76.
// 0.9f * 65535 = 58981.4984375...: exact 58981; float32 58981.5, even 58982.
// SNORM8 0x3c418306 * 127 = 1.49999999441...: exact 1; float32 1.5, even 2.
// Lavapipe's storage texel buffer stores give the f32mul values (gcnprobe fuzz findings).
TEST(ConvertStore, NormStorePerPolicy) {
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Unorm, 0, 0x3e99999au), 0x4du);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Unorm, 0, 0x3e99999au, "norm-store=exact"), 0x4du);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Unorm, 0, 0x3e99999au, "norm-store=f32mul"), 0x4cu);
  EXPECT_EQ(store(G8, Dfmt::F16, Nfmt::Unorm, 0, 0x3f666666u, "norm-store=exact"), 0xe665u);
  EXPECT_EQ(store(G8, Dfmt::F16, Nfmt::Unorm, 0, 0x3f666666u, "norm-store=f32mul"), 0xe666u);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Snorm, 0, 0x3c418306u, "norm-store=exact"), 0x01u);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Snorm, 0, 0x3c418306u, "norm-store=f32mul"), 0x02u);
  // Negative SNORM: the same magnitude, two's complement in the field (-1, -2).
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Snorm, 0, 0xbc418306u, "norm-store=exact"), 0xffu);
  EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Snorm, 0, 0xbc418306u, "norm-store=f32mul"), 0xfeu);
  // Both agree where the float32 product is exact or far from a tie, and on the clamps.
  for (std::string_view o : {"norm-store=exact", "norm-store=f32mul"}) {
    EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, 0.5f, o), 0x80u);  // 127.5: tie, even 128
    EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, 2.0f, o), 0xffu);
    EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Unorm, 0, -1.0f, o), 0x00u);
    EXPECT_EQ(storeF(G8, Dfmt::F8, Nfmt::Snorm, 0, -3.0f, o), 0x81u);  // -1.0 -> -127
    EXPECT_EQ(store(G8, Dfmt::F8, Nfmt::Unorm, 0, 0x7fc00000u, std::string(o)), 0x00u);  // NaN
  }
}

// float-store-round: nearest even or toward zero. Golden values derived by hand:
// -0.48875f (0xbefa3d71) = -1.955 * 2^-2: half mantissa 0.955 * 1024 = 977.9, so 978 (0xb7d2,
// as Python's struct 'e' packs it) or 977 (0xb7d1). 0.5225f (0x3f05c28f) = 1.045 * 2^-1: uf11
// mantissa 0.045 * 64 = 2.88, so 3 (0x383) or 2 (0x382). Toward zero never overflows a
// finite value to Inf, whatever uf-overflow says.
TEST(ConvertStore, FloatStoreRoundPerPolicy) {
  EXPECT_EQ(store(G8, Dfmt::F16, Nfmt::Float, 0, 0xbefa3d71u), 0xb7d2u);
  EXPECT_EQ(store(G8, Dfmt::F16, Nfmt::Float, 0, 0xbefa3d71u, "float-store-round=toward-zero"),
            0xb7d1u);
  EXPECT_EQ(store(G8, Dfmt::F10_11_11, Nfmt::Float, 0, 0x3f05c28fu), 0x383u);
  EXPECT_EQ(
      store(G8, Dfmt::F10_11_11, Nfmt::Float, 0, 0x3f05c28fu, "float-store-round=toward-zero"),
      0x382u);
  const std::string rtz = "float-store-round=toward-zero";
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Float, 0, 1e30f, rtz), 0x7bffu);   // 65504
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Float, 0, -1e30f, rtz), 0xfbffu);  // -65504
  EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Float, 0, 65520.0f, rtz), 0x7bffu);
  EXPECT_EQ(storeF(G8, Dfmt::F10_11_11, Nfmt::Float, 0, 1e6f, rtz + " uf-overflow=inf"), 0x7bfu);
  EXPECT_EQ(storeF(G8, Dfmt::F10_11_11, Nfmt::Float, 2, 1e6f, rtz + " uf-overflow=inf"), 0x3dfu);
  // Exact values, infinities and NaN are the same under both.
  for (const std::string& o : {std::string("float-store-round=nearest-even"), rtz}) {
    EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Float, 0, 1.0f, o), 0x3c00u);
    EXPECT_EQ(storeF(G8, Dfmt::F16, Nfmt::Float, 0, INFINITY, o), 0x7c00u);
    EXPECT_EQ(store(G8, Dfmt::F16, Nfmt::Float, 0, 0xffc00000u, o), 0xfe00u);
    EXPECT_EQ(storeF(G8, Dfmt::F10_11_11, Nfmt::Float, 0, 0.5f, o), 0x380u);
  }
}

// Toward zero, over every float32 exponent with random mantissas: the stored half never
// exceeds the value in magnitude, and the next half up does (or the value is beyond the
// largest finite); nearest even is either the same half or that next one.
TEST(ConvertStore, FloatStoreTowardZeroBracketsTheValue) {
  uint64_t x = 0x5eed;
  for (int i = 0; i < 200000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t f = static_cast<uint32_t>(x >> 32) & 0x7fffffffu;
    if (((f >> 23) & 0xffu) == 0xffu) continue;  // Inf, NaN
    const double v = static_cast<double>(bitsToFloat(f));
    const uint32_t z = store(G8, Dfmt::F16, Nfmt::Float, 0, f, "float-store-round=toward-zero");
    const uint32_t n = store(G8, Dfmt::F16, Nfmt::Float, 0, f);
    ASSERT_LT(z, 0x7c00u) << std::hex << f;  // finite, positive
    const double below = static_cast<double>(bitsToFloat(fbits::halfToFloat(z)));
    ASSERT_LE(below, v) << std::hex << f;
    if (z < 0x7bffu) {
      const double above = static_cast<double>(bitsToFloat(fbits::halfToFloat(z + 1)));
      ASSERT_GT(above, v) << std::hex << f;
      ASSERT_TRUE(n == z || n == z + 1) << std::hex << f;
    } else {
      ASSERT_TRUE(n == z || n == 0x7c00u) << std::hex << f;
    }
  }
}

TEST(ConvertStore, NotWritable) {
  for (Nfmt n : {Nfmt::Uscaled, Nfmt::Sscaled})
    EXPECT_FALSE(storeComponent(G8, Dfmt::F8, n, 0, 0, pol(G8)));
  EXPECT_FALSE(storeComponent(Gen::Gfx7, Dfmt::F8, Nfmt::SnormOgl, 0, 0, pol(Gen::Gfx7)));
  EXPECT_FALSE(storeComponent(G8, Dfmt::F8_8_8_8, Nfmt::Float, 0, 0, pol(G8)));
}

// ---------------------------------------------------------------- elements and layouts
TEST(ConvertElement, PackedLayouts) {
  // 10_10_10_2: X is the 2-bit field at bit 0 (CLRX GcnMemHandling, docs/gcn-facts.md).
  const uint32_t x1[4] = {kOne, 0, 0, 0};
  StoredElement s = storeElement(G8, Dfmt::F10_10_10_2, Nfmt::Unorm, x1, pol(G8));
  ASSERT_TRUE(s.defined);
  EXPECT_EQ(s.size, 4);
  EXPECT_EQ(s.bytes[0], 0x03);
  // 2_10_10_10: W is the 2-bit field at bit 30.
  const uint32_t w1[4] = {0, 0, 0, kOne};
  s = storeElement(G8, Dfmt::F2_10_10_10, Nfmt::Unorm, w1, pol(G8));
  EXPECT_EQ(s.bytes[3], 0xc0);
  EXPECT_EQ(s.bytes[0] | s.bytes[1] | s.bytes[2], 0);
  // 10_11_11 FLOAT (1.0, -1.0, 1e6) -> 0x3c0 | 0 << 11 | 0x3df << 22 = 0xf7c003c0.
  const uint32_t f3[3] = {kOne, kMinusOne, floatToBits(1e6f)};
  s = storeElement(G8, Dfmt::F10_11_11, Nfmt::Float, f3, pol(G8));
  uint32_t word = 0;
  std::memcpy(&word, s.bytes.data(), 4);
  EXPECT_EQ(word, 0xf7c003c0u);
  // Loading the docs/convert.md example 0x807f0181 as 8_8_8_8 SNORM: X=0x81, Y=0x01, Z=0x7f,
  // W=0x80.
  const uint8_t bytes[4] = {0x81, 0x01, 0x7f, 0x80};
  const LoadedElement e = loadElement(G8, Dfmt::F8_8_8_8, Nfmt::Snorm, bytes, pol(G8));
  ASSERT_EQ(e.count, 4);
  EXPECT_EQ(e.reg[0], kMinusOne);
  EXPECT_EQ(e.reg[1], 0x3c010204u);
  EXPECT_EQ(e.reg[2], kOne);
  EXPECT_EQ(e.reg[3], kMinusOne);
  EXPECT_TRUE(e.undefinedReason.empty());
  // Wrong register count is bad input.
  EXPECT_THROW(storeElement(G8, Dfmt::F8_8, Nfmt::Unorm, x1, pol(G8)), Error);
  // An unknown pair: nothing claimed, a reason given.
  const uint8_t zero[4] = {};
  const LoadedElement u =
      loadElement(Gen::Gfx6, Dfmt::F10_11_11, Nfmt::Float, zero, pol(Gen::Gfx6));
  EXPECT_FALSE(u.reg[0].has_value());
  EXPECT_FALSE(u.undefinedReason.empty());
}

TEST(ConvertElement, InsertExtractEveryFieldIndependently) {
  for (const DfmtInfo& info : allDfmts()) {
    for (unsigned c = 0; c < info.components; ++c) {
      const uint32_t mask = info.bits[c] == 32 ? 0xffffffffu : (1u << info.bits[c]) - 1;
      for (uint32_t pattern : {0u, 0xffffffffu, 0xa5a5a5a5u, 0x5a5a5a5au}) {
        std::array<uint8_t, 16> b{};
        b.fill(static_cast<uint8_t>(~pattern));  // background: the complement
        insertComponent(info.code, c, pattern & mask, b);
        EXPECT_EQ(extractComponent(info.code, c, b), pattern & mask) << info.name << c;
        for (unsigned o = 0; o < info.components; ++o) {
          if (o == c) continue;
          const uint32_t om = info.bits[o] == 32 ? 0xffffffffu : (1u << info.bits[o]) - 1;
          // Other fields keep the background bits at their own offsets.
          std::array<uint8_t, 16> bg{};
          bg.fill(static_cast<uint8_t>(~pattern));
          EXPECT_EQ(extractComponent(info.code, o, b), extractComponent(info.code, o, bg) & om)
              << info.name << " field " << o << " disturbed by " << c;
        }
        // Bytes beyond the element are never touched.
        for (unsigned i = info.bytes; i < 16; ++i)
          EXPECT_EQ(b[i], static_cast<uint8_t>(~pattern));
      }
    }
  }
}

TEST(ConvertElement, DstSel) {
  const uint8_t bytes[4] = {1, 0, 2, 0};  // 16_16 UINT: X=1, Y=2
  const LoadedElement e = loadElement(G8, Dfmt::F16_16, Nfmt::Uint, bytes, pol(G8));
  auto r = applyDstSel(G8, Nfmt::Uint, e, {DstSel::W, DstSel::Z, DstSel::One, DstSel::Zero});
  EXPECT_FALSE(r[0]);  // the format has no W
  EXPECT_FALSE(r[1]);
  EXPECT_EQ(r[2], 1u);  // integer 1 for UINT
  EXPECT_EQ(r[3], 0u);
  r = applyDstSel(G8, Nfmt::Uint, e, {DstSel::Y, DstSel::X, DstSel::X, DstSel::Reserved2});
  EXPECT_EQ(r[0], 2u);
  EXPECT_EQ(r[1], 1u);
  EXPECT_EQ(r[2], 1u);
  EXPECT_FALSE(r[3]);  // reserved selector
  EXPECT_FALSE(
      applyDstSel(G8, Nfmt::Uint, e, {DstSel::Reserved3, DstSel::X, DstSel::X, DstSel::X})[0]);
  EXPECT_EQ(oneValue(G8, Nfmt::Unorm), kOne);
  EXPECT_EQ(oneValue(G8, Nfmt::Float), kOne);
  EXPECT_EQ(oneValue(G8, Nfmt::Sint), 1u);
  EXPECT_EQ(oneValueD16(Nfmt::Float), 0x3c00);
  EXPECT_EQ(oneValueD16(Nfmt::Uint), 1);
}

// ---------------------------------------------------------------- exhaustive properties
struct Norm {
  Dfmt d;
  unsigned comp;
};
// One representative field per width: 2, 8, 10, 16 bits.
constexpr Norm kNormFields[] = {
    {Dfmt::F10_10_10_2, 0}, {Dfmt::F8, 0}, {Dfmt::F2_10_10_10, 0}, {Dfmt::F16, 0}};

TEST(ConvertExhaustive, UnormSnormIntRoundTrip) {
  for (const char* norm : {"norm=exact", "norm=mulrcp"}) {
    for (const Norm f : kNormFields) {
      const unsigned bits = dfmtInfo(f.d).bits[f.comp];
      const uint32_t minCode = 1u << (bits - 1);
      for (uint32_t c = 0; c < (1u << bits); ++c) {
        ASSERT_EQ(store(G8, f.d, Nfmt::Unorm, f.comp, load(G8, f.d, Nfmt::Unorm, f.comp, c, norm)),
                  c);
        // Exception: SNORM MIN reads -1.0, which is written back as MIN+1.
        const uint32_t back =
            store(G8, f.d, Nfmt::Snorm, f.comp, load(G8, f.d, Nfmt::Snorm, f.comp, c, norm));
        ASSERT_EQ(back, c == minCode ? c + 1 : c) << bits << " " << c;
        ASSERT_EQ(store(G8, f.d, Nfmt::Uint, f.comp, load(G8, f.d, Nfmt::Uint, f.comp, c)), c);
        ASSERT_EQ(store(G8, f.d, Nfmt::Sint, f.comp, load(G8, f.d, Nfmt::Sint, f.comp, c)), c);
      }
    }
  }
}

TEST(ConvertExhaustive, FloatFieldsRoundTrip) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
    // Exception: signalling NaNs come back quiet.
    ASSERT_EQ(store(G8, Dfmt::F16, Nfmt::Float, 0, load(G8, Dfmt::F16, Nfmt::Float, 0, h)),
              nan ? (h | 0x200) : h);
  }
  for (unsigned comp = 0; comp < 3; ++comp) {
    const unsigned bits = dfmtInfo(Dfmt::F10_11_11).bits[comp];
    const uint32_t quiet = 1u << (bits - 6);  // top mantissa bit (6 or 5 bits of mantissa)
    for (uint32_t v = 0; v < (1u << bits); ++v) {
      const bool nan = (v >> (bits - 5)) == 31 && (v & (quiet * 2 - 1)) != 0;
      ASSERT_EQ(store(G8, Dfmt::F10_11_11, Nfmt::Float, comp,
                      load(G8, Dfmt::F10_11_11, Nfmt::Float, comp, v)),
                nan ? (v | quiet) : v);
    }
  }
}

// The value of float bits as M * 2^E (finite, positive or negative via `neg`).
struct Exact {
  int64_t m;
  int e;
};
Exact exactOf(uint32_t bits, fbits::Layout l) {
  const uint32_t man = bits & ((1u << l.manBits) - 1);
  const uint32_t exp = (bits >> l.manBits) & ((1u << l.expBits) - 1);
  const int bias = (1 << (l.expBits - 1)) - 1;
  const int64_t m = exp == 0 ? man : (man | (1u << l.manBits));
  const int e = (exp == 0 ? 1 : static_cast<int>(exp)) - bias - static_cast<int>(l.manBits);
  return {m, e};
}
// |value(bits) - num/den| scaled by den * 2^-scale, exactly.
I128 errorOf(uint32_t bits, fbits::Layout l, int64_t num, int64_t den, int scale) {
  const Exact x = exactOf(bits, l);
  const I128 a = static_cast<I128>(x.m) * den << (x.e - scale);
  const I128 b = static_cast<I128>(num) << (-scale);
  return a > b ? a - b : b - a;
}
// Independent proof of correct rounding for a positive result: no neighbour is closer and a
// tie goes to the even mantissa.
void expectCorrectlyRounded(uint32_t bits, fbits::Layout l, int64_t num, int64_t den) {
  const uint32_t mag = bits & ((1u << (l.expBits + l.manBits)) - 1);
  if (num == 0) {
    EXPECT_EQ(mag, 0u);
    return;
  }
  const int scale = exactOf(mag == 0 ? 1 : mag - 1, l).e - 2;
  const I128 err = errorOf(mag, l, num, den, scale);
  for (uint32_t nb : {mag - 1, mag + 1}) {
    if (mag == 0 && nb == mag - 1) continue;
    const I128 other = errorOf(nb, l, num, den, scale);
    ASSERT_TRUE(err <= other) << num << "/" << den << " gave 0x" << std::hex << bits;
    if (err == other) {
      ASSERT_EQ(mag & 1, 0u) << num << "/" << den;
    }
  }
}

TEST(ConvertExhaustive, ExactNormIsCorrectlyRounded) {
  for (const Norm f : kNormFields) {
    const unsigned bits = dfmtInfo(f.d).bits[f.comp];
    const int64_t umax = (int64_t{1} << bits) - 1;
    const int64_t smax = (int64_t{1} << (bits - 1)) - 1;
    for (uint32_t c = 0; c < (1u << bits); ++c) {
      expectCorrectlyRounded(load(G8, f.d, Nfmt::Unorm, f.comp, c), fbits::kFloat32, c, umax);
      const int64_t s = c >= (1u << (bits - 1)) ? static_cast<int64_t>(c) - (umax + 1) : c;
      const uint32_t sv = load(G8, f.d, Nfmt::Snorm, f.comp, c);
      ASSERT_EQ(sv >> 31, s < 0 ? 1u : 0u);
      if (s > -smax) expectCorrectlyRounded(sv, fbits::kFloat32, s < 0 ? -s : s, smax);
      const uint32_t ov = load(Gen::Gfx7, f.d, Nfmt::SnormOgl, f.comp, c);
      const int64_t on = 2 * s + 1;
      expectCorrectlyRounded(ov, fbits::kFloat32, on < 0 ? -on : on, umax);
      // D16 (gfx8): straight to half, also correctly rounded from the exact value.
      const auto h = loadComponentD16(G8, f.d, Nfmt::Unorm, f.comp, c, pol(G8));
      ASSERT_TRUE(h);
      expectCorrectlyRounded(*h, fbits::kHalf, c, umax);
    }
  }
}

TEST(ConvertExhaustive, MulRcpDiffersFromExactOn126Unorm8Codes) {
  // docs/platform.md: lavapipe's float(c) * float(1/255) is 1 ulp off for 126 of 256 codes.
  int differ = 0;
  for (uint32_t c = 0; c < 256; ++c) {
    const uint32_t exact = load(G8, Dfmt::F8, Nfmt::Unorm, 0, c, "norm=exact");
    const uint32_t rcp = load(G8, Dfmt::F8, Nfmt::Unorm, 0, c, "norm=mulrcp");
    if (exact != rcp) {
      ++differ;
      const int64_t d = static_cast<int64_t>(exact) - static_cast<int64_t>(rcp);
      EXPECT_TRUE(d == 1 || d == -1) << c;  // 1 ulp
    }
  }
  EXPECT_EQ(differ, 126);
}

// ---------------------------------------------------------------- D16 (AMD RDNA3 ISA)
TEST(ConvertD16, TruncationVersusNearestEven) {
  const Policies p = pol(G8);
  // float32 memory 1 + 4097*2^-23: above the half tie 1 + 2^-11 -> RNE would give 0x3c01;
  // AMD RDNA3 ISA: float32 -> float16 truncates -> 0x3c00.
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F32, Nfmt::Float, 0, 0x3f801001, p), 0x3c00);
  EXPECT_EQ(fbits::floatToHalf(0x3f801001, fbits::Rounding::NearestEven), 0x3c01);
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F32, Nfmt::Float, 0, 0xbf801fff, p), 0xbc00);  // to 0
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F32, Nfmt::Float, 0, 0x477fffff, p), 0x7bff);  // no Inf
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F32, Nfmt::Float, 0, 0x7f800000, p), 0x7c00);
  // UNORM8 9/255 = 2^-5 * 1.12941: mantissa 1156.518 * 2^-10 -> RNE 1157: 0x2800 | 133 =
  // 0x2885 (truncation would give 0x2884).
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F8, Nfmt::Unorm, 0, 9, p), 0x2885);
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F8, Nfmt::Unorm, 0, 255, p), 0x3c00);
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F8, Nfmt::Snorm, 0, 0x80, p), 0xbc00);  // MIN -> -1
  // USCALED16: 2049 is a tie between 2048 and 2050 -> even 2048 (0x6800); 2051 -> 2052
  // (0x6802); 65535 > 65520 -> Inf.
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F16, Nfmt::Uscaled, 0, 2049, p), 0x6800);
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F16, Nfmt::Uscaled, 0, 2051, p), 0x6802);
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F16, Nfmt::Uscaled, 0, 65535, p), 0x7c00);
  // SSCALED16 0xf7ff = -2049: tie -> even -2048 = 0xe800.
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F16, Nfmt::Sscaled, 0, 0xf7ff, p), 0xe800);
}

TEST(ConvertD16, IntegersFloatsAndGenerations) {
  const Policies p = pol(G8);
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F16, Nfmt::Uint, 0, 0xffff, p), 0xffff);
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F8, Nfmt::Sint, 0, 0x80, p), 0xff80);  // sign-extended
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F8, Nfmt::Uint, 0, 0x80, p), 0x0080);
  EXPECT_FALSE(loadComponentD16(G8, Dfmt::F32, Nfmt::Uint, 0, 1, p));  // wider than 16 bits
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F16, Nfmt::Float, 0, 0x7d00, p), 0x7d00);  // raw half
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F10_11_11, Nfmt::Float, 0, 0x3c0, p), 0x3c00);
  EXPECT_EQ(loadComponentD16(G8, Dfmt::F10_11_11, Nfmt::Float, 0, 0x001, p), 0x0010);  // 2^-20
  for (Gen g : {Gen::Gfx6, Gen::Gfx7}) {
    EXPECT_FALSE(loadComponentD16(g, Dfmt::F8, Nfmt::Unorm, 0, 1, pol(g)));
    EXPECT_FALSE(storeComponentD16(g, Dfmt::F8, Nfmt::Unorm, 0, 0x3c00, pol(g)));
  }
  // Stores: 16-bit register -> field with the store rules.
  EXPECT_EQ(storeComponentD16(G8, Dfmt::F8, Nfmt::Unorm, 0, 0x3800, p), 128u);  // 0.5 -> 128
  EXPECT_EQ(storeComponentD16(G8, Dfmt::F8, Nfmt::Sint, 0, 0x8000, p), 0x80u);  // -32768 clamps
  EXPECT_EQ(storeComponentD16(G8, Dfmt::F8, Nfmt::Uint, 0, 0xffff, p), 0xffu);
  EXPECT_EQ(storeComponentD16(G8, Dfmt::F32, Nfmt::Float, 0, 0x3c00, p), kOne);
  EXPECT_EQ(storeComponentD16(G8, Dfmt::F16, Nfmt::Float, 0, 0x7d00, p), 0x7d00u);
  EXPECT_EQ(storeComponentD16(G8, Dfmt::F32, Nfmt::Sint, 0, 0xffff, p), 0xffffffffu);  // -1
}

TEST(ConvertD16, RoundTrips) {
  const Policies p = pol(Gen::Gfx9);
  for (uint32_t c = 0; c < 256; ++c) {
    const auto h = loadComponentD16(Gen::Gfx9, Dfmt::F8, Nfmt::Unorm, 0, c, p);
    ASSERT_EQ(storeComponentD16(Gen::Gfx9, Dfmt::F8, Nfmt::Unorm, 0, *h, p), c);
  }
  for (uint32_t c = 0; c < 0x10000; ++c) {
    const auto h = loadComponentD16(Gen::Gfx9, Dfmt::F16, Nfmt::Sint, 0, c, p);
    ASSERT_EQ(storeComponentD16(Gen::Gfx9, Dfmt::F16, Nfmt::Sint, 0, *h, p), c);
  }
}

// ---------------------------------------------------------------- text
TEST(ConvertText, RegisterValueText) {
  EXPECT_EQ(registerValueText(RegType::Float, 0x3f000000), "0.5");
  EXPECT_EQ(registerValueText(RegType::Float, kMinusOne), "-1");
  EXPECT_EQ(registerValueText(RegType::Float, 0x80000000), "-0");
  EXPECT_EQ(registerValueText(RegType::Float, 0x7f800000), "inf");
  EXPECT_EQ(registerValueText(RegType::Float, 0xff800000), "-inf");
  EXPECT_EQ(registerValueText(RegType::Float, 0x7fc00000), "nan(0x7fc00000)");
  EXPECT_EQ(registerValueText(RegType::Float, 0x3c010204), "0.007874016");  // 1/127
  EXPECT_EQ(registerValueText(RegType::Uint, 0xffffffff), "4294967295");
  EXPECT_EQ(registerValueText(RegType::Sint, 0xffffffff), "-1");
  // Shortest text reads back to the same bits for a spread of floats.
  for (uint32_t b = 0; b < 0x7f800000; b += 0x00123457) {
    const std::string t = registerValueText(RegType::Float, b);
    EXPECT_EQ(floatToBits(std::strtof(t.c_str(), nullptr)), b) << t;
  }
}

}  // namespace convert_test
}  // namespace gcn
