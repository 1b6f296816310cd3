// The own-program route (docs/program.md): a case whose form no Vulkan construct and no binary
// template realises (an SGPR or M0 SOFFSET, any VADDR value, any OFFSET, any VDATA of at most
// four registers) runs in gcnprobe's own program (lane_program.h), built and proven by
// ProgramBuilder (program_build.h) and dispatched as the storage route dispatches its lane
// shader (or, for a raw V#, as the raw route does), so In, Out, guard bands and the diff are the
// same as every route's.
//
// What a case must be, each refused with its reason otherwise:
// - a GCN device that can run (a compile-only device builds and proves, `gcnprobe isa`);
// - the program's form (programProblem): one VADDR register or none, VDATA of at most four
//   registers, no LDS;
// - confinement (docs/confinement.md): with RADV's SSBO V#, every byte any lane may touch under
//   any option of the addressing points inside the buffer and the guard band behind it; any
//   other V# goes through a descriptor buffer into a harness buffer covering the whole reach,
//   as on the raw route (refused over its bound).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/routes/route.h"
#include "harness/vulkan/context.h"

namespace gcnprobe::control {

std::unique_ptr<routes::Route> makeProgramRoute(vk::Context& ctx);

// Why the own program cannot host the case on `chip` ("" when it can): every check above that
// needs no device. The disputed suite and `probe` ask it before sending a probe here.
std::string programFormProblem(const gcn::Chip& chip, const routes::DeviceCase& c);

// The routes `gcnprobe run`, `probe` and `isa` choose from: routes::makeAllRoutes, the binary
// route and the own-program route.
std::vector<std::unique_ptr<routes::Route>> makeRunRoutes(vk::Context& ctx);

}  // namespace gcnprobe::control
