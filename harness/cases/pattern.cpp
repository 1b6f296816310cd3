#include "harness/cases/pattern.h"

#include <algorithm>
#include <bit>

#include "reference/convert.h"
#include "reference/float_bits.h"

namespace gcnprobe::cases {
namespace {

uint32_t fieldMask(unsigned bits) {
  return bits >= 32 ? 0xffffffffu : ((1u << bits) - 1u);
}

void addUnique(std::vector<uint32_t>& v, uint32_t x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

}  // namespace

std::vector<uint32_t> edgeCodes(gcn::Dfmt d, gcn::Nfmt n, unsigned comp) {
  const gcn::DfmtInfo& info = gcn::dfmtInfo(d);
  std::vector<uint32_t> out;
  if (comp >= info.components) return out;
  const unsigned bits = info.bits[comp];
  if (gcn::isFloatField(d, n)) {
    const gcn::fbits::Layout f = gcn::fbits::formatFloatLayout(bits);
    const uint32_t expMax = (1u << f.expBits) - 1u;
    const uint32_t bias = (1u << (f.expBits - 1)) - 1u;
    const uint32_t mantMask = gcn::fbits::mantissaMask(f);
    const uint32_t signBit = gcn::fbits::signMask(f);
    const uint32_t one = bias << f.manBits;
    const uint32_t inf = gcn::fbits::exponentMask(f);
    for (uint32_t c : {0u, one, ((expMax - 1u) << f.manBits) | mantMask, 1u << f.manBits, 1u,
                       mantMask, inf, inf | (1u << (f.manBits - 1)), inf | 1u, inf | mantMask}) {
      addUnique(out, c);
      if (f.hasSign) addUnique(out, c | signBit);  // -0, -1.0, -max, -denormal, -inf, -NaN
    }
    return out;
  }
  const uint32_t mask = fieldMask(bits);
  const uint32_t half = bits >= 32 ? 0x80000000u : (1u << (bits - 1));
  // 0, 1, unsigned max, signed min, signed min + 1, signed max (SNORM reads both min and
  // min + 1 as -1.0: docs/gcn-facts.md "Conversions").
  for (uint32_t c : {0u, 1u, mask, half, half + 1u, half - 1u})
    addUnique(out, c & mask);
  return out;
}

std::vector<uint32_t> edgeRegisterValues(gcn::Dfmt d, gcn::Nfmt n, unsigned comp) {
  const gcn::DfmtInfo& info = gcn::dfmtInfo(d);
  std::vector<uint32_t> out;
  if (comp >= info.components) return out;
  const unsigned bits = info.bits[comp];
  const uint32_t mask = fieldMask(bits);
  const uint32_t half = bits >= 32 ? 0x80000000u : (1u << (bits - 1));
  switch (n) {
    case gcn::Nfmt::Uint:
      for (uint32_t v : {0u, 1u, mask, mask + 1u, half, 0x7fffffffu, 0xffffffffu})
        addUnique(out, v);
      break;
    case gcn::Nfmt::Sint:
      for (uint32_t v : {0u, 1u, 0xffffffffu, half - 1u, 0u - half, half, 0u - half - 1u,
                         0x7fffffffu, 0x80000000u})
        addUnique(out, v);
      break;
    default: {
      // Float registers. The ties (k + 0.5) / max sit between two UNORM codes; 2.0 and -2.0
      // clamp for UNORM/SNORM; the specials test NaN/Inf/denormal handling on stores.
      const double max = bits >= 32 ? 4294967295.0 : static_cast<double>(mask);
      for (float v : {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, -2.0f, 65504.0f, 1e-8f,
                      static_cast<float>(0.5 / max), static_cast<float>(1.5 / max),
                      static_cast<float>(2.5 / max)})
        addUnique(out, std::bit_cast<uint32_t>(v));
      for (uint32_t v : {0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0x00000001u,
                         0x807fffffu, 0x7f7fffffu})
        addUnique(out, v);
      break;
    }
  }
  return out;
}

std::vector<uint8_t> patternMemory(gcn::Dfmt d, gcn::Nfmt n, uint32_t elements, uint64_t seed) {
  const gcn::DfmtInfo& info = gcn::dfmtInfo(d);
  std::vector<uint8_t> mem(static_cast<size_t>(elements) * info.bytes);
  std::array<std::vector<uint32_t>, 4> edges;
  size_t rows = 0;
  for (unsigned c = 0; c < info.components; ++c) {
    edges[c] = edgeCodes(d, n, c);
    rows = std::max(rows, edges[c].size());
  }
  CaseRng rng(seed);
  for (uint32_t e = 0; e < elements; ++e) {
    std::span<uint8_t> el(mem.data() + static_cast<size_t>(e) * info.bytes, info.bytes);
    for (unsigned c = 0; c < info.components; ++c) {
      const uint32_t code = e < rows ? edges[c][e % edges[c].size()]
                                     : static_cast<uint32_t>(rng()) & fieldMask(info.bits[c]);
      gcn::insertComponent(d, c, code, el);
    }
  }
  return mem;
}

uint64_t seedOf(std::string_view name) {
  uint64_t h = 1469598103934665603ull;
  for (char c : name) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace gcnprobe::cases
