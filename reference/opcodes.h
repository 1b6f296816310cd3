// The one table of every MUBUF and MTBUF instruction of GFX6-GFX11: mnemonic (and GFX11's
// renamed one), opcode per generation, kind, data size, where format and DST_SEL come from. The
// encoder, decoder, printer, parser and executor all read this table; no other list of opcodes
// exists. Sources: CLRX GcnInstrsMtbuf, CLRX GcnInstrsMubuf and LLVM BUFInstructions.td,
// checked against llvm-mc (tests/reference/llvm_mc_test.cpp, rdna_test.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "reference/format.h"
#include "reference/gen.h"

namespace gcn {

enum class Encoding : uint8_t { Mubuf, Mtbuf };

enum class OpKind : uint8_t {
  LoadFormat,   // BUFFER_LOAD_FORMAT_*, TBUFFER_LOAD_FORMAT_* (incl. D16)
  StoreFormat,  // BUFFER_STORE_FORMAT_*, TBUFFER_STORE_FORMAT_*
  Load,         // BUFFER_LOAD_<type> (UBYTE..DWORDX4, D16/D16_HI byte/short)
  Store,        // BUFFER_STORE_<type>
  Atomic,       // BUFFER_ATOMIC_*
  Cache,        // BUFFER_WBINVL1, _SC/_VOL, GL0_INV, GL1_INV: no data, no address
};

// CLRX GcnMemHandling "rules for data conversion": where data format, number format and DST_SEL
// come from for each instruction kind.
enum class FieldSource : uint8_t {
  Instruction,  // MTBUF DFMT/NFMT fields
  Derived,      // from the opcode, the resource is ignored
  Resource,     // from the V#
  Identity,     // DST_SEL only: each component to itself
};

enum class AtomicOp : uint8_t {
  None,
  Swap,
  Cmpswap,
  Add,
  Sub,
  Rsub,
  Smin,
  Umin,
  Smax,
  Umax,
  And,
  Or,
  Xor,
  Inc,
  Dec,
  Fcmpswap,
  Fmin,
  Fmax,
  Csub,  // GFX10.3+: subtract clamped at 0
  Fadd,  // GFX11 here: float add
};

struct OpcodeInfo {
  std::string_view mnemonic;  // lower case, LLVM spelling: "buffer_load_format_xyzw"
  Encoding encoding;
  OpKind kind;
  std::array<int16_t, kGenCount> opcode;  // per generation (genIndex); -1 where absent
  uint8_t components;                     // format ops: 1..4 (X..XYZW); typed/atomic: dwords 1..4
  uint8_t memBytes;                       // typed ops and atomics: bytes per lane (1,2,4,8,12,16);
                                          // format ops: 0 (the element size comes from the format)
  bool signExtend;                        // SBYTE, SSHORT (and their D16 forms)
  bool d16;                               // data in 16-bit halves
  bool d16Hi;                             // D16_HI: the high half of the VGPR
  AtomicOp atomic;                        // None unless kind == Atomic
  bool wide;                              // _X2 atomics (64-bit)
  bool ldsCapable;                        // may take the LDS modifier (CLRX GcnMemHandling list)
  FieldSource dfmtSource, nfmtSource, dstSelSource;
  // BUFFER_STORE_LDS_DWORD (GFX8/9): the data comes from LDS (M0-addressed), the
  // instruction has no VDATA and no VADDR and always carries LDS. LLVM syntax:
  // `buffer_store_lds_dword s[4:7], s1 offset:4 lds glc slc`.
  bool ldsData = false;
  // GFX11's name where it renamed the instruction (buffer_load_b32), "" where it kept it.
  std::string_view gfx11Mnemonic = {};
};

// The instruction's mnemonic on the generation: gfx11Mnemonic on GFX11 where there is one.
std::string_view mnemonicOn(const OpcodeInfo& op, Gen gen);

// Stores and atomics: the instruction writes memory, with data it reads from VDATA (BUFFER_STORE_
// LDS_DWORD's come from LDS). Loads and the cache instructions write no memory.
bool writesMemory(OpKind k);
// Loads, and atomics with GLC: the instruction returns data to VDATA.
bool returnsData(OpKind k, bool glc);

std::span<const OpcodeInfo> allOpcodes();
bool existsOn(const OpcodeInfo& op, Gen gen);
// Case-insensitive, by either name (buffer_load_dword or GFX11's buffer_load_b32); nullptr when
// unknown.
const OpcodeInfo* findOpcode(std::string_view mnemonic);
// The same, for names a suite or tool relies on: throws gcn::Error naming it when unknown.
const OpcodeInfo& requireOpcode(std::string_view mnemonic);
// A fixed list of such names resolved at once, where the list is built (a suite, a route's
// namespace-scope table), so a misspelt name fails there and never when a case runs.
template <std::size_t N>
std::array<const OpcodeInfo*, N> requireOpcodes(const std::array<std::string_view, N>& names) {
  std::array<const OpcodeInfo*, N> out{};
  for (std::size_t i = 0; i < N; ++i)
    out[i] = &requireOpcode(names[i]);
  return out;
}
// nullptr when no instruction of that encoding has that opcode on the generation.
const OpcodeInfo* findOpcode(Encoding enc, Gen gen, unsigned opcode);

// VDATA registers the instruction reads or writes on a chip: D16 packing per chip
// (Chip::d16Packed), data size, CMPSWAP's doubled operand; +1 with TFE.
unsigned vdataRegs(const OpcodeInfo& op, const Chip& chip, bool tfe);

inline constexpr uint8_t kDefaultUnifiedFormat = 1;

// SOFFSET operand: an SGPR number (0..101), or an inline constant / special register in the
// 8-bit operand encoding (124 = m0, 128 = 0, 129..192 = 1..64, 193..208 = -1..-16, ...).
struct Instruction {
  const OpcodeInfo* op = nullptr;
  uint8_t vdata = 0;      // first VGPR of VDATA
  uint8_t vaddr = 0;      // first VGPR of VADDR
  uint8_t srsrc = 0;      // first SGPR of the V# (a multiple of 4)
  uint8_t soffset = 128;  // operand encoding (128 = inline constant 0)
  uint16_t offset = 0;    // 12-bit OFFSET
  bool offen = false;
  bool idxen = false;
  bool addr64 = false;  // GFX6/7 only
  bool dlc = false;     // GFX10+ only
  bool glc = false;
  bool slc = false;
  bool tfe = false;
  bool lds = false;         // MUBUF only
  Dfmt dfmt = Dfmt::F8;     // MTBUF only (LLVM's default when format: is absent)
  Nfmt nfmt = Nfmt::Unorm;  // MTBUF only
  // MTBUF on GFX10+: the unified FORMAT (docs/rdna.md), 1 = BUF_FMT_8_UNORM, LLVM's default
  // when format: is absent. Stays 1 on GFX6-9, where DFMT/NFMT hold the format.
  uint8_t format = kDefaultUnifiedFormat;

