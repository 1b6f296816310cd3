// The disputed suite and the device side of probes: which probe (probes/*.probe, an
// instruction, a V#, lane inputs, memory) a route can make a Vulkan driver execute exactly,
// as a Case (`run --suite disputed` and `gcnprobe probe` both take it from probeCase), and
// how the device's result compares with each reference prediction (through the differ).
//
// A probe is realisable when its instruction is what RADV/ACO emit for a Vulkan construct a
// route has (docs/routes.md): a texel-buffer view (texelFetch / imageStore / imageAtomic*:
// BUFFER_*_FORMAT or BUFFER_ATOMIC_* IDXEN, OFFSET 0) or a storage buffer (SSBO
// loads/stores/atomics: BUFFER_<type> / BUFFER_ATOMIC_* OFFEN). Its V# goes through the
// driver's own descriptor when it is the one RADV builds for the construct
// (radv_make_texel_buffer_descriptor, harness/formats.h; RADV's SSBO V#,
// harness/routes/storage.h), else through the raw V# route (harness/routes/raw.h), which
// only a GCN device with VK_EXT_descriptor_buffer runs. Instruction forms no shader gets
// (SOFFSET, LDS, TFE, D16, ADDR64, TBUFFER) are refused, and the reason says which.
#include <algorithm>
#include <filesystem>

#include "harness/cases/suite.h"
#include "harness/control/control_route.h"
#include "harness/formats.h"
#include "harness/isa/binary_route.h"
#include "harness/judge/diff.h"
#include "harness/judge/expect.h"
#include "harness/routes/atomic.h"
#include "harness/routes/raw.h"
#include "harness/routes/storage.h"
#include "probe/probe_eval.h"
#include "probe/probe_file.h"
#include "reference/error.h"
#include "reference/resource.h"
#include "reference/text.h"

