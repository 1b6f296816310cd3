// The wave executor. Sources: CLRX GcnMemHandling (addressing, range checks, LDS-direct loads,
// conversion rules per instruction kind), AMD RDNA3 ISA (D16, component-count mismatches, OOB per
// component, alignment), docs/gcn-facts.md (all-zero V#, DATA_FORMAT INVALID, disputed points
// as policies), CLRX doc/GcnInstrsMubuf.md (atomics, see reference/atomic.h).
// Addressing and range checks live in reference/address, conversions in reference/convert:
// this file only sequences them lane by lane and never re-derives their rules.
#include "reference/executor.h"

#include <algorithm>
#include <cstring>
#include <span>
#include <string_view>

#include "reference/address.h"
#include "reference/atomic.h"
#include "reference/convert.h"
#include "reference/error.h"
#include "reference/format.h"
#include "reference/text.h"

namespace gcn {
namespace {

constexpr std::array<DstSel, 4> kIdentitySel{DstSel::X, DstSel::Y, DstSel::Z, DstSel::W};

constexpr std::string_view kUnmapped =
    "in-range access outside the memory image: not performed, value not claimed";
constexpr std::string_view kUnalignedAtomicComponent =
    "atomic with an address component (VGPR offset, SOFFSET or OFFSET) not a multiple of 4: "
    "such atomics fail (LLVM AMDGPU splitMUBUFOffset), no value claimed";
constexpr std::string_view kD16HalfUnclaimed =
    "d16-keep=unclaimed: the VGPR half a D16 load does not write is not claimed (LLVM "
    "d16PreservesUnusedBits with SRAM-ECC), so neither is the register";
constexpr std::string_view kReservedSel =
    "DST_SEL 2/3 is reserved (CLRX GcnMemHandling): value not claimed";
// LLVM (llvm.amdgcn.image.dim.ll, load_1d_tfe) and Mesa read the TFE dword as a "texture
// fail" code, 0 when the fetch succeeded; no source says what an out-of-range or failed
// fetch writes there.
constexpr std::string_view kTfeUnknown =
    "TFE dword after an out-of-range or unclaimed fetch: no source gives its value";

void addNote(std::vector<std::string>& notes, std::string_view text) {
  if (std::find(notes.begin(), notes.end(), text) == notes.end()) notes.emplace_back(text);
}

void addLaneNote(LaneResult& lr, std::string_view text) {
  if (lr.note.find(text) != std::string::npos) return;
  if (!lr.note.empty()) lr.note += "; ";
  lr.note += text;
}

bool isSelReserved(DstSel s) {
  return s == DstSel::Reserved2 || s == DstSel::Reserved3;
}

// SOFFSET in the 8-bit scalar operand encoding (CLRX GcnOperands; LLVM
// SIDefines.h). Legality per generation is checked by validate() (soffsetLegal).
uint32_t soffsetValue(const Instruction& inst, const WaveState& s) {
  const unsigned e = inst.soffset;
  if (e < s.sgpr.size()) return s.sgpr[e];
  if (e == 124) return s.m0;
  if (e == 126) return static_cast<uint32_t>(s.exec);
  if (e == 127) return static_cast<uint32_t>(s.exec >> 32);
  if (const auto v = integerInlineValue(e)) return static_cast<uint32_t>(*v);
  // Float inline constants 240..247 = 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0 as IEEE
  // single bits; 248 = 1/(2*pi) (gfx8+).
  constexpr uint32_t kFloatConst[] = {0x3f000000u, 0xbf000000u, 0x3f800000u,
                                      0xbf800000u, 0x40000000u, 0xc0000000u,
                                      0x40800000u, 0xc0800000u, 0x3e22f983u};
  if (e >= 240 && e <= 248) return kFloatConst[e - 240];
  throw Error("soffset: operand code " + std::to_string(e) +
              " (vcc or other) is not part of WaveState; use an SGPR, m0, exec or a constant");
}

struct Gathered {
  std::array<uint8_t, 16> bytes{};  // out-of-range bytes stay 0 (CLRX: reads are zero)
  std::array<bool, 16> unknown{};   // in range but unmapped
  bool allIn = true;
  bool anyUnknown = false;
};

// The V# and format every lane of the wave uses, decoded once per wave.
struct WaveResource {
  VSharp v;
  bool zero = false;            // all-zero V#
  bool droppedUntyped = false;  // GFX6/7 untyped access through DATA_FORMAT INVALID
  // Format ops only (chooseFormat):
  Dfmt dfmt = Dfmt::Invalid;
  Nfmt nfmt = Nfmt::Unorm;
  std::array<DstSel, 4> sel = kIdentitySel;
  uint8_t elemBytes = 0;
  uint8_t fmtComponents = 0;
  bool fmtInvalid = false;
  std::string_view fmtUnclaimed;  // why no value is claimed, empty when one is
};

WaveResource decodeResource(Gen gen, const Instruction& inst, const WaveState& in,
                            std::vector<std::string>& notes) {
  const OpcodeInfo& op = *inst.op;
  WaveResource r;
  const std::array<uint32_t, 4> words = vsharpWords(in, inst.srsrc);
  r.zero = words == std::array<uint32_t, 4>{};
  r.v = accessVSharp(gen, decodeVSharp(gen, words), op.encoding == Encoding::Mtbuf);
  // GFX6/7 drop untyped accesses through a V# with DATA_FORMAT INVALID (resource.h).
  r.droppedUntyped =
      !r.zero && untypedAccessDropped(gen, r.v) &&
      (op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::Atomic);
  if (r.droppedUntyped)
    addNote(notes, std::string(genName(gen)) +
                       " V# with DATA_FORMAT INVALID: the untyped access is dropped, loads read 0 "
                       "(Mesa radeonsi si_compute.c: before GFX8 \"it cannot be "
                       "BUF_DATA_FORMAT_INVALID\")");
  if (r.zero)
    addNote(notes,
            "all-zero V#: loads return 0, stores and atomics do nothing "
            "(docs/gcn-facts.md, AMD RDNA3 ISA: all-zero resource constant)");
  return r;
}

// CLRX GcnMemHandling "rules for data conversion", read from the opcode table's FieldSource
// fields.
void chooseFormat(Gen gen, const Instruction& inst, const Policies& pol, WaveResource& r,
                  std::vector<std::string>& notes) {
  const OpcodeInfo& op = *inst.op;
  const ConversionFormat f = conversionFormat(gen, op, inst, r.v);
  r.dfmt = f.dfmt;
  r.nfmt = f.nfmt;
  r.sel = f.dstSel;
  const DfmtInfo& info = dfmtInfo(r.dfmt);
  r.elemBytes = info.bytes;
  r.fmtComponents = info.components;
  if (r.zero) return;
  if (op.dfmtSource == FieldSource::Resource &&
      dataFormatIsStrideBits(gen, r.v, op.encoding == Encoding::Mtbuf)) {
    r.elemBytes = static_cast<uint8_t>(formatAccessBytes(Dfmt::Reserved));
    r.fmtUnclaimed =
        "ADD_TID_ENABLE on a GFX8/9 MUBUF format op: DATA_FORMAT holds STRIDE[17:14] (Mesa "
        "ac_set_buf_desc_word3), so no source says which format converts: no value claimed; "
        "the access is taken as 16 bytes for the range check";
    return;
  }
  if (r.dfmt == Dfmt::Invalid) {
    r.fmtInvalid = true;
    addNote(notes,
            "DATA_FORMAT INVALID on a format op: loads return 0, stores do "
            "nothing (docs/gcn-facts.md)");
    return;
  }
  if (r.dfmt == Dfmt::Reserved) {
    // Planned at the largest element size (formatAccessBytes): nothing read or written is
    // claimed, but the range check and the reach cover any size the hardware may use.
    r.elemBytes = static_cast<uint8_t>(formatAccessBytes(r.dfmt));
    r.fmtUnclaimed =
        "DATA_FORMAT 15 is reserved (CLRX GcnMemHandling): no value claimed; its access is "
        "taken as 16 bytes for the range check";
    return;
  }
  const Direction dir = op.kind == OpKind::LoadFormat ? Direction::Load : Direction::Store;
  const PairVerdict verdict = pairVerdict(gen, r.dfmt, r.nfmt, dir, pol);
  if (verdict.status != PairStatus::Defined) r.fmtUnclaimed = verdict.reason;
  if (r.fmtUnclaimed.empty() && r.fmtComponents != op.components)
    addNote(notes,
            "component count of the opcode differs from the format's: AMD RDNA3 ISA "
            "rule (load: extra components from DST_SEL; store: missing ones "
            "from DST_SEL, extra ones ignored)");
}

// The wave's memory: each lane's access plan (with the wave-wide range-rule note), the bytes it
// reads and writes, and which lanes wrote the same bytes. Reads `res` and `address` when a lane
// is planned, so the wave fills them before any lane runs.
class WaveMemory {
 public:
  WaveMemory(Gen gen, const WaveResource& res, const AddressInputs& address, const Policies& pol,
             ExecResult& out, const MemoryImage& memory)
      : gen_(gen),
        res_(res),
        address_(address),
        pol_(pol),
        out_(out),
        mem_(out.written ? &*out.written : &memory),
        wmem_(out.written ? &*out.written : nullptr) {}

