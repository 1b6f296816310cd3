#include "harness/judge/expect.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "harness/formats.h"
#include "reference/convert.h"
#include "reference/error.h"
#include "reference/float_bits.h"
#include "reference/policy.h"
#include "reference/resource.h"

namespace gcnprobe::judge {
namespace {

// Policy points whose answer the Vulkan spec does not fix for texel buffers, so the
// portable profile accepts either option: UNORM/SNORM -> float rounding (fixedfpconv
// states the formula, not the rounding), the 1 inserted by DST_SEL for an out-of-bounds
// component (replaced by the Vulkan OOB rules below anyway), integer stores that do not fit
// the field (the spec leaves out-of-range integer conversions undefined), float ->
// UNORM/SNORM stores (either of the two closest integers) and float32 -> 16/11/10-bit float
// stores (the rounding mode is undefined). Each is read by loads only or by stores only
// (reference/convert.cpp storeComponent and loadComponent, executor.cpp's DST_SEL of a format
// load), and only by format instructions, so a case varies only the points of its kind.
struct OpenPoint {
  gcn::PolicyId id;
  bool store;  // a store's point; else a load's
};
constexpr OpenPoint kPortableOpen[] = {{gcn::PolicyId::NormToFloat, false},
                                       {gcn::PolicyId::OobDstSelOne, false},
                                       {gcn::PolicyId::IntStoreOverflow, true},
                                       {gcn::PolicyId::NormStore, true},
                                       {gcn::PolicyId::FloatStoreRound, true}};

uint32_t vulkanOne(gcn::RegType t) {
  return t == gcn::RegType::Float ? 0x3f800000u : 1u;
}

unsigned componentsRead(const Case& c) {
  return std::min(routes::componentsRead(c.device), 4u);
}

bool composedView(const Case& c) {
  return c.view && c.view->channels > 1;
}

// The wave's registers as the Vulkan view returns them: the case's instruction alone, or for a
// composed view its channel loads gathered by DST_SEL, then the sRGB EOTF.
gcn::ExecResult executeView(const gcn::Chip& chip, const Case& c, const gcn::WaveState& state,
                            const gcn::Policies& policies) {
  const routes::DeviceCase& d = c.device;
  const FormatView fv = caseFormatView(chip, c);  // register type, sRGB components
  const auto decodeSrgb = [&](gcn::LaneResult& lane) {
    for (unsigned j = 0; j < 4 && j < lane.vdataCount; ++j)
      if (fv.srgb[j] && lane.vdata[j]) lane.vdata[j] = srgbToLinearBits(*lane.vdata[j]);
  };
  if (!composedView(c)) {
    gcn::ExecResult r = gcn::execute(chip, d.inst, state, d.memory, d.lds, policies);
    for (gcn::LaneResult& lane : r.lanes)
      if (lane.active) decodeSrgb(lane);
    return r;
  }
  const ViewCompose& v = *c.view;
  std::array<std::optional<gcn::ExecResult>, 4> byChannel;
  const std::vector<ViewLoad> loads = viewLoads(c);
  for (const ViewLoad& l : loads)
    byChannel[l.channel] = gcn::execute(chip, l.inst, state, d.memory, d.lds, policies);
  gcn::ExecResult r = *byChannel[loads.front().channel];  // lane activity, first accesses
  const unsigned n = componentsRead(c);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    gcn::LaneResult& lane = r.lanes[l];
    if (!lane.active || lane.vdataCount == 0) continue;
    lane.vdata = {};
    for (unsigned j = 0; j < n; ++j) {
      if (v.dstSel[j] == gcn::DstSel::One)
        lane.vdata[j] = vulkanOne(fv.reg);
      else if (v.dstSel[j] < gcn::DstSel::X)
        lane.vdata[j] = 0u;
      else
        lane.vdata[j] =
            byChannel[static_cast<unsigned>(v.dstSel[j]) - static_cast<unsigned>(gcn::DstSel::X)]
                ->lanes[l]
                .vdata[0];
    }
    lane.vdataCount = static_cast<uint8_t>(n);
    decodeSrgb(lane);
    for (size_t k = 1; k < loads.size(); ++k) {
      const auto& more = byChannel[loads[k].channel]->lanes[l].accesses;
      lane.accesses.append(more);
    }
  }
  return r;
}

// Per lane, the register vectors a Vulkan rule accepts, and whether only those apply (the
// spec fixes the lane's result, so the GCN alternatives do not).
struct VulkanLanes {
  std::array<std::vector<LaneAlternative>, gcn::kWaveSize> options;
  std::array<bool, gcn::kWaveSize> only{};
};

// The acceptance sets every profile has: per lane, each alternative's register vector
// (unless a Vulkan rule alone applies) then the Vulkan rules' vectors; memory, each
// alternative's image; for atomics, any serial order of the lanes at one address; guard
// bytes unchanged. Call once the alternatives (and their rules) are complete.
void addCommonSets(Expected& e, const Case& c, const VulkanLanes& vulkan) {
  const gcn::ExecResult& primary = e.alternatives.front().result;
  const gcn::OpKind kind = c.device.inst.op != nullptr ? c.device.inst.op->kind : gcn::OpKind::Load;
  const bool atomic = kind == gcn::OpKind::Atomic;
  const RuleId anyOrder =
      atomic ? e.rule("atomics: any serial order of the lanes sharing an address") : 0;
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    const gcn::LaneResult& pl = primary.lanes[l];
    if (!pl.active || pl.vdataCount == 0) continue;
    LaneSet& set = e.lanes[l];
    set.count = static_cast<uint8_t>(std::min<unsigned>(pl.vdataCount, 5));
    if (!vulkan.only[l]) {
      for (size_t i = 0; i < e.alternatives.size(); ++i) {
        const auto& v = e.alternatives[i].result.lanes[l].vdata;
        // Policies that do not change this lane give the same vector: kept once.
        if (std::none_of(set.alternatives.begin(), set.alternatives.end(),
                         [&](const LaneAlternative& a) { return a.vdata == v; }))
          set.alternatives.push_back({static_cast<RuleId>(i), AcceptKind::Values, v});
      }
    }
    set.alternatives.insert(set.alternatives.end(), vulkan.options[l].begin(),
                            vulkan.options[l].end());
    if (atomic) set.alternatives.push_back({anyOrder, AcceptKind::SerialAtomicOrder, {}});
  }
  e.memory.compared = gcn::writesMemory(kind);
  for (size_t i = 1; i < e.alternatives.size(); ++i)
    e.memory.images.push_back({static_cast<RuleId>(i), static_cast<uint16_t>(i)});
  if (atomic)
    e.memory.ranges.push_back(
        {0, primary.memory().bytes.size(), anyOrder, AcceptKind::SerialAtomicOrder});
  e.guardRule = e.rule("guard bands around the buffer are never written");
}

}  // namespace

