// What kind of mismatch a rejected value is, for the report: computed only for values no
// acceptance set accepted (acceptance.h), against the value the report shows as expected.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "harness/judge/format_view.h"
#include "reference/format.h"

namespace gcnprobe::judge {

// Mismatch classes of a returned register: "nan-payload", "channel-swap(<c>)",
// "denorm-flush", "1-ulp", "1-lsb", "sign", "zero-vs-stale", "other"; "" when equal.
std::string classifyRegister(gcn::RegType t, uint32_t expected, uint32_t actual, unsigned comp,
                             std::span<const std::optional<uint32_t>> expectedVector);
// Mismatch classes of a stored field: as above, plus "not-written" (memory kept its
// initial bits), in code space of the field.
std::string classifyField(gcn::Dfmt d, gcn::Nfmt n, unsigned comp, uint32_t expected,
                          uint32_t actual, uint32_t initial,
                          std::span<const uint32_t> expectedFields);

// An sRGB view component whose actual value is the UNORM code c/255 that the expected value
// decodes from: the device skipped the sRGB EOTF.
bool srgbNotDecoded(uint32_t expected, uint32_t actual);

// Returned component `comp` of the format view: "srgb-not-decoded" for an sRGB component
// whose decode was skipped, else classifyRegister.
std::string classifyComponent(const FormatView& fv, unsigned comp, uint32_t expected,
                              uint32_t actual,
                              std::span<const std::optional<uint32_t>> expectedVector);

}  // namespace gcnprobe::judge
