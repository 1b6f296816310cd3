#include "reference/resource.h"

#include <cctype>
#include <charconv>
#include <string>
#include <vector>

#include "reference/error.h"
#include "reference/format.h"
#include "reference/text.h"

namespace gcn {
namespace {

using Kind = VSharpFieldKind;
using namespace gens;  // NOLINT(google-build-using-namespace): the table's columns

// The one table of V# fields. Bit positions are absolute in the 128-bit V#, as in CLRX
// GcnMemHandling's "Buffer resource format" table (word N bit b = bit 32*N + b). Per-generation
// word 3 layout from docs/gcn-facts.md ("V# layout"), which matches Mesa's sid.h S_008F0C_* macros:
// GFX6/7/8 have ELEMENT_SIZE, ATC, HASH_ENABLE, HEAP, MTYPE; GFX9 instead has USER_VM_ENABLE
// [19], USER_VM_MODE [20] and NV [27]. CLRX GcnMemHandling leaves ATC (bit 120) and MTYPE out of
// its table; docs/gcn-facts.md gives them. GFX10+ from Mesa's register definitions (sid.h
// S_008F04_* / S_008F0C_*, used by ac_descriptors.c and RADV's descriptor writers), checked
// against RADV's own descriptors on its null device (docs/rdna.md): word 3 holds FORMAT at
// [18:12], RESOURCE_LEVEL [24] (GFX10/10.3), LLC_NOALLOC [27:26] (GFX10.3), OOB_SELECT [29:28];
// GFX11 widens SWIZZLE_ENABLE to word 1 [31:30] and drops CACHE_SWIZZLE. GFX11's FORMAT stays
// 7 bits wide: its buffer formats end at 63, but RADV 25 writes codes 64-66 there.
// A name may have one row per generation range; the text form picks the generation's row.
constexpr VSharpField kVSharpFields[] = {
    {"base", "BASE", 0, 48, kAll, Kind::Address},
    {"stride", "STRIDE", 48, 14, kAll, Kind::Number},
    {"cache_swizzle", "CACHE_SWIZZLE", 62, 1, kGcnGfx10, Kind::Flag},
    {"swizzle_enable", "SWIZZLE_ENABLE", 63, 1, kGcnGfx10, Kind::Flag},
    {"num_records", "NUM_RECORDS", 64, 32, kAll, Kind::Number},
    {"dst_sel_x", "DST_SEL_X", 96, 3, kAll, Kind::DstSel},
    {"dst_sel_y", "DST_SEL_Y", 99, 3, kAll, Kind::DstSel},
    {"dst_sel_z", "DST_SEL_Z", 102, 3, kAll, Kind::DstSel},
    {"dst_sel_w", "DST_SEL_W", 105, 3, kAll, Kind::DstSel},
    {"nfmt", "NUM_FORMAT", 108, 3, kGcn, Kind::Nfmt},
    {"dfmt", "DATA_FORMAT", 111, 4, kGcn, Kind::Dfmt},
    {"element_size", "ELEMENT_SIZE", 115, 2, kGfx6to8, Kind::Number},
    {"user_vm_enable", "USER_VM_ENABLE", 115, 1, kGfx9, Kind::Flag},
    {"user_vm_mode", "USER_VM_MODE", 116, 1, kGfx9, Kind::Flag},
    {"index_stride", "INDEX_STRIDE", 117, 2, kAll, Kind::Number},
    {"add_tid_enable", "ADD_TID_ENABLE", 119, 1, kAll, Kind::Flag},
    {"atc", "ATC", 120, 1, kGfx6to8, Kind::Flag},
    {"hash_enable", "HASH_ENABLE", 121, 1, kGfx6to8, Kind::Flag},
    {"heap", "HEAP", 122, 1, kGfx6to8, Kind::Flag},
    {"mtype", "MTYPE", 123, 3, kGfx6to8, Kind::Number},
    {"nv", "NV", 123, 1, kGfx9, Kind::Flag},
    {"type", "TYPE", 126, 2, kAll, Kind::Number},
    {"format", "FORMAT", 108, 7, kRdna, Kind::Format},
    {"resource_level", "RESOURCE_LEVEL", 120, 1, kGfx10, Kind::Flag},
    {"llc_noalloc", "LLC_NOALLOC", 122, 2, kGfx10_3, Kind::Number},
    {"oob_select", "OOB_SELECT", 124, 2, kRdna, Kind::Number},
    {"swizzle_enable", "SWIZZLE_ENABLE", 62, 2, kGfx11, Kind::Number},
};

// Field <-> struct member, by the field's position in kVSharpFields (a switch, not name
// comparisons: decode and encode run once per V# of every case and property test).
enum FieldIndex : std::size_t {
  kBase,
  kStride,
  kCacheSwizzle,
  kSwizzleEnable,
  kNumRecords,
  kDstSelX,
  kDstSelY,
  kDstSelZ,
  kDstSelW,
  kNfmt,
  kDfmt,
  kElementSize,
  kUserVmEnable,
  kUserVmMode,
  kIndexStride,
  kAddTidEnable,
  kAtc,
  kHashEnable,
  kHeap,
  kMtype,
  kNv,
  kType,
  kFormat,
  kResourceLevel,
  kLlcNoalloc,
  kOobSelect,
  kSwizzleEnableGfx11,
  kFieldCount
};
static_assert(std::size(kVSharpFields) == kFieldCount);
static_assert(kVSharpFields[kBase].name == "base" && kVSharpFields[kStride].name == "stride" &&
              kVSharpFields[kCacheSwizzle].name == "cache_swizzle" &&
              kVSharpFields[kSwizzleEnable].name == "swizzle_enable" &&
              kVSharpFields[kNumRecords].name == "num_records" &&
              kVSharpFields[kDstSelX].name == "dst_sel_x" &&
              kVSharpFields[kDstSelW].name == "dst_sel_w" && kVSharpFields[kNfmt].name == "nfmt" &&
              kVSharpFields[kDfmt].name == "dfmt" &&
              kVSharpFields[kElementSize].name == "element_size" &&
              kVSharpFields[kUserVmEnable].name == "user_vm_enable" &&
              kVSharpFields[kUserVmMode].name == "user_vm_mode" &&
              kVSharpFields[kIndexStride].name == "index_stride" &&
              kVSharpFields[kAddTidEnable].name == "add_tid_enable" &&
              kVSharpFields[kAtc].name == "atc" &&
              kVSharpFields[kHashEnable].name == "hash_enable" &&
              kVSharpFields[kHeap].name == "heap" && kVSharpFields[kMtype].name == "mtype" &&
              kVSharpFields[kNv].name == "nv" && kVSharpFields[kType].name == "type" &&
              kVSharpFields[kFormat].name == "format" &&
              kVSharpFields[kResourceLevel].name == "resource_level" &&
              kVSharpFields[kLlcNoalloc].name == "llc_noalloc" &&
              kVSharpFields[kOobSelect].name == "oob_select" &&
              kVSharpFields[kSwizzleEnableGfx11].name == "swizzle_enable");

std::size_t indexOf(const VSharpField& f) {
  return static_cast<std::size_t>(&f - kVSharpFields);
}

uint64_t get(const VSharp& v, const VSharpField& f) {
  switch (indexOf(f)) {
    case kBase:
      return v.base;
    case kStride:
      return v.stride;
    case kCacheSwizzle:
      return v.cacheSwizzle;
    case kSwizzleEnable:
      return v.swizzleEnable;
    case kNumRecords:
      return v.numRecords;
    case kDstSelX:
    case kDstSelY:
    case kDstSelZ:
    case kDstSelW:
      return static_cast<uint64_t>(v.dstSel[indexOf(f) - kDstSelX]);
    case kNfmt:
      return static_cast<uint64_t>(v.numFormat);
    case kDfmt:
      return static_cast<uint64_t>(v.dataFormat);
    case kElementSize:
      return v.elementSize;
    case kUserVmEnable:
      return v.userVmEnable;
    case kUserVmMode:
      return v.userVmMode;
    case kIndexStride:
      return v.indexStride;
    case kAddTidEnable:
      return v.addTidEnable;
    case kAtc:
      return v.atc;
    case kHashEnable:
      return v.hashEnable;
    case kHeap:
      return v.heap;
    case kMtype:
      return v.mtype;
    case kNv:
      return v.nv;
    case kFormat:
      return v.format;
    case kResourceLevel:
      return v.resourceLevel;
    case kLlcNoalloc:
      return v.llcNoalloc;
    case kOobSelect:
      return v.oobSelect;
    case kSwizzleEnableGfx11:
      return v.swizzleEnableGfx11;
    default:
      return v.type;
  }
}

// `x` has already been checked to fit the field's width.
void set(VSharp& v, const VSharpField& f, uint64_t x) {
  const auto u8 = static_cast<uint8_t>(x);
  switch (indexOf(f)) {
    case kBase:
      v.base = x;
      break;
    case kStride:
      v.stride = static_cast<uint32_t>(x);
      break;
    case kCacheSwizzle:
      v.cacheSwizzle = x != 0;
      break;
    case kSwizzleEnable:
      v.swizzleEnable = x != 0;
      break;
    case kNumRecords:
      v.numRecords = static_cast<uint32_t>(x);
      break;
    case kDstSelX:
    case kDstSelY:
    case kDstSelZ:
    case kDstSelW:
      v.dstSel[indexOf(f) - kDstSelX] = static_cast<DstSel>(u8);
      break;
    case kNfmt:
      v.numFormat = static_cast<Nfmt>(u8);
      break;
    case kDfmt:
      v.dataFormat = static_cast<Dfmt>(u8);
      break;
    case kElementSize:
      v.elementSize = u8;
      break;
    case kUserVmEnable:
      v.userVmEnable = x != 0;
      break;
    case kUserVmMode:
      v.userVmMode = x != 0;
      break;
    case kIndexStride:
      v.indexStride = u8;
      break;
    case kAddTidEnable:
      v.addTidEnable = x != 0;
      break;
    case kAtc:
      v.atc = x != 0;
      break;
    case kHashEnable:
      v.hashEnable = x != 0;
      break;
    case kHeap:
      v.heap = x != 0;
      break;
    case kMtype:
      v.mtype = u8;
      break;
    case kNv:
      v.nv = x != 0;
      break;
    case kFormat:
      v.format = u8;
      break;
    case kResourceLevel:
      v.resourceLevel = x != 0;
      break;
    case kLlcNoalloc:
      v.llcNoalloc = u8;
      break;
    case kOobSelect:
      v.oobSelect = u8;
      break;
    case kSwizzleEnableGfx11:
      v.swizzleEnableGfx11 = u8;
      break;
    default:
      v.type = u8;
      break;
  }
}

uint64_t widthMask(unsigned width) {
  return width >= 64 ? ~0ull : (1ull << width) - 1;
}

// The V# as one 128-bit number (bit b of word i is bit 32 * i + b), so a field is one shift
// and mask. __extension__ keeps -Wpedantic quiet about the GCC/Clang 128-bit type.
__extension__ typedef unsigned __int128 U128;

U128 join(const std::array<uint32_t, 4>& w) {
  return static_cast<U128>(w[0]) | static_cast<U128>(w[1]) << 32 | static_cast<U128>(w[2]) << 64 |
         static_cast<U128>(w[3]) << 96;
}

uint64_t extractBits(const std::array<uint32_t, 4>& w, unsigned bit, unsigned width) {
  return static_cast<uint64_t>(join(w) >> bit) & widthMask(width);
}

void insertBits(std::array<uint32_t, 4>& w, unsigned bit, unsigned width, uint64_t value) {
  const U128 x = join(w) | static_cast<U128>(value & widthMask(width)) << bit;
  for (unsigned i = 0; i < 4; ++i)
    w[i] = static_cast<uint32_t>(x >> (32 * i));
}

// The row of `name` that exists on the generation, else its first row (whose absence there the
// caller reports).
const VSharpField* findField(Gen gen, std::string_view name) {
  const VSharpField* first = nullptr;
  for (const VSharpField& f : kVSharpFields) {
    if (f.name != name) continue;
    if (f.onGen[genIndex(gen)]) return &f;
    if (first == nullptr) first = &f;
  }
  return first;
}

// The field names of the generation's family (GCN or RDNA), each once.
std::string fieldList(Gen gen) {
  auto inFamily = [gen](const VSharpField& f) {
    for (Gen g : kAllGens)
      if (isGcn(g) == isGcn(gen) && f.onGen[genIndex(g)]) return true;
    return false;
  };
  std::string out = "dst_sel";
  for (const VSharpField& f : kVSharpFields)
    if (inFamily(f) && (out + ",").find(", " + std::string(f.name) + ",") == std::string::npos)
      out += ", " + std::string(f.name);
  return out + ", reserved_w0..reserved_w3";
}

struct VSharpToken {
  std::string_view text;
  int column;  // 1-based
};

std::vector<VSharpToken> tokenize(std::string_view text) {
  std::vector<VSharpToken> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    if (i > start) out.push_back({text.substr(start, i - start), static_cast<int>(start) + 1});
  }
  return out;
}

[[noreturn]] void fail(int column, const std::string& reason) {
  throw Error(Place{"", 0, column}, reason);
}

// One field value from its text; errors carry the column of the value.
uint64_t parseFieldValue(Gen gen, const VSharpField& f, std::string_view value, int column) {
  try {
    switch (f.kind) {
      case Kind::DstSel:
        return static_cast<uint64_t>(parseDstSel(value));
      case Kind::Nfmt:
        return static_cast<uint64_t>(parseNfmt(value, gen));
      case Kind::Dfmt:
        // Names first: parseDfmt reads "8", "16" and "32" as codes (8 = 10_10_10_2), but the
        // text form writes CLRX's names, so "dfmt=32" must mean the 32-bit format.
        for (const DfmtInfo& d : allDfmts())
          if (asciiLower(d.name) == asciiLower(value)) return static_cast<uint64_t>(d.code);
        return static_cast<uint64_t>(parseDfmt(value));
      case Kind::Format:
        return parseUnifiedFormat(gen, value);
      case Kind::Flag: {
        const std::string l = asciiLower(value);
        if (l == "1" || l == "true") return 1;
        if (l == "0" || l == "false") return 0;
        fail(column, std::string(f.name) + ": '" + std::string(value) +
                         "' is not a flag value (expected 0, 1, true or false)");
      }
      case Kind::Number:
      case Kind::Address:
        break;
    }
  } catch (const Error& e) {
    if (e.place().column != 0) throw;
    fail(column, std::string(f.name) + ": " + e.reason());
  }
  uint64_t x = 0;
  if (!parseUnsigned(value, x))
    fail(column, std::string(f.name) + ": '" + std::string(value) +
                     "' is not a number (decimal or 0x-hex)");
  if (x > widthMask(f.width))
    fail(column, std::string(f.name) + ": " + std::string(value) + " does not fit in " +
                     std::to_string(f.width) + " bits");
  return x;
}

std::string formatFieldValue(Gen gen, const VSharpField& f, uint64_t x) {
  switch (f.kind) {
    case Kind::Address:
      return hexNumber(x);
    case Kind::DstSel:
      return std::string(dstSelName(static_cast<DstSel>(x)));
    case Kind::Nfmt: {
      // GFX8's code 6 is named RESERVED, which parseNfmt does not take back: print the code.
      const std::string_view name = nfmtName(static_cast<Nfmt>(x), gen);
      return name == "RESERVED" ? std::to_string(x) : std::string(name);
    }
    case Kind::Dfmt:
      return std::string(dfmtName(static_cast<Dfmt>(x)));
    case Kind::Format: {
      // LLVM's BUF_FMT_ name without the prefix, which parseUnifiedFormat takes back.
      const std::string name = llvmUnifiedFormatName(gen, static_cast<uint8_t>(x));
      return name.rfind("BUF_FMT_", 0) == 0 ? name.substr(8) : name;
    }
    case Kind::Flag:
    case Kind::Number:
      break;
  }
  return std::to_string(x);
}

}  // namespace

