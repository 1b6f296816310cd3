// Named tolerance policies: where a comparison may accept a value other than the
// reference's bits. Exact is the default; the others exist because the Vulkan spec allows
// rounding or representation freedom that GCN does not (used under the portable profile,
// profile.h; under GCN profiles every case is exact except sRGB views, "srgb-gcn", whose
// EOTF is driver shader code).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace gcnprobe::judge {

// The rows of the table, so a case names its tolerance by a value the compiler checks.
enum class ToleranceId : uint8_t { Exact, Norm1Ulp, PortableTexel, Srgb, SrgbGcn };

struct Tolerance {
  ToleranceId id;
  std::string_view name;
  uint8_t normLoadUlps;  // UNORM/SNORM -> float loads: |actual - expected| in float ulps
  uint8_t storeCodes;    // stored UNORM/SNORM/float fields: |actual - expected| in codes
  bool anyNanPayload;    // a NaN matches any NaN
  bool denormFlush;      // a denormal may read or store as zero of the same sign
  std::string_view source;
  // sRGB-decoded components (FormatView::srgb): |actual - expected| <= srgbAbs.
  double srgbAbs = 0;
};

// The table, "exact" first.
std::span<const Tolerance> allTolerances();
// The row of an id.
const Tolerance& tolerance(ToleranceId id);
// By name (command line, tests); nullptr when unknown.
const Tolerance* tryFindTolerance(std::string_view name);
// The same, throwing gcn::Error naming the text and the known names.
const Tolerance& findTolerance(std::string_view name);

}  // namespace gcnprobe::judge
