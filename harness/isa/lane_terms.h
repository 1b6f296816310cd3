// The arithmetic of the data-path proof's addresses: a VGPR value that is an exact linear
// function of the lane's id, a*l + b for every lane l in [0, lanes), and what the integer VALU
// instructions that compilers use for address arithmetic do to such values (AMD's GCN3 and
// Vega ISA guides and the RDNA guides, "Vector ALU instructions": shifts take their amount from
// the low 5 bits, the 24-bit multiplies read the low 24 bits of each operand, BFE extracts a
// bit field). Every step is evaluated over the integers and must stay in [0, 2^32) for every
// lane, so the 32-bit hardware result is the integer one: a step that could wrap, a multiply of
// two lane-dependent values, an OR or AND whose bits the term cannot show apart, a modifier or
// an instruction the table below lacks is no term, and the proof that needs it breaks.
//
// Two terms are equal exactly when both coefficients are: the normal form a*l + b decides
// equality of any chain of the modelled instructions, so no pattern of ACO's is assumed.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gcnprobe::isa {

struct LaneTerm {
  int64_t a = 0;  // per lane
  int64_t b = 0;  // constant
  bool operator==(const LaneTerm&) const = default;
};

// "16*lane + 512", "4*lane", "8".
std::string laneTermText(const LaneTerm& t);

// The smallest and largest value over lanes [0, lanes).
int64_t laneTermMin(const LaneTerm& t, unsigned lanes);
int64_t laneTermMax(const LaneTerm& t, unsigned lanes);

// `t` when every lane's value is in [0, 2^32), else nullopt.
std::optional<LaneTerm> inWordRange(const LaneTerm& t, unsigned lanes);

// The VALU instructions the terms model, by the VGPR table's mnemonic (reference/vgpr_table.h,
// without _e32/_e64), and what each computes from its operands.
enum class LaneOp : uint8_t {
  Move,    // src0
  Add,     // src0 + src1
  Sub,     // src0 - src1
  SubRev,  // src1 - src0
  ShlRev,  // src1 << src0[4:0]
  Shl,     // src0 << src1[4:0] (gfx6/7 v_lshl_b32)
  MulU24,  // src0[23:0] * src1[23:0]
  MulI24,  // the same, signed 24-bit operands
  MulLo,   // low 32 bits of src0 * src1
  MadU24,  // src0[23:0] * src1[23:0] + src2
  MadI24,
  LshlAdd,  // (src0 << src1[4:0]) + src2
  AddLshl,  // (src0 + src1) << src2[4:0]
  LshlOr,   // (src0 << src1[4:0]) | src2
  Or,       // src0 | src1
  Or3,      // src0 | src1 | src2
  Add3,     // src0 + src1 + src2
  And,      // src0 & src1
  BfeU32,   // (src0 >> src1[4:0]) & ((1 << src2[4:0]) - 1)
};
struct LaneOpRow {
  std::string_view mnemonic;
  LaneOp op;
};
// Every modelled mnemonic once (tests check each against the VGPR table).
std::span<const LaneOpRow> laneOpTable();
std::optional<LaneOp> laneOpOf(std::string_view mnemonic);

// The result of `op` on `operands` (nullopt: an operand that is no term), or nullopt with
// `why` saying which step the terms cannot follow.
std::optional<LaneTerm> evaluateLaneOp(LaneOp op, std::span<const std::optional<LaneTerm>> operands,
                                       unsigned lanes, std::string& why);

}  // namespace gcnprobe::isa
