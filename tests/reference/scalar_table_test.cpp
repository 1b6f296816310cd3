// reference/scalar_table.inc against llvm-mc, the independent oracle it was generated from
// (llvm-mc 14 for gfx6..gfx9, llvm-mc-15 for gfx10..gfx11; one llvm-mc and one llvm-mca run per
// generation):
//  - gfx8..gfx11: every opcode of every class is disassembled with SDST = 10 and sources 20,
//    30 (other field sets where llvm-mc rejects those), alone and followed by a dword; each
//    opcode llvm-mc decodes must be a row with the mnemonic it prints, extraLiteral set when
//    it decodes only with the dword (which it then prints as the literal), and the width of
//    the SDST it prints; and each row must be an opcode llvm-mc decodes.
//  - gfx6/gfx7 (llvm-mc cannot disassemble them): every mnemonic of the table, of any
//    generation, is assembled with a list of operand shapes; each one llvm-mc accepts as a
//    scalar ALU word must be the row of its class and opcode (encoding formats: see
//    reference/scalar_table.h), and each row's mnemonic must be accepted.
//  - The SGPRs SSRC0 and SSRC1 read: the width of the operand llvm-mc prints for the register
//    the field holds (s20 or s[20:21] when we wrote 20 there), 0 when it prints none (no such
//    operand, or an immediate such as gpr_idx(SRC0)).
//  - Whether a printed SDST is written (s_cmpk_* and s_setreg_* read theirs): llvm-mca's
//    register-file statistics, one code region per instruction, count the registers it
//    writes. LLVM models the SDST of s_movreld_* (a write to SGPR[SDST + M0]) as a read; the
//    table counts those SGPRs (reference/scalar_table.h), and so does this test.
//  - The table is sorted and has no duplicate rows; both lookups find every row.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "reference/scalar_table.h"