std::vector<ViewLoad> viewLoads(const Case& c) {
  if (!composedView(c)) return {ViewLoad{0, c.device.inst}};
  const ViewCompose& v = *c.view;
  std::array<bool, 4> wanted{};
  for (unsigned j = 0; j < componentsRead(c); ++j) {
    if (v.dstSel[j] < gcn::DstSel::X) continue;
    const unsigned ch = static_cast<unsigned>(v.dstSel[j]) - static_cast<unsigned>(gcn::DstSel::X);
    if (ch >= v.channels)
      throw gcn::Error(c.name + ": view component " + std::to_string(j) + " selects channel " +
                       std::to_string(ch) + " of a " + std::to_string(v.channels) +
                       "-channel view");
    wanted[ch] = true;
  }
  std::vector<ViewLoad> loads;
  for (unsigned ch = 0; ch < v.channels; ++ch) {
    if (!wanted[ch]) continue;
    gcn::Instruction in = c.device.inst;
    in.offset = static_cast<uint16_t>(in.offset + ch * v.loadBytes);
    loads.push_back({ch, in});
  }
  if (loads.empty()) throw gcn::Error(c.name + ": the view read selects no channel");
  return loads;
}

FormatView caseFormatView(const gcn::Chip& chip, const Case& c) {
  FormatView fv = formatViewOf(chip, c.device);
  if (!c.view) return fv;
  // Components that come from memory (DST_SEL X..W of the view, or of the V#).
  const std::array<gcn::DstSel, 4> sel = composedView(c) ? c.view->dstSel : fv.dstSel;
  if (composedView(c)) {
    // Each component is register X of its channel's one-channel load.
    for (unsigned j = 0; j < 4; ++j)
      fv.dstSel[j] = sel[j] >= gcn::DstSel::X ? gcn::DstSel::X : sel[j];
  }
  if (c.view->srgb)
    for (unsigned j = 0; j < 3; ++j)
      fv.srgb[j] = sel[j] >= gcn::DstSel::X;
  return fv;
}

