#include "reference/load_batch.h"

#include <cstring>

#include "reference/convert.h"
#include "reference/convert_table.h"
#include "reference/error.h"
#include "reference/format.h"

namespace gcn {

namespace {

bool isReserved(DstSel s) {
  return s == DstSel::Reserved2 || s == DstSel::Reserved3;
}

}  // namespace

FormatLoadBatch::FormatLoadBatch(const Chip& chip, const Instruction& inst,
                                 const WaveState& scalars, const Policies& policies)
    : gen_(chip.gen), inst_(inst), policies_(policies) {
  if (inst.op == nullptr) throw Error("format load batch: the instruction has no opcode");
  validate(gen_, inst);
  const OpcodeInfo& op = *inst.op;
  if (op.kind != OpKind::LoadFormat)
    throw Error("format load batch: " + std::string(op.mnemonic) + " is not a format load");
  if (op.d16) throw Error("format load batch: D16 loads are not batched (use execute())");
  if (inst.lds) throw Error("format load batch: LDS loads are not batched (use execute())");
  if (inst.tfe) throw Error("format load batch: TFE is not batched (use execute())");
  const std::array<uint32_t, 4> words = vsharpWords(scalars, inst.srsrc);
  v_ = accessVSharp(gen_, decodeVSharp(gen_, words), op.encoding == Encoding::Mtbuf);
  // SOFFSET's value as the executor reads it; the VADDR values come from run().
  soffset_ = addressInputs(inst, scalars).soffset;
  registers_ = vdataRegs(op, chip, false);

  // The format the conversion uses: the instruction's or the V#'s (opcode table), as execute().
  const ConversionFormat f = conversionFormat(gen_, op, inst, v_);
  dfmt_ = f.dfmt;
  nfmt_ = f.nfmt;
  sel_ = f.dstSel;
  elemBytes_ = dfmtInfo(dfmt_).bytes;
  components_ = dfmtInfo(dfmt_).components;
  if (words != std::array<uint32_t, 4>{} && op.dfmtSource == FieldSource::Resource &&
      dataFormatIsStrideBits(gen_, v_, op.encoding == Encoding::Mtbuf)) {
    elemBytes_ = formatAccessBytes(Dfmt::Reserved);  // as execute(): no format, no value
    unclaimed_ = "ADD_TID on a GFX8/9 MUBUF format op: DATA_FORMAT is stride bits";
    return;
  }
  zeroResult_ = words == std::array<uint32_t, 4>{} || dfmt_ == Dfmt::Invalid;
  if (zeroResult_) return;
  if (dfmt_ == Dfmt::Reserved) {
    elemBytes_ = formatAccessBytes(dfmt_);
    unclaimed_ = "DATA_FORMAT 15 is reserved: no value claimed";
    return;
  }
  const PairVerdict verdict = pairVerdict(gen_, dfmt_, nfmt_, Direction::Load, policies_);
  if (verdict.status != PairStatus::Defined) {
    unclaimed_ = std::string(verdict.reason);
    return;
  }
  table_ = std::make_unique<FormatLoadTable>(gen_, dfmt_, nfmt_, policies_);
  // Out of range: 0, or 1 for a SEL_1 component under oob-one=one; nothing claimed for a
  // reserved selector.
  for (unsigned i = 0; i < 4; ++i) {
    if (isReserved(sel_[i])) continue;
    outOfRange_[i] = sel_[i] == DstSel::One && policies_.oobDstSelOne() == policy::OobDstSelOne::One
                         ? oneValue(gen_, nfmt_)
                         : 0u;
  }
}

FormatLoadBatch::~FormatLoadBatch() = default;
FormatLoadBatch::FormatLoadBatch(FormatLoadBatch&&) noexcept = default;
FormatLoadBatch& FormatLoadBatch::operator=(FormatLoadBatch&&) noexcept = default;

void FormatLoadBatch::run(const MemoryImage& memory, std::span<const uint32_t> vaddr0,
                          std::span<const uint32_t> vaddr1, std::span<BatchLane> out) const {
  const unsigned vaddrCount = vaddrRegs(inst_);
  if (out.size() != vaddr0.size() || (vaddrCount == 2 && vaddr1.size() != vaddr0.size()))
    throw Error("format load batch: " + std::to_string(out.size()) + " lanes out, " +
                std::to_string(vaddr0.size()) + " VADDR values, " + std::to_string(vaddr1.size()) +
                " second VADDR values (the instruction reads " + std::to_string(vaddrCount) + ")");
  const uint8_t allRegs = static_cast<uint8_t>((1u << registers_) - 1);
  if (zeroResult_) {
    for (BatchLane& l : out)
      l = BatchLane{{}, allRegs, false};
    return;
  }
  // Pass 1: each lane's access. In-range lanes whose element is mapped get their bytes copied
  // side by side for one table conversion; the others are finished here.
  std::vector<uint8_t> staged(table_ ? out.size() * elemBytes_ : 0);
  std::vector<uint32_t> lanesStaged;
  if (table_) lanesStaged.reserve(out.size());
  AccessPlan plan;
  AddressOperands a;
  a.offen = inst_.offen;
  a.idxen = inst_.idxen;
  a.addr64 = inst_.addr64;
  a.instOffset = inst_.offset;
  a.soffset = soffset_;
  for (std::size_t i = 0; i < out.size(); ++i) {
    BatchLane& l = out[i];
    l = BatchLane{};
    a.lane = static_cast<unsigned>(i % kWaveSize);
    a.vaddr[0] = vaddrCount > 0 ? vaddr0[i] : 0;
    a.vaddr[1] = vaddrCount > 1 ? vaddr1[i] : 0;
    planAccessInto(gen_, v_, a, elemBytes_, std::min(elemBytes_, 4u), CheckUnit::Whole, policies_,
                   plan, false);
    bool allIn = !plan.pieces.empty();
    bool mapped = true;
    for (const AccessPiece& p : plan.pieces) {
      allIn = allIn && p.inRange;
      mapped = mapped && memory.find(p.address, p.size) != nullptr;
    }
    l.inRange = allIn;
    if (!unclaimed_.empty()) continue;  // nothing claimed
    if (!allIn) {
      for (unsigned c = 0; c < registers_; ++c)
        if (outOfRange_[c]) {
          l.reg[c] = *outOfRange_[c];
          l.claimed |= static_cast<uint8_t>(1u << c);
        }
      continue;
    }
    if (!mapped) continue;  // in range but outside the image: no value claimed
    const std::size_t at = lanesStaged.size() * elemBytes_;
    for (const AccessPiece& p : plan.pieces)
      std::memcpy(staged.data() + at + p.dataOffset, memory.find(p.address, p.size), p.size);
    lanesStaged.push_back(static_cast<uint32_t>(i));
  }
  if (lanesStaged.empty()) return;
  // Pass 2: one conversion of every staged element, then DST_SEL per lane.
  std::vector<uint32_t> comps(lanesStaged.size() * 4);
  table_->convert({staged.data(), lanesStaged.size() * elemBytes_}, elemBytes_, lanesStaged.size(),
                  comps);
  LoadedElement e;
  e.count = static_cast<uint8_t>(components_);
  for (std::size_t k = 0; k < lanesStaged.size(); ++k) {
    for (unsigned c = 0; c < components_; ++c)
      e.reg[c] = comps[k * 4 + c];
    const std::array<std::optional<uint32_t>, 4> regs = applyDstSel(gen_, nfmt_, e, sel_);
    BatchLane& l = out[lanesStaged[k]];
    for (unsigned c = 0; c < registers_; ++c)
      if (regs[c]) {
        l.reg[c] = *regs[c];
        l.claimed |= static_cast<uint8_t>(1u << c);
      }
  }
}

}  // namespace gcn