namespace scalar_table_test {

using gcn::Gen;
using gcn::ScalarClass;
using gcn::ScalarOpInfo;

std::string cpuOf(Gen gen) {
  return std::string(gcn::representativeChip(gen).llvmCpu);
}
std::string mcOf(Gen gen) {
  return gcn::isRdna(gen) ? "llvm-mc-15" : "llvm-mc";
}
std::string mcaOf(Gen gen) {
  return gcn::isRdna(gen) ? "llvm-mca-15" : "llvm-mca";
}
bool haveTool(const std::string& tool) {
  return std::system((tool + " --version >/dev/null 2>&1").c_str()) == 0;
}

// Runs `<tool> <args> <a file of lines>`; returns stdout's lines, trimmed (stderr dropped).
std::vector<std::string> runTool(const std::string& tool, const std::string& args,
                                 const std::vector<std::string>& lines) {
  static int serial = 0;
  const auto dir = std::filesystem::temp_directory_path();
  const std::string stem =
      "gcnprobe_scalar_" + std::to_string(::getpid()) + "_" + std::to_string(serial++);
  const auto in = dir / (stem + ".s"), out = dir / (stem + ".out");
  {
    std::ofstream f(in);
    for (const std::string& l : lines)
      f << l << "\n";
  }
  const std::string cmd =
      tool + " " + args + " " + in.string() + " >" + out.string() + " 2>/dev/null";
  (void)std::system(cmd.c_str());
  std::vector<std::string> result;
  std::ifstream f(out);
  for (std::string l; std::getline(f, l);) {
    l.erase(0, l.find_first_not_of(" \t"));
    l.erase(l.find_last_not_of(" \t") + 1);
    result.push_back(l);
  }
  std::filesystem::remove(in);
  std::filesystem::remove(out);
  return result;
}

constexpr uint32_t kMarker = 0xbf800007u;    // s_nop 7: ends each item of a batch
constexpr uint32_t kTrailing = 0xbf800003u;  // s_nop 3: the dword after a word, in case
                                             // the instruction takes it as its literal

// llvm-mc's output split at the s_nop 7 markers: item i's lines.
std::vector<std::vector<std::string>> segments(const std::vector<std::string>& out,
                                               std::size_t items) {
  std::vector<std::vector<std::string>> segs(1);
  for (const std::string& l : out) {
    if (l.empty() || l[0] == '.') continue;
    if (l.rfind("s_nop 7", 0) == 0)
      segs.emplace_back();
    else
      segs.back().push_back(l);
  }
  segs.resize(items);
  return segs;
}

// "[0x..,0x..]": one bracketed group, which llvm-mc -disassemble decodes on its own.
std::string group(const std::vector<uint32_t>& words) {
  std::string s = "[";
  char buf[8];
  for (uint32_t w : words)
    for (int b = 0; b < 4; ++b) {
      std::snprintf(buf, sizeof buf, "%s0x%02x", s.size() > 1 ? "," : "", (w >> (8 * b)) & 0xff);
      s += buf;
    }
  return s + "]";
}

std::string mnemonicOf(const std::string& text) {
  return text.substr(0, text.find_first_of(" \t"));
}
std::string firstOperand(const std::string& text) {
  const std::size_t sp = text.find_first_of(" \t");
  if (sp == std::string::npos) return "";
  std::string ops = text.substr(sp);
  ops.erase(0, ops.find_first_not_of(" \t"));
  if (ops.rfind("s[", 0) == 0) return ops.substr(0, ops.find(']') + 1);
  return ops.substr(0, ops.find_first_of(", \t"));
}
// SGPRs of a printed s10 / s[10:N] operand; 0 for anything else (the SDST we wrote is 10).
unsigned widthOfS10(const std::string& op) {
  std::smatch m;
  if (std::regex_match(op, m, std::regex(R"(s\[10:(\d+)\])")))
    return static_cast<unsigned>(std::stoi(m[1]) - 10 + 1);
  return op == "s10" ? 1u : 0u;
}

// SGPRs of the printed operand that names register `base` (s<base> or s[<base>:N]), 0 when no
// operand does.
unsigned widthAt(const std::string& text, unsigned base) {
  const std::size_t sp = text.find_first_of(" \t");
  if (sp == std::string::npos) return 0;
  const std::regex op(R"(s(\d+)|s\[(\d+):(\d+)\])");
  const std::string ops = text.substr(sp);
  for (auto it = std::sregex_iterator(ops.begin(), ops.end(), op); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    if (m[1].matched && std::stoul(m[1]) == base) return 1;
    if (m[2].matched && std::stoul(m[2]) == base)
      return static_cast<unsigned>(std::stoul(m[3]) - base + 1);
  }
  return 0;
}

// The SGPRs SSRC0 [7:0] and SSRC1 [15:8] of word `w` read, by what llvm-mc printed for it.
std::array<unsigned, 2> sourceWidths(ScalarClass cls, uint32_t w, const std::string& text) {
  if (cls != ScalarClass::Sop1 && cls != ScalarClass::Sop2 && cls != ScalarClass::Sopc)
    return {0, 0};
  return {widthAt(text, w & 0xff), cls == ScalarClass::Sop1 ? 0u : widthAt(text, (w >> 8) & 0xff)};
}

// How many registers llvm-mca counts as written by each instruction alone.
std::vector<int> mcaWrites(Gen gen, const std::vector<std::string>& texts) {
  if (texts.empty()) return {};
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    lines.push_back("# LLVM-MCA-BEGIN r" + std::to_string(i));
    lines.push_back(texts[i]);
    lines.push_back("# LLVM-MCA-END");
  }
  std::vector<int> counts;
  const std::regex re(R"(Total number of mappings created:\s+(\d+))");
  for (const std::string& l : runTool(mcaOf(gen),
                                      "-mtriple=amdgcn -mcpu=" + cpuOf(gen) +
                                          " -iterations=1 -register-file-stats -instruction-info=0"
                                          " -resource-pressure=0 -summary-view=0",
                                      lines)) {
    std::smatch m;
    if (std::regex_search(l, m, re)) counts.push_back(std::stoi(m[1]));
  }
  return counts;
}

bool isRelativeWrite(const std::string& mnemonic) {
  return mnemonic == "s_movreld_b32" || mnemonic == "s_movreld_b64";
}

// What llvm-mc says about one opcode.
struct Seen {
  std::string text;               // the instruction as llvm-mc printed it
  bool literal = false;           // the word carried a 32-bit literal
  unsigned dstCandidate = 0;      // SGPRs of the printed SDST (s10), 0 when none
  unsigned dst = 0;               // dstCandidate when llvm-mca counts it written (or s_movreld_*)
  std::array<unsigned, 2> src{};  // SGPRs of the printed SSRC0 and SSRC1 operands
};

