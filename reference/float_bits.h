// Bit-exact small-float helpers: IEEE binary16 (half) and the unsigned 11-bit / 10-bit
// floats of the packed 10_11_11 / 11_11_10 data formats, plus correctly rounded division of
// two integers into any of these layouts. Everything works on bit patterns, never on the
// host's rounding mode, so results are the same on every machine.
// Sources: IEEE 754-2008 (binary16); Khronos Data Format Specification, "Unsigned 11-bit /
// 10-bit floating-point numbers" (5-bit exponent, bias 15, 6/5-bit mantissa, no sign), which
// the Vulkan spec (fundamentals-fp11/fp10) refers to; GL_EXT_packed_float (same rules).
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gcn::fbits {

inline uint32_t floatToBits(float f) {
  return std::bit_cast<uint32_t>(f);
}
inline float bitsToFloat(uint32_t b) {
  return std::bit_cast<float>(b);
}

// A binary floating-point layout: [sign] exponent mantissa, IEEE-style (exponent all ones =
// Inf/NaN, exponent 0 = zero/denormal), bias 2^(expBits-1)-1.
struct Layout {
  unsigned expBits;
  unsigned manBits;
  bool hasSign;
};
inline constexpr Layout kFloat32{8, 23, true};
inline constexpr Layout kHalf{5, 10, true};
inline constexpr Layout kUf11{5, 6, false};
inline constexpr Layout kUf10{5, 5, false};

// The layout of a float component of a buffer data format by its width (docs/gcn-facts.md
// "Data and number formats"): 16 bits -> half, 11 -> uf11 (10_11_11 / 11_11_10), 10 -> uf10,
// anything else -> float32.
constexpr Layout formatFloatLayout(unsigned bits) {
  switch (bits) {
    case 16:
      return kHalf;
    case 11:
      return kUf11;
    case 10:
      return kUf10;
    default:
      return kFloat32;
  }
}
// The sign bit of a code in the layout; 0 for the unsigned layouts.
constexpr uint32_t signMask(Layout l) {
  return l.hasSign ? 1u << (l.expBits + l.manBits) : 0u;
}
constexpr uint32_t exponentMask(Layout l) {
  return ((1u << l.expBits) - 1u) << l.manBits;
}
constexpr uint32_t mantissaMask(Layout l) {
  return (1u << l.manBits) - 1u;
}
constexpr bool isNan(Layout l, uint32_t code) {
  return (code & exponentMask(l)) == exponentMask(l) && (code & mantissaMask(l)) != 0;
}
constexpr bool isDenormal(Layout l, uint32_t code) {
  return (code & exponentMask(l)) == 0 && (code & mantissaMask(l)) != 0;
}
// Neither Inf nor NaN.
constexpr bool isFinite(Layout l, uint32_t code) {
  return (code & exponentMask(l)) != exponentMask(l);
}

enum class Rounding : uint8_t { NearestEven, TowardZero };

// Any small float (half, uf11, uf10) -> float32 bits, exactly: denormals become normal
// floats, Inf stays Inf, NaN keeps its sign and payload (shifted to the top of the float
// mantissa) with the quiet bit set.
uint32_t smallToFloat(uint32_t bits, Layout from);
inline uint32_t halfToFloat(uint16_t h) {
  return smallToFloat(h, kHalf);
}
inline uint32_t uf11ToFloat(uint32_t v) {
  return smallToFloat(v, kUf11);
}
inline uint32_t uf10ToFloat(uint32_t v) {
  return smallToFloat(v, kUf10);
}

// float32 -> half. NearestEven: overflow -> Inf (IEEE). TowardZero: overflow -> max finite
// (65504), as IEEE round-toward-zero does. Results may be denormal. NaN -> quiet NaN with the
// sign and the top 10 payload bits. -0.0 -> 0x8000.
uint16_t floatToHalf(uint32_t f, Rounding mode);
// float32 -> unsigned 11/10-bit float, nearest even by default. Khronos Data Format Spec /
// GL_EXT_packed_float: negative values (including -0.0 and -Inf) -> 0, finite values above
// the largest finite (65024 for uf11, 64512 for uf10) -> that largest finite, +Inf -> +Inf,
// any NaN -> a positive NaN (here: the float's top payload bits with the quiet bit set).
// overflowToInf: finite values that round above the largest finite give +Inf instead (IEEE
// round-to-nearest overflow, which the Vulkan spec also allows). TowardZero rounds toward
// zero instead; finite overflow then always gives the largest finite value.
uint32_t floatToUf11(uint32_t f, bool overflowToInf = false, Rounding mode = Rounding::NearestEven);
uint32_t floatToUf10(uint32_t f, bool overflowToInf = false, Rounding mode = Rounding::NearestEven);

// num/den (den != 0, both < 2^32), negated if `negative`, correctly rounded to nearest even
// in `to`: exact integer arithmetic, no host floating point. Overflow gives Inf.
uint32_t roundRatio(uint64_t num, uint64_t den, bool negative, Layout to);

// Decimal text as std::from_chars reads it (`1.5`, `-1e-3`, `inf`, `nan`; no leading `+`)
// correctly rounded to binary32, round to nearest even: a magnitude whose rounding passes
// FLT_MAX is Inf, one below half the smallest denormal is zero, both with the text's sign.
// nullopt when the text is not such a number. (std::from_chars reports both of those as
// out of range without a value, which is not an answer.)
std::optional<float> parseDecimalFloat(std::string_view text);

}  // namespace gcn::fbits