// Every combination of the open points of the instruction's kind (format loads or format
// stores; typed loads and stores and atomics convert nothing), each as a labelled
// alternative.
void addPortableAlternatives(Expected& e, const Case& c, const Profile& profile,
                             const gcn::Policies& base) {
  const routes::DeviceCase& d = c.device;
  const gcn::OpKind kind = d.inst.op->kind;
  const bool isStore = kind == gcn::OpKind::StoreFormat;
  const bool isLoad = kind == gcn::OpKind::LoadFormat;
  std::vector<gcn::PolicyId> openPoints;
  std::string openNames;
  for (const OpenPoint& o : kPortableOpen)
    if ((o.store && isStore) || (!o.store && isLoad)) {
      openPoints.push_back(o.id);
      if (!openNames.empty()) openNames += '/';
      openNames += gcn::policyPoint(o.id).name;
    }
  const std::vector<gcn::Policies> combos = gcn::everyCombination(base, openPoints);
  for (std::size_t k = 1; k < combos.size(); ++k) {  // combos[0] is the base
    const gcn::Policies& p = combos[k];
    std::vector<gcn::PolicyId> changed;
    for (gcn::PolicyId id : openPoints)
      if (p.get(id) != base.get(id)) changed.push_back(id);
    const std::string label = std::string(gcn::genName(profile.chip.gen)) +
                              (changed.empty() ? "" : " " + p.describe(changed));
    e.alternatives.push_back({label, executeView(profile.chip, c, d.state, p)});
    e.rules.push_back(label);  // rules[i] names alternatives[i]
  }
  if (!openNames.empty()) e.description += ", widened for portable: any option of " + openNames;
}

// Vulkan out-of-bounds loads, per lane of the primary result that reads out of range (see
// buildExpected): each lane's alternatives go to `vulkan`. `formatSel`: the Vulkan format's
// DST_SEL, whose X..W components the format has.
void addOutOfBoundsLoads(Expected& e, const Case& c, const Profile& profile,
                         const DeviceRules& rules, const gcn::Policies& base, const FormatView& fv,
                         const std::array<gcn::DstSel, 4>& formatSel, VulkanLanes& vulkan) {
  const auto formatHas = [&](unsigned k) { return formatSel[k] >= gcn::DstSel::X; };
  const routes::DeviceCase& d = c.device;
  const gcn::ExecResult& primary = e.alternatives.front().result;
  std::vector<std::array<std::optional<uint32_t>, 5>> inBuffer;
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    const gcn::LaneResult& pl = primary.lanes[l];
    if (!pl.active || pl.vdataCount == 0 || pl.accesses.empty()) continue;
    const bool oob = std::none_of(pl.accesses.begin(), pl.accesses.end(),
                                  [](const gcn::LaneAccess& a) { return a.inRange; });
    if (!oob) continue;
    LaneAlternative zeroFill{
        e.rule("vulkan robustBufferAccess2: zero, (0,0,1) for missing components"),
        AcceptKind::Values,
        {}};
    // (0,0,0,1) is the texel rule; untyped SSBO loads return all zeros.
    const bool formatted = d.inst.op->kind == gcn::OpKind::LoadFormat;
    for (unsigned k = 0; k < 4; ++k)
      zeroFill.vdata[k] = !formatted || formatHas(k) || k < 3 ? 0u : vulkanOne(fv.reg);
    vulkan.options[l].push_back(zeroFill);
    vulkan.only[l] = true;
    if (rules.robustBufferAccess2) continue;
    const uint32_t big = fv.reg == gcn::RegType::Sint ? 0x7fffffffu : 0xffffffffu;
    for (uint32_t x : {0u, vulkanOne(fv.reg), big}) {
      if (fv.reg == gcn::RegType::Float && x == big) continue;
      vulkan.options[l].push_back({e.rule("vulkan robustBufferAccess: (0,0,0,x)"),
                                   AcceptKind::Values,
                                   {0u, 0u, 0u, x, std::nullopt}});
    }
    // Values from anywhere within the buffer: what an in-range load of each element gives.
    if (inBuffer.empty() && d.inst.idxen && fv.stride != 0) {
      const uint32_t elements = static_cast<uint32_t>(d.memory.bytes.size() / fv.stride);
      for (uint32_t first = 0; first < elements; first += gcn::kWaveSize) {
        gcn::WaveState s = d.state;
        s.exec = ~0ull;
        for (unsigned k = 0; k < gcn::kWaveSize; ++k)
          s.vgprMut(d.inst.vaddr)[k] = std::min(first + k, elements - 1);
        const gcn::ExecResult r = executeView(profile.chip, c, s, base);
        for (unsigned k = 0; k < gcn::kWaveSize && first + k < elements; ++k)
          inBuffer.push_back(r.lanes[k].vdata);
      }
    }
    const RuleId fromBuffer = e.rule("vulkan robustBufferAccess: a value from the buffer");
    for (const auto& v : inBuffer)
      vulkan.options[l].push_back({fromBuffer, AcceptKind::Values, v});
  }
}

