#include "reference/float_bits.h"

#include <charconv>
#include <cstdlib>
#include <string>

#include "reference/error.h"

namespace gcn::fbits {
namespace {

// GCC/Clang 128-bit integer; __extension__ keeps -Wpedantic quiet. Needed so that a 32-bit
// numerator can be scaled by up to 2^80 before the exact division in roundRatio.
__extension__ typedef unsigned __int128 U128;

int bias(Layout l) {
  return (1 << (l.expBits - 1)) - 1;
}
uint32_t expMask(Layout l) {
  return (1u << l.expBits) - 1;
}
uint32_t signBit(Layout l) {
  return l.hasSign ? 1u << (l.expBits + l.manBits) : 0;
}
uint32_t infBits(Layout l) {
  return expMask(l) << l.manBits;
}
uint32_t maxFinite(Layout l) {
  return infBits(l) - 1;
}

int bitWidth(U128 v) {
  int w = 0;
  while (v != 0) {
    ++w;
    v >>= 1;
  }
  return w;
}

// Packs a positive finite value q * 2^(qe) where the caller chose qe = max(e, emin) - manBits
// (e = floor(log2(value))) and q is already rounded, so q <= 2^(manBits+1). Adding q to the
// biased exponent field lets a carry out of the mantissa bump the exponent, and a denormal
// that rounds up to 2^manBits become the smallest normal.
uint32_t packFinite(int eClamped, uint64_t q, Layout to, bool overflowToInf) {
  const int biased = eClamped + bias(to);  // >= 1 because eClamped >= emin = 1 - bias
  const uint64_t bits = (static_cast<uint64_t>(biased - 1) << to.manBits) + q;
  if (bits >= infBits(to)) return overflowToInf ? infBits(to) : maxFinite(to);
  return static_cast<uint32_t>(bits);
}

// Round the positive value num / 2^shift... generic core: value = num / den exactly, with
// num, den < 2^100. Returns bits of the magnitude.
uint32_t roundPositive(U128 num, U128 den, int extraExp, Layout to, Rounding mode,
                       bool overflowToInf) {
  // value = num/den * 2^extraExp. e = floor(log2(num/den)).
  int e = bitWidth(num) - bitWidth(den);
  if (e >= 0 ? num < (den << e) : (num << -e) < den) --e;
  e += extraExp;
  const int emin = 1 - bias(to);
  const int eClamped = e < emin ? emin : e;
  if (eClamped > bias(to)) return overflowToInf ? infBits(to) : maxFinite(to);
  // q = floor(value / 2^qe), qe = eClamped - manBits, relative to num/den: shift by
  // s = qe - extraExp.
  const int s = eClamped - static_cast<int>(to.manBits) - extraExp;
  U128 n = num;
  U128 d = den;
  if (s >= 0) {
    if (s >= 100) return 0;  // far below the smallest denormal: rounds to zero either way
    d <<= s;
  } else {
    n <<= -s;
  }
  uint64_t q = static_cast<uint64_t>(n / d);
  const U128 rem = n % d;
  if (mode == Rounding::NearestEven && rem != 0) {
    const U128 twice = rem * 2;
    if (twice > d || (twice == d && (q & 1) != 0)) ++q;
  }
  return packFinite(eClamped, q, to, overflowToInf);
}

uint32_t floatToSmall(uint32_t f, Layout to, Rounding mode, bool unsignedClampToMax) {
  const bool neg = (f >> 31) != 0;
  const uint32_t exp = (f >> 23) & 0xff;
  const uint32_t man = f & 0x7fffff;
  if (exp == 0xff && man != 0) {
    // NaN: keep the top payload bits, force the quiet bit (top mantissa bit) so the result
    // cannot turn into Inf; unsigned layouts have no sign (-> positive NaN).
    const uint32_t payload = (man >> (23 - to.manBits)) | (1u << (to.manBits - 1));
    return (neg ? signBit(to) : 0) | infBits(to) | payload;
  }
  if (!to.hasSign && neg) return 0;  // negative, -0.0 and -Inf -> 0
  const uint32_t sign = neg ? signBit(to) : 0;
  if (exp == 0xff) return sign | infBits(to);
  if (exp == 0 && man == 0) return sign;
  // Finite: value = M * 2^(E) with M the 24-bit significand.
  const uint32_t m = exp == 0 ? man : (man | 0x800000);
  const int e = exp == 0 ? -149 : static_cast<int>(exp) - 150;
  const bool overflowToInf = !unsignedClampToMax && mode == Rounding::NearestEven;
  return sign | roundPositive(m, 1, e, to, mode, overflowToInf);
}

}  // namespace

uint32_t smallToFloat(uint32_t bits, Layout from) {
  const uint32_t total = from.expBits + from.manBits + (from.hasSign ? 1 : 0);
  if (total < 32 && (bits >> total) != 0) throw Error("small float has bits above its width");
  const uint32_t sign = (from.hasSign && (bits & signBit(from)) != 0) ? 0x80000000u : 0;
  const uint32_t exp = (bits >> from.manBits) & expMask(from);
  const uint32_t man = bits & ((1u << from.manBits) - 1);
  const unsigned up = 23 - from.manBits;
  if (exp == expMask(from)) {
    if (man == 0) return sign | 0x7f800000u;
    return sign | 0x7f800000u | 0x400000u | (man << up);
  }
  if (exp == 0) {
    if (man == 0) return sign;
    // Denormal: man * 2^(1 - bias - manBits); normalise into float (always fits: the small
    // layouts have 5-bit exponents).
    int e = 1 - bias(from);
    uint32_t m = man;
    while ((m & (1u << from.manBits)) == 0) {
      m <<= 1;
      --e;
    }
    m &= (1u << from.manBits) - 1;
    return sign | (static_cast<uint32_t>(e + 127) << 23) | (m << up);
  }
  const int e = static_cast<int>(exp) - bias(from);
  return sign | (static_cast<uint32_t>(e + 127) << 23) | (man << up);
}

uint16_t floatToHalf(uint32_t f, Rounding mode) {
  return static_cast<uint16_t>(floatToSmall(f, kHalf, mode, false));
}
uint32_t floatToUf11(uint32_t f, bool overflowToInf, Rounding mode) {
  return floatToSmall(f, kUf11, mode, !overflowToInf);
}
uint32_t floatToUf10(uint32_t f, bool overflowToInf, Rounding mode) {
  return floatToSmall(f, kUf10, mode, !overflowToInf);
}

uint32_t roundRatio(uint64_t num, uint64_t den, bool negative, Layout to) {
  if (den == 0 || den >= (uint64_t{1} << 32) || num >= (uint64_t{1} << 32))
    throw Error("roundRatio: operands out of range");
  const uint32_t sign = negative ? signBit(to) : 0;
  if (num == 0) return sign;
  return sign | roundPositive(num, den, 0, to, Rounding::NearestEven, true);
}

std::optional<float> parseDecimalFloat(std::string_view text) {
  float f = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), f);
  if (text.empty() || ptr != text.data() + text.size()) return std::nullopt;
  if (ec == std::errc()) return f;
  if (ec != std::errc::result_out_of_range) return std::nullopt;
  // The text is a well-formed number whose rounded value is zero or infinite; strtof
  // (glibc rounds correctly, in the C locale the program never leaves) gives it with sign.
  const std::string copy(text);
  return std::strtof(copy.c_str(), nullptr);
}

}  // namespace gcn::fbits