std::span<const VSharpField> vsharpFields() {
  return kVSharpFields;
}

bool vsharpFieldExists(Gen gen, const VSharpField& f) {
  return f.onGen[genIndex(gen)];
}

uint64_t vsharpFieldValue(const VSharp& v, const VSharpField& f) {
  return get(v, f);
}

std::array<uint32_t, 4> vsharpReservedMask(Gen gen) {
  // Computed once per generation from the table (decode and encode ask on every call).
  static const auto masks = [] {
    std::array<std::array<uint32_t, 4>, kGenCount> out{};
    for (std::size_t g = 0; g < kGenCount; ++g) {
      std::array<uint32_t, 4> named{};
      for (const VSharpField& f : kVSharpFields)
        if (f.onGen[g]) insertBits(named, f.bit, f.width, widthMask(f.width));
      for (std::size_t i = 0; i < 4; ++i)
        out[g][i] = ~named[i];
    }
    return out;
  }();
  return masks[genIndex(gen)];
}

VSharp decodeVSharp(Gen gen, const std::array<uint32_t, 4>& words) {
  VSharp v;
  for (const VSharpField& f : kVSharpFields) {
    if (vsharpFieldExists(gen, f)) set(v, f, extractBits(words, f.bit, f.width));
  }
  const std::array<uint32_t, 4> mask = vsharpReservedMask(gen);
  for (std::size_t i = 0; i < 4; ++i)
    v.reserved[i] = words[i] & mask[i];
  return v;
}

