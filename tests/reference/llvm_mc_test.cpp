// llvm-mc as the independent oracle: llvm-mc 14 (Debian's llvm package; -disassemble works for
// gfx8+ only) for GCN, llvm-mc-15 (Debian's llvm-15) for GFX10, GFX10.3 and GFX11, which LLVM 14
// only partly knows (docs/platform.md). One llvm-mc run per generation and question, over a temp
// file.
//  1. Every opcode of every generation plus a fixed-seed random sample of operands and
//     modifiers: printInstruction's text, assembled by llvm-mc, gives encode()'s bytes.
//  2. gfx8/gfx9: llvm-mc -disassemble of those bytes reads back (parseInstruction) to the
//     same instruction as decode().
//  3. Mnemonics: every table mnemonic and a list of known extra buffer mnemonics is tried on
//     every CPU; llvm-mc must accept exactly the table's (mnemonic, generation) pairs.
// Known, documented exceptions (docs/rdna.md lists the RDNA ones):
//  - buffer_atomic_rsub(_x2) on gfx6 (CLRX, docs/gcn-facts.md), which LLVM lists only as a
//    commented-out FIXME-GFX6 entry in BUFInstructions.td;
//  - llvm-mc 15 accepts buffer_wbinvl1 on every RDNA target and gives it BUFFER_GL0_INV's GFX10
//    word (0xe1c40000, even on gfx11), and its disassembler prints that word as buffer_wbinvl1:
//    the instruction is gone from GFX10 on, so the table has it on GCN only;
//  - GFX11's loads to LDS (buffer_load_lds_*), which the table does not model yet.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "reference/assembler.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/opcodes.h"
#include "tests/support/random_instruction.h"

namespace llvm_mc_test {

using gcn::Gen;

const char* cpuOf(Gen gen) {
  switch (gen) {
    case Gen::Gfx6:
      return "tahiti";
    case Gen::Gfx7:
      return "bonaire";
    case Gen::Gfx8:
      return "tonga";
    case Gen::Gfx9:
      return "gfx900";
    case Gen::Gfx10:
      return "gfx1010";
    case Gen::Gfx10_3:
      return "gfx1030";
    case Gen::Gfx11:
      return "gfx1100";
  }
  return "";
}

const char* toolOf(Gen gen) {
  return gcn::isRdna(gen) ? "llvm-mc-15" : "llvm-mc";
}

bool haveLlvmMc(Gen gen) {
  return std::system((std::string(toolOf(gen)) + " --version >/dev/null 2>&1").c_str()) == 0;
}

// In the table on the generation, but llvm-mc rejects it there.
bool isKnownLlvmGap(std::string_view mnemonic, Gen gen) {
  return gen == Gen::Gfx6 &&
         (mnemonic == "buffer_atomic_rsub" || mnemonic == "buffer_atomic_rsub_x2");
}

// Not in the table on the generation, but llvm-mc accepts it there.
bool isKnownLlvmExtra(std::string_view mnemonic, Gen gen) {
  if (gcn::isRdna(gen) && mnemonic == "buffer_wbinvl1") return true;
  constexpr std::string_view kGfx11LdsLoads[] = {"buffer_load_lds_u8",  "buffer_load_lds_i8",
                                                 "buffer_load_lds_u16", "buffer_load_lds_i16",
                                                 "buffer_load_lds_b32", "buffer_load_lds_format_x"};
  return gen == Gen::Gfx11 && std::find(std::begin(kGfx11LdsLoads), std::end(kGfx11LdsLoads),
                                        mnemonic) != std::end(kGfx11LdsLoads);
}

struct McResult {
  std::vector<std::string> out;       // stdout lines
  std::map<int, std::string> errors;  // input line (1-based) -> message
};

// Runs llvm-mc over `lines` (one input line each) with extra `flags`.
McResult runMc(Gen gen, const std::string& flags, const std::vector<std::string>& lines) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string stem =
      "gcnprobe_llvm_mc_" + std::to_string(::getpid()) + "_" + std::string(gcn::genName(gen));
  const auto in = dir / (stem + ".s");
  const auto err = dir / (stem + ".err");
  {
    std::ofstream f(in);
    for (const std::string& l : lines)
      f << l << "\n";
  }
  const std::string cmd = std::string(toolOf(gen)) +
                          " -arch=amdgcn -mcpu=" + std::string(cpuOf(gen)) + " " + flags + " " +
                          in.string() + " 2>" + err.string();
  McResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::string current;
  char buf[4096];
  while (fgets(buf, sizeof buf, p) != nullptr) {
    current += buf;
    if (!current.empty() && current.back() == '\n') {
      current.pop_back();
      r.out.push_back(current);
      current.clear();
    }
  }
  pclose(p);
  std::ifstream e(err);
  const std::regex re(R"(^.*\.s:(\d+):\d+: error: (.*)$)");
  for (std::string line; std::getline(e, line);) {
    std::smatch m;
    if (std::regex_match(line, m, re)) r.errors[std::stoi(m[1])] = m[2];
  }
  std::filesystem::remove(in);
  std::filesystem::remove(err);
  return r;
}

