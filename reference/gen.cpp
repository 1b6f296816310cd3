#include "reference/gen.h"

#include <algorithm>
#include <string>

#include "reference/error.h"
#include "reference/text.h"

namespace gcn {
namespace {

// Sources: LLVM AMDGPUUsage ("Processors" table: chip name -> gfxip, and which gfx8 parts
// pack D16), Mesa's amd_family names for RADV_FORCE_FAMILY (src/amd/common/amd_family.c; the
// Mesa 22.3 and Mesa 25 names were each tried on that version's null device); the signed 2-bit
// alpha from Mesa ac_shader_util.c (alpha_adjust = level <= GFX8 && family != CHIP_STONEY) and
// radeonsi si_state.c ("GFX8 and older except Stoney"). The first rows of each family are the
// generic names; each maps to its generation's representative chip's properties.
constexpr Chip kGcnChips[] = {
    {"gfx6", "gfx600", Gen::Gfx6, "tahiti", "tahiti", false, false, "tahiti"},
    {"gfx7", "gfx704", Gen::Gfx7, "bonaire", "bonaire", false, false, "bonaire"},
    {"gfx8", "gfx802", Gen::Gfx8, "tonga", "tonga", false, false, "tonga"},
    {"gfx9", "gfx900", Gen::Gfx9, "gfx900", "vega10", true, true, "vega10"},
    // GFX6 (GCN 1.0)
    {"tahiti", "gfx600", Gen::Gfx6, "tahiti", "tahiti", false, false, "tahiti"},
    {"pitcairn", "gfx601", Gen::Gfx6, "pitcairn", "pitcairn", false, false, "pitcairn"},
    {"verde", "gfx601", Gen::Gfx6, "verde", "verde", false, false, "verde"},
    {"oland", "gfx602", Gen::Gfx6, "oland", "oland", false, false, "oland"},
    {"hainan", "gfx602", Gen::Gfx6, "hainan", "hainan", false, false, "hainan"},
    // GFX7 (GCN 1.1)
    {"bonaire", "gfx704", Gen::Gfx7, "bonaire", "bonaire", false, false, "bonaire"},
    {"hawaii", "gfx701", Gen::Gfx7, "hawaii", "hawaii", false, false, "hawaii"},
    {"kaveri", "gfx700", Gen::Gfx7, "kaveri", "kaveri", false, false, "kaveri"},
    {"kabini", "gfx703", Gen::Gfx7, "kabini", "kabini", false, false, "kabini"},
    {"mullins", "gfx703", Gen::Gfx7, "mullins", "kabini", false, false, "kabini"},
    // GFX8 (GCN 1.2); D16 unpacked on gfx801-803, packed on gfx810 (Stoney)
    {"carrizo", "gfx801", Gen::Gfx8, "carrizo", "carrizo", false, false, "carrizo"},
    {"tonga", "gfx802", Gen::Gfx8, "tonga", "tonga", false, false, "tonga"},
    {"iceland", "gfx802", Gen::Gfx8, "iceland", "iceland", false, false, "iceland"},
    {"fiji", "gfx803", Gen::Gfx8, "fiji", "fiji", false, false, "fiji"},
    {"polaris10", "gfx803", Gen::Gfx8, "polaris10", "polaris10", false, false, "polaris10"},
    {"polaris11", "gfx803", Gen::Gfx8, "polaris11", "polaris11", false, false, "polaris11"},
    {"polaris12", "gfx803", Gen::Gfx8, "polaris12", "polaris12", false, false, "polaris12"},
    {"vegam", "gfx803", Gen::Gfx8, "gfx803", "vegam", false, false, "vegam"},
    {"stoney", "gfx810", Gen::Gfx8, "stoney", "stoney", true, true, "stoney"},
    // GFX9 (GCN 1.4)
    {"vega10", "gfx900", Gen::Gfx9, "gfx900", "vega10", true, true, "vega10"},
    {"raven", "gfx902", Gen::Gfx9, "gfx902", "raven", true, true, "raven"},
    {"vega12", "gfx904", Gen::Gfx9, "gfx904", "vega12", true, true, "vega12"},
    {"vega20", "gfx906", Gen::Gfx9, "gfx906", "vega20", true, true, "vega20"},
    {"raven2", "gfx909", Gen::Gfx9, "gfx909", "raven2", true, true, "raven2"},
    {"renoir", "gfx90c", Gen::Gfx9, "gfx90c", "renoir", true, true, "renoir"},
};
constexpr std::size_t kGcnGeneric = 4;

// RDNA: D16 is packed and the 2-bit alpha signed on every chip (LLVM HasPackedD16VMem from
// GFX9 on; Mesa's alpha adjust ends with GFX8). Mesa 22.3 calls the GFX11 chips and raphael by
// their gfxip (phoenix and phoenix2: gfx1103_r1, gfx1103_r2).
constexpr Chip kRdnaChips[] = {
    {"gfx10", "gfx1010", Gen::Gfx10, "gfx1010", "navi10", true, true, "navi10"},
    {"gfx10.3", "gfx1030", Gen::Gfx10_3, "gfx1030", "navi21", true, true, "navi21"},
    {"gfx11", "gfx1100", Gen::Gfx11, "gfx1100", "navi31", true, true, "gfx1100"},
    // GFX10 (RDNA 1)
    {"navi10", "gfx1010", Gen::Gfx10, "gfx1010", "navi10", true, true, "navi10"},
    {"navi12", "gfx1011", Gen::Gfx10, "gfx1011", "navi12", true, true, "navi12"},
    {"navi14", "gfx1012", Gen::Gfx10, "gfx1012", "navi14", true, true, "navi14"},
    // GFX10.3 (RDNA 2)
    {"navi21", "gfx1030", Gen::Gfx10_3, "gfx1030", "navi21", true, true, "navi21"},
    {"navi22", "gfx1031", Gen::Gfx10_3, "gfx1031", "navi22", true, true, "navi22"},
    {"navi23", "gfx1032", Gen::Gfx10_3, "gfx1032", "navi23", true, true, "navi23"},
    {"vangogh", "gfx1033", Gen::Gfx10_3, "gfx1033", "vangogh", true, true, "vangogh"},
    {"navi24", "gfx1034", Gen::Gfx10_3, "gfx1034", "navi24", true, true, "navi24"},
    {"rembrandt", "gfx1035", Gen::Gfx10_3, "gfx1035", "rembrandt", true, true, "rembrandt"},
    {"raphael", "gfx1036", Gen::Gfx10_3, "gfx1036", "raphael_mendocino", true, true, "gfx1036"},
    // GFX11 (RDNA 3)
    {"navi31", "gfx1100", Gen::Gfx11, "gfx1100", "navi31", true, true, "gfx1100"},
    {"navi32", "gfx1101", Gen::Gfx11, "gfx1101", "navi32", true, true, "gfx1101"},
    {"navi33", "gfx1102", Gen::Gfx11, "gfx1102", "navi33", true, true, "gfx1102"},
    {"phoenix", "gfx1103", Gen::Gfx11, "gfx1103", "phoenix", true, true, "gfx1103_r1"},
    {"phoenix2", "gfx1103", Gen::Gfx11, "gfx1103", "phoenix2", true, true, "gfx1103_r2"},
};
constexpr std::size_t kRdnaGeneric = 3;

// Lower case without separators: "GCN 1.2", "gcn-1.2" and "gcn1.2" are one name.
std::string normalized(std::string_view s) {
  std::string out;
  for (char c : asciiLower(s)) {
    if (c != ' ' && c != '_' && c != '-') out += c;
  }
  return out;
}

struct Alias {
  std::string_view alias;
  Gen gen;
};
constexpr Alias kGcnAliases[] = {
    {"gcn1.0", Gen::Gfx6}, {"gcn1", Gen::Gfx6}, {"6", Gen::Gfx6},      {"si", Gen::Gfx6},
    {"gcn1.1", Gen::Gfx7}, {"7", Gen::Gfx7},    {"ci", Gen::Gfx7},     {"gcn1.2", Gen::Gfx8},
    {"8", Gen::Gfx8},      {"vi", Gen::Gfx8},   {"gcn1.4", Gen::Gfx9}, {"9", Gen::Gfx9},
    {"gfx6", Gen::Gfx6},   {"gfx7", Gen::Gfx7}, {"gfx8", Gen::Gfx8},   {"gfx9", Gen::Gfx9},
};
constexpr Alias kRdnaAliases[] = {
    {"gfx10", Gen::Gfx10},  {"rdna1", Gen::Gfx10},     {"rdna", Gen::Gfx10},
    {"10", Gen::Gfx10},     {"gfx10.3", Gen::Gfx10_3}, {"rdna2", Gen::Gfx10_3},
    {"10.3", Gen::Gfx10_3}, {"gfx11", Gen::Gfx11},     {"rdna3", Gen::Gfx11},
    {"11", Gen::Gfx11},
};

// The chip a name gives within one family's table, or nullptr.
const Chip* lookup(const std::string& t, std::span<const Chip> chips, std::size_t generic,
                   std::span<const Alias> aliases) {
  for (const Alias& a : aliases)
    if (t == a.alias) return &representativeChip(a.gen);
  for (const Chip& c : chips)
    if (t == c.name) return &c;
  // A bare gfxip ("gfx803") names the first chip with it after the generic rows.
  for (std::size_t i = generic; i < chips.size(); ++i)
    if (t == chips[i].gfxip) return &chips[i];
  return nullptr;
}

std::string chipNames(std::span<const Chip> chips, std::size_t generic) {
  std::string known;
  for (std::size_t i = generic; i < chips.size(); ++i) {
    if (!known.empty()) known += ' ';  // appended: GCC 12 -O3 warns falsely on "" + string
    known += chips[i].name;
  }
  return known;
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
    case Gen::Gfx10:
      return "gfx10";
    case Gen::Gfx10_3:
      return "gfx10.3";
    case Gen::Gfx11:
      return "gfx11";
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
    case Gen::Gfx10:
      return "RDNA 1";
    case Gen::Gfx10_3:
      return "RDNA 2";
    case Gen::Gfx11:
      return "RDNA 3";
  }
  return "GCN ?";
}

std::span<const Chip> gcnChips() {
  return kGcnChips;
}

std::span<const Chip> rdnaChips() {
  return kRdnaChips;
}

const Chip& representativeChip(Gen gen) {
  for (const Chip& c : isGcn(gen) ? gcnChips() : rdnaChips()) {
    if (c.gen == gen) return c;  // generic rows come first
  }
  return kGcnChips[0];
}

const Chip& parseChip(std::string_view text) {
  const std::string t = normalized(text);
  if (const Chip* c = lookup(t, kGcnChips, kGcnGeneric, kGcnAliases)) return *c;
  if (const Chip* c = lookup(t, kRdnaChips, kRdnaGeneric, kRdnaAliases))
    throw Error(
        "'" + std::string(text) + "' is an RDNA " + std::string(genName(c->gen)) +
        " chip or generation: this part of gcnprobe models GCN (gfx6-gfx9) only; the "
        "RDNA model covers instructions, encodings, formats and the V# (asm, disasm, vsharp, "
        "formats --self-check)");
  throw Error("unknown GCN generation or chip '" + std::string(text) +
              "': expected gfx6|gfx7|gfx8|gfx9, GCN1.0|1.1|1.2|1.4, a gfxip such as gfx803, or "
              "a chip: " +
              chipNames(kGcnChips, kGcnGeneric));
}

const Chip& parseAnyChip(std::string_view text) {
  const std::string t = normalized(text);
  if (const Chip* c = lookup(t, kGcnChips, kGcnGeneric, kGcnAliases)) return *c;
  if (const Chip* c = lookup(t, kRdnaChips, kRdnaGeneric, kRdnaAliases)) return *c;
  throw Error("unknown generation or chip '" + std::string(text) +
              "': expected gfx6|gfx7|gfx8|gfx9|gfx10|gfx10.3|gfx11, GCN1.0|1.1|1.2|1.4, "
              "RDNA1|2|3, a gfxip such as gfx803 or gfx1030, or a chip: " +
              chipNames(kGcnChips, kGcnGeneric) + " " + chipNames(kRdnaChips, kRdnaGeneric));
}

}  // namespace gcn
