// The buffer resource (V#): four dwords in SGPRs describing base, stride, size, format and
// addressing mode. Layout per generation from CLRX GcnMemHandling and docs/gcn-facts.md ("V#
// layout"): GFX6/7/8 share word 3; GFX9 drops ELEMENT_SIZE/ATC/HASH/HEAP/MTYPE and adds
// USER_VM_ENABLE, USER_VM_MODE, NV. GFX10+ (docs/rdna.md): one unified FORMAT, RESOURCE_LEVEL
// (GFX10/10.3), LLC_NOALLOC (GFX10.3), OOB_SELECT; GFX11 a 2-bit SWIZZLE_ENABLE in word 1.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "reference/format.h"
#include "reference/gen.h"

namespace gcn {

// DST_SEL codes (CLRX GcnMemHandling): 0 -> 0, 1 -> 1, 4..7 -> X..W; 2 and 3 are reserved.
enum class DstSel : uint8_t {
  Zero = 0,
  One = 1,
  Reserved2 = 2,
  Reserved3 = 3,
  X = 4,
  Y = 5,
  Z = 6,
  W = 7
};

struct VSharp {
  // word 0-1
  uint64_t base = 0;  // 48 bits
  // 14 bits in the V#; the stride an access uses (accessVSharp) can have 18.
  uint32_t stride = 0;
  bool cacheSwizzle = false;
  bool swizzleEnable = false;
  // word 2
  uint32_t numRecords = 0;
  // word 3
  std::array<DstSel, 4> dstSel{DstSel::X, DstSel::Y, DstSel::Z, DstSel::W};
  Nfmt numFormat = Nfmt::Unorm;
  Dfmt dataFormat = Dfmt::Invalid;
  uint8_t elementSize = 0;  // 2 bits, GFX6-8 only (GFX9: fixed at 4 bytes)
  uint8_t indexStride = 0;  // 2 bits
  bool addTidEnable = false;
  bool atc = false;                // GFX6-8
  bool hashEnable = false;         // GFX6-8
  bool heap = false;               // GFX6-8
  uint8_t mtype = 0;               // 3 bits, GFX6-8
  bool userVmEnable = false;       // GFX9
  bool userVmMode = false;         // GFX9
  bool nv = false;                 // GFX9
  uint8_t type = 0;                // 2 bits; 0 = buffer
  uint8_t format = 0;              // GFX10+: the unified FORMAT (7 bits); 0 = INVALID
  bool resourceLevel = false;      // GFX10/10.3 (drivers set 1)
  uint8_t llcNoalloc = 0;          // GFX10.3, 2 bits
  uint8_t oobSelect = 0;           // GFX10+, 2 bits: the range check (docs/rdna.md)
  uint8_t swizzleEnableGfx11 = 0;  // GFX11: SWIZZLE_ENABLE is 2 bits at word 1 [31:30]
  // Bits of each word that no field of the generation names (gfx9 word 3: bits 24-26 and
  // 28-29), kept as they are so that an explorer's V# survives decode and encode bit for
  // bit. Text form: `reserved_w3=0x...`. Always 0 outside vsharpReservedMask(gen).
  std::array<uint32_t, 4> reserved{};

  bool operator==(const VSharp&) const = default;
};

// Decode / encode with the generation's word-3 layout. Fields that do not exist on the
// generation decode as 0 and must be 0 to encode (encode throws gcn::Error otherwise), so
// decode(encode(v)) == v for every encodable v; bits no field names go to `reserved`, so
// encode(decode(w)) == w for every 128-bit w.
VSharp decodeVSharp(Gen gen, const std::array<uint32_t, 4>& words);
std::array<uint32_t, 4> encodeVSharp(Gen gen, const VSharp& v);
// Only the fields every GFX6-9 layout has at the same place (BASE, STRIDE, NUM_RECORDS,
// SWIZZLE_ENABLE, ADD_TID_ENABLE, DST_SEL, formats, ...), for a reader that does not know the
// generation; the others and `reserved` stay 0.
VSharp decodeVSharpSharedFields(const std::array<uint32_t, 4>& words);

// The V# as an access sees it. On GFX8/9 a MUBUF access (not MTBUF) through a V# with
// ADD_TID_ENABLE reads DATA_FORMAT as STRIDE[17:14] (Mesa src/amd/common/ac_descriptors.c
// ac_set_buf_desc_word3: "DATA_FORMAT is STRIDE[14:17] for MUBUF with ADD_TID_ENABLE=1"), so
// the stride gains those bits. On RDNA the unified FORMAT is read as its (DATA_FORMAT,
// NUM_FORMAT) pair, so the conversion code sees one shape on every generation.
VSharp accessVSharp(Gen gen, VSharp v, bool mtbuf);
// Whether that reading applies: a MUBUF access through such a V# on GFX8/9. A MUBUF format op
// there has no data format of its own (its DATA_FORMAT field is stride bits): no source says
// which format it converts with, so the reference claims no value and plans the largest
// element (formatAccessBytes of the reserved format).
bool dataFormatIsStrideBits(Gen gen, const VSharp& v, bool mtbuf);
// GFX6/7 drop an untyped (non-format) access through a V# whose DATA_FORMAT is INVALID: loads
// read 0, stores and atomics write nothing (Mesa radeonsi si_compute.c: "BUF_DATA_FORMAT is
// ignored, but it cannot be BUF_DATA_FORMAT_INVALID", before GFX8). GFX8/9 ignore DATA_FORMAT
// there (their ADD_TID rings store through V#s whose DATA_FORMAT bits are 0).
bool untypedAccessDropped(Gen gen, const VSharp& v);

// Readable text: "base=0x1000 stride=16 num_records=64 dst_sel=xyzw nfmt=UNORM
// dfmt=8_8_8_8 ..." (fields at their default are left out except dfmt/nfmt/dst_sel).
// parseVSharp reads it back (any order, case-insensitive names, fields left out = 0 /
// identity DST_SEL); errors name the field and the reason.
std::string formatVSharp(Gen gen, const VSharp& v);
VSharp parseVSharp(Gen gen, std::string_view text);

// Effective sizes for swizzled addressing (CLRX GcnMemHandling): ELEMSIZE = 2 << field (GFX9: 4),
// INDEXSTRIDE = 8 << field.
uint32_t swizzleElementBytes(Gen gen, const VSharp& v);
uint32_t swizzleIndexStride(const VSharp& v);

// "0", "1", "x".."w" (lower case); parseDstSel takes these, "r".."a", "SEL_X", or codes.
std::string_view dstSelName(DstSel s);
DstSel parseDstSel(std::string_view text);

// The V# field table: the one place that knows each field's bit position and the generations
// that have it; decode, encode, the text form and `gcnprobe vsharp` all read it.
enum class VSharpFieldKind : uint8_t { Number, Address, Flag, DstSel, Nfmt, Dfmt, Format };
struct VSharpField {
  std::string_view name;  // text-form name, e.g. "num_records", "dst_sel_x"
  std::string_view reg;   // register field name, e.g. "NUM_RECORDS"
  uint8_t bit;            // position of the lowest bit in the 128-bit V# (CLRX table)
  uint8_t width;          // bits
  GenMask onGen;          // exists on the generation (genIndex)
  VSharpFieldKind kind;
};
std::span<const VSharpField> vsharpFields();
// Per word, the bits no field of the generation covers (where VSharp::reserved may be set).
std::array<uint32_t, 4> vsharpReservedMask(Gen gen);
bool vsharpFieldExists(Gen gen, const VSharpField& f);
uint64_t vsharpFieldValue(const VSharp& v, const VSharpField& f);

}  // namespace gcn
