// execute() throughput for a full wave: a format load (8_8_8_8 UNORM through convert.h and
// DST_SEL) and an atomic wave where every lane hits its own dword; and the same format load
// through the batch API (reference/load_batch.h), 1024 waves per call, every lane in range.
#include <benchmark/benchmark.h>

#include "reference/executor.h"
#include "reference/load_batch.h"
#include "reference/resource.h"

namespace {

struct Wave {
  const gcn::Chip* chip;
  gcn::Instruction inst;
  gcn::WaveState st;
  gcn::MemoryImage mem;
  std::vector<uint8_t> lds;
  gcn::Policies pol;
};

Wave makeWave(const char* mnemonic, gcn::Dfmt d, gcn::Nfmt n) {
  Wave w{&gcn::representativeChip(gcn::Gen::Gfx8), {}, {}, {}, {},
         gcn::Policies::defaults(gcn::Gen::Gfx8)};
  w.inst.op = gcn::findOpcode(mnemonic);
  w.inst.srsrc = 4;
  w.inst.vdata = 10;
  w.inst.vaddr = 2;
  w.inst.idxen = true;
  w.inst.glc = true;
  gcn::VSharp v;
  v.base = 0x1000;
  v.stride = 4;
  v.numRecords = 64;
  v.dataFormat = d;
  v.numFormat = n;
  const auto words = gcn::encodeVSharp(w.chip->gen, v);
  gcn::setVsharpWords(w.st, 4, words);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    w.st.vgprMut(2)[l] = l;
    w.st.vgprMut(10)[l] = l * 3;
  }
  w.mem.base = 0x1000;
  w.mem.bytes.resize(256);
  for (size_t i = 0; i < w.mem.bytes.size(); ++i)
    w.mem.bytes[i] = static_cast<uint8_t>(i * 13);
  return w;
}

void BM_FormatLoadWave(benchmark::State& state) {
  Wave w = makeWave("buffer_load_format_xyzw", gcn::Dfmt::F8_8_8_8, gcn::Nfmt::Unorm);
  for (auto _ : state) {
    gcn::ExecResult r = gcn::execute(*w.chip, w.inst, w.st, w.mem, w.lds, w.pol);
    benchmark::DoNotOptimize(r.lanes[63].vdata[3]);
  }
  state.SetItemsProcessed(state.iterations() * gcn::kWaveSize);
}
BENCHMARK(BM_FormatLoadWave);

void BM_AtomicAddWave(benchmark::State& state) {
  Wave w = makeWave("buffer_atomic_add", gcn::Dfmt::F32, gcn::Nfmt::Uint);
  for (auto _ : state) {
    gcn::ExecResult r = gcn::execute(*w.chip, w.inst, w.st, w.mem, w.lds, w.pol);
    benchmark::DoNotOptimize(r.memory().bytes.data());
  }
  state.SetItemsProcessed(state.iterations() * gcn::kWaveSize);
}
BENCHMARK(BM_AtomicAddWave);

// Lanes per second; lane-components per second is 4x (four registers per lane).
void BM_FormatLoadBatch(benchmark::State& state) {
  Wave w = makeWave("buffer_load_format_xyzw", gcn::Dfmt::F8_8_8_8, gcn::Nfmt::Unorm);
  constexpr uint32_t kLanes = 1024 * gcn::kWaveSize;
  gcn::VSharp v = gcn::decodeVSharp(w.chip->gen, gcn::vsharpWords(w.st, w.inst.srsrc));
  v.numRecords = kLanes;
  gcn::setVsharpWords(w.st, w.inst.srsrc, gcn::encodeVSharp(w.chip->gen, v));
  w.mem.bytes.resize(std::size_t{kLanes} * 4);
  for (std::size_t i = 0; i < w.mem.bytes.size(); ++i)
    w.mem.bytes[i] = static_cast<uint8_t>(i * 13 + (i >> 8));
  const gcn::FormatLoadBatch batch(*w.chip, w.inst, w.st, w.pol);
  std::vector<uint32_t> index(kLanes);
  for (uint32_t i = 0; i < kLanes; ++i)
    index[i] = i;
  std::vector<gcn::BatchLane> out(kLanes);
  for (auto _ : state) {
    batch.run(w.mem, index, {}, out);
    benchmark::DoNotOptimize(out.back().reg[3]);
  }
  state.SetItemsProcessed(state.iterations() * kLanes);
}
BENCHMARK(BM_FormatLoadBatch);

}  // namespace

BENCHMARK_MAIN();