  bool mapped(uint64_t address, uint64_t size) const {
    return mem_->find(address, size) != nullptr;
  }
  // Only called for mapped accesses.
  const uint8_t* at(uint64_t address, uint64_t size) const { return mem_->find(address, size); }
  // Only instructions that write memory work on a copy (execute()).
  uint8_t* writableAt(uint64_t address, uint64_t size) {
    if (wmem_ == nullptr) throw Error("executor: a write to memory the instruction does not write");
    uint8_t* at = wmem_->find(address, size);
    if (at == nullptr) throw Error("executor: a write outside the memory image");
    return at;
  }
  void recordWrite(uint64_t address, uint8_t size, unsigned lane) {
    writes_.push_back({address, size, lane});
  }

  // AMD RDNA3 ISA alignment: formats and typed ops align to min(size, 4) (the policy decides
  // whether the low bits are ignored); atomics use the dword rule too (DWORD alignment
  // mode: "the smaller of the element size or DWORD").
  // The plan lives in plan_ until the next call.
  const AccessPlan& plan(unsigned lane, uint32_t bytes, CheckUnit unit, bool write,
                         LaneResult& lr) {
    // The range rule is the same for every lane (address.h): its text is made once per unit.
    const bool withRule = !ruleUnit_ || *ruleUnit_ != unit;
    AccessPlan& p = plan_;
    planAccessInto(gen_, res_.v, address_.forLane(lane), bytes, std::min<uint32_t>(bytes, 4), unit,
                   pol_, p, withRule);
    bool all = true;
    for (const AccessPiece& piece : p.pieces) {
      if (piece.dataOffset + piece.size > 16u)
        throw Error("executor: access piece beyond 16 bytes (address plan: " + p.rule + ")");
      all = all && piece.inRange;
    }
    // Format ops and atomics are all-or-nothing (AMD RDNA3 ISA); an all-zero V# reads 0 and
    // drops writes whatever the range check says (docs/gcn-facts.md).
    for (AccessPiece& piece : p.pieces)
      if (res_.zero || res_.droppedUntyped || (unit == CheckUnit::Whole && !all))
        piece.inRange = false;
    // The range rule address.h applied (policy choices included) is a wave-wide remark.
    if (withRule) {
      ruleUnit_ = unit;
      if (p.rule != lastRule_) {
        lastRule_ = p.rule;
        addNote(out_.notes, "range check: " + p.rule);
      }
    }
    for (const AccessPiece& piece : p.pieces)
      lr.accesses.push_back(
          {piece.address, piece.size, piece.inRange, mapped(piece.address, piece.size), write});
    return p;
  }

