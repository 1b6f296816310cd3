// The disputed suite and the device side of probes: which probe (probes/*.probe, an
// instruction, a V#, lane inputs, memory) a route can make a Vulkan driver execute exactly,
// and how the device's result compares with each reference prediction.
//
// A probe is realisable only when its instruction and V# are what RADV/ACO build for a
// Vulkan construct a route has (docs/routes.md): a texel-buffer view (texelFetch /
// imageStore / imageAtomic*: BUFFER_*_FORMAT or BUFFER_ATOMIC_* IDXEN, OFFSET 0, V# from
// radv_make_texel_buffer_descriptor, harness/formats.h) or a storage buffer (SSBO
// loads/stores/atomics: BUFFER_<type> / BUFFER_ATOMIC_* OFFEN, RADV's SSBO V#,
// harness/routes/storage.h). Anything else (swizzle, ADD_TID, SOFFSET, LDS, TFE, ...)
// needs raw descriptors or instructions no shader gets, and the reason says which.
#include <algorithm>
#include <filesystem>

#include "harness/formats.h"
#include "harness/routes/atomic.h"
#include "harness/routes/storage.h"
#include "harness/run/suite.h"
#include "probe/probe_eval.h"
#include "probe/probe_file.h"
#include "reference/error.h"
#include "reference/resource.h"

