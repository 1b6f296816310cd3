#include "reference/convert.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "reference/error.h"
#include "reference/float_bits.h"

namespace gcn {
namespace {

using fbits::bitsToFloat;
using fbits::floatToBits;

constexpr uint32_t kOneF = 0x3f800000u;  // 1.0f
constexpr uint32_t kMinusOneF = 0xbf800000u;

uint32_t fieldMask(unsigned bits) {
  return bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
}

unsigned componentBits(Dfmt d, unsigned comp) {
  const DfmtInfo& info = dfmtInfo(d);
  if (comp >= info.components)
    throw Error("component " + std::to_string(comp) + " does not exist in data format " +
                std::string(info.name) + " (" + std::to_string(info.components) + " components)");
  return info.bits[comp];
}

void checkCode(Dfmt d, unsigned bits, uint32_t code) {
  if ((code & ~fieldMask(bits)) != 0)
    throw Error("field value " + std::to_string(code) + " does not fit the " +
                std::to_string(bits) + "-bit component of " + std::string(dfmtName(d)));
}

// Memory float field -> float32 bits (exact for every finite value and infinity). A NaN
// keeps its sign and payload in the top mantissa bits; policy nan-widen decides whether the
// quiet bit is forced (a signalling NaN becomes quiet) or the bits are kept as they are.
uint32_t floatFieldToFloat(unsigned bits, uint32_t code, policy::NanWiden nan) {
  uint32_t f = 0;
  switch (bits) {
    case 32:
      return code;
    case 16:
      f = fbits::halfToFloat(static_cast<uint16_t>(code));
      break;
    case 11:
      f = fbits::uf11ToFloat(code);
      break;
    case 10:
      f = fbits::uf10ToFloat(code);
      break;
    default:
      throw Error("no float interpretation for a " + std::to_string(bits) + "-bit component");
  }
  if (nan == policy::NanWiden::Exact && (f & 0x7fffffffu) > 0x7f800000u) {
    const fbits::Layout from = bits == 16 ? fbits::kHalf : bits == 11 ? fbits::kUf11 : fbits::kUf10;
    const uint32_t man = code & ((1u << from.manBits) - 1);
    f = (f & 0x80000000u) | 0x7f800000u | (man << (23 - from.manBits));
  }
  return f;
}

// UNORM/SNORM/SNORM_OGL -> float: num/den, negated if `negative`, per policy `norm`.
// exact: correctly rounded (the Vulkan formula c/(2^n-1) evaluated exactly, docs/gcn-facts.md).
// mulrcp: float(num) * (1.0f / float(den)) in float arithmetic, as lavapipe does
// (docs/platform.md); num and den < 2^24 here, so float(num) and float(den) are exact.
// 8-bit UNORM (den 255) and SNORM (den 127) are converted for every component of most lanes:
// their correctly rounded quotients are computed once, by roundRatio itself.
template <uint32_t Den>
uint32_t roundRatioCached(uint32_t num, bool negative) {
  static const std::array<uint32_t, Den + 1> table = [] {
    std::array<uint32_t, Den + 1> t{};
    for (uint32_t n = 0; n <= Den; ++n)
      t[n] = fbits::roundRatio(n, Den, false, fbits::kFloat32);
    return t;
  }();
  return (negative ? 0x80000000u : 0u) | table[num];
}

uint32_t normToFloat(uint32_t num, uint32_t den, bool negative, policy::NormToFloat norm) {
  if (norm == policy::NormToFloat::CorrectlyRounded) {
    if (den == 255 && num <= 255) return roundRatioCached<255>(num, negative);
    if (den == 127 && num <= 127) return roundRatioCached<127>(num, negative);
    return fbits::roundRatio(num, den, negative, fbits::kFloat32);
  }
  const float rcp = 1.0f / static_cast<float>(den);
  const float v = static_cast<float>(num) * rcp;
  return floatToBits(negative ? -v : v);
}

// Round-to-nearest-even of an exactly representable double (|x| < 2^53) to an integer,
// without depending on the host rounding mode.
int64_t roundHalfEven(double x) {
  const double fl = std::floor(x);
  const double frac = x - fl;  // exact: x and fl share the exponent range
  int64_t r = static_cast<int64_t>(fl);
  if (frac > 0.5 || (frac == 0.5 && (r & 1) != 0)) ++r;
  return r;
}

// The value a field gets from a FLOAT register under UNORM/SNORM store rules (CLRX GcnMemHandling:
// writes round to nearest even; NaN -> 0 and clamping per the Vulkan fixed-point conversion rules).
// max = 2^n-1 (UNORM) or 2^(n-1)-1 (SNORM). f * max is exact in double (24 + 16 bits).
// -0.0 compares equal to 0 and becomes code 0 in both.
int64_t normStore(uint32_t reg, uint32_t max, bool isSigned, policy::NormStore mode) {
  float f = bitsToFloat(reg);
  if (std::isnan(f)) return 0;
  const float lo = isSigned ? -1.0f : 0.0f;
  if (f < lo) f = lo;
  if (f > 1.0f) f = 1.0f;
  // A float (24-bit significand) times max (< 2^32) is exact in double's 53 bits; under
  // f32mul the product is first rounded to float32 (nearest even), as a float multiply does.
  const double product = static_cast<double>(f) * static_cast<double>(max);
  return roundHalfEven(mode == policy::NormStore::Float32Multiply
                           ? static_cast<double>(static_cast<float>(product))
                           : product);
}

uint32_t floatStore(unsigned bits, uint32_t reg, const Policies& p) {
  const bool toInf = p.ufOverflow() == policy::UfOverflow::Inf;
  const fbits::Rounding mode = p.floatStoreRound() == policy::FloatStoreRound::TowardZero
                                   ? fbits::Rounding::TowardZero
                                   : fbits::Rounding::NearestEven;
  switch (bits) {
    case 32:
      return reg;
    case 16:
      return fbits::floatToHalf(reg, mode);
    case 11:
      return fbits::floatToUf11(reg, toInf, mode);
    case 10:
      return fbits::floatToUf10(reg, toInf, mode);
    default:
      throw Error("no float interpretation for a " + std::to_string(bits) + "-bit component");
  }
}

// alpha2=unsigned (Mesa's alpha adjust, GFX6-8 but Stoney): the 2-bit W of a signed
// 2_10_10_10 load converts as its unsigned counterpart.
Nfmt alphaNumberFormat(Dfmt d, Nfmt n, unsigned comp, const Policies& p) {
  if (d != Dfmt::F2_10_10_10 || comp != 3 || p.alpha2() != policy::Alpha2::Unsigned) return n;
  switch (n) {
    case Nfmt::Snorm:
      return Nfmt::Unorm;
    case Nfmt::Sscaled:
      return Nfmt::Uscaled;
    case Nfmt::Sint:
      return Nfmt::Uint;
    default:
      return n;
  }
}

bool isDefined(Gen gen, Dfmt d, Nfmt n, Direction dir, const Policies& p) {
  return pairVerdict(gen, d, n, dir, p).status == PairStatus::Defined;
}

bool normOrScaled(Nfmt n) {
  return n == Nfmt::Unorm || n == Nfmt::Snorm || n == Nfmt::Uscaled || n == Nfmt::Sscaled;
}

// norm32=raw: a 32-bit normalized or scaled field is not converted (AMD Southern Islands ISA,
// quoted by Mesa).
bool keptRaw(unsigned bits, Nfmt n, const Policies& p) {
  return bits == 32 && p.norm32() == policy::Norm32::Raw && normOrScaled(n);
}

}  // namespace

PairVerdict pairVerdict(Gen gen, Dfmt d, Nfmt n, Direction dir, const Policies& p) {
  const PairVerdict v = pairStatus(gen, d, n, dir);
  if (v.status == PairStatus::Unknown && dir == Direction::Load && normOrScaled(n) &&
      dfmtInfo(d).bits[0] == 32 && p.norm32() != policy::Norm32::Undefined)
    return {PairStatus::Defined, ""};
  return v;
}

std::optional<uint32_t> loadComponent(Gen gen, Dfmt d, Nfmt n, unsigned comp, uint32_t code,
                                      const Policies& p) {
  if (!isDefined(gen, d, n, Direction::Load, p)) return std::nullopt;
  n = alphaNumberFormat(d, n, comp, p);
  const unsigned bits = componentBits(d, comp);
  checkCode(d, bits, code);
  if (keptRaw(bits, n, p)) return code;
  const auto norm = p.normToFloat();
  switch (n) {
    case Nfmt::Unorm:
      return normToFloat(code, fieldMask(bits), false, norm);
    case Nfmt::Snorm: {
      // CLRX GcnMemHandling: data range MIN+1..MAX; docs/gcn-facts.md: MIN also reads as -1.0.
      const int32_t s = signExtend(code, bits);
      const uint32_t max = fieldMask(bits - 1);
      if (s <= -static_cast<int32_t>(max)) return kMinusOneF;
      return normToFloat(static_cast<uint32_t>(s < 0 ? -s : s), max, s < 0, norm);
    }
    case Nfmt::Uscaled:
      // Exact in float up to 16 bits; a 32-bit code (norm32=formula) rounds to nearest even.
      return fbits::roundRatio(code, 1, false, fbits::kFloat32);
    case Nfmt::Sscaled: {
      const int64_t s = signExtend(code, bits);
      return fbits::roundRatio(static_cast<uint64_t>(s < 0 ? -s : s), 1, s < 0, fbits::kFloat32);
    }
    case Nfmt::Uint:
      return code;
    case Nfmt::Sint:
      return static_cast<uint32_t>(signExtend(code, bits));
    case Nfmt::SnormOgl: {
      // docs/gcn-facts.md: (2c+1)/(2^n-1), c signed; the numerator is odd, never zero.
      const int64_t num = 2 * static_cast<int64_t>(signExtend(code, bits)) + 1;
      return normToFloat(static_cast<uint32_t>(num < 0 ? -num : num), fieldMask(bits), num < 0,
                         norm);
    }
    case Nfmt::Float:
      return floatFieldToFloat(bits, code, p.nanWiden());
  }
  return std::nullopt;
}

LoadedElement loadElement(Gen gen, Dfmt d, Nfmt n, std::span<const uint8_t> bytes,
                          const Policies& p) {
  const DfmtInfo& info = dfmtInfo(d);
  LoadedElement e;
  e.count = info.components;
  const PairVerdict v = pairVerdict(gen, d, n, Direction::Load, p);
  if (v.status != PairStatus::Defined) {
    e.undefinedReason = v.reason;
    return e;
  }
  for (unsigned c = 0; c < info.components; ++c)
    e.reg[c] = loadComponent(gen, d, n, c, extractComponent(d, c, bytes, p), p);
  return e;
}

uint32_t oneValue(Gen gen, Nfmt n) {
  return nfmtInfo(n, gen).reg == RegType::Float ? kOneF : 1u;
}

std::array<std::optional<uint32_t>, 4> applyDstSel(Gen gen, Nfmt n, const LoadedElement& e,
                                                   const std::array<DstSel, 4>& sel) {
  std::array<std::optional<uint32_t>, 4> out{};
  for (unsigned i = 0; i < 4; ++i) {
    switch (sel[i]) {
      case DstSel::Zero:
        out[i] = 0u;
        break;
      case DstSel::One:
        out[i] = oneValue(gen, n);
        break;
      case DstSel::X:
      case DstSel::Y:
      case DstSel::Z:
      case DstSel::W: {
        const unsigned src = static_cast<unsigned>(sel[i]) - static_cast<unsigned>(DstSel::X);
        if (src < e.count) out[i] = e.reg[src];
        break;
      }
      case DstSel::Reserved2:
      case DstSel::Reserved3:
        break;  // CLRX GcnMemHandling lists no meaning for 2 and 3
    }
  }
  return out;
}

std::optional<uint32_t> storeComponent(Gen gen, Dfmt d, Nfmt n, unsigned comp, uint32_t reg,
                                       const Policies& p) {
  if (!isDefined(gen, d, n, Direction::Store, p)) return std::nullopt;
  const unsigned bits = componentBits(d, comp);
  const uint32_t mask = fieldMask(bits);
  const bool clamp = p.intStoreOverflow() == policy::IntStoreOverflow::Clamp;
  switch (n) {
    case Nfmt::Unorm:
      return static_cast<uint32_t>(normStore(reg, mask, false, p.normStore()));
    case Nfmt::Snorm:
      return static_cast<uint32_t>(normStore(reg, fieldMask(bits - 1), true, p.normStore())) & mask;
    case Nfmt::Uint:
      if (clamp && reg > mask) return mask;
      return reg & mask;
    case Nfmt::Sint: {
      if (!clamp || bits >= 32) return reg & mask;
      const int32_t v = static_cast<int32_t>(reg);
      const int32_t hi = static_cast<int32_t>(fieldMask(bits - 1));
      const int32_t lo = -hi - 1;
      const int32_t c = v < lo ? lo : (v > hi ? hi : v);
      return static_cast<uint32_t>(c) & mask;
    }
    case Nfmt::Float:
      return floatStore(bits, reg, p);
    case Nfmt::Uscaled:
    case Nfmt::Sscaled:
    case Nfmt::SnormOgl:
      break;  // not writable: pairStatus already said Illegal
  }
  return std::nullopt;
}

StoredElement storeElement(Gen gen, Dfmt d, Nfmt n, std::span<const uint32_t> regs,
                           const Policies& p) {
  const DfmtInfo& info = dfmtInfo(d);
  StoredElement s;
  s.size = info.bytes;
  const PairVerdict v = pairVerdict(gen, d, n, Direction::Store, p);
  if (v.status != PairStatus::Defined) {
    s.reason = v.reason;
    return s;
  }
  if (regs.size() != info.components)
    throw Error("data format " + std::string(info.name) + " stores " +
                std::to_string(info.components) + " components, got " +
                std::to_string(regs.size()) + " register values");
  for (unsigned c = 0; c < info.components; ++c) {
    const auto code = storeComponent(gen, d, n, c, regs[c], p);
    insertComponent(d, c, *code, std::span<uint8_t>(s.bytes.data(), s.size), p);
  }
  s.defined = true;
  return s;
}

std::optional<uint16_t> loadComponentD16(Gen gen, Dfmt d, Nfmt n, unsigned comp, uint32_t code,
                                         const Policies& p) {
  // D16 format loads exist from GFX8 (docs/gcn-facts.md, "Opcodes and encodings").
  if (gen == Gen::Gfx6 || gen == Gen::Gfx7) return std::nullopt;
  if (!isDefined(gen, d, n, Direction::Load, p)) return std::nullopt;
  n = alphaNumberFormat(d, n, comp, p);
  const unsigned bits = componentBits(d, comp);
  checkCode(d, bits, code);
  const uint32_t mask = fieldMask(bits);
  // A field kept raw has no 16-bit result anywhere in the record: none is claimed.
  if (keptRaw(bits, n, p)) return std::nullopt;
  // AMD RDNA3 ISA: "float32 to float16 uses truncation; other input formats round to nearest
  // even". The other conversions go from the exact value straight to half (no float32 step),
  // so the NormToFloat policy does not apply here; nan-widen does (an 11/10-bit NaN widens).
  switch (n) {
    case Nfmt::Unorm:
      return static_cast<uint16_t>(fbits::roundRatio(code, mask, false, fbits::kHalf));
    case Nfmt::Snorm: {
      const int32_t s = signExtend(code, bits);
      const uint32_t max = fieldMask(bits - 1);
      if (s <= -static_cast<int32_t>(max)) return uint16_t{0xbc00};  // -1.0
      return static_cast<uint16_t>(
          fbits::roundRatio(static_cast<uint32_t>(s < 0 ? -s : s), max, s < 0, fbits::kHalf));
    }
    case Nfmt::Uscaled:
      return static_cast<uint16_t>(fbits::roundRatio(code, 1, false, fbits::kHalf));
    case Nfmt::Sscaled: {
      // 64 bits: a 32-bit field's minimum (norm32=formula) has no 32-bit magnitude.
      const int64_t s = signExtend(code, bits);
      return static_cast<uint16_t>(
          fbits::roundRatio(static_cast<uint64_t>(s < 0 ? -s : s), 1, s < 0, fbits::kHalf));
    }
    case Nfmt::Uint:
    case Nfmt::Sint:
      // No document says what D16 does with an integer field wider than 16 bits (saturate?
      // keep the low half?): the reference claims nothing.
      if (bits > 16) return std::nullopt;
      return static_cast<uint16_t>(n == Nfmt::Uint ? code
                                                   : static_cast<uint32_t>(signExtend(code, bits)));
    case Nfmt::Float:
      if (bits == 32) return fbits::floatToHalf(code, fbits::Rounding::TowardZero);
      if (bits == 16) return static_cast<uint16_t>(code);
      // 11/10-bit floats fit half exactly (same exponent, shorter mantissa); a NaN under
      // nan-widen=exact keeps its bits (mantissa shifted up, no quiet bit forced).
      if (p.nanWiden() == policy::NanWiden::Exact && (code >> (bits - 5)) == 0x1f &&
          (code & ((1u << (bits - 5)) - 1)) != 0)
        return static_cast<uint16_t>(0x7c00u | ((code & ((1u << (bits - 5)) - 1)) << (15 - bits)));
      return fbits::floatToHalf(floatFieldToFloat(bits, code, p.nanWiden()),
                                fbits::Rounding::NearestEven);
    case Nfmt::SnormOgl:
      break;  // gfx8: reserved, gfx9: unknown; pairStatus already refused
  }
  return std::nullopt;
}

std::optional<uint32_t> storeComponentD16(Gen gen, Dfmt d, Nfmt n, unsigned comp, uint16_t reg,
                                          const Policies& p) {
  if (gen == Gen::Gfx6 || gen == Gen::Gfx7) return std::nullopt;
  if (!isDefined(gen, d, n, Direction::Store, p)) return std::nullopt;
  const unsigned bits = componentBits(d, comp);
  switch (nfmtInfo(n, gen).reg) {
    case RegType::Uint:
      return storeComponent(gen, d, n, comp, reg, p);
    case RegType::Sint:
      return storeComponent(gen, d, n, comp,
                            static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(reg))),
                            p);
    case RegType::Float:
      // A half into a 16-bit float field is the identity (no quieting of signalling NaNs:
      // nothing says the path converts); everything else goes through the exact half->float
      // widening and the 32-bit store rules.
      if (n == Nfmt::Float && bits == 16) return uint32_t{reg};
      return storeComponent(gen, d, n, comp, fbits::halfToFloat(reg), p);
  }
  return std::nullopt;
}