  Gathered gather(const AccessPlan& p, LaneResult& lr) const {
    Gathered g;
    for (const AccessPiece& piece : p.pieces) {
      if (!piece.inRange) {
        g.allIn = false;
        continue;
      }
      if (mapped(piece.address, piece.size)) {
        std::memcpy(g.bytes.data() + piece.dataOffset, at(piece.address, piece.size), piece.size);
      } else {
        std::fill_n(g.unknown.begin() + piece.dataOffset, piece.size, true);
        g.anyUnknown = true;
        addLaneNote(lr, kUnmapped);
      }
    }
    if (p.pieces.empty()) g.allIn = false;
    return g;
  }

  void scatter(const AccessPlan& p, std::span<const uint8_t> data, unsigned lane, LaneResult& lr) {
    for (const AccessPiece& piece : p.pieces) {
      if (!piece.inRange) continue;
      if (!mapped(piece.address, piece.size)) {
        addLaneNote(lr, kUnmapped);
        continue;
      }
      std::memcpy(writableAt(piece.address, piece.size), data.data() + piece.dataOffset,
                  piece.size);
      recordWrite(piece.address, piece.size, lane);
    }
  }

  // Several lanes writing the same bytes: lanes are applied in order 0..63, which is one
  // legal order (the hardware does not document one).
  void noteCollisions(OpKind kind) {
    if (writes_.size() < 2) return;
    std::sort(writes_.begin(), writes_.end(), [](const Write& a, const Write& b) {
      return a.address != b.address ? a.address < b.address : a.lane < b.lane;
    });
    for (std::size_t i = 1; i < writes_.size(); ++i) {
      const Write& a = writes_[i - 1];
      const Write& b = writes_[i];
      if (a.lane != b.lane && b.address < a.address + a.size) {
        const char* what = kind == OpKind::Atomic ? "atomics" : "stores";
        addNote(out_.notes, std::string("several lanes ") + what +
                                " to the same address (first: lanes " + std::to_string(a.lane) +
                                " and " + std::to_string(b.lane) +
                                "): applied in lane order, one legal order");
        return;
      }
    }
  }

 private:
  struct Write {
    uint64_t address;
    uint8_t size;
    unsigned lane;
  };

  Gen gen_;
  const WaveResource& res_;
  const AddressInputs& address_;
  const Policies& pol_;
  ExecResult& out_;
  const MemoryImage* mem_;  // what the lanes read
  MemoryImage* wmem_;       // what they write: the result's copy, null for no memory write
  std::vector<Write> writes_;
  std::string lastRule_;
  AccessPlan plan_;                    // the current lane's (plan())
  std::optional<CheckUnit> ruleUnit_;  // the unit plan_.rule was last made for
};

// One instruction on one wave: each active lane's load, store or atomic in lane order.
class WaveRun {
 public:
  WaveRun(const Chip& chip, const Instruction& inst, const WaveState& in, const MemoryImage& memory,
          const Policies& pol, ExecResult& out)
      : chip_(chip),
        gen_(chip.gen),
        inst_(inst),
        op_(*inst.op),
        in_(in),
        pol_(pol),
        out_(out),
        mem_(chip.gen, res_, address_, pol, out, memory) {}

  void run() {
    prepare();
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      LaneResult& lr = out_.lanes[lane];
      lr.active = (in_.exec >> lane) & 1;
      if (!lr.active) continue;
      switch (op_.kind) {
        case OpKind::LoadFormat:
          loadFormat(lane, lr);
          break;
        case OpKind::StoreFormat:
          storeFormat(lane, lr);
          break;
        case OpKind::Load:
          loadTyped(lane, lr);
          break;
        case OpKind::Store:
          storeTyped(lane, lr);
          break;
        case OpKind::Atomic:
          atomic(lane, lr);
          break;
        case OpKind::Cache:
          break;  // no address, no data (CLRX GcnInstrsMtbuf: cache control)
      }
      writeBack(lane, lr);
    }
    mem_.noteCollisions(op_.kind);
  }

