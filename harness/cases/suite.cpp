#include "harness/cases/suite.h"

#include "harness/judge/expect.h"

#include <algorithm>
#include <bit>
#include <cctype>

#include "harness/cases/pattern.h"
#include "harness/formats.h"
#include "reference/assembler.h"
#include "reference/error.h"
#include "reference/executor.h"
#include "reference/resource.h"
#include "reference/text.h"
#include "results/selection.h"

namespace gcnprobe::cases {
namespace {

constexpr uint64_t kTexelBase = 0x100000;  // any 48-bit address: the V# base of every view
constexpr std::array<gcn::DstSel, 4> kIdentitySel{gcn::DstSel::X, gcn::DstSel::Y, gcn::DstSel::Z,
                                                  gcn::DstSel::W};

// Element indices per lane for loads: every in-range element once, the last element again,
// indices just and far past the end (NUM_RECORDS checks; 0x7fffffff/0xffffffff also probe
// the index * stride product), then seeded random in-range indices. Lanes 62 and 63 are
// inactive (EXEC) so inactive lanes are seen to be left alone.
std::array<uint32_t, gcn::kWaveSize> loadIndices(uint64_t seed) {
  std::array<uint32_t, gcn::kWaveSize> idx{};
  const uint32_t n = kTexelElements;
  for (uint32_t l = 0; l < n; ++l)
    idx[l] = l;
  const uint32_t tail[] = {n - 1, n, n + 1, n + 7, 2 * n, 1000, 0x7fffffffu, 0xffffffffu};
  for (uint32_t i = 0; i < 8; ++i)
    idx[n + i] = tail[i];
  CaseRng rng(seed);
  for (uint32_t l = n + 8; l < gcn::kWaveSize; ++l)
    idx[l] = rng() % n;
  return idx;
}

std::string texelCaseName(const vk::BufferFormat& f, routes::Binding binding,
                          const gcn::OpcodeInfo& op, unsigned viewComponents) {
  const std::string fmt = gcn::asciiLower(f.name.substr(f.name.rfind("VK_FORMAT_") == 0 ? 10 : 0));
  std::string mnemonic(op.mnemonic);
  static constexpr const char* kViewComps[] = {"", "x", "xy", "xyz", "xyzw"};
  return "texel." + std::string(binding == routes::Binding::UniformTexel ? "uniform" : "storage") +
         "." + fmt + "." +
         (viewComponents != 0 ? std::string("view_") + kViewComps[std::min(viewComponents, 4u)]
                              : mnemonic.substr(mnemonic.rfind("buffer_", 0) == 0 ? 7 : 0));
}

// How close the device must come: a load of a normalized format to an ULP (sRGB its own),
// stores and floats as portable texel rules allow, the rest exactly. Under GCN profiles the load
// is the reference's to the bit; an sRGB decode after it is driver shader code (tolerance.cpp
// "srgb-gcn").
void setTexelTolerance(judge::Case& c, const vk::BufferFormat& f, bool store) {
  const bool norm = f.nfmt == gcn::Nfmt::Unorm || f.nfmt == gcn::Nfmt::Snorm;
  c.tolerance = norm && !store
                    ? (f.srgb ? judge::ToleranceId::Srgb : judge::ToleranceId::Norm1Ulp)
                    : (store || f.nfmt == gcn::Nfmt::Float ? judge::ToleranceId::PortableTexel
                                                           : judge::ToleranceId::Exact);
  if (f.srgb) c.gcnTolerance = judge::ToleranceId::SrgbGcn;
}

// A store's lanes: distinct in-range elements per lane (Vulkan leaves the order of two lanes'
// writes to one texel open), reversed so lane and element differ; the data the format's edge
// values, then seeded values inside the format's range.
void setTexelStoreLanes(const vk::BufferFormat& f, uint64_t seed,
                        std::array<uint32_t, gcn::kWaveSize>& idx, gcn::WaveState& state) {
  for (uint32_t l = 0; l < kTexelElements; ++l)
    idx[l] = kTexelElements - 1 - l;
  for (uint32_t l = kTexelElements + 1; l < gcn::kWaveSize; ++l)
    if (idx[l] < kTexelElements) idx[l] = kTexelElements + l;  // past the end instead
  idx[kTexelElements] = kTexelElements;
  CaseRng rng(seed ^ 0x5151);
  for (unsigned k = 0; k < 4; ++k) {
    const std::vector<uint32_t> edges = edgeRegisterValues(
        f.dfmt, f.nfmt, std::min<unsigned>(k, gcn::dfmtInfo(f.dfmt).components - 1));
    for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
      uint32_t value = edges[(l + k) % edges.size()];
      if (l >= 2 * edges.size()) {
        value = static_cast<uint32_t>(rng());
        if (f.nfmt == gcn::Nfmt::Unorm || f.nfmt == gcn::Nfmt::Float ||
            f.nfmt == gcn::Nfmt::Snorm) {
          const float x = static_cast<float>(static_cast<int32_t>(value)) / 2147483648.0f;
          value = std::bit_cast<uint32_t>(f.nfmt == gcn::Nfmt::Unorm ? (x < 0 ? -x : x) : x);
        }
      }
      state.vgprMut(kCaseVdata + k)[l] = value;
    }
  }
}

// A texel case. viewComponents != 0: a composed view read (formats.h channelDfmt): `op` is
// BUFFER_LOAD_FORMAT_X on a one-channel V#, one load per channel, and the shader reads
// viewComponents components of the view.
// The case, or nothing when `want` does not take its name.
std::optional<judge::Case> makeTexelCase(const CaseFilter& want, const gcn::Chip& chip,
                                         const vk::BufferFormat& f, routes::Binding binding,
                                         const gcn::OpcodeInfo& op, unsigned viewComponents = 0) {
  judge::Case c;
  c.name = texelCaseName(f, binding, op, viewComponents);
  if (!wanted(want, c.name)) return std::nullopt;
  c.suite = kTexelSuite;
  const bool store = op.kind == gcn::OpKind::StoreFormat;
  setTexelTolerance(c, f, store);
  const bool composed = viewComponents != 0;
  const gcn::Dfmt dfmt = composed ? f.channelDfmt : f.dfmt;
  const unsigned channels = composed ? perChannelCount(f) : 1;
  if (composed || f.srgb) {
    judge::ViewCompose v;
    v.channels = channels;
    v.loadBytes = composed ? gcn::dfmtInfo(dfmt).bytes : 0;
    if (composed) v.dstSel = f.dstSel;
    v.srgb = f.srgb;
    c.view = v;
  }

  routes::DeviceCase& d = c.device;
  d.binding = binding;
  d.format = f.vk;
  d.inst = caseInstruction(op);
  d.inst.idxen = true;
  d.viewComponents = static_cast<uint8_t>(viewComponents);
  // RADV's V# where it has one; a composed view's loads use the channel's one-channel
  // format with the view's stride; formats RADV keeps off texel buffers (formats.h `texel`)
  // get the V# their table row describes.
  const gcn::VSharp v = vk::makeBufferVSharp(chip, kTexelBase, kTexelElements, dfmt, f.nfmt,
                                             composed ? kIdentitySel : f.dstSel, f.stride);
  const auto words = gcn::encodeVSharp(chip.gen, v);
  gcn::setVsharpWords(d.state, kCaseSrsrc, words);
  const uint64_t seed = seedOf(c.name);
  d.memory.base = kTexelBase;
  d.memory.bytes = patternMemory(dfmt, f.nfmt, kTexelElements * channels, seed);
  d.state.exec = ~0ull & ~(3ull << 62);

  auto idx = loadIndices(seed);
  if (store) setTexelStoreLanes(f, seed, idx, d.state);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l)
    d.state.vgprMut(kCaseVaddr)[l] = idx[l];
  return c;
}

}  // namespace