// robustBufferAccess without robustBufferAccess2: out-of-bounds stores may land anywhere
// in the buffer (Vulkan spec, robustBufferAccess), so when a lane stores out of bounds,
// any bytes are accepted in the elements no in-range store writes.
void addOutOfBoundsStores(Expected& e, const Case& c, const DeviceRules& rules,
                          const FormatView& fv) {
  if (rules.robustBufferAccess2) return;
  const routes::DeviceCase& d = c.device;
  const gcn::ExecResult& primary = e.alternatives.front().result;
  const std::vector<uint8_t>& image = primary.memory().bytes;
  const uint32_t es = fv.stride;
  std::vector<bool> written(image.size() / es + 1, false);
  bool anyOob = false;
  for (const gcn::LaneResult& lane : primary.lanes) {
    for (const gcn::LaneAccess& acc : lane.accesses) {
      if (!acc.write) continue;
      if (!acc.inRange) anyOob = true;
      const uint64_t off = acc.address - d.memory.base;
      if (acc.inRange && off / es < written.size()) written[off / es] = true;
    }
  }
  if (!anyOob) return;
  const RuleId mayLand =
      e.rule("vulkan robustBufferAccess: out-of-bounds stores may land anywhere in the buffer");
  for (size_t el = 0; el * es < image.size(); ++el) {
    if (written[el]) continue;
    const uint64_t begin = el * es, end = std::min<uint64_t>(begin + es, image.size());
    if (!e.memory.ranges.empty() && e.memory.ranges.back().end == begin &&
        e.memory.ranges.back().rule == mayLand)
      e.memory.ranges.back().end = end;  // one range for a run of unwritten elements
    else
      e.memory.ranges.push_back({begin, end, mayLand, AcceptKind::Any});
  }
}

// NaN stored to a UNORM/SNORM field: the spec's float -> normalized conversion clamps
// and scales (fundamentals-fpfixedconv) and says nothing of NaN, so any code is legal.
void addNanStores(Expected& e, const Case& c, const Profile& profile, const gcn::Policies& base,
                  const FormatView& fv, unsigned formatComps) {
  const routes::DeviceCase& d = c.device;
  const gcn::ExecResult& primary = e.alternatives.front().result;
  if (d.inst.op != nullptr && d.inst.op->kind == gcn::OpKind::StoreFormat &&
      (fv.nfmt == gcn::Nfmt::Unorm || fv.nfmt == gcn::Nfmt::Snorm) && fv.stride != 0) {
    const uint64_t elements = d.memory.bytes.size() / fv.stride + 1;
    const RuleId nanOpen = e.rule("vulkan: a NaN stored to a UNORM/SNORM field may store any code");
    // The field register k lands in: k (store-dst-sel=ignore), DST_SEL[k] (inverse), or the
    // first field whose DST_SEL names k (forward; 4 = none).
    const gcn::VSharp v =
        gcn::decodeVSharp(profile.chip.gen, gcn::vsharpWords(d.state, d.inst.srsrc));
    const auto selIndex = [](gcn::DstSel s) {
      return static_cast<unsigned>(s) - static_cast<unsigned>(gcn::DstSel::X);
    };
    std::array<unsigned, 4> fieldOf{0, 1, 2, 3};
    if (base.storeDstSel() == gcn::policy::StoreDstSel::Inverse) {
      for (unsigned k = 0; k < 4; ++k)
        if (v.dstSel[k] >= gcn::DstSel::X) fieldOf[k] = selIndex(v.dstSel[k]);
    } else if (base.storeDstSel() == gcn::policy::StoreDstSel::Forward) {
      for (unsigned k = 0; k < 4; ++k) {
        fieldOf[k] = 4;
        for (unsigned j = 0; j < 4 && fieldOf[k] == 4; ++j)
          if (v.dstSel[j] >= gcn::DstSel::X && selIndex(v.dstSel[j]) == k) fieldOf[k] = j;
      }
    }
    for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
      for (const gcn::LaneAccess& a : primary.lanes[l].accesses) {
        if (!a.write || !a.inRange || a.address < d.memory.base) continue;
        const uint64_t el = (a.address - d.memory.base) / fv.stride;
        for (unsigned k = 0; k < formatComps && el < elements; ++k) {
          const uint32_t reg = d.state.vgpr(d.inst.vdata + k)[l];
          if (!gcn::fbits::isNan(gcn::fbits::kFloat32, reg) || fieldOf[k] >= formatComps) continue;
          const FieldAlternative open{el, static_cast<uint8_t>(fieldOf[k]), nanOpen};
          auto& fields = e.memory.anyFields;
          if (std::none_of(fields.begin(), fields.end(), [&](const FieldAlternative& f) {
                return f.element == open.element && f.field == open.field;
              }))
            fields.push_back(open);
        }
      }
    }
  }
}

