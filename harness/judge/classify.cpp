#include "harness/judge/classify.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

#include "reference/float_bits.h"

namespace gcnprobe::judge {
namespace {

using gcn::fbits::kFloat32;

constexpr const char* kComp = "xyzw?";

}  // namespace

std::string classifyRegister(gcn::RegType t, uint32_t e, uint32_t a, unsigned comp,
                             std::span<const std::optional<uint32_t>> expectedVector) {
  if (e == a) return "";
  if (t == gcn::RegType::Float && gcn::fbits::isNan(kFloat32, e) && gcn::fbits::isNan(kFloat32, a))
    return "nan-payload";
  for (unsigned k = 0; k < expectedVector.size(); ++k) {
    // A zero matching another component is more likely a missing value than a swap.
    if (k != comp && expectedVector[k] && *expectedVector[k] == a && a != e && a != 0)
      return std::string("channel-swap(") + kComp[std::min(k, 4u)] + ")";
  }
  if (t == gcn::RegType::Float) {
    if (gcn::fbits::isDenormal(kFloat32, e) && (a & 0x7fffffffu) == 0) return "denorm-flush";
    if (gcn::fbits::isFinite(kFloat32, e) && gcn::fbits::isFinite(kFloat32, a) &&
        (e & 0x80000000u) == (a & 0x80000000u) &&
        std::llabs(static_cast<int64_t>(e) - static_cast<int64_t>(a)) == 1)
      return "1-ulp";
  } else if (std::llabs(static_cast<int64_t>(e) - static_cast<int64_t>(a)) == 1) {
    return "1-lsb";
  }
  if ((e ^ a) == 0x80000000u) return "sign";
  if (a == 0 || e == 0) return "zero-vs-stale";
  return "other";
}

// A GCN buffer load has no sRGB NUM_FORMAT, so a driver must decode in the shader.
// The expected value may come from any acceptance-set alternative (its UNORM step rounded
// either way), so both comparisons allow 1e-6, far below the 1/255 between codes.
bool srgbNotDecoded(uint32_t e, uint32_t a) {
  if (e == a || !gcn::fbits::isFinite(kFloat32, a) || !gcn::fbits::isFinite(kFloat32, e))
    return false;
  const float fa = std::bit_cast<float>(a);
  const float code = std::nearbyint(fa * 255.0f);  // the code the actual value would be
  if (code < 1 || code > 254) return false;        // 0 and 255 decode to themselves
  const float unorm = code / 255.0f;
  const float decoded = std::bit_cast<float>(srgbToLinearBits(std::bit_cast<uint32_t>(unorm)));
  return std::fabs(fa - unorm) <= 1e-6f && std::fabs(decoded - std::bit_cast<float>(e)) <= 1e-6f;
}

std::string classifyComponent(const FormatView& fv, unsigned comp, uint32_t e, uint32_t a,
                              std::span<const std::optional<uint32_t>> expectedVector) {
  if (comp < 4 && fv.srgb[comp] && srgbNotDecoded(e, a)) return "srgb-not-decoded";
  return classifyRegister(fv.reg, e, a, comp, expectedVector);
}

std::string classifyField(gcn::Dfmt d, gcn::Nfmt n, unsigned comp, uint32_t e, uint32_t a,
                          uint32_t initial, std::span<const uint32_t> expectedFields) {
  if (e == a) return "";
  const unsigned bits = gcn::dfmtInfo(d).bits[comp];
  if (gcn::isFloatField(d, n)) {
    const gcn::fbits::Layout f = gcn::fbits::formatFloatLayout(bits);
    if (isNan(f, e) && isNan(f, a)) return "nan-payload";
  }
  for (unsigned k = 0; k < expectedFields.size(); ++k) {
    if (k != comp && expectedFields[k] == a && a != 0)
      return std::string("channel-swap(") + kComp[k] + ")";
  }
  if (a == initial) return "not-written";
  if (gcn::isFloatField(d, n)) {
    const gcn::fbits::Layout f = gcn::fbits::formatFloatLayout(bits);
    const uint32_t signBit = gcn::fbits::signMask(f);
    if (isDenormal(f, e) && (a & ~signBit) == 0) return "denorm-flush";
    if ((e & signBit) == (a & signBit) &&
        std::llabs(static_cast<int64_t>(e) - static_cast<int64_t>(a)) == 1)
      return "1-ulp";
  } else {
    const int64_t diff = n == gcn::Nfmt::Snorm || n == gcn::Nfmt::Sint
                             ? gcn::signExtend(e, bits) - gcn::signExtend(a, bits)
                             : static_cast<int64_t>(e) - static_cast<int64_t>(a);
    if (std::llabs(diff) == 1) return "1-lsb";
  }
  if (a == 0 || e == 0) return "zero-vs-stale";
  return "other";
}

}  // namespace gcnprobe::judge