namespace gcnprobe::run {
namespace {

Realisation no(std::string reason) {
  return {std::nullopt, std::move(reason)};
}

// IDXEN accesses through a texel-buffer view: the V# must be the one RADV writes for a
// view of some table format (radv_make_texel_buffer_descriptor via makeTexelBufferVSharp),
// `allowed` restricts the formats (atomics: R32_UINT / R32_SINT).
Realisation realiseTexel(const gcn::Chip& chip, const gcn::Instruction& inst,
                         const gcn::WaveState& state, const gcn::MemoryImage& memory,
                         const gcn::VSharp& v, const std::array<uint32_t, 4>& words,
                         routes::Binding binding, std::optional<VkFormat> allowed) {
  if (!inst.idxen || inst.offen || inst.offset != 0)
    return no(
        "a texel-buffer access (texelFetch/imageLoad/imageStore/imageAtomic) is IDXEN with "
        "OFFSET 0 and no OFFEN");
  if (v.stride == 0)
    return no("V# STRIDE 0 with IDXEN: a texel-buffer view's V# has STRIDE = the texel size");
  for (const BufferFormat& f : allBufferFormats()) {
    if (!f.texel || f.dfmt == gcn::Dfmt::Invalid || f.stride != v.stride) continue;
    if (allowed && f.vk != *allowed) continue;
    // NUM_RECORDS in the unit texelBufferNumRecords writes.
    const uint32_t elements =
        texelNumRecordsInBytes(chip.gen, f.stride) ? v.numRecords / f.stride : v.numRecords;
    if (elements == 0 || texelBufferNumRecords(chip.gen, elements, f.stride) != v.numRecords)
      continue;
    if (gcn::encodeVSharp(chip.gen, makeTexelBufferVSharp(chip, v.base, elements, f.vk)) != words)
      continue;
    const uint64_t viewBytes = uint64_t{elements} * f.stride;
    if (memory.base != v.base)
      return no("the memory image does not start at the V# base (a view's memory is its buffer)");
    if (memory.bytes.size() < viewBytes)
      return no("the memory image (" + std::to_string(memory.bytes.size()) +
                " bytes) is smaller than the " + std::string(f.name) + " view (" +
                std::to_string(viewBytes) + " bytes)");
    routes::DeviceCase d;
    d.inst = inst;
    d.state = state;
    d.memory.base = memory.base;
    // The view spans exactly its elements; every IDXEN access past them fails the range
    // check (index >= NUM_RECORDS), so no prediction reads the rest of the image.
    d.memory.bytes.assign(memory.bytes.begin(),
                          memory.bytes.begin() + static_cast<std::ptrdiff_t>(viewBytes));
    d.binding = binding;
    d.format = f.vk;
    return {std::move(d), ""};
  }
  return no("V# (" + gcn::formatVSharp(chip.gen, v) +
            ") is not the V# RADV builds for any texel-buffer view" +
            (allowed ? " of the format the atomic needs" : "") + " on " +
            std::string(gcn::genName(chip.gen)) +
            " (formats.h: STRIDE = texel size, NUM_RECORDS in " +
            (texelNumRecordsInBytes(chip.gen, v.stride) ? "bytes" : "elements") +
            ", the format's DATA_FORMAT/NUM_FORMAT/DST_SEL, nothing else)");
}

// OFFEN accesses through a storage buffer: RADV's SSBO V# (storage.h).
Realisation realiseStorage(const gcn::Chip& chip, const gcn::Instruction& inst,
                           const gcn::WaveState& state, const gcn::MemoryImage& memory,
                           const gcn::VSharp& v, const std::array<uint32_t, 4>& words) {
  if (!inst.offen || inst.idxen)
    return no("an SSBO access is OFFEN without IDXEN (the byte offset in VADDR)");
  if (v.numRecords % 4 != 0 ||
      gcn::encodeVSharp(chip.gen, routes::makeStorageBufferVSharp(v.base, v.numRecords)) != words)
    return no("V# (" + gcn::formatVSharp(chip.gen, v) +
              ") is not RADV's storage-buffer V# (STRIDE 0, NUM_RECORDS = range rounded up to "
              "4, DST_SEL xyzw, DATA_FORMAT 32, NUM_FORMAT FLOAT, nothing else; "
              "radv_descriptor_set.c write_buffer_descriptor)");
  if (memory.base != v.base)
    return no("the memory image does not start at the V# base (an SSBO's memory is its buffer)");
  routes::DeviceCase d;
  d.inst = inst;
  d.state = state;
  d.memory = memory;  // the bound buffer; the descriptor range is NUM_RECORDS
  d.binding = routes::Binding::StorageBuffer;
  d.format = VK_FORMAT_UNDEFINED;
  return {std::move(d), ""};
}

}  // namespace

Realisation realise(const gcn::Chip& chip, const gcn::Instruction& inst,
                    const gcn::WaveState& state, const gcn::MemoryImage& memory) {
  if (inst.op == nullptr) return no("no instruction");
  const gcn::OpcodeInfo& op = *inst.op;
  const std::array<uint32_t, 4> words = gcn::vsharpWords(state, inst.srsrc);
  const gcn::VSharp v = gcn::decodeVSharp(chip.gen, words);
  // Order: V# properties first (they need raw descriptors whatever the instruction), then
  // instruction modifiers, then the shape of each route.
  if (v.swizzleEnable)
    return no(
        "V# has SWIZZLE_ENABLE: plain Vulkan never builds it, and this build has no "
        "route that writes raw descriptors");
  if (v.addTidEnable)
    return no(
        "V# has ADD_TID_ENABLE: plain Vulkan never builds it, and this build has no "
        "route that writes raw descriptors");
  if (op.encoding == gcn::Encoding::Mtbuf)
    return no(
        "TBUFFER_* comes only from vertex fetch, whose V# (per attribute) and lane inputs "
        "(vertex index) the vertex route builds itself: no probe maps onto it yet");
  if (inst.addr64) return no("ADDR64 (GFX6/7): RADV/ACO never address a buffer with ADDR64");
  if (inst.lds || op.ldsData)
    return no("LDS forms: no Vulkan construct loads buffer data into LDS (ACO never emits them)");
  if (inst.tfe)
    return no(
        "TFE: no route's shader asks for residency (ACO sets TFE only for sparse image "
        "reads)");
  if (op.d16) return no("D16 forms: the routes' shaders use 32-bit components");
  if (inst.soffset != 128)
    return no(
        "SOFFSET is not the inline constant 0: the routes' buffer accesses have SOFFSET 0 "
        "(an SGPR offset needs a raw-descriptor route, which this build does not have)");
  const bool atomic = op.kind == gcn::OpKind::Atomic;
  if (atomic && !inst.glc)
    return no(
        "the atomic route's shaders use the returned value, so the driver sets GLC: the "
        "instruction needs glc");
  if (!atomic && (inst.glc || inst.slc))
    return no("GLC/SLC on a load or store: the routes' shaders have no coherent/volatile access");
  switch (op.kind) {
    case gcn::OpKind::LoadFormat:
    case gcn::OpKind::StoreFormat:
      if (op.kind == gcn::OpKind::StoreFormat && op.components != 4)
        return no("imageStore writes four components: only buffer_store_format_xyzw is reached");
      return realiseTexel(chip, inst, state, memory, v, words,
                          op.kind == gcn::OpKind::LoadFormat ? routes::Binding::UniformTexel
                                                             : routes::Binding::StorageTexel,
                          std::nullopt);
    case gcn::OpKind::Load:
    case gcn::OpKind::Store:
      return realiseStorage(chip, inst, state, memory, v, words);
    case gcn::OpKind::Atomic:
      if (inst.idxen)
        return realiseTexel(chip, inst, state, memory, v, words, routes::Binding::StorageTexel,
                            routes::atomicTexelFormat(op.atomic));
      return realiseStorage(chip, inst, state, memory, v, words);
    case gcn::OpKind::Cache:
      break;
  }
  return no(std::string(op.mnemonic) + " has no data access a route can realise");
}

DeviceMatch matchDevice(const routes::DeviceCase& c, const routes::DeviceResult& r,
                        std::span<const gcn::ExecResult* const> predictions) {
  DeviceMatch m;
  const std::size_t n = predictions.size();
  m.memory.assign(n, false);
  m.all.assign(n, true);
  for (auto& lane : m.lanes)
    lane.assign(n, true);
  for (std::size_t p = 0; p < n; ++p) {
    const gcn::ExecResult& pred = *predictions[p];
    for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
      const gcn::LaneResult& pl = pred.lanes[l];
      if (((c.state.exec >> l) & 1u) == 0 || !pl.active) continue;
      bool same = true;
      for (unsigned k = 0; k < pl.vdataCount && k < 5; ++k) {
        if (!pl.vdata[k]) continue;  // the reference claims no value
        if (k >= r.vdataCount || k >= r.vdata[l].size() || r.vdata[l][k] != *pl.vdata[k])
          same = false;
      }
      m.lanes[l][p] = same;
      if (!same) m.all[p] = false;
    }
    // The predicted image starts at the route's buffer base (realise keeps the base) and may
    // be longer (a texel view is cut to its elements).
    bool mem = r.changedGuardBytes.empty() && pred.memory().base == c.memory.base &&
               pred.memory().bytes.size() >= r.memory.size();
    if (mem) mem = std::equal(r.memory.begin(), r.memory.end(), pred.memory().bytes.begin());
    m.memory[p] = mem;
    if (!mem) m.all[p] = false;
  }
  return m;
}

