// reference/vgpr_table.inc against llvm-mc, the independent oracle it was generated from: llvm-mc
// 14 (Debian's llvm) for GCN, llvm-mc-15 (Debian's llvm-15) for RDNA.
//  - gfx8/gfx9: every VOP3 opcode (0..1023) and every DS opcode is disassembled with VDST = 10
//    (llvm-mc -disassemble works for gfx8+ only); each one llvm-mc decodes must be a row with
//    its mnemonic and the width of the destination it prints.
//  - gfx6/gfx7: each row's mnemonic is assembled with a destination of the row's width (and
//    source shapes tried in turn); one must assemble to the row's opcode.
//  - gfx10, gfx10.3, gfx11: the same disassembly check over VOP3 (1024), DS (256) and VOP3P
//    (128) opcodes, in one llvm-mc-15 run per generation, and over the 32-bit VOP1/VOP2/VOPC
//    encodings; every row the VOP3/DS/VOP3P one does not reach (VOP1/VOP2 opcodes without a
//    VOP3 form, DS opcodes that need GDS or no address) is assembled with every destination and
//    source shape, and the encodings of its mnemonic must give the row's opcode with the row's
//    width only.
//  - VOP1/VOP2 opcodes map to the VOP3 twins vop3OpcodeOfVop1/2 say, on every generation.
//  - The table is sorted (findVgprOp searches it) and has no duplicate rows.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "reference/vgpr_table.h"
#include "tests/support/llvm_mc.h"

