// A case's twins in gcnprobe's own program (harness/control/, docs/program.md): the same
// instruction, V#, lanes and memory, run with every instruction of the shader gcnprobe's. A
// case whose driver route is a route-miss (the driver put something between the instruction
// and Out, or split it) gets its proven path there; the driver route's verdict stays recorded
// as what the driver does. `isa` reports each route-miss case's twins beside it.
#pragma once

#include <string>
#include <vector>

#include "harness/judge/case.h"
#include "reference/gen.h"

namespace gcnprobe::cases {

// The twins of a case: `<case>@program` for a one-instruction read; for a composed view
// (several BUFFER_LOAD_FORMAT_X, expect.h viewLoads) one per load, `<case>@program.<channel>`,
// each the load's instruction alone. Empty, with the reason in `why`, when the program hosts
// none of them (control::programFormProblem) or the case could not be built.
std::vector<judge::Case> programTwins(const gcn::Chip& chip, const judge::Case& c,
                                      std::string& why);

}  // namespace gcnprobe::cases