VSharp decodeVSharpSharedFields(const std::array<uint32_t, 4>& words) {
  VSharp v;
  for (const VSharpField& f : kVSharpFields) {
    if (f.onGen[0] && f.onGen[1] && f.onGen[2] && f.onGen[3])
      set(v, f, extractBits(words, f.bit, f.width));
  }
  return v;
}

std::array<uint32_t, 4> encodeVSharp(Gen gen, const VSharp& v) {
  std::array<uint32_t, 4> w{};
  for (const VSharpField& f : kVSharpFields) {
    const uint64_t x = get(v, f);
    if (!vsharpFieldExists(gen, f)) {
      if (x != 0)
        throw Error("V# field " + std::string(f.reg) + " (" + std::string(f.name) +
                    ") does not exist on " + std::string(genName(gen)) + " but is set to " +
                    std::to_string(x));
      continue;
    }
    if (x > widthMask(f.width))
      throw Error("V# field " + std::string(f.reg) + " (" + std::string(f.name) + ") value " +
                  std::to_string(x) + " does not fit in its " + std::to_string(f.width) +
                  " bits on " + std::string(genName(gen)));
    insertBits(w, f.bit, f.width, x);
  }
  const std::array<uint32_t, 4> mask = vsharpReservedMask(gen);
  for (std::size_t i = 0; i < 4; ++i) {
    if ((v.reserved[i] & ~mask[i]) != 0)
      throw Error("V# reserved_w" + std::to_string(i) + " sets " +
                  hexNumber(v.reserved[i] & ~mask[i]) + ", bits that fields name on " +
                  std::string(genName(gen)) + " (reserved bits there: " + hexNumber(mask[i]) + ")");
    w[i] |= v.reserved[i];
  }
  return w;
}