 private:
  // What every lane shares: the V# and format, the registers each lane reads.
  void prepare() {
    res_ = decodeResource(gen_, inst_, in_, out_.notes);
    const unsigned data = vdataRegs(op_, chip_, inst_.tfe);
    if (op_.kind != OpKind::Cache && inst_.vdata + data > 256)
      throw Error("vdata: v" + std::to_string(inst_.vdata) + " plus " + std::to_string(data) +
                  " registers runs past v255");
    // The registers each lane reads, looked up once per wave.
    address_ = addressInputs(inst_, in_);
    if (op_.kind != OpKind::Cache)
      for (unsigned i = 0; i < data && i < vdataIn_.size(); ++i)
        vdataIn_[i] = &in_.vgpr(inst_.vdata + i);
    if (inst_.tfe && (op_.kind == OpKind::Store || op_.kind == OpKind::StoreFormat ||
                      op_.kind == OpKind::Atomic))
      addNote(out_.notes, "TFE on a store or atomic: no status register is modelled");
    if (op_.kind == OpKind::LoadFormat || op_.kind == OpKind::StoreFormat)
      chooseFormat(gen_, inst_, pol_, res_, out_.notes);
  }

  uint32_t vreg(unsigned i, unsigned lane) const {
    if (i >= vdataIn_.size() || vdataIn_[i] == nullptr) return in_.vgpr(inst_.vdata + i)[lane];
    return (*vdataIn_[i])[lane];
  }

  // ---- format loads -------------------------------------------------------------------

  // Components X..W after DST_SEL, 32-bit register values, or 16-bit ones for D16.
  std::array<std::optional<uint32_t>, 4> formatValues(unsigned lane, LaneResult& lr,
                                                      bool& fetched) {
    std::array<std::optional<uint32_t>, 4> comps{};
    fetched = false;
    if (res_.zero || res_.fmtInvalid) {
      comps.fill(0u);
      return comps;
    }
    if (!res_.fmtUnclaimed.empty()) {
      addLaneNote(lr, res_.fmtUnclaimed);
      mem_.plan(lane, res_.elemBytes, CheckUnit::Whole, false, lr);
      return comps;
    }
    const AccessPlan& p = mem_.plan(lane, res_.elemBytes, CheckUnit::Whole, false, lr);
    Gathered g = mem_.gather(p, lr);
    const bool d16 = op_.d16;
    if (!g.allIn) {
      // CLRX GcnMemHandling: out-of-range reads are zero; AMD RDNA3 ISA: except DST_SEL = 1
      // components (policy oob-one).
      for (unsigned i = 0; i < 4; ++i) {
        if (isSelReserved(res_.sel[i])) {
          addLaneNote(lr, kReservedSel);
        } else if (res_.sel[i] == DstSel::One && pol_.oobDstSelOne() == policy::OobDstSelOne::One) {
          comps[i] = d16 ? oneValueD16(res_.nfmt) : oneValue(gen_, res_.nfmt);
        } else {
          comps[i] = 0u;
        }
      }
      return comps;
    }
    if (g.anyUnknown) return comps;
    fetched = true;
    std::span<const uint8_t> bytes(g.bytes.data(), res_.elemBytes);
    LoadedElement e;
    if (!d16) {
      e = loadElement(gen_, res_.dfmt, res_.nfmt, bytes, pol_);
    } else {
      e.count = res_.fmtComponents;
      for (unsigned c = 0; c < e.count; ++c) {
        auto h = loadComponentD16(gen_, res_.dfmt, res_.nfmt, c,
                                  extractComponent(res_.dfmt, c, bytes, pol_), pol_);
        if (h)
          e.reg[c] = *h;
        else
          e.undefinedReason = "D16 conversion not defined for this format (convert.h)";
      }
    }
    comps = applyDstSel(gen_, res_.nfmt, e, res_.sel);
    for (unsigned i = 0; i < 4; ++i) {
      if (d16 && res_.sel[i] == DstSel::One) comps[i] = oneValueD16(res_.nfmt);
      if (comps[i] || i >= op_.components) continue;
      if (isSelReserved(res_.sel[i]))
        addLaneNote(lr, kReservedSel);
      else if (!e.undefinedReason.empty())
        addLaneNote(lr, e.undefinedReason);
      else
        addLaneNote(lr, "DST_SEL names a component the data format lacks: value not claimed");
    }
    return comps;
  }

  void loadFormat(unsigned lane, LaneResult& lr) {
    bool fetched = false;
    auto comps = formatValues(lane, lr, fetched);
    if (inst_.lds) {
      ldsWrite(lane, comps[0], lr);
      return;
    }
    const unsigned n = vdataRegs(op_, chip_, false);
    lr.vdataCount = static_cast<uint8_t>(vdataRegs(op_, chip_, inst_.tfe));
    if (!op_.d16) {
      for (unsigned i = 0; i < n; ++i)
        lr.vdata[i] = comps[i];
    } else if (!chip_.d16Packed) {
      // Unpacked D16 (gfx801-803): one VGPR per component, the half in bits 15:0. The
      // upper half is taken as 0 (LLVM truncates it away, no document states it).
      addNote(out_.notes, "unpacked D16: upper 16 bits of each VGPR assumed 0 (undocumented)");
      for (unsigned i = 0; i < n; ++i)
        lr.vdata[i] = comps[i];
    } else {
      // Packed D16 (gfx810, GFX9; AMD RDNA3 ISA: LSB first). A half the instruction does not
      // produce keeps the register's old bits (LLVM: D16PreservesUnusedBits on GFX9).
      for (unsigned r = 0; r < n; ++r) {
        std::optional<uint32_t> lo, hi;
        const uint32_t old = vreg(r, lane);
        if (op_.d16Hi) {
          lo = old & 0xffffu;
          hi = comps[0];
        } else {
          lo = comps[2 * r];
          hi = 2 * r + 1 < op_.components ? comps[2 * r + 1] : std::optional(old >> 16);
        }
        const bool keeps = op_.d16Hi || 2 * r + 1 >= op_.components;
        if (keeps && pol_.d16Keep() == policy::D16Keep::Unclaimed) {
          addLaneNote(lr, kD16HalfUnclaimed);
          continue;
        }
        if (lo && hi) lr.vdata[r] = (*lo & 0xffffu) | (*hi << 16);
      }
    }
    tfe(n, fetched, lr);
  }