namespace gcnprobe::cases {
namespace {

// Whether a route's Vulkan construct runs exactly this instruction and V# (probeCase).
struct Realisation {
  std::optional<routes::DeviceCase> device;
  std::string reason;
};

Realisation no(std::string reason) {
  return {std::nullopt, std::move(reason)};
}

// IDXEN accesses through a texel-buffer view: the V# must be the one RADV writes for a
// view of some table format (radv_make_texel_buffer_descriptor via makeTexelBufferVSharp),
// `allowed` restricts the formats (atomics: R32_UINT / R32_SINT; a probe's `format`), and
// `allowedWhy` says why.
Realisation realiseTexel(const gcn::Chip& chip, const gcn::Instruction& inst,
                         const gcn::WaveState& state, const gcn::MemoryImage& memory,
                         const gcn::VSharp& v, const std::array<uint32_t, 4>& words,
                         routes::Binding binding, std::optional<VkFormat> allowed,
                         std::string_view allowedWhy) {
  if (!inst.idxen || inst.offen || inst.offset != 0)
    return no(
        "a texel-buffer access (texelFetch/imageLoad/imageStore/imageAtomic) is IDXEN with "
        "OFFSET 0 and no OFFEN");
  if (v.stride == 0)
    return no("V# STRIDE 0 with IDXEN: a texel-buffer view's V# has STRIDE = the texel size");
  for (const vk::BufferFormat& f : vk::allBufferFormats()) {
    if (!f.texel || f.dfmt == gcn::Dfmt::Invalid || f.stride != v.stride) continue;
    if (allowed && f.vk != *allowed) continue;
    // NUM_RECORDS in the unit texelBufferNumRecords writes.
    const uint32_t elements =
        vk::texelNumRecordsInBytes(chip.gen, f.stride) ? v.numRecords / f.stride : v.numRecords;
    if (elements == 0 || vk::texelBufferNumRecords(chip.gen, elements, f.stride) != v.numRecords)
      continue;
    std::array<uint32_t, 4> radvWords{};
    try {
      radvWords =
          gcn::encodeVSharp(chip.gen, vk::makeTexelBufferVSharp(chip, v.base, elements, f.vk));
    } catch (const gcn::Error&) {
      continue;  // no buffer format for the pair on this generation (RDNA's unified table)
    }
    if (radvWords != words) continue;
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
            (allowed ? " of " + std::string(vk::findBufferFormat(*allowed)->name) + " (" +
                           std::string(allowedWhy) + ")"
                     : std::string()) +
            " on " + std::string(gcn::genName(chip.gen)) +
            " (formats.h: STRIDE = texel size, NUM_RECORDS in " +
            (vk::texelNumRecordsInBytes(chip.gen, v.stride) ? "bytes" : "elements") +
            ", the format's DATA_FORMAT/NUM_FORMAT/DST_SEL, nothing else)");
}

// OFFEN accesses through a storage buffer: RADV's SSBO V# (storage.h).
Realisation realiseStorage(const gcn::Chip& chip, const gcn::Instruction& inst,
                           const gcn::WaveState& state, const gcn::MemoryImage& memory,
                           const gcn::VSharp& v, const std::array<uint32_t, 4>& words) {
  if (!inst.offen || inst.idxen)
    return no("an SSBO access is OFFEN without IDXEN (the byte offset in VADDR)");
  if (v.numRecords % 4 != 0 ||
      gcn::encodeVSharp(chip.gen,
                        routes::makeStorageBufferVSharp(chip.gen, v.base, v.numRecords)) != words)
    return no("V# (" + gcn::formatVSharp(chip.gen, v) +
              ") is not RADV's storage-buffer V# (STRIDE 0, NUM_RECORDS = range rounded up to "
              "4, DST_SEL xyzw, " +
              (gcn::isRdna(chip.gen)
                   ? "FORMAT 32_FLOAT, OOB_SELECT 3 (raw)" +
                         std::string(chip.gen != gcn::Gen::Gfx11 ? ", RESOURCE_LEVEL 1" : "")
                   : std::string("DATA_FORMAT 32, NUM_FORMAT FLOAT")) +
              ", nothing else; radv_descriptor_set.c write_buffer_descriptor)");
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

// The raw V# route (harness/routes/raw.h): the instruction form of a lane shader with any V#,
// the V# going to the device word for word.
Realisation realiseRaw(const gcn::Chip& chip, const gcn::Instruction& inst,
                       const gcn::WaveState& state, const gcn::MemoryImage& memory,
                       const gcn::VSharp& v) {
  const gcn::OpcodeInfo& op = *inst.op;
  routes::DeviceCase d;
  d.inst = inst;
  d.state = state;
  d.memory = memory;
  d.rawVsharp = true;
  const auto floatFormat = [&] {
    // The lane shader's result type: integer for UINT/SINT data, else float (no conversion
    // happens in the shader either way; the register bits are what is compared).
    if (v.numFormat == gcn::Nfmt::Uint) return VK_FORMAT_R32G32B32A32_UINT;
    if (v.numFormat == gcn::Nfmt::Sint) return VK_FORMAT_R32G32B32A32_SINT;
    return VK_FORMAT_R32G32B32A32_SFLOAT;
  };
  // The shader construct whose instruction form the case would have; the raw route's form
  // check (routes::rawFormProblem) then says whether it has it.
  switch (op.kind) {
    case gcn::OpKind::LoadFormat:
    case gcn::OpKind::StoreFormat:
      d.binding = op.kind == gcn::OpKind::LoadFormat ? routes::Binding::UniformTexel
                                                     : routes::Binding::StorageTexel;
      d.format = floatFormat();
      break;
    case gcn::OpKind::Load:
    case gcn::OpKind::Store:
      d.binding = routes::Binding::StorageBuffer;
      break;
    case gcn::OpKind::Atomic:
      // imageAtomic* (IDXEN) or an SSBO atomic (OFFEN).
      d.binding = inst.idxen ? routes::Binding::StorageTexel : routes::Binding::StorageBuffer;
      if (inst.idxen) d.format = routes::atomicTexelFormat(op.atomic);
      break;
    case gcn::OpKind::Cache:
      break;  // realise() sends these to the binary route first; rawFormProblem refuses them
  }
  if (std::string f = routes::rawFormProblem(d); !f.empty()) return no(f);
  // Confined as the route will confine it (docs/confinement.md): a reach over the bound, or far
  // regions it cannot place, is no case.
  try {
    (void)routes::placeRawCase(chip, d, routes::kRawGuard);
  } catch (const gcn::Error& e) {
    return no(e.what());
  }
  return {std::move(d), ""};
}

// The binary route (harness/isa/binary_route.h) for an instruction no Vulkan construct makes
// ACO emit or no lane shader has: patched into a template pipeline,
// when the templates host its form (isa::binaryFormProblem: OFFEN, IDXEN or no VADDR, SOFFSET
// 0, ...), with RADV's SSBO V# or, through a descriptor buffer, any V# the raw route confines;
// only a GCN device runs it.
Realisation realiseBinary(const gcn::Chip& chip, const gcn::Instruction& inst,
                          const gcn::WaveState& state, const gcn::MemoryImage& memory,
                          const std::vector<uint8_t>& lds) {
  routes::DeviceCase d;
  d.inst = inst;
  d.state = state;
  d.memory = memory;
  d.binaryPatch = true;
  if (inst.lds || inst.op->ldsData) d.lds = lds;
  // The IDXEN templates are texel-buffer shaders whose V# comes from a descriptor buffer; the
  // OFFEN ones SSBO shaders, where any V# but RADV's goes through a descriptor buffer too.
  d.binding = isa::binaryTemplateBinding(chip, *inst.op, inst.idxen);
  d.rawVsharp = d.binding == routes::Binding::StorageTexel || !isa::isDriverSsboVsharp(chip, d);
  if (std::string why = isa::binaryFormProblem(chip, d); !why.empty()) return no(why);
  return {std::move(d), ""};
}

// gcnprobe's own program (harness/control/control_route.h) for a form no template hosts: every
// instruction of the shader gcnprobe's, with RADV's SSBO V# or, through a descriptor buffer,
// any V# the raw route confines; only a GCN device runs it.
Realisation realiseProgram(const gcn::Chip& chip, const gcn::Instruction& inst,
                           const gcn::WaveState& state, const gcn::MemoryImage& memory) {
  routes::DeviceCase d;
  d.inst = inst;
  d.state = state;
  d.memory = memory;
  d.ownProgram = true;
  d.binding = routes::Binding::StorageBuffer;
  d.rawVsharp = !isa::isDriverSsboVsharp(chip, d);
  if (std::string why = control::programFormProblem(chip, d); !why.empty()) return no(why);
  return {std::move(d), ""};
}

// The route a driver-built V# of this instruction's kind goes through.
std::string_view driverRouteName(const gcn::OpcodeInfo& op) {
  switch (op.kind) {
    case gcn::OpKind::LoadFormat:
    case gcn::OpKind::StoreFormat:
      return "texel";
    case gcn::OpKind::Atomic:
      return "atomic";
    case gcn::OpKind::Load:
    case gcn::OpKind::Store:
    case gcn::OpKind::Cache:
      break;
  }
  return "storage";
}

// What the probe asks of the device side: its `route` and a texel view's `format`.
struct Pick {
  std::optional<std::string> route;
  std::optional<VkFormat> format;
  std::string routeLine;  // "route = raw (t.probe:7)", for reasons
  bool viewOnly = false;  // a `format` line without a `route` line: the texel view's routes
};

// Each route considered for a probe, in order, and why it was not taken.
class Attempts {
 public:
  explicit Attempts(const Pick& pick) : pick_(pick) {}
  // Whether `route` may be tried: there is no pick, or it is this route (a `format` line alone
  // allows the routes of a texel view: texel, and atomic for an imageAtomic).
  bool allowed(std::string_view route) {
    if (!pick_.route || *pick_.route == route) return true;
    if (pick_.viewOnly && route == "atomic") return true;
    list_.push_back({std::string(route), false, "not the probe's " + pick_.routeLine});
    return false;
  }
  Realisation note(std::string_view route, Realisation r) {
    list_.push_back({std::string(route), r.device.has_value(), r.device ? "" : r.reason});
    return r;
  }
  std::vector<RouteAttempt> take() { return std::move(list_); }

 private:
  const Pick& pick_;
  std::vector<RouteAttempt> list_;
};

// An instruction no Vulkan construct emits (`noVulkan` says why): the binary route's templates,
// then gcnprobe's own program for a form no template hosts (an SGPR SOFFSET, a VADDR no template
// computes).
Realisation realiseWithoutVulkan(const gcn::Chip& chip, const gcn::Instruction& inst,
                                 const gcn::WaveState& state, const gcn::MemoryImage& memory,
                                 const std::vector<uint8_t>& lds, const Pick& pick, Attempts& tried,
                                 const std::string& noVulkan) {
  Realisation r = no(noVulkan + "; binary route: not the probe's " + pick.routeLine);
  if (tried.allowed("binary")) {
    r = tried.note("binary", realiseBinary(chip, inst, state, memory, lds));
    if (r.device) return r;
    r.reason = noVulkan + "; binary route: " + r.reason;
  }
  if (!tried.allowed("program"))
    return no(r.reason + "; own program: not the probe's " + pick.routeLine);
  Realisation p = tried.note("program", realiseProgram(chip, inst, state, memory));
  if (!p.device) p.reason = r.reason + "; own program: " + p.reason;
  return p;
}

// Why no Vulkan construct emits this instruction's modifiers or form; empty when one may.
std::string noVulkanForm(const gcn::Instruction& inst) {
  const gcn::OpcodeInfo& op = *inst.op;
  if (op.encoding == gcn::Encoding::Mtbuf)
    return "TBUFFER_* comes only from vertex fetch, whose V# (per attribute) and lane inputs "
           "(vertex index) the vertex route builds itself: no Vulkan route maps a probe onto it";
  if (inst.addr64) return "ADDR64 (GFX6/7): RADV/ACO never address a buffer with ADDR64";
  if (inst.lds || op.ldsData)
    return "LDS forms: no Vulkan construct loads buffer data into LDS (ACO never emits them)";
  if (inst.tfe)
    return "TFE: no route's shader asks for residency (ACO sets TFE only for sparse image "
           "reads)";
  if (op.d16) return "D16 forms: the routes' shaders use 32-bit components";
  const bool atomic = op.kind == gcn::OpKind::Atomic;
  if (atomic && !inst.glc)
    return "the atomic route's shaders use the returned value, so the driver sets GLC: the "
           "instruction needs glc";
  if (atomic && !routes::atomicRoutable(op.atomic))
    return std::string(op.mnemonic) + " has no GLSL atomic that reaches it";
  if (op.kind == gcn::OpKind::Cache)
    return std::string(op.mnemonic) + " has no data access a Vulkan route can realise";
  if (!atomic && (inst.glc || inst.slc))
    return "GLC/SLC on a load or store: the routes' shaders have no coherent/volatile access";
  return "";
}

// Why no driver-built V# reaches this instruction's V#, SOFFSET or memory; empty when one may.
std::string noDriverBuiltVsharp(const gcn::Instruction& inst, const gcn::MemoryImage& memory,
                                const gcn::VSharp& v) {
  if (inst.soffset != 128)
    return "SOFFSET is not the inline constant 0: the driver-built routes' accesses have SOFFSET "
           "0";
  if (!memory.far.empty())
    return "the memory has far regions (`far` lines), which only the raw V# placement (raw, "
           "binary and own-program routes) puts on a device";
  if (v.swizzleEnable) return "V# has SWIZZLE_ENABLE, which no driver-built descriptor has";
  if (v.addTidEnable) return "V# has ADD_TID_ENABLE, which no driver-built descriptor has";
  return "";
}

// The texel, storage or atomic route with the V# its driver builds.
Realisation realiseDriverBuilt(const gcn::Chip& chip, const gcn::Instruction& inst,
                               const gcn::WaveState& state, const gcn::MemoryImage& memory,
                               const gcn::VSharp& v, const std::array<uint32_t, 4>& words,
                               const Pick& pick) {
  const gcn::OpcodeInfo& op = *inst.op;
  switch (op.kind) {
    case gcn::OpKind::LoadFormat:
    case gcn::OpKind::StoreFormat:
      if (op.kind == gcn::OpKind::StoreFormat && op.components != 4)
        return no(
            "imageStore writes four components: only buffer_store_format_xyzw is reached with a "
            "driver-built V#");
      return realiseTexel(chip, inst, state, memory, v, words,
                          op.kind == gcn::OpKind::LoadFormat ? routes::Binding::UniformTexel
                                                             : routes::Binding::StorageTexel,
                          pick.format, "the probe's format");
    case gcn::OpKind::Load:
    case gcn::OpKind::Store:
      return realiseStorage(chip, inst, state, memory, v, words);
    case gcn::OpKind::Atomic:
      if (inst.idxen && pick.format && *pick.format != routes::atomicTexelFormat(op.atomic))
        return no("the probe's format is " + std::string(vk::findBufferFormat(*pick.format)->name) +
                  ", but " + std::string(op.mnemonic) + "'s imageAtomic view is " +
                  std::string(vk::findBufferFormat(routes::atomicTexelFormat(op.atomic))->name));
      return inst.idxen
                 ? realiseTexel(chip, inst, state, memory, v, words, routes::Binding::StorageTexel,
                                routes::atomicTexelFormat(op.atomic), "the format the atomic needs")
                 : realiseStorage(chip, inst, state, memory, v, words);
    case gcn::OpKind::Cache:
      break;  // taken by the binary route (noVulkanForm)
  }
  return no("");
}

// Whether a route's Vulkan construct makes the driver run exactly this instruction with
// exactly this V#: `device` when it does (memory cut to what the route binds), else
// `reason` says why not. A V# no driver builds goes to the raw V# route when the instruction
// has a lane shader's form; an instruction no Vulkan construct emits goes to the binary route
// when the templates host its form. A picked route is the only one tried.
Realisation realise(const gcn::Chip& chip, const gcn::Instruction& inst,
                    const gcn::WaveState& state, const gcn::MemoryImage& memory,
                    const std::vector<uint8_t>& lds, const Pick& pick, Attempts& tried) {
  if (inst.op == nullptr) return no("no instruction");
  const std::array<uint32_t, 4> words = gcn::vsharpWords(state, inst.srsrc);
  const gcn::VSharp v = gcn::decodeVSharp(chip.gen, words);
  const auto withoutVulkan = [&](const std::string& why) {
    return realiseWithoutVulkan(chip, inst, state, memory, lds, pick, tried, why);
  };
  // Order: instruction modifiers no shader produces (the binary route), then the driver-built
  // V#s of each route, then the raw V# route.
  if (const std::string why = noVulkanForm(inst); !why.empty()) return withoutVulkan(why);
  const std::string_view driverRoute = driverRouteName(*inst.op);
  const bool driverAllowed = tried.allowed(driverRoute);
  Realisation driver = no(std::string(driverRoute) + " route: not the probe's " + pick.routeLine);
  if (driverAllowed) {
    const std::string why = noDriverBuiltVsharp(inst, memory, v);
    driver = why.empty() ? realiseDriverBuilt(chip, inst, state, memory, v, words, pick) : no(why);
    tried.note(driverRoute, driver);
  }
  if (driver.device) return driver;
  // An SGPR or M0 SOFFSET: the raw route's lane shader takes it from a push constant the proof
  // cannot see, gcnprobe's own program sets and proves it; the own program goes first.
  if (inst.soffset < 128)
    if (Realisation own =
            withoutVulkan(driver.reason + "; raw V# route: an SGPR SOFFSET is proven only in "
                                          "gcnprobe's own program");
        own.device)
      return own;
  Realisation raw = no("raw V# route: not the probe's " + pick.routeLine);
  if (tried.allowed("raw")) {
    raw = tried.note("raw", realiseRaw(chip, inst, state, memory, v));
    if (raw.device) return raw;
    raw.reason = "raw V# route: " + raw.reason;
  }
  // A form no lane shader has (an IDXEN typed access, say): the binary route's templates.
  return withoutVulkan(driver.reason + "; " + raw.reason);
}

// The route names of a probe's `route` line: one name, or several separated by commas (in
// order of preference), each a known route, none twice.
std::vector<std::string> routeNames(const gcn::probe::Placed<std::string>& line) {
  std::vector<std::string> names;
  std::string_view rest = line.value;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string r(gcn::trimSpace(rest.substr(0, comma)));
    if (r != "texel" && r != "storage" && r != "atomic" && r != "raw" && r != "binary" &&
        r != "program")
      throw gcn::Error(line.place, "unknown route '" + r +
                                       "' (known: texel, storage, atomic, raw, binary, "
                                       "program; several in order of preference: "
                                       "'program, storage')");
    if (std::find(names.begin(), names.end(), r) != names.end())
      throw gcn::Error(line.place, "route '" + r + "' is named twice");
    names.push_back(r);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return names;
}

// The probe's `route` and `format` lines, checked against the routes and the format table: one
// Pick per route the line names (one Pick without a route when there is no `route` line).
std::vector<Pick> picksOf(const gcn::probe::ProbeSetup& setup) {
  std::vector<std::string> names;
  if (setup.route) names = routeNames(*setup.route);
  std::optional<VkFormat> format;
  if (setup.format) {
    const vk::BufferFormat* f = nullptr;
    try {
      f = &vk::parseBufferFormat(setup.format->value);
    } catch (const gcn::Error& e) {
      throw gcn::Error(setup.format->place, e.reason());
    }
    if (!f->texel)
      throw gcn::Error(setup.format->place, std::string(f->name) +
                                                " is not a texel-buffer format of the table, so no "
                                                "texel view can be made of it");
    format = f->vk;
    // A view of this format is what the probe asks for: no other route stands in for it.
    for (const std::string& r : names)
      if (r != "texel" && r != "atomic")
        throw gcn::Error(setup.format->place,
                         "'format' picks a texel view's VkFormat, but the probe's route is " + r +
                             " (line " + std::to_string(setup.route->place.line) + ")");
  }
  std::vector<Pick> picks;
  for (const std::string& r : names) {
    Pick p;
    p.route = r;
    p.format = format;
    p.routeLine = "route = " + setup.route->value + " (" + setup.route->place.file + ":" +
                  std::to_string(setup.route->place.line) + ")";
    picks.push_back(std::move(p));
  }
  if (picks.empty()) {
    Pick p;
    p.format = format;
    if (setup.format) {
      p.routeLine = "format = " + setup.format->value + " (" + setup.format->place.file + ":" +
                    std::to_string(setup.format->place.line) + "), a texel view";
      p.viewOnly = true;
      p.route = "texel";
    }
    picks.push_back(std::move(p));
  }
  return picks;
}

}  // namespace

std::string probeCaseName(const std::string& file) {
  return std::string(kDisputedSuite) + "." + std::filesystem::path(file).stem().string();
}

ProbeCase probeCase(const std::string& file, const gcn::probe::ProbeSetup& setup) {
  // Each route the probe names, realised on its own; the last one realised is the case's
  // device case, the ones before it its preferred realisations (Case::preferred).
  std::vector<routes::DeviceCase> realised;
  std::vector<RouteAttempt> attempts;
  std::string reasons;
  const std::vector<Pick> picks = picksOf(setup);
  for (const Pick& pick : picks) {
    Attempts tried(pick);
    Realisation rz =
        realise(*setup.chip, setup.inst, setup.state, setup.memory, setup.lds, pick, tried);
    for (RouteAttempt& a : tried.take()) {
      // A route the line names is tried under its own pick; skip the others' "not the probe's
      // route" entries for it.
      const bool named = std::any_of(picks.begin(), picks.end(),
                                     [&](const Pick& p) { return p.route && *p.route == a.route; });
      if (picks.size() > 1 && named && a.route != *pick.route) continue;
      if (std::none_of(attempts.begin(), attempts.end(),
                       [&](const RouteAttempt& b) { return b.route == a.route; }))
        attempts.push_back(std::move(a));
    }
    if (rz.device)
      realised.push_back(std::move(*rz.device));
    else
      reasons += (reasons.empty() ? "" : "; ") +
                 (picks.size() > 1 ? "route " + *pick.route + ": " : std::string()) + rz.reason;
  }
  if (realised.empty()) return {std::nullopt, std::move(reasons), std::move(attempts)};
  judge::Case c;
  c.name = probeCaseName(file);
  c.suite = kDisputedSuite;
  // The probe asks which rule holds: bits, not tolerances (under every profile).
  c.tolerance = judge::ToleranceId::Exact;
  c.gcnTolerance = judge::ToleranceId::Exact;
  c.device = std::move(realised.back());
  realised.pop_back();
  c.preferred = std::move(realised);
  return {std::move(c), "", std::move(attempts)};
}

PredictionMatch matchPrediction(const gcn::Chip& chip, const judge::Case& c,
                                const gcn::ExecResult& prediction,
                                const routes::DeviceResult& actual) {
  // The prediction as the one acceptable outcome. Its image is the probe's, starting at the
  // route's buffer base (realise keeps the base); the route binds a prefix of it (a texel
  // view is cut to its elements, which no in-range access passes), so that prefix is what
  // the device's buffer is compared with.
  const gcn::MemoryImage& predicted = prediction.memory();
  const bool imageCovers =
      predicted.base == c.device.memory.base && predicted.bytes.size() >= actual.memory.size();
  gcn::ExecResult shown = prediction;
  shown.written = gcn::MemoryImage{
      predicted.base,
      std::vector<uint8_t>(
          predicted.bytes.begin(),
          predicted.bytes.begin() +
              static_cast<std::ptrdiff_t>(std::min(predicted.bytes.size(), actual.memory.size()))),
      predicted.far};
  shown.unchanged = nullptr;
  judge::Expected e;
  e.alternatives.push_back({"prediction", std::move(shown)});
  e.rules.push_back(e.alternatives.back().label);  // kReferenceRule
  e.description = "one probe prediction, bit for bit";
  const gcn::ExecResult& primary = e.alternatives.front().result;
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    const gcn::LaneResult& pl = primary.lanes[l];
    if (((c.device.state.exec >> l) & 1u) == 0 || !pl.active || pl.vdataCount == 0) continue;
    e.lanes[l].count = static_cast<uint8_t>(std::min<unsigned>(pl.vdataCount, 5));
    e.lanes[l].alternatives.push_back({judge::kReferenceRule, judge::AcceptKind::Values, pl.vdata});
  }
  e.memory.compared = true;
  e.guardRule = e.rule("guard bands around the buffer are never written");

