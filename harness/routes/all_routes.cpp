#include "harness/routes/all_routes.h"

#include "harness/routes/atomic.h"
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
  return out;
}

}  // namespace gcnprobe::routes
