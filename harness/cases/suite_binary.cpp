// The binary suite (suite.h): every MUBUF/MTBUF opcode of the chip's generation, each in the
// form the binary route's templates host (harness/isa/binary_route.h): OFFEN with OFFSET 0 and
// SOFFSET 0 through RADV's SSBO V# of a 960-byte buffer; lane l at byte 16 * l, so lanes 0..59
// in range and lanes 60 and 61 past the end (robustness), lanes 62 and 63 inactive; random
// memory and data (CMPSWAP compares with the memory's own value on even lanes); atomics with
// GLC (the pre-op value returned); BUFFER_STORE_LDS_DWORD from one lane, with M0 and a random
// LDS image. MTBUF opcodes carry DATA_FORMAT 32, NUM_FORMAT UINT. Forms no template hosts
// (gfx8.0's unpacked D16 loads of 3 and 4 registers) are kept: the route says why, and a case
// it cannot run is unsupported, never pass.
#include <cstring>

#include "harness/cases/pattern.h"
#include "harness/cases/suite.h"
#include "harness/routes/storage.h"
#include "reference/format.h"

namespace gcnprobe::cases {
namespace {

constexpr uint64_t kBinaryBase = 0x300000;  // any 48-bit address: the V# base of the SSBO
constexpr uint32_t kBytes = 960;            // lanes 60 and 61 (bytes 960..991) past the end

// The case, or nothing when `want` does not take its name.
std::optional<judge::Case> makeCase(const CaseFilter& want, const gcn::Chip& chip,
                                    const gcn::OpcodeInfo& op) {
  judge::Case c;
  const std::string m(op.mnemonic);
  c.name = std::string(kBinarySuite) + "." + (m.rfind("buffer_", 0) == 0 ? m.substr(7) : m);
  if (!wanted(want, c.name)) return std::nullopt;
  c.suite = kBinarySuite;
  c.tolerance = judge::ToleranceId::Exact;
  routes::DeviceCase& d = c.device;
  d.binding = routes::Binding::StorageBuffer;
  d.binaryPatch = true;
  d.inst = caseInstruction(op);
  d.inst.offen = true;
  d.inst.glc = op.kind == gcn::OpKind::Atomic;
  d.inst.lds = op.ldsData;
  if (op.encoding == gcn::Encoding::Mtbuf && gcn::isRdna(chip.gen)) {
    d.inst.format = gcn::findUnifiedFormat(chip.gen, gcn::Dfmt::F32, gcn::Nfmt::Uint)->code;
  } else if (op.encoding == gcn::Encoding::Mtbuf) {
    d.inst.dfmt = gcn::Dfmt::F32;
    d.inst.nfmt = gcn::Nfmt::Uint;
  }
  if (op.ldsData || op.kind == gcn::OpKind::Cache) {
    // No VDATA, no address (CLRX GcnInstrsMubuf; BUFFER_STORE_LDS_DWORD reads LDS).
    d.inst.vdata = d.inst.vaddr = 0;
    d.inst.offen = false;
    if (op.kind == gcn::OpKind::Cache) d.inst.srsrc = 0;
  }
  gcn::setVsharpWords(
      d.state, kCaseSrsrc,
      gcn::encodeVSharp(chip.gen, routes::makeStorageBufferVSharp(chip.gen, kBinaryBase, kBytes)));
  CaseRng rng(seedOf(c.name));
  d.memory.base = kBinaryBase;
  d.memory.bytes.resize(kBytes);
  for (uint8_t& b : d.memory.bytes)
    b = static_cast<uint8_t>(rng());
  d.state.exec = ~0ull & ~(3ull << 62);
  if (op.ldsData) {
    // BUFFER_STORE_LDS_DWORD: every lane stores to the same dword (base + SOFFSET + OFFSET, no
    // VADDR), in an order no document gives, so one lane runs: lane 37 stores the LDS dword
    // at (M0 & 0xffff) + 4 * 37 of a random 1 KiB LDS image (the LDS template's size).
    d.state.exec = 1ull << 37;
    d.state.m0 = 0x104;
    d.lds.resize(1024);
    for (uint8_t& b : d.lds)
      b = static_cast<uint8_t>(rng());
  }
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    if (d.inst.offen) d.state.vgprMut(kCaseVaddr)[l] = 16 * l;
    // Loads keep the VDATA halves a D16 load does not write: those are preset too.
    if (gcn::writesMemory(op.kind) || op.d16)
      for (unsigned k = 0; k < 4; ++k)
        d.state.vgprMut(kCaseVdata + k)[l] = k % 2 == 0 && rng() % 2 == 0
                                                 ? static_cast<uint32_t>(rng() % 17) - 8
                                                 : static_cast<uint32_t>(rng());
  }
  if (op.atomic == gcn::AtomicOp::Cmpswap) {
    // The compare value (the registers after the source) is the memory's own on even lanes
    // in range, so that some swaps happen.
    const unsigned half = op.wide ? 2 : 1;
    for (unsigned l = 0; l < gcn::kWaveSize; l += 2)
      if (16 * l + 4 * half <= kBytes)
        for (unsigned k = 0; k < half; ++k) {
          uint32_t word = 0;
          std::memcpy(&word, d.memory.bytes.data() + 16 * l + 4 * k, 4);
          d.state.vgprMut(kCaseVdata + half + k)[l] = word;
        }
  }
  return c;
}

}  // namespace

std::vector<judge::Case> binarySuite(const gcn::Chip& chip, const CaseFilter& want) {
  std::vector<judge::Case> cases;
  for (const gcn::OpcodeInfo& op : gcn::allOpcodes())
    if (gcn::existsOn(op, chip.gen)) addCase(cases, makeCase(want, chip, op));
  return cases;
}

}  // namespace gcnprobe::cases
