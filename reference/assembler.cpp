#include "reference/assembler.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <string>

#include "reference/error.h"
#include "reference/format.h"
#include "reference/text.h"

namespace gcn {
namespace {

[[noreturn]] void failAt(int column, const std::string& why) {
  throw Error(Place{.file = "", .line = 0, .column = column}, why);
}

// Float inline constants of the 8-bit operand encoding (240..247), as llvm-mc prints them;
// 248 (1/(2*pi)) exists from gfx8.
constexpr std::string_view kFloatConstants[] = {"0.5", "-0.5", "1.0", "-1.0",
                                                "2.0", "-2.0", "4.0", "-4.0"};
constexpr std::string_view kInvTwoPi = "0.15915494";

struct Token {
  std::string_view text;
  int column = 0;  // 1-based
};

// A cursor over the instruction text that knows the column of every token.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool atEnd() {
    skipSpace();
    return pos_ >= text_.size();
  }
  int column() const { return static_cast<int>(pos_) + 1; }

  // A word: letters, digits and _ . - + (register names, numbers, modifiers, format names).
  Token word() {
    skipSpace();
    const size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
          c == '+')
        ++pos_;
      else
        break;
    }
    return {text_.substr(start, pos_ - start), static_cast<int>(start) + 1};
  }

  bool accept(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c, std::string_view what) {
    skipSpace();
    if (!accept(c)) {
      std::string got = "the end";
      if (pos_ < text_.size()) got = std::string("'").append(1, text_[pos_]).append("'");
      failAt(column(),
             "expected '" + std::string(1, c) + "' " + std::string(what) + ", found " + got);
    }
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

std::optional<long long> parseInteger(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty() || s.size() > 12) return std::nullopt;
  long long value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return negative ? -value : value;
}

bool allDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

struct RegRange {
  unsigned first = 0;
  unsigned count = 0;
  int column = 0;
};

// "v5", "v[5]", "v[5:7]" (kind 'v') or "s[4:7]", "s4" (kind 's').
RegRange parseRegisters(Cursor& cur, char kind, std::string_view role) {
  cur.skipSpace();
  const int column = cur.column();
  Token t = cur.word();
  const std::string name = asciiLower(t.text);
  if (name.empty() || name[0] != kind) {
    failAt(column, std::string(role) + ": expected a" + (kind == 'v' ? " VGPR" : "n SGPR") + " (" +
                       kind + "N or " + kind + "[a:b]), found '" + std::string(t.text) + "'");
  }
  const unsigned limit = kind == 'v' ? 256 : 104;
  RegRange r;
  r.column = column;
  if (name.size() > 1) {
    // llvm-mc takes only decimal digits after v/s (v01 yes, v0x10 no); hex is fine inside [].
    auto n = allDigits(std::string_view(name).substr(1))
                 ? parseInteger(std::string_view(name).substr(1))
                 : std::nullopt;
    if (!n || *n < 0)
      failAt(column, std::string(role) + ": bad register '" + std::string(t.text) + "'");
    if (*n >= limit)
      failAt(column, std::string(role) + ": register '" + std::string(t.text) +
                         "' is out of range (" + std::to_string(limit) + " registers)");
    r.first = static_cast<unsigned>(*n);
    r.count = 1;
    return r;
  }
  cur.expect('[', "after the register kind");
  Token a = cur.word();
  auto first = parseInteger(a.text);
  if (!first || *first < 0 || *first >= limit)
    failAt(a.column, std::string(role) + ": bad register number '" + std::string(a.text) + "'");
  long long last = *first;
  if (cur.accept(':')) {
    Token b = cur.word();
    auto l = parseInteger(b.text);
    if (!l || *l < 0 || *l >= limit)
      failAt(b.column, std::string(role) + ": bad register number '" + std::string(b.text) + "'");
    if (*l < *first) failAt(b.column, std::string(role) + ": register range ends before it starts");
    last = *l;
  }
  cur.expect(']', "to close the register range");
  r.first = static_cast<unsigned>(*first);
  r.count = static_cast<unsigned>(last - *first + 1);
  return r;
}

