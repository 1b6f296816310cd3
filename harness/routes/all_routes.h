// Every route the harness has, in one list: the one place a new route is registered, and the
// one place a case is given its route (chooseRoute), for `run`, `isa` and `probe` alike.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "harness/routes/route.h"
#include "harness/vulkan/context.h"

namespace gcnprobe::routes {

// Texel, storage, atomic, vertex and raw V# routes on one device. Each route claims the
// cases of its binding (Route::handles); the raw route every case with a raw V#.
std::vector<std::unique_ptr<Route>> makeAllRoutes(vk::Context& ctx);

// The route a case runs on: the one route of the list that claims it (Route::handles).
struct RouteChoice {
  Route* route = nullptr;  // nullptr: no route or more than one (`reason` says which)
  std::size_t index = 0;   // route's position in the list
  // Set when route is nullptr: "no route for binding <b> on this build", or for a case two
  // routes claim "routes <a> and <b> both claim ...": an error in the route list, not a
  // property of the case.
  std::string reason;
  bool ambiguous = false;  // more than one route claims the case
};
RouteChoice chooseRoute(std::span<const std::unique_ptr<Route>> routes, const DeviceCase& c);

}  // namespace gcnprobe::routes