std::string formatVSharp(Gen gen, const VSharp& v) {
  const VSharp def;
  std::string out;
  auto add = [&out](std::string_view name, const std::string& value) {
    if (!out.empty()) out += ' ';
    out += std::string(name) + "=" + value;
  };
  for (const VSharpField& f : kVSharpFields) {
    const uint64_t x = get(v, f);
    if (f.kind == Kind::DstSel) {
      if (f.name != "dst_sel_x") continue;
      // Four selectors in one word (xyzw, zyx1), or comma-separated where that word would
      // read as a number (0,x,1,1 not 0x11; 0,0,0,0 not 0000). parseVSharp takes both.
      std::string sel, separated;
      for (DstSel s : v.dstSel) {
        sel += dstSelName(s);
        separated += (separated.empty() ? "" : ",") + std::string(dstSelName(s));
      }
      uint64_t number = 0;
      add("dst_sel", parseUnsigned(sel, number) ? separated : sel);
      continue;
    }
    const bool always = (f.kind == Kind::Nfmt || f.kind == Kind::Dfmt || f.kind == Kind::Format) &&
                        vsharpFieldExists(gen, f);
    // A name with one row per generation range is printed once, from the generation's row.
    if (findField(gen, f.name) != &f) continue;
    if (!always && x == get(def, f)) continue;
    // A field the generation lacks is still printed when set, so that parse reports it.
    add(f.name, formatFieldValue(gen, f, x));
  }
  for (std::size_t i = 0; i < 4; ++i)
    if (v.reserved[i] != 0) add("reserved_w" + std::to_string(i), hexNumber(v.reserved[i]));
  return out;
}

