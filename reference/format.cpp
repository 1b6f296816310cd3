#include "reference/format.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "reference/error.h"
#include "reference/text.h"

namespace gcn {
namespace {

// code, name, components, bits X..W, bit offsets X..W, bytes, floatCapable
constexpr DfmtInfo kDfmts[16] = {
    {Dfmt::Invalid, "INVALID", 0, {0, 0, 0, 0}, {0, 0, 0, 0}, 0, false},
    {Dfmt::F8, "8", 1, {8, 0, 0, 0}, {0, 0, 0, 0}, 1, false},
    {Dfmt::F16, "16", 1, {16, 0, 0, 0}, {0, 0, 0, 0}, 2, true},
    {Dfmt::F8_8, "8_8", 2, {8, 8, 0, 0}, {0, 8, 0, 0}, 2, false},
    {Dfmt::F32, "32", 1, {32, 0, 0, 0}, {0, 0, 0, 0}, 4, true},
    {Dfmt::F16_16, "16_16", 2, {16, 16, 0, 0}, {0, 16, 0, 0}, 4, true},
    // Names list components from the most significant end; X is at bit 0.
    {Dfmt::F10_11_11, "10_11_11", 3, {11, 11, 10, 0}, {0, 11, 22, 0}, 4, true},
    {Dfmt::F11_11_10, "11_11_10", 3, {10, 11, 11, 0}, {0, 10, 21, 0}, 4, true},
    {Dfmt::F10_10_10_2, "10_10_10_2", 4, {2, 10, 10, 10}, {0, 2, 12, 22}, 4, false},
    {Dfmt::F2_10_10_10, "2_10_10_10", 4, {10, 10, 10, 2}, {0, 10, 20, 30}, 4, false},
    {Dfmt::F8_8_8_8, "8_8_8_8", 4, {8, 8, 8, 8}, {0, 8, 16, 24}, 4, false},
    {Dfmt::F32_32, "32_32", 2, {32, 32, 0, 0}, {0, 32, 0, 0}, 8, true},
    {Dfmt::F16_16_16_16, "16_16_16_16", 4, {16, 16, 16, 16}, {0, 16, 32, 48}, 8, true},
    {Dfmt::F32_32_32, "32_32_32", 3, {32, 32, 32, 0}, {0, 32, 64, 0}, 12, true},
    {Dfmt::F32_32_32_32, "32_32_32_32", 4, {32, 32, 32, 32}, {0, 32, 64, 96}, 16, true},
    {Dfmt::Reserved, "RESERVED", 0, {0, 0, 0, 0}, {0, 0, 0, 0}, 0, false},
};

// CLRX GcnMemHandling "BufR"/"BufW"/"Reg type" columns.
constexpr NfmtInfo kNfmts[8] = {
    {Nfmt::Unorm, "UNORM", true, true, RegType::Float},
    {Nfmt::Snorm, "SNORM", true, true, RegType::Float},
    {Nfmt::Uscaled, "USCALED", true, false, RegType::Float},
    {Nfmt::Sscaled, "SSCALED", true, false, RegType::Float},
    {Nfmt::Uint, "UINT", true, true, RegType::Uint},
    {Nfmt::Sint, "SINT", true, true, RegType::Sint},
    {Nfmt::SnormOgl, "SNORM_OGL", true, false, RegType::Float},
    {Nfmt::Float, "FLOAT", true, true, RegType::Float},
};
// NUM_FORMAT 6 on GFX8 and GFX9 (docs/gcn-facts.md).
constexpr NfmtInfo kNfmt6Gfx8 = {Nfmt::SnormOgl, "RESERVED", false, false, RegType::Float};
constexpr NfmtInfo kNfmt6Gfx9 = {Nfmt::SnormOgl, "UNORM_UINT", true, false, RegType::Float};

std::string_view stripPrefix(std::string_view s, std::string_view prefix) {
  if (s.size() > prefix.size() && s.substr(0, prefix.size()) == prefix)
    s.remove_prefix(prefix.size());
  return s;
}

}  // namespace

const DfmtInfo& dfmtInfo(Dfmt d) {
  return kDfmts[static_cast<uint8_t>(d) & 15];
}
std::span<const DfmtInfo> allDfmts() {
  return kDfmts;
}

const NfmtInfo& nfmtInfo(Nfmt n, Gen gen) {
  if (n == Nfmt::SnormOgl && gen == Gen::Gfx8) return kNfmt6Gfx8;
  if (n == Nfmt::SnormOgl && gen == Gen::Gfx9) return kNfmt6Gfx9;
  return kNfmts[static_cast<uint8_t>(n) & 7];
}

std::string_view dfmtName(Dfmt d) {
  return dfmtInfo(d).name;
}
std::string_view nfmtName(Nfmt n, Gen gen) {
  return nfmtInfo(n, gen).name;
}
// llvm-mc 14 spells the reserved codes with their number: data format 15 is
// BUF_DATA_FORMAT_RESERVED_15 and number format 6 on gfx8/gfx9 is BUF_NUM_FORMAT_RESERVED_6
// (it rejects ..._RESERVED and ..._UNORM_UINT); parseDfmt/parseNfmt read these back.
std::string llvmDfmtName(Dfmt d) {
  if (d == Dfmt::Reserved) return "BUF_DATA_FORMAT_RESERVED_15";
  return "BUF_DATA_FORMAT_" + std::string(dfmtName(d));
}
std::string llvmNfmtName(Nfmt n, Gen gen) {
  if (n == Nfmt::SnormOgl && gen >= Gen::Gfx8) return "BUF_NUM_FORMAT_RESERVED_6";
  return "BUF_NUM_FORMAT_" + std::string(nfmtName(n, gen));
}

Dfmt parseDfmt(std::string_view text) {
  const std::string u = asciiUpper(text);
  // Names first: CLRX GcnMemHandling spells formats "8", "16" and "32", which are also decimal
  // numbers; the name wins (code 8 is 10_10_10_2, not "8"). Other numbers are codes.
  const std::string_view name = stripPrefix(u, "BUF_DATA_FORMAT_");
  if (name == "RESERVED_15") return Dfmt::Reserved;
  for (const DfmtInfo& d : kDfmts) {
    if (name == d.name) return d.code;
  }
  uint64_t code = 0;
  if (parseUnsigned(u, code)) {
    if (code < 16) return static_cast<Dfmt>(code);
    throw Error("data format code " + std::string(text) + " is out of range (0-15)");
  }
  std::string known;
  for (const DfmtInfo& d : kDfmts)
    known += std::string(d.name) + " ";
  throw Error("unknown data format '" + std::string(text) + "': expected one of " + known +
              "(optionally prefixed BUF_DATA_FORMAT_) or a code 0-15 (names win: 8, 16 and 32 are "
              "names)");
}

Nfmt parseNfmt(std::string_view text, Gen gen) {
  const std::string u = asciiUpper(text);
  uint64_t code = 0;
  if (parseUnsigned(u, code)) {
    if (code < 8) return static_cast<Nfmt>(code);
    throw Error("number format code " + std::string(text) + " is out of range (0-7)");
  }
  const std::string_view name = stripPrefix(u, "BUF_NUM_FORMAT_");
  for (unsigned i = 0; i < 8; ++i) {
    const NfmtInfo& n = nfmtInfo(static_cast<Nfmt>(i), gen);
    if (name == n.name && name != "RESERVED") return n.code;
  }
  // Code 6 by any generation's name, so that text written for one generation parses on
  // another; legality is decided later by pairStatus().
  if (name == "SNORM_OGL" || name == "UNORM_UINT" || name == "RESERVED_6") return Nfmt::SnormOgl;
  std::string known;
  for (unsigned i = 0; i < 8; ++i)
    known += std::string(nfmtInfo(static_cast<Nfmt>(i), gen).name) + " ";
  throw Error("unknown number format '" + std::string(text) + "' on " + std::string(genName(gen)) +
              ": expected one of " + known + "(optionally prefixed BUF_NUM_FORMAT_) or a code 0-7");
}

uint32_t formatAccessBytes(Dfmt d) {
  return d == Dfmt::Reserved ? 16u : dfmtInfo(d).bytes;
}

PairVerdict pairStatus(Gen gen, Dfmt d, Nfmt n, Direction dir) {
  const DfmtInfo& df = dfmtInfo(d);
  const NfmtInfo& nf = nfmtInfo(n, gen);
  if (d == Dfmt::Invalid) return {PairStatus::Illegal, "data format 0 is INVALID"};
  if (d == Dfmt::Reserved) return {PairStatus::Illegal, "data format 15 is reserved"};
  if (n == Nfmt::SnormOgl && gen == Gen::Gfx8)
    return {PairStatus::Illegal, "number format 6 is reserved on gfx8"};
  if (n == Nfmt::SnormOgl && gen == Gen::Gfx9)
    return {PairStatus::Unknown, "number format 6 (UNORM_UINT) on gfx9 has no public definition"};
  if (dir == Direction::Load && !nf.load)
    return {PairStatus::Illegal, "the number format is not readable (CLRX GcnMemHandling BufR)"};
  if (dir == Direction::Store && !nf.store)
    return {PairStatus::Illegal, "the number format is not writable (CLRX GcnMemHandling BufW)"};
  if (n == Nfmt::Float && !df.floatCapable)
    return {PairStatus::Illegal,
            "FLOAT needs 32-, 16- or 11/10-bit components (CLRX GcnMemHandling: FLOAT applies to "
            "32-bit formats; 16-bit halves and packed 11/10-bit floats per docs/gcn-facts.md)"};
  if (gen == Gen::Gfx6 && (d == Dfmt::F10_11_11 || d == Dfmt::F11_11_10))
    return {
        PairStatus::Unknown,
        "CLRX GcnMemHandling: 10_11_11 and 11_11_10 \"seemingly don't work correctly\" on GCN 1.0"};
  if (df.bits[0] == 32 && n != Nfmt::Uint && n != Nfmt::Sint && n != Nfmt::Float)
    return {PairStatus::Unknown,
            "no document defines normalized or scaled 32-bit components (GFX10's unified "
            "format table has only UINT, SINT and FLOAT for 32-bit channels)"};
  return {PairStatus::Defined, ""};
}

namespace {

// The unified FORMAT codes as runs: each row gives a data format and the number formats that
// follow one another from the next code on. Sources: Mesa src/amd/common/gfx10_format_table.py
// (the buffer formats of its GFX10 and GFX11 tables) and LLVM's symbolic MTBUF formats
// (AMDGPUAsmUtils.cpp UfmtSymbolicGFX10 / UfmtSymbolicGFX11), which llvm-mc 15 prints;
// tests/reference/llvm_mc_test.cpp (UnifiedFormatNamesAreLlvmMcs) compares every code 0..127
// with llvm-mc 15's names.
struct FormatRun {
  Dfmt dfmt;
  std::array<Nfmt, 7> nfmts;
  uint8_t count;
};
using N = Nfmt;
constexpr std::array<Nfmt, 7> kScaled6{N::Unorm, N::Snorm, N::Uscaled, N::Sscaled,
                                       N::Uint,  N::Sint,  N::Unorm};
constexpr std::array<Nfmt, 7> kScaled7{N::Unorm, N::Snorm, N::Uscaled, N::Sscaled,
                                       N::Uint,  N::Sint,  N::Float};
constexpr std::array<Nfmt, 7> kInt3{N::Uint, N::Sint, N::Float};
constexpr std::array<Nfmt, 7> kFloat1{N::Float};
constexpr std::array<Nfmt, 7> kNormInt4{N::Unorm, N::Snorm, N::Uint, N::Sint};

constexpr FormatRun kGfx10Runs[] = {
    {Dfmt::F8, kScaled6, 6},          {Dfmt::F16, kScaled7, 7},
    {Dfmt::F8_8, kScaled6, 6},        {Dfmt::F32, kInt3, 3},
    {Dfmt::F16_16, kScaled7, 7},      {Dfmt::F10_11_11, kScaled7, 7},
    {Dfmt::F11_11_10, kScaled7, 7},   {Dfmt::F10_10_10_2, kScaled6, 6},
    {Dfmt::F2_10_10_10, kScaled6, 6}, {Dfmt::F8_8_8_8, kScaled6, 6},
    {Dfmt::F32_32, kInt3, 3},         {Dfmt::F16_16_16_16, kScaled7, 7},
    {Dfmt::F32_32_32, kInt3, 3},      {Dfmt::F32_32_32_32, kInt3, 3},
};
// GFX11 keeps only the FLOAT forms of 10_11_11 and 11_11_10 and drops the scaled forms of
// 10_10_10_2.
constexpr FormatRun kGfx11Runs[] = {
    {Dfmt::F8, kScaled6, 6},          {Dfmt::F16, kScaled7, 7},
    {Dfmt::F8_8, kScaled6, 6},        {Dfmt::F32, kInt3, 3},
    {Dfmt::F16_16, kScaled7, 7},      {Dfmt::F10_11_11, kFloat1, 1},
    {Dfmt::F11_11_10, kFloat1, 1},    {Dfmt::F10_10_10_2, kNormInt4, 4},
    {Dfmt::F2_10_10_10, kScaled6, 6}, {Dfmt::F8_8_8_8, kScaled6, 6},
    {Dfmt::F32_32, kInt3, 3},         {Dfmt::F16_16_16_16, kScaled7, 7},
    {Dfmt::F32_32_32, kInt3, 3},      {Dfmt::F32_32_32_32, kInt3, 3},
};

template <std::size_t R>
constexpr std::size_t countOf(const FormatRun (&runs)[R]) {
  std::size_t n = 0;
  for (const FormatRun& r : runs)
    n += r.count;
  return n;
}

template <std::size_t N, std::size_t R>
constexpr std::array<UnifiedFormat, N> expand(const FormatRun (&runs)[R]) {
  std::array<UnifiedFormat, N> out{};
  std::size_t i = 0;
  for (const FormatRun& r : runs)
    for (std::size_t k = 0; k < r.count; ++k, ++i)
      out[i] = UnifiedFormat{static_cast<uint8_t>(i + 1), r.dfmt, r.nfmts[k]};
  return out;
}

constexpr auto kGfx10Formats = expand<countOf(kGfx10Runs)>(kGfx10Runs);
constexpr auto kGfx11Formats = expand<countOf(kGfx11Runs)>(kGfx11Runs);
static_assert(kGfx10Formats.size() == 77 && kGfx11Formats.size() == 63);

}  // namespace

std::span<const UnifiedFormat> unifiedFormats(Gen gen) {
  if (isGcn(gen)) return {};
  if (gen == Gen::Gfx11) return kGfx11Formats;
  return kGfx10Formats;
}

const UnifiedFormat* findUnifiedFormat(Gen gen, uint8_t code) {
  const std::span<const UnifiedFormat> all = unifiedFormats(gen);
  if (code == 0 || code > all.size()) return nullptr;
  return &all[code - 1u];
}

const UnifiedFormat* findUnifiedFormat(Gen gen, Dfmt dfmt, Nfmt nfmt) {
  for (const UnifiedFormat& f : unifiedFormats(gen))
    if (f.dfmt == dfmt && f.nfmt == nfmt) return &f;
  return nullptr;
}

std::string llvmUnifiedFormatName(Gen gen, uint8_t code) {
  if (code == 0) return "BUF_FMT_INVALID";
  const UnifiedFormat* f = findUnifiedFormat(gen, code);
  if (f == nullptr) return std::to_string(code);
  return std::string("BUF_FMT_")
      .append(dfmtName(f->dfmt))
      .append("_")
      .append(nfmtName(f->nfmt, Gen::Gfx9));
}

uint8_t parseUnifiedFormat(Gen gen, std::string_view text) {
  std::string up = asciiUpper(text);
  const bool number = !up.empty() && std::all_of(up.begin(), up.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  if (number) {
    uint64_t value = 0;
    if (parseUnsigned(up, value) && value <= 127) return static_cast<uint8_t>(value);
    throw Error("unified format '" + std::string(text) + "' is not a number 0..127");
  }
  if (up.rfind("BUF_FMT_", 0) != 0) up = std::string("BUF_FMT_").append(up);
  for (unsigned code = 0; code <= unifiedFormats(gen).size(); ++code)
    if (llvmUnifiedFormatName(gen, static_cast<uint8_t>(code)) == up)
      return static_cast<uint8_t>(code);
  throw Error("unknown unified format '" + std::string(text) + "' on " + std::string(genName(gen)) +
              ": expected BUF_FMT_<data>_<number> (" + llvmUnifiedFormatName(gen, 1) + " .. " +
              llvmUnifiedFormatName(gen, static_cast<uint8_t>(unifiedFormats(gen).size())) +
              ") or a number 0..127");
}

}  // namespace gcn
