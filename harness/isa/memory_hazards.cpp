#include "harness/isa/memory_hazards.h"

#include <algorithm>
#include <array>

#include "harness/isa/descriptor_trace.h"
#include "reference/code_scan.h"
#include "reference/encoding.h"
#include "reference/opcodes.h"
#include "reference/scalar_table.h"
#include "reference/vgpr_table.h"

namespace gcnprobe::isa {
// Named, not anonymous: the unity build puts this file beside the other proofs.
namespace memory_hazards_detail {

// SGPR operand codes the reads cover: s0..s105 and VCC (106, 107), which a scalar load may write.
constexpr unsigned kHazardVgprs = 256, kHazardSgprs = 128, kHazardSgprOperands = 108;

struct Pending {
  std::array<uint8_t, kHazardVgprs> vm{};  // 0: none; k: a vector memory load, k - 1 loads after it
  std::array<bool, kHazardVgprs> lgkm{};   // an LDS or FLAT result
  std::array<bool, kHazardVgprs> store{};  // data an issued store may still read (GFX6)
  std::array<bool, kHazardSgprs> smem{};   // a scalar load's result
  std::array<uint32_t, kHazardVgprs> vWriter{};  // the instruction index of the outstanding write
  std::array<uint32_t, kHazardSgprs> sWriter{};
  bool operator==(const Pending&) const = default;
};

struct Waits {
  std::optional<unsigned> vm, lgkm, exp;
};

// The counts an s_waitcnt (SOPP) or an RDNA s_waitcnt_{vm,lgkm,exp}cnt (SOPK with the NULL
// SGPR) waits for (AMD's ISA guides; llvm-mc: tonga bf8c0070 = vmcnt(0) lgkmcnt(0), gfx1100
// bf8903f7 = vmcnt(0), bf89fc07 = lgkmcnt(0)).
Waits waitsOf(gcn::Gen gen, gcn::CodeClass cls, uint32_t w0) {
  Waits w;
  if (cls == gcn::CodeClass::Sopp) {
    const gcn::ScalarOpInfo* op = gcn::findScalarOp(gen, gcn::ScalarClass::Sopp, (w0 >> 16) & 0x7f);
    if (op == nullptr || op->behaviour != gcn::ScalarBehaviour::Waitcnt) return w;
    const uint32_t s = w0 & 0xffff;
    if (gen == gcn::Gen::Gfx11) {
      w.exp = s & 7;
      w.lgkm = (s >> 4) & 0x3f;
      w.vm = (s >> 10) & 0x3f;
      return w;
    }
    w.exp = (s >> 4) & 7;
    w.vm = s & 0xf;
    if (gen >= gcn::Gen::Gfx9) *w.vm |= ((s >> 14) & 3) << 4;
    w.lgkm = gcn::isRdna(gen) ? (s >> 8) & 0x3f : (s >> 8) & 0xf;
    return w;
  }
  if (cls == gcn::CodeClass::Sopk && gcn::isRdna(gen)) {
    const gcn::ScalarOpInfo* op = gcn::findScalarOp(gen, gcn::ScalarClass::Sopk, (w0 >> 23) & 0x1f);
    if (op == nullptr || ((w0 >> 16) & 0x7f) != gcn::nullSgprCode(gen)) return w;
    const unsigned n = w0 & 0xffff;
    if (op->behaviour == gcn::ScalarBehaviour::WaitcntVm) w.vm = n;
    if (op->behaviour == gcn::ScalarBehaviour::WaitcntLgkm) w.lgkm = n;
    if (op->behaviour == gcn::ScalarBehaviour::WaitcntExp) w.exp = n;
  }
  return w;
}

// What one instruction reads and writes that the hazards concern.
struct Access {
  std::vector<unsigned> vRead, vWrite, sRead, sWrite;
  enum class Result : uint8_t { None, Vmem, Lds, Flat, Smem } result = Result::None;
  std::vector<unsigned> storeData;  // VGPRs a vector memory store reads after issue (GFX6)
  // The data VGPRs of a store of more than 64 bits, which the next instruction must not write
  // (GFX7 on: LLVM GCNHazardRecognizer, has12DWordStoreHazard, one wait state).
  std::vector<unsigned> wideStoreData;
};

void addScalar(std::vector<unsigned>& to, unsigned first, unsigned count) {
  for (unsigned r = first; r < first + count && r < kHazardSgprOperands; ++r)
    to.push_back(r);
}

// MUBUF/MTBUF: the V# and SOFFSET SGPRs; a returned value is a VMEM result. Only GFX6 reads a
// store's (or atomic's) data from the VGPRs after issue, counted by EXP_CNT (LLVM
// GCNSubtarget::vmemWriteNeedsExpWaitcnt: generations before Sea Islands).
void bufferAccess(gcn::Gen gen, std::span<const uint32_t> words, Access& a) {
  if (words.size() < 2) return;
  const std::optional<gcn::Instruction> inst = gcn::tryDecode(gen, words[0], words[1]);
  if (!inst || inst->op == nullptr) return;
  addScalar(a.sRead, inst->srsrc, 4);
  if (inst->soffset < kHazardSgprOperands) addScalar(a.sRead, inst->soffset, 1);
  if (!a.vWrite.empty()) a.result = Access::Result::Vmem;
  if (!gcn::writesMemory(inst->op->kind)) return;
  const unsigned data = widestVdataRegs(gen, *inst);
  if (gen == gcn::Gen::Gfx6)
    for (unsigned k = 0; k < data; ++k)
      a.storeData.push_back((inst->vdata + k) % kHazardVgprs);
  if (gen != gcn::Gen::Gfx6 && data > 2)
    for (unsigned k = 0; k < data; ++k)
      a.wideStoreData.push_back((inst->vdata + k) % kHazardVgprs);
}

// The VGPRs a DS instruction reads, by its operands (LLVM's DS definitions): ADDR [7:0], DATA0
// [15:8] unless it only reads LDS, DATA1 [23:16] for the two-data forms. An unused field holds
// 0, which must not count as reading v0. An opcode the table does not know keeps every field.
void dsAccess(gcn::Gen gen, std::span<const uint32_t> words, Access& a) {
  if (!a.vWrite.empty()) a.result = Access::Result::Lds;
  if (words.size() < 2) return;
  const uint32_t w0 = words[0];
  const unsigned op = gcn::isGfx8Or9(gen) ? (w0 >> 17) & 0xff : (w0 >> 18) & 0xff;
  const gcn::VgprOpInfo* info = gcn::findVgprOp(gen, gcn::VgprClass::Ds, op);
  if (info == nullptr) return;
  const uint32_t w1 = words[1];
  a.vRead = {w1 & 0xff};
  if (info->behaviour != gcn::VgprBehaviour::DsRead) a.vRead.push_back((w1 >> 8) & 0xff);
  if (info->behaviour == gcn::VgprBehaviour::DsTwoData) a.vRead.push_back((w1 >> 16) & 0xff);
}

// SMEM: SBASE [5:0] (a pair), a store's or atomic's SDATA [12:6], and the SGPR offset: gfx8/9
// OFFSET [7:0] of word 1 without IMM [17], gfx9's SOFFSET [63:57] with SOE [14], RDNA's SOFFSET
// [63:57] (NULL reads nothing: it is past the operand codes read).
void smemReads(gcn::Gen gen, std::span<const uint32_t> words, Access& a) {
  const uint32_t w0 = words[0];
  addScalar(a.sRead, (w0 & 0x3f) * 2, 2);
  const unsigned op = (w0 >> 18) & 0xff;
  if ((op >= 16 && op <= 30) || op >= 64) addScalar(a.sRead, (w0 >> 6) & 0x7f, 4);  // data
  if (words.size() < 2) return;
  const uint32_t w1 = words[1];
  if (gcn::isRdna(gen)) {
    addScalar(a.sRead, w1 >> 25, 1);
    return;
  }
  if (((w0 >> 17) & 1) == 0) addScalar(a.sRead, w1 & 0xff, 1);
  if (gen == gcn::Gen::Gfx9 && ((w0 >> 14) & 1) != 0) addScalar(a.sRead, w1 >> 25, 1);
}

// A scalar ALU instruction's SGPR sources: SSRC0 [7:0] and SSRC1 [15:8] as wide as the scalar
// table says (a pair from each where it does not know the opcode), and SOPK's SDST [22:16] where
// it is read and not written (s_cmpk_*, s_setreg_*, s_waitcnt_*cnt).
void scalarAluAccess(gcn::Gen gen, gcn::CodeClass cls, uint32_t w0, Access& a) {
  const auto sources = [&](gcn::ScalarClass sc, unsigned op, unsigned fields) {
    const gcn::ScalarOpInfo* info = gcn::findScalarOp(gen, sc, op);
    // SGPR[SSRC0 + M0]: M0 is not followed, so any SGPR.
    if (info != nullptr && (info->behaviour == gcn::ScalarBehaviour::MovRelSrc ||
                            info->behaviour == gcn::ScalarBehaviour::MovRelBoth))
      addScalar(a.sRead, 0, kHazardSgprOperands);
    for (unsigned f = 0; f < fields; ++f)
      addScalar(a.sRead, (w0 >> (8 * f)) & 0xff, info != nullptr ? info->srcSgprs[f] : 2u);
  };
  switch (cls) {
    case gcn::CodeClass::Sop1:
      sources(gcn::ScalarClass::Sop1, (w0 >> 8) & 0xff, 1);
      return;
    case gcn::CodeClass::Sop2:
      sources(gcn::ScalarClass::Sop2, (w0 >> 23) & 0x7f, 2);
      return;
    case gcn::CodeClass::Sopc:
      sources(gcn::ScalarClass::Sopc, (w0 >> 16) & 0x7f, 2);
      return;
    default: {  // SOPK
      const gcn::ScalarOpInfo* info =
          gcn::findScalarOp(gen, gcn::ScalarClass::Sopk, (w0 >> 23) & 0x1f);
      if (info == nullptr || info->dstSgprs == 0) addScalar(a.sRead, (w0 >> 16) & 0x7f, 1);
      return;
    }
  }
}

Access accessOf(gcn::Gen gen, std::span<const uint32_t> words, const VgprEffects& e,
                const std::optional<gcn::CodeClass>& cls, const SgprWrites& sw) {
  Access a;
  a.vRead = e.reads;
  for (unsigned r = e.writeFirst; r < e.writeFirst + e.writeCount && r < kHazardVgprs; ++r)
    a.vWrite.push_back(r);
  if (e.dualWrite) a.vWrite.push_back(*e.dualWrite % kHazardVgprs);
  for (unsigned r = 0; r < kHazardSgprs; ++r)
    if (sw[r] != -1) a.sWrite.push_back(r);
  if (!cls || words.empty()) return a;
  const uint32_t w0 = words[0];
  switch (*cls) {
    case gcn::CodeClass::Mubuf:
    case gcn::CodeClass::Mtbuf:
      bufferAccess(gen, words, a);
      break;
    case gcn::CodeClass::Mimg:
      if (words.size() > 1) addScalar(a.sRead, ((words[1] >> 16) & 0x1f) * 4, 8);
      if (!a.vWrite.empty()) a.result = Access::Result::Vmem;
      break;
    case gcn::CodeClass::Flat:
      if (!a.vWrite.empty()) a.result = Access::Result::Flat;
      break;
    case gcn::CodeClass::Ds:
      dsAccess(gen, words, a);
      break;
    case gcn::CodeClass::Smrd:
      addScalar(a.sRead, ((w0 >> 9) & 0x3f) * 2, 2);
      if ((w0 & 0x100) == 0 && (w0 & 0xff) < kHazardSgprOperands) addScalar(a.sRead, w0 & 0xff, 1);
      a.result = Access::Result::Smem;
      break;
    case gcn::CodeClass::Smem:
      smemReads(gen, words, a);
      a.result = Access::Result::Smem;
      break;
    case gcn::CodeClass::Sop1:
    case gcn::CodeClass::Sop2:
    case gcn::CodeClass::Sopc:
    case gcn::CodeClass::Sopk:
      scalarAluAccess(gen, *cls, w0, a);
      break;
    case gcn::CodeClass::Vop1:
    case gcn::CodeClass::Vop2:
    case gcn::CodeClass::Vopc:
    case gcn::CodeClass::Vop3:
    case gcn::CodeClass::Vop3p:
    case gcn::CodeClass::Vopd:
      // SGPR operands, each as a pair: the tables do not give the width of a VALU's scalar
      // operand (a 64-bit one reads two SGPRs), so the next SGPR counts as read too, which is
      // too strict rather than too lenient. A VOP3 encodes the sources an operation lacks as 0,
      // so s0 as a second or third source is taken as absent.
      for (std::size_t k = 0; k < e.src.size(); ++k) {
        const int s = e.src[k];
        if (*cls == gcn::CodeClass::Vop3 && k > 0 && s == 0) continue;
        if (s >= 0 && s < static_cast<int>(kHazardSgprOperands))
          addScalar(a.sRead, static_cast<unsigned>(s), 2);
      }
      break;
    default:
      break;
  }
  return a;
}

// What an s_waitcnt completes: vmcnt(N) the loads with at least N loads issued after them,
// lgkmcnt only at 0 (scalar loads return in any order), expcnt(0) the GFX6 store data.
void applyWaits(const Waits& w, Pending& p) {
  if (w.vm)
    for (unsigned r = 0; r < kHazardVgprs; ++r)
      if (p.vm[r] != 0 && p.vm[r] - 1u >= *w.vm) p.vm[r] = 0;
  if (w.lgkm && *w.lgkm == 0) {
    p.lgkm.fill(false);
    p.smem.fill(false);
  }
  if (w.exp && *w.exp == 0) p.store.fill(false);
}

bool pendingV(const Pending& p, unsigned r) {
  return p.vm[r] != 0 || p.lgkm[r];
}

// What instruction i leaves outstanding after its waits: its loads' results (a VMEM load counts
// the older ones on), GFX6 store data, its scalar loads' SGPRs.
void issue(const Access& a, uint32_t i, Pending& p) {
  using R = Access::Result;
  if (a.result == R::Vmem || a.result == R::Flat)
    for (auto& k : p.vm)
      if (k != 0 && k < 255) ++k;
  for (const unsigned r : a.vWrite) {
    p.vm[r] = a.result == R::Vmem || a.result == R::Flat ? 1 : 0;
    p.lgkm[r] = a.result == R::Lds || a.result == R::Flat;
    p.store[r] = false;
    p.vWriter[r] = i;
  }
  for (const unsigned r : a.storeData) {
    p.store[r] = true;
    p.vWriter[r] = i;
  }
  for (const unsigned r : a.sWrite) {
    p.smem[r] = a.result == R::Smem;
    p.sWriter[r] = i;
  }
}

// Where paths join: outstanding on either path (the longer vmcnt distance), with the writer of
// the path that makes it outstanding. Whether `into` changed.
bool joinPending(Pending& into, const Pending& from) {
  Pending m = into;
  for (unsigned r = 0; r < kHazardVgprs; ++r) {
    if (from.vm[r] > m.vm[r] || (from.lgkm[r] && !m.lgkm[r]) || (from.store[r] && !m.store[r]))
      m.vWriter[r] = from.vWriter[r];
    m.vm[r] = std::max(m.vm[r], from.vm[r]);
    m.lgkm[r] = m.lgkm[r] || from.lgkm[r];
    m.store[r] = m.store[r] || from.store[r];
  }
  for (unsigned r = 0; r < kHazardSgprs; ++r) {
    if (from.smem[r] && !m.smem[r]) m.sWriter[r] = from.sWriter[r];
    m.smem[r] = m.smem[r] || from.smem[r];
  }
  const bool changed = !(m == into);
  into = m;
  return changed;
}

// The hazard of instruction i with what is outstanding before it (`p`, after its own waits).
std::optional<MemoryHazard> hazardAt(std::size_t i, const Access& a, const Pending& p) {
  const auto v = [](unsigned r) { return "v" + std::to_string(r); };
  const auto s = [](unsigned r) {
    return r == 106   ? std::string("vcc_lo")
           : r == 107 ? std::string("vcc_hi")
                      : "s" + std::to_string(r);
  };
  for (const unsigned r : a.vRead)
    if (r < kHazardVgprs && pendingV(p, r))
      return MemoryHazard{i, p.vWriter[r], "reads " + v(r),
                          std::string("before its result returns (no s_waitcnt ") +
                              (p.lgkm[r] ? "lgkmcnt" : "vmcnt") + " covers it)"};
  for (const unsigned r : a.sRead)
    if (p.smem[r])
      return MemoryHazard{i, p.sWriter[r], "reads " + s(r),
                          "before its result returns (no s_waitcnt lgkmcnt(0) covers it)"};
  for (const unsigned r : a.vWrite) {
    if (pendingV(p, r))
      return MemoryHazard{i, p.vWriter[r], "overwrites " + v(r),
                          "while its result is outstanding (it may land later)"};
    if (p.store[r])
      return MemoryHazard{i, p.vWriter[r], "overwrites " + v(r),
                          "which the store may still read (no s_waitcnt expcnt(0) covers it)"};
  }
  for (const unsigned r : a.sWrite)
    if (p.smem[r])
      return MemoryHazard{i, p.sWriter[r], "overwrites " + s(r),
                          "while its result is outstanding (scalar loads return in any order)"};
  return std::nullopt;
}

// A write of a wide store's data VGPRs right after the store (GFX7 on: one wait state).
std::optional<MemoryHazard> wideStoreHazard(std::size_t i, const Access& store,
                                            const Access& next) {
  for (const unsigned r : next.vWrite)
    if (std::find(store.wideStoreData.begin(), store.wideStoreData.end(), r) !=
        store.wideStoreData.end())
      return MemoryHazard{i, i - 1, "overwrites v" + std::to_string(r),
                          "right after the store of more than 64 bits that reads it (one "
                          "wait state is needed from GFX7 on)"};
  return std::nullopt;
}

}  // namespace memory_hazards_detail

using namespace memory_hazards_detail;

std::optional<MemoryHazard> firstMemoryHazard(gcn::Gen gen,
                                              std::span<const std::vector<uint32_t>> words,
                                              std::span<const VgprEffects> effects,
                                              std::span<const std::optional<gcn::CodeClass>> cls,
                                              std::span<const SgprWrites> sgprs) {
  const std::size_t n = words.size();
  if (n == 0) return std::nullopt;
  std::vector<Access> access(n);
  std::vector<Waits> waits(n);
  for (std::size_t i = 0; i < n; ++i) {
    access[i] = accessOf(gen, words[i], effects[i], cls[i], sgprs[i]);
    if (cls[i]) waits[i] = waitsOf(gen, *cls[i], words[i][0]);
  }
  std::vector<std::optional<Pending>> in(n);
  in[0] = Pending{};
  forwardFlow<Pending>(
      gen, words, in,
      [&](std::size_t i, const std::optional<gcn::CodeClass>&, Pending& p) {
        applyWaits(waits[i], p);
        issue(access[i], static_cast<uint32_t>(i), p);
      },
      joinPending, [](Pending&) {});

  for (std::size_t i = 0; i < n; ++i) {
    if (!in[i]) continue;
    if (i > 0 && in[i - 1] && !access[i - 1].wideStoreData.empty())
      if (std::optional<MemoryHazard> h = wideStoreHazard(i, access[i - 1], access[i])) return h;
    Pending p = *in[i];
    // The waits of the instruction itself come first (an s_waitcnt reads nothing).
    applyWaits(waits[i], p);
    if (std::optional<MemoryHazard> h = hazardAt(i, access[i], p)) return h;
  }
  return std::nullopt;
}

}  // namespace gcnprobe::isa