  void tfe(unsigned index, bool fetched, LaneResult& lr) {
    if (!inst_.tfe) return;
    if (fetched) {
      lr.vdata[index] = 0u;
    } else {
      addLaneNote(lr, kTfeUnknown);
    }
  }

  // CLRX GcnMemHandling: LDS_ADDR = LDS_BASE + (M0 & 0xffff) + LANEID*4, LDS_BASE = 0 for the
  // image.
  void ldsWrite(unsigned lane, std::optional<uint32_t> value, LaneResult& lr) {
    const uint64_t at = (in_.m0 & 0xffffu) + 4ull * lane;
    if (at + 4 > out_.lds.size()) {
      addLaneNote(lr, "LDS address outside the LDS image: not written");
      return;
    }
    if (!value) {
      addLaneNote(lr, "LDS value not claimed: LDS left unchanged");
      return;
    }
    std::memcpy(out_.lds.data() + at, &*value, 4);
  }

  // ---- format stores ------------------------------------------------------------------

  // Register values of the components the instruction supplies (AMD RDNA3 ISA D16 layout).
  std::array<uint32_t, 4> storeSources(unsigned lane) const {
    std::array<uint32_t, 4> src{};
    for (unsigned i = 0; i < op_.components; ++i) {
      if (!op_.d16)
        src[i] = vreg(i, lane);
      else if (!chip_.d16Packed)
        src[i] = vreg(i, lane) & 0xffffu;
      else if (op_.d16Hi)
        src[i] = vreg(0, lane) >> 16;
      else
        src[i] = (vreg(i / 2, lane) >> (16 * (i % 2))) & 0xffffu;
    }
    return src;
  }

  // The format's components from the supplied ones; false when one has no value. AMD RDNA3 ISA:
  // store_format_x on a 4-component format stores every component "as DST_SEL selects":
  // SEL_0/SEL_1 give constants, SEL_X..W a supplied component.
  bool storeRegisters(const std::array<uint32_t, 4>& src, std::array<uint32_t, 4>& regs) const {
    std::array<bool, 4> assigned{};
    // Policy store-dst-sel=inverse: a supplied register component i lands in the memory
    // component that DST_SEL[i] names (the inverse of the load swizzle). Under forward every
    // memory component takes what DST_SEL names, as the components the opcode lacks do.
    const bool forward = pol_.storeDstSel() == policy::StoreDstSel::Forward;
    if (pol_.storeDstSel() == policy::StoreDstSel::Inverse) {
      for (unsigned i = 0; i < op_.components; ++i) {
        const DstSel s = res_.sel[i];
        if (s < DstSel::X) continue;
        const unsigned k = static_cast<unsigned>(s) - static_cast<unsigned>(DstSel::X);
        if (k < res_.fmtComponents && !assigned[k]) regs[k] = src[i], assigned[k] = true;
      }
    }
    bool claimed = true;
    for (unsigned j = 0; j < res_.fmtComponents; ++j) {
      if (assigned[j]) continue;
      if (j < op_.components && !forward) {
        regs[j] = src[j];
        continue;
      }
      const DstSel s = res_.sel[j];
      const unsigned k = static_cast<unsigned>(s) - static_cast<unsigned>(DstSel::X);
      if (s == DstSel::Zero)
        regs[j] = 0;
      else if (s == DstSel::One)
        regs[j] = op_.d16 ? oneValueD16(res_.nfmt) : oneValue(gen_, res_.nfmt);
      else if (!isSelReserved(s) && k < op_.components)
        regs[j] = src[k];
      else
        claimed = false;
    }
    return claimed;
  }

  // The element's bytes from the format's register components; false with `why` when the
  // conversion is not defined.
  bool encodeElement(const std::array<uint32_t, 4>& regs, std::array<uint8_t, 16>& bytes,
                     std::string_view& why) const {
    if (!op_.d16) {
      const StoredElement se =
          storeElement(gen_, res_.dfmt, res_.nfmt,
                       std::span<const uint32_t>(regs.data(), res_.fmtComponents), pol_);
      if (!se.defined) {
        why = se.reason;
        return false;
      }
      bytes = se.bytes;
      return true;
    }
    for (unsigned c = 0; c < res_.fmtComponents; ++c) {
      const auto code =
          storeComponentD16(gen_, res_.dfmt, res_.nfmt, c, static_cast<uint16_t>(regs[c]), pol_);
      if (!code) {
        why = "D16 store conversion not defined for this format";
        return false;
      }
      insertComponent(res_.dfmt, c, *code, std::span<uint8_t>(bytes.data(), res_.elemBytes), pol_);
    }
    return true;
  }