// Fills in Seen::dst with one llvm-mca run.
void resolveWrites(Gen gen, std::map<std::pair<ScalarClass, unsigned>, Seen>& seen) {
  std::vector<Seen*> todo;
  std::vector<std::string> texts;
  for (auto& [key, s] : seen)
    if (s.dstCandidate != 0) {
      todo.push_back(&s);
      texts.push_back(s.text);
    }
  const std::vector<int> counts = mcaWrites(gen, texts);
  ASSERT_EQ(counts.size(), texts.size()) << mcaOf(gen) << " -mcpu=" << cpuOf(gen);
  for (std::size_t i = 0; i < todo.size(); ++i)
    todo[i]->dst =
        counts[i] > 0 || isRelativeWrite(mnemonicOf(todo[i]->text)) ? todo[i]->dstCandidate : 0;
}

const char* className(ScalarClass cls) {
  switch (cls) {
    case ScalarClass::Sop1:
      return "SOP1";
    case ScalarClass::Sop2:
      return "SOP2";
    case ScalarClass::Sopk:
      return "SOPK";
    case ScalarClass::Sopc:
      return "SOPC";
    case ScalarClass::Sopp:
      return "SOPP";
  }
  return "?";
}

void compare(Gen gen, const std::map<std::pair<ScalarClass, unsigned>, Seen>& seen) {
  for (const auto& [key, s] : seen) {
    const auto& [cls, op] = key;
    const std::string where = cpuOf(gen) + " " + className(cls) + " " + std::to_string(op);
    const ScalarOpInfo* row = gcn::findScalarOp(gen, cls, op);
    if (row == nullptr) {
      ADD_FAILURE() << where << ": llvm-mc has '" << s.text << "', the table no row";
      continue;
    }
    EXPECT_EQ(row->mnemonic, mnemonicOf(s.text)) << where;
    EXPECT_EQ(unsigned{row->dstSgprs}, s.dst) << where << " '" << s.text << "'";
    EXPECT_EQ(row->extraLiteral, s.literal) << where << " '" << s.text << "'";
    EXPECT_EQ(unsigned{row->srcSgprs[0]}, s.src[0]) << where << " SSRC0 '" << s.text << "'";
    EXPECT_EQ(unsigned{row->srcSgprs[1]}, s.src[1]) << where << " SSRC1 '" << s.text << "'";
  }
}

TEST(ScalarTable, SortedUniqueAndFound) {
  const auto t = gcn::scalarOpTable();
  ASSERT_GT(t.size(), 1000u);
  const auto key = [](const ScalarOpInfo& r) {
    return std::tuple(static_cast<int>(r.gen), static_cast<int>(r.cls), r.opcode);
  };
  for (std::size_t i = 1; i < t.size(); ++i)
    EXPECT_LT(key(t[i - 1]), key(t[i])) << t[i].mnemonic;
  for (const ScalarOpInfo& r : t) {
    EXPECT_EQ(gcn::findScalarOp(r.gen, r.cls, r.opcode), &r) << r.mnemonic;
    EXPECT_EQ(gcn::findScalarOpByName(r.gen, r.cls, r.mnemonic), &r) << r.mnemonic;
  }
  EXPECT_EQ(gcn::findScalarOpByName(Gen::Gfx9, ScalarClass::Sop2, "s_setpc_b64"), nullptr);
  EXPECT_EQ(gcn::findScalarOpByName(Gen::Gfx9, ScalarClass::Sop1, "s_no_such_op"), nullptr);
  EXPECT_EQ(gcn::findScalarOpByName(Gen::Gfx10, ScalarClass::Sop1, "s_cbranch_join"), nullptr);
  EXPECT_EQ(gcn::findScalarOp(Gen::Gfx9, ScalarClass::Sopp, 127), nullptr);
  // Golden numbers, as llvm-mc assembles them: they move between generations.
  const ScalarOpInfo* setpc8 = gcn::findScalarOpByName(Gen::Gfx8, ScalarClass::Sop1, "s_setpc_b64");
  ASSERT_NE(setpc8, nullptr);
  EXPECT_EQ(setpc8->opcode, 29);
  const ScalarOpInfo* endpgm11 = gcn::findScalarOpByName(Gen::Gfx11, ScalarClass::Sopp, "s_endpgm");
  ASSERT_NE(endpgm11, nullptr);
  EXPECT_EQ(endpgm11->opcode, 48);
}