// llvm-mc 14 does not count TFE's extra VDATA register (measured: `buffer_load_dword v[1:2],
// off, s[4:7], 0 tfe` is rejected, `v1 ... tfe` accepted). The canonical text names it; for
// llvm-mc drop it from the first operand.
std::string llvm14Text(Gen gen, const gcn::Instruction& inst) {
  std::string text = gcn::printInstruction(gen, inst);
  if (!inst.tfe) return text;
  const unsigned n = gcn::vdataRegs(*inst.op, gcn::representativeChip(gen), false);
  const size_t start = text.find(' ') + 1;
  const size_t comma = text.find(',');
  const std::string reg =
      n == 1 ? "v" + std::to_string(inst.vdata)
             : "v[" + std::to_string(inst.vdata) + ":" + std::to_string(inst.vdata + n - 1) + "]";
  return text.substr(0, start) + reg + text.substr(comma);
}

std::vector<gcn::Instruction> sample(Gen gen) {
  std::mt19937 rng(0x6c6c766d + static_cast<unsigned>(gen));
  std::vector<gcn::Instruction> out;
  for (const gcn::OpcodeInfo* op : gcntest::opcodesOn(gen)) {
    if (isKnownLlvmGap(op->mnemonic, gen)) continue;
    gcn::Instruction plain;
    plain.op = op;
    if (op->ldsData) plain.lds = true;
    if (op->atomic == gcn::AtomicOp::Csub) plain.glc = true;
    if (op->kind != gcn::OpKind::Cache) plain.srsrc = 4;
    out.push_back(plain);
    for (int i = 0; i < 40; ++i)
      out.push_back(gcntest::randomInstruction(gen, *op, rng));
  }
  return out;
}

std::array<uint32_t, 2> wordsFromBytes(const std::string& line, bool& ok) {
  // "...; encoding: [0x00,0x00,0x50,0xe0,0x00,0x01,0x01,0x80]"
  std::array<uint32_t, 2> w{0, 0};
  const size_t open = line.find("encoding: [");
  ok = open != std::string::npos;
  if (!ok) return w;
  std::stringstream ss(line.substr(open + 11));
  for (int i = 0; i < 8; ++i) {
    std::string byte;
    if (!std::getline(ss, byte, i == 7 ? ']' : ',')) {
      ok = false;
      return w;
    }
    w[i / 4] |= static_cast<uint32_t>(std::stoul(byte, nullptr, 16)) << (8 * (i % 4));
  }
  return w;
}

class LlvmMc : public ::testing::TestWithParam<Gen> {
 protected:
  void SetUp() override {
    if (!haveLlvmMc(GetParam()))
      GTEST_SKIP() << toolOf(GetParam()) << " not found (Debian package "
                   << (gcn::isRdna(GetParam()) ? "llvm-15" : "llvm") << ")";
  }
};

TEST_P(LlvmMc, EncodingEqualsLlvmMc) {
  const Gen gen = GetParam();
  const std::vector<gcn::Instruction> insts = sample(gen);
  std::vector<std::string> lines;
  for (const auto& inst : insts)
    lines.push_back(llvm14Text(gen, inst));
  const McResult r = runMc(gen, "-show-encoding", lines);
  for (const auto& [line, msg] : r.errors)
    ADD_FAILURE() << gcn::genName(gen) << ": llvm-mc rejects '" << lines[line - 1] << "': " << msg;
  size_t next = 0;  // stdout encodings come in input order, skipping rejected lines
  size_t compared = 0;
  for (const std::string& out : r.out) {
    bool ok = false;
    const auto w = wordsFromBytes(out, ok);
    if (!ok) continue;
    while (r.errors.count(static_cast<int>(next) + 1))
      ++next;
    ASSERT_LT(next, insts.size());
    const auto mine = gcn::encode(gen, insts[next]);
    EXPECT_EQ(mine, w) << gcn::genName(gen) << ": " << lines[next] << "\n llvm-mc: " << out;
    ++next;
    ++compared;
  }
  EXPECT_EQ(compared + r.errors.size(), insts.size());
  EXPECT_GT(compared, 1000u);
}

