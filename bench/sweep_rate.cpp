// The sweep's end-to-end rate against the device's raw dispatch rate, in one process and one
// run: the limit is texelFetch of one texel format into an SSBO (shaders/sweep_texel.comp, the
// sweep's own shader) with the pipeline built and the data in place, nothing else timed; the
// end-to-end rate is `gcnprobe sweep` of the same format and element count (element
// generation, dispatches, reference predictions and classification, pipeline creation
// included, best of repeat / 2 sweeps). Prints both and their ratio.
//
//   gcnprobe_sweep_rate [--device SEL] [--format NAME] [--elements N] [--chunk C] [--repeat R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>

#include "harness/explore/sweep.h"
#include "harness/formats.h"
#include "harness/vulkan/context.h"

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Best of `repeat` single dispatches of `count` texels (count <= 65535 * 64), through the
// sweep's own dispatch object: the same buffers, view, pipeline and descriptor set.
double rawRate(gcnprobe::vk::Context& ctx, const gcnprobe::vk::BufferFormat& f, uint32_t count,
               unsigned repeat) {
  gcnprobe::explore::SweepDispatch dispatch(ctx, f, count);
  uint8_t* data = dispatch.input();
  const std::size_t bytes = static_cast<std::size_t>(count) * gcn::dfmtInfo(f.dfmt).bytes;
  uint64_t x = 0x5eed;
  for (std::size_t i = 0; i < bytes; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    data[i] = static_cast<uint8_t>(x >> 56);
  }
  double best = 1e30;
  for (unsigned r = 0; r <= repeat; ++r) {  // the first one warms up
    const auto t = Clock::now();
    dispatch.run(count, /*markUnwritten=*/false);
    if (r > 0) best = std::min(best, since(t));
  }
  return count / best;
}

}  // namespace

int main(int argc, char** argv) {
  std::string device, format = "VK_FORMAT_R8G8B8A8_UNORM";
  uint64_t elements = 16u << 20;
  unsigned repeat = 5;
  std::size_t chunk = gcnprobe::explore::SweepOptions{}.chunk;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 < argc && a == "--device") {
      device = argv[++i];
    } else if (i + 1 < argc && a == "--format") {
      format = argv[++i];
    } else if (i + 1 < argc && a == "--elements") {
      elements = std::stoull(argv[++i]);
    } else if (i + 1 < argc && a == "--chunk") {
      chunk = std::stoull(argv[++i]);
    } else if (i + 1 < argc && a == "--repeat") {
      repeat = static_cast<unsigned>(std::stoul(argv[++i]));
    } else {
      std::fprintf(stderr,
                   "usage: gcnprobe_sweep_rate [--device SEL] [--format NAME] [--elements N] "
                   "[--chunk C] [--repeat R]\n(unknown or incomplete argument '%s')\n",
                   a.c_str());
      return 2;
    }
  }
  try {
    auto ctx = gcnprobe::vk::Context::open(device);
    const gcnprobe::vk::BufferFormat& f = gcnprobe::vk::parseBufferFormat(format);
    const uint32_t rawCount = static_cast<uint32_t>(std::min<uint64_t>(elements, 65535u * 64));
    const double raw = rawRate(*ctx, f, rawCount, repeat);

    gcnprobe::explore::SweepOptions o;
    o.formats = {format};
    o.elements = elements;
    o.chunk = chunk;
    // Best of `repeat` sweeps, as the raw rate is the best of `repeat` dispatches: this
    // machine's timings vary from run to run.
    double seconds = 1e30;
    gcnprobe::explore::SweepFormat r;
    for (unsigned k = 0; k < std::max(repeat / 2, 1u); ++k) {
      const auto t = Clock::now();
      auto rows = gcnprobe::explore::sweepTexelFormats(*ctx, o, nullptr);
      const double s = since(t);
      if (s < seconds) {
        seconds = s;
        r = std::move(rows.at(0));
      }
    }
    if (!r.skipped.empty()) {
      std::fprintf(stderr, "gcnprobe_sweep_rate: %s not swept: %s\n", format.c_str(),
                   r.skipped.c_str());
      return 1;
    }
    const double e2e = static_cast<double>(r.elements) / seconds;
    std::printf("device        %s (%s %s)\n", ctx->info().name.c_str(),
                ctx->info().driverName.c_str(), ctx->info().driverInfo.c_str());
    std::printf("format        %s\n", format.c_str());
    std::printf("raw dispatch  %8.1f M texels/s   (best of %u dispatches of %u texels)\n",
                raw / 1e6, repeat, rawCount);
    std::printf(
        "sweep         %8.1f M elements/s (best of %u sweeps of %llu elements: %.3f s, "
        "device %.3f s, reference %.3f s)\n",
        e2e / 1e6, std::max(repeat / 2, 1u), static_cast<unsigned long long>(r.elements), seconds,
        r.deviceSeconds, r.referenceSeconds);
    std::printf("ratio         %8.1f %% of the raw dispatch rate\n", 100.0 * e2e / raw);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gcnprobe_sweep_rate: %s\n", e.what());
    return 1;
  }
}