  void storeFormat(unsigned lane, LaneResult& lr) {
    if (res_.zero || res_.fmtInvalid) return;
    if (!res_.fmtUnclaimed.empty()) {
      addLaneNote(lr, res_.fmtUnclaimed);
      mem_.plan(lane, res_.elemBytes, CheckUnit::Whole, true, lr);
      addLaneNote(lr, "store not performed");
      return;
    }
    std::array<uint32_t, 4> regs{};
    std::array<uint8_t, 16> bytes{};
    std::string_view why =
        "a format component missing from the instruction has no DST_SEL constant or supplied "
        "source: element not claimed";
    const bool claimed =
        storeRegisters(storeSources(lane), regs) && encodeElement(regs, bytes, why);
    const AccessPlan& p = mem_.plan(lane, res_.elemBytes, CheckUnit::Whole, true, lr);
    if (!claimed) {
      addLaneNote(lr, why);
      addLaneNote(lr, "store not performed");
      lr.memoryUnclaimed = true;
      return;
    }
    mem_.scatter(p, bytes, lane, lr);
  }

  // ---- typed loads and stores ---------------------------------------------------------

  void loadTyped(unsigned lane, LaneResult& lr) {
    const uint32_t bytes = op_.memBytes;
    // AMD RDNA3 ISA: DWORDX2..4 are range-checked per dword, smaller ones as a whole.
    const AccessPlan& p =
        mem_.plan(lane, bytes, bytes > 4 ? CheckUnit::PerDword : CheckUnit::Whole, false, lr);
    Gathered g = mem_.gather(p, lr);
    const bool fetched = g.allIn && !g.anyUnknown;
    if (bytes >= 4) {
      const unsigned n = bytes / 4;
      for (unsigned k = 0; k < n; ++k) {
        if (std::any_of(g.unknown.begin() + 4 * k, g.unknown.begin() + 4 * k + 4,
                        [](bool u) { return u; }))
          continue;
        uint32_t d;
        std::memcpy(&d, g.bytes.data() + 4 * k, 4);
        lr.vdata[k] = d;
      }
      if (inst_.lds) {
        ldsWrite(lane, lr.vdata[0], lr);
        lr.vdata = {};
        return;
      }
      lr.vdataCount = static_cast<uint8_t>(vdataRegs(op_, chip_, inst_.tfe));
      tfe(n, fetched, lr);
      return;
    }
    std::optional<uint32_t> raw;
    if (!g.unknown[0] && !(bytes == 2 && g.unknown[1]))
      raw = bytes == 1 ? g.bytes[0] : static_cast<uint32_t>(g.bytes[0] | (g.bytes[1] << 8));
    if (inst_.lds) {
      // CLRX GcnMemHandling: sub-dword values land in LDS zero-extended, for SBYTE/SSHORT too.
      if (op_.signExtend)
        addNote(out_.notes, "LDS-direct SBYTE/SSHORT: zero-extended per CLRX GcnMemHandling");
      ldsWrite(lane, raw, lr);
      return;
    }
    const unsigned bits = 8 * bytes;
    std::optional<uint32_t> value;
    if (raw) {
      uint32_t x = *raw;
      if (op_.signExtend && (x >> (bits - 1)) & 1) x |= ~0u << bits;
      value = x;
    }
    lr.vdataCount = static_cast<uint8_t>(vdataRegs(op_, chip_, inst_.tfe));
    if (!op_.d16) {
      lr.vdata[0] = value;
    } else if (value) {
      // GFX9 D16 byte/short loads write one half and keep the other (AMD RDNA3 ISA; LLVM ties
      // the old VDATA as an input of *_D16 and *_D16_HI).
      const uint32_t old = vreg(0, lane), half = *value & 0xffffu;
      if (pol_.d16Keep() == policy::D16Keep::Unclaimed)
        addLaneNote(lr, kD16HalfUnclaimed);
      else
        lr.vdata[0] = op_.d16Hi ? (old & 0xffffu) | (half << 16) : (old & 0xffff0000u) | half;
    }
    tfe(1, fetched, lr);
  }

  void storeTyped(unsigned lane, LaneResult& lr) {
    const uint32_t bytes = op_.memBytes;
    std::array<uint8_t, 16> data{};
    if (inst_.lds) {
      // BUFFER_STORE_LDS_DWORD (GFX8/9): the dword comes from LDS at the CLRX GcnMemHandling
      // address.
      const uint64_t at = (in_.m0 & 0xffffu) + 4ull * lane;
      if (at + 4 > out_.lds.size()) {
        addLaneNote(lr, "LDS address outside the LDS image: store not performed");
        mem_.plan(lane, bytes, CheckUnit::Whole, true, lr);
        return;
      }
      std::memcpy(data.data(), out_.lds.data() + at, 4);
    } else if (bytes >= 4) {
      for (unsigned k = 0; k < bytes / 4; ++k) {
        const uint32_t d = vreg(k, lane);
        std::memcpy(data.data() + 4 * k, &d, 4);
      }
    } else {
      const uint32_t r = op_.d16Hi ? vreg(0, lane) >> 16 : vreg(0, lane);
      data[0] = static_cast<uint8_t>(r);
      data[1] = static_cast<uint8_t>(r >> 8);
    }
    const AccessPlan& p =
        mem_.plan(lane, bytes, bytes > 4 ? CheckUnit::PerDword : CheckUnit::Whole, true, lr);
    mem_.scatter(p, std::span<const uint8_t>(data.data(), 16), lane, lr);
  }

  // ---- atomics ------------------------------------------------------------------------

