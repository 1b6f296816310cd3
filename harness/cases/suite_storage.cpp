// The storage suite (suite.h): BUFFER_LOAD_{UBYTE,SBYTE,USHORT,SSHORT,DWORD,DWORDX2..4} and
// BUFFER_STORE_{BYTE,SHORT,DWORD,DWORDX2..4} through an SSBO with RADV's V#
// (routes::makeStorageBufferVSharp), OFFEN per-lane byte offsets, OFFSET 0 and a constant
// OFFSET, and lanes at, across and past the end of the buffer (robustness on).

#include "harness/cases/pattern.h"
#include "harness/cases/suite.h"
#include "harness/routes/storage.h"
#include "reference/error.h"

namespace gcnprobe::cases {
namespace {

constexpr uint64_t kStorageBase = 0x200000;  // any 48-bit address: the V# base of the SSBO
constexpr uint16_t kOffsets[] = {0, 20};     // OFFSET field values (multiples of 4: every op)

const gcn::OpcodeInfo& opcode(std::string_view mnemonic) {
  return gcn::requireOpcode(mnemonic);
}

// Bytes of the buffer: room for 48 distinct store lanes plus the straddling ones.
uint32_t bufferBytes(uint32_t s) {
  return std::max<uint32_t>(256, (56 * s + 32 + 3) & ~3u);
}

// The case, or nothing when `want` does not take its name.
std::optional<judge::Case> makeCase(const CaseFilter& want, const gcn::Chip& chip,
                                    const gcn::OpcodeInfo& op, uint16_t offset) {
  (void)chip;  // the SSBO V# is the same on GFX6-9 (storage.h)
  judge::Case c;
  std::string m(op.mnemonic);
  c.name = "storage." + m.substr(7) + ".offset" + std::to_string(offset);
  // SBYTE/SSHORT: what a GLSL int8_t/int16_t SSBO load means; RADV emits UBYTE/USHORT plus a
  // sign extension (docs/platform.md): the name says how the case reaches the device.
  if (op.signExtend) c.name += ".via_int" + std::to_string(op.memBytes * 8) + "_load";
  if (!wanted(want, c.name)) return std::nullopt;
  c.suite = kStorageSuite;
  c.tolerance = judge::ToleranceId::Exact;  // raw bits: no conversion happens on either side
  const bool store = op.kind == gcn::OpKind::Store;
  const uint32_t s = op.memBytes, al = std::min<uint32_t>(s, 4);
  const uint32_t bytes = bufferBytes(s);

  routes::DeviceCase& d = c.device;
  d.binding = routes::Binding::StorageBuffer;
  d.inst = caseInstruction(op);
  d.inst.offen = true;
  d.inst.offset = offset;
  const auto words =
      gcn::encodeVSharp(chip.gen, routes::makeStorageBufferVSharp(chip.gen, kStorageBase, bytes));
  gcn::setVsharpWords(d.state, kCaseSrsrc, words);
  const uint64_t seed = seedOf(c.name);
  CaseRng rng(seed);
  d.memory.base = kStorageBase;
  d.memory.bytes.resize(bytes);
  for (uint8_t& b : d.memory.bytes)
    b = static_cast<uint8_t>(rng());
  d.state.exec = ~0ull & ~(3ull << 62);  // lanes 62, 63 inactive: left alone

  // VADDR byte offsets; `end` is the first VADDR whose access starts at NUM_RECORDS.
  const uint32_t end = bytes - offset;
  std::array<uint32_t, gcn::kWaveSize> addr{};
  if (store) {
    // Distinct in-range elements, reversed (Vulkan leaves two lanes' writes to one place
    // unordered).
    for (uint32_t l = 0; l < 48; ++l)
      addr[l] = (47 - l) * s;
  } else {
    const uint32_t maxIn = end - s;
    for (uint32_t l = 0; l < 48; ++l)
      addr[l] = (l * 5 * al) % (maxIn + 1) / al * al;
  }
  // Lanes 48..61: the last in-range access, straddling the end (DWORDX2..4: range-checked
  // per dword, AMD RDNA3 ISA), starting at the end, and far past it. DWORDX4 loads keep to
  // straddling lanes: expect.cpp's portable out-of-bounds vector for a lane with every
  // dword out of range is (0,0,0,1) (the texel-format rule), while an SSBO load returns 0
  // in every component under robustBufferAccess2 (VK_EXT_robustness2: out-of-bounds storage
  // buffer reads are zero).
  std::vector<uint32_t> tail;
  if (store) {
    // Stores: no two lanes may write the same byte (Vulkan orders no two invocations'
    // writes), so one lane either ends exactly at NUM_RECORDS or (DWORDX2..4) straddles
    // it with its first dword inside; the others start at or past the end, each elsewhere.
    tail.push_back(s > 4 ? end - s + 4 : end - s);
    for (uint32_t x : {end, end + al, end + 64, 0x1000u, 0x7ffffff0u})
      tail.push_back(x);
    for (uint32_t k = 0; tail.size() < 14; ++k)
      tail.push_back(end + 128 + 16 * k);
  } else {
    tail.push_back(end - s);
    for (uint32_t k = 4; k < s; k += 4)
      tail.push_back(end - k);
    if (s != 16) {
      for (uint32_t x : {end, end + al, end + 64, 0x1000u, 0x7ffffff0u})
        tail.push_back(x);
    }
  }
  for (uint32_t l = 48; l < 62; ++l)
    addr[l] = tail[(l - 48) % tail.size()];
  for (unsigned l = 0; l < gcn::kWaveSize; ++l)
    d.state.vgprMut(kCaseVaddr)[l] = addr[l];
  if (store)
    for (unsigned k = 0; k < 4; ++k)
      for (unsigned l = 0; l < gcn::kWaveSize; ++l)
        d.state.vgprMut(kCaseVdata + k)[l] = static_cast<uint32_t>(rng());
  return c;
}

}  // namespace

std::vector<judge::Case> storageSuite(const gcn::Chip& chip, const CaseFilter& want) {
  static constexpr const char* kOps[] = {
      "buffer_load_ubyte",    "buffer_load_sbyte",   "buffer_load_ushort",  "buffer_load_sshort",
      "buffer_load_dword",    "buffer_load_dwordx2", "buffer_load_dwordx3", "buffer_load_dwordx4",
      "buffer_store_byte",    "buffer_store_short",  "buffer_store_dword",  "buffer_store_dwordx2",
      "buffer_store_dwordx3", "buffer_store_dwordx4"};
  std::vector<judge::Case> cases;
  for (const char* m : kOps) {
    const gcn::OpcodeInfo& op = opcode(m);
    if (!gcn::existsOn(op, chip.gen)) continue;  // DWORDX3: GFX7+ (docs/gcn-facts.md)
    for (uint16_t o : kOffsets)
      addCase(cases, makeCase(want, chip, op, o));
  }
  return cases;
}

}  // namespace gcnprobe::cases
