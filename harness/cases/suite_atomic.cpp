// The atomic suite (suite.h): BUFFER_ATOMIC_{SWAP,CMPSWAP,ADD,SUB,SMIN,UMIN,SMAX,UMAX,AND,
// OR,XOR} with GLC on SSBOs (32-bit and _X2, OFFSET 0 and 16) and on R32 storage texel
// buffers. Lanes: distinct in-range elements, four groups of four lanes on one element each
// (the result depends on the lanes' order: atomic_order.h accepts any serial order), and
// lanes past the end (robustness on: dropped, see expect.cpp).
#include <cstring>

#include "harness/cases/pattern.h"
#include "harness/cases/suite.h"
#include "harness/formats.h"
#include "harness/routes/atomic.h"
#include "harness/routes/storage.h"
#include "reference/error.h"

namespace gcnprobe::cases {
namespace {

constexpr uint64_t kAtomicBase = 0x300000;
constexpr uint32_t kElements = 64;

// The element each lane reaches (>= kElements: out of range): distinct ones, groups of four
// on one element, some past the end.
std::array<uint32_t, gcn::kWaveSize> laneElements() {
  std::array<uint32_t, gcn::kWaveSize> element{};
  for (uint32_t l = 0; l < 32; ++l)
    element[l] = 40 - l;  // 9..40, distinct
  for (uint32_t l = 32; l < 48; ++l)
    element[l] = 4 + (l - 32) / 4;  // 4..7 (>= any shift), four lanes each
  const uint32_t past[] = {kElements, kElements + 1, kElements + 7, 1000};
  for (uint32_t l = 48; l < 56; ++l)
    element[l] = past[(l - 48) % 4];
  for (uint32_t l = 56; l < 62; ++l)
    element[l] = 41 + (l - 56);
  return element;
}

// Each lane's address, source and compare values.
void setAtomicLanes(routes::DeviceCase& d, bool wide, CaseRng& rng) {
  const bool texel = d.binding == routes::Binding::StorageTexel;
  const uint32_t es = wide ? 8 : 4;
  const uint32_t shift = texel ? 0 : d.inst.offset / es;  // OFFSET moves every lane by this much
  const std::array<uint32_t, gcn::kWaveSize> element = laneElements();
  const auto memValue = [&](uint32_t e) {
    uint64_t x = 0;
    std::memcpy(&x, d.memory.bytes.data() + e * es, es);
    return x;
  };
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    const bool in = element[l] < kElements;
    // SSBO: VADDR + OFFSET addresses the element; past-the-end lanes start at or beyond
    // NUM_RECORDS whatever OFFSET adds.
    d.state.vgprMut(kCaseVaddr)[l] =
        texel ? element[l] : (in ? (element[l] - shift) * es : element[l] * es);
    const uint64_t src = rng() & (wide ? ~0ull : 0xffffffffull);
    uint64_t cmp = rng() & (wide ? ~0ull : 0xffffffffull);
    // CMPSWAP: distinct lanes succeed on even lanes; in a group the first and last lanes
    // compare with the initial value and the second with the first's source, so which lanes
    // succeed depends on the order.
    const uint32_t target = in ? element[l] : 0;
    if (in && l < 32 && l % 2 == 0) cmp = memValue(target);
    if (l >= 32 && l < 48) {
      const uint32_t pos = (l - 32) % 4;
      if (pos == 0 || pos == 3) cmp = memValue(target);
      if (pos == 1)
        cmp = d.state.vgpr(kCaseVdata)[l - 1] |
              (wide ? static_cast<uint64_t>(d.state.vgpr(kCaseVdata + 1)[l - 1]) << 32 : 0);
    }
    const unsigned w = wide ? 2 : 1;
    for (unsigned k = 0; k < w; ++k) {
      d.state.vgprMut(kCaseVdata + k)[l] = static_cast<uint32_t>(src >> (32 * k));
      d.state.vgprMut(kCaseVdata + w + k)[l] = static_cast<uint32_t>(cmp >> (32 * k));
    }
  }
}

// The case, or nothing when `want` does not take its name.
std::optional<judge::Case> makeCase(const CaseFilter& want, const gcn::Chip& chip,
                                    const gcn::OpcodeInfo& op, routes::Binding binding,
                                    uint16_t offset) {
  const bool texel = binding == routes::Binding::StorageTexel;
  const bool wide = op.wide;
  const uint32_t es = wide ? 8 : 4;
  judge::Case c;
  std::string m(op.mnemonic);
  c.name = "atomic." + std::string(texel ? "texel" : "ssbo") + "." + m.substr(7);
  // GLSL has no atomic subtract: the route adds the negated source (atomic.h).
  if (op.atomic == gcn::AtomicOp::Sub) c.name += ".via_add_neg";
  if (!texel) c.name += ".offset" + std::to_string(offset);
  if (!wanted(want, c.name)) return std::nullopt;
  c.suite = kAtomicSuite;
  c.tolerance = judge::ToleranceId::Exact;

  routes::DeviceCase& d = c.device;
  d.binding = binding;
  d.inst = caseInstruction(op);
  d.inst.glc = true;  // the pre-op value is returned and checked
  gcn::VSharp v;
  if (texel) {
    d.format = routes::atomicTexelFormat(op.atomic);
    d.inst.idxen = true;
    v = vk::makeTexelBufferVSharp(chip, kAtomicBase, kElements, d.format);
  } else {
    d.inst.offen = true;
    d.inst.offset = offset;
    v = routes::makeStorageBufferVSharp(chip.gen, kAtomicBase, kElements * es);
  }
  const auto words = gcn::encodeVSharp(chip.gen, v);
  gcn::setVsharpWords(d.state, kCaseSrsrc, words);
  CaseRng rng(seedOf(c.name));
  d.memory.base = kAtomicBase;
  d.memory.bytes.resize(kElements * es);
  for (uint8_t& b : d.memory.bytes)
    b = static_cast<uint8_t>(rng());
  d.state.exec = ~0ull & ~(3ull << 62);
  setAtomicLanes(d, wide, rng);
  return c;
}

}  // namespace

std::vector<judge::Case> atomicSuite(const gcn::Chip& chip, const CaseFilter& want) {
  static constexpr const char* kOps[] = {"swap", "cmpswap", "add", "sub", "smin", "umin",
                                         "smax", "umax",    "and", "or",  "xor"};
  std::vector<judge::Case> cases;
  for (const char* name : kOps) {
    for (const bool wide : {false, true}) {
      const std::string m = std::string("buffer_atomic_") + name + (wide ? "_x2" : "");
      const gcn::OpcodeInfo& op = gcn::requireOpcode(m);
      if (!gcn::existsOn(op, chip.gen)) continue;
      for (uint16_t o : {0, 16})
        addCase(cases, makeCase(want, chip, op, routes::Binding::StorageBuffer, o));
      if (!wide) addCase(cases, makeCase(want, chip, op, routes::Binding::StorageTexel, 0));
    }
  }
  return cases;
}

}  // namespace gcnprobe::cases
