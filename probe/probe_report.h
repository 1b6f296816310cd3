// Printing probe evaluations: `gcnprobe ref` (one prediction) and `gcnprobe probe` (every
// distinct prediction side by side), as text for people and JSON for scripts.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "probe/probe_eval.h"

namespace gcn::probe {

std::string refText(const Probe& probe, const ProbeSetup& setup, const ExecResult& result,
                    const std::vector<ExpectFailure>& failures);
nlohmann::json refJson(const Probe& probe, const ProbeSetup& setup, const ExecResult& result,
                       const std::vector<ExpectFailure>& failures);

// `device` is the device line: its result and the predictions it matched, or why it was
// not run.
std::string exploreText(const Probe& probe, const ProbeSetup& setup, const Exploration& ex,
                        const std::vector<ExpectFailure>& failures, const std::string& device);
nlohmann::json exploreJson(const Probe& probe, const ProbeSetup& setup, const Exploration& ex,
                           const std::vector<ExpectFailure>& failures,
                           const nlohmann::json& device);

// One side's expectations: "LABEL: none given", "LABEL: holds", or "LABEL: FAILS (n)" and one
// located line per failure; JSON {given, holds, failures[{line, what}]}.
std::string expectText(const std::vector<ExpectFailure>& failures, std::string_view label,
                       bool given = true);
nlohmann::json expectJson(bool given, const std::vector<ExpectFailure>& failures);

// Compact per-lane text: "v1=0x3f800000 (1) v2=undef | 0x1004+4 in". Used by both outputs.
std::string laneCell(const ProbeSetup& setup, const ExecResult& result, unsigned lane);

}  // namespace gcn::probe