namespace vgpr_table_test {

using gcn::Gen;
using gcn::VgprClass;

std::string cpuOf(Gen gen) {
  return gcntest::mcCpu(gen);
}

// llvm-mc 14 cannot do RDNA (docs/platform.md): those generations use llvm-mc-15.
bool haveTool(Gen gen) {
  return gcn::isRdna(gen) ? gcntest::haveLlvmMc15Tool() : gcntest::haveLlvmMcTool();
}

// gcntest::runLlvmMc picks the generation's tool by its CPU (llvm-mc-15 for gfx10xx/gfx11xx).
std::vector<std::string> runMc(Gen gen, const std::string& flags,
                               const std::vector<std::string>& lines) {
  return gcntest::runLlvmMc(cpuOf(gen), flags, lines);
}

// gcntest::disassembleEach with the generation's tool: the text llvm-mc printed for each
// encoding ("" where it printed nothing or more than one instruction). Fails the test when the
// s_nop 7 markers do not come back one per encoding (the segments would be misattributed).
std::vector<std::string> disassembleEach(Gen gen, const std::vector<std::vector<uint32_t>>& encs) {
  std::vector<std::string> lines;
  for (std::vector<uint32_t> w : encs) {
    w.push_back(0xbf800007u);  // s_nop 7
    lines.push_back(gcntest::mcBytes(w));
  }
  std::vector<std::vector<std::string>> segments(1);
  for (const std::string& l : runMc(gen, "-disassemble", lines)) {
    std::string t = l;
    t.erase(0, t.find_first_not_of(" \t"));
    if (t.empty() || t[0] == '.') continue;
    if (t.rfind("s_nop 7", 0) == 0) {
      segments.emplace_back();
      continue;
    }
    segments.back().push_back(t);
  }
  EXPECT_EQ(segments.size(), encs.size() + 1) << cpuOf(gen) << ": s_nop 7 markers lost";
  std::vector<std::string> out;
  for (std::size_t i = 0; i < encs.size(); ++i)
    out.push_back(i < segments.size() && segments[i].size() == 1 ? segments[i][0] : "");
  return out;
}

// Registers a printed destination operand names: v10 -> 1, v[10:11] -> 2, s/vcc/exec -> 0.
unsigned widthOf(const std::string& op) {
  std::smatch m;
  if (std::regex_match(op, m, std::regex(R"(v\[(\d+):(\d+)\])")))
    return static_cast<unsigned>(std::stoi(m[2]) - std::stoi(m[1]) + 1);
  if (std::regex_match(op, std::regex(R"(v\d+)"))) return 1;
  return 0;
}

// The first operand of llvm-mc's operand text: up to a comma or a modifier ("v10 gds").
std::string firstOperand(const std::string& ops) {
  if (ops.rfind("v[", 0) == 0 || ops.rfind("s[", 0) == 0) return ops.substr(0, ops.find(']') + 1);
  return ops.substr(0, ops.find_first_of(", "));
}

std::string baseMnemonic(std::string m) {
  for (const char* suf : {"_e64", "_e32"})
    if (m.size() > 4 && m.substr(m.size() - 4) == suf) m.resize(m.size() - 4);
  return m;
}

// Whether a printed operand names register `reg` of the kind ("v", "s" or "(v|s)").
bool names(const std::string& op, const std::string& kind, unsigned reg) {
  return std::regex_search(op, std::regex("^" + kind + "\\[?" + std::to_string(reg) + "\\b"));
}

TEST(VgprTable, SortedAndUnique) {
  const auto t = gcn::vgprOpTable();
  ASSERT_GT(t.size(), 1500u);
  for (std::size_t i = 1; i < t.size(); ++i) {
    const auto key = [](const gcn::VgprOpInfo& r) {
      return std::tuple(static_cast<int>(r.gen), static_cast<int>(r.cls), r.opcode);
    };
    EXPECT_LT(key(t[i - 1]), key(t[i])) << t[i].mnemonic;
  }
  const gcn::VgprOpInfo* bfe = gcn::findVgprOp(Gen::Gfx8, VgprClass::Valu, 0x1c9);
  ASSERT_NE(bfe, nullptr);
  EXPECT_EQ(bfe->mnemonic, "v_bfe_i32");
  EXPECT_EQ(gcn::findVgprOp(Gen::Gfx8, VgprClass::Valu, 1023), nullptr);
  // Every generation has VALU and DS rows; VOP3P rows are RDNA's only.
  for (Gen gen : gcn::kAllGens)
    for (VgprClass cls : {VgprClass::Valu, VgprClass::Ds, VgprClass::Vop3p}) {
      std::size_t n = 0;
      for (const gcn::VgprOpInfo& r : t)
        n += r.gen == gen && r.cls == cls;
      if (cls == VgprClass::Vop3p && !gcn::isRdna(gen))
        EXPECT_EQ(n, 0u) << gcn::genName(gen);
      else
        EXPECT_GT(n, 20u) << gcn::genName(gen) << " class " << int(cls);
    }
}

// The encoding of `op` of the class with the operand fields `f` (VALU / VOP3P: VDST, SRC0,
// SRC1, SRC2 as 9-bit codes; DS: VDST, ADDR, DATA0, DATA1). VOP3 is [31:26] = 0x34 with the
// opcode at [25:16] on gfx8/9 and 0x35 on RDNA; RDNA VOP3P is [31:23] = 0x198 with a 7-bit
// opcode at [22:16]; DS is 0x36 with the opcode at [24:17] on gfx8/9 and [25:18] on RDNA.
std::vector<uint32_t> encodingOf(Gen gen, VgprClass cls, unsigned op,
                                 const std::array<unsigned, 4>& f) {
  const bool rdna = gcn::isRdna(gen);
  const uint32_t srcs = f[1] | (f[2] << 9) | (f[3] << 18);
  switch (cls) {
    case VgprClass::Valu:
      return {(rdna ? 0xd4000000u : 0xd0000000u) | (op << 16) | f[0], srcs};
    case VgprClass::Vop3p:
      return {0xcc000000u | (op << 16) | f[0], srcs};
    case VgprClass::Ds:
      break;
  }
  return {0xd8000000u | (op << (rdna ? 18 : 17)), f[1] | (f[2] << 8) | (f[3] << 16) | (f[0] << 24)};
}

using Key = std::pair<VgprClass, unsigned>;  // class, opcode

// Disassembles every opcode of the classes with each field set (one llvm-mc run); a marker
// (s_nop 7) after each instruction splits the output. llvm-mc rejects encodings whose unused
// operand fields are not zero, hence several field sets, most operands first; the first that
// decodes an opcode is the one compared: its row must have llvm-mc's mnemonic and the width of
// the destination it prints. Returns the rows so checked.
std::set<const gcn::VgprOpInfo*> checkDisassembly(Gen gen, const std::vector<VgprClass>& classes) {
  const std::vector<std::array<unsigned, 4>> valu = {
      {10, 276, 286, 296}, {10, 276, 286, 0}, {10, 276, 0, 0}, {10, 0, 0, 0}};
  const std::vector<std::array<unsigned, 4>> ds = {{10, 40, 20, 30}, {10, 40, 20, 0},
                                                   {10, 40, 0, 0},   {0, 40, 20, 30},
                                                   {0, 40, 20, 0},   {0, 40, 0, 0}};
  struct Probe {
    VgprClass cls;
    unsigned op;
    std::array<unsigned, 4> f;
  };
  std::vector<Probe> probes;
  std::vector<std::vector<uint32_t>> encs;
  for (VgprClass cls : classes) {
    const unsigned count = cls == VgprClass::Valu ? 1024 : cls == VgprClass::Ds ? 256 : 128;
    for (const auto& f : cls == VgprClass::Ds ? ds : valu)
      for (unsigned op = 0; op < count; ++op) {
        probes.push_back({cls, op, f});
        encs.push_back(encodingOf(gen, cls, op, f));
      }
  }
  const std::vector<std::string> texts = disassembleEach(gen, encs);
  std::map<Key, std::pair<std::string, unsigned>> found;  // text, VDST written
  for (std::size_t i = 0; i < probes.size() && i < texts.size(); ++i) {
    const auto& [cls, op, f] = probes[i];
    const std::string& text = texts[i];
    if (text.empty() || found.count({cls, op})) continue;
    const std::size_t sp = text.find(' ');
    const std::string mnem = text.substr(0, sp);
    const std::string first = sp == std::string::npos ? "" : firstOperand(text.substr(sp + 1));
    // An instruction of another class (llvm-mc read the second dword alone) names none of our
    // registers first. RDNA v_cmpx_*_e64 have no destination: their first operand is SRC0.
    const bool ours =
        cls == VgprClass::Ds
            ? mnem.rfind("ds_", 0) == 0
            : mnem.rfind("v_", 0) == 0 && (first.empty() || names(first, "(v|s)", f[0]) ||
                                           (gcn::isRdna(gen) && mnem.rfind("v_cmpx_", 0) == 0 &&
                                            f[1] >= 256 && names(first, "v", f[1] - 256)));
    if (ours) found[{cls, op}] = {text, f[0]};
  }
  std::set<const gcn::VgprOpInfo*> checked;
  for (VgprClass cls : classes) {
    std::size_t n = 0;
    for (const auto& [key, tv] : found)
      n += key.first == cls;
    EXPECT_GT(n, cls == VgprClass::Valu ? 300u
                 : cls == VgprClass::Ds ? 100u
                                        : 20u)
        << cpuOf(gen) << " class " << int(cls);
  }
  for (const auto& [key, tv] : found) {
    const auto& [cls, op] = key;
    const auto& [text, vdst] = tv;
    const std::size_t sp = text.find(' ');
    const std::string mnem = text.substr(0, sp);
    const std::string first = sp == std::string::npos ? "" : firstOperand(text.substr(sp + 1));
    const gcn::VgprOpInfo* row = gcn::findVgprOp(gen, cls, op);
    EXPECT_NE(row, nullptr) << cpuOf(gen) << " class " << int(cls) << " opcode " << op
                            << ": llvm-mc decodes '" << text << "', the table has no row";
    if (row == nullptr) continue;
    checked.insert(row);
    EXPECT_EQ(row->mnemonic, baseMnemonic(mnem)) << cpuOf(gen) << " opcode " << op;
    // The destination is the first operand when it names the VDST we wrote.
    const bool hasDst = names(first, "v", vdst);
    EXPECT_EQ(row->dstVgprs, hasDst ? widthOf(first) : 0u) << cpuOf(gen) << " '" << text << "'";
  }
  return checked;
}

TEST(VgprTable, Gfx8AndGfx9RowsAreWhatLlvmMcDisassembles) {
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  for (Gen gen : {Gen::Gfx8, Gen::Gfx9})
    checkDisassembly(gen, {VgprClass::Valu, VgprClass::Ds});
}

// gfx6/7: llvm-mc 14 cannot disassemble them, so each row's mnemonic is assembled with a
// destination of the row's width; some shape must give the row's opcode.
TEST(VgprTable, Gfx6AndGfx7RowsAssembleToTheirOpcodes) {
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  const std::vector<std::string> kinds = {"v", "v2", "v4", "s", "s2"};
  const auto src = [](const std::string& kind, int k) {
    const int a = 20 + 10 * k, b = 60 + 4 * k;
    if (kind == "v") return "v" + std::to_string(a);
    if (kind == "v2") return "v[" + std::to_string(a) + ":" + std::to_string(a + 1) + "]";
    if (kind == "v4") return "v[" + std::to_string(a) + ":" + std::to_string(a + 3) + "]";
    if (kind == "s") return "s" + std::to_string(b);
    return "s[" + std::to_string(b) + ":" + std::to_string(b + 1) + "]";
  };
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7}) {
    std::vector<std::string> lines;
    std::vector<const gcn::VgprOpInfo*> rows;
    for (const gcn::VgprOpInfo& r : gcn::vgprOpTable()) {
      if (r.gen != gen || r.cls != VgprClass::Valu) continue;
      rows.push_back(&r);
      std::vector<std::string> dsts;
      if (r.dstVgprs == 0) dsts = {"s10", "s[10:11]"};
      if (r.dstVgprs == 1) dsts = {"v10", "v10, s[12:13]"};
      if (r.dstVgprs == 2) dsts = {"v[10:11]", "v[10:11], s[12:13]"};
      if (r.dstVgprs == 4) dsts = {"v[10:13]"};
      for (const std::string& d : dsts)
        for (int n = 0; n <= 3; ++n) {
          std::vector<std::size_t> idx(static_cast<std::size_t>(n), 0);
          for (bool more = true; more;) {
            std::string line = std::string(r.mnemonic) + "_e64 " + d;
            for (int k = 0; k < n; ++k)
              line += ", " + src(kinds[idx[static_cast<std::size_t>(k)]], k);
            lines.push_back(line);
            more = false;
            for (int k = n - 1; k >= 0 && !more; --k) {
              auto& i = idx[static_cast<std::size_t>(k)];
              if (++i < kinds.size())
                more = true;
              else
                i = 0;
            }
          }
        }
    }
    const std::vector<std::string> out = gcntest::runLlvmMc(cpuOf(gen), "-show-encoding", lines);
    // mnemonic -> the VOP3 opcodes it assembled to with the row's destination width.
    std::map<std::string, std::set<unsigned>> seen;
    const std::regex enc(
        R"(^\s*(\S+)\s.*encoding: \[0x([0-9a-f]{2}),0x([0-9a-f]{2}),0x([0-9a-f]{2}),0x([0-9a-f]{2}))");
    for (const std::string& l : out) {
      std::smatch m;
      if (!std::regex_search(l, m, enc)) continue;
      const uint32_t w0 = std::stoul(m[2], nullptr, 16) | std::stoul(m[3], nullptr, 16) << 8 |
                          std::stoul(m[4], nullptr, 16) << 16 | std::stoul(m[5], nullptr, 16) << 24;
      if ((w0 >> 26) != 0x34) continue;  // only the VOP3 form names the VOP3 opcode directly
      seen[baseMnemonic(m[1])].insert((w0 >> 17) & 0x1ff);
    }
    unsigned checked = 0;
    for (const gcn::VgprOpInfo* r : rows) {
      const auto it = seen.find(std::string(r->mnemonic));
      if (it == seen.end()) continue;  // only an e32 form exists (v_readlane): not comparable
      ++checked;
      EXPECT_TRUE(it->second.count(r->opcode))
          << cpuOf(gen) << " " << r->mnemonic << " (" << int(r->dstVgprs) << " VGPRs) assembles to "
          << *it->second.begin() << ", the table says " << r->opcode;
    }
    EXPECT_GT(checked, 300u) << cpuOf(gen);
  }
}

