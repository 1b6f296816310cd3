// The ISA check on a saved listing (`gcnprobe isa --prove`): parsing the file, tracing the
// descriptors, the data-path proof with its lane terms and EXEC flow, on the unedited RADV
// listings of tests/harness/isa/listings (tonga's texel load, navi31's storage load). What one
// case of `gcnprobe isa` spends in the proof, apart from the driver's compile.
#include <benchmark/benchmark.h>

#include <fstream>
#include <iterator>
#include <string>

#include "harness/isa/saved_listing.h"

namespace {

std::string readListing(const char* name) {
  std::ifstream in(std::string(GCNPROBE_SOURCE_DIR) + "/tests/harness/isa/listings/" + name);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void proveListing(benchmark::State& state, const char* name) {
  const std::string text = readListing(name);
  for (auto _ : state) {
    const auto proof =
        gcnprobe::isa::proveSavedListing(gcnprobe::isa::parseSavedListing(text, name));
    benchmark::DoNotOptimize(proof);
    if (!proof.proven) state.SkipWithError("the listing is not proven");
  }
}

}  // namespace

BENCHMARK_CAPTURE(proveListing, tonga_texel_load, "base-tonga-texel-load.lst");
BENCHMARK_CAPTURE(proveListing, navi31_storage_load, "base-navi31-storage-load.lst");
