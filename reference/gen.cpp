#include "reference/gen.h"

#include <algorithm>
#include <string>

#include "reference/error.h"
#include "reference/text.h"

namespace gcn {
namespace {

// Sources: LLVM AMDGPUUsage ("Processors" table: chip name -> gfxip, and which gfx8 parts
// pack D16), Mesa's amd_family names for RADV_FORCE_FAMILY; the signed 2-bit alpha from Mesa
// ac_shader_util.c (alpha_adjust = level <= GFX8 && family != CHIP_STONEY) and radeonsi
// si_state.c ("GFX8 and older except Stoney"). The first four rows are the
// generic names; each maps to its generation's representative chip's properties.
constexpr Chip kChips[] = {
    {"gfx6", "gfx600", Gen::Gfx6, "tahiti", "tahiti", false, false},
    {"gfx7", "gfx704", Gen::Gfx7, "bonaire", "bonaire", false, false},
    {"gfx8", "gfx802", Gen::Gfx8, "tonga", "tonga", false, false},
    {"gfx9", "gfx900", Gen::Gfx9, "gfx900", "vega10", true, true},
    // GFX6 (GCN 1.0)
    {"tahiti", "gfx600", Gen::Gfx6, "tahiti", "tahiti", false, false},
    {"pitcairn", "gfx601", Gen::Gfx6, "pitcairn", "pitcairn", false, false},
    {"verde", "gfx601", Gen::Gfx6, "verde", "verde", false, false},
    {"oland", "gfx602", Gen::Gfx6, "oland", "oland", false, false},
    {"hainan", "gfx602", Gen::Gfx6, "hainan", "hainan", false, false},
    // GFX7 (GCN 1.1)
    {"bonaire", "gfx704", Gen::Gfx7, "bonaire", "bonaire", false, false},
    {"hawaii", "gfx701", Gen::Gfx7, "hawaii", "hawaii", false, false},
    {"kaveri", "gfx700", Gen::Gfx7, "kaveri", "kaveri", false, false},
    {"kabini", "gfx703", Gen::Gfx7, "kabini", "kabini", false, false},
    {"mullins", "gfx703", Gen::Gfx7, "mullins", "kabini", false, false},
    // GFX8 (GCN 1.2); D16 unpacked on gfx801-803, packed on gfx810 (Stoney)
    {"carrizo", "gfx801", Gen::Gfx8, "carrizo", "carrizo", false, false},
    {"tonga", "gfx802", Gen::Gfx8, "tonga", "tonga", false, false},
    {"iceland", "gfx802", Gen::Gfx8, "iceland", "iceland", false, false},
    {"fiji", "gfx803", Gen::Gfx8, "fiji", "fiji", false, false},
    {"polaris10", "gfx803", Gen::Gfx8, "polaris10", "polaris10", false, false},
    {"polaris11", "gfx803", Gen::Gfx8, "polaris11", "polaris11", false, false},
    {"polaris12", "gfx803", Gen::Gfx8, "polaris12", "polaris12", false, false},
    {"vegam", "gfx803", Gen::Gfx8, "gfx803", "vegam", false, false},
    {"stoney", "gfx810", Gen::Gfx8, "stoney", "stoney", true, true},
    // GFX9 (GCN 1.4)
    {"vega10", "gfx900", Gen::Gfx9, "gfx900", "vega10", true, true},
    {"raven", "gfx902", Gen::Gfx9, "gfx902", "raven", true, true},
    {"vega12", "gfx904", Gen::Gfx9, "gfx904", "vega12", true, true},
    {"vega20", "gfx906", Gen::Gfx9, "gfx906", "vega20", true, true},
    {"raven2", "gfx909", Gen::Gfx9, "gfx909", "raven2", true, true},
    {"renoir", "gfx90c", Gen::Gfx9, "gfx90c", "renoir", true, true},
};

// Lower case without separators: "GCN 1.2", "gcn-1.2" and "gcn1.2" are one name.
std::string normalized(std::string_view s) {
  std::string out;
  for (char c : asciiLower(s)) {
    if (c != ' ' && c != '_' && c != '-') out += c;
  }
  return out;
}

}  // namespace

std::string_view genName(Gen gen) {
  switch (gen) {
    case Gen::Gfx6:
      return "gfx6";
    case Gen::Gfx7:
      return "gfx7";
    case Gen::Gfx8:
      return "gfx8";
    case Gen::Gfx9:
      return "gfx9";
  }
  return "gfx?";
}

std::string_view gcnVersionName(Gen gen) {
  switch (gen) {
    case Gen::Gfx6:
      return "GCN 1.0";
    case Gen::Gfx7:
      return "GCN 1.1";
    case Gen::Gfx8:
      return "GCN 1.2";
    case Gen::Gfx9:
      return "GCN 1.4";
  }
  return "GCN ?";
}

std::span<const Chip> allChips() {
  return kChips;
}

const Chip& representativeChip(Gen gen) {
  for (const Chip& c : kChips) {
    if (c.gen == gen) return c;  // generic rows come first
  }
  return kChips[0];
}

const Chip& parseChip(std::string_view text) {
  const std::string t = normalized(text);
  static constexpr struct {
    std::string_view alias;
    Gen gen;
  } kAliases[] = {
      {"gcn1.0", Gen::Gfx6}, {"gcn1", Gen::Gfx6}, {"6", Gen::Gfx6},      {"si", Gen::Gfx6},
      {"gcn1.1", Gen::Gfx7}, {"7", Gen::Gfx7},    {"ci", Gen::Gfx7},     {"gcn1.2", Gen::Gfx8},
      {"8", Gen::Gfx8},      {"vi", Gen::Gfx8},   {"gcn1.4", Gen::Gfx9}, {"9", Gen::Gfx9},
      {"gfx6", Gen::Gfx6},   {"gfx7", Gen::Gfx7}, {"gfx8", Gen::Gfx8},   {"gfx9", Gen::Gfx9},
  };
  for (const auto& a : kAliases) {
    if (t == a.alias) return representativeChip(a.gen);
  }
  for (const Chip& c : kChips) {
    if (t == c.name) return c;
  }
  // A bare gfxip ("gfx803") names the first chip with it after the generic rows.
  for (std::size_t i = 4; i < std::size(kChips); ++i) {
    if (t == kChips[i].gfxip) return kChips[i];
  }
  std::string known;
  for (std::size_t i = 4; i < std::size(kChips); ++i) {
    if (!known.empty()) known += ' ';  // appended: GCC 12 -O3 warns falsely on "" + string
    known += kChips[i].name;
  }
  throw Error("unknown GCN generation or chip '" + std::string(text) +
              "': expected gfx6|gfx7|gfx8|gfx9, GCN1.0|1.1|1.2|1.4, a gfxip such as gfx803, or "
              "a chip: " +
              known);
}

}  // namespace gcn
