// The marginal cost of one more case in a same-pipeline batch: N and 2N copies of one suite
// case (one batch key, so one pipeline; the copies differ only in name) are run
//   - through the route alone (buffers, views, descriptor sets, dispatch, read-back), and
//   - through the whole runner (reference prediction, dispatch, diff, ISA check where the
//     device captures ISA, result records),
// best of `repeat` each. Marginal cost = (t(2N) - t(N)) / N: what a batch pays once
// (pipeline creation, the submission, thread start-up) cancels out.
//
//   gcnprobe_case_cost [--device SEL] [--case NAME] [--cases N] [--repeat R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/cases/suite.h"
#include "harness/routes/all_routes.h"
#include "harness/run/runner.h"
#include "harness/vulkan/context.h"

namespace {

using namespace gcnprobe;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct Timing {
  double routeOnly = 0;  // seconds, best of repeat
  double runner = 0;
};

Timing measure(vk::Context& ctx, const judge::Case& one, std::size_t n, unsigned repeat,
               const run::RunOptions& options) {
  std::vector<judge::Case> cases(n, one);
  for (std::size_t i = 0; i < n; ++i)
    cases[i].name += "#" + std::to_string(i);
  auto routes = routes::makeAllRoutes(ctx);
  const routes::RouteChoice choice = routes::chooseRoute(routes, one.device);
  if (choice.route == nullptr) throw std::runtime_error("no route: " + choice.reason);
  if (const std::string why = choice.route->unsupportedReason(one.device); !why.empty())
    throw std::runtime_error(one.name + " is unsupported on this device: " + why);
  std::vector<const routes::DeviceCase*> inputs;
  for (const judge::Case& c : cases)
    inputs.push_back(&c.device);
  Timing best{1e30, 1e30};
  for (unsigned r = 0; r <= repeat; ++r) {  // the first round warms up
    auto t = Clock::now();
    const std::vector<routes::DeviceResult> results = choice.route->run(inputs);
    const double routeOnly = since(t);
    if (results.size() != n) throw std::runtime_error("route returned a wrong number of results");
    std::size_t passed = 0;
    t = Clock::now();
    const results::Summary s = run::runCases(
        cases, routes, options,
        [&](const results::CaseResult& res) { passed += res.verdict == results::Verdict::Pass; });
    const double runner = since(t);
    if (passed != n)
      throw std::runtime_error(one.name + ": " + std::to_string(n - passed) + " of " +
                               std::to_string(n) + " copies did not pass (" + s.line() + ")");
    if (r > 0) {
      best.routeOnly = std::min(best.routeOnly, routeOnly);
      best.runner = std::min(best.runner, runner);
    }
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::string device, name = "texel.uniform.r8g8b8a8_unorm.load_format_xyzw";
  std::size_t n = 500;
  unsigned repeat = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 < argc && a == "--device") {
      device = argv[++i];
    } else if (i + 1 < argc && a == "--case") {
      name = argv[++i];
    } else if (i + 1 < argc && a == "--cases") {
      n = std::stoull(argv[++i]);
    } else if (i + 1 < argc && a == "--repeat") {
      repeat = static_cast<unsigned>(std::stoul(argv[++i]));
    } else {
      std::fprintf(stderr,
                   "usage: gcnprobe_case_cost [--device SEL] [--case NAME] [--cases N] "
                   "[--repeat R]\n(unknown or incomplete argument '%s')\n",
                   a.c_str());
      return 2;
    }
  }
  if (n == 0 || repeat == 0) {
    std::fprintf(stderr, "gcnprobe_case_cost: --cases and --repeat must be at least 1\n");
    return 2;
  }
  try {
    auto ctx = vk::Context::open(device);
    run::RunOptions options;
    options.profile = judge::resolveProfile("portable", std::nullopt);
    options.rules.robustBufferAccess2 = ctx->features().robustBufferAccess2;
    const std::vector<judge::Case> found =
        cases::buildCases("", name, gcn::representativeChip(judge::kPortableGen));
    if (found.size() != 1) {
      std::fprintf(stderr, "gcnprobe_case_cost: '%s' names %zu cases, not one\n", name.c_str(),
                   found.size());
      return 2;
    }
    std::printf("device: %s\ncase: %s (copies in one batch)\n", ctx->info().name.c_str(),
                name.c_str());
    const Timing a = measure(*ctx, found[0], n, repeat, options);
    const Timing b = measure(*ctx, found[0], 2 * n, repeat, options);
    const auto row = [&](const char* what, double tn, double t2n) {
      std::printf("%-12s %zu cases %8.2f ms   %zu cases %8.2f ms   marginal %.4f ms/case\n", what,
                  n, tn * 1e3, 2 * n, t2n * 1e3, (t2n - tn) * 1e3 / static_cast<double>(n));
    };
    row("route only", a.routeOnly, b.routeOnly);
    row("runner", a.runner, b.runner);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gcnprobe_case_cost: %s\n", e.what());
    return 1;
  }
  return 0;
}
