#include "harness/explore/fuzz.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <random>

#include "harness/cases/suite.h"
#include "harness/formats.h"
#include "harness/isa/binary_patch.h"
#include "harness/routes/atomic.h"
#include "harness/routes/storage.h"
#include "reference/assembler.h"
#include "reference/error.h"
#include "reference/executor.h"
#include "reference/opcodes.h"
#include "reference/reach.h"
#include "reference/resource.h"
#include "reference/text.h"

namespace gcnprobe::explore {
namespace {

constexpr uint64_t kBase = 0x1000;

struct StorageLoad {
  const char* mnemonic;
  const char* vdata;
  unsigned bytes;
};
constexpr StorageLoad kStorageLoads[] = {{"buffer_load_ubyte", "v1", 1},
                                         {"buffer_load_ushort", "v1", 2},
                                         {"buffer_load_dword", "v1", 4},
                                         {"buffer_load_dwordx2", "v[1:2]", 8},
                                         {"buffer_load_dwordx4", "v[1:4]", 16}};
constexpr StorageLoad kStorageStores[] = {{"buffer_store_byte", "v1", 1},
                                          {"buffer_store_short", "v1", 2},
                                          {"buffer_store_dword", "v1", 4},
                                          {"buffer_store_dwordx2", "v[1:2]", 8},
                                          {"buffer_store_dwordx4", "v[1:4]", 16}};
constexpr unsigned kOffsets[] = {0, 4, 16, 20, 64};
// The atomics a GLSL SSBO atomic reaches (harness/routes/atomic.cpp), each also as _x2.
constexpr const char* kAtomics[] = {"swap", "cmpswap", "add", "sub", "smin", "umin",
                                    "smax", "umax",    "and", "or",  "xor"};

// An atomic's instruction OFFSET: a multiple of its element (4 or 8 bytes), which the SSBO
// atomic shader indexes (atomic_ssbo.comp).
template <typename Below>
unsigned atomicOffset(bool wide, Below& below) {
  return wide ? 16 * below(5) : kOffsets[below(std::size(kOffsets))];
}

// An SSBO atomic (OFFEN, GLC: the pre-op value returned) in assembler text.
std::string ssboAtomicText(const std::string& op, bool wide, unsigned offset) {
  const unsigned regs = (op == "cmpswap" ? 2 : 1) * (wide ? 2 : 1);
  return "buffer_atomic_" + op + (wide ? "_x2 " : " ") +
         (regs == 1 ? std::string("v1") : "v[1:" + std::to_string(regs) + "]") +
         ", v0, s[4:7], 0 offen" + (offset != 0 ? " offset:" + std::to_string(offset) : "") +
         " glc";
}

// `count` distinct values of [0, n) in random order (count <= n): stores from different lanes
// never write the same byte, which Vulkan leaves undefined (a data race between invocations).
template <typename Below>
std::vector<uint32_t> distinct(uint32_t n, unsigned count, Below& below) {
  std::vector<uint32_t> all(n);
  for (uint32_t i = 0; i < n; ++i)
    all[i] = i;
  for (unsigned i = 0; i < count; ++i)
    std::swap(all[i], all[i + below(n - i)]);
  all.resize(count);
  return all;
}

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// A value a shader stores into a float-converting format (UNORM, SNORM, FLOAT): mostly the
// interesting range of the normalised formats, sometimes values a 16/11/10-bit float overflows
// or cannot represent, edge values, or random finite bits. NaN is left out: Vulkan leaves the
// fixed-point conversion of NaN to the implementation.
template <typename Below>
uint32_t floatData(Below& below) {
  const unsigned r = below(16);
  if (r < 7) return floatBits(static_cast<float>(static_cast<int>(below(2001)) - 1000) / 800.0f);
  if (r < 9) return floatBits(static_cast<float>(below(256)) / 255.0f);
  if (r < 11)
    return floatBits(static_cast<float>(static_cast<int>(below(140001)) - 70000) +
                     static_cast<float>(below(8)) / 8.0f);
  if (r < 13) {
    static constexpr float kEdges[] = {0.0f,     -0.0f, 1.0f,   -1.0f,  0.5f,  65504.0f,
                                       65520.0f, 1e-8f, 6e-5f,  -1e-8f, 1e30f, -1e30f,
                                       2.0f,     -2.0f, 0.999f, 1.001f};
    return floatBits(kEdges[below(std::size(kEdges))]);
  }
  uint32_t u = below(0xffffffffu) + below(2);
  if (((u >> 23) & 0xffu) == 0xffu) u &= ~(1u << 30);  // finite: no Inf or NaN bits
  return u;
}

// A value a shader stores into an integer format (UINT, SINT): random, small, or a boundary
// of the 8/10/16-bit fields (the int-store point: clamp or wrap).
template <typename Below>
uint32_t intData(Below& below) {
  const unsigned r = below(16);
  if (r < 8) return below(0xffffffffu) + below(2);
  if (r < 12) return static_cast<uint32_t>(static_cast<int>(below(601)) - 300);
  static constexpr uint32_t kEdges[] = {
      0u,          1u,          127u,        128u,        255u,        256u,       511u,
      1023u,       1024u,       32767u,      32768u,      65535u,      65536u,     0x7fffffffu,
      0x80000000u, 0xffffffffu, 0xffffff80u, 0xffffff7fu, 0xffff8000u, 0xfffffe00u};
  return kEdges[below(std::size(kEdges))];
}

std::vector<const vk::BufferFormat*> texelFormats() {
  std::vector<const vk::BufferFormat*> out;
  for (const vk::BufferFormat& f : vk::allBufferFormats())
    if (f.texel && f.dfmt != gcn::Dfmt::Invalid && !f.srgb &&
        texelModel(f) == vk::TexelModel::SingleLoad)
      out.push_back(&f);
  return out;
}

// Whether case `number` of `seed` is a raw-V# case (one in four), drawn apart from the case's
// own stream so that every other case is the same with raw V#s on or off.
bool rawDraw(uint64_t seed, uint64_t number) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ull + number + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return ((z ^ (z >> 31)) & 3u) == 0;
}

// A V# no driver builds for the raw V# route (harness/routes/raw.h): random DATA_FORMAT,
// NUM_FORMAT, DST_SEL, STRIDE and NUM_RECORDS, sometimes swizzled or with ADD_TID. Small
// enough that every reach stays far inside the raw placement's bound.
template <typename Below>
gcn::VSharp randomRawVSharp(gcn::Gen gen, bool typed, Below& below) {
  gcn::VSharp v;
  v.base = kBase;
  static constexpr uint16_t kStrides[] = {0, 1, 2, 4, 8, 12, 16, 20, 32};
  v.stride =
      below(4) == 0 ? static_cast<uint16_t>(1 + below(64)) : kStrides[below(std::size(kStrides))];
  if (!typed && v.stride == 0) v.stride = 4;  // IDXEN with STRIDE 0 reads one element
  v.numRecords = below(4) == 0 ? below(8) : 1 + below(256);
  v.dataFormat = static_cast<gcn::Dfmt>(1 + below(14));
  v.numFormat = static_cast<gcn::Nfmt>(below(8));
  for (gcn::DstSel& d : v.dstSel)
    d = static_cast<gcn::DstSel>(below(8));
  if (below(6) == 0) {
    v.swizzleEnable = true;
    v.indexStride = static_cast<uint8_t>(below(4));
    if (gen != gcn::Gen::Gfx9) v.elementSize = static_cast<uint8_t>(below(4));
  }
  // On GFX8/9 a MUBUF access with ADD_TID reads DATA_FORMAT as STRIDE[17:14] (resource.h
  // accessVSharp): with a real data format every lane would sit 16 KiB or more apart, far past
  // the raw placement's bound, so ADD_TID is drawn on GFX6/7 only.
  v.addTidEnable = (gen == gcn::Gen::Gfx6 || gen == gcn::Gen::Gfx7) && below(6) == 0;
  return v;
}

// Bytes a raw store's or atomic's image may grow to, so that every byte a kept lane may write
// is inside it (the device's result then shows every write).
constexpr uint64_t kRawWriteImageBytes = 16384;

// The lanes of a raw store or atomic whose bytes meet an earlier lane's are dropped: the order
// of two lanes' writes (or atomics) to one place is the device's. So are lanes that may write
// past kRawWriteImageBytes. A lane's bytes are its reach alone (reference/reach.h: under every
// modelled policy, so with swizzling, ADD_TID and range checks as any of them has it). Kept
// lanes stay a prefix, so each keeps its lane id, on which an ADD_TID address depends. The
// image then grows (random words) to cover every kept lane's bytes.
template <typename Rng>
void keepOrderFreeLanes(gcn::Gen gen, FuzzCase& c, Rng& rng) {
  const gcn::Chip& chip = gcn::representativeChip(gen);
  const gcn::Instruction inst = gcn::parseInstruction(gen, c.inst);
  gcn::WaveState state;
  gcn::setVsharpWords(state, 4,
                      {c.vsharpWords[0], c.vsharpWords[1], c.vsharpWords[2], c.vsharpWords[3]});
  std::vector<gcn::ByteRange> taken;
  const auto free = [&](const gcn::ByteRange& r) {
    if (r.begin < kBase || r.end > kBase + kRawWriteImageBytes) return false;
    for (const gcn::ByteRange& t : taken)
      if (r.begin < t.end && t.begin < r.end) return false;
    return true;
  };
  FuzzCase kept = c;
  kept.v0.clear();
  for (std::vector<uint32_t>& reg : kept.data)
    reg.clear();
  uint64_t end = kBase + c.memoryBytes;
  for (std::size_t l = 0; l < c.v0.size(); ++l) {
    const unsigned lane = static_cast<unsigned>(kept.v0.size());
    state.vgprMut(0)[lane] = c.v0[l];
    for (std::size_t k = 0; k < c.data.size(); ++k)
      state.vgprMut(static_cast<unsigned>(1 + k))[lane] = c.data[k][l];
    state.exec = uint64_t{1} << lane;
    const gcn::Reach reach = gcn::computeReach(chip, inst, state);
    if (!std::all_of(reach.ranges.begin(), reach.ranges.end(), free)) continue;
    taken.insert(taken.end(), reach.ranges.begin(), reach.ranges.end());
    if (const std::optional<gcn::ByteRange> span = reach.span()) end = std::max(end, span->end);
    kept.v0.push_back(c.v0[l]);
    for (std::size_t k = 0; k < c.data.size(); ++k)
      kept.data[k].push_back(c.data[k][l]);
  }
  kept.memoryBytes = (end - kBase + 3) / 4 * 4;
  while (kept.memory.size() < kept.memoryBytes / 4)
    kept.memory.push_back(static_cast<uint32_t>(rng()));
  c = std::move(kept);
}

// Store data for a raw V#'s random format: any bits (NaN and Inf included: the GCN reference
// models their conversion), values in the float formats' interesting ranges, integer edges.
template <typename Below>
uint32_t rawStoreData(Below& below) {
  const unsigned r = below(3);
  return r == 0 ? below(0xffffffffu) + below(2) : r == 1 ? floatData(below) : intData(below);
}

// A binary-route case (harness/isa/binary_route.h): any MUBUF/MTBUF opcode of the generation
// but the cache and LDS ones and gfx8.0's unpacked D16 loads of 3-4 registers (no template
// presets and returns 3-4 registers), through a random V#, in a form a compiled template hosts:
// OFFEN with VADDR a multiple of the template's access, IDXEN (loads and stores), or no VADDR; any
// OFFSET; GLC and SLC; TFE on loads whose registers leave room; MTBUF's format random; VDATA
// preset (the halves a D16 load keeps are the case's own).
template <typename Below>
void binaryCase(gcn::Gen gen, FuzzCase& c, unsigned lanes, Below& below) {
  const gcn::Chip& chip = gcn::representativeChip(gen);
  std::vector<const gcn::OpcodeInfo*> ops;
  for (const gcn::OpcodeInfo& op : gcn::allOpcodes()) {
    if (!gcn::existsOn(op, gen) || op.kind == gcn::OpKind::Cache || op.ldsData) continue;
    // Unpacked D16 loads of 3-4 registers: no template presets and returns that many.
    if (isa::writesHalfRegisters(chip, op) &&
        gcn::vdataRegs(op, chip, false) > isa::kAtomicTemplateReturned)
      continue;
    ops.push_back(&op);
  }
  const gcn::OpcodeInfo& op = *ops[below(ops.size())];
  const bool atomic = op.kind == gcn::OpKind::Atomic;
  const bool load = op.kind == gcn::OpKind::Load || op.kind == gcn::OpKind::LoadFormat;
  // Atomics and loads that write half registers run in the atomic template (OFFEN).
  const bool atomicTemplate = atomic || isa::writesHalfRegisters(chip, op);
  gcn::Instruction in = cases::caseInstruction(op);
  const unsigned form = atomicTemplate ? 0 : below(4);
  in.offen = form < 2;
  in.idxen = form == 2;
  in.offset = static_cast<uint16_t>(below(4) == 0 ? 0 : below(4096));
  in.glc = atomic ? below(4) != 0 : below(3) == 0;
  in.slc = below(3) == 0;
  const unsigned room = atomicTemplate ? isa::kAtomicTemplateReturned : 4;
  in.tfe = load && below(6) == 0 && gcn::vdataRegs(op, chip, true) <= room;
  if (op.encoding == gcn::Encoding::Mtbuf) {
    in.dfmt = static_cast<gcn::Dfmt>(1 + below(14));
    in.nfmt = static_cast<gcn::Nfmt>(below(8));
  }
  const gcn::VSharp v = randomRawVSharp(gen, !in.idxen, below);
  c.kind = "binary";
  c.inst = gcn::printInstruction(gen, in);
  const unsigned step = atomicTemplate ? 8 : 16;  // the template's access (binary_patch.h)
  const uint32_t slots = static_cast<uint32_t>(c.memoryBytes / step) + 4;
  for (unsigned l = 0; l < lanes; ++l)
    c.v0.push_back(in.idxen ? below(v.numRecords + 4) : in.offen ? below(slots) * step : 0);
  c.data.assign(gcn::vdataRegs(op, chip, in.tfe), {});
  for (std::vector<uint32_t>& reg : c.data)
    for (unsigned l = 0; l < lanes; ++l)
      reg.push_back(atomic && below(2) == 0 ? static_cast<uint32_t>(static_cast<int>(below(17)) - 8)
                                            : rawStoreData(below));
  const std::array<uint32_t, 4> w = gcn::encodeVSharp(gen, v);
  c.vsharpWords.assign(w.begin(), w.end());
}

// A raw-V# case through the unchanged lane shaders with a V# no driver builds: a format load or
// store through a texel-buffer lane shader (IDXEN, OFFSET 0), a typed load or store through an
// SSBO lane shader (OFFEN, a random OFFSET), or an atomic through the SSBO atomic lane shader
// (OFFEN, GLC). Stores and atomics keep only lanes whose bytes no earlier lane touches, inside
// an image that covers them (keepOrderFreeLanes).
template <typename Rng, typename Below>
FuzzCase rawCase(gcn::Gen gen, FuzzCase c, unsigned lanes, Rng& rng, Below& below) {
  const unsigned form = below(10);
  // The image: the first elements or bytes of the buffer; what lies past it is unmapped for
  // the reference and guard bytes on the device.
  c.memoryBytes = 4 * (1 + below(96));
  if (form >= 8) {
    binaryCase(gen, c, lanes, below);
    for (uint64_t i = 0; i < c.memoryBytes / 4; ++i)
      c.memory.push_back(static_cast<uint32_t>(rng()));
    const gcn::OpKind k = fuzzOpcode(c).kind;
    if (k != gcn::OpKind::Load && k != gcn::OpKind::LoadFormat) keepOrderFreeLanes(gen, c, rng);
    return c;
  }
  const bool store = form == 6;
  const bool atomic = form == 7;
  const bool texel = form < 3 || (store && below(2) == 0);
  const gcn::VSharp v = randomRawVSharp(gen, !texel, below);
  if (atomic) {
    const std::string op = kAtomics[below(std::size(kAtomics))];
    const bool wide = below(4) == 0;
    const bool cmpswap = op == "cmpswap";
    const unsigned offset = atomicOffset(wide, below);
    const unsigned regs = (cmpswap ? 2 : 1) * (wide ? 2 : 1);
    c.kind = "raw-atomic";
    c.inst = ssboAtomicText(op, wide, offset);
    const unsigned es = wide ? 8 : 4;
    const uint32_t slots = static_cast<uint32_t>(c.memoryBytes / es) + 4;
    for (uint32_t slot : distinct(slots, std::min(lanes, slots), below))
      c.v0.push_back(slot * es);
    c.data.assign(regs, {});
    for (std::vector<uint32_t>& reg : c.data)
      for (std::size_t l = 0; l < c.v0.size(); ++l)
        reg.push_back(below(2) == 0 ? below(0xffffffffu) + below(2)
                                    : static_cast<uint32_t>(static_cast<int>(below(17)) - 8));
  } else if (!texel) {
    const StorageLoad& s = store ? kStorageStores[below(std::size(kStorageStores))]
                                 : kStorageLoads[below(std::size(kStorageLoads))];
    const unsigned offset = kOffsets[below(std::size(kOffsets))];
    c.kind = store ? "raw-storage-store" : "raw-storage";
    c.inst = std::string(s.mnemonic) + " " + s.vdata + ", v0, s[4:7], 0 offen" +
             (offset != 0 ? " offset:" + std::to_string(offset) : "");
    // Offsets aligned to the lane shader's element (min(size, 4)), some past the image.
    const unsigned es = std::min(s.bytes, 4u);
    const uint32_t slots = static_cast<uint32_t>(c.memoryBytes / es) + 4;
    for (unsigned l = 0; l < lanes; ++l)
      c.v0.push_back(below(slots) * es);
    if (store) {
      c.data.assign(std::max(1u, s.bytes / 4), {});
      for (std::vector<uint32_t>& reg : c.data)
        for (unsigned l = 0; l < lanes; ++l)
          reg.push_back(below(0xffffffffu) + below(2));
    }
  } else {
    c.kind = store ? "raw-texel-store" : "raw-texel";
    c.inst = store ? "buffer_store_format_xyzw v[1:4], v0, s[4:7], 0 idxen"
                   : "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen";
    for (unsigned l = 0; l < lanes; ++l)  // indices around NUM_RECORDS
      c.v0.push_back(below(v.numRecords + 4));
    if (store) {
      c.data.assign(4, {});
      for (std::vector<uint32_t>& reg : c.data)
        for (unsigned l = 0; l < lanes; ++l)
          reg.push_back(rawStoreData(below));
    }
  }
  const std::array<uint32_t, 4> w = gcn::encodeVSharp(gen, v);
  c.vsharpWords.assign(w.begin(), w.end());
  for (uint64_t i = 0; i < c.memoryBytes / 4; ++i)
    c.memory.push_back(static_cast<uint32_t>(rng()));
  if (store || atomic) keepOrderFreeLanes(gen, c, rng);
  return c;
}

// The case makers below draw from `rng` (through `below`) in a fixed order: a seed's cases stay
// the same only while that order does.

// A texel-buffer atomic (imageAtomic* on an R32 storage texel buffer): IDXEN, GLC, each lane on
// an element of its own, a few past the end. Fills the memory.
template <typename Below>
gcn::VSharp texelAtomicCase(const gcn::Chip& chip, FuzzCase& c, unsigned lanes,
                            std::mt19937_64& rng, Below& below) {
  const std::string op = kAtomics[below(std::size(kAtomics))];
  const bool cmpswap = op == "cmpswap";
  const gcn::AtomicOp aop = gcn::findOpcode("buffer_atomic_" + op)->atomic;
  const VkFormat format = routes::atomicTexelFormat(aop);
  const uint32_t elements = 1 + below(32);
  c.kind = "texel-atomic";
  c.format = vk::vkFormatName(format);
  c.inst = "buffer_atomic_" + op + (cmpswap ? " v[1:2]" : " v1") + ", v0, s[4:7], 0 idxen glc";
  const gcn::VSharp v = vk::makeTexelBufferVSharp(chip, kBase, elements, format);
  c.memoryBytes = uint64_t{elements} * 4;
  for (uint64_t i = 0; i < elements; ++i)
    c.memory.push_back(static_cast<uint32_t>(rng()));
  lanes = std::min(lanes, elements + 2);
  c.v0 = distinct(elements + 2, lanes, below);
  c.data.assign(cmpswap ? 2 : 1, {});
  for (unsigned l = 0; l < lanes; ++l) {
    c.data[0].push_back(below(2) == 0 ? below(0xffffffffu) + below(2)
                                      : static_cast<uint32_t>(static_cast<int>(below(17)) - 8));
    if (cmpswap)
      c.data[1].push_back(below(2) == 0 && c.v0[l] < elements ? c.memory[c.v0[l]]
                                                              : below(0xffffffffu) + below(2));
  }
  return v;
}

// An atomic with the pre-op value returned (GLC), each lane on a slot of its own (the order of
// two lanes' atomics on one place is the device's), a few past the end. Fills the memory.
template <typename Below>
gcn::VSharp storageAtomicCase(FuzzCase& c, unsigned lanes, std::mt19937_64& rng, Below& below) {
  const std::string op = kAtomics[below(std::size(kAtomics))];
  const bool wide = below(4) == 0;
  const bool cmpswap = op == "cmpswap";
  const unsigned es = wide ? 8 : 4;
  const unsigned offset = atomicOffset(wide, below);
  const uint32_t range = es * (1 + below(32));
  const unsigned regs = (cmpswap ? 2 : 1) * (wide ? 2 : 1);
  c.kind = "storage-atomic";
  c.inst = ssboAtomicText(op, wide, offset);
  const gcn::VSharp v = routes::makeStorageBufferVSharp(kBase, range);
  c.memoryBytes = range;
  for (uint64_t i = 0; i < c.memoryBytes / 4; ++i)
    c.memory.push_back(static_cast<uint32_t>(rng()));
  const uint32_t slots = range / es + 2;
  lanes = std::min(lanes, slots);
  for (uint32_t slot : distinct(slots, lanes, below))
    c.v0.push_back(slot * es);
  c.data.assign(regs, {});
  for (unsigned l = 0; l < lanes; ++l) {
    // Source: random, or small signed values (the min/max orders differ there).
    for (unsigned k = 0; k < (wide ? 2u : 1u); ++k)
      c.data[k].push_back(below(2) == 0 ? below(0xffffffffu) + below(2)
                                        : static_cast<uint32_t>(static_cast<int>(below(17)) - 8));
    if (!cmpswap) continue;
    // Compare: the memory's own value on about half the lanes, so that some swaps happen.
    const uint64_t at = uint64_t{c.v0[l]} + offset;
    for (unsigned k = 0; k < (wide ? 2u : 1u); ++k) {
      const uint64_t word = at / 4 + k;
      c.data[(wide ? 2 : 1) + k].push_back(
          below(2) == 0 && word < c.memory.size() ? c.memory[word] : below(0xffffffffu) + below(2));
    }
  }
  return v;
}

// Texel loads and stores through the V# of a random format's view. The memory is left to fill.
template <typename Below>
gcn::VSharp texelCase(const gcn::Chip& chip, FuzzCase& c, unsigned lanes, bool store,
                      Below& below) {
  static const std::vector<const vk::BufferFormat*> formats = texelFormats();
  const vk::BufferFormat& f = *formats[below(formats.size())];
  const uint32_t elements = 1 + below(64);
  c.kind = store ? "texel-store" : "texel";
  c.format = std::string(f.name);
  c.inst = store ? "buffer_store_format_xyzw v[1:4], v0, s[4:7], 0 idxen"
                 : "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen";
  const gcn::VSharp v = vk::makeTexelBufferVSharp(chip, kBase, elements, f.vk);
  c.memoryBytes = (static_cast<uint64_t>(elements) * f.stride + 3) / 4 * 4;
  if (!store) {
    for (unsigned l = 0; l < lanes; ++l)  // about one in eight past the end
      c.v0.push_back(below(8) == 0 ? elements + below(4) : below(elements));
    return v;
  }
  // Distinct elements, up to three past the end.
  lanes = std::min(lanes, elements + 3);
  c.v0 = distinct(elements + 3, lanes, below);
  const bool integer = f.nfmt == gcn::Nfmt::Uint || f.nfmt == gcn::Nfmt::Sint;
  c.data.assign(4, {});
  for (unsigned k = 0; k < 4; ++k)
    for (unsigned l = 0; l < lanes; ++l)
      c.data[k].push_back(integer ? intData(below) : floatData(below));
  return v;
}

// Storage-buffer loads and stores (OFFEN, a random OFFSET). The memory is left to fill.
template <typename Below>
gcn::VSharp storageCase(FuzzCase& c, unsigned lanes, bool store, Below& below) {
  const StorageLoad& s = store ? kStorageStores[below(std::size(kStorageStores))]
                               : kStorageLoads[below(std::size(kStorageLoads))];
  const unsigned offset = kOffsets[below(std::size(kOffsets))];
  const uint32_t range = 4 * (1 + below(64));
  c.kind = store ? "storage-store" : "storage";
  c.inst = std::string(s.mnemonic) + " " + s.vdata + ", v0, s[4:7], 0 offen" +
           (offset != 0 ? " offset:" + std::to_string(offset) : "");
  const gcn::VSharp v = routes::makeStorageBufferVSharp(kBase, range);
  c.memoryBytes = range;
  const uint32_t slots = range / s.bytes + 2;  // a few past the end
  if (!store) {
    for (unsigned l = 0; l < lanes; ++l)
      c.v0.push_back(below(slots) * s.bytes);
    return v;
  }
  lanes = std::min(lanes, slots);
  for (uint32_t slot : distinct(slots, lanes, below))
    c.v0.push_back(slot * s.bytes);
  c.data.assign(std::max(1u, s.bytes / 4), {});
  for (std::vector<uint32_t>& reg : c.data)
    for (unsigned l = 0; l < lanes; ++l)
      reg.push_back(below(0xffffffffu) + below(2));
  return v;
}

}  // namespace