// The instructions of llvm-mc -show-encoding output: mnemonic, operand text, little-endian
// dwords of the encoding.
std::vector<std::tuple<std::string, std::string, std::vector<uint32_t>>> encodings(
    const std::vector<std::string>& out) {
  std::vector<std::tuple<std::string, std::string, std::vector<uint32_t>>> result;
  const std::regex enc(R"(^\s*(\S+)\s*(.*?)\s*; encoding: \[(.*)\])");
  for (const std::string& l : out) {
    std::smatch m;
    if (!std::regex_search(l, m, enc)) continue;
    const std::string bytes = m[3];
    std::vector<uint32_t> b, words;
    for (std::size_t pos = 0; (pos = bytes.find("0x", pos)) != std::string::npos; pos += 2)
      b.push_back(static_cast<uint32_t>(std::stoul(bytes.substr(pos + 2, 2), nullptr, 16)));
    for (std::size_t i = 0; i + 3 < b.size(); i += 4)
      words.push_back(b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24);
    if (!words.empty()) result.emplace_back(m[1], m[2], words);
  }
  return result;
}

// An RDNA encoding llvm-mc-15 printed: its class and opcode, and how many VGPRs it writes
// (the printed first operand's, when the encoding's VDST field is the v10 every shape writes).
std::optional<std::pair<Key, unsigned>> decodeRdna(const std::vector<uint32_t>& w,
                                                   const std::string& ops) {
  const uint32_t w0 = w[0];
  std::optional<Key> key;
  std::optional<unsigned> vdst;
  if ((w0 >> 26) == 0x35) {  // VOP3
    key = Key{VgprClass::Valu, (w0 >> 16) & 0x3ff};
    vdst = w0 & 0xff;
  } else if ((w0 >> 23) == 0x198) {  // VOP3P
    key = Key{VgprClass::Vop3p, (w0 >> 16) & 0x7f};
    vdst = w0 & 0xff;
  } else if ((w0 >> 26) == 0x36 && w.size() > 1) {  // DS
    key = Key{VgprClass::Ds, (w0 >> 18) & 0xff};
    vdst = w[1] >> 24;
  } else if ((w0 >> 25) == 0x3f) {  // VOP1 (VOP3 twins checked in Vop3TwinsOfVop1Vop2AndVopc)
    key = Key{VgprClass::Valu, 384 + ((w0 >> 9) & 0xff)};
    vdst = (w0 >> 17) & 0xff;
  } else if ((w0 >> 25) == 0x3e) {  // VOPC: writes VCC
    key = Key{VgprClass::Valu, (w0 >> 17) & 0xff};
  } else if ((w0 >> 31) == 0) {  // VOP2
    key = Key{VgprClass::Valu, 256 + ((w0 >> 25) & 0x3f)};
    vdst = (w0 >> 17) & 0xff;
  }
  if (!key) return std::nullopt;
  return std::pair(*key, vdst == 10u ? widthOf(firstOperand(ops)) : 0u);
}