std::span<const SuiteInfo> allSuites() {
  static constexpr SuiteInfo kSuites[] = {
      {kTexelSuite, texelSuite, true,
       "BUFFER_LOAD/STORE_FORMAT_* through uniform and storage texel buffers"},
      {kStorageSuite, storageSuite, true, "BUFFER_LOAD/STORE_<type> through an SSBO"},
      {kAtomicSuite, atomicSuite, true, "BUFFER_ATOMIC_* on SSBOs and R32 texel buffers"},
      {kVertexSuite, vertexSuite, true,
       "TBUFFER_LOAD_FORMAT_* / BUFFER_LOAD_DWORD* through a vertex attribute"},
      // Only on request: its cases come from probe files, not from the route tables.
      {kDisputedSuite, disputedSuite, false, "the probes in probes/ a route can realise"},
      {kBinarySuite, binarySuite, false,
       "every MUBUF/MTBUF opcode, patched into a compiled template (AMD GCN devices)"},
  };
  return kSuites;
}

const SuiteInfo* findSuite(std::string_view name) {
  for (const SuiteInfo& s : allSuites())
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string> suiteNames() {
  std::vector<std::string> out;
  for (const SuiteInfo& s : allSuites())
    out.emplace_back(s.name);
  return out;
}

std::string suiteOptionHelp() {
  std::string all, named;
  unsigned namedCount = 0;
  for (const SuiteInfo& s : allSuites()) {
    std::string& to = s.inAll ? all : named;
    to += (to.empty() ? "" : ", ") + std::string(s.name);
    namedCount += !s.inAll;
  }
  return "only this suite (" + all +
         (named.empty() ? ""
                        : "; " + named + (namedCount > 1 ? " run" : " runs") + " only when named") +
         ")";
}

std::string instructionText(gcn::Gen gen, const gcn::Instruction& inst) {
  if (inst.op == nullptr) return "<no instruction>";
  try {
    return gcn::printInstruction(gen, inst);
  } catch (const gcn::Error& e) {
    return std::string(inst.op->mnemonic) + " <" + e.reason() + ">";
  }
}

std::string caseInstructionText(gcn::Gen gen, const judge::Case& c) {
  std::string text;
  for (const judge::ViewLoad& l : viewLoads(c))
    text += (text.empty() ? "" : " ; ") + instructionText(gen, l.inst);
  if (c.view && c.view->srgb)
    text += " ; sRGB EOTF on r,g,b in the shader (no buffer NUM_FORMAT is sRGB)";
  return text;
}

void describeVSharp(gcn::Gen gen, const judge::Case& c, results::CaseResult& r) {
  std::array<uint32_t, 4> words{};
  try {
    words = gcn::vsharpWords(c.device.state, c.device.inst.srsrc);
  } catch (const gcn::Error&) {
    return;  // no V# in range: the reference rejects the case and says why
  }
  r.vsharpWords = gcn::hexWordList(words);
  r.vsharp = gcn::formatVSharp(gen, gcn::decodeVSharp(gen, words));
}

gcn::Instruction caseInstruction(const gcn::OpcodeInfo& op) {
  gcn::Instruction i;
  i.op = &op;
  i.vdata = kCaseVdata;
  i.vaddr = kCaseVaddr;
  i.srsrc = kCaseSrsrc;
  i.soffset = 128;  // inline constant 0
  return i;
}

std::vector<judge::Case> texelSuite(const gcn::Chip& chip, const CaseFilter& want) {
  // Resolved before any case is made: a misspelt name fails the suite at once.
  const auto loads = gcn::requireOpcodes<4>({"buffer_load_format_x", "buffer_load_format_xy",
                                             "buffer_load_format_xyz", "buffer_load_format_xyzw"});
  const auto stores =
      gcn::requireOpcodes<4>({"buffer_store_format_x", "buffer_store_format_xy",
                              "buffer_store_format_xyz", "buffer_store_format_xyzw"});
  constexpr routes::Binding kBindings[] = {routes::Binding::UniformTexel,
                                           routes::Binding::StorageTexel};
  std::vector<judge::Case> cases;
  for (const vk::BufferFormat& f : vk::allBufferFormats()) {
    // Rows without a GCN model (64-bit channels beyond R64) have no cases: `gcnprobe
    // formats` shows them as texel model "none".
    const vk::TexelModel model = texelModel(f);
    if (model == vk::TexelModel::None) continue;
    const bool composed = model == vk::TexelModel::PerChannel;
    // R64_UINT/SINT: the one 64-bit component is registers X and Y of the 32_32 V#.
    if (model == vk::TexelModel::Wide) {
      for (routes::Binding b : kBindings)
        addCase(cases, makeTexelCase(want, chip, f, b, *loads[1]));
      continue;
    }
    const unsigned comps = composed ? perChannelCount(f) : gcn::dfmtInfo(f.dfmt).components;
    if (comps == 0) continue;
    std::vector<unsigned> counts{1, comps, 4};
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    for (routes::Binding b : kBindings) {
      for (unsigned n : counts) {
        if (composed)
          addCase(cases, makeTexelCase(want, chip, f, b, *loads[0], n));
        else
          addCase(cases, makeTexelCase(want, chip, f, b, *loads[n - 1]));
      }
    }
    // imageStore writes a whole vec4 (the format decides which components land): the
    // four-component store, and for formats with fewer components the store of just those
    // (the shader's other components are constant zero). Composed and sRGB views have no
    // store model (texel.cpp says why). Neither has an alpha-only format (A8_UNORM, DST_SEL
    // 0,0,0,X): the store model lands register k in field k, or in the field DST_SEL[k] names
    // when that is a permutation of the format's channels (BGRA); alpha-in-field-X is neither.
    if (composed || f.srgb || f.dstSel[0] < gcn::DstSel::X) continue;
    if (comps < 4)
      addCase(cases,
              makeTexelCase(want, chip, f, routes::Binding::StorageTexel, *stores[comps - 1]));
    addCase(cases, makeTexelCase(want, chip, f, routes::Binding::StorageTexel, *stores[3]));
  }
  return cases;
}

std::vector<judge::Case> buildWantedCases(std::string_view suite, const CaseFilter& want,
                                          const gcn::Chip& chip) {
  if (!suite.empty() && findSuite(suite) == nullptr) {
    std::string known;
    for (const std::string& s : suiteNames())
      known += (known.empty() ? "" : ", ") + s;
    throw gcn::Error(gcn::Place{"--suite", 0, 0},
                     "unknown suite '" + std::string(suite) + "' (known: " + known + ")");
  }
  std::vector<judge::Case> all;
  for (const SuiteInfo& s : allSuites()) {
    if (suite.empty() ? !s.inAll : s.name != suite) continue;
    for (judge::Case& c : s.build(chip, want))
      all.push_back(std::move(c));
  }
  return all;
}

std::vector<judge::Case> buildCases(std::string_view suite, std::string_view filter,
                                    const gcn::Chip& chip) {
  if (filter.empty()) return buildWantedCases(suite, {}, chip);
  const std::string pattern(filter);
  return buildWantedCases(
      suite, [&](const std::string& name) { return results::globMatches(pattern, name); }, chip);
}

std::vector<std::string> caseListOrder(const std::string& profile) {
  std::vector<std::string> names;
  gcn::Chip chip;
  try {
    chip = judge::resolveProfile(profile, std::nullopt).chip;
  } catch (const gcn::Error&) {
    return names;  // a profile of another gcnprobe: the cases stay in shard order
  }
  for (const judge::Case& c : buildCases("", "", chip))
    names.push_back(c.name);
  try {
    for (const judge::Case& c : buildCases("disputed", "", chip))
      names.push_back(c.name);
  } catch (const gcn::Error&) {
    // no probe files here: their cases stay in shard order
  }
  return names;
}

}  // namespace gcnprobe::cases