  void atomic(unsigned lane, LaneResult& lr) {
    const uint32_t bytes = op_.memBytes;
    const bool wide = op_.wide;
    const unsigned words = wide ? 2 : 1;
    auto operand = [&](unsigned first) {
      uint64_t x = vreg(first, lane);
      if (wide) x |= static_cast<uint64_t>(vreg(first + 1, lane)) << 32;
      return x;
    };
    const bool hasCmp = op_.atomic == AtomicOp::Cmpswap || op_.atomic == AtomicOp::Fcmpswap;
    const uint64_t src = operand(0), cmp = hasCmp ? operand(words) : 0;
    const AccessPlan& p = mem_.plan(lane, bytes, CheckUnit::Whole, true, lr);
    if (inst_.glc) lr.vdataCount = static_cast<uint8_t>(words);
    bool in = !p.pieces.empty();
    for (const AccessPiece& piece : p.pieces)
      in = in && piece.inRange;
    if (!in) {
      // AMD RDNA3 ISA: out-of-range atomics are dropped; the returned value is the load's zero.
      for (unsigned w = 0; w < words; ++w)
        lr.vdata[w] = 0u;
      if (unalignedComponent(lane)) unclaimAtomic(lr, words);
      return;
    }
    if (p.pieces.size() != 1 || !mem_.mapped(p.pieces[0].address, bytes)) {
      addLaneNote(lr, kUnmapped);
      return;
    }
    const uint64_t address = p.pieces[0].address;
    if (wide && address % 8 != 0)
      addNote(out_.notes,
              "64-bit atomic at an address that is not 8-byte aligned: AMD RDNA3 ISA "
              "(RDNA) says MEMVIOL; performed here at the dword-aligned address");
    uint64_t mem = 0;
    std::memcpy(&mem, mem_.at(address, bytes), bytes);
    AtomicOutcome o = applyAtomic(op_.atomic, wide, mem, src, cmp);
    std::memcpy(mem_.writableAt(address, bytes), &o.newValue, bytes);
    mem_.recordWrite(address, static_cast<uint8_t>(bytes), lane);
    if (!o.claimed) {
      addLaneNote(lr, o.reason);
      addLaneNote(lr, "memory value after the atomic not claimed");
      lr.memoryUnclaimed = true;
      addNote(out_.notes, o.reason);
    }
    lr.vdata[0] = static_cast<uint32_t>(mem);
    if (wide) lr.vdata[1] = static_cast<uint32_t>(mem >> 32);
    if (unalignedComponent(lane)) unclaimAtomic(lr, words);
  }

  // LLVM AMDGPU SIInstrInfo.cpp splitMUBUFOffset: "Atomic operations fail to work correctly
  // when individual address components are unaligned", even when the sum is aligned. What the
  // failure does is not recorded: the access is planned from the sum (so the reach covers it),
  // and neither the returned value nor the memory after it is claimed, in range or not.
  bool unalignedComponent(unsigned lane) const {
    const AddressOperands a = address_.forLane(lane);
    const uint32_t voffset = a.offen ? a.vaddr[a.idxen ? 1 : 0] : 0u;
    return !a.addr64 && ((a.instOffset | voffset | a.soffset) & 3u) != 0;
  }
  void unclaimAtomic(LaneResult& lr, unsigned words) {
    for (unsigned w = 0; w < words; ++w)
      lr.vdata[w] = std::nullopt;
    addLaneNote(lr, kUnalignedAtomicComponent);
    addLaneNote(lr, "memory value after the atomic not claimed");
    lr.memoryUnclaimed = true;
    addNote(out_.notes, kUnalignedAtomicComponent);
  }

  // ---- wave-wide ----------------------------------------------------------------------

  void writeBack(unsigned lane, const LaneResult& lr) {
    if (!out_.state) return;
    for (unsigned i = 0; i < lr.vdataCount; ++i)
      if (lr.vdata[i]) out_.state->vgprMut(inst_.vdata + i)[lane] = *lr.vdata[i];
  }

  const Chip& chip_;
  Gen gen_;
  const Instruction& inst_;
  const OpcodeInfo& op_;
  const WaveState& in_;
  const Policies& pol_;
  ExecResult& out_;
  WaveResource res_;
  AddressInputs address_;
  std::array<const LaneWords*, 5> vdataIn_{};
  WaveMemory mem_;  // reads res_ and address_, which prepare() fills
};

void checkVsharpQuad(unsigned srsrc) {
  if (srsrc % 4 != 0 || srsrc + 3u >= kSgprCount)
    throw Error("srsrc: s[" + std::to_string(srsrc) +
                ":+3] is not a 4-aligned SGPR quad inside s0..s103");
}

}  // namespace

ConversionFormat conversionFormat(Gen gen, const OpcodeInfo& op, const Instruction& inst,
                                  const VSharp& v) {
  auto pick = [&](FieldSource s, auto fromInst, auto fromRes, const char* what) {
    if (s == FieldSource::Instruction) return fromInst;
    if (s == FieldSource::Resource) return fromRes;
    throw Error(std::string(op.mnemonic) + ": " + what +
                " source is not instruction or resource for a format op (opcode table)");
  };
  // RDNA MTBUF: the instruction's unified FORMAT names the pair (a code with none: INVALID).
  Dfmt instDfmt = inst.dfmt;
  Nfmt instNfmt = inst.nfmt;
  if (isRdna(gen)) {
    const UnifiedFormat* u = findUnifiedFormat(gen, inst.format);
    instDfmt = u != nullptr ? u->dfmt : Dfmt::Invalid;
    instNfmt = u != nullptr ? u->nfmt : Nfmt::Unorm;
  }
  ConversionFormat f;
  f.dfmt = pick(op.dfmtSource, instDfmt, v.dataFormat, "data format");
  f.nfmt = pick(op.nfmtSource, instNfmt, v.numFormat, "number format");
  if (op.dstSelSource == FieldSource::Resource) f.dstSel = v.dstSel;
  return f;
}