// Expected values: buildExpected (expect.cpp) with the profile's default policies; under
// portable it widens norm / int-store / oob-one and applies the Vulkan out-of-bounds rules.
// Not yet the union of every policy variant of the probe's mattering points: that needs a
// per-case list of extra policies in Case (case.h) that buildExpected (expect.cpp) adds as
// alternatives.
std::vector<Case> disputedSuite(const gcn::Chip& chip) {
  std::vector<Case> cases;
  for (const std::string& file : gcn::probe::shippedProbeFiles()) {
    const std::string name = "disputed." + std::filesystem::path(file).stem().string();
    std::optional<gcn::probe::Probe> loaded;
    try {
      loaded = gcn::probe::loadProbe(file);
      // Malformed probes fail here, with their own generation; a probe that is only invalid
      // on `chip` (an instruction missing there) is not realisable on it.
      (void)gcn::probe::prepare(*loaded, {});
    } catch (const gcn::Error& e) {
      // One bad file is one error record, not the end of the suite.
      Case c;
      c.name = name;
      c.suite = kDisputedSuite;
      c.broken = e.what();
      cases.push_back(std::move(c));
      continue;
    }
    const gcn::probe::Probe& probe = *loaded;
    gcn::probe::EvalOptions eo;
    eo.gen = std::string(chip.name);
    std::optional<gcn::probe::ProbeSetup> setup;
    try {
      setup = gcn::probe::prepare(probe, eo);
    } catch (const gcn::Error&) {
      continue;
    }
    Realisation rz = realise(*setup->chip, setup->inst, setup->state, setup->memory);
    if (!rz.device) continue;
    Case c;
    c.name = name;
    c.suite = kDisputedSuite;
    c.tolerance = ToleranceId::Exact;  // the probe asks which rule holds: bits, not tolerances
    c.device = std::move(*rz.device);
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace gcnprobe::run