// One opcode of one class with its operand fields: SOP1 {SDST, SSRC0}, SOP2 {SDST, SSRC0,
// SSRC1}, SOPK {SDST, SIMM16}, SOPC {SSRC0, SSRC1}, SOPP {SIMM16}.
uint32_t wordOf(ScalarClass cls, unsigned op, const std::vector<unsigned>& f) {
  switch (cls) {
    case ScalarClass::Sop1:
      return 0xbe800000u | f[0] << 16 | op << 8 | f[1];
    case ScalarClass::Sop2:
      return 0x80000000u | op << 23 | f[0] << 16 | f[2] << 8 | f[1];
    case ScalarClass::Sopk:
      return 0xb0000000u | op << 23 | f[0] << 16 | f[1];
    case ScalarClass::Sopc:
      return 0xbf000000u | op << 16 | f[1] << 8 | f[0];
    case ScalarClass::Sopp:
      return 0xbf800000u | op << 16 | f[0];
  }
  return 0;
}

TEST(ScalarTable, Gfx8ToGfx11RowsAreWhatLlvmMcDisassembles) {
  struct Sweep {
    ScalarClass cls;
    unsigned count;  // opcodes 0..count-1 (SOP2 above 0x5f and SOPK above 28 are other classes)
    bool hasSdst;
    std::vector<std::vector<unsigned>> fields;  // tried in turn; the first that decodes counts
  };
  const std::vector<Sweep> sweeps = {
      {ScalarClass::Sop1, 256, true, {{10, 20}, {0, 20}, {10, 0}}},
      {ScalarClass::Sop2, 0x60, true, {{10, 20, 30}, {0, 20, 30}}},
      {ScalarClass::Sopk, 29, true, {{10, 0x1234}, {0, 0x1234}}},
      {ScalarClass::Sopc, 128, false, {{10, 20}, {10, 1}}},
      {ScalarClass::Sopp, 128, false, {{0}, {4}}},
  };
  std::string missing;
  for (Gen gen : {Gen::Gfx8, Gen::Gfx9, Gen::Gfx10, Gen::Gfx10_3, Gen::Gfx11}) {
    if (!haveTool(mcOf(gen)) || !haveTool(mcaOf(gen))) {
      missing += " " + cpuOf(gen) + " (" + mcOf(gen) + ", " + mcaOf(gen) + ")";
      continue;
    }
    // Items: each word alone, then the word followed by a dword; a marker after each.
    struct Item {
      ScalarClass cls;
      unsigned op;
      bool sdst10;
      uint32_t word;
    };
    std::vector<Item> items;
    std::vector<std::string> lines;
    for (const Sweep& s : sweeps)
      for (unsigned op = 0; op < s.count; ++op)
        for (std::size_t k = 0; k < s.fields.size(); ++k) {
          const uint32_t w = wordOf(s.cls, op, s.fields[k]);
          items.push_back({s.cls, op, s.hasSdst && s.fields[k][0] == 10, w});
          for (const std::vector<uint32_t>& words :
               {std::vector<uint32_t>{w}, std::vector<uint32_t>{w, kTrailing}}) {
            lines.push_back(group(words));
            lines.push_back(group({kMarker}));
          }
        }
    const auto segs =
        segments(runTool(mcOf(gen), "-arch=amdgcn -mcpu=" + cpuOf(gen) + " -disassemble", lines),
                 2 * items.size());
    std::map<std::pair<ScalarClass, unsigned>, Seen> seen;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Item& it = items[i];
      const auto key = std::pair(it.cls, it.op);
      if (seen.count(key)) continue;
      const auto& alone = segs[2 * i];
      const auto& withDword = segs[2 * i + 1];
      Seen s;
      if (alone.size() == 1) {
        s.text = alone[0];
      } else if (withDword.size() == 1 && withDword[0].find("0xbf800003") != std::string::npos) {
        s.text = withDword[0];
        s.literal = true;
      } else {
        continue;
      }
      if (s.text.rfind("s_", 0) != 0) continue;
      s.dstCandidate = it.sdst10 ? widthOfS10(firstOperand(s.text)) : 0;
      s.src = sourceWidths(it.cls, it.word, s.text);
      seen[key] = s;
    }
    EXPECT_GT(seen.size(), 150u) << cpuOf(gen);
    resolveWrites(gen, seen);
    compare(gen, seen);
    for (const ScalarOpInfo& r : gcn::scalarOpTable())
      if (r.gen == gen && !seen.count(std::pair(r.cls, static_cast<unsigned>(r.opcode))))
        ADD_FAILURE() << cpuOf(gen) << " " << className(r.cls) << " " << int(r.opcode) << " "
                      << r.mnemonic << ": llvm-mc decodes no such word";
  }
  if (!missing.empty()) GTEST_SKIP() << "not checked, tools not on PATH:" << missing;
}