uint8_t parseSoffset(Gen gen, Token t) {
  const std::string name = asciiLower(t.text);
  auto legal = [&](unsigned code) {
    if (!soffsetLegal(gen, static_cast<uint8_t>(code)))
      failAt(t.column, "SOFFSET '" + std::string(t.text) + "' is not available on " +
                           std::string(genName(gen)));
    return static_cast<uint8_t>(code);
  };
  if (name == "m0") return static_cast<uint8_t>(m0SgprCode(gen));
  if (name == "null") {
    if (isGcn(gen)) failAt(t.column, "SOFFSET 'null' exists from gfx10 on");
    return static_cast<uint8_t>(nullSgprCode(gen));
  }
  if (name == "vcc_lo") return 106;
  if (name == "vcc_hi") return 107;
  if (name == "exec_lo") return 126;
  if (name == "exec_hi") return 127;
  if (name.size() > 1 && name[0] == 's' && std::isdigit(static_cast<unsigned char>(name[1]))) {
    auto n = allDigits(std::string_view(name).substr(1))
                 ? parseInteger(std::string_view(name).substr(1))
                 : std::nullopt;
    if (!n || *n > 255) failAt(t.column, "SOFFSET: bad SGPR '" + std::string(t.text) + "'");
    return legal(static_cast<unsigned>(*n));
  }
  for (unsigned i = 0; i < 8; ++i) {
    if (name == kFloatConstants[i]) return static_cast<uint8_t>(240 + i);
  }
  if (name == kInvTwoPi) return legal(248);
  if (auto v = parseInteger(name)) {
    if (const auto code = integerInlineCode(*v)) return *code;
    failAt(t.column, "SOFFSET " + std::string(t.text) +
                         " is not an inline constant (0..64, -1..-16); literals are not encodable");
  }
  failAt(t.column,
         "SOFFSET: expected sN, m0, null, vcc_lo/hi, exec_lo/hi or an inline constant, "
         "found '" +
             std::string(t.text) + "'");
}

struct FormatItem {
  bool isNfmt;
  bool positional;
  uint8_t value;
};

FormatItem parseFormatItem(Gen gen, Token t, bool secondPosition) {
  const std::string up = asciiUpper(t.text);
  constexpr std::string_view kData = "BUF_DATA_FORMAT_";
  constexpr std::string_view kNum = "BUF_NUM_FORMAT_";
  try {
    if (up.rfind(kData, 0) == 0) {
      if (up == "BUF_DATA_FORMAT_RESERVED_15") return {false, false, 15};
      return {false, false, static_cast<uint8_t>(parseDfmt(t.text))};
    }
    if (up.rfind(kNum, 0) == 0) {
      if (up == "BUF_NUM_FORMAT_RESERVED_6" && gen >= Gen::Gfx8) return {true, false, 6};
      return {true, false, static_cast<uint8_t>(parseNfmt(t.text, gen))};
    }
    if (secondPosition) return {true, true, static_cast<uint8_t>(parseNfmt(t.text, gen))};
    if (up == "RESERVED_15") return {false, true, 15};
    return {false, true, static_cast<uint8_t>(parseDfmt(t.text))};
  } catch (const Error& e) {
    failAt(t.column, "format: " + e.reason());
  }
}

struct Seen {
  int offen = 0, idxen = 0, addr64 = 0, glc = 0, slc = 0, dlc = 0, tfe = 0, lds = 0, offset = 0,
      format = 0;
};

