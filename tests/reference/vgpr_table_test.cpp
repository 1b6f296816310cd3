// reference/vgpr_table.inc against llvm-mc 14, the independent oracle it was generated from:
//  - gfx8/gfx9: every VOP3 opcode (0..1023) and every DS opcode is disassembled with VDST = 10
//    (llvm-mc -disassemble works for gfx8+ only); each one llvm-mc decodes must be a row with
//    its mnemonic and the width of the destination it prints.
//  - gfx6/gfx7: each row's mnemonic is assembled with a destination of the row's width (and
//    source shapes tried in turn); one must assemble to the row's opcode.
//  - The table is sorted (findVgprOp searches it) and has no duplicate rows.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "reference/vgpr_table.h"
#include "tests/support/llvm_mc.h"

namespace {

using gcn::Gen;
using gcn::VgprClass;

std::string cpuOf(Gen gen) {
  return gcntest::mcCpu(gen);
}

// Registers a printed destination operand names: v10 -> 1, v[10:11] -> 2, s/vcc/exec -> 0.
unsigned widthOf(const std::string& op) {
  std::smatch m;
  if (std::regex_match(op, m, std::regex(R"(v\[(\d+):(\d+)\])")))
    return static_cast<unsigned>(std::stoi(m[2]) - std::stoi(m[1]) + 1);
  if (std::regex_match(op, std::regex(R"(v\d+)"))) return 1;
  return 0;
}

std::string firstOperand(const std::string& ops) {
  if (ops.rfind("v[", 0) == 0 || ops.rfind("s[", 0) == 0) return ops.substr(0, ops.find(']') + 1);
  return ops.substr(0, ops.find(','));
}

std::string baseMnemonic(std::string m) {
  for (const char* suf : {"_e64", "_e32"})
    if (m.size() > 4 && m.substr(m.size() - 4) == suf) m.resize(m.size() - 4);
  return m;
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
}

// Disassembles every opcode of the class with the operand fields of `fields` (VALU: VDST,
// SRC0, SRC1, SRC2 as 9-bit codes; DS: VDST, ADDR, DATA0, DATA1); a marker (s_nop 7) after
// each instruction splits the output. llvm-mc rejects encodings whose unused operand fields are
// not zero, so the caller tries several field sets. Returns opcode -> the decoded text.
std::map<unsigned, std::string> disassembleAll(Gen gen, VgprClass cls,
                                               const std::array<unsigned, 4>& f) {
  const unsigned count = cls == VgprClass::Valu ? 1024 : 256;
  std::vector<std::vector<uint32_t>> encs;
  for (unsigned op = 0; op < count; ++op) {
    if (cls == VgprClass::Valu)
      encs.push_back({0xd0000000u | (op << 16) | f[0], f[1] | (f[2] << 9) | (f[3] << 18)});
    else
      encs.push_back({0xd8000000u | (op << 17), f[1] | (f[2] << 8) | (f[3] << 16) | (f[0] << 24)});
  }
  const std::vector<std::string> texts = gcntest::disassembleEach(cpuOf(gen), encs);
  std::map<unsigned, std::string> decoded;
  const std::string dst = "v" + std::to_string(f[0]);
  for (unsigned op = 0; op < count; ++op) {
    if (texts[op].empty()) continue;
    const std::string& text = texts[op];
    const std::size_t sp = text.find(' ');
    const std::string mnem = text.substr(0, sp);
    const std::string first = sp == std::string::npos ? "" : firstOperand(text.substr(sp + 1));
    const bool ours =
        cls == VgprClass::Ds
            ? mnem.rfind("ds_", 0) == 0
            : mnem.rfind("v_", 0) == 0 &&
                  (first.empty() ||
                   std::regex_search(first,
                                     std::regex("^(v|s)\\[?" + std::to_string(f[0]) + "\\b")));
    if (ours) decoded[op] = text;
  }
  return decoded;
}

void checkDisassembly(Gen gen, VgprClass cls) {
  // Field sets, most operands first; the first that decodes an opcode is the one compared.
  const std::vector<std::array<unsigned, 4>> valu = {
      {10, 276, 286, 296}, {10, 276, 286, 0}, {10, 276, 0, 0}, {10, 0, 0, 0}};
  const std::vector<std::array<unsigned, 4>> ds = {{10, 40, 20, 30}, {10, 40, 20, 0},
                                                   {10, 40, 0, 0},   {0, 40, 20, 30},
                                                   {0, 40, 20, 0},   {0, 40, 0, 0}};
  std::map<unsigned, std::pair<std::string, unsigned>> found;  // op -> text, VDST written
  for (const auto& f : cls == VgprClass::Valu ? valu : ds)
    for (const auto& [op, text] : disassembleAll(gen, cls, f))
      if (!found.count(op)) found[op] = {text, f[0]};
  EXPECT_GT(found.size(), cls == VgprClass::Valu ? 300u : 100u) << cpuOf(gen);
  for (const auto& [op, tv] : found) {
    const auto& [text, vdst] = tv;
    const std::size_t sp = text.find(' ');
    const std::string mnem = text.substr(0, sp);
    const std::string first = sp == std::string::npos ? "" : firstOperand(text.substr(sp + 1));
    const gcn::VgprOpInfo* row = gcn::findVgprOp(gen, cls, op);
    ASSERT_NE(row, nullptr) << cpuOf(gen) << " opcode " << op << ": llvm-mc decodes '" << text
                            << "', the table has no row";
    EXPECT_EQ(row->mnemonic, baseMnemonic(mnem)) << cpuOf(gen) << " opcode " << op;
    // The destination is the first operand when it names the VDST we wrote.
    const bool hasDst =
        std::regex_search(first, std::regex("^v\\[?" + std::to_string(vdst) + "\\b"));
    EXPECT_EQ(row->dstVgprs, hasDst ? widthOf(first) : 0u) << cpuOf(gen) << " '" << text << "'";
  }
}

TEST(VgprTable, Gfx8AndGfx9RowsAreWhatLlvmMcDisassembles) {
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  for (Gen gen : {Gen::Gfx8, Gen::Gfx9})
    for (VgprClass cls : {VgprClass::Valu, VgprClass::Ds})
      checkDisassembly(gen, cls);
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

}  // namespace