// The class, opcode and SDST field of a scalar ALU word (reference/scalar_table.h); false for
// any other word.
bool decodeWord(uint32_t w, ScalarClass& cls, unsigned& op, unsigned& sdst) {
  sdst = (w >> 16) & 0x7f;
  switch (w >> 23) {
    case 0x17d:
      cls = ScalarClass::Sop1, op = (w >> 8) & 0xff;
      return true;
    case 0x17e:
      cls = ScalarClass::Sopc, op = (w >> 16) & 0x7f, sdst = 0;
      return true;
    case 0x17f:
      cls = ScalarClass::Sopp, op = (w >> 16) & 0x7f, sdst = 0;
      return true;
    default:
      break;
  }
  if ((w >> 28) == 0xb) {
    cls = ScalarClass::Sopk, op = (w >> 23) & 0x1f;
    return true;
  }
  if ((w >> 30) == 2) {
    cls = ScalarClass::Sop2, op = (w >> 23) & 0x7f;
    return true;
  }
  return false;
}

// gfx6/7: llvm-mc cannot disassemble them, so the table's mnemonics (of every generation) are
// assembled with operand shapes; the first shape llvm-mc accepts gives the word.
TEST(ScalarTable, Gfx6AndGfx7RowsAreWhatLlvmMcAssembles) {
  if (!haveTool("llvm-mc") || !haveTool("llvm-mca"))
    GTEST_SKIP() << "llvm-mc or llvm-mca not on PATH";
  // Destinations are s10 / s[10:11], sources s20.. and inline constants: no shape brings a
  // literal of its own.
  const std::vector<std::string> shapes = {
      "s10, s20, s30",
      "s[10:11], s[20:21], s[30:31]",
      "s[10:11], s[20:21], s30",
      "s[10:11], s20, s30",
      "s10, s[20:21], s30",
      "s10, s[20:21], s[30:31]",
      "s10, s20, s[30:31]",
      "s[10:11], s20, s[30:31]",
      "s10, s20",
      "s[10:11], s[20:21]",
      "s10, s[20:21]",
      "s[10:11], s20",
      "s10, 4",
      "s[10:11], 4",
      "s10, 0x1234",
      "hwreg(HW_REG_MODE), s10",
      "s10, hwreg(HW_REG_MODE)",
      "hwreg(HW_REG_MODE), 0x1234",
      "s[10:11]",
      "s10",
      "",
      "0",
      "sendmsg(MSG_INTERRUPT)",
  };
  std::set<std::string> names;
  for (const ScalarOpInfo& r : gcn::scalarOpTable())
    names.insert(std::string(r.mnemonic));
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7}) {
    std::vector<std::string> lines;
    std::vector<std::string> inputs;
    for (const std::string& n : names)
      for (const std::string& s : shapes) {
        inputs.push_back(n);
        lines.push_back(s.empty() ? n : n + " " + s);
        lines.push_back("s_nop 7");
      }
    const auto segs =
        segments(runTool("llvm-mc", "-arch=amdgcn -mcpu=" + cpuOf(gen) + " -show-encoding", lines),
                 inputs.size());
    const std::regex enc(R"(^(.*?)\s*; encoding: \[(.*)\])");
    std::set<std::string> done;
    std::map<std::pair<ScalarClass, unsigned>, Seen> seen;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      std::smatch m;
      if (done.count(inputs[i]) || segs[i].size() != 1 || !std::regex_search(segs[i][0], m, enc))
        continue;
      done.insert(inputs[i]);
      std::vector<uint32_t> words;
      const std::string bytes = m[2];
      std::vector<uint32_t> b;
      for (std::size_t p = 0; (p = bytes.find("0x", p)) != std::string::npos; p += 2)
        b.push_back(static_cast<uint32_t>(std::stoul(bytes.substr(p + 2, 2), nullptr, 16)));
      for (std::size_t k = 0; k + 3 < b.size(); k += 4)
        words.push_back(b[k] | b[k + 1] << 8 | b[k + 2] << 16 | b[k + 3] << 24);
      ScalarClass cls{};
      unsigned op = 0, sdst = 0;
      if (words.empty() || !decodeWord(words[0], cls, op, sdst)) continue;  // SMEM and others
      Seen s;
      s.text = m[1];
      s.literal = words.size() > 1;
      s.dstCandidate = sdst == 10 ? widthOfS10(firstOperand(s.text)) : 0;
      s.src = sourceWidths(cls, words[0], s.text);
      const auto key = std::pair(cls, op);
      if (seen.count(key) && seen[key].text != s.text) {
        EXPECT_EQ(mnemonicOf(seen[key].text), mnemonicOf(s.text))
            << cpuOf(gen) << " " << className(cls) << " " << op << ": two mnemonics";
        continue;
      }
      seen[key] = s;
    }
    EXPECT_GT(seen.size(), 140u) << cpuOf(gen);
    resolveWrites(gen, seen);
    compare(gen, seen);
    for (const ScalarOpInfo& r : gcn::scalarOpTable())
      if (r.gen == gen && !seen.count(std::pair(r.cls, static_cast<unsigned>(r.opcode))))
        ADD_FAILURE() << cpuOf(gen) << " " << r.mnemonic
                      << ": llvm-mc assembles it to no such word";
  }
}