void parseFormat(Gen gen, Cursor& cur, Instruction& inst) {
  if (isRdna(gen)) {
    // GFX10+: format:[BUF_FMT_...] or format:N, one unified code.
    const bool bracket = cur.accept('[');
    const Token t = cur.word();
    if (t.text.empty()) failAt(cur.column(), "format: expected BUF_FMT_<data>_<number> or 0..127");
    try {
      inst.format = parseUnifiedFormat(gen, t.text);
    } catch (const Error& e) {
      failAt(t.column, "format: " + e.reason());
    }
    if (bracket) cur.expect(']', "to close format:[...] (one unified format from gfx10 on)");
    return;
  }
  if (!cur.accept('[')) {
    // LLVM 14's unified numeric form: format:N with N = dfmt | nfmt << 4.
    Token t = cur.word();
    auto n = parseInteger(t.text);
    if (!n || *n < 0 || *n > 127)
      failAt(t.column, "format: expected [DFMT,NFMT] or a number 0..127, found '" +
                           std::string(t.text) + "'");
    inst.dfmt = static_cast<Dfmt>(*n & 15);
    inst.nfmt = static_cast<Nfmt>(*n >> 4);
    return;
  }
  bool haveDfmt = false, haveNfmt = false;
  for (int index = 0;; ++index) {
    Token t = cur.word();
    if (t.text.empty()) failAt(cur.column(), "format: expected a data or number format name");
    if (index >= 2) failAt(t.column, "format: at most two entries, [DFMT,NFMT]");
    FormatItem item = parseFormatItem(gen, t, index == 1 && haveDfmt);
    bool& have = item.isNfmt ? haveNfmt : haveDfmt;
    if (have)
      failAt(t.column,
             std::string("format: ") + (item.isNfmt ? "number" : "data") + " format given twice");
    have = true;
    if (item.isNfmt)
      inst.nfmt = static_cast<Nfmt>(item.value);
    else
      inst.dfmt = static_cast<Dfmt>(item.value);
    if (cur.accept(']')) break;
    cur.expect(',', "between format entries");
  }
}

}  // namespace

std::string soffsetText(Gen gen, uint8_t code) {
  if (!soffsetLegal(gen, code))
    throw Error("SOFFSET operand code " + std::to_string(code) + " has no text on " +
                std::string(genName(gen)));
  if (code < sgprCount(gen)) return std::string("s").append(std::to_string(code));
  if (code == m0SgprCode(gen)) return "m0";
  if (isRdna(gen) && code == nullSgprCode(gen)) return "null";
  switch (code) {
    case 106:
      return "vcc_lo";
    case 107:
      return "vcc_hi";
    case 126:
      return "exec_lo";
    case 127:
      return "exec_hi";
    case 248:
      return std::string(kInvTwoPi);
    default:
      break;
  }
  if (const auto v = integerInlineValue(code)) return std::to_string(*v);
  return std::string(kFloatConstants[code - 240]);
}

Instruction parseInstruction(Gen gen, std::string_view text) {
  return parseInstruction(representativeChip(gen), text);
}

