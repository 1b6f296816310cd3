#include "harness/routes/all_routes.h"

#include "harness/routes/atomic.h"
#include "harness/routes/raw.h"
#include "harness/routes/storage.h"
#include "harness/routes/texel.h"
#include "harness/routes/vertex.h"

namespace gcnprobe::routes {

std::vector<std::unique_ptr<Route>> makeAllRoutes(vk::Context& ctx) {
  std::vector<std::unique_ptr<Route>> out;
  out.push_back(makeTexelRoute(ctx));
  out.push_back(makeStorageRoute(ctx));
  out.push_back(makeAtomicRoute(ctx));
  out.push_back(makeVertexRoute(ctx));
  out.push_back(makeRawRoute(ctx));
  return out;
}

RouteChoice chooseRoute(std::span<const std::unique_ptr<Route>> routes, const DeviceCase& c) {
  RouteChoice choice;
  for (std::size_t k = 0; k < routes.size(); ++k) {
    if (!routes[k]->handles(c)) continue;
    if (choice.route != nullptr) {
      const std::string what =
          c.inst.op != nullptr ? std::string(c.inst.op->mnemonic) : "no instruction";
      choice.reason = "routes " + std::string(choice.route->name()) + " and " +
                      std::string(routes[k]->name()) + " both claim binding " +
                      std::string(bindingName(c.binding)) + " (" + what +
                      "): each case must have exactly one route";
      choice.route = nullptr;
      choice.ambiguous = true;
      return choice;
    }
    choice.route = routes[k].get();
    choice.index = k;
  }
  if (choice.route == nullptr)
    choice.reason =
        "no route for binding " + std::string(bindingName(c.binding)) + " on this build";
  return choice;
}

}  // namespace gcnprobe::routes