// The behaviour column at opcodes the GCN ISA manuals give (AMD's Southern Islands, Sea
// Islands, GCN3 and Vega guides; CLRX's GcnInstrsSopp/Sop1/Sopk/Sopc.md list the same numbers
// per generation), not at the generator's names: a behaviour on the wrong row, or a row the
// generator's rules missed, fails here.
// The source widths at the manuals' opcodes, from each instruction's operation in AMD's
// Southern Islands and Vega ISA guides (CLRX's GcnInstrsSop1/Sop2/Sopc.md give the same
// operands): S_LSHL_B64 "D.u64 = S0.u64 << S1.u[5:0]" reads a pair and one SGPR, S_BFM_B64 two
// SGPRs, S_BITSET0_B64 "D.u64[S0.u[5:0]] = 0" one, S_GETPC_B64 none.
TEST(ScalarTable, SourceWidthsAreTheManuals) {
  using C = ScalarClass;
  struct Golden {
    C cls;
    unsigned gfx6, gfx8;  // opcode on gfx6/gfx7 and on gfx8/gfx9; 999: none there
    unsigned src0, src1;
    const char* name;
  };
  constexpr unsigned kNone = 999;
  const Golden golden[] = {
      {C::Sop1, 3, 0, 1, 0, "s_mov_b32"},       {C::Sop1, 4, 1, 2, 0, "s_mov_b64"},
      {C::Sop1, 28, 25, 1, 0, "s_bitset0_b64"}, {C::Sop1, 31, 28, 0, 0, "s_getpc_b64"},
      {C::Sop1, 32, 29, 2, 0, "s_setpc_b64"},   {C::Sop2, 15, 13, 2, 2, "s_and_b64"},
      {C::Sop2, 31, 29, 2, 1, "s_lshl_b64"},    {C::Sop2, 37, 35, 1, 1, "s_bfm_b64"},
      {C::Sop2, 41, 39, 2, 1, "s_bfe_u64"},     {C::Sopc, 0, 0, 1, 1, "s_cmp_eq_i32"},
      {C::Sopc, 14, 14, 2, 1, "s_bitcmp0_b64"}, {C::Sopc, kNone, 18, 2, 2, "s_cmp_eq_u64"},
      {C::Sopk, 0, 0, 0, 0, "s_movk_i32"},
  };
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9}) {
    for (const Golden& g : golden) {
      const unsigned op = gen <= Gen::Gfx7 ? g.gfx6 : g.gfx8;
      if (op == kNone) continue;
      const ScalarOpInfo* row = gcn::findScalarOp(gen, g.cls, op);
      ASSERT_NE(row, nullptr) << gcn::genName(gen) << " " << g.name;
      EXPECT_EQ(row->mnemonic, g.name) << gcn::genName(gen) << " opcode " << op;
      EXPECT_EQ(unsigned{row->srcSgprs[0]}, g.src0) << gcn::genName(gen) << " " << g.name;
      EXPECT_EQ(unsigned{row->srcSgprs[1]}, g.src1) << gcn::genName(gen) << " " << g.name;
    }
  }
}

