// Every route the harness has, in one list: the one place a new route is registered.
#pragma once

#include <memory>
#include <vector>

#include "harness/routes/route.h"
#include "harness/vulkan/context.h"

namespace gcnprobe::routes {

// Texel, storage, atomic and vertex routes on one device. Each route claims the cases of
// its binding (Route::handles).
std::vector<std::unique_ptr<Route>> makeAllRoutes(vk::Context& ctx);

}  // namespace gcnprobe::routes
