// Building and proving gcnprobe's own program (lane_program.h) as a pipeline, on RADV.
//
// 1. The template (shaders/control_template.comp, the lane-shader layout) is compiled once with
//    its ISA and statistics captured. Its listing gives its whole code (the words of every
//    instruction, in order); its statistics ("SGPRs", "VGPRs") the registers the driver
//    allocates; the descriptor trace of its listing confirms the argument layout the program
//    relies on (set 0's pointer in s2, its high half the driver's constant).
// 2. The same pipeline is compiled into an empty VkPipelineCache; the template's whole code must
//    occur there exactly once.
// 3. The program, padded with s_endpgm to the template's code size, is written over it; it may
//    name no more SGPRs and VGPRs than the template's allocation and be no longer than its code.
// 4. A cache seeded with the patched data builds the pipeline again. It counts as built only
//    when the driver reports an application pipeline-cache hit (it compiled nothing) and the
//    data read back holds the padded program exactly once and the template's code nowhere.
// 5. The program read back is proven as any driver listing is (harness/isa/check.h): the case's
//    instruction on set 0 binding 0, its V#, the data path from In to Out, EXEC per lane, the
//    SOFFSET register's value.
// RADV checks no code or checksum in cache entries (docs/binary.md); the template's config
// (registers, LDS, scratch) and argument setup stay the driver's.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/control/lane_program.h"
#include "harness/isa/check.h"
#include "harness/routes/route.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/pipeline.h"

namespace gcnprobe::control {

inline constexpr std::string_view kProgramTemplateVariant = "control_template";
// The executable name the program's listing carries.
inline constexpr std::string_view kProgramExecutable = "Compute Shader (gcnprobe's own program)";

// The own program's data path: the lane-shader layout's In (set 0 binding 1) and Out (binding 2),
// lane l's VADDR its In address word unchanged, its VDATA its In data words.
routes::DataPath programDataPath();

// The program as an executable listing in ACO's shape, for the ISA check; `source` names where
// its words were read (the driver and "pipeline cache read-back").
vk::ExecutableIsa programExecutable(const LaneProgram& program, const std::string& source);

struct ProgramBuild {
  bool built = false;
  std::string reason;  // why not, when !built
  LaneProgram program;
  // The program as read back from the driver's cache (one executable), proven by `check`.
  std::vector<vk::ExecutableIsa> executables;
  isa::CheckResult check;
  std::string proof;  // what the build checked, for reports
  std::shared_ptr<const vk::PipelineObjects> pipeline;
};

class ProgramBuilder {
 public:
  explicit ProgramBuilder(vk::Context& ctx);
  ~ProgramBuilder();
  ProgramBuilder(const ProgramBuilder&) = delete;
  ProgramBuilder& operator=(const ProgramBuilder&) = delete;

  // Why no program can be built on this device ("" when it can).
  std::string deviceProblem() const;
  const std::optional<gcn::Chip>& chip() const { return chip_; }
  // Builds and proves the program for `inst` (SOFFSET's value `soffsetValue` when it names an
  // SGPR or M0), as a descriptor-buffer pipeline when `descriptorBuffer` (a raw V#). Never
  // throws for a refusal: the reason is in the result.
  ProgramBuild build(const gcn::Instruction& inst, uint32_t soffsetValue, bool descriptorBuffer);

 private:
  struct Template;
  Template& templateFor(bool descriptorBuffer);
  vk::Context& ctx_;
  std::optional<gcn::Chip> chip_;
  std::vector<std::unique_ptr<Template>> templates_;
};

}  // namespace gcnprobe::control