TEST_P(LlvmMc, DisassemblerAgreesWithDecoder) {
  const Gen gen = GetParam();
  if (gen <= Gen::Gfx7)
    GTEST_SKIP() << "llvm-mc 14 cannot disassemble gfx6/gfx7 (docs/platform.md)";
  const std::vector<gcn::Instruction> insts = sample(gen);
  std::vector<std::string> lines;
  for (const auto& inst : insts) {
    const auto w = gcn::encode(gen, inst);
    char buf[128];
    std::snprintf(buf, sizeof buf, "0x%02x,0x%02x,0x%02x,0x%02x,0x%02x,0x%02x,0x%02x,0x%02x",
                  w[0] & 0xff, (w[0] >> 8) & 0xff, (w[0] >> 16) & 0xff, w[0] >> 24, w[1] & 0xff,
                  (w[1] >> 8) & 0xff, (w[1] >> 16) & 0xff, w[1] >> 24);
    lines.push_back(buf);
  }
  const McResult r = runMc(gen, "-disassemble", lines);
  EXPECT_TRUE(r.errors.empty()) << r.errors.size() << " words rejected, first: "
                                << (r.errors.empty() ? "" : r.errors.begin()->second);
  std::vector<std::string> texts;
  for (const std::string& out : r.out) {
    const size_t start = out.find_first_not_of(" \t");
    if (start == std::string::npos || out[start] == '.') continue;  // ".text"
    texts.push_back(out.substr(start));
  }
  ASSERT_EQ(texts.size(), insts.size());
  for (size_t i = 0; i < insts.size(); ++i) {
    const auto w = gcn::encode(gen, insts[i]);
    if (gcn::isRdna(gen) && texts[i] == "buffer_wbinvl1" &&
        insts[i].op->mnemonic == "buffer_gl0_inv")
      continue;  // llvm-mc 15's disassembler names GL0_INV's word buffer_wbinvl1 (see above)
    gcn::Instruction parsed;
    try {
      parsed = gcn::parseInstruction(gen, texts[i]);
    } catch (const gcn::Error& e) {
      ADD_FAILURE() << "cannot parse llvm-mc's '" << texts[i] << "': " << e.what();
      continue;
    }
    EXPECT_EQ(parsed, gcn::decode(gen, w[0], w[1])) << texts[i] << " vs " << lines[i];
    EXPECT_EQ(parsed, insts[i]) << texts[i];
  }
}

// GFX10+: every unified FORMAT code 0..127 in a tbuffer_load_format_x word, disassembled by
// llvm-mc 15, prints as our printInstruction prints it (LLVM's symbolic names for the named
// codes, the number for the others, nothing for LLVM's default code 1).
TEST_P(LlvmMc, UnifiedFormatNamesAreLlvmMcs) {
  const Gen gen = GetParam();
  if (gcn::isGcn(gen)) GTEST_SKIP() << "GCN MTBUF has DFMT/NFMT, no unified format";
  std::vector<std::string> lines;
  std::vector<std::string> mine;
  for (unsigned code = 0; code < 128; ++code) {
    gcn::Instruction inst;
    inst.op = gcn::findOpcode("tbuffer_load_format_x");
    inst.srsrc = 4;
    inst.vdata = 1;
    inst.format = static_cast<uint8_t>(code);
    const auto w = gcn::encode(gen, inst);
    std::string bytes;
    for (int i = 0; i < 8; ++i) {
      char b[8];
      std::snprintf(b, sizeof b, "%s0x%02x", i ? "," : "", (w[i / 4] >> (8 * (i % 4))) & 0xff);
      bytes += b;
    }
    lines.push_back(bytes);
    std::string text = gcn::printInstruction(gen, inst);
    // llvm-mc leaves out its default format (code 1).
    if (code == gcn::kDefaultUnifiedFormat) text.erase(text.find(" format:"));
    mine.push_back(text);
  }
  const McResult r = runMc(gen, "-disassemble", lines);
  EXPECT_TRUE(r.errors.empty()) << r.errors.size() << " words rejected";
  std::vector<std::string> texts;
  for (const std::string& out : r.out) {
    const size_t start = out.find_first_not_of(" \t");
    if (start == std::string::npos || out[start] == '.') continue;
    texts.push_back(out.substr(start));
  }
  ASSERT_EQ(texts.size(), mine.size());
  for (size_t i = 0; i < texts.size(); ++i)
    EXPECT_EQ(texts[i], mine[i]) << "format code " << i << " on " << gcn::genName(gen);
}

