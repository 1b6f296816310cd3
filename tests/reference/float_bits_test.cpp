// Small-float helpers against hand-derived values (IEEE 754 binary16; Khronos Data Format
// Spec / GL_EXT_packed_float for the unsigned 11/10-bit floats) and exhaustive properties.
#include "reference/float_bits.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gcn::fbits {
namespace float_bits_test {

// Value of a small float computed from its definition with ldexp in double (independent of
// smallToFloat): normal (1 + m/2^M) * 2^(e-15), denormal m/2^M * 2^-14.
double definitionValue(uint32_t bits, Layout l) {
  const uint32_t man = bits & ((1u << l.manBits) - 1);
  const uint32_t exp = (bits >> l.manBits) & 31;
  const bool neg = l.hasSign && ((bits >> (l.manBits + 5)) & 1) != 0;
  double v = exp == 0 ? std::ldexp(man, -14 - static_cast<int>(l.manBits))
                      : std::ldexp((1u << l.manBits) + man,
                                   static_cast<int>(exp) - 15 - static_cast<int>(l.manBits));
  return neg ? -v : v;
}

TEST(FloatBits, HalfToFloatGolden) {
  EXPECT_EQ(halfToFloat(0x3c00), 0x3f800000u);  // 1.0
  EXPECT_EQ(halfToFloat(0x8000), 0x80000000u);  // -0.0 keeps its sign
  EXPECT_EQ(halfToFloat(0x0001), 0x33800000u);  // smallest denormal 2^-24: exp 127-24=103
  EXPECT_EQ(halfToFloat(0x03ff), 0x387fc000u);  // 1023*2^-24 = 2^-15 * 1.998046875
  EXPECT_EQ(halfToFloat(0x7bff), 0x477fe000u);  // 65504
  EXPECT_EQ(halfToFloat(0xfbff), 0xc77fe000u);  // -65504
  EXPECT_EQ(halfToFloat(0x7c00), 0x7f800000u);  // +Inf
  EXPECT_EQ(halfToFloat(0xfc00), 0xff800000u);  // -Inf
  EXPECT_EQ(halfToFloat(0x7e00), 0x7fc00000u);  // quiet NaN: payload 0x200 << 13
  // Signalling NaN 0x7d00: payload 0x100 << 13 = 0x200000, quiet bit 0x400000 added.
  EXPECT_EQ(halfToFloat(0x7d00), 0x7fe00000u);
  EXPECT_EQ(halfToFloat(0xfe01), 0xffc02000u);  // sign and low payload kept
}

TEST(FloatBits, SmallToFloatMatchesDefinitionExhaustively) {
  for (const Layout l : {kHalf, kUf11, kUf10}) {
    const uint32_t count = 1u << (l.manBits + 5 + (l.hasSign ? 1 : 0));
    for (uint32_t b = 0; b < count; ++b) {
      const uint32_t exp = (b >> l.manBits) & 31;
      const uint32_t f = smallToFloat(b, l);
      if (exp == 31) {
        const bool nan = (b & ((1u << l.manBits) - 1)) != 0;
        EXPECT_EQ(std::isnan(bitsToFloat(f)), nan) << b;
        EXPECT_EQ(std::isinf(bitsToFloat(f)), !nan) << b;
        continue;
      }
      EXPECT_EQ(static_cast<double>(bitsToFloat(f)), definitionValue(b, l)) << b;
      EXPECT_EQ(std::signbit(bitsToFloat(f)), std::signbit(definitionValue(b, l))) << b;
    }
  }
}

TEST(FloatBits, FloatToHalfGolden) {
  const auto rne = [](float f) { return floatToHalf(floatToBits(f), Rounding::NearestEven); };
  const auto rtz = [](float f) { return floatToHalf(floatToBits(f), Rounding::TowardZero); };
  EXPECT_EQ(rne(1.0f), 0x3c00);
  EXPECT_EQ(rne(-0.0f), 0x8000);
  EXPECT_EQ(rne(65504.0f), 0x7bff);
  // 65520 lies halfway between 65504 (mantissa 0x3ff, odd) and 65536 (= Inf): even -> Inf.
  EXPECT_EQ(rne(65520.0f), 0x7c00);
  EXPECT_EQ(rne(65519.0f), 0x7bff);
  EXPECT_EQ(rtz(65535.0f), 0x7bff);  // toward zero never overflows to Inf
  EXPECT_EQ(rtz(-1e9f), 0xfbff);
  EXPECT_EQ(rne(1e9f), 0x7c00);
  EXPECT_EQ(rne(std::ldexp(1.0f, -24)), 0x0001);     // smallest denormal
  EXPECT_EQ(rne(std::ldexp(1.0f, -25)), 0x0000);     // tie 0 / 2^-24: even is 0
  EXPECT_EQ(rne(std::ldexp(3.0f, -26)), 0x0001);     // 0.75 * 2^-24 -> 2^-24
  EXPECT_EQ(rne(std::ldexp(3.0f, -25)), 0x0002);     // tie 1 / 2 (x 2^-24): even is 2
  EXPECT_EQ(rne(std::ldexp(1023.5f, -24)), 0x0400);  // tie at the top of the denormals
  EXPECT_EQ(rne(bitsToFloat(0x3f801000)), 0x3c00);   // 1 + 2^-11: tie -> even 0x3c00
  EXPECT_EQ(rne(bitsToFloat(0x3f801001)), 0x3c01);   // just above the tie
  EXPECT_EQ(rtz(bitsToFloat(0x3f801001)), 0x3c00);   // truncated
  EXPECT_EQ(rne(bitsToFloat(0x3f803000)), 0x3c02);   // 1 + 3*2^-11: tie -> even 0x3c02
  EXPECT_EQ(floatToHalf(0x7fc00000, Rounding::NearestEven), 0x7e00);
  EXPECT_EQ(floatToHalf(0xffc00000, Rounding::TowardZero), 0xfe00);   // NaN keeps sign
  EXPECT_EQ(floatToHalf(0x7f800001, Rounding::NearestEven), 0x7e00);  // sNaN -> quiet NaN
  EXPECT_EQ(floatToHalf(0xff800000, Rounding::TowardZero), 0xfc00);   // -Inf stays
}

// Every half value and its neighbours' midpoints (all exact in float): values below the
// midpoint go down, above go up, the midpoint itself goes to the even mantissa.
TEST(FloatBits, FloatToHalfRoundsEveryMidpointCorrectly) {
  for (uint32_t h = 0; h < 0x7bff; ++h) {
    const float lo = bitsToFloat(halfToFloat(static_cast<uint16_t>(h)));
    const float hi = bitsToFloat(halfToFloat(static_cast<uint16_t>(h + 1)));
    const float mid = (lo + hi) / 2;  // exact: 12 significant bits
    const float below = std::nextafter(mid, 0.0f);
    const float above = std::nextafter(mid, 1e30f);
    const uint16_t even = (h & 1) ? static_cast<uint16_t>(h + 1) : static_cast<uint16_t>(h);
    ASSERT_EQ(floatToHalf(floatToBits(mid), Rounding::NearestEven), even) << h;
    ASSERT_EQ(floatToHalf(floatToBits(below), Rounding::NearestEven), h) << h;
    ASSERT_EQ(floatToHalf(floatToBits(above), Rounding::NearestEven), h + 1) << h;
    ASSERT_EQ(floatToHalf(floatToBits(above), Rounding::TowardZero), h) << h;
    ASSERT_EQ(floatToHalf(floatToBits(-below), Rounding::NearestEven), h | 0x8000) << h;
    ASSERT_EQ(floatToHalf(floatToBits(-above), Rounding::TowardZero), h | 0x8000) << h;
  }
}

TEST(FloatBits, HalfRoundTripsExhaustively) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
    const uint32_t f = halfToFloat(static_cast<uint16_t>(h));
    // Exception: signalling NaNs come back quiet (the quiet bit 0x200 is forced).
    const uint32_t expect = nan ? (h | 0x200) : h;
    ASSERT_EQ(floatToHalf(f, Rounding::NearestEven), expect) << h;
    ASSERT_EQ(floatToHalf(f, Rounding::TowardZero), expect) << h;
  }
}