namespace {

// Four raw dwords, as `gcnprobe vsharp --decode` takes them.
VSharp vsharpOfDwords(Gen gen, const std::vector<VSharpToken>& tokens) {
  if (tokens.size() != 4)
    fail(tokens[0].column, "expected four dwords (0x........ x4) or name=value fields, got " +
                               std::to_string(tokens.size()) + " words");
  std::array<uint32_t, 4> words{};
  for (std::size_t i = 0; i < 4; ++i) {
    uint64_t x = 0;
    if (!parseUnsigned(tokens[i].text, x) || x > 0xffffffffull)
      fail(tokens[i].column, "dword " + std::to_string(i) + ": '" + std::string(tokens[i].text) +
                                 "' is not a 32-bit number");
    words[i] = static_cast<uint32_t>(x);
  }
  return decodeVSharp(gen, words);
}

// The fields given so far: each once.
class SeenFields {
 public:
  void mark(const std::string& name, int column) {
    for (const std::string& s : seen_)
      if (s == name) fail(column, "field '" + name + "' is given twice");
    seen_.push_back(name);
  }

 private:
  std::vector<std::string> seen_;
};

// dst_sel: four one-character selectors (zyx1), or four comma-separated ones (0,x,1,1).
void setDstSel(Gen gen, std::string_view value, int valueColumn, int column, SeenFields& seen,
               VSharp& v) {
  std::vector<std::pair<std::string_view, int>> sels;  // selector, its column
  if (value.find(',') != std::string_view::npos) {
    for (std::size_t at = 0;;) {
      const std::size_t comma = value.find(',', at);
      sels.push_back({value.substr(at, comma == std::string_view::npos ? comma : comma - at),
                      valueColumn + static_cast<int>(at)});
      if (comma == std::string_view::npos) break;
      at = comma + 1;
    }
  } else if (value.size() == 4) {
    for (std::size_t i = 0; i < 4; ++i)
      sels.push_back({value.substr(i, 1), valueColumn + static_cast<int>(i)});
  }
  if (sels.size() != 4)
    fail(valueColumn, "dst_sel: '" + std::string(value) +
                          "' must be four selectors from 0, 1, x, y, z, w (e.g. zyx1 or "
                          "0,x,1,1)");
  for (std::size_t i = 0; i < 4; ++i) {
    const std::string one = "dst_sel_" + std::string(1, "xyzw"[i]);
    seen.mark(one, column);
    if (sels[i].first.empty())
      fail(sels[i].second, "dst_sel: selector " + std::to_string(i + 1) + " is empty");
    set(v, *findField(gen, one),
        parseFieldValue(gen, *findField(gen, one), sels[i].first, sels[i].second));
  }
}

// reserved_wN: bits of word N that no field of the generation names.
void setReserved(Gen gen, const std::string& name, std::string_view value, int valueColumn,
                 VSharp& v) {
  const std::size_t word = static_cast<std::size_t>(name[10] - '0');
  uint64_t x = 0;
  if (!parseUnsigned(value, x) || x > 0xffffffffull)
    fail(valueColumn, name + ": '" + std::string(value) + "' is not a 32-bit number");
  const uint32_t mask = vsharpReservedMask(gen)[word];
  if ((x & ~uint64_t{mask}) != 0)
    fail(valueColumn, name + ": " + hexNumber(x & ~uint64_t{mask}) + " are field bits on " +
                          std::string(genName(gen)) + " (give them by field name; reserved " +
                          "bits of word " + std::to_string(word) + ": " + hexNumber(mask) + ")");
  v.reserved[word] = static_cast<uint32_t>(x);
}

}  // namespace