FuzzCase makeFuzzCase(gcn::Gen gen, uint64_t seed, uint64_t number, bool rawVsharps) {
  // One stream per case: case n does not depend on the cases before it.
  std::seed_seq sq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                   static_cast<uint32_t>(number), static_cast<uint32_t>(number >> 32)};
  std::mt19937_64 rng(sq);
  const auto below = [&](uint64_t n) { return static_cast<uint32_t>(rng() % n); };
  const gcn::Chip& chip = gcn::representativeChip(gen);
  FuzzCase c;
  c.seed = seed;
  c.number = number;
  const unsigned lanes = 1 + below(64);
  // A raw store or atomic may keep no lane (keepOrderFreeLanes): then another raw case.
  while (rawVsharps && rawDraw(seed, number))
    if (FuzzCase r = rawCase(gen, c, lanes, rng, below); !r.v0.empty()) return r;
  const unsigned kind = below(20);
  const bool atomic = kind >= 18;
  const bool texelAtomic = atomic && below(3) == 0;
  const gcn::VSharp v = texelAtomic ? texelAtomicCase(chip, c, lanes, rng, below)
                        : atomic    ? storageAtomicCase(c, lanes, rng, below)
                        : kind < 11 ? texelCase(chip, c, lanes, /*store=*/kind >= 8, below)
                                    : storageCase(c, lanes, /*store=*/kind >= 15, below);
  const std::array<uint32_t, 4> w = gcn::encodeVSharp(gen, v);
  c.vsharpWords.assign(w.begin(), w.end());
  if (!atomic)
    for (uint64_t i = 0; i < c.memoryBytes / 4; ++i)
      c.memory.push_back(static_cast<uint32_t>(rng()));
  return c;
}