TEST(FloatBits, Uf11Uf10Golden) {
  EXPECT_EQ(uf11ToFloat(0x3c0), 0x3f800000u);  // e=15, m=0: 1.0
  EXPECT_EQ(uf10ToFloat(0x1e0), 0x3f800000u);  // e=15, m=0: 1.0
  EXPECT_EQ(uf11ToFloat(0x7bf), 0x477e0000u);  // e=30, m=63: 2^15*(1+63/64) = 65024
  EXPECT_EQ(uf10ToFloat(0x3df), 0x477c0000u);  // e=30, m=31: 2^15*(1+31/32) = 64512
  EXPECT_EQ(uf11ToFloat(0x001), 0x35800000u);  // 1/64 * 2^-14 = 2^-20
  EXPECT_EQ(uf10ToFloat(0x001), 0x36000000u);  // 1/32 * 2^-14 = 2^-19
  EXPECT_EQ(uf11ToFloat(0x7c0), 0x7f800000u);  // +Inf
  EXPECT_TRUE(std::isnan(bitsToFloat(uf10ToFloat(0x3e1))));

  const auto u11 = [](float f) { return floatToUf11(floatToBits(f)); };
  const auto u10 = [](float f) { return floatToUf10(floatToBits(f)); };
  EXPECT_EQ(u11(1.0f), 0x3c0u);
  EXPECT_EQ(u11(-1.0f), 0u);  // negative -> 0
  EXPECT_EQ(u11(-0.0f), 0u);  // no sign bit: -0.0 -> +0
  EXPECT_EQ(u11(-INFINITY), 0u);
  EXPECT_EQ(u11(INFINITY), 0x7c0u);
  EXPECT_EQ(u10(INFINITY), 0x3e0u);
  // Finite values above the maximum become the maximum (GL_EXT_packed_float; piglit uses
  // 1e6, 65025 -> F11(30,63) and 64513 -> F10(30,31), F11(30,62)).
  EXPECT_EQ(u11(1e6f), 0x7bfu);
  EXPECT_EQ(u11(65025.0f), 0x7bfu);
  EXPECT_EQ(u10(65025.0f), 0x3dfu);
  EXPECT_EQ(u10(64513.0f), 0x3dfu);
  EXPECT_EQ(u11(64513.0f), 0x7beu);
  EXPECT_EQ(u11(3e38f), 0x7bfu);
  // Ties: 1 + 1/128 lies between m=0 and m=1 -> even m=0; 1 + 3/128 -> m=2.
  EXPECT_EQ(u11(1.0f + 1.0f / 128), 0x3c0u);
  EXPECT_EQ(u11(1.0f + 3.0f / 128), 0x3c2u);
  EXPECT_EQ(u10(1.0f + 1.0f / 64), 0x1e0u);
  // NaN (either sign) -> a positive NaN.
  for (uint32_t nan : {0x7fc00000u, 0xffc00000u, 0x7f800001u}) {
    const uint32_t r11 = floatToUf11(nan);
    EXPECT_EQ(r11 & 0x7c0u, 0x7c0u);
    EXPECT_NE(r11 & 0x3fu, 0u);
    EXPECT_EQ(r11 >> 11, 0u);
    const uint32_t r10 = floatToUf10(nan);
    EXPECT_EQ(r10 & 0x3e0u, 0x3e0u);
    EXPECT_NE(r10 & 0x1fu, 0u);
  }
}