// The rows the disassembly check cannot reach: their mnemonics are assembled with every
// destination (VGPRs, SGPRs, none) and source shape; the encodings llvm-mc-15 gives for the
// mnemonic must include the row's opcode, and all of those have the row's width.
void checkRowsAssemble(Gen gen, const std::vector<const gcn::VgprOpInfo*>& rows) {
  const auto src = [](const std::string& kind, int k) {
    const int a = 20 + 10 * k, b = 60 + 4 * k;
    if (kind == "i") return std::string("0");
    if (kind == "s") return "s" + std::to_string(b);
    if (kind == "v") return "v" + std::to_string(a);
    const int n = std::stoi(kind.substr(1));
    return "v[" + std::to_string(a) + ":" + std::to_string(a + n - 1) + "]";
  };
  // Every source list of up to three operands of the kinds.
  const auto sourceLists = [&](const std::vector<std::string>& kinds) {
    std::vector<std::string> lists = {""};
    for (std::size_t n = 1, from = 0; n <= 3; ++n) {
      const std::size_t to = lists.size();
      for (std::size_t i = from; i < to; ++i)
        for (const std::string& kd : kinds)
          lists.push_back(lists[i] + ", " + src(kd, static_cast<int>(n - 1)));
      from = to;
    }
    return lists;
  };
  const std::vector<std::string> valuSources = sourceLists({"v", "v2", "s", "i"});
  const std::vector<std::string> dsSources = sourceLists({"v", "v2", "v4"});
  std::vector<std::string> lines;
  for (const gcn::VgprOpInfo* r : rows) {
    const std::string m(r->mnemonic);
    lines.push_back(m);
    if (r->cls == VgprClass::Ds) {
      for (const char* first : {"v10", "v[10:11]", "v[10:12]", "v[10:13]"})
        for (const std::string& s : dsSources)
          for (const char* gds : {"", " gds"})
            lines.push_back(m + " " + first + s + gds);
      continue;
    }
    for (const char* dst : {"v10", "v[10:11]", "v[10:13]", "v[10:17]", "s10", "s[10:11]",
                            "v10, s12", "v[10:11], s12"})
      for (const std::string& s : valuSources)
        lines.push_back(m + " " + dst + s);
  }
  // mnemonic -> opcode -> the widths its encodings write
  std::map<std::string, std::map<Key, std::set<unsigned>>> seen;
  for (const auto& [mnem, ops, words] : encodings(runMc(gen, "-show-encoding", lines)))
    if (const auto got = decodeRdna(words, ops))
      seen[baseMnemonic(mnem)][got->first].insert(got->second);
  for (const gcn::VgprOpInfo* r : rows) {
    const auto& ops = seen[std::string(r->mnemonic)];
    const auto it = ops.find({r->cls, r->opcode});
    EXPECT_TRUE(it != ops.end()) << cpuOf(gen) << " " << r->mnemonic << " assembles to no class "
                                 << int(r->cls) << " opcode " << r->opcode;
    if (it == ops.end()) continue;
    EXPECT_EQ(it->second, std::set<unsigned>{r->dstVgprs})
        << cpuOf(gen) << " " << r->mnemonic << ": widths llvm-mc-15 gives vs the row's "
        << int(r->dstVgprs);
  }
}