  const judge::DiffResult d =
      diffCase(c.device, caseFormatView(chip, c), e, actual, tolerance(judge::ToleranceId::Exact));
  PredictionMatch m;
  m.lanes.fill(true);
  m.memory = imageCovers && actual.changedGuardBytes.empty();
  for (const results::ComponentDiff& diff : d.diffs) {
    if (diff.memoryField)
      m.memory = false;  // only elements no outcome accepts are listed
    else if (diff.lane >= 0 && diff.lane < static_cast<int>(gcn::kWaveSize))
      m.lanes[static_cast<std::size_t>(diff.lane)] = false;  // only failing lanes are listed
  }
  m.all = m.memory && std::all_of(m.lanes.begin(), m.lanes.end(), [](bool b) { return b; });
  return m;
}

// Expected values: buildExpected (expect.cpp) with the profile's default policies; under
// portable it widens norm / int-store / oob-one and applies the Vulkan out-of-bounds rules.
// Not yet the union of every policy variant of the probe's mattering points: that needs a
// per-case list of extra policies in Case (case.h) that buildExpected (expect.cpp) adds as
// alternatives.
std::vector<judge::Case> disputedSuite(const gcn::Chip& chip, const CaseFilter& want) {
  std::vector<judge::Case> cases;
  // One bad file is one error record, not the end of the suite.
  const auto broken = [&](const std::string& name, const gcn::Error& e) {
    judge::Case c;
    c.name = name;
    c.suite = kDisputedSuite;
    c.broken = e.what();
    if (wanted(want, c.name)) cases.push_back(std::move(c));
  };
  for (const std::string& file : gcn::probe::shippedProbeFiles()) {
    const std::string name = probeCaseName(file);
    std::optional<gcn::probe::Probe> loaded;
    try {
      loaded = gcn::probe::loadProbe(file);
      // Malformed probes fail here, with their own generation; a probe that is only invalid
      // on `chip` (an instruction missing there) is not realisable on it.
      (void)gcn::probe::prepare(*loaded, {});
    } catch (const gcn::Error& e) {
      broken(name, e);
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
    ProbeCase pc;
    try {
      pc = probeCase(file, *setup);
    } catch (const gcn::Error& e) {  // an unknown route or format name
      broken(name, e);
      continue;
    }
    if (pc.c && wanted(want, pc.c->name)) cases.push_back(std::move(*pc.c));
  }
  return cases;
}

}  // namespace gcnprobe::cases