const LaneWords& WaveState::vgpr(unsigned r) const {
  static constexpr LaneWords kZero{};
  if (r >= kVgprCount) throw Error("v" + std::to_string(r) + ": past v255");
  const auto it = std::lower_bound(vgprs_.begin(), vgprs_.end(), r,
                                   [](const Vgpr& v, unsigned x) { return v.index < x; });
  return it != vgprs_.end() && it->index == r ? it->lanes : kZero;
}

LaneWords& WaveState::vgprMut(unsigned r) {
  if (r >= kVgprCount) throw Error("v" + std::to_string(r) + ": past v255");
  auto it = std::lower_bound(vgprs_.begin(), vgprs_.end(), r,
                             [](const Vgpr& v, unsigned x) { return v.index < x; });
  if (it == vgprs_.end() || it->index != r) it = vgprs_.insert(it, Vgpr{r, {}});
  return it->lanes;
}

bool WaveState::hasVgpr(unsigned r) const {
  const auto it = std::lower_bound(vgprs_.begin(), vgprs_.end(), r,
                                   [](const Vgpr& v, unsigned x) { return v.index < x; });
  return it != vgprs_.end() && it->index == r;
}

std::array<uint32_t, 4> vsharpWords(const WaveState& state, unsigned srsrc) {
  checkVsharpQuad(srsrc);
  return {state.sgpr[srsrc], state.sgpr[srsrc + 1], state.sgpr[srsrc + 2], state.sgpr[srsrc + 3]};
}

void setVsharpWords(WaveState& state, unsigned srsrc, const std::array<uint32_t, 4>& words) {
  checkVsharpQuad(srsrc);
  for (unsigned i = 0; i < 4; ++i)
    state.sgpr[srsrc + i] = words[i];
}

AddressInputs addressInputs(const Instruction& inst, const WaveState& state) {
  AddressInputs in;
  in.offen = inst.offen;
  in.idxen = inst.idxen;
  in.addr64 = inst.addr64;
  in.offset = inst.offset;
  in.soffset = soffsetValue(inst, state);
  const unsigned n = vaddrRegs(inst);
  if (inst.vaddr + n > 256)
    throw Error("vaddr: v" + std::to_string(inst.vaddr) + " runs past v255");
  for (unsigned i = 0; i < n && i < 2; ++i)
    in.vaddr[i] = &state.vgpr(inst.vaddr + i);
  return in;
}

AddressOperands AddressInputs::forLane(unsigned lane) const {
  AddressOperands a;
  a.offen = offen;
  a.idxen = idxen;
  a.addr64 = addr64;
  a.instOffset = offset;
  a.soffset = soffset;
  a.lane = lane;
  for (unsigned i = 0; i < 2 && vaddr[i] != nullptr; ++i)
    a.vaddr[i] = (*vaddr[i])[lane];
  return a;
}

namespace {
template <class Image, class Byte>
Byte* findIn(Image& m, uint64_t address, uint64_t size) {
  const auto in = [&](uint64_t base, std::size_t n) {
    return address >= base && address - base <= n && size <= n - (address - base);
  };
  if (in(m.base, m.bytes.size())) return m.bytes.data() + (address - m.base);
  for (auto& r : m.far)
    if (in(r.base, r.bytes.size())) return r.bytes.data() + (address - r.base);
  return nullptr;
}
}  // namespace

const uint8_t* MemoryImage::find(uint64_t address, uint64_t size) const {
  return findIn<const MemoryImage, const uint8_t>(*this, address, size);
}
uint8_t* MemoryImage::find(uint64_t address, uint64_t size) {
  return findIn<MemoryImage, uint8_t>(*this, address, size);
}

std::string MemoryImage::layoutProblem() const {
  std::vector<std::pair<uint64_t, uint64_t>> spans{{base, bytes.size()}};
  for (const MemoryRegion& r : far) {
    if (r.bytes.empty()) return "a far region at " + hexNumber(r.base) + " has no bytes";
    if (r.bytes.size() - 1 > ~0ull - r.base)
      return "the far region at " + hexNumber(r.base) + " runs past 2^64";
    spans.emplace_back(r.base, r.bytes.size());
  }
  std::sort(spans.begin(), spans.end());
  for (std::size_t i = 1; i < spans.size(); ++i)
    if (spans[i].first - spans[i - 1].first < spans[i - 1].second)
      return "the memory regions at " + hexNumber(spans[i - 1].first) + " (" +
             std::to_string(spans[i - 1].second) + " bytes) and " + hexNumber(spans[i].first) +
             " overlap";
  return "";
}

const MemoryImage& ExecResult::memory() const {
  static const MemoryImage kNone;
  if (written) return *written;
  return unchanged != nullptr ? *unchanged : kNone;
}

ExecResult execute(const Chip& chip, const Instruction& inst, const WaveState& state,
                   const MemoryImage& memory, const std::vector<uint8_t>& lds,
                   const Policies& policies, const ExecOptions& options) {
  if (inst.op == nullptr) throw Error("execute: instruction has no opcode");
  validate(chip.gen, inst);
  if (!memory.far.empty())
    if (const std::string p = memory.layoutProblem(); !p.empty()) throw Error("execute: " + p);
  ExecResult out;
  if (writesMemory(inst.op->kind))
    out.written = memory;
  else
    out.unchanged = &memory;
  out.lds = lds;
  if (options.registers) out.state = state;
  WaveRun(chip, inst, state, memory, policies, out).run();
  return out;
}

}  // namespace gcn
