#include "app/commands.h"

namespace gcnprobe::app {

// Not written yet: see the issue tracker.
void addIsaCommand(CLI::App& /*app*/, Context& /*ctx*/) {}

}  // namespace gcnprobe::app