VSharp parseVSharp(Gen gen, std::string_view text) {
  const std::vector<VSharpToken> tokens = tokenize(text);
  bool anyAssignment = false;
  for (const VSharpToken& t : tokens)
    anyAssignment = anyAssignment || t.text.find('=') != std::string_view::npos;
  if (!tokens.empty() && !anyAssignment) return vsharpOfDwords(gen, tokens);

  VSharp v;
  SeenFields seen;
  for (const VSharpToken& t : tokens) {
    const auto eq = t.text.find('=');
    if (eq == std::string_view::npos || eq == 0)
      fail(t.column, std::string("'").append(t.text).append("' is not of the form name=value"));
    const std::string name = asciiLower(t.text.substr(0, eq));
    const std::string_view value = t.text.substr(eq + 1);
    const int valueColumn = t.column + static_cast<int>(eq) + 1;
    if (value.empty()) fail(valueColumn, "field '" + name + "' has no value");
    if (name == "dst_sel") {
      setDstSel(gen, value, valueColumn, t.column, seen, v);
      continue;
    }
    if (name.size() == 11 && name.rfind("reserved_w", 0) == 0 && name[10] >= '0' &&
        name[10] <= '3') {
      seen.mark(name, t.column);
      setReserved(gen, name, value, valueColumn, v);
      continue;
    }
    const VSharpField* f = findField(gen, name);
    if (f == nullptr)
      fail(t.column, "unknown V# field '" + name + "': expected one of " + fieldList(gen));
    if (!vsharpFieldExists(gen, *f))
      fail(t.column, "V# field '" + name + "' (" + std::string(f->reg) + ") does not exist on " +
                         std::string(genName(gen)));
    seen.mark(name, t.column);
    set(v, *f, parseFieldValue(gen, *f, value, valueColumn));
  }
  return v;
}