namespace {

// A mnemonic token that is not empty (parseInstruction checks that first).
const OpcodeInfo& parseMnemonic(Gen gen, const Token& mnem) {
  const OpcodeInfo* op = findOpcode(mnem.text);
  if (op == nullptr)
    failAt(mnem.column, "unknown MUBUF/MTBUF mnemonic '" + std::string(mnem.text) + "'");
  if (!existsOn(*op, gen))
    failAt(mnem.column,
           std::string(mnemonicOn(*op, gen)) + " does not exist on " + std::string(genName(gen)));
  // GFX11's names exist on GFX11 only; GFX11 still reads the older names, as llvm-mc does.
  if (gen != Gen::Gfx11 && !op->gfx11Mnemonic.empty() && asciiLower(mnem.text) == op->gfx11Mnemonic)
    failAt(mnem.column, std::string(mnem.text) + " is the gfx11 name of " +
                            std::string(op->mnemonic) + "; write " + std::string(op->mnemonic) +
                            " on " + std::string(genName(gen)));
  return *op;
}

// GFX10's loads to LDS name no VDATA: `buffer_load_dword v2, s[4:7], 0 offen lds`. The first
// operand is then the address ('off' or a VGPR range followed by an SGPR range).
bool namesNoVdata(Gen gen, const OpcodeInfo& op, const Cursor& cur) {
  if (!isRdna(gen) || !op.ldsCapable) return false;
  Cursor probe = cur;
  probe.skipSpace();
  if (asciiLower(probe.word().text) == "off") return true;
  Cursor after = cur;
  parseRegisters(after, 'v', "VDATA");
  after.skipSpace();
  if (!after.accept(',')) return false;
  after.skipSpace();
  Cursor peek = after;
  return asciiLower(peek.word().text) == "s" && peek.accept('[');
}

// The register operands as written, before their counts are checked against the modifiers.
struct Operands {
  RegRange vdata, vaddr;
  bool vaddrOff = true;
  bool noVdata = false;
};

Operands parseOperands(Gen gen, const OpcodeInfo& op, Cursor& cur, Instruction& inst) {
  Operands o;
  if (op.kind == OpKind::Cache) return o;
  o.noVdata = namesNoVdata(gen, op, cur);
  if (!op.ldsData && !o.noVdata) {
    o.vdata = parseRegisters(cur, 'v', "VDATA");
    cur.expect(',', "after VDATA");
  }
  if (!op.ldsData) {
    cur.skipSpace();
    const int col = cur.column();
    Cursor probe = cur;
    if (asciiLower(probe.word().text) == "off") {
      cur = probe;
      o.vaddr.column = col;
    } else {
      o.vaddr = parseRegisters(cur, 'v', "VADDR");
      o.vaddrOff = false;
    }
    cur.expect(',', "after VADDR");
  }
  const RegRange srsrc = parseRegisters(cur, 's', "SRSRC");
  if (srsrc.count != 4)
    failAt(srsrc.column, "SRSRC: the buffer resource is 4 SGPRs (s[4n:4n+3]), found " +
                             std::to_string(srsrc.count));
  if (srsrc.first % 4 != 0)
    failAt(srsrc.column, "SRSRC must start at a multiple of 4 (s[4n:4n+3])");
  const unsigned sgprs = sgprCount(gen);
  if (srsrc.first + 4 > sgprs)
    failAt(srsrc.column, "SRSRC is beyond the " + std::to_string(sgprs) + " SGPRs of " +
                             std::string(genName(gen)));
  inst.srsrc = static_cast<uint8_t>(srsrc.first);
  cur.expect(',', "after SRSRC");
  cur.skipSpace();
  const Token so = cur.word();
  if (so.text.empty()) failAt(cur.column(), "expected SOFFSET");
  inst.soffset = parseSoffset(gen, so);
  inst.vdata = static_cast<uint8_t>(o.vdata.first);
  inst.vaddr = static_cast<uint8_t>(o.vaddr.first);
  return o;
}

// One modifier word `m` at token `t` (offset: and format: read their values from `cur`).
void parseModifier(Gen gen, const OpcodeInfo& op, const Token& t, Cursor& cur, Instruction& inst,
                   Seen& seen) {
  const std::string m = asciiLower(t.text);
  auto once = [&](int& slot) {
    if (slot != 0) failAt(t.column, "modifier '" + m + "' given twice");
    slot = t.column;
  };
  if (op.kind == OpKind::Cache)
    failAt(t.column, std::string(op.mnemonic) + " takes no operands or modifiers");
  struct Flag {
    std::string_view name;
    int Seen::*seen;
    bool Instruction::*bit;
  };
  static constexpr std::array<Flag, 7> kFlags{{{"offen", &Seen::offen, &Instruction::offen},
                                               {"idxen", &Seen::idxen, &Instruction::idxen},
                                               {"addr64", &Seen::addr64, &Instruction::addr64},
                                               {"glc", &Seen::glc, &Instruction::glc},
                                               {"slc", &Seen::slc, &Instruction::slc},
                                               {"dlc", &Seen::dlc, &Instruction::dlc},
                                               {"tfe", &Seen::tfe, &Instruction::tfe}}};
  for (const Flag& f : kFlags) {
    if (m != f.name) continue;
    once(seen.*f.seen);
    if (f.bit == &Instruction::dlc && isGcn(gen))
      failAt(t.column, "dlc exists from gfx10 on, not on " + std::string(genName(gen)));
    inst.*f.bit = true;
    return;
  }
  if (m == "lds") {
    once(seen.lds);
    inst.lds = true;
  } else if (m == "offset") {
    once(seen.offset);
    cur.expect(':', "after offset");
    const Token v = cur.word();
    auto n = parseInteger(v.text);
    if (!n) failAt(v.column, "offset: expected a number, found '" + std::string(v.text) + "'");
    if (*n < 0 || *n > 4095)
      failAt(v.column, "offset " + std::string(v.text) + " does not fit in 12 bits (0..4095)");
    inst.offset = static_cast<uint16_t>(*n);
  } else if (m == "format") {
    once(seen.format);
    if (op.encoding == Encoding::Mubuf)
      failAt(t.column, "format is an MTBUF modifier; " + std::string(op.mnemonic) +
                           " takes the format from the resource");
    cur.expect(':', "after format");
    parseFormat(gen, cur, inst);
  } else {
    failAt(t.column, "unknown modifier '" + std::string(t.text) + "'");
  }
}

Seen parseModifiers(Gen gen, const OpcodeInfo& op, Cursor& cur, Instruction& inst) {
  Seen seen;
  // One ',' may stand before a modifier ("0, glc", "offen,glc"), as llvm-mc allows; a second
  // one or one at the end is an error there too ("0,,,, glc").
  int commaColumn = 0;
  for (;;) {
    if (cur.atEnd()) {
      if (commaColumn != 0) failAt(commaColumn, "expected a modifier after ','");
      return seen;
    }
    cur.skipSpace();
    const int column = cur.column();
    if (cur.accept(',')) {
      if (commaColumn != 0) failAt(column, "unexpected ',': expected a modifier");
      commaColumn = column;
      continue;
    }
    commaColumn = 0;
    const Token t = cur.word();
    if (t.text.empty()) failAt(cur.column(), "unexpected character");
    parseModifier(gen, op, t, cur, inst, seen);
  }
}

// Illegal combinations of modifiers, each reported at the token that makes it illegal;
// `endColumn` is where a missing one is reported.
void checkModifiers(Gen gen, const OpcodeInfo& op, const Seen& seen, int endColumn) {
  if (seen.addr64 && gen >= Gen::Gfx8)
    failAt(seen.addr64, "addr64 exists on gfx6/gfx7 only, not on " + std::string(genName(gen)));
  if (seen.addr64 && (seen.idxen || seen.offen)) {
    const int other = seen.idxen && seen.offen ? std::max(seen.idxen, seen.offen)
                                               : (seen.idxen ? seen.idxen : seen.offen);
    failAt(std::max(seen.addr64, other), "idxen/offen cannot be combined with addr64");
  }
  if (seen.lds && op.encoding == Encoding::Mtbuf)
    failAt(seen.lds, "lds is a MUBUF modifier; MTBUF has no LDS bit");
  if (seen.lds && seen.tfe)
    failAt(std::max(seen.lds, seen.tfe), "tfe and lds together are illegal");
  if (seen.lds && !op.ldsCapable)
    failAt(seen.lds, "lds works only with buffer_load_ubyte/sbyte/ushort/sshort/dword/format_x");
  if (op.ldsData) {
    if (!seen.lds) failAt(endColumn, "buffer_store_lds_dword needs lds");
    const int bad = seen.idxen ? seen.idxen : seen.offen ? seen.offen : seen.tfe;
    if (bad != 0) failAt(bad, "buffer_store_lds_dword takes no idxen/offen/tfe");
  }
}

// The register counts the instruction reads and writes against those written. D16 register
// counts are the chip's (Stoney packs D16 inside GFX8); errors name the chip when it is not its
// generation's representative.
void checkRegisterCounts(const Chip& chip, const OpcodeInfo& op, const Instruction& inst,
                         const Operands& o, int mnemonicColumn) {
  const Gen gen = chip.gen;
  const std::string where = &chip == &representativeChip(gen)
                                ? std::string(genName(gen))
                                : std::string(chip.name) + " (" + std::string(genName(gen)) + ")";
  if (o.noVdata && !inst.lds)
    failAt(mnemonicColumn, "no VDATA: only a load to LDS (lds) names none on " + where);
  if (isRdna(gen) && inst.lds && !o.noVdata && !op.ldsData)
    failAt(o.vdata.column, "a load to LDS names no VDATA on " + where +
                               " (LLVM's form: MNEMONIC VADDR|off, SRSRC, SOFFSET ... lds)");
  if (op.kind == OpKind::Cache || op.ldsData) return;
  if (!o.noVdata) {
    const unsigned want = vdataRegs(op, chip, inst.tfe);
    const unsigned wantLlvm14 = vdataRegs(op, chip, false);
    if (o.vdata.count != want && !(inst.tfe && o.vdata.count == wantLlvm14))
      failAt(o.vdata.column, "VDATA: " + std::string(op.mnemonic) + " on " + where +
                                 (inst.tfe ? " with tfe" : "") + " takes " + std::to_string(want) +
                                 " VGPR(s), found " + std::to_string(o.vdata.count));
    if (o.vdata.first + want > 256) failAt(o.vdata.column, "VDATA runs past v255");
  }
  const unsigned wantAddr = vaddrRegs(inst);
  if (o.vaddrOff && wantAddr != 0)
    failAt(o.vaddr.column,
           "VADDR: 'off' but the address mode reads " + std::to_string(wantAddr) + " VGPR(s)");
  if (!o.vaddrOff && o.vaddr.count != wantAddr)
    failAt(o.vaddr.column, "VADDR: the address mode reads " + std::to_string(wantAddr) +
                               " VGPR(s)" + (wantAddr == 0 ? " (write 'off')" : "") + ", found " +
                               std::to_string(o.vaddr.count));
}

}  // namespace