const gcn::OpcodeInfo& fuzzOpcode(const FuzzCase& c) {
  return gcn::requireOpcode(c.inst.substr(0, c.inst.find(' ')));
}

std::string fuzzProbeText(gcn::Gen gen, const FuzzCase& c, const std::string& finding) {
  std::string t;
  t += "# gcnprobe fuzz --seed " + std::to_string(c.seed) + ": case " + std::to_string(c.number) +
       " (" + c.kind + (c.format.empty() ? "" : ", " + c.format) + "), minimised to " +
       std::to_string(c.v0.size()) + " lane(s).\n";
  if (!finding.empty()) t += "# The device differed from the reference: " + finding + "\n";
  const gcn::OpKind kind = fuzzOpcode(c).kind;
  const bool atomic = kind == gcn::OpKind::Atomic;
  const bool store = kind == gcn::OpKind::Store || kind == gcn::OpKind::StoreFormat;
  t += "question = Does the device " +
       std::string(atomic  ? "do"
                   : store ? "store"
                           : "load") +
       " what the reference predicts for this random " + c.kind + " case?\n";
  t += "source = gcnprobe fuzz (harness/explore/fuzz.h): a random " +
       std::string(c.kind.rfind("raw-", 0) == 0 ? "raw-V# case"
                   : c.kind == "binary"         ? "binary-route case with a raw V#"
                                                : "Vulkan-legal case") +
       "\n";
  t += "gen = " + std::string(gcn::genName(gen)) + "\n";
  t += "inst = " + c.inst + "\n";
  t += "vsharp words = ";
  for (std::size_t i = 0; i < c.vsharpWords.size(); ++i)
    t += (i ? ", " : "") + gcn::hexNumber(c.vsharpWords[i]);
  t += "\nmemory base = " + gcn::hexNumber(kBase) + "\n";
  t += "memory size = " + std::to_string(c.memoryBytes) + "\n";
  t += "lanes = " + std::to_string(c.v0.size()) + "\n";
  t += "v0 = ";
  for (std::size_t i = 0; i < c.v0.size(); ++i)
    t += (i ? ", " : "") + std::to_string(c.v0[i]);
  t += "\n";
  for (std::size_t k = 0; k < c.data.size(); ++k) {
    // Appended piece by piece: "v" + std::to_string(...) here trips a false -Wrestrict
    // warning of GCC 12's std::string in a Release build.
    t += 'v';
    t += std::to_string(k + 1);
    t += " = ";
    for (std::size_t i = 0; i < c.data[k].size(); ++i)
      t += (i ? ", " : "") + gcn::hexNumber(c.data[k][i]);
    t += "\n";
  }
  if (!c.memory.empty()) {
    t += "mem @0 u32 = ";
    for (std::size_t i = 0; i < c.memory.size(); ++i)
      t += (i ? ", " : "") + gcn::hexNumber(c.memory[i]);
    t += "\n";
  }
  return t;
}

