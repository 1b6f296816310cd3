// FormatLoadTable (reference/convert_table.h) throughput per conversion class, in
// lane-components per second (items/s): 64 Ki elements per iteration, converted in one call,
// against the single-element path (loadElement per element) for the same format.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "reference/convert.h"
#include "reference/convert_table.h"

namespace {

constexpr std::size_t kElements = 64 * 1024;

struct Input {
  gcn::Dfmt d;
  gcn::Nfmt n;
  std::vector<uint8_t> bytes;
  unsigned components;
  unsigned size;
};

Input input(gcn::Dfmt d, gcn::Nfmt n) {
  const gcn::DfmtInfo& info = gcn::dfmtInfo(d);
  Input in{d, n, std::vector<uint8_t>(kElements * info.bytes), info.components, info.bytes};
  std::mt19937 rng(1);
  for (uint8_t& b : in.bytes)
    b = static_cast<uint8_t>(rng());
  if (n == gcn::Nfmt::Float && info.bits[0] == 32)  // finite floats, no NaN payloads
    for (std::size_t i = 0; i + 3 < in.bytes.size(); i += 4)
      in.bytes[i + 3] &= 0x3f;
  return in;
}

void BM_Table(benchmark::State& state, gcn::Dfmt d, gcn::Nfmt n) {
  const Input in = input(d, n);
  const gcn::FormatLoadTable table(gcn::Gen::Gfx8, d, n, gcn::Policies::defaults(gcn::Gen::Gfx8));
  std::vector<uint32_t> out(kElements * 4);
  for (auto _ : state) {
    table.convert(in.bytes, in.size, kElements, out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(kElements * in.components));
}

void BM_SingleElement(benchmark::State& state, gcn::Dfmt d, gcn::Nfmt n) {
  const Input in = input(d, n);
  const gcn::Policies pol = gcn::Policies::defaults(gcn::Gen::Gfx8);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kElements; ++i) {
      const gcn::LoadedElement e =
          gcn::loadElement(gcn::Gen::Gfx8, d, n,
                           std::span<const uint8_t>(in.bytes.data() + i * in.size, in.size), pol);
      benchmark::DoNotOptimize(e.reg[0]);
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(kElements * in.components));
}

using gcn::Dfmt;
using gcn::Nfmt;
BENCHMARK_CAPTURE(BM_Table, unorm8x4, Dfmt::F8_8_8_8, Nfmt::Unorm);
BENCHMARK_CAPTURE(BM_SingleElement, unorm8x4, Dfmt::F8_8_8_8, Nfmt::Unorm);
BENCHMARK_CAPTURE(BM_Table, snorm16x2, Dfmt::F16_16, Nfmt::Snorm);
BENCHMARK_CAPTURE(BM_Table, float16x4, Dfmt::F16_16_16_16, Nfmt::Float);
BENCHMARK_CAPTURE(BM_SingleElement, float16x4, Dfmt::F16_16_16_16, Nfmt::Float);
BENCHMARK_CAPTURE(BM_Table, float_10_11_11, Dfmt::F10_11_11, Nfmt::Float);
BENCHMARK_CAPTURE(BM_Table, unorm_2_10_10_10, Dfmt::F2_10_10_10, Nfmt::Unorm);
BENCHMARK_CAPTURE(BM_Table, uint8x4, Dfmt::F8_8_8_8, Nfmt::Uint);
BENCHMARK_CAPTURE(BM_Table, float32x4, Dfmt::F32_32_32_32, Nfmt::Float);
BENCHMARK_CAPTURE(BM_Table, uint32x4, Dfmt::F32_32_32_32, Nfmt::Uint);

}  // namespace
