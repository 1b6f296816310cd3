// Seeded data patterns derived from the format table (gcn::dfmtInfo bits) rather than
// written per format: every field's edge codes (0, max, min, min+1, signed max, and for
// float fields zeros, 1.0, max finite, smallest normal, denormals, infinities, quiet and
// signalling NaN) followed by seeded random codes.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "reference/format.h"

namespace gcnprobe::cases {

// Edge codes of component `comp` of data format `d` read with number format `n`
// (float encodings when n is FLOAT on a float-capable format, else integer edges), each
// masked to the field's width, without duplicates.
std::vector<uint32_t> edgeCodes(gcn::Dfmt d, gcn::Nfmt n, unsigned comp);

// Register values worth storing through component `comp` of (d, n): in-range, boundary,
// rounding ties, out-of-range (clamp/overflow) and special float values.
std::vector<uint32_t> edgeRegisterValues(gcn::Dfmt d, gcn::Nfmt n, unsigned comp);

// `elements` elements of (d, n): element e < rows holds edge code e of every component
// (cycling through shorter lists), later elements seeded random codes.
std::vector<uint8_t> patternMemory(gcn::Dfmt d, gcn::Nfmt n, uint32_t elements, uint64_t seed);

// A stable seed for a name (FNV-1a), so a case's data never depends on run order.
uint64_t seedOf(std::string_view name);

// The suites' seeded generator: SplitMix64 (Steele, Lea and Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014), a UniformRandomBitGenerator whose state is one
// word. Every start of gcnprobe builds every case of the suites (about 900, three generators
// each); seeding std::mt19937_64 fills 312 words and std::mt19937 624, which was most of the
// time those builds took.
class CaseRng {
 public:
  using result_type = uint64_t;
  explicit CaseRng(uint64_t seed) : state_(seed) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

}  // namespace gcnprobe::cases