// Every VOP1 / VOP2 / VOPC opcode in its 32-bit encoding (VDST v10, SRC0 v20 or a literal,
// VSRC1 v30), disassembled with -show-encoding so that each instruction printed carries its own
// words (a literal-taking v_fmamk_f32 cannot misalign anything): each one that is ours must be
// a row with llvm-mc-15's mnemonic and width. This reaches the opcodes without a VOP3 form.
void checkVop32Disassembly(Gen gen) {
  std::map<uint32_t, unsigned> probes;  // first dword -> its VOP3-space opcode
  std::vector<std::string> lines;
  for (const uint32_t src0 : {276u, 255u}) {
    const auto add = [&](uint32_t w0, unsigned vop3) {
      probes[w0] = vop3;
      std::vector<uint32_t> w = {w0};
      if (src0 == 255) w.push_back(0x3f800000u);  // the literal
      w.push_back(0xbf800007u);                   // s_nop 7
      lines.push_back(gcntest::mcBytes(w));
    };
    for (unsigned n = 0; n < 256; ++n) {
      add(0x7e000000u | (10u << 17) | (n << 9) | src0, 384 + n);  // VOP1
      add(0x7c000000u | (n << 17) | (30u << 9) | src0, n);        // VOPC
      // VOP2 opcodes 62 and 63 are the VOPC and VOP1 encodings.
      if (n < 62) add((n << 25) | (10u << 17) | (30u << 9) | src0, 256 + n);
    }
  }
  std::set<unsigned> decoded;
  for (const auto& [mnem, ops, words] :
       encodings(runMc(gen, "-disassemble -show-encoding", lines))) {
    const auto probe = probes.find(words[0]);
    if (probe == probes.end() || mnem.rfind("v_", 0) != 0) continue;
    const auto got = decodeRdna(words, ops);
    ASSERT_TRUE(got.has_value()) << mnem;
    EXPECT_EQ(got->first, (Key{VgprClass::Valu, probe->second})) << cpuOf(gen) << " " << mnem;
    decoded.insert(probe->second);
    const gcn::VgprOpInfo* row = gcn::findVgprOp(gen, VgprClass::Valu, probe->second);
    EXPECT_NE(row, nullptr) << cpuOf(gen) << " opcode " << probe->second << ": llvm-mc decodes '"
                            << mnem << " " << ops << "', the table has no row";
    if (row == nullptr) continue;
    EXPECT_EQ(row->mnemonic, baseMnemonic(mnem)) << cpuOf(gen) << " opcode " << probe->second;
    EXPECT_EQ(row->dstVgprs, got->second) << cpuOf(gen) << " '" << mnem << " " << ops << "'";
  }
  EXPECT_GT(decoded.size(), 250u) << cpuOf(gen);
}

