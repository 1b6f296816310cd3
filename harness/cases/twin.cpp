#include "harness/cases/twin.h"

#include "harness/control/control_route.h"
#include "harness/isa/binary_route.h"
#include "harness/judge/expect.h"
#include "reference/error.h"

namespace gcnprobe::cases {

std::vector<judge::Case> programTwins(const gcn::Chip& chip, const judge::Case& c,
                                      std::string& why) {
  if (!c.broken.empty() || c.device.inst.op == nullptr) {
    why = "the case could not be built";
    return {};
  }
  std::vector<judge::ViewLoad> loads;
  try {
    loads = viewLoads(c);
  } catch (const gcn::Error& e) {
    why = e.what();
    return {};
  }
  std::vector<judge::Case> twins;
  for (const judge::ViewLoad& load : loads) {
    judge::Case t = c;
    t.name = c.name + "@program" + (loads.size() > 1 ? "." + std::to_string(load.channel) : "");
    // The instruction's own result: no view composition or sRGB conversion after it.
    t.view.reset();
    routes::DeviceCase& d = t.device;
    d.inst = load.inst;
    d.binaryPatch = false;
    d.ownProgram = true;
    d.binding = routes::Binding::StorageBuffer;
    d.format = VK_FORMAT_UNDEFINED;
    d.viewComponents = 0;
    d.rawVsharp = !isa::isDriverSsboVsharp(chip, d);
    if (std::string p = control::programFormProblem(chip, d); !p.empty()) {
      why = t.name + ": " + p;
      return {};
    }
    twins.push_back(std::move(t));
  }
  return twins;
}

}  // namespace gcnprobe::cases