  bool operator==(const Instruction&) const = default;
};

// Number of VADDR registers: 2 with ADDR64 or with both IDXEN and OFFEN, 1 with one of them,
// 0 otherwise ("off").
unsigned vaddrRegs(const Instruction& inst);

// SGPRs an instruction may name: 104 on gfx6/7, 102 on gfx8/9 (s102/s103 are FLAT_SCRATCH /
// XNACK_MASK there), 106 on GFX10+.
unsigned sgprCount(Gen gen);

// Whether an 8-bit SOFFSET operand code names something a buffer instruction may use on the
// generation: an SGPR (s0..s103 on gfx6/7, s0..s101 on gfx8/9, s0..s105 on GFX10+), vcc_lo/hi,
// m0, exec_lo/hi, null (GFX10+; GFX11 swapped the codes of m0 and null: 125/124), an integer
// inline constant (128..208) or a float inline constant (240..247; 248 = 1/(2pi) from gfx8).
bool soffsetLegal(Gen gen, uint8_t code);

// The integer inline constants of the 8-bit scalar operand encoding, the one home of their
// codes (AMD GCN3 ISA "Scalar ALU operands"; LLVM SIDefines.h INLINE_INTEGER_C_*): 128..192 are
// 0..64, 193..208 are -1..-16. The value a code names, nullopt for any other code.
std::optional<int32_t> integerInlineValue(unsigned code);
// The code of an integer inline constant, nullopt for a value outside 0..64 and -1..-16.
std::optional<uint8_t> integerInlineCode(int64_t value);

// Why the instruction does not exist on the generation or a modifier is illegal there (addr64
// on gfx8+, lds on MTBUF or with tfe, idxen/offen with addr64, ...); nullopt when it is valid.
std::optional<std::string> validationError(Gen gen, const Instruction& inst);
// Throws gcn::Error with validationError's text.
void validate(Gen gen, const Instruction& inst);

}  // namespace gcn