uint16_t oneValueD16(Nfmt n) {
  return (n == Nfmt::Uint || n == Nfmt::Sint) ? uint16_t{1} : uint16_t{0x3c00};
}

namespace {

uint32_t extractAt(Dfmt d, unsigned comp, unsigned offset, std::span<const uint8_t> bytes) {
  const DfmtInfo& info = dfmtInfo(d);
  const unsigned bits = componentBits(d, comp);
  if (bytes.size() < info.bytes)
    throw Error("element of " + std::string(info.name) + " needs " + std::to_string(info.bytes) +
                " bytes, got " + std::to_string(bytes.size()));
  const unsigned first = offset / 8;
  const unsigned shift = offset % 8;
  uint64_t window = 0;
  for (unsigned i = 0; i < 5 && first + i < info.bytes; ++i)
    window |= static_cast<uint64_t>(bytes[first + i]) << (8 * i);
  return static_cast<uint32_t>(window >> shift) & fieldMask(bits);
}

void insertAt(Dfmt d, unsigned comp, unsigned offset, uint32_t code, std::span<uint8_t> bytes) {
  const DfmtInfo& info = dfmtInfo(d);
  const unsigned bits = componentBits(d, comp);
  checkCode(d, bits, code);
  if (bytes.size() < info.bytes)
    throw Error("element of " + std::string(info.name) + " needs " + std::to_string(info.bytes) +
                " bytes, got " + std::to_string(bytes.size()));
  const unsigned first = offset / 8;
  const unsigned shift = offset % 8;
  const uint64_t field = static_cast<uint64_t>(fieldMask(bits)) << shift;
  const uint64_t value = static_cast<uint64_t>(code) << shift;
  for (unsigned i = 0; i < 5 && first + i < info.bytes; ++i) {
    const auto keep = static_cast<uint8_t>(~(field >> (8 * i)));
    const auto put = static_cast<uint8_t>(value >> (8 * i));
    bytes[first + i] = static_cast<uint8_t>((bytes[first + i] & keep) | put);
  }
}

}  // namespace

