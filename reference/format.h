// Buffer data formats (DATA_FORMAT / DFMT, 0-15) and number formats (NUM_FORMAT / NFMT,
// 0-7): the one table of their names, component layouts and legality, per generation.
// Source: CLRX GcnMemHandling ("MUBUF/MTBUF format conversion"), corrected by docs/gcn-facts.md for
// codes 8 and 9 (003 is right: 8 = 10_10_10_2 with X the 2-bit field at bit 0, 9 = 2_10_10_10).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "reference/gen.h"

namespace gcn {

// DATA_FORMAT codes as in CLRX GcnMemHandling and AMD's register headers.
enum class Dfmt : uint8_t {
  Invalid = 0,
  F8 = 1,
  F16 = 2,
  F8_8 = 3,
  F32 = 4,
  F16_16 = 5,
  F10_11_11 = 6,
  F11_11_10 = 7,
  F10_10_10_2 = 8,
  F2_10_10_10 = 9,
  F8_8_8_8 = 10,
  F32_32 = 11,
  F16_16_16_16 = 12,
  F32_32_32 = 13,
  F32_32_32_32 = 14,
  Reserved = 15,
};

// NUM_FORMAT codes. Code 6 means SNORM_OGL on GFX6/7, is reserved on GFX8 and is
// UNORM_UINT on GFX9 (docs/gcn-facts.md); the enum names the GFX6/7 meaning.
enum class Nfmt : uint8_t {
  Unorm = 0,
  Snorm = 1,
  Uscaled = 2,
  Sscaled = 3,
  Uint = 4,
  Sint = 5,
  SnormOgl = 6,
  Float = 7,
};

enum class RegType : uint8_t { Float, Uint, Sint };

struct DfmtInfo {
  Dfmt code;
  std::string_view name;          // CLRX name without prefix, e.g. "10_11_11"
  uint8_t components;             // 0 for INVALID/RESERVED
  std::array<uint8_t, 4> bits;    // width of X,Y,Z,W
  std::array<uint8_t, 4> offset;  // bit offset of X,Y,Z,W from bit 0 of the element
  uint8_t bytes;                  // element size in bytes (0 for INVALID/RESERVED)
  bool floatCapable;              // has a FLOAT interpretation (32-, 16-, 11/10-bit)
};

struct NfmtInfo {
  Nfmt code;
  std::string_view name;  // name on this generation, e.g. "SNORM_OGL", "RESERVED"
  bool load;              // CLRX "BufR"
  bool store;             // CLRX "BufW"
  RegType reg;            // register type of loaded / stored values
};

const DfmtInfo& dfmtInfo(Dfmt d);
// The bytes one element of a format op spans for addressing and range checks: the format's
// element size, and for the reserved DATA_FORMAT 15 (no known size) the largest element any
// format has, 16, so that range checks and the reach (reference/reach.h) cover whatever the
// hardware does with it.
uint32_t formatAccessBytes(Dfmt d);
const NfmtInfo& nfmtInfo(Nfmt n, Gen gen);

// A field of format d read under number format n holds an IEEE-style float (32, 16 or 11/10 bits).
inline bool isFloatField(Dfmt d, Nfmt n) {
  return n == Nfmt::Float && dfmtInfo(d).floatCapable;
}

// The two's-complement value of the low `bits` bits of code (bits >= 32: the whole word).
inline int64_t signExtend(uint32_t code, unsigned bits) {
  if (bits >= 32) return static_cast<int32_t>(code);
  const uint32_t sign = 1u << (bits - 1);
  return static_cast<int64_t>(code ^ sign) - static_cast<int64_t>(sign);
}
std::span<const DfmtInfo> allDfmts();  // codes 0..15

// Names: case-insensitive, optional BUF_DATA_FORMAT_ / BUF_NUM_FORMAT_ prefix, decimal or
// 0x-hex codes accepted. Throws gcn::Error naming the text and listing valid names.
Dfmt parseDfmt(std::string_view text);
Nfmt parseNfmt(std::string_view text, Gen gen);
std::string_view dfmtName(Dfmt d);           // "8_8_8_8"
std::string_view nfmtName(Nfmt n, Gen gen);  // "UNORM"
// LLVM's spelling: "BUF_DATA_FORMAT_8_8_8_8", "BUF_NUM_FORMAT_UNORM".
std::string llvmDfmtName(Dfmt d);
std::string llvmNfmtName(Nfmt n, Gen gen);

// Whether the reference claims a value for a (data format, number format) pair.
enum class PairStatus : uint8_t {
  Defined,  // converted as documented
  Unknown,  // documents leave it open: the reference claims no value
  Illegal,  // CLRX marks it unusable for this direction
};
struct PairVerdict {
  PairStatus status;
  std::string_view reason;  // empty when Defined
};
enum class Direction : uint8_t { Load, Store };

// GFX10+ replace DATA_FORMAT and NUM_FORMAT (in the V# and in MTBUF) by one 7-bit FORMAT code
// per (data format, number format) pair; GFX11 renumbered the codes and dropped the pairs it no
// longer supports (docs/rdna.md). Code 0 is INVALID on both.
struct UnifiedFormat {
  uint8_t code;
  Dfmt dfmt;
  Nfmt nfmt;
};
// The generation's named buffer formats in code order (code 0 not included); empty on GCN.
std::span<const UnifiedFormat> unifiedFormats(Gen gen);
// nullptr when the code names no buffer format on the generation (0, or past the table).
const UnifiedFormat* findUnifiedFormat(Gen gen, uint8_t code);
// The code of a (data format, number format) pair on the generation; nullptr when it has none.
const UnifiedFormat* findUnifiedFormat(Gen gen, Dfmt dfmt, Nfmt nfmt);
// LLVM's spelling: "BUF_FMT_32_32_FLOAT", "BUF_FMT_INVALID" for 0; an unnamed code as its
// decimal number, as llvm-mc prints it.
std::string llvmUnifiedFormatName(Gen gen, uint8_t code);
// A BUF_FMT_ name (the prefix optional, any case) or a number 0..127; throws gcn::Error naming
// the text and the generation.
uint8_t parseUnifiedFormat(Gen gen, std::string_view text);
PairVerdict pairStatus(Gen gen, Dfmt d, Nfmt n, Direction dir);

}  // namespace gcn
