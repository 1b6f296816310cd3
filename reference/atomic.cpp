#include "reference/atomic.h"

#include <bit>
#include <cmath>
#include <optional>

#include "reference/error.h"

namespace gcn {
namespace {

// Float atomics (FCMPSWAP/FMIN/FMAX, GFX6/7 only). CLRX writes MIN(*VM, VDATA) / MAX and a
// float ==, the SI ISA guide `(src < tmp) ? src : tmp`; neither says what a NaN operand,
// a -0/+0 pair or a denormal (flushed or not by the texture unit's ALU) gives. The
// reference computes the plain IEEE form but does not claim those cases.
template <class F>
bool floatUnclaimed(F a, F b) {
  if (std::isnan(a) || std::isnan(b)) return true;
  if (std::fpclassify(a) == FP_SUBNORMAL || std::fpclassify(b) == FP_SUBNORMAL) return true;
  return a == F(0) && b == F(0) && std::signbit(a) != std::signbit(b);
}

// The integer operations: the new memory value, or nullopt for a float operation.
template <class U, class S>
std::optional<U> integerAtomic(AtomicOp op, U mem, U src, U cmp) {
  switch (op) {
    case AtomicOp::Swap:
      return src;
    case AtomicOp::Cmpswap:
      return mem == cmp ? src : mem;
    case AtomicOp::Add:
      return static_cast<U>(mem + src);
    case AtomicOp::Sub:
      return static_cast<U>(mem - src);
    case AtomicOp::Rsub:
      return static_cast<U>(src - mem);
    case AtomicOp::Smin:
      return static_cast<S>(src) < static_cast<S>(mem) ? src : mem;
    case AtomicOp::Umin:
      return src < mem ? src : mem;
    case AtomicOp::Smax:
      return static_cast<S>(src) > static_cast<S>(mem) ? src : mem;
    case AtomicOp::Umax:
      return src > mem ? src : mem;
    case AtomicOp::And:
      return static_cast<U>(mem & src);
    case AtomicOp::Or:
      return static_cast<U>(mem | src);
    case AtomicOp::Xor:
      return static_cast<U>(mem ^ src);
    // INC/DEC: CLRX `(*VM < VDATA) ? *VM+1 : 0` and `(*VM <= VDATA && *VM != 0) ? *VM-1 :
    // VDATA`, i.e. LLVM's "tmp >= src ? 0 : tmp+1" and "(tmp == 0 || tmp > src) ? src : tmp-1".
    case AtomicOp::Inc:
      return mem >= src ? U(0) : static_cast<U>(mem + 1);
    case AtomicOp::Dec:
      return (mem == 0 || mem > src) ? src : static_cast<U>(mem - 1);
    // CSUB (GFX10.3+): the subtraction clamps at 0 (LLVM renames it sub_clamp_u32 on GFX12).
    case AtomicOp::Csub:
      return mem >= src ? static_cast<U>(mem - src) : U(0);
    case AtomicOp::Fcmpswap:
    case AtomicOp::Fmin:
    case AtomicOp::Fmax:
    case AtomicOp::Fadd:
    case AtomicOp::None:
      break;
  }
  return std::nullopt;  // a float operation (floatAtomic), or none
}

// ADD_F32 (GFX11 here): the IEEE sum; the rounding and denormal mode of the memory-side ALU is
// not documented, so only exact sums of normal operands are claimed.
template <class U, class F>
U floatAdd(U mem, U src, AtomicOutcome& out) {
  const F m = std::bit_cast<F>(mem), s = std::bit_cast<F>(src);
  const F sum = m + s;
  // Knuth's two-sum: the rounding error of m + s, exactly (no wider type is wide enough when
  // the exponents lie far apart).
  const F bv = sum - m;
  const F err = (m - (sum - bv)) + (s - bv);
  if (floatUnclaimed(m, s) || std::fpclassify(sum) == FP_SUBNORMAL || std::isinf(sum) ||
      err != F(0)) {
    out.claimed = false;
    out.reason =
        "ADD_F32 with a NaN, denormal, signed-zero pair or an inexact sum: the rounding "
        "and denormal mode of the memory-side add are not documented";
  }
  return std::bit_cast<U>(sum);
}

// The float operations, with the cases no source documents left unclaimed.
template <class U, class F>
U floatAtomic(AtomicOp op, U mem, U src, U cmp, AtomicOutcome& out) {
  switch (op) {
    case AtomicOp::Fcmpswap: {
      const F m = std::bit_cast<F>(mem), c = std::bit_cast<F>(cmp);
      if (floatUnclaimed(m, c)) {
        out.claimed = false;
        out.reason =
            "FCMPSWAP with a NaN, denormal or signed-zero pair: float compare rule "
            "not documented (CLRX, SI ISA)";
      }
      return m == c ? src : mem;
    }
    case AtomicOp::Fmin:
    case AtomicOp::Fmax: {
      const F m = std::bit_cast<F>(mem), s = std::bit_cast<F>(src);
      if (floatUnclaimed(m, s)) {
        out.claimed = false;
        out.reason =
            "FMIN/FMAX with a NaN, denormal or -0/+0 pair: not documented (CLRX "
            "gives MIN/MAX only)";
      }
      return (op == AtomicOp::Fmin ? s < m : s > m) ? src : mem;
    }
    case AtomicOp::Fadd:
      return floatAdd<U, F>(mem, src, out);
    default:
      break;  // an integer operation: integerAtomic has it
  }
  return mem;
}

template <class U, class S, class F>
AtomicOutcome apply(AtomicOp op, U mem, U src, U cmp) {
  AtomicOutcome out;
  if (op == AtomicOp::None) throw Error("atomic: no atomic operation given");
  const std::optional<U> integer = integerAtomic<U, S>(op, mem, src, cmp);
  out.newValue = integer ? *integer : floatAtomic<U, F>(op, mem, src, cmp, out);
  return out;
}

}  // namespace

AtomicOutcome applyAtomic(AtomicOp op, bool wide, uint64_t mem, uint64_t src, uint64_t cmp) {
  if (wide) return apply<uint64_t, int64_t, double>(op, mem, src, cmp);
  return apply<uint32_t, int32_t, float>(op, static_cast<uint32_t>(mem), static_cast<uint32_t>(src),
                                         static_cast<uint32_t>(cmp));
}

std::string_view atomicOpName(AtomicOp op) {
  switch (op) {
    case AtomicOp::None:
      return "NONE";
    case AtomicOp::Swap:
      return "SWAP";
    case AtomicOp::Cmpswap:
      return "CMPSWAP";
    case AtomicOp::Add:
      return "ADD";
    case AtomicOp::Sub:
      return "SUB";
    case AtomicOp::Rsub:
      return "RSUB";
    case AtomicOp::Smin:
      return "SMIN";
    case AtomicOp::Umin:
      return "UMIN";
    case AtomicOp::Smax:
      return "SMAX";
    case AtomicOp::Umax:
      return "UMAX";
    case AtomicOp::And:
      return "AND";
    case AtomicOp::Or:
      return "OR";
    case AtomicOp::Xor:
      return "XOR";
    case AtomicOp::Inc:
      return "INC";
    case AtomicOp::Dec:
      return "DEC";
    case AtomicOp::Fcmpswap:
      return "FCMPSWAP";
    case AtomicOp::Fmin:
      return "FMIN";
    case AtomicOp::Fmax:
      return "FMAX";
    case AtomicOp::Csub:
      return "CSUB";
    case AtomicOp::Fadd:
      return "FADD";
  }
  return "?";
}

}  // namespace gcn