unsigned componentOffset(Dfmt d, unsigned comp, const Policies& p) {
  const unsigned offset = dfmtInfo(d).offset.at(comp);
  // packed-order=reversed (shadPS4): the fields mirrored within the dword.
  if ((d == Dfmt::F11_11_10 || d == Dfmt::F10_10_10_2) &&
      p.packedOrder() == policy::PackedOrder::Reversed)
    return 32 - offset - componentBits(d, comp);
  return offset;
}

uint32_t extractComponent(Dfmt d, unsigned comp, std::span<const uint8_t> bytes) {
  return extractAt(d, comp, dfmtInfo(d).offset.at(comp), bytes);
}
void insertComponent(Dfmt d, unsigned comp, uint32_t code, std::span<uint8_t> bytes) {
  insertAt(d, comp, dfmtInfo(d).offset.at(comp), code, bytes);
}
uint32_t extractComponent(Dfmt d, unsigned comp, std::span<const uint8_t> bytes,
                          const Policies& p) {
  return extractAt(d, comp, componentOffset(d, comp, p), bytes);
}
void insertComponent(Dfmt d, unsigned comp, uint32_t code, std::span<uint8_t> bytes,
                     const Policies& p) {
  insertAt(d, comp, componentOffset(d, comp, p), code, bytes);
}

std::string registerValueText(RegType t, uint32_t bits) {
  switch (t) {
    case RegType::Uint:
      return std::to_string(bits);
    case RegType::Sint:
      return std::to_string(static_cast<int32_t>(bits));
    case RegType::Float:
      break;
  }
  const float f = bitsToFloat(bits);
  if (std::isnan(f)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "nan(0x%08x)", bits);
    return buf;
  }
  if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
  // Shortest text that reads back to the same float (std::to_chars guarantees round trip).
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, f);
  return std::string(buf, r.ptr);
}

}  // namespace gcn
