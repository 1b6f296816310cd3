// A case as a reproduction that needs no gcnprobe: the route's shader, the buffers exactly as
// the route binds them (the data with its guard bands, the lane inputs, the Out marker), the
// dispatch, and what the reference expects, as an Amber script (amber.h) or a folder of files
// (`gcnprobe export --dir`). Usage: docs/export.md.
//
// What a reproduction checks is what gcnprobe checks where Amber can say it: a lane's returned
// words when one exact outcome is acceptable, the buffer when one image is, and the guard bands.
// A lane or buffer that accepts several outcomes (a disputed policy, the Vulkan out-of-bounds
// rules, an order of atomics) or a tolerance is listed as unchecked, with the reason, and the
// reproduction says so: its pass then proves less than gcnprobe's.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/judge/case.h"
#include "harness/judge/profile.h"

namespace gcnprobe::repro {

// One buffer of the reproduction, as bound.
struct ReproBuffer {
  std::string name;  // "data", "lane_in", "lane_out"
  unsigned binding = 0;
  std::string bindAs = "storage";  // Amber's buffer type: storage, uniform_texel_buffer, ...
  std::vector<uint8_t> bytes;      // the whole buffer before the dispatch
  // The descriptor's window: [offset, offset + range) of `bytes` (the whole buffer when range
  // is 0).
  uint64_t offset = 0, range = 0;
  // What the reference expects of each byte after the dispatch (nullopt: not checked).
  std::vector<std::optional<uint8_t>> expected;
  // How the script lists it: Amber's DATA_TYPE ("uint8", "uint32", or a format name such as
  // "R8G8B8A8_UNORM", whose components Amber stores as the integers given), the bytes of one
  // listed value, whether values are signed, and the bytes of one element (a texel), the unit
  // an EXPECT must start at and cover.
  std::string dataType = "uint8";
  unsigned componentBytes = 1;
  bool componentsSigned = false;
  unsigned elementBytes = 1;
  // Listed as 32-bit floats (dataType "float"), each element checked within tolerance[element]
  // of its expected value (0: exactly); set where a lane's tolerance is an absolute bound.
  bool floats = false;
  std::vector<double> tolerance;
};

struct Reproduction {
  std::string name;   // the case's name
  std::string route;  // the route that runs it in gcnprobe
  // Why the case has no reproduction ("" when it has one): a route or a form Amber cannot
  // express.
  std::string notExpressed;
  std::string instruction;  // the intended instruction, LLVM syntax
  std::string vsharp;       // the V# the driver builds for the binding (formatVSharp)
  std::string profile;      // the profile the expected values are for
  std::string variant;      // the shader variant (shaders/variants.cmake)
  std::string glsl;         // the shader's GLSL, definitions inlined
  std::vector<uint32_t> spirv;
  std::string spirvAsm;                // SPIR-V assembly (SPIRV-Tools)
  std::optional<uint32_t> specOffset;  // specialization constant 0 (OFFSET), if any
  std::vector<ReproBuffer> buffers;    // in binding order
  // A vertex case: a graphics pipeline whose vertex input is `vertices` (raw bytes) in the
  // case's format at the attribute offset and stride, an indexed point list of `indices` (the
  // active lanes' vertex indices), and a fragment stage that writes a constant colour.
  struct VertexInput {
    std::vector<uint8_t> vertices;
    std::string format;  // Amber's name: "R8G8B8A8_UNORM"
    uint32_t offset = 0, stride = 0;
    std::vector<uint32_t> indices;
  };
  std::optional<VertexInput> vertexInput;
  std::string fragmentAsm;                  // the fragment stage, with vertexInput
  std::vector<std::string> deviceFeatures;  // Amber DEVICE_FEATURE names
  // What the device must support that Amber cannot require (format features): without it the
  // script's run is not valid Vulkan, where gcnprobe reports the case unsupported.
  std::vector<std::string> requirements;
  std::vector<std::string> laneNotes;  // per active lane: what it does, what is expected
  std::vector<std::string> unchecked;  // what gcnprobe checks and the script cannot
  unsigned checkedLanes = 0, activeLanes = 0;
};

// The reproduction of `c` under `profile` (expected values as `gcnprobe run` builds them with
// that profile, without VK_EXT_robustness2, which Amber does not enable). Never throws for a
// case it cannot express: notExpressed says why. Throws gcn::Error for a broken case.
Reproduction reproduce(const judge::Case& c, const judge::Profile& profile);

// SPIR-V assembly of a module as `spirv-dis --no-header` prints it (friendly names, indented);
// throws gcn::Error when the module does not disassemble.
std::string spirvAssembly(std::span<const uint32_t> spirv);
// "" when the module passes SPIRV-Tools' validator for Vulkan 1.1 (what `spirv-val
// --target-env vulkan1.1` says), else its message.
std::string spirvValidationProblem(std::span<const uint32_t> spirv);

}  // namespace gcnprobe::repro