TEST(FloatBits, Uf11Uf10RoundTripExhaustively) {
  for (uint32_t v = 0; v < 0x800; ++v) {
    const bool nan = (v & 0x7c0) == 0x7c0 && (v & 0x3f) != 0;
    ASSERT_EQ(floatToUf11(uf11ToFloat(v)), nan ? (v | 0x20) : v) << v;
  }
  for (uint32_t v = 0; v < 0x400; ++v) {
    const bool nan = (v & 0x3e0) == 0x3e0 && (v & 0x1f) != 0;
    ASSERT_EQ(floatToUf10(uf10ToFloat(v)), nan ? (v | 0x10) : v) << v;
  }
}

TEST(FloatBits, RoundRatioGolden) {
  // 1/3 = 2^-2 * 1.0101..b: mantissa 0x2aaaaa + round-up (next bits 10...) = 0x2aaaab.
  EXPECT_EQ(roundRatio(1, 3, false, kFloat32), 0x3eaaaaabu);
  EXPECT_EQ(roundRatio(2, 3, false, kFloat32), 0x3f2aaaabu);
  EXPECT_EQ(roundRatio(1, 255, true, kFloat32), 0xbb808081u);  // -(2^-8 * 256/255)
  EXPECT_EQ(roundRatio(0, 7, false, kFloat32), 0u);
  EXPECT_EQ(roundRatio(1, 3, false, kHalf), 0x3555u);      // 2^-2 * 1.0101010101(01...) -> down
  EXPECT_EQ(roundRatio(65535, 1, false, kHalf), 0x7c00u);  // above 65520: Inf
  // 1/65535 = 2^-16 * 1.0000153 = 256.0039 * 2^-24: a half denormal, rounds to 256 -> 0x0100.
  EXPECT_EQ(roundRatio(1, 65535, false, kHalf), 0x0100u);
  EXPECT_THROW(roundRatio(1, 0, false, kFloat32), std::exception);
}

