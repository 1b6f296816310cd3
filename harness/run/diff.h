// The diff: expected (reference, widened by acceptance sets) against actual (a route), per
// lane and component for returned registers, per element field for memory, plus the guard
// bands. Exact unless the applied tolerance says otherwise; every mismatch is classified.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/routes/route.h"
#include "harness/run/case.h"
#include "harness/run/tolerance.h"
#include "reference/executor.h"
#include "reference/format.h"

namespace gcnprobe::run {

// One acceptable outcome of the whole wave: the reference under one set of policy
// choices. alternatives[0] is the primary prediction (the one a mismatch is shown against).
struct Alternative {
  std::string label;  // "gfx9 defaults", "gfx9 norm=mul"
  gcn::ExecResult result;
};

// An extra acceptable register vector for one lane (Vulkan out-of-bounds rules).
struct LaneOption {
  std::string label;
  std::array<std::optional<uint32_t>, 5> vdata{};  // nullopt = any value
};

struct Expected {
  std::vector<Alternative> alternatives;
  std::array<std::vector<LaneOption>, gcn::kWaveSize> laneOptions;
  // Lanes where only laneOptions are accepted (the spec fixes the result; the GCN
  // alternatives do not apply), shown against laneOptions[l][0].
  std::array<bool, gcn::kWaveSize> onlyLaneOptions{};
  // robustBufferAccess without robustBufferAccess2: out-of-bounds stores may land anywhere
  // in the buffer (Vulkan spec, robustBufferAccess), so memory outside in-range writes is
  // not compared when a lane was out of bounds.
  bool oobStoresMayLand = false;
  // openFields[element][field]: any stored value is accepted there (e.g. a NaN register
  // stored to a UNORM/SNORM field: the spec's clamp-and-scale is undefined for NaN).
  std::vector<std::array<bool, 4>> openFields;
  std::string description;  // how the expectation was built (for the report)
};

struct DiffResult {
  bool pass = false;
  std::string summary;               // "" when pass
  std::vector<ComponentDiff> diffs;  // every component of every failing lane / element
  std::vector<std::string> notes;    // observations that do not decide the verdict
};

// What the diff needs to know about the case's format: from the V# of the case.
struct FormatView {
  gcn::Gen gen = gcn::Gen::Gfx9;
  gcn::Dfmt dfmt = gcn::Dfmt::Invalid;
  gcn::Nfmt nfmt = gcn::Nfmt::Unorm;
  gcn::RegType reg = gcn::RegType::Float;
  std::array<gcn::DstSel, 4> dstSel{gcn::DstSel::X, gcn::DstSel::Y, gcn::DstSel::Z, gcn::DstSel::W};
  uint32_t stride = 0;         // element size in bytes for mapping offsets to elements
  std::array<bool, 4> srgb{};  // components decoded through the sRGB EOTF (Tolerance::srgbAbs)
};
// Reads the V# the instruction uses (state.sgpr[inst.srsrc..+3]) with the chip's layout.
FormatView formatViewOf(const gcn::Chip& chip, const routes::DeviceCase& c);

DiffResult diffCase(const routes::DeviceCase& c, const FormatView& fv, const Expected& expected,
                    const routes::DeviceResult& actual, const Tolerance& tol);

// Whether `actual` register bits are accepted for `expected` under `tol`; normFloat: the
// value came from a UNORM/SNORM -> float conversion.
bool registerMatches(gcn::RegType t, uint32_t expected, uint32_t actual, bool normFloat,
                     const Tolerance& tol);

// Mismatch classes of a returned register: "nan-payload", "channel-swap(<c>)",
// "denorm-flush", "1-ulp", "1-lsb", "sign", "zero-vs-stale", "other".
std::string classifyRegister(gcn::RegType t, uint32_t expected, uint32_t actual, unsigned comp,
                             std::span<const std::optional<uint32_t>> expectedVector);
// Mismatch classes of a stored field: as above, plus "not-written" (memory kept its
// initial bits), in code space of the field.
std::string classifyField(gcn::Dfmt d, gcn::Nfmt n, unsigned comp, uint32_t expected,
                          uint32_t actual, uint32_t initial,
                          std::span<const uint32_t> expectedFields);

}  // namespace gcnprobe::run
