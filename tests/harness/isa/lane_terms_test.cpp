// The data-path proof's address terms (harness/isa/lane_terms.h). The property: whenever the
// evaluator returns a term for an instruction, that term is, for every lane 0..63, the 32-bit
// result the instruction computes from the lane's operand values, computed here lane by lane
// from the ISA guides' descriptions of the instructions (AMD "Vega Instruction Set
// Architecture", Vector ALU operations; the same for GFX6-11). The evaluator may refuse; it must
// never be wrong. Every row of its table must name an instruction LLVM's assembler knows.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "harness/isa/lane_terms.h"
#include "reference/vgpr_table.h"

namespace lane_terms_test {

using gcnprobe::isa::LaneOp;
using gcnprobe::isa::LaneTerm;

constexpr unsigned kLanes = 64;

uint32_t valueAt(const LaneTerm& t, unsigned lane) {
  return static_cast<uint32_t>(t.a * static_cast<int64_t>(lane) + t.b);
}

// One lane's result, from the instruction descriptions (the low 5 bits of a shift amount;
// the low 24 bits of each operand of a 24-bit multiply, sign-extended for the signed one).
uint32_t oneLane(LaneOp op, uint32_t x, uint32_t y, uint32_t z) {
  const auto i24 = [](uint32_t v) {
    return static_cast<int64_t>(static_cast<int32_t>(v << 8) >> 8);
  };
  switch (op) {
    case LaneOp::Move:
      return x;
    case LaneOp::Add:
      return x + y;
    case LaneOp::Sub:
      return x - y;
    case LaneOp::SubRev:
      return y - x;
    case LaneOp::ShlRev:
      return y << (x & 31);
    case LaneOp::Shl:
      return x << (y & 31);
    case LaneOp::MulU24:
      return (x & 0xffffff) * (y & 0xffffff);
    case LaneOp::MulI24:
      return static_cast<uint32_t>(i24(x) * i24(y));
    case LaneOp::MulLo:
      return x * y;
    case LaneOp::MadU24:
      return (x & 0xffffff) * (y & 0xffffff) + z;
    case LaneOp::MadI24:
      return static_cast<uint32_t>(i24(x) * i24(y)) + z;
    case LaneOp::LshlAdd:
      return (x << (y & 31)) + z;
    case LaneOp::AddLshl:
      return (x + y) << (z & 31);
    case LaneOp::LshlOr:
      return (x << (y & 31)) | z;
    case LaneOp::Or:
      return x | y;
    case LaneOp::Or3:
      return x | y | z;
    case LaneOp::Add3:
      return x + y + z;
    case LaneOp::And:
      return x & y;
    case LaneOp::BfeU32: {
      const uint32_t width = z & 31;
      return width == 0 ? 0 : (x >> (y & 31)) & ((1u << width) - 1);
    }
  }
  return 0;
}

TEST(LaneTerms, EveryRowNamesAnInstructionTheAssemblerKnows) {
  for (const auto& row : gcnprobe::isa::laneOpTable()) {
    bool known = false;
    for (const auto& op : gcn::vgprOpTable())
      known = known || (op.cls == gcn::VgprClass::Valu && op.mnemonic == row.mnemonic);
    EXPECT_TRUE(known) << row.mnemonic;
    EXPECT_EQ(gcnprobe::isa::laneOpOf(row.mnemonic), row.op) << row.mnemonic;
  }
  EXPECT_FALSE(gcnprobe::isa::laneOpOf("v_addc_u32"));  // reads VCC: not modelled
  EXPECT_FALSE(gcnprobe::isa::laneOpOf("v_add_u32_e64"));
}

// Random operands (lane terms whose 64 values fit 32 bits, and constants that matter to
// addresses: masks, shift amounts, small offsets, negative ones), every modelled operation:
// each returned term equals the lane-by-lane result.
TEST(LaneTerms, EveryReturnedTermIsTheInstructionsResultInEveryLane) {
  std::mt19937_64 rng(20261129);
  const std::vector<uint32_t> constants = {
      0,        1,          2,          3,          4,          5,       8,     16,
      24,       31,         32,         33,         64,         512,     0x3ff, 0xffffff,
      0x7fffff, 0xfffffffc, 0xfffffff0, 0xffffffff, 0x80000000, 1u << 24};
  const auto randomTerm = [&]() -> LaneTerm {
    switch (rng() % 4) {
      case 0:
        return {0, constants[rng() % constants.size()]};
      case 1: {
        const int64_t as[] = {1, 2, 4, 8, 16, -4, -16, 3, 12};
        const int64_t a = as[rng() % 9];
        const int64_t b = a < 0 ? -a * 63 + static_cast<int64_t>(rng() % 4096) : rng() % 4096;
        return {a, b};
      }
      case 2:
        return {static_cast<int64_t>(rng() % 0x4000000), static_cast<int64_t>(rng() % 0x100000)};
      default:
        return {0, static_cast<int64_t>(rng() & 0xffffffffu)};
    }
  };
  std::size_t terms = 0, refused = 0;
  for (const auto& row : gcnprobe::isa::laneOpTable()) {
    for (int trial = 0; trial < 600; ++trial) {
      std::array<std::optional<LaneTerm>, 3> ops;
      for (auto& o : ops) {
        LaneTerm t = randomTerm();
        while (!gcnprobe::isa::inWordRange(t, kLanes))
          t = randomTerm();
        o = t;
      }
      std::string why;
      const std::optional<LaneTerm> r = gcnprobe::isa::evaluateLaneOp(row.op, ops, kLanes, why);
      if (!r) {
        ++refused;
        EXPECT_FALSE(why.empty()) << row.mnemonic;
        continue;
      }
      ++terms;
      ASSERT_TRUE(gcnprobe::isa::inWordRange(*r, kLanes)) << row.mnemonic;
      for (unsigned l = 0; l < kLanes; ++l)
        ASSERT_EQ(valueAt(*r, l),
                  oneLane(row.op, valueAt(*ops[0], l), valueAt(*ops[1], l), valueAt(*ops[2], l)))
            << row.mnemonic << " lane " << l << " operands " << gcnprobe::isa::laneTermText(*ops[0])
            << ", " << gcnprobe::isa::laneTermText(*ops[1]) << ", "
            << gcnprobe::isa::laneTermText(*ops[2]);
    }
  }
  // The property is not vacuous: most random operands give terms.
  EXPECT_GT(terms, refused);
}

// The address shapes compilers emit, and refusals that keep the proof sound.
TEST(LaneTerms, AddressShapesAndRefusals) {
  const LaneTerm lane{1, 0};
  const auto eval = [](LaneOp op, std::optional<LaneTerm> x, std::optional<LaneTerm> y,
                       std::optional<LaneTerm> z = LaneTerm{}) {
    std::string why;
    const std::array<std::optional<LaneTerm>, 3> ops{x, y, z};
    return gcnprobe::isa::evaluateLaneOp(op, ops, kLanes, why);
  };
  const auto c = [](int64_t v) { return LaneTerm{0, v}; };
  EXPECT_EQ(eval(LaneOp::ShlRev, c(4), lane), (LaneTerm{16, 0}));
  EXPECT_EQ(eval(LaneOp::MulU24, c(16), lane), (LaneTerm{16, 0}));
  EXPECT_EQ(eval(LaneOp::And, c(0x3ff), LaneTerm{16, 0}), (LaneTerm{16, 0}));
  EXPECT_EQ(eval(LaneOp::And, c(0xfffffffc), LaneTerm{4, 0}), (LaneTerm{4, 0}));
  EXPECT_EQ(eval(LaneOp::Or, c(4), LaneTerm{16, 0}), (LaneTerm{16, 4}));
  EXPECT_EQ(eval(LaneOp::LshlAdd, lane, c(4), c(512)), (LaneTerm{16, 512}));
  EXPECT_EQ(eval(LaneOp::Add, c(0xfffffffc), LaneTerm{16, 4}), (LaneTerm{16, 0}));
  EXPECT_EQ(eval(LaneOp::Sub, c(0), c(4)), c(0xfffffffc));
  // Lane 0 wraps below 0, lane 1 does not: no one linear term.
  EXPECT_FALSE(eval(LaneOp::Add, c(0xfffffffc), LaneTerm{16, 0}));
  EXPECT_FALSE(eval(LaneOp::MulLo, lane, lane));                     // quadratic
  EXPECT_FALSE(eval(LaneOp::ShlRev, lane, c(1)));                    // lane-dependent shift
  EXPECT_FALSE(eval(LaneOp::Or, c(8), LaneTerm{4, 0}));              // bit 3 may be set
  EXPECT_FALSE(eval(LaneOp::And, c(0xff), LaneTerm{16, 0}));         // drops bits of lanes >= 16
  EXPECT_FALSE(eval(LaneOp::MulU24, c(16), LaneTerm{1, 0xffffff}));  // beyond 24 bits
  EXPECT_FALSE(eval(LaneOp::Add, std::nullopt, lane));
  EXPECT_EQ(gcnprobe::isa::laneTermText(LaneTerm{16, 512}), "16*lane + 512");
  EXPECT_EQ(gcnprobe::isa::laneTermText(lane), "lane");
  EXPECT_EQ(gcnprobe::isa::laneTermText(LaneTerm{}), "0");
}

}  // namespace lane_terms_test
