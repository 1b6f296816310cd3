// `gcnprobe sweep`: every code of every channel of each texel-buffer format through the
// device, compared with the reference at table speed, summarised per (format, channel,
// classification) (harness/explore/sweep.h, docs/sweep.md).
#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/commands.h"
#include "harness/explore/sweep.h"
#include "harness/vulkan/context.h"

namespace gcnprobe::app {
namespace {

struct SweepCliOptions {
  std::string device;
  std::vector<std::string> formats;
  unsigned examples = 3;
  uint64_t elements = 0;
  std::size_t chunk = explore::SweepOptions{}.chunk;
  std::string indices;
  uint32_t viewElements = explore::SweepOptions{}.viewElements;
  bool json = false;
};

int runSweep(const SweepCliOptions& o) {
  explore::SweepOptions so;
  // Input is checked before the device is opened.
  if (!o.indices.empty()) so.indices = explore::parseSweepIndices(o.indices, "--indices");
  auto ctx = vk::Context::open(o.device);
  const vk::DeviceInfo& info = ctx->info();
  so.formats = o.formats;
  so.viewElements = o.viewElements;
  so.examples = o.examples;
  so.elements = o.elements;
  so.chunk = o.chunk;
  uint64_t elements = 0, mismatched = 0;
  unsigned swept = 0, skipped = 0;
  double deviceSeconds = 0;
  nlohmann::json rows = nlohmann::json::array();
  const auto t0 = std::chrono::steady_clock::now();
  if (!o.json)
    std::printf("sweep on %s (%s %s)%s\n", info.name.c_str(), info.driverName.c_str(),
                info.driverInfo.c_str(),
                info.chip ? "" : ": NOT an AMD GCN device, a match says what this driver does");
  explore::sweepTexelFormats(*ctx, so, [&](const explore::SweepFormat& f) {
    nlohmann::json groups = nlohmann::json::array();
    if (!f.skipped.empty()) {
      ++skipped;
      if (!o.json) std::printf("%-40s skipped: %s\n", f.format.c_str(), f.skipped.c_str());
    } else {
      ++swept;
      elements += f.elements;
      deviceSeconds += f.deviceSeconds;
      for (const explore::SweepGroup& g : f.groups) {
        if (g.classification == "mismatch") mismatched += g.elements;
        groups.push_back({{"channel", g.channel},
                          {"classification", g.classification},
                          {"elements", g.elements},
                          {"examples", g.examples}});
        if (o.json) continue;
        // Index sweeps group by range verdict ("out-of-range"), code sweeps by channel ("R").
        std::printf("%-40s %-*s  %-22s %8llu\n", f.format.c_str(), so.indices ? 12 : 1,
                    g.channel.c_str(), g.classification.c_str(),
                    static_cast<unsigned long long>(g.elements));
        for (const std::string& ex : g.examples)
          std::printf("    %s\n", ex.c_str());
      }
    }
    rows.push_back({{"format", f.format},
                    {"skipped", f.skipped},
                    {"elements", f.elements},
                    {"device_seconds", f.deviceSeconds},
                    {"reference_seconds", f.referenceSeconds},
                    {"groups", groups}});
    std::fflush(stdout);
  });
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (o.json) {
    std::printf("%s\n", nlohmann::json{{"device", info.name},
                                       {"driver", info.driverName + " " + info.driverInfo},
                                       {"gcn", info.chip.has_value()},
                                       {"formats", rows},
                                       {"elements", elements},
                                       {"mismatched", mismatched},
                                       {"seconds", total},
                                       {"device_seconds", deviceSeconds}}
                            .dump(2)
                            .c_str());
  } else {
    std::printf(
        "%u formats swept, %u skipped: %llu elements, %llu mismatched; %.2f s (device %.2f s: "
        "%.1f M elements/s end to end)\n",
        swept, skipped, static_cast<unsigned long long>(elements),
        static_cast<unsigned long long>(mismatched), total, deviceSeconds,
        total > 0 ? static_cast<double>(elements) / total / 1e6 : 0.0);
  }
  return mismatched == 0 ? 0 : 1;
}

}  // namespace

void addSweepCommand(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<SweepCliOptions>();
  auto* c = app.add_subcommand("sweep",
                               "Every code of every channel of texel-buffer formats through the "
                               "device, summarised per format, channel and classification");
  c->add_option("--device", opts->device, "device selector (as for 'gcnprobe devices')");
  c->add_option("--format", opts->formats, "a table format (repeatable; default: all texel rows)");
  c->add_option("--examples", opts->examples, "mismatching elements shown per group (default 3)");
  c->add_option("--elements", opts->elements,
                "elements per format, at least (the codes repeat with other random fields; "
                "default: every code once)");
  c->add_option("--chunk", opts->chunk,
                "elements per dispatch (memory holds one chunk; default " +
                    std::to_string(opts->chunk) + ")")
      ->check(CLI::Range(std::size_t{64}, std::size_t{65535} * 64));
  c->add_option("--indices", opts->indices,
                "FIRST:COUNT: sweep texel indices [FIRST, FIRST + COUNT) instead of codes, on a "
                "view of --view-elements elements (indices up to 2^32 - 1; groups per format, "
                "in-range | out-of-range, classification)")
      ->type_name("FIRST:COUNT");
  c->add_option("--view-elements", opts->viewElements,
                "elements of the view an index sweep reads (default " +
                    std::to_string(opts->viewElements) + ")")
      ->check(CLI::Range(1u, 0xffffffffu));
  c->add_flag("--json", opts->json, "machine-readable output");
  c->callback([opts, &ctx] { ctx.exitCode = runSweep(*opts); });
}

}  // namespace gcnprobe::app