uint32_t swizzleElementBytes(Gen gen, const VSharp& v) {
  // docs/gcn-facts.md: GFX9 has no ELEMENT_SIZE field; swizzled elements are 4 bytes.
  if (gen == Gen::Gfx9) return 4;
  return 2u << v.elementSize;  // CLRX GcnMemHandling: ELEMSIZE = 2 << ELEMSIZE field
}

bool dataFormatIsStrideBits(Gen gen, const VSharp& v, bool mtbuf) {
  return (gen == Gen::Gfx8 || gen == Gen::Gfx9) && v.addTidEnable && !mtbuf;
}

VSharp accessVSharp(Gen gen, VSharp v, bool mtbuf) {
  if (dataFormatIsStrideBits(gen, v, mtbuf)) v.stride |= static_cast<uint32_t>(v.dataFormat) << 14;
  if (isRdna(gen)) {
    // The unified FORMAT names a (data format, number format) pair (reference/format.h); a
    // code with no buffer format reads as DATA_FORMAT INVALID.
    const UnifiedFormat* f = findUnifiedFormat(gen, v.format);
    v.dataFormat = f != nullptr ? f->dfmt : Dfmt::Invalid;
    v.numFormat = f != nullptr ? f->nfmt : Nfmt::Unorm;
  }
  return v;
}

bool untypedAccessDropped(Gen gen, const VSharp& v) {
  return (gen == Gen::Gfx6 || gen == Gen::Gfx7) && v.dataFormat == Dfmt::Invalid;
}

uint32_t swizzleIndexStride(const VSharp& v) {
  return 8u << v.indexStride;  // CLRX GcnMemHandling: INDEXSTRIDE = 8 << INDEXSTRIDE field
}

std::string_view dstSelName(DstSel s) {
  switch (s) {
    case DstSel::Zero:
      return "0";
    case DstSel::One:
      return "1";
    case DstSel::Reserved2:
      return "2";
    case DstSel::Reserved3:
      return "3";
    case DstSel::X:
      return "x";
    case DstSel::Y:
      return "y";
    case DstSel::Z:
      return "z";
    case DstSel::W:
      return "w";
  }
  return "?";
}

DstSel parseDstSel(std::string_view text) {
  std::string l = asciiLower(text);
  if (l.rfind("sel_", 0) == 0) l = l.substr(4);
  // CLRX GcnMemHandling DST_SEL table: codes 0, 1, 4..7 named 0, 1, R, G, B, A; 2 and 3 are
  // reserved but encodable, so they are accepted as codes to let every V# be written as text.
  if (l == "x" || l == "r") return DstSel::X;
  if (l == "y" || l == "g") return DstSel::Y;
  if (l == "z" || l == "b") return DstSel::Z;
  if (l == "w" || l == "a") return DstSel::W;
  uint64_t code = 0;
  if (parseUnsigned(l, code) && code <= 7) return static_cast<DstSel>(code);
  throw Error("unknown DST_SEL '" + std::string(text) +
              "': expected 0, 1, x, y, z, w (or r, g, b, a, SEL_X, a code 0-7)");
}

}  // namespace gcn
