#include "reference/opcodes.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "reference/error.h"
#include "reference/text.h"

namespace gcn {
namespace {

// CLRX GcnMemHandling, "The rules for data conversion for particular instruction types": where the
// data format, the number format and DST_SEL come from. One row per kind and encoding; the opcode
// rows below take their three sources from here, never spell them out.
struct ConversionRule {
  Encoding encoding;
  OpKind kind;
  FieldSource dfmt, nfmt, dstSel;
};
constexpr ConversionRule kConversionRules[] = {
    // TBUFFER_LOAD_FORMAT_* / TBUFFER_STORE_FORMAT_*: instruction, instruction, identity
    {Encoding::Mtbuf, OpKind::LoadFormat, FieldSource::Instruction, FieldSource::Instruction,
     FieldSource::Identity},
    {Encoding::Mtbuf, OpKind::StoreFormat, FieldSource::Instruction, FieldSource::Instruction,
     FieldSource::Identity},
    // BUFFER_LOAD_<type> / BUFFER_STORE_<type>: derived, derived, identity
    {Encoding::Mubuf, OpKind::Load, FieldSource::Derived, FieldSource::Derived,
     FieldSource::Identity},
    {Encoding::Mubuf, OpKind::Store, FieldSource::Derived, FieldSource::Derived,
     FieldSource::Identity},
    // BUFFER_LOAD_FORMAT_* / BUFFER_STORE_FORMAT_*: resource, resource, resource
    {Encoding::Mubuf, OpKind::LoadFormat, FieldSource::Resource, FieldSource::Resource,
     FieldSource::Resource},
    {Encoding::Mubuf, OpKind::StoreFormat, FieldSource::Resource, FieldSource::Resource,
     FieldSource::Resource},
    // BUFFER_ATOMIC_*: derived, derived, identity
    {Encoding::Mubuf, OpKind::Atomic, FieldSource::Derived, FieldSource::Derived,
     FieldSource::Identity},
    // Cache operations move no data; CLRX's table has no row. Derived/identity: nothing is read
    // from the resource's format fields.
    {Encoding::Mubuf, OpKind::Cache, FieldSource::Derived, FieldSource::Derived,
     FieldSource::Identity},
};

constexpr ConversionRule ruleFor(Encoding enc, OpKind kind) {
  for (const ConversionRule& r : kConversionRules) {
    if (r.encoding == enc && r.kind == kind) return r;
  }
  return {enc, kind, FieldSource::Derived, FieldSource::Derived, FieldSource::Identity};
}

constexpr int16_t X = -1;  // absent on that generation

struct Flags {
  bool signExtend = false;
  bool d16 = false;
  bool d16Hi = false;
  bool ldsCapable = false;
  bool ldsData = false;
};

// `gfx11Name`: the GFX11 mnemonic where GFX11 renamed the instruction, "" where it kept the name.
constexpr OpcodeInfo row(std::string_view name, std::string_view gfx11Name, Encoding enc,
                         OpKind kind, std::array<int16_t, kGenCount> op, uint8_t components,
                         uint8_t memBytes, Flags f = {}, AtomicOp atomic = AtomicOp::None,
                         bool wide = false) {
  const ConversionRule r = ruleFor(enc, kind);
  return OpcodeInfo{name,         enc,    kind,     op,        components, memBytes,
                    f.signExtend, f.d16,  f.d16Hi,  atomic,    wide,       f.ldsCapable,
                    r.dfmt,       r.nfmt, r.dstSel, f.ldsData, gfx11Name};
}

constexpr Encoding MU = Encoding::Mubuf;
constexpr Encoding MT = Encoding::Mtbuf;
constexpr Flags kLds{.ldsCapable = true};
constexpr Flags kSignedLds{.signExtend = true, .ldsCapable = true};
constexpr Flags kD16{.d16 = true};
constexpr Flags kD16Signed{.signExtend = true, .d16 = true};
constexpr Flags kD16Hi{.d16 = true, .d16Hi = true};
constexpr Flags kD16HiSigned{.signExtend = true, .d16 = true, .d16Hi = true};

constexpr OpcodeInfo atomic(std::string_view name, std::string_view gfx11Name,
                            std::array<int16_t, kGenCount> op, AtomicOp a, bool wide) {
  return row(name, gfx11Name, MU, OpKind::Atomic, op, wide ? 2 : 1, wide ? 8 : 4, {}, a, wide);
}

// Opcode per generation {gfx6, gfx7, gfx8, gfx9}.
// MTBUF: CLRX GcnInstrsMtbuf ("Instructions by opcode"; D16 rows GCN 1.2+). MUBUF: LLVM
// BUFInstructions.td (defm ... MUBUF_Real_*_gfx6_gfx7 / MUBUF_Real_*_vi, MUBUF_Real_gfx6 /
// _gfx7 for the cache ops), CLRX GcnInstrsMubuf, docs/gcn-facts.md; every entry is checked
// against llvm-mc 14 (tahiti, bonaire, tonga, gfx900) by tests/reference/llvm_mc_test.cpp.
// Decisions by evidence:
//  - BUFFER_LOAD/STORE_DWORDX3 on gfx6: llvm-mc 14 -mcpu=tahiti assembles both with opcodes
//    0x0f/0x1f (same as gfx7); CLRX documents them from GCN 1.1. Kept on gfx6 because the
//    assembler this project checks against accepts them; a device probe settles the rest.
//  - BUFFER_ATOMIC_RSUB(_X2) on gfx6 (0x34/0x54): CLRX and docs/gcn-facts.md list it; LLVM
//    carries it only as a commented-out FIXME-GFX6 entry with these opcodes, so llvm-mc
//    cannot check it (the llvm-mc test lists it as the one known exception).
//  - D16 format ops exist on all of gfx8 (LLVM: _gfx80 unpacked and packed variants share
//    the opcode); D16/D16_HI byte/short ops and FORMAT_D16_HI_X only on gfx9
//    (HasD16LoadStore).
//  - BUFFER_ATOMIC_ADD_F32/PK_ADD_F16 (gfx908+) and FP64 atomics (gfx90a) are outside gfx900
//    and left out there.
// RDNA columns {gfx10, gfx10.3, gfx11}: LLVM BUFInstructions.td (MUBUF_Real_*_gfx10,
// MTBUF_Real_*_gfx10, *_gfx11 with their GFX11 names), every entry checked against llvm-mc 15
// (gfx1010, gfx1030, gfx1100) by tests/reference/llvm_mc_test.cpp; docs/rdna.md.
//  - GFX10 numbers MUBUF like GFX6/7 (typed loads 0x08.., atomics 0x30.. and 0x50..), with the
//    float atomics back and RSUB, BUFFER_STORE_LDS_DWORD and the WBINVL1 family gone; the D16
//    format ops moved to 0x80-0x87 (OP bit 7 in instruction bit 25); FORMAT_D16_HI_X is absent
//    (llvm-mc 15 refuses it on gfx1010/gfx1030).
//  - GFX11 renumbers and renames (buffer_load_b32, buffer_atomic_min_i32, ...), drops the
//    64-bit float atomics and adds buffer_atomic_add_f32; loads to LDS are separate opcodes
//    (buffer_load_lds_*) instead of the LDS bit, which this table does not model yet.
constexpr OpcodeInfo kOpcodes[] = {
    // MTBUF (CLRX GcnInstrsMtbuf)
    row("tbuffer_load_format_x", "", MT, OpKind::LoadFormat, {0, 0, 0, 0, 0, 0, 0}, 1, 0),
    row("tbuffer_load_format_xy", "", MT, OpKind::LoadFormat, {1, 1, 1, 1, 1, 1, 1}, 2, 0),
    row("tbuffer_load_format_xyz", "", MT, OpKind::LoadFormat, {2, 2, 2, 2, 2, 2, 2}, 3, 0),
    row("tbuffer_load_format_xyzw", "", MT, OpKind::LoadFormat, {3, 3, 3, 3, 3, 3, 3}, 4, 0),
    row("tbuffer_store_format_x", "", MT, OpKind::StoreFormat, {4, 4, 4, 4, 4, 4, 4}, 1, 0),
    row("tbuffer_store_format_xy", "", MT, OpKind::StoreFormat, {5, 5, 5, 5, 5, 5, 5}, 2, 0),
    row("tbuffer_store_format_xyz", "", MT, OpKind::StoreFormat, {6, 6, 6, 6, 6, 6, 6}, 3, 0),
    row("tbuffer_store_format_xyzw", "", MT, OpKind::StoreFormat, {7, 7, 7, 7, 7, 7, 7}, 4, 0),
    row("tbuffer_load_format_d16_x", "tbuffer_load_d16_format_x", MT, OpKind::LoadFormat,
        {X, X, 8, 8, 8, 8, 8}, 1, 0, kD16),
    row("tbuffer_load_format_d16_xy", "tbuffer_load_d16_format_xy", MT, OpKind::LoadFormat,
        {X, X, 9, 9, 9, 9, 9}, 2, 0, kD16),
    row("tbuffer_load_format_d16_xyz", "tbuffer_load_d16_format_xyz", MT, OpKind::LoadFormat,
        {X, X, 10, 10, 10, 10, 10}, 3, 0, kD16),
    row("tbuffer_load_format_d16_xyzw", "tbuffer_load_d16_format_xyzw", MT, OpKind::LoadFormat,
        {X, X, 11, 11, 11, 11, 11}, 4, 0, kD16),
    row("tbuffer_store_format_d16_x", "tbuffer_store_d16_format_x", MT, OpKind::StoreFormat,
        {X, X, 12, 12, 12, 12, 12}, 1, 0, kD16),
    row("tbuffer_store_format_d16_xy", "tbuffer_store_d16_format_xy", MT, OpKind::StoreFormat,
        {X, X, 13, 13, 13, 13, 13}, 2, 0, kD16),
    row("tbuffer_store_format_d16_xyz", "tbuffer_store_d16_format_xyz", MT, OpKind::StoreFormat,
        {X, X, 14, 14, 14, 14, 14}, 3, 0, kD16),
    row("tbuffer_store_format_d16_xyzw", "tbuffer_store_d16_format_xyzw", MT, OpKind::StoreFormat,
        {X, X, 15, 15, 15, 15, 15}, 4, 0, kD16),

    // MUBUF format ops. LDS: CLRX GcnMemHandling lists BUFFER_LOAD_FORMAT_X.
    row("buffer_load_format_x", "", MU, OpKind::LoadFormat,
        {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, 1, 0, kLds),
    row("buffer_load_format_xy", "", MU, OpKind::LoadFormat,
        {0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01}, 2, 0),
    row("buffer_load_format_xyz", "", MU, OpKind::LoadFormat,
        {0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02}, 3, 0),
    row("buffer_load_format_xyzw", "", MU, OpKind::LoadFormat,
        {0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03}, 4, 0),
    row("buffer_store_format_x", "", MU, OpKind::StoreFormat,
        {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}, 1, 0),
    row("buffer_store_format_xy", "", MU, OpKind::StoreFormat,
        {0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05}, 2, 0),
    row("buffer_store_format_xyz", "", MU, OpKind::StoreFormat,
        {0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x06}, 3, 0),
    row("buffer_store_format_xyzw", "", MU, OpKind::StoreFormat,
        {0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07}, 4, 0),
    row("buffer_load_format_d16_x", "buffer_load_d16_format_x", MU, OpKind::LoadFormat,
        {X, X, 0x08, 0x08, 0x80, 0x80, 0x08}, 1, 0, kD16),
    row("buffer_load_format_d16_xy", "buffer_load_d16_format_xy", MU, OpKind::LoadFormat,
        {X, X, 0x09, 0x09, 0x81, 0x81, 0x09}, 2, 0, kD16),
    row("buffer_load_format_d16_xyz", "buffer_load_d16_format_xyz", MU, OpKind::LoadFormat,
        {X, X, 0x0a, 0x0a, 0x82, 0x82, 0x0a}, 3, 0, kD16),
    row("buffer_load_format_d16_xyzw", "buffer_load_d16_format_xyzw", MU, OpKind::LoadFormat,
        {X, X, 0x0b, 0x0b, 0x83, 0x83, 0x0b}, 4, 0, kD16),
    row("buffer_store_format_d16_x", "buffer_store_d16_format_x", MU, OpKind::StoreFormat,
        {X, X, 0x0c, 0x0c, 0x84, 0x84, 0x0c}, 1, 0, kD16),
    row("buffer_store_format_d16_xy", "buffer_store_d16_format_xy", MU, OpKind::StoreFormat,
        {X, X, 0x0d, 0x0d, 0x85, 0x85, 0x0d}, 2, 0, kD16),
    row("buffer_store_format_d16_xyz", "buffer_store_d16_format_xyz", MU, OpKind::StoreFormat,
        {X, X, 0x0e, 0x0e, 0x86, 0x86, 0x0e}, 3, 0, kD16),
    row("buffer_store_format_d16_xyzw", "buffer_store_d16_format_xyzw", MU, OpKind::StoreFormat,
        {X, X, 0x0f, 0x0f, 0x87, 0x87, 0x0f}, 4, 0, kD16),
    row("buffer_load_format_d16_hi_x", "buffer_load_d16_hi_format_x", MU, OpKind::LoadFormat,
        {X, X, X, 0x26, X, X, 0x26}, 1, 0, kD16Hi),
    row("buffer_store_format_d16_hi_x", "buffer_store_d16_hi_format_x", MU, OpKind::StoreFormat,
        {X, X, X, 0x27, X, X, 0x27}, 1, 0, kD16Hi),

    // MUBUF typed loads and stores. LDS: CLRX GcnMemHandling lists UBYTE, SBYTE, USHORT, SSHORT,
    // DWORD.
    row("buffer_load_ubyte", "buffer_load_u8", MU, OpKind::Load,
        {0x08, 0x08, 0x10, 0x10, 0x08, 0x08, 0x10}, 1, 1, kLds),
    row("buffer_load_sbyte", "buffer_load_i8", MU, OpKind::Load,
        {0x09, 0x09, 0x11, 0x11, 0x09, 0x09, 0x11}, 1, 1, kSignedLds),
    row("buffer_load_ushort", "buffer_load_u16", MU, OpKind::Load,
        {0x0a, 0x0a, 0x12, 0x12, 0x0a, 0x0a, 0x12}, 1, 2, kLds),
    row("buffer_load_sshort", "buffer_load_i16", MU, OpKind::Load,
        {0x0b, 0x0b, 0x13, 0x13, 0x0b, 0x0b, 0x13}, 1, 2, kSignedLds),
    row("buffer_load_dword", "buffer_load_b32", MU, OpKind::Load,
        {0x0c, 0x0c, 0x14, 0x14, 0x0c, 0x0c, 0x14}, 1, 4, kLds),
    row("buffer_load_dwordx2", "buffer_load_b64", MU, OpKind::Load,
        {0x0d, 0x0d, 0x15, 0x15, 0x0d, 0x0d, 0x15}, 2, 8),
    row("buffer_load_dwordx3", "buffer_load_b96", MU, OpKind::Load,
        {0x0f, 0x0f, 0x16, 0x16, 0x0f, 0x0f, 0x16}, 3, 12),
    row("buffer_load_dwordx4", "buffer_load_b128", MU, OpKind::Load,
        {0x0e, 0x0e, 0x17, 0x17, 0x0e, 0x0e, 0x17}, 4, 16),
    row("buffer_store_byte", "buffer_store_b8", MU, OpKind::Store,
        {0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18}, 1, 1),
    row("buffer_store_byte_d16_hi", "buffer_store_d16_hi_b8", MU, OpKind::Store,
        {X, X, X, 0x19, 0x19, 0x19, 0x24}, 1, 1, kD16Hi),
    row("buffer_store_short", "buffer_store_b16", MU, OpKind::Store,
        {0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x19}, 1, 2),
    row("buffer_store_short_d16_hi", "buffer_store_d16_hi_b16", MU, OpKind::Store,
        {X, X, X, 0x1b, 0x1b, 0x1b, 0x25}, 1, 2, kD16Hi),
    row("buffer_store_dword", "buffer_store_b32", MU, OpKind::Store,
        {0x1c, 0x1c, 0x1c, 0x1c, 0x1c, 0x1c, 0x1a}, 1, 4),
    row("buffer_store_dwordx2", "buffer_store_b64", MU, OpKind::Store,
        {0x1d, 0x1d, 0x1d, 0x1d, 0x1d, 0x1d, 0x1b}, 2, 8),
    row("buffer_store_dwordx3", "buffer_store_b96", MU, OpKind::Store,
        {0x1f, 0x1f, 0x1e, 0x1e, 0x1f, 0x1f, 0x1c}, 3, 12),
    row("buffer_store_dwordx4", "buffer_store_b128", MU, OpKind::Store,
        {0x1e, 0x1e, 0x1f, 0x1f, 0x1e, 0x1e, 0x1d}, 4, 16),
    row("buffer_load_ubyte_d16", "buffer_load_d16_u8", MU, OpKind::Load,
        {X, X, X, 0x20, 0x20, 0x20, 0x1e}, 1, 1, kD16),
    row("buffer_load_ubyte_d16_hi", "buffer_load_d16_hi_u8", MU, OpKind::Load,
        {X, X, X, 0x21, 0x21, 0x21, 0x21}, 1, 1, kD16Hi),
    row("buffer_load_sbyte_d16", "buffer_load_d16_i8", MU, OpKind::Load,
        {X, X, X, 0x22, 0x22, 0x22, 0x1f}, 1, 1, kD16Signed),
    row("buffer_load_sbyte_d16_hi", "buffer_load_d16_hi_i8", MU, OpKind::Load,
        {X, X, X, 0x23, 0x23, 0x23, 0x22}, 1, 1, kD16HiSigned),
    row("buffer_load_short_d16", "buffer_load_d16_b16", MU, OpKind::Load,
        {X, X, X, 0x24, 0x24, 0x24, 0x20}, 1, 2, kD16),
    row("buffer_load_short_d16_hi", "buffer_load_d16_hi_b16", MU, OpKind::Load,
        {X, X, X, 0x25, 0x25, 0x25, 0x23}, 1, 2, kD16Hi),
    // LDS -> memory, GFX8/9 only (LLVM: BUFFER_STORE_LDS_DWORD, MUBUF_Real_vi 0x3d).
    row("buffer_store_lds_dword", "", MU, OpKind::Store, {X, X, 0x3d, 0x3d, X, X, X}, 1, 4,
        Flags{.ldsCapable = true, .ldsData = true}),

    // Cache invalidation: _SC is the gfx6 name of opcode 0x70, _VOL the gfx7+ one.
    row("buffer_wbinvl1_sc", "", MU, OpKind::Cache, {0x70, X, X, X, X, X, X}, 0, 0),
    row("buffer_wbinvl1_vol", "", MU, OpKind::Cache, {X, 0x70, 0x3f, 0x3f, X, X, X}, 0, 0),
    // GFX10+: the L1 is split into the per-CU GL0 and the shared GL1 (LLVM BUFFER_GL0_INV /
    // BUFFER_GL1_INV, MUBUF_Real_gfx10 0x71/0x72, MUBUF_Real_gfx11 0x2b/0x2c).
    row("buffer_gl0_inv", "", MU, OpKind::Cache, {X, X, X, X, 0x71, 0x71, 0x2b}, 0, 0),
    row("buffer_gl1_inv", "", MU, OpKind::Cache, {X, X, X, X, 0x72, 0x72, 0x2c}, 0, 0),
    row("buffer_wbinvl1", "", MU, OpKind::Cache, {0x71, 0x71, 0x3e, 0x3e, X, X, X}, 0, 0),

    // 32-bit atomics: gfx6/7 0x30.., gfx8/9 0x40.. (docs/gcn-facts.md).
    atomic("buffer_atomic_swap", "buffer_atomic_swap_b32",
           {0x30, 0x30, 0x40, 0x40, 0x30, 0x30, 0x33}, AtomicOp::Swap, false),
    atomic("buffer_atomic_cmpswap", "buffer_atomic_cmpswap_b32",
           {0x31, 0x31, 0x41, 0x41, 0x31, 0x31, 0x34}, AtomicOp::Cmpswap, false),
    atomic("buffer_atomic_add", "buffer_atomic_add_u32", {0x32, 0x32, 0x42, 0x42, 0x32, 0x32, 0x35},
           AtomicOp::Add, false),
    atomic("buffer_atomic_sub", "buffer_atomic_sub_u32", {0x33, 0x33, 0x43, 0x43, 0x33, 0x33, 0x36},
           AtomicOp::Sub, false),
    atomic("buffer_atomic_rsub", "", {0x34, X, X, X, X, X, X}, AtomicOp::Rsub, false),
    // Subtract clamped at 0, GFX10.3+; LLVM defines only the returning form (glc).
    atomic("buffer_atomic_csub", "buffer_atomic_csub_u32", {X, X, X, X, X, 0x34, 0x37},
           AtomicOp::Csub, false),
    atomic("buffer_atomic_smin", "buffer_atomic_min_i32",
           {0x35, 0x35, 0x44, 0x44, 0x35, 0x35, 0x38}, AtomicOp::Smin, false),
    atomic("buffer_atomic_umin", "buffer_atomic_min_u32",
           {0x36, 0x36, 0x45, 0x45, 0x36, 0x36, 0x39}, AtomicOp::Umin, false),
    atomic("buffer_atomic_smax", "buffer_atomic_max_i32",
           {0x37, 0x37, 0x46, 0x46, 0x37, 0x37, 0x3a}, AtomicOp::Smax, false),
    atomic("buffer_atomic_umax", "buffer_atomic_max_u32",
           {0x38, 0x38, 0x47, 0x47, 0x38, 0x38, 0x3b}, AtomicOp::Umax, false),
    atomic("buffer_atomic_and", "buffer_atomic_and_b32", {0x39, 0x39, 0x48, 0x48, 0x39, 0x39, 0x3c},
           AtomicOp::And, false),
    atomic("buffer_atomic_or", "buffer_atomic_or_b32", {0x3a, 0x3a, 0x49, 0x49, 0x3a, 0x3a, 0x3d},
           AtomicOp::Or, false),
    atomic("buffer_atomic_xor", "buffer_atomic_xor_b32", {0x3b, 0x3b, 0x4a, 0x4a, 0x3b, 0x3b, 0x3e},
           AtomicOp::Xor, false),
    atomic("buffer_atomic_inc", "buffer_atomic_inc_u32", {0x3c, 0x3c, 0x4b, 0x4b, 0x3c, 0x3c, 0x3f},
           AtomicOp::Inc, false),
    atomic("buffer_atomic_dec", "buffer_atomic_dec_u32", {0x3d, 0x3d, 0x4c, 0x4c, 0x3d, 0x3d, 0x40},
           AtomicOp::Dec, false),
    atomic("buffer_atomic_fcmpswap", "buffer_atomic_cmpswap_f32",
           {0x3e, 0x3e, X, X, 0x3e, 0x3e, 0x50}, AtomicOp::Fcmpswap, false),
    atomic("buffer_atomic_fmin", "buffer_atomic_min_f32", {0x3f, 0x3f, X, X, 0x3f, 0x3f, 0x51},
           AtomicOp::Fmin, false),
    atomic("buffer_atomic_fmax", "buffer_atomic_max_f32", {0x40, 0x40, X, X, 0x40, 0x40, 0x52},
           AtomicOp::Fmax, false),
    // Float add, GFX11 here (LLVM also has it on gfx908/gfx90a, which are not modelled).
    atomic("buffer_atomic_add_f32", "", {X, X, X, X, X, X, 0x56}, AtomicOp::Fadd, false),
    // 64-bit atomics: gfx6/7 0x50.., gfx8/9 0x60.. (docs/gcn-facts.md).
    atomic("buffer_atomic_swap_x2", "buffer_atomic_swap_b64",
           {0x50, 0x50, 0x60, 0x60, 0x50, 0x50, 0x41}, AtomicOp::Swap, true),
    atomic("buffer_atomic_cmpswap_x2", "buffer_atomic_cmpswap_b64",
           {0x51, 0x51, 0x61, 0x61, 0x51, 0x51, 0x42}, AtomicOp::Cmpswap, true),
    atomic("buffer_atomic_add_x2", "buffer_atomic_add_u64",
           {0x52, 0x52, 0x62, 0x62, 0x52, 0x52, 0x43}, AtomicOp::Add, true),
    atomic("buffer_atomic_sub_x2", "buffer_atomic_sub_u64",
           {0x53, 0x53, 0x63, 0x63, 0x53, 0x53, 0x44}, AtomicOp::Sub, true),
    atomic("buffer_atomic_rsub_x2", "", {0x54, X, X, X, X, X, X}, AtomicOp::Rsub, true),
    atomic("buffer_atomic_smin_x2", "buffer_atomic_min_i64",
           {0x55, 0x55, 0x64, 0x64, 0x55, 0x55, 0x45}, AtomicOp::Smin, true),
    atomic("buffer_atomic_umin_x2", "buffer_atomic_min_u64",
           {0x56, 0x56, 0x65, 0x65, 0x56, 0x56, 0x46}, AtomicOp::Umin, true),
    atomic("buffer_atomic_smax_x2", "buffer_atomic_max_i64",
           {0x57, 0x57, 0x66, 0x66, 0x57, 0x57, 0x47}, AtomicOp::Smax, true),
    atomic("buffer_atomic_umax_x2", "buffer_atomic_max_u64",
           {0x58, 0x58, 0x67, 0x67, 0x58, 0x58, 0x48}, AtomicOp::Umax, true),
    atomic("buffer_atomic_and_x2", "buffer_atomic_and_b64",
           {0x59, 0x59, 0x68, 0x68, 0x59, 0x59, 0x49}, AtomicOp::And, true),
    atomic("buffer_atomic_or_x2", "buffer_atomic_or_b64",
           {0x5a, 0x5a, 0x69, 0x69, 0x5a, 0x5a, 0x4a}, AtomicOp::Or, true),
    atomic("buffer_atomic_xor_x2", "buffer_atomic_xor_b64",
           {0x5b, 0x5b, 0x6a, 0x6a, 0x5b, 0x5b, 0x4b}, AtomicOp::Xor, true),
    atomic("buffer_atomic_inc_x2", "buffer_atomic_inc_u64",
           {0x5c, 0x5c, 0x6b, 0x6b, 0x5c, 0x5c, 0x4c}, AtomicOp::Inc, true),
    atomic("buffer_atomic_dec_x2", "buffer_atomic_dec_u64",
           {0x5d, 0x5d, 0x6c, 0x6c, 0x5d, 0x5d, 0x4d}, AtomicOp::Dec, true),
    atomic("buffer_atomic_fcmpswap_x2", "", {0x5e, 0x5e, X, X, 0x5e, 0x5e, X}, AtomicOp::Fcmpswap,
           true),
    atomic("buffer_atomic_fmin_x2", "", {0x5f, 0x5f, X, X, 0x5f, 0x5f, X}, AtomicOp::Fmin, true),
    atomic("buffer_atomic_fmax_x2", "", {0x60, 0x60, X, X, 0x60, 0x60, X}, AtomicOp::Fmax, true),
};

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

// 104 SGPRs (s0..s103) on gfx6/7; on gfx8/9 s102/s103 are FLAT_SCRATCH/XNACK_MASK and llvm-mc
// rejects them ("register not available"); GFX10+ has s0..s105 (llvm-mc 15 accepts s105).
unsigned sgprCount(Gen gen) {
  if (isRdna(gen)) return 106;
  return gen <= Gen::Gfx7 ? 104 : 102;
}

std::span<const OpcodeInfo> allOpcodes() {
  return kOpcodes;
}

bool writesMemory(OpKind k) {
  return k == OpKind::Store || k == OpKind::StoreFormat || k == OpKind::Atomic;
}

bool returnsData(OpKind k, bool glc) {
  return k == OpKind::Load || k == OpKind::LoadFormat || (k == OpKind::Atomic && glc);
}

bool existsOn(const OpcodeInfo& op, Gen gen) {
  return op.opcode[genIndex(gen)] >= 0;
}

const OpcodeInfo& requireOpcode(std::string_view mnemonic) {
  const OpcodeInfo* op = findOpcode(mnemonic);
  if (op == nullptr) throw Error("opcode table lacks " + std::string(mnemonic));
  return *op;
}

const OpcodeInfo* findOpcode(std::string_view mnemonic) {
  for (const OpcodeInfo& op : kOpcodes) {
    if (equalsIgnoreCase(op.mnemonic, mnemonic)) return &op;
  }
  for (const OpcodeInfo& op : kOpcodes) {
    if (!op.gfx11Mnemonic.empty() && equalsIgnoreCase(op.gfx11Mnemonic, mnemonic)) return &op;
  }
  return nullptr;
}

std::string_view mnemonicOn(const OpcodeInfo& op, Gen gen) {
  return gen == Gen::Gfx11 && !op.gfx11Mnemonic.empty() ? op.gfx11Mnemonic : op.mnemonic;
}

const OpcodeInfo* findOpcode(Encoding enc, Gen gen, unsigned opcode) {
  for (const OpcodeInfo& op : kOpcodes) {
    if (op.encoding == enc && op.opcode[genIndex(gen)] == static_cast<int>(opcode)) return &op;
  }
  return nullptr;
}

unsigned vdataRegs(const OpcodeInfo& op, const Chip& chip, bool tfe) {
  if (op.kind == OpKind::Cache || op.ldsData) return 0;
  unsigned regs = op.components;
  if (op.d16 && !op.d16Hi && (op.kind == OpKind::LoadFormat || op.kind == OpKind::StoreFormat)) {
    // D16 format data: packed two halves per VGPR on gfx810 and gfx9, one per VGPR on
    // gfx801-803 (docs/gcn-facts.md; LLVM HasPackedD16VMem / HasUnpackedD16VMem).
    regs = chip.d16Packed ? (op.components + 1u) / 2u : op.components;
  }
  if (op.atomic == AtomicOp::Cmpswap || op.atomic == AtomicOp::Fcmpswap) regs *= 2;
  return regs + (tfe ? 1u : 0u);
}

unsigned vaddrRegs(const Instruction& inst) {
  if (inst.addr64) return 2;
  if (inst.idxen && inst.offen) return 2;
  return (inst.idxen || inst.offen) ? 1 : 0;
}

std::optional<std::string> validationError(Gen gen, const Instruction& inst) {
  auto fail = [&](const std::string& why) -> std::optional<std::string> {
    std::string name = inst.op ? std::string(inst.op->mnemonic) : std::string("instruction");
    return name + " on " + std::string(genName(gen)) + ": " + why;
  };
  if (inst.op == nullptr) return std::string("instruction has no opcode");
  const OpcodeInfo& op = *inst.op;
  if (!existsOn(op, gen)) return fail("the instruction does not exist on this generation");

  if (op.kind == OpKind::Cache) {
    Instruction bare;
    bare.op = inst.op;
    if (!(inst == bare)) return fail("a cache operation takes no operands and no modifiers");
    return std::nullopt;
  }
  if (inst.addr64 && gen >= Gen::Gfx8) return fail("addr64 exists on gfx6/gfx7 only");
  if (inst.dlc && isGcn(gen)) return fail("dlc exists from gfx10 on");
  if (isRdna(gen) && op.encoding == Encoding::Mtbuf &&
      (inst.dfmt != Dfmt::F8 || inst.nfmt != Nfmt::Unorm))
    return fail("GFX10+ MTBUF takes one unified format:[BUF_FMT_...], not DFMT/NFMT");
  if (inst.format != kDefaultUnifiedFormat && (isGcn(gen) || op.encoding == Encoding::Mubuf))
    return fail(isGcn(gen) ? "the unified format exists from gfx10 on; GCN MTBUF takes DFMT/NFMT"
                           : "format is an MTBUF field; MUBUF takes the format from the resource");
  if (inst.format > 127) return fail("the unified format is 7 bits (0..127)");
  if (op.atomic == AtomicOp::Csub && !inst.glc)
    return fail("LLVM defines buffer_atomic_csub only in its returning form (glc)");
  if (inst.addr64 && (inst.idxen || inst.offen))
    return fail("idxen/offen cannot be used with addr64");
  if (op.ldsData) {
    if (!inst.lds) return fail("buffer_store_lds_dword always takes lds");
    if (inst.vdata != 0 || inst.vaddr != 0 || inst.idxen || inst.offen || inst.addr64 || inst.tfe)
      return fail("buffer_store_lds_dword has no VDATA, no VADDR and no idxen/offen/addr64/tfe");
  } else if (inst.lds) {
    if (gen == Gen::Gfx11)
      return fail(
          "gfx11 has no LDS bit: it loads to LDS with separate opcodes (buffer_load_lds_*), "
          "which are not modelled yet");
    if (isRdna(gen) && inst.vdata != 0)
      return fail("a load to LDS has no VDATA on gfx10 (LLVM's form names none; the field is 0)");
    if (op.encoding == Encoding::Mtbuf)
      return fail("lds is a MUBUF modifier (MTBUF has no LDS bit)");
    if (!op.ldsCapable)
      return fail(
          "lds works only with buffer_load_ubyte/sbyte/ushort/sshort/dword/format_x (CLRX "
          "GcnMemHandling)");
    if (inst.tfe) return fail("tfe and lds together are illegal (CLRX GcnMemHandling)");
  }
  // LLVM has no TFE form of any buffer atomic (BUFInstructions.td: MUBUF_Real_Atomic_vi uses
  // MUBUF_Real_AllAddr_vi<op, 0>, no _TFE); llvm-mc 14 rejects `tfe` on atomics and its
  // disassembler drops bit 55 there. No public source defines what it would do.
  if (inst.tfe && op.kind == OpKind::Atomic) return fail("tfe is not defined for buffer atomics");
  // Nor DLC: llvm-mc 15 prints `dlc` on a GFX10/GFX11 atomic but leaves its bit 0, and its
  // disassembler rejects an atomic word with the bit set (LLVM gives atomics no DLC operand).
  if (inst.dlc && op.kind == OpKind::Atomic) return fail("dlc is not defined for buffer atomics");
  if (op.encoding == Encoding::Mubuf && (inst.dfmt != Dfmt::F8 || inst.nfmt != Nfmt::Unorm))
    return fail("format is an MTBUF field; MUBUF takes the format from the resource");
  if (inst.offset >= 4096)
    return fail("offset " + std::to_string(inst.offset) + " exceeds 12 bits");
  if (inst.srsrc % 4 != 0) return fail("SRSRC must start at a multiple of 4 SGPRs");
  if (inst.srsrc + 4u > sgprCount(gen))
    return fail("SRSRC s[" + std::to_string(inst.srsrc) + ":" + std::to_string(inst.srsrc + 3) +
                "] is beyond the " + std::to_string(sgprCount(gen)) + " SGPRs");
  if (!soffsetLegal(gen, inst.soffset))
    return fail("SOFFSET operand code " + hexNumber(inst.soffset) +
                " is not an SGPR, m0, vcc, exec or an " + "inline constant");
  const unsigned data = vdataRegs(op, representativeChip(gen), inst.tfe);
  if (data > 0 && inst.vdata + data > 256) return fail("VDATA runs past v255");
  const unsigned addr = vaddrRegs(inst);
  if (addr == 0 && inst.vaddr != 0) return fail("VADDR must be 0 when no address is read ('off')");
  if (addr > 0 && inst.vaddr + addr > 256) return fail("VADDR runs past v255");
  return std::nullopt;
}

void validate(Gen gen, const Instruction& inst) {
  if (std::optional<std::string> why = validationError(gen, inst)) throw Error(*why);
}

std::optional<int32_t> integerInlineValue(unsigned code) {
  if (code >= 128 && code <= 192) return static_cast<int32_t>(code) - 128;
  if (code >= 193 && code <= 208) return 192 - static_cast<int32_t>(code);
  return std::nullopt;
}

std::optional<uint8_t> integerInlineCode(int64_t value) {
  if (value >= 0 && value <= 64) return static_cast<uint8_t>(128 + value);
  if (value >= -16 && value <= -1) return static_cast<uint8_t>(192 - value);
  return std::nullopt;
}

bool soffsetLegal(Gen gen, uint8_t code) {
  if (code < sgprCount(gen)) return true;       // s0..s103 / s0..s101 / s0..s105
  if (isRdna(gen) && code == 125) return true;  // null on gfx10, m0 on gfx11
  switch (code) {
    case 106:  // vcc_lo
    case 107:  // vcc_hi
    case 124:  // m0 (null on gfx11)
    case 126:  // exec_lo
    case 127:  // exec_hi
      return true;
    default:
      break;
  }
  if (code >= 128 && code <= 208) return true;  // integers 0..64, -1..-16
  if (code >= 240 && code <= 247) return true;  // +-0.5, +-1.0, +-2.0, +-4.0
  return code == 248 && gen >= Gen::Gfx8;       // 1/(2*pi), gfx8+
}

}  // namespace gcn
