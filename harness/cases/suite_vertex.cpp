// The vertex suite (suite.h): every table format that has a vertex fetch instruction
// (routes::vertexFetchOpcode: TBUFFER_LOAD_FORMAT_* for 8/16-bit and packed formats,
// BUFFER_LOAD_DWORD* for 32-bit channels), each twice: a tightly packed binding (STRIDE =
// element size, OFFSET 0, the buffer ends after the last vertex) and an attribute inside a
// larger vertex (OFFSET 4, STRIDE = size rounded up to 4 plus 8) whose buffer ends one byte
// before the end of vertex n's attribute, so that vertex straddles the end. Lanes: every
// vertex in range, the last again, then past the end (n, n+1, n+7, 2n, 1000, 0xffff and
// 0xffffff: at most 2^24 - 1, Vulkan's minimum maxDrawIndexedIndexValue), seeded in-range
// vertices, and two inactive lanes.
#include <cctype>

#include "harness/cases/pattern.h"
#include "harness/cases/suite.h"
#include "harness/routes/vertex.h"
#include "reference/error.h"
#include "reference/format.h"
#include "reference/text.h"

namespace gcnprobe::cases {
namespace {

constexpr uint64_t kVertexBase = 0x300000;  // any 48-bit address: the V# base of the binding
constexpr uint32_t kVertices = 40;          // vertices wholly inside the binding

struct Layout {
  std::string name;
  uint32_t stride, offset, bytes;
};

// The case, or nothing when `want` does not take its name.
std::optional<judge::Case> makeCase(const CaseFilter& want, const gcn::Chip& chip,
                                    const vk::BufferFormat& f, const gcn::OpcodeInfo& op,
                                    const Layout& lay) {
  judge::Case c;
  const std::string fmt = gcn::asciiLower(f.name.substr(10));  // without "VK_FORMAT_"
  c.name = "vertex." + fmt + "." + std::string(op.mnemonic) + "." + lay.name;
  if (!wanted(want, c.name)) return std::nullopt;
  c.suite = kVertexSuite;
  const bool norm = f.nfmt == gcn::Nfmt::Unorm || f.nfmt == gcn::Nfmt::Snorm;
  // Same reasons as the texel loads (tolerance.cpp): Vulkan's normalized conversion states
  // no rounding; float formats' NaN payloads and denormals are not specified for fetches.
  c.tolerance = norm ? judge::ToleranceId::Norm1Ulp
                     : (f.nfmt == gcn::Nfmt::Float ? judge::ToleranceId::PortableTexel
                                                   : judge::ToleranceId::Exact);

  routes::DeviceCase& d = c.device;
  d.binding = routes::Binding::VertexAttribute;
  d.format = f.vk;
  d.inst = caseInstruction(op);
  d.inst.idxen = true;
  d.inst.offset = static_cast<uint16_t>(lay.offset);
  if (op.encoding == gcn::Encoding::Mtbuf && gcn::isRdna(chip.gen)) {
    // RDNA: the pair's unified FORMAT (reference/format.h); a pair with none has no fetch.
    const gcn::UnifiedFormat* u = gcn::findUnifiedFormat(chip.gen, f.dfmt, f.nfmt);
    if (u == nullptr) {
      c.broken = std::string(f.name) + ": " + std::string(gcn::dfmtName(f.dfmt)) + " " +
                 std::string(gcn::nfmtName(f.nfmt, chip.gen)) + " has no " +
                 std::string(gcn::genName(chip.gen)) + " buffer format";
      return c;
    }
    d.inst.format = u->code;
  } else if (op.encoding == gcn::Encoding::Mtbuf) {
    d.inst.dfmt = f.dfmt;
    d.inst.nfmt = f.nfmt;
  }
  const gcn::VSharp v = routes::makeVertexBufferVSharp(chip.gen, kVertexBase, lay.bytes, lay.stride,
                                                       lay.offset, f.vk);
  const auto words = gcn::encodeVSharp(chip.gen, v);
  gcn::setVsharpWords(d.state, kCaseSrsrc, words);

  // Memory: element e of the format's pattern at e * stride + offset (the straddling vertex
  // n cut where the buffer ends), seeded bytes between attributes so a wrong STRIDE or
  // OFFSET reads something else.
  const uint64_t seed = seedOf(c.name);
  CaseRng rng(seed);
  d.memory.base = kVertexBase;
  d.memory.bytes.resize(lay.bytes);
  for (uint8_t& b : d.memory.bytes)
    b = static_cast<uint8_t>(rng());
  const std::vector<uint8_t> elems = patternMemory(f.dfmt, f.nfmt, kVertices + 1, seed);
  for (uint32_t e = 0; e <= kVertices; ++e)
    for (uint32_t k = 0; k < f.stride; ++k) {
      const uint64_t at = uint64_t{e} * lay.stride + lay.offset + k;
      if (at < lay.bytes) d.memory.bytes[at] = elems[e * f.stride + k];
    }

  const uint32_t n = kVertices;
  std::array<uint32_t, gcn::kWaveSize> idx{};
  for (uint32_t l = 0; l < n; ++l)
    idx[l] = l;
  const uint32_t tail[] = {n - 1, n, n + 1, n + 7, 2 * n, 1000, 0xffff, 0xffffff};
  for (uint32_t i = 0; i < 8; ++i)
    idx[n + i] = tail[i];
  for (uint32_t l = n + 8; l < gcn::kWaveSize; ++l)
    idx[l] = static_cast<uint32_t>(rng() % n);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l)
    d.state.vgprMut(kCaseVaddr)[l] = idx[l];
  d.state.exec = ~0ull & ~(3ull << 62);
  return c;
}

}  // namespace

std::vector<judge::Case> vertexSuite(const gcn::Chip& chip, const CaseFilter& want) {
  std::vector<judge::Case> cases;
  for (const vk::BufferFormat& f : vk::allBufferFormats()) {
    const gcn::OpcodeInfo* op = routes::vertexFetchOpcode(f);
    if (op == nullptr) continue;
    const uint32_t size = f.stride;
    const uint32_t wide = ((size + 3) & ~3u) + 8;
    const Layout layouts[] = {
        {"packed", size, 0, kVertices * size},
        {"offset4_straddle", wide, 4, kVertices * wide + 4 + size - 1},
    };
    for (const Layout& lay : layouts)
      addCase(cases, makeCase(want, chip, f, *op, lay));
  }
  return cases;
}

}  // namespace gcnprobe::cases