Expected buildExpected(const Case& c, const Profile& profile, const DeviceRules& rules) {
  Expected e;
  // The primary and, for portable profiles, one alternative per combination of the open
  // points: reserved, as an alternative holds a whole wave's result and is costly to move.
  e.alternatives.reserve(profile.portable ? 8 : 1);
  const routes::DeviceCase& d = c.device;
  gcn::Policies base = gcn::Policies::defaults(profile.chip);
  e.alternatives.push_back({std::string(gcn::genName(profile.chip.gen)) + " defaults",
                            executeView(profile.chip, c, d.state, base)});
  e.rules.push_back(e.alternatives.back().label);  // kReferenceRule
  e.description = std::string(profile.chip.name) + " (" +
                  std::string(gcn::genName(profile.chip.gen)) + ") reference, default policies";
  if (composedView(c))
    e.description += "; view composed of " + std::to_string(viewLoads(c).size()) +
                     " one-channel loads (OFFSET + channel * " + std::to_string(c.view->loadBytes) +
                     ")";
  if (c.view && c.view->srgb)
    e.description += "; sRGB EOTF on R, G, B (Vulkan texel input format conversion)";
  VulkanLanes vulkan;
  if (!profile.portable) {
    addCommonSets(e, c, vulkan);
    return e;
  }

  addPortableAlternatives(e, c, profile, base);
  // Vulkan out-of-bounds loads (spec, robustBufferAccess / robustBufferAccess2 in
  // VkPhysicalDeviceRobustness2FeaturesEXT): robustBufferAccess2 returns zero with
  // (0,0,1) inserted for missing G, B, A; robustBufferAccess alone returns zero, (0,0,0,x)
  // with x = 0, 1 or the largest integer (0.0 or 1.0 for floats), or values from anywhere
  // in the buffer.
  const FormatView fv = formatViewOf(profile.chip, d);
  const unsigned formatComps = gcn::dfmtInfo(fv.dfmt).components;
  // A component the Vulkan format has is one its table row's DST_SEL reads from memory
  // (X..W): A8_UNORM has only alpha (DST_SEL 0,0,0,X), so its out-of-bounds W is 0, not the 1
  // that replaces a missing alpha. (The row, not the case's V#: a composed view's V# is a
  // one-channel one.)
  const gcnprobe::vk::BufferFormat* row = gcnprobe::vk::findBufferFormat(d.format);
  const std::array<gcn::DstSel, 4> formatSel = row != nullptr ? row->dstSel : fv.dstSel;
  addOutOfBoundsLoads(e, c, profile, rules, base, fv, formatSel, vulkan);
  addOutOfBoundsStores(e, c, rules, fv);
  addNanStores(e, c, profile, base, fv, formatComps);
  e.description +=
      rules.robustBufferAccess2
          ? "; out-of-bounds per robustBufferAccess2"
          : "; out-of-bounds per robustBufferAccess (zero, (0,0,0,x), in-buffer values)";
  addCommonSets(e, c, vulkan);
  return e;
}

}  // namespace gcnprobe::judge