Instruction parseInstruction(const Chip& chip, std::string_view text) {
  const Gen gen = chip.gen;
  Cursor cur(text);
  const Token mnem = cur.word();
  if (mnem.text.empty()) failAt(cur.column(), "expected an instruction mnemonic");
  Instruction inst;
  const OpcodeInfo& op = parseMnemonic(gen, mnem);
  inst.op = &op;
  const Operands operands = parseOperands(gen, op, cur, inst);
  const Seen seen = parseModifiers(gen, op, cur, inst);
  checkModifiers(gen, op, seen, static_cast<int>(text.size()) + 1);
  checkRegisterCounts(chip, op, inst, operands, mnem.column);
  try {
    validate(gen, inst);
  } catch (const Error& e) {
    failAt(mnem.column, e.reason());
  }
  return inst;
}

std::string printInstruction(Gen gen, const Instruction& inst) {
  validate(gen, inst);
  const OpcodeInfo& op = *inst.op;
  std::string out(mnemonicOn(op, gen));
  if (op.kind == OpKind::Cache) return out;
  auto range = [](char kind, unsigned first, unsigned count) {
    if (count == 1) return std::string(1, kind) + std::to_string(first);
    return std::string(1, kind) + "[" + std::to_string(first) + ":" +
           std::to_string(first + count - 1) + "]";
  };
  out += ' ';
  // GFX10's load to LDS names no VDATA (llvm-mc 15's form).
  const bool noVdata = isRdna(gen) && inst.lds;
  if (!op.ldsData) {
    if (!noVdata)
      out += range('v', inst.vdata, vdataRegs(op, representativeChip(gen), inst.tfe)) + ", ";
    const unsigned addr = vaddrRegs(inst);
    out += (addr == 0 ? std::string("off") : range('v', inst.vaddr, addr)) + ", ";
  }
  out += range('s', inst.srsrc, 4) + ", " + soffsetText(gen, inst.soffset);
  if (op.encoding == Encoding::Mtbuf && isRdna(gen)) {
    const std::string name = llvmUnifiedFormatName(gen, inst.format);
    out += findUnifiedFormat(gen, inst.format) != nullptr || inst.format == 0
               ? " format:[" + name + "]"
               : " format:" + name;
  } else if (op.encoding == Encoding::Mtbuf) {
    out += " format:[" + llvmDfmtName(inst.dfmt) + "," + llvmNfmtName(inst.nfmt, gen) + "]";
  }
  if (inst.idxen) out += " idxen";
  if (inst.offen) out += " offen";
  if (inst.addr64) out += " addr64";
  if (inst.offset != 0) out += " offset:" + std::to_string(inst.offset);
  // llvm-mc 14 wants buffer_store_lds_dword's lds before the cache bits, every other lds last.
  if (op.ldsData) out += " lds";
  if (inst.glc) out += " glc";
  if (inst.slc) out += " slc";
  if (inst.dlc) out += " dlc";
  if (inst.tfe) out += " tfe";
  if (inst.lds && !op.ldsData) out += " lds";
  return out;
}

}  // namespace gcn