// gfx10 / gfx10.3 / gfx11 against llvm-mc-15: every opcode its disassembler decodes is a row
// with its mnemonic and width, and every other row assembles to its opcode with its width.
void checkRdna(Gen gen) {
  checkVop32Disassembly(gen);
  const std::set<const gcn::VgprOpInfo*> disassembled =
      checkDisassembly(gen, {VgprClass::Valu, VgprClass::Ds, VgprClass::Vop3p});
  std::vector<const gcn::VgprOpInfo*> rest;
  std::size_t rows = 0;
  for (const gcn::VgprOpInfo& r : gcn::vgprOpTable()) {
    if (r.gen != gen) continue;
    ++rows;
    if (!disassembled.count(&r)) rest.push_back(&r);
  }
  EXPECT_GT(rows, 550u) << cpuOf(gen);
  EXPECT_LT(rest.size(), 80u) << cpuOf(gen) << ": few rows should need the assembly check";
  checkRowsAssemble(gen, rest);
}

TEST(VgprTable, Gfx10RowsAreWhatLlvmMc15Knows) {
  if (!haveTool(Gen::Gfx10)) GTEST_SKIP() << "llvm-mc-15 not found (Debian package llvm-15)";
  checkRdna(Gen::Gfx10);
}

TEST(VgprTable, Gfx10_3RowsAreWhatLlvmMc15Knows) {
  if (!haveTool(Gen::Gfx10_3)) GTEST_SKIP() << "llvm-mc-15 not found (Debian package llvm-15)";
  checkRdna(Gen::Gfx10_3);
}

