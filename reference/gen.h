// GCN generations (GFX6..GFX9 = GCN 1.0, 1.1, 1.2, 1.4) and the chips that belong to them.
// The chip table is the one place that knows chip names, LLVM -mcpu names, RADV family
// names and per-chip quirks such as D16 packing.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gcn {

enum class Gen : uint8_t { Gfx6 = 6, Gfx7 = 7, Gfx8 = 8, Gfx9 = 9 };

inline constexpr Gen kAllGens[] = {Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9};

// "gfx6".."gfx9".
std::string_view genName(Gen gen);
// "GCN 1.0", "GCN 1.1", "GCN 1.2", "GCN 1.4".
std::string_view gcnVersionName(Gen gen);

struct Chip {
  std::string_view name;   // lower case, e.g. "polaris10"
  std::string_view gfxip;  // e.g. "gfx803"
  Gen gen;
  std::string_view llvmCpu;     // llvm-mc -mcpu value
  std::string_view radvFamily;  // RADV_FORCE_FAMILY value ("" when RADV has none)
  bool d16Packed;               // D16 format data: two halves per VGPR (gfx810, gfx9)
  // Format loads of 2_10_10_10 SNORM/SSCALED/SINT sign-extend the 2-bit W (gfx810, gfx9); the
  // other GFX6-8 chips return it unsigned (Mesa's "alpha adjust", policy alpha2).
  bool signedAlpha2;
};

// Every known chip, generic ones ("gfx6".."gfx9") first.
std::span<const Chip> allChips();

// Accepts a generation ("gfx8", "GCN1.2", "gcn 1.2", "8"), a gfxip ("gfx803") or a chip
// name ("polaris10"), case-insensitively. A generation name gives that generation's
// representative chip. Throws gcn::Error naming the text and the accepted forms.
const Chip& parseChip(std::string_view text);
inline Gen parseGen(std::string_view text) {
  return parseChip(text).gen;
}

// The representative chip of a generation (tahiti, bonaire, tonga, vega10).
const Chip& representativeChip(Gen gen);

}  // namespace gcn
