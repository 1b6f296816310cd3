// AMD graphics generations and the chips that belong to them: GCN (GFX6..GFX9 = GCN 1.0, 1.1,
// 1.2, 1.4), which the whole tool models, and RDNA (GFX10 = RDNA 1, GFX10.3 = RDNA 2, GFX11 =
// RDNA 3), which the reference models so far as instructions, encodings, formats and the V#
// (docs/rdna.md). The chip table is the one place that knows chip names, LLVM -mcpu names, RADV
// family names and per-chip quirks such as D16 packing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gcn {

// The values order the generations (Gfx10_3 between Gfx10 and Gfx11); genIndex() gives a
// generation's column in the per-generation tables.
enum class Gen : uint8_t {
  Gfx6 = 6,
  Gfx7 = 7,
  Gfx8 = 8,
  Gfx9 = 9,
  Gfx10 = 10,
  Gfx10_3 = 11,
  Gfx11 = 12
};

inline constexpr Gen kGcnGens[] = {Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9};
inline constexpr Gen kRdnaGens[] = {Gen::Gfx10, Gen::Gfx10_3, Gen::Gfx11};
inline constexpr Gen kAllGens[] = {Gen::Gfx6,  Gen::Gfx7,    Gen::Gfx8, Gen::Gfx9,
                                   Gen::Gfx10, Gen::Gfx10_3, Gen::Gfx11};
inline constexpr std::size_t kGenCount = std::size(kAllGens);

constexpr std::size_t genIndex(Gen gen) {
  return static_cast<std::size_t>(gen) - 6;
}
// Which generations a per-generation table row applies to, indexed by genIndex.
using GenMask = std::array<bool, kGenCount>;
// The generations first..last in Gen order: genRange(Gen::Gfx6, Gen::Gfx9) is GCN.
constexpr GenMask genRange(Gen first, Gen last) {
  GenMask m{};
  for (Gen g : kAllGens)
    m[genIndex(g)] = g >= first && g <= last;
  return m;
}

// The generation sets the per-generation tables (instruction fields, V# fields) are written in.
namespace gens {
inline constexpr GenMask kAll = genRange(Gen::Gfx6, Gen::Gfx11);
inline constexpr GenMask kGcn = genRange(Gen::Gfx6, Gen::Gfx9);
inline constexpr GenMask kGfx67 = genRange(Gen::Gfx6, Gen::Gfx7);
inline constexpr GenMask kGfx6to8 = genRange(Gen::Gfx6, Gen::Gfx8);
inline constexpr GenMask kGfx89 = genRange(Gen::Gfx8, Gen::Gfx9);
inline constexpr GenMask kGfx9 = genRange(Gen::Gfx9, Gen::Gfx9);
inline constexpr GenMask kGfx10 = genRange(Gen::Gfx10, Gen::Gfx10_3);  // gfx10 and gfx10.3
inline constexpr GenMask kGfx10_3 = genRange(Gen::Gfx10_3, Gen::Gfx10_3);
inline constexpr GenMask kGfx11 = genRange(Gen::Gfx11, Gen::Gfx11);
inline constexpr GenMask kRdna = genRange(Gen::Gfx10, Gen::Gfx11);
inline constexpr GenMask kGcnGfx10 = genRange(Gen::Gfx6, Gen::Gfx10_3);
}  // namespace gens
constexpr GenMask operator|(const GenMask& a, const GenMask& b) {
  GenMask m{};
  for (std::size_t i = 0; i < kGenCount; ++i)
    m[i] = a[i] || b[i];
  return m;
}

constexpr bool isGcn(Gen gen) {
  return gen <= Gen::Gfx9;
}
// GFX8 and GFX9 (GCN3 and GCN5): the encodings whose field layouts (VOP3's opcode at [25:16],
// DS's at [24:17], SDWA/DPP as SRC0, SMEM for SMRD) GFX6/7 lack and RDNA changed again.
constexpr bool isGfx8Or9(Gen gen) {
  return gen == Gen::Gfx8 || gen == Gen::Gfx9;
}
constexpr bool isRdna(Gen gen) {
  return gen >= Gen::Gfx10;
}
// Wave32 exists from GFX10 on (RDNA runs wave32 and wave64); GCN runs wave64 only.
constexpr bool hasWave32(Gen gen) {
  return isRdna(gen);
}
// Scalar operand codes of M0 and NULL: M0 is 124 through GFX10.3 and NULL (GFX10+) 125; GFX11
// swapped them (LLVM SIRegisterInfo.td, the GFX11 encodings: M0 125, SGPR_NULL 124).
constexpr unsigned m0SgprCode(Gen gen) {
  return gen == Gen::Gfx11 ? 125 : 124;
}
// Only meaningful where isRdna(gen): GCN has no NULL operand (125 is reserved there).
constexpr unsigned nullSgprCode(Gen gen) {
  return gen == Gen::Gfx11 ? 124 : 125;
}

// "gfx6".."gfx9", "gfx10", "gfx10.3", "gfx11".
std::string_view genName(Gen gen);
// "GCN 1.0", "GCN 1.1", "GCN 1.2", "GCN 1.4", "RDNA 1", "RDNA 2", "RDNA 3".
std::string_view gcnVersionName(Gen gen);

struct Chip {
  std::string_view name;   // lower case, e.g. "polaris10"
  std::string_view gfxip;  // e.g. "gfx803"
  Gen gen;
  std::string_view llvmCpu;     // llvm-mc -mcpu value
  std::string_view radvFamily;  // RADV_FORCE_FAMILY value of Mesa 25 ("" when RADV has none)
  bool d16Packed;               // D16 format data: two halves per VGPR (gfx810, gfx9, RDNA)
  // Format loads of 2_10_10_10 SNORM/SSCALED/SINT sign-extend the 2-bit W (gfx810, gfx9 and
  // later); the other GFX6-8 chips return it unsigned (Mesa's "alpha adjust", policy alpha2).
  bool signedAlpha2;
  // The RADV_FORCE_FAMILY value of Mesa 22.3, which named some chips differently (gfx1100 where
  // Mesa 25 says navi31) and lacks others ("" then).
  std::string_view radvFamilyMesa22;
};

// The GCN chips, generic ones ("gfx6".."gfx9") first.
std::span<const Chip> gcnChips();
// The RDNA chips, generic ones ("gfx10", "gfx10.3", "gfx11") first.
std::span<const Chip> rdnaChips();

// Accepts a GCN generation ("gfx8", "GCN1.2", "gcn 1.2", "8"), a gfxip ("gfx803") or a chip
// name ("polaris10"), case-insensitively. A generation name gives that generation's
// representative chip. Throws gcn::Error naming the text and the accepted forms; for an RDNA
// name the error says that the command models GCN only.
const Chip& parseChip(std::string_view text);
inline Gen parseGen(std::string_view text) {
  return parseChip(text).gen;
}
// The same over GCN and RDNA ("gfx10", "gfx10.3", "rdna2", "navi21", "gfx1100"), for the parts
// that model both (the instruction encoder, decoder and assembler).
const Chip& parseAnyChip(std::string_view text);
inline Gen parseAnyGen(std::string_view text) {
  return parseAnyChip(text).gen;
}

// The representative chip of a generation (tahiti, bonaire, tonga, vega10, navi10, navi21,
// navi31).
const Chip& representativeChip(Gen gen);

}  // namespace gcn