TEST(VgprTable, Gfx11RowsAreWhatLlvmMc15Knows) {
  if (!haveTool(Gen::Gfx11)) GTEST_SKIP() << "llvm-mc-15 not found (Debian package llvm-15)";
  checkRdna(Gen::Gfx11);
}

// vop3OpcodeOfVop1/2: the VOP3 (_e64) form of a VOP1 / VOP2 instruction has the opcode they
// give for its 32-bit (_e32) form's, per llvm-mc on every generation; VOPC keeps its number.
TEST(VgprTable, Vop3TwinsOfVop1Vop2AndVopc) {
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  for (Gen gen : gcn::kAllGens) {
    if (!haveTool(gen)) continue;  // RDNA without llvm-mc-15: the GCN ones still count
    const std::string vcc = gcn::isRdna(gen) ? "vcc_lo" : "vcc";
    const std::string sdst = gcn::isRdna(gen) ? "s10" : "s[10:11]";
    const std::vector<std::string> lines = {"v_mov_b32_e32 v10, v20",
                                            "v_mov_b32_e64 v10, v20",
                                            "v_cvt_f32_i32_e32 v10, v20",
                                            "v_cvt_f32_i32_e64 v10, v20",
                                            "v_rcp_f64_e32 v[10:11], v[20:21]",
                                            "v_rcp_f64_e64 v[10:11], v[20:21]",
                                            "v_mul_f32_e32 v10, v20, v30",
                                            "v_mul_f32_e64 v10, v20, v30",
                                            "v_and_b32_e32 v10, v20, v30",
                                            "v_and_b32_e64 v10, v20, v30",
                                            "v_cmp_lt_f32_e32 " + vcc + ", v20, v30",
                                            "v_cmp_lt_f32_e64 " + sdst + ", v20, v30"};
    std::vector<uint32_t> w0s;
    const std::regex enc(
        R"(encoding: \[0x([0-9a-f]{2}),0x([0-9a-f]{2}),0x([0-9a-f]{2}),0x([0-9a-f]{2}))");
    for (const std::string& l : runMc(gen, "-show-encoding", lines)) {
      std::smatch m;
      if (!std::regex_search(l, m, enc)) continue;
      w0s.push_back(std::stoul(m[1], nullptr, 16) | std::stoul(m[2], nullptr, 16) << 8 |
                    std::stoul(m[3], nullptr, 16) << 16 | std::stoul(m[4], nullptr, 16) << 24);
    }
    ASSERT_EQ(w0s.size(), lines.size()) << cpuOf(gen);
    const auto vop3 = [&](uint32_t w) {
      return gen <= Gen::Gfx7 ? (w >> 17) & 0x1ff : (w >> 16) & 0x3ff;
    };
    for (std::size_t i = 0; i < 6; i += 2)
      EXPECT_EQ(gcn::vop3OpcodeOfVop1(gen, (w0s[i] >> 9) & 0xff), vop3(w0s[i + 1]))
          << cpuOf(gen) << " " << lines[i];
    for (std::size_t i = 6; i < 10; i += 2)
      EXPECT_EQ(gcn::vop3OpcodeOfVop2((w0s[i] >> 25) & 0x3f), vop3(w0s[i + 1]))
          << cpuOf(gen) << " " << lines[i];
    EXPECT_EQ((w0s[10] >> 17) & 0xff, vop3(w0s[11])) << cpuOf(gen) << " " << lines[10];
  }
}