// The format-component layouts (docs/gcn-facts.md "Data and number formats") and the class
// tests, on codes written out by hand.
TEST(FloatLayout, ByComponentWidth) {
  EXPECT_EQ(formatFloatLayout(16).manBits, 10u);
  EXPECT_TRUE(formatFloatLayout(16).hasSign);
  EXPECT_EQ(formatFloatLayout(11).manBits, 6u);
  EXPECT_FALSE(formatFloatLayout(11).hasSign);
  EXPECT_EQ(formatFloatLayout(10).manBits, 5u);
  EXPECT_EQ(formatFloatLayout(32).expBits, 8u);
  EXPECT_EQ(signMask(kHalf), 0x8000u);
  EXPECT_EQ(signMask(kFloat32), 0x80000000u);
  EXPECT_EQ(signMask(kUf11), 0u);
  EXPECT_TRUE(isNan(kFloat32, 0x7fc00000u));
  EXPECT_TRUE(isNan(kFloat32, 0xff800001u));
  EXPECT_FALSE(isNan(kFloat32, 0x7f800000u));  // +Inf
  EXPECT_TRUE(isDenormal(kFloat32, 0x00000001u));
  EXPECT_FALSE(isDenormal(kFloat32, 0x80000000u));  // -0
  EXPECT_FALSE(isFinite(kFloat32, 0xff800000u));
  EXPECT_TRUE(isFinite(kFloat32, 0x7f7fffffu));
  EXPECT_TRUE(isNan(kHalf, 0x7e00u));
  EXPECT_FALSE(isNan(kHalf, 0x7c00u));
  EXPECT_TRUE(isDenormal(kHalf, 0x83ffu));
  EXPECT_TRUE(isNan(kUf11, 0x7c1u));   // exponent 31, mantissa 1
  EXPECT_FALSE(isNan(kUf11, 0x7c0u));  // +Inf
  EXPECT_TRUE(isNan(kUf10, 0x3e1u));
  EXPECT_TRUE(isDenormal(kUf10, 0x01fu));
}

}  // namespace float_bits_test
}  // namespace gcn::fbits