FuzzCase keepLanes(const FuzzCase& c, const std::vector<unsigned>& lanes) {
  FuzzCase out = c;
  out.v0.clear();
  for (std::vector<uint32_t>& reg : out.data)
    reg.clear();
  for (unsigned l : lanes) {
    if (l >= c.v0.size()) throw gcn::Error("fuzz: lane " + std::to_string(l) + " out of range");
    out.v0.push_back(c.v0[l]);
    for (std::size_t k = 0; k < c.data.size(); ++k)
      out.data[k].push_back(c.data[k].at(l));
  }
  return out;
}

Simplified zeroUnneeded(const FuzzCase& c, const std::function<bool(const FuzzCase&)>& fails) {
  Simplified out{c, 0, 0, 0};
  FuzzCase& cur = out.c;
  const auto attempt = [&](FuzzCase& candidate) {
    ++out.tries;
    if (!fails(candidate)) return false;
    cur = std::move(candidate);
    return true;
  };
  const std::size_t words = cur.memory.size();
  // The whole memory first (often none of it matters), then halves, quarters, ... words.
  for (std::size_t block = words; words > 0; block = std::max<std::size_t>(block / 2, 1)) {
    for (std::size_t at = 0; at < words; at += block) {
      const std::size_t end = std::min(words, at + block);
      bool any = false;
      for (std::size_t i = at; i < end; ++i)
        any = any || cur.memory[i] != 0;
      if (!any) continue;
      FuzzCase candidate = cur;
      std::fill(candidate.memory.begin() + static_cast<std::ptrdiff_t>(at),
                candidate.memory.begin() + static_cast<std::ptrdiff_t>(end), 0u);
      attempt(candidate);
    }
    if (block == 1) break;
  }
  for (std::size_t k = 0; k < cur.data.size(); ++k)
    for (std::size_t l = 0; l < cur.data[k].size(); ++l) {
      if (cur.data[k][l] == 0) continue;
      FuzzCase candidate = cur;
      candidate.data[k][l] = 0;
      attempt(candidate);
    }
  for (uint32_t w : cur.memory)
    out.memoryWordsLeft += w != 0;
  for (const std::vector<uint32_t>& reg : cur.data)
    for (uint32_t v : reg)
      out.dataValuesLeft += v != 0;
  return out;
}

}  // namespace gcnprobe::explore