// The behaviour column at opcodes the GCN ISA manuals give (AMD's Southern Islands, Sea Islands,
// GCN3 and Vega guides: VOP1 n is VOP3 384 + n on gfx6/7 and 320 + n on gfx8/9, VOP2 n is
// 256 + n, VOPC keeps its number; DS opcodes as listed), not at the generator's names: a
// behaviour on the wrong row, or a row its rules missed, fails here.
TEST(VgprTable, BehaviourIsAtTheManualsOpcodes) {
  using B = gcn::VgprBehaviour;
  struct Golden {
    VgprClass cls;
    unsigned gfx6, gfx8;  // opcode on gfx6/gfx7 and on gfx8/gfx9; 999: none there
    B behaviour;
  };
  constexpr unsigned kNone = 999;
  const Golden golden[] = {
      {VgprClass::Valu, 385, 321, B::Mov},             // VOP1 1 v_mov_b32
      {VgprClass::Valu, 257, 649, B::Readlane},        // v_readlane_b32 (gfx8+: VOP3 only)
      {VgprClass::Valu, 197, 205, B::CompareNe},       // v_cmp_ne_u32
      {VgprClass::Valu, 133, 197, B::CompareNe},       // v_cmp_ne_i32
      {VgprClass::Valu, 193, 201, B::CompareLtU32},    // v_cmp_lt_u32
      {VgprClass::Valu, 196, 204, B::CompareGtU32},    // v_cmp_gt_u32
      {VgprClass::Valu, 213, 221, B::CompareXNe},      // v_cmpx_ne_u32
      {VgprClass::Valu, 0, 64, B::CompareOther},       // v_cmp_f_f32
      {VgprClass::Valu, 16, 80, B::CompareXOther},     // v_cmpx_f_f32
      {VgprClass::Valu, 136, 16, B::CompareOther},     // v_cmp_class_f32
      {VgprClass::Valu, 152, 17, B::CompareXOther},    // v_cmpx_class_f32
      {VgprClass::Valu, 80, kNone, B::CompareXOther},  // v_cmpsx_f_f32 (gfx6/7 only)
      {VgprClass::Valu, 64, kNone, B::CompareOther},   // v_cmps_f_f32
      {VgprClass::Valu, 354, kNone, B::Shift64},       // v_lshr_b64
      {VgprClass::Valu, 355, kNone, B::Shift64},       // v_ashr_i64
      {VgprClass::Valu, kNone, 656, B::Shift64Rev},    // v_lshrrev_b64
      {VgprClass::Valu, kNone, 657, B::Shift64Rev},    // v_ashrrev_i64
      {VgprClass::Valu, 450, kNone, B::MovRel},        // VOP1 66 v_movreld_b32 (gfx8: below)
      {VgprClass::Valu, 256 + 3, 256 + 1, B::None},    // VOP2 v_add_f32
      {VgprClass::Ds, 54, 54, B::DsRead},              // ds_read_b32
      {VgprClass::Ds, 14, 14, B::DsTwoData},           // ds_write2_b32
      {VgprClass::Ds, 16, 16, B::DsTwoData},           // ds_cmpst_b32
      {VgprClass::Ds, 12, 12, B::DsTwoData},           // ds_mskor_b32
      {VgprClass::Ds, 13, 13, B::None},                // ds_write_b32
      {VgprClass::Ds, 0, 0, B::None},                  // ds_add_u32
  };
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9}) {
    for (const Golden& g : golden) {
      const unsigned op = gen <= Gen::Gfx7 ? g.gfx6 : g.gfx8;
      if (op == kNone) continue;
      const gcn::VgprOpInfo* row = gcn::findVgprOp(gen, g.cls, op);
      ASSERT_NE(row, nullptr) << gcn::genName(gen) << " opcode " << op;
      EXPECT_EQ(row->behaviour, g.behaviour) << gcn::genName(gen) << " " << row->mnemonic;
    }
  }
  // gfx8's v_movreld_b32 is VOP1 54. llvm-mc 14 does not assemble it for gfx9, so the table has
  // no gfx9 row for it (an opcode the table lacks counts as writing any VGPR).
  const gcn::VgprOpInfo* movreld = gcn::findVgprOp(Gen::Gfx8, VgprClass::Valu, 320 + 54);
  ASSERT_NE(movreld, nullptr);
  EXPECT_EQ(movreld->behaviour, B::MovRel) << movreld->mnemonic;
  // v_swap_b32 is gfx9's (VOP1 81).
  const gcn::VgprOpInfo* swap = gcn::findVgprOp(Gen::Gfx9, VgprClass::Valu, 320 + 81);
  ASSERT_NE(swap, nullptr);
  EXPECT_EQ(swap->behaviour, B::Swap) << swap->mnemonic;
}

}  // namespace vgpr_table_test
