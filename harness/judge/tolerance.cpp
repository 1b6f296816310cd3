#include "harness/judge/tolerance.h"

#include <string>

#include "reference/error.h"

namespace gcnprobe::judge {
namespace {

constexpr Tolerance kTolerances[] = {
    {ToleranceId::Exact, "exact", 0, 0, false, false,
     "default: on a GCN device the reference predicts every bit"},
    // Vulkan spec "Conversion from Normalized Fixed-Point to Floating-Point" gives
    // f = c / (2^b - 1) without requiring a correctly rounded result; docs/platform.md measured
    // lavapipe computing float(c) * float(1/255): 1 ulp away for 126 of 256 codes.
    {ToleranceId::Norm1Ulp, "norm-1ulp", 1, 0, false, false,
     "Vulkan fixed-point conversion (fundamentals-fixedfpconv) states no exact rounding; "
     "lavapipe is 1 ulp off (docs/platform.md)"},
    // Texel formats under the portable profile: the load rule above; stores: Vulkan's
    // convertFloatToUint/Int returns "one of the two ... integers closest" (round to
    // nearest is only recommended) and float -> 16/11/10-bit float rounding is
    // implementation-dependent; NaN payloads and denormal flushing are not specified for
    // formatted texel accesses.
    {ToleranceId::PortableTexel, "portable-texel", 1, 1, true, true,
     "Vulkan fundamentals-fixedfpconv / fundamentals-fp16..fp10: rounding, NaN payload and "
     "denormal handling of format conversions are implementation-dependent"},
    // sRGB views: the Vulkan spec applies the Data Format spec's sRGB EOTF after the UNORM
    // conversion (textures.adoc, textures-format-conversion; descriptorsets.adoc: texel
    // buffers convert "in the same way as they are for an image") and states no precision
    // for it. fundamentals-floating-point's "accurate to about 1 part in 10^5" is marked in
    // the spec as placeholder text; what conformance enforces is the Vulkan CTS bound for
    // 8-bit sRGB reads, computeFixedPointThreshold(8 - 1) = 2^-7
    // (vktTextureFilteringTests.cpp, tcuTexVerifierUtil.cpp). The diff reports the largest
    // error it saw (a note) so a driver far from the exact EOTF is visible. Alpha: norm-1ulp.
    {ToleranceId::Srgb, "srgb", 1, 0, false, false,
     "Vulkan textures-format-conversion (sRGB EOTF, no stated precision); Vulkan CTS bound "
     "for 8-bit sRGB reads: |error| <= 2^-7; alpha as norm-1ulp",
     1.0 / 128},
    // The same views under a GCN profile: the buffer load's UNORM value is the reference's to
    // the bit, but the EOTF after it is driver shader code, not a buffer instruction, so its
    // rounding is not the reference's to predict; R, G, B keep the CTS bound.
    {ToleranceId::SrgbGcn, "srgb-gcn", 0, 0, false, false,
     "GCN profiles, sRGB views: UNORM load exact; the sRGB EOTF is shader code (no GCN buffer "
     "NUM_FORMAT is sRGB), held to the Vulkan CTS bound 2^-7 on R, G, B",
     1.0 / 128},
};

// tolerance(id) indexes the table by id.
constexpr bool rowsInIdOrder() {
  for (std::size_t i = 0; i < std::size(kTolerances); ++i)
    if (static_cast<std::size_t>(kTolerances[i].id) != i) return false;
  return true;
}
static_assert(rowsInIdOrder() && std::size(kTolerances) == 5);

}  // namespace

std::span<const Tolerance> allTolerances() {
  return kTolerances;
}

const Tolerance& tolerance(ToleranceId id) {
  return kTolerances[static_cast<std::size_t>(id)];
}

const Tolerance* tryFindTolerance(std::string_view name) {
  for (const Tolerance& t : kTolerances)
    if (t.name == name) return &t;
  return nullptr;
}

const Tolerance& findTolerance(std::string_view name) {
  if (const Tolerance* t = tryFindTolerance(name)) return *t;
  std::string known;
  for (const Tolerance& t : kTolerances) {
    known += known.empty() ? "" : ", ";
    known += t.name;
  }
  throw gcn::Error("unknown tolerance '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace gcnprobe::judge
