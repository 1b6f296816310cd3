#include "harness/isa/lane_terms.h"

#include <algorithm>
#include <array>

namespace gcnprobe::isa {
namespace {

__extension__ typedef __int128 Wide;  // products of two 32-bit values and a lane count

constexpr Wide kWord = Wide{1} << 32;

Wide floorDiv(Wide x, Wide d) {
  Wide q = x / d;
  if (x % d != 0 && x < 0) --q;
  return q;
}

// The 32-bit value of a*l + b for every lane: the integer term moved by a multiple of 2^32 when
// all lanes lie in one 2^32 window (the modular result is then the same linear function), else
// no term (some lanes wrap and others do not).
std::optional<LaneTerm> modWord(Wide a, Wide b, unsigned lanes) {
  if (lanes <= 1) a = 0;
  const Wide span = a * static_cast<Wide>(lanes - 1);
  const Wide lo = b + std::min<Wide>(0, span), hi = b + std::max<Wide>(0, span);
  const Wide k = floorDiv(lo, kWord);
  if (floorDiv(hi, kWord) != k) return std::nullopt;
  return LaneTerm{static_cast<int64_t>(a), static_cast<int64_t>(b - k * kWord)};
}

// Trailing zero bits every lane's value has: a*l + b is a multiple of 2^min(tz(a), tz(b)).
unsigned knownZeroBits(const LaneTerm& t) {
  const auto tz = [](int64_t x) {
    if (x == 0) return 64u;
    unsigned n = 0;
    for (uint64_t u = static_cast<uint64_t>(x); (u & 1) == 0; u >>= 1)
      ++n;
    return n;
  };
  return std::min(tz(t.a), tz(t.b));
}

bool isConstant(const LaneTerm& t) {
  return t.a == 0;
}

// The bits a value below max + 1 can have set: the width of max.
unsigned bitWidth(int64_t max) {
  unsigned n = 0;
  for (uint64_t u = static_cast<uint64_t>(max); u != 0; u >>= 1)
    ++n;
  return n;
}

// x | y where the bits cannot overlap for any lane (x a multiple of 2^k, y below 2^k, or the
// other way), which is x + y; nullopt otherwise.
std::optional<LaneTerm> disjointOr(const LaneTerm& x, const LaneTerm& y, unsigned lanes) {
  if (knownZeroBits(x) >= bitWidth(laneTermMax(y, lanes)) ||
      knownZeroBits(y) >= bitWidth(laneTermMax(x, lanes)))
    return modWord(Wide{x.a} + y.a, Wide{x.b} + y.b, lanes);
  return std::nullopt;
}

std::optional<LaneTerm> shiftLeft(const LaneTerm& v, const LaneTerm& amount, unsigned lanes,
                                  std::string& why) {
  if (!isConstant(amount)) {
    why = "a shift by a lane-dependent amount";
    return std::nullopt;
  }
  const Wide m = Wide{1} << (amount.b & 31);
  return modWord(Wide{v.a} * m, Wide{v.b} * m, lanes);
}

std::optional<LaneTerm> multiply(const LaneTerm& x, const LaneTerm& y, unsigned lanes,
                                 std::string& why) {
  if (!isConstant(x) && !isConstant(y)) {
    why = "a product of two lane-dependent values";
    return std::nullopt;
  }
  const LaneTerm& c = isConstant(x) ? x : y;
  const LaneTerm& v = isConstant(x) ? y : x;
  return modWord(Wide{v.a} * c.b, Wide{v.b} * c.b, lanes);
}

// Both operands of a 24-bit multiply within the low 23 (signed) or 24 bits, where the
// instruction reads them unchanged.
bool fits24(const LaneTerm& x, const LaneTerm& y, unsigned bits, unsigned lanes) {
  const int64_t limit = int64_t{1} << bits;
  return laneTermMax(x, lanes) < limit && laneTermMax(y, lanes) < limit;
}

std::optional<LaneTerm> andMask(const LaneTerm& v, const LaneTerm& mask, unsigned lanes) {
  const uint64_t m = static_cast<uint64_t>(mask.b);
  // Low mask 2^n - 1 over values below 2^n; high mask 2^32 - 2^k over multiples of 2^k.
  if (((m + 1) & m) == 0 && laneTermMax(v, lanes) <= static_cast<int64_t>(m)) return v;
  const uint64_t low = (~m) & 0xffffffffu;
  if (((low + 1) & low) == 0 && knownZeroBits(v) >= bitWidth(static_cast<int64_t>(low))) return v;
  return std::nullopt;
}

// Carry-in adds (v_addc_u32, v_add_co_ci_u32, ...) read VCC, which the terms do not follow:
// they are not rows.
constexpr std::array<LaneOpRow, 29> kRows{{
    {"v_mov_b32", LaneOp::Move},         {"v_add_i32", LaneOp::Add},  // gfx6/7 (carry out)
    {"v_add_u32", LaneOp::Add},  // gfx8 (carry out), gfx9 (none)
    {"v_add_co_u32", LaneOp::Add},       {"v_add_nc_u32", LaneOp::Add},
    {"v_sub_i32", LaneOp::Sub},          {"v_sub_u32", LaneOp::Sub},
    {"v_sub_co_u32", LaneOp::Sub},       {"v_sub_nc_u32", LaneOp::Sub},
    {"v_subrev_i32", LaneOp::SubRev},    {"v_subrev_u32", LaneOp::SubRev},
    {"v_subrev_co_u32", LaneOp::SubRev}, {"v_subrev_nc_u32", LaneOp::SubRev},
    {"v_lshlrev_b32", LaneOp::ShlRev},   {"v_lshl_b32", LaneOp::Shl},
    {"v_mul_u32_u24", LaneOp::MulU24},   {"v_mul_i32_i24", LaneOp::MulI24},
    {"v_mul_lo_u32", LaneOp::MulLo},     {"v_mul_lo_i32", LaneOp::MulLo},
    {"v_mad_u32_u24", LaneOp::MadU24},   {"v_mad_i32_i24", LaneOp::MadI24},
    {"v_lshl_add_u32", LaneOp::LshlAdd}, {"v_add_lshl_u32", LaneOp::AddLshl},
    {"v_lshl_or_b32", LaneOp::LshlOr},   {"v_or_b32", LaneOp::Or},
    {"v_or3_b32", LaneOp::Or3},          {"v_add3_u32", LaneOp::Add3},
    {"v_and_b32", LaneOp::And},          {"v_bfe_u32", LaneOp::BfeU32},
}};

unsigned operandCount(LaneOp op) {
  switch (op) {
    case LaneOp::Move:
      return 1;
    case LaneOp::MadU24:
    case LaneOp::MadI24:
    case LaneOp::LshlAdd:
    case LaneOp::AddLshl:
    case LaneOp::LshlOr:
    case LaneOp::Or3:
    case LaneOp::Add3:
    case LaneOp::BfeU32:
      return 3;
    default:
      return 2;
  }
}

}  // namespace

std::string laneTermText(const LaneTerm& t) {
  std::string s;
  if (t.a != 0) s = (t.a == 1 ? std::string() : std::to_string(t.a) + "*") + "lane";
  if (t.b != 0 || s.empty()) s += (s.empty() ? "" : " + ") + std::to_string(t.b);
  return s;
}

int64_t laneTermMin(const LaneTerm& t, unsigned lanes) {
  return t.b + std::min<int64_t>(0, t.a * static_cast<int64_t>(lanes == 0 ? 0 : lanes - 1));
}
int64_t laneTermMax(const LaneTerm& t, unsigned lanes) {
  return t.b + std::max<int64_t>(0, t.a * static_cast<int64_t>(lanes == 0 ? 0 : lanes - 1));
}

std::optional<LaneTerm> inWordRange(const LaneTerm& t, unsigned lanes) {
  if (laneTermMin(t, lanes) < 0 || laneTermMax(t, lanes) >= (int64_t{1} << 32)) return std::nullopt;
  return t;
}

std::span<const LaneOpRow> laneOpTable() {
  return kRows;
}

std::optional<LaneOp> laneOpOf(std::string_view mnemonic) {
  for (const LaneOpRow& r : laneOpTable())
    if (r.mnemonic == mnemonic) return r.op;
  return std::nullopt;
}

namespace {

// The 24-bit multiplies (whose operands must fit 24 bits), the 32-bit one, and the multiply-adds.
std::optional<LaneTerm> multiplyOp(LaneOp op, const LaneTerm& x, const LaneTerm& y,
                                   const LaneTerm& z, unsigned lanes, std::string& why) {
  const bool unsigned24 = op == LaneOp::MulU24 || op == LaneOp::MadU24;
  if (op != LaneOp::MulLo && !fits24(x, y, unsigned24 ? 24 : 23, lanes)) {
    why = "a 24-bit multiply of an operand that may exceed 24 bits";
    return std::nullopt;
  }
  const std::optional<LaneTerm> p = multiply(x, y, lanes, why);
  if (!p || op == LaneOp::MulU24 || op == LaneOp::MulI24 || op == LaneOp::MulLo) return p;
  return modWord(Wide{p->a} + z.a, Wide{p->b} + z.b, lanes);  // MadU24, MadI24
}

// BFE_U32: a constant offset and width; the value a constant, or one that fits the field at 0.
std::optional<LaneTerm> bitFieldExtract(const LaneTerm& x, const LaneTerm& y, const LaneTerm& z,
                                        unsigned lanes, std::string& why) {
  if (!isConstant(y) || !isConstant(z)) {
    why = "a bit-field extract at a lane-dependent position";
    return std::nullopt;
  }
  const unsigned offset = static_cast<unsigned>(y.b & 31), width = static_cast<unsigned>(z.b & 31);
  if (width == 0) return LaneTerm{};
  if (isConstant(x)) return LaneTerm{0, (x.b >> offset) & ((int64_t{1} << width) - 1)};
  if (offset == 0 && laneTermMax(x, lanes) < (int64_t{1} << width)) return x;
  why = "a bit-field extract that may drop bits of the value";
  return std::nullopt;
}

// OR of operands that share no bits, AND with a mask that keeps every bit of the value, and
// their combinations with a shift.
std::optional<LaneTerm> bitwiseOp(LaneOp op, const LaneTerm& x, const LaneTerm& y,
                                  const LaneTerm& z, unsigned lanes, std::string& why) {
  std::optional<LaneTerm> r;
  switch (op) {
    case LaneOp::LshlOr:
      if (const std::optional<LaneTerm> s = shiftLeft(x, y, lanes, why)) {
        r = disjointOr(*s, z, lanes);
        if (!r) why = "an OR whose operands may share bits";
      }
      return r;
    case LaneOp::Or:
      r = disjointOr(x, y, lanes);
      if (!r) why = "an OR whose operands may share bits";
      return r;
    case LaneOp::Or3:
      if (const std::optional<LaneTerm> s = disjointOr(x, y, lanes)) r = disjointOr(*s, z, lanes);
      if (!r) why = "an OR whose operands may share bits";
      return r;
    case LaneOp::And:
      if (isConstant(x) && isConstant(y))
        r = LaneTerm{0, x.b & y.b};
      else if (isConstant(x) || isConstant(y))
        r = andMask(isConstant(x) ? y : x, isConstant(x) ? x : y, lanes);
      if (!r) why = "an AND that may clear bits of the value";
      return r;
    default:
      return bitFieldExtract(x, y, z, lanes, why);  // BfeU32
  }
}

std::optional<LaneTerm> laneOpValue(LaneOp op, const LaneTerm& x, const LaneTerm& y,
                                    const LaneTerm& z, unsigned lanes, std::string& why) {
  switch (op) {
    case LaneOp::Move:
      return x;
    case LaneOp::Add:
      return modWord(Wide{x.a} + y.a, Wide{x.b} + y.b, lanes);
    case LaneOp::Sub:
      return modWord(Wide{x.a} - y.a, Wide{x.b} - y.b, lanes);
    case LaneOp::SubRev:
      return modWord(Wide{y.a} - x.a, Wide{y.b} - x.b, lanes);
    case LaneOp::Add3:
      return modWord(Wide{x.a} + y.a + z.a, Wide{x.b} + y.b + z.b, lanes);
    case LaneOp::ShlRev:
      return shiftLeft(y, x, lanes, why);
    case LaneOp::Shl:
      return shiftLeft(x, y, lanes, why);
    case LaneOp::LshlAdd:
      if (const std::optional<LaneTerm> s = shiftLeft(x, y, lanes, why))
        return modWord(Wide{s->a} + z.a, Wide{s->b} + z.b, lanes);
      return std::nullopt;
    case LaneOp::AddLshl:
      if (const std::optional<LaneTerm> s = modWord(Wide{x.a} + y.a, Wide{x.b} + y.b, lanes))
        return shiftLeft(*s, z, lanes, why);
      return std::nullopt;
    case LaneOp::MulU24:
    case LaneOp::MulI24:
    case LaneOp::MulLo:
    case LaneOp::MadU24:
    case LaneOp::MadI24:
      return multiplyOp(op, x, y, z, lanes, why);
    case LaneOp::LshlOr:
    case LaneOp::Or:
    case LaneOp::Or3:
    case LaneOp::And:
    case LaneOp::BfeU32:
      return bitwiseOp(op, x, y, z, lanes, why);
  }
  return std::nullopt;
}

}  // namespace

std::optional<LaneTerm> evaluateLaneOp(LaneOp op, std::span<const std::optional<LaneTerm>> operands,
                                       unsigned lanes, std::string& why) {
  const unsigned n = operandCount(op);
  if (operands.size() < n) {
    why = "an operand is missing";
    return std::nullopt;
  }
  for (unsigned k = 0; k < n; ++k)
    if (!operands[k]) {
      why = "operand " + std::to_string(k) + " is no term of the lane id";
      return std::nullopt;
    }
  const LaneTerm x = *operands[0];
  const LaneTerm y = n > 1 ? *operands[1] : LaneTerm{};
  const LaneTerm z = n > 2 ? *operands[2] : LaneTerm{};
  const std::optional<LaneTerm> r = laneOpValue(op, x, y, z, lanes, why);
  if (!r && why.empty()) why = "a step whose 32-bit result wraps for some lanes and not others";
  return r;
}

}  // namespace gcnprobe::isa