// Buffer mnemonics LLVM knows for other targets or spellings (gfx90a+, gfx12, CLRX names, GFX11's
// loads to LDS): none may be accepted on a generation unless the table has it there.
constexpr const char* kExtraMnemonics[] = {
    "buffer_load_lds_u8",
    "buffer_load_lds_i8",
    "buffer_load_lds_u16",
    "buffer_load_lds_i16",
    "buffer_load_lds_b32",
    "buffer_load_lds_format_x",
    "buffer_atomic_cmpswap_f64",
    "buffer_atomic_fcmpswap_f64",
    "buffer_atomic_pk_add_f16",
    "buffer_atomic_add_f64",
    "buffer_atomic_min_f64",
    "buffer_atomic_max_f64",
    "buffer_atomic_fadd",
    "buffer_atomic_fadd_x2",
    "buffer_atomic_fcmpswap_f32",
    "buffer_wbl2",
    "buffer_invl2",
    "buffer_inv",
    "buffer_load_lds_dword",
    "buffer_load_lds_ubyte",
    "buffer_load_lds_sbyte",
    "buffer_load_lds_ushort",
    "buffer_load_lds_sshort",
    "buffer_load_lds_format_x",
    "buffer_load_dword_lds",
    "buffer_store_lds_ubyte",
    "tbuffer_load_format_d16_hi_x",
    "tbuffer_store_format_d16_hi_x",
    "buffer_load_sbyte_d16_x",
    "buffer_atomic_umin_x4",
    "buffer_load_dwordx8",
    "buffer_store_dwordx8",
    "buffer_atomic_cond_sub_u32",
    "buffer_wbinvl1_sc_vol",
    "buffer_atomic_sub_clamp",
    "buffer_load_format_d16_hi_xy",
    "buffer_load_short",
};

constexpr const char* kShapes[] = {
    "",
    " v1, off, s[4:7], 0",
    " v[1:2], off, s[4:7], 0",
    " v[1:3], off, s[4:7], 0",
    " v[1:4], off, s[4:7], 0",
    " s[4:7], 0 lds",
    " v1, off, s[4:7], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]",
    " v1, off, s[4:7], 0 format:[BUF_FMT_32_FLOAT]",
    " off, s[4:7], 0 lds",
    " off, s[4:7], 0",
    " v1, off, s[4:7], 0 glc",
};

TEST_P(LlvmMc, AcceptedMnemonicsAreExactlyTheTable) {
  const Gen gen = GetParam();
  std::vector<std::string> names;
  for (const gcn::OpcodeInfo& op : gcn::allOpcodes()) {
    names.emplace_back(op.mnemonic);
    if (!op.gfx11Mnemonic.empty()) names.emplace_back(op.gfx11Mnemonic);
  }
  for (const char* extra : kExtraMnemonics) {
    ASSERT_EQ(gcn::findOpcode(extra), nullptr) << extra << " is in the table: drop it here";
    names.emplace_back(extra);
  }
  std::vector<std::string> lines;
  std::vector<size_t> owner;
  for (size_t n = 0; n < names.size(); ++n) {
    for (const char* shape : kShapes) {
      lines.push_back(names[n] + shape);
      owner.push_back(n);
    }
  }
  const McResult r = runMc(gen, "-show-encoding", lines);
  std::set<size_t> accepted;
  for (size_t i = 0; i < lines.size(); ++i)
    if (!r.errors.count(static_cast<int>(i) + 1)) accepted.insert(owner[i]);
  for (size_t n = 0; n < names.size(); ++n) {
    const gcn::OpcodeInfo* op = gcn::findOpcode(names[n]);
    // GFX11's names are mnemonics of GFX11 only; GFX11 also reads the older names (llvm-mc 15
    // accepts them as aliases).
    const bool nameOnGen = op != nullptr && (names[n] == gcn::mnemonicOn(*op, gen) ||
                                             (gen == Gen::Gfx11 && names[n] == op->mnemonic));
    const bool inTable = nameOnGen && gcn::existsOn(*op, gen);
    if (inTable && isKnownLlvmGap(names[n], gen)) {
      EXPECT_FALSE(accepted.count(n)) << names[n] << ": LLVM gained it; drop the exception";
      continue;
    }
    if (!inTable && isKnownLlvmExtra(names[n], gen)) {
      EXPECT_TRUE(accepted.count(n)) << names[n] << ": LLVM dropped it; drop the exception";
      continue;
    }
    EXPECT_EQ(accepted.count(n) != 0, inTable)
        << names[n] << " on " << gcn::genName(gen)
        << (inTable ? ": in the table but llvm-mc rejects every operand shape"
                    : ": llvm-mc accepts it but the table lacks it there");
  }
}

INSTANTIATE_TEST_SUITE_P(AllGens, LlvmMc, ::testing::ValuesIn(gcn::kAllGens),
                         [](const ::testing::TestParamInfo<Gen>& p) {
                           std::string name(gcn::genName(p.param));
                           std::replace(name.begin(), name.end(), '.', '_');
                           return name;
                         });

}  // namespace llvm_mc_test