TEST(ScalarTable, BehaviourIsAtTheManualsOpcodes) {
  using B = gcn::ScalarBehaviour;
  using C = ScalarClass;
  struct Golden {
    C cls;
    unsigned gfx6, gfx8;  // opcode on gfx6/gfx7 and on gfx8/gfx9; 999: none there
    B behaviour;
  };
  constexpr unsigned kNone = 999;
  const Golden golden[] = {
      {C::Sopp, 1, 1, B::EndProgram},
      {C::Sopp, 2, 2, B::Branch},
      {C::Sopp, 4, 4, B::BranchOther},
      {C::Sopp, 5, 5, B::BranchOther},
      {C::Sopp, 6, 6, B::BranchOther},
      {C::Sopp, 7, 7, B::BranchOther},
      {C::Sopp, 8, 8, B::BranchExecz},
      {C::Sopp, 9, 9, B::BranchExecnz},
      {C::Sopp, 12, 12, B::Waitcnt},
      {C::Sopp, 13, 13, B::Halt},
      {C::Sopp, 16, 16, B::SendMsg},
      {C::Sopp, 18, 18, B::Halt},
      {C::Sopp, 0, 0, B::None},
      {C::Sopp, 10, 10, B::None},           // s_nop, s_barrier
      {C::Sopp, kNone, 29, B::VectorMode},  // s_set_gpr_idx_mode
      {C::Sop1, 32, 29, B::IndirectFlow},
      {C::Sop1, 33, 30, B::IndirectFlow},
      {C::Sop1, 34, 31, B::IndirectFlow},
      {C::Sop1, 36, 32, B::AndSaveexec},
      {C::Sop1, 37, 33, B::ExecWrite},  // s_or_saveexec_b64
      {C::Sop1, 3, 0, B::Mov},
      {C::Sop1, 4, 1, B::Mov},
      {C::Sop1, 31, 28, B::None},  // s_getpc_b64
      {C::Sop1, 46, 42, B::MovRelSrc},
      {C::Sop1, 47, 43, B::MovRelSrc},
      {C::Sop1, 48, 44, B::MovRelDst},
      {C::Sop2, kNone, 43, B::IndirectFlow},  // s_rfe_restore_b64
      {C::Sop2, 14, 12, B::And},
      {C::Sop2, 15, 13, B::And},
      {C::Sop2, 16, 14, B::Or},
      {C::Sop2, 17, 15, B::Or},
      {C::Sopk, 0, 0, B::Movk},
      {C::Sopk, 17, 16, B::IndirectFlowExec},
      {C::Sopk, 19, 18, B::SetReg},
      {C::Sopk, 21, 20, B::SetReg},  // imm32 form
      {C::Sopc, 16, 16, B::VectorMode},
      {C::Sopc, kNone, 17, B::VectorMode},
      {C::Sopc, 0, 0, B::None},  // s_cmp_eq_i32
  };
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9}) {
    for (const Golden& g : golden) {
      const unsigned op = gen <= Gen::Gfx7 ? g.gfx6 : g.gfx8;
      if (op == kNone) continue;
      const ScalarOpInfo* row = gcn::findScalarOp(gen, g.cls, op);
      ASSERT_NE(row, nullptr) << gcn::genName(gen) << " class " << static_cast<int>(g.cls)
                              << " opcode " << op;
      EXPECT_EQ(row->behaviour, g.behaviour)
          << gcn::genName(gen) << " " << row->mnemonic << " (opcode " << op << ")";
    }
  }
  // s_call_b64 is GFX9's (SOPK 21); GFX8 has no SOPK 21.
  const ScalarOpInfo* call = gcn::findScalarOp(Gen::Gfx9, C::Sopk, 21);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->behaviour, B::IndirectFlowExec) << call->mnemonic;
}

}  // namespace scalar_table_test
