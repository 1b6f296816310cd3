// A reproduction (reproduction.h) as text for people and other tools: an Amber script (the
// currency of Mesa and Vulkan CTS bug reports: `amber case.amber` runs it on any Vulkan device),
// and the files of `gcnprobe export --dir` (the GLSL, the SPIR-V, the buffers, a README).
// The script's comments carry the instruction, the V#, the profile and, per lane, what the
// reference expects; its EXPECT lines check what reproduction.h says is checked.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "harness/repro/reproduction.h"

namespace gcnprobe::repro {

// The Amber script. `generator` names what wrote it ("gcnprobe 0.1.0 (rev)"). Throws
// gcn::Error when the reproduction is not expressed (notExpressed set).
std::string amberScript(const Reproduction& r, const std::string& generator);

// The files of a case's folder, as (relative path, contents): case.amber, shader.comp,
// shader.spv, shader.spvasm, one .bin per buffer (its bytes before the dispatch), one
// .expected.json per buffer (the expected bytes after it, null where unchecked) and README.md.
std::vector<std::pair<std::string, std::string>> reproductionFiles(const Reproduction& r,
                                                                   const std::string& generator);

}  // namespace gcnprobe::repro
