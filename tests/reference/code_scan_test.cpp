// code_scan: instruction classes and lengths of GFX6-GFX9 code. Golden words come from
// llvm-mc 14 (`llvm-mc -arch=amdgcn -mcpu=<cpu> -show-encoding`, the byte lists read as
// little-endian dwords); the length of each golden is the number of bytes llvm-mc printed / 4.
// A live test re-assembles the same texts when llvm-mc is installed.
#include "reference/code_scan.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "reference/error.h"

namespace {

using gcn::CodeClass;
using gcn::Gen;

struct Golden {
  const char* text;  // as given to llvm-mc
  std::vector<uint32_t> words;
  CodeClass cls;
};

// llvm-mc -mcpu=tahiti (gfx6) and -mcpu=bonaire (gfx7) print identical words for these.
const std::vector<Golden> kGfx6And7 = {
    {"s_mov_b32 s0, s1", {0xbe800301}, CodeClass::Sop1},
    {"s_mov_b32 s0, 0x12345678", {0xbe8003ff, 0x12345678}, CodeClass::Sop1},
    {"s_mov_b32 m0, 0x12345678", {0xbefc03ff, 0x12345678}, CodeClass::Sop1},
    {"s_add_u32 s0, s1, s2", {0x80000201}, CodeClass::Sop2},
    {"s_add_u32 s0, 0x12345678, s2", {0x800002ff, 0x12345678}, CodeClass::Sop2},
    {"s_add_u32 s0, s2, 0x12345678", {0x8000ff02, 0x12345678}, CodeClass::Sop2},
    {"s_movk_i32 s0, 0x1234", {0xb0001234}, CodeClass::Sopk},
    {"s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x3", {0xba80f801, 0x00000003}, CodeClass::Sopk},
    {"s_cmp_eq_u32 s0, s1", {0xbf060100}, CodeClass::Sopc},
    {"s_cmp_eq_u32 s0, 0x12345678", {0xbf06ff00, 0x12345678}, CodeClass::Sopc},
    {"s_nop 0", {0xbf800000}, CodeClass::Sopp},
    {"s_endpgm", {0xbf810000}, CodeClass::Sopp},
    {"s_load_dwordx4 s[4:7], s[2:3], 0x1", {0xc0820301}, CodeClass::Smrd},
    {"v_mov_b32 v0, v1", {0x7e000301}, CodeClass::Vop1},
    {"v_mov_b32 v0, 0x12345678", {0x7e0002ff, 0x12345678}, CodeClass::Vop1},
    {"v_add_f32 v0, v1, v2", {0x06000501}, CodeClass::Vop2},
    {"v_add_f32 v0, 0x12345678, v2", {0x060004ff, 0x12345678}, CodeClass::Vop2},
    {"v_madmk_f32 v0, v1, 0x41200000, v2", {0x40000501, 0x41200000}, CodeClass::Vop2},
    {"v_madak_f32 v0, v1, v2, 0x41200000", {0x42000501, 0x41200000}, CodeClass::Vop2},
    {"v_cmp_eq_f32 vcc, v1, v2", {0x7c040501}, CodeClass::Vopc},
    {"v_cmp_eq_f32 vcc, 0x12345678, v2", {0x7c0404ff, 0x12345678}, CodeClass::Vopc},
    {"v_mad_f32 v0, v1, v2, v3", {0xd2820000, 0x040e0501}, CodeClass::Vop3},
    {"v_interp_p1_f32 v0, v1, attr0.x", {0xc8000001}, CodeClass::Vintrp},
    {"ds_read_b32 v0, v1", {0xd8d80000, 0x00000001}, CodeClass::Ds},
    {"buffer_load_dword v0, v1, s[4:7], 0 offen", {0xe0301000, 0x80010001}, CodeClass::Mubuf},
    {"tbuffer_load_format_x v0, v1, s[4:7], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] "
     "idxen",
     {0xeba02000, 0x80010001},
     CodeClass::Mtbuf},
    {"image_load v[0:3], v[0:3], s[4:11] dmask:0xf", {0xf0000f00, 0x00010000}, CodeClass::Mimg},
    {"exp mrt0 v0, v0, v0, v0", {0xf800000f, 0x00000000}, CodeClass::Exp},
};

// -mcpu=bonaire only: FLAT and the SMRD literal offset are new in gfx7.
const std::vector<Golden> kGfx7Only = {
    {"flat_load_dword v0, v[0:1]", {0xdc300000, 0x00000000}, CodeClass::Flat},
    {"s_load_dword s0, s[2:3], 0x12345", {0xc00002ff, 0x00012345}, CodeClass::Smrd},
};

// -mcpu=tonga (gfx8) and -mcpu=gfx900 (gfx9) print identical words for these.
const std::vector<Golden> kGfx8And9 = {
    {"s_mov_b32 s0, 0x12345678", {0xbe8000ff, 0x12345678}, CodeClass::Sop1},
    {"s_mov_b32 m0, 0x12345678", {0xbefc00ff, 0x12345678}, CodeClass::Sop1},
    {"s_add_u32 s0, s2, 0x12345678", {0x8000ff02, 0x12345678}, CodeClass::Sop2},
    {"s_movk_i32 s0, 0x1234", {0xb0001234}, CodeClass::Sopk},
    {"s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x3", {0xba00f801, 0x00000003}, CodeClass::Sopk},
    {"s_cmp_eq_u32 s0, 0x12345678", {0xbf06ff00, 0x12345678}, CodeClass::Sopc},
    {"s_endpgm", {0xbf810000}, CodeClass::Sopp},
    {"s_load_dwordx4 s[4:7], s[2:3], 0x1", {0xc00a0101, 0x00000001}, CodeClass::Smem},
    {"v_mov_b32 v0, 0x12345678", {0x7e0002ff, 0x12345678}, CodeClass::Vop1},
    {"v_add_f32 v0, v1, v2", {0x02000501}, CodeClass::Vop2},
    {"v_add_f32 v0, 0x12345678, v2", {0x020004ff, 0x12345678}, CodeClass::Vop2},
    {"v_madmk_f32 v0, v1, 0x41200000, v2", {0x2e000501, 0x41200000}, CodeClass::Vop2},
    {"v_madak_f32 v0, v1, v2, 0x41200000", {0x30000501, 0x41200000}, CodeClass::Vop2},
    {"v_madmk_f16 v0, v1, 0x4120, v2", {0x48000501, 0x00004120}, CodeClass::Vop2},
    {"v_cmp_eq_f32 vcc, 0x12345678, v2", {0x7c8404ff, 0x12345678}, CodeClass::Vopc},
    {"v_mad_f32 v0, v1, v2, v3", {0xd1c10000, 0x040e0501}, CodeClass::Vop3},
    {"v_interp_p1_f32 v0, v1, attr0.x", {0xd4000001}, CodeClass::Vintrp},
    {"ds_read_b32 v0, v1", {0xd86c0000, 0x00000001}, CodeClass::Ds},
    {"flat_load_dword v0, v[0:1]", {0xdc500000, 0x00000000}, CodeClass::Flat},
    {"buffer_load_dword v0, v1, s[4:7], 0 offen", {0xe0501000, 0x80010001}, CodeClass::Mubuf},
    {"tbuffer_load_format_x v0, v1, s[4:7], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] "
     "idxen",
     {0xeba02000, 0x80010001},
     CodeClass::Mtbuf},
    {"image_load v[0:3], v[0:3], s[4:11] dmask:0xf", {0xf0000f00, 0x00010000}, CodeClass::Mimg},
    {"exp mrt0 v0, v0, v0, v0", {0xc400000f, 0x00000000}, CodeClass::Exp},
    {"v_mov_b32_sdwa v0, v1 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD",
     {0x7e0002f9, 0x00060001},
     CodeClass::Vop1},
    {"v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
     {0x7e0002fa, 0xff00e401},
     CodeClass::Vop1},
    {"v_add_f32_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 "
     "src1_sel:DWORD",
     {0x020004f9, 0x06050601},
     CodeClass::Vop2},
    {"v_cmp_eq_f32_sdwa vcc, v1, v2 src0_sel:WORD_1 src1_sel:DWORD",
     {0x7c8404f9, 0x06050001},
     CodeClass::Vopc},
};

// -mcpu=gfx900 only.
const std::vector<Golden> kGfx9Only = {
    {"global_load_dword v0, v[0:1], off", {0xdc508000, 0x007f0000}, CodeClass::Flat},
    {"v_add_u32 v0, 0x12345678, v1", {0x680002ff, 0x12345678}, CodeClass::Vop2},
    {"s_load_dword s0, s[2:3], s4", {0xc0000001, 0x00000004}, CodeClass::Smem},
};

std::vector<Golden> goldens(Gen gen) {
  std::vector<Golden> out = (gen == Gen::Gfx6 || gen == Gen::Gfx7) ? kGfx6And7 : kGfx8And9;
  if (gen == Gen::Gfx7) out.insert(out.end(), kGfx7Only.begin(), kGfx7Only.end());
  if (gen == Gen::Gfx9) out.insert(out.end(), kGfx9Only.begin(), kGfx9Only.end());
  return out;
}

class CodeScanGen : public ::testing::TestWithParam<Gen> {};

TEST_P(CodeScanGen, EachGoldenHasLlvmMcLengthAndClass) {
  const Gen gen = GetParam();
  for (const Golden& g : goldens(gen)) {
    SCOPED_TRACE(g.text);
    const gcn::CodeInstruction ci = gcn::scanInstruction(gen, g.words, 0);
    EXPECT_EQ(ci.dwords, g.words.size());
    EXPECT_EQ(gcn::codeClassName(ci.cls), gcn::codeClassName(g.cls));
    EXPECT_EQ(ci.offset, 0u);
  }
}

// All goldens of a generation back to back: the scan must land on every boundary.
TEST_P(CodeScanGen, StreamSplitsAtEveryGoldenBoundary) {
  const Gen gen = GetParam();
  std::vector<uint32_t> stream;
  std::vector<std::size_t> starts;
  for (const Golden& g : goldens(gen)) {
    starts.push_back(stream.size());
    stream.insert(stream.end(), g.words.begin(), g.words.end());
  }
  const auto code = gcn::scanCode(gen, stream);
  ASSERT_EQ(code.size(), starts.size());
  for (std::size_t i = 0; i < code.size(); ++i)
    EXPECT_EQ(code[i].offset, starts[i]) << goldens(gen)[i].text;
}

TEST_P(CodeScanGen, TruncatedLiteralIsAnErrorNamingTheOffset) {
  const Gen gen = GetParam();
  const uint32_t words[] = {0xbf800000, 0x7e0002ff};  // s_nop 0; v_mov_b32 v0, <literal missing>
  try {
    gcn::scanCode(gen, words);
    FAIL() << "no error";
  } catch (const gcn::Error& e) {
    EXPECT_NE(e.reason().find("dword 1"), std::string::npos) << e.what();
    EXPECT_NE(e.reason().find("vop1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(gcn::scanInstruction(gen, words, 2), gcn::Error);
}

INSTANTIATE_TEST_SUITE_P(AllGens, CodeScanGen,
                         ::testing::Values(Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9),
                         [](const auto& p) { return std::string(gcn::genName(p.param)); });

// Encodings that do not exist on a generation: FLAT (110111) before gfx7, gfx8's VINTRP
// (110101) on gfx6, gfx6's EXP (111110) and VINTRP (110010) on gfx8. (gfx8's EXP, 110001,
// is an SMRD word on gfx6: SMRD is [31:27] = 11000.)
TEST(CodeScan, EncodingsAbsentOnAGenerationAreErrors) {
  const uint32_t flat[] = {0xdc300000, 0};
  EXPECT_THROW(gcn::scanInstruction(Gen::Gfx6, flat, 0), gcn::Error);
  EXPECT_NO_THROW(gcn::scanInstruction(Gen::Gfx7, flat, 0));
  const uint32_t vintrp8[] = {0xd4000001};
  EXPECT_THROW(gcn::scanInstruction(Gen::Gfx6, vintrp8, 0), gcn::Error);
  const uint32_t exp8[] = {0xc400000f, 0};
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx6, exp8, 0).cls, CodeClass::Smrd);
  const uint32_t exp6[] = {0xf800000f, 0};
  EXPECT_THROW(gcn::scanInstruction(Gen::Gfx8, exp6, 0), gcn::Error);
  const uint32_t vintrp6[] = {0xc8000001};
  EXPECT_THROW(gcn::scanInstruction(Gen::Gfx9, vintrp6, 0), gcn::Error);
}

// The encoder writes what llvm-mc assembles for "s_mov_b32 <sdst>, 0x12345678" (the goldens
// above, with SDST s0 and m0).
TEST_P(CodeScanGen, SMovB32LiteralEncodesAsLlvmMc) {
  const Gen gen = GetParam();
  int checked = 0;
  for (const Golden& g : goldens(gen)) {
    const std::string text(g.text);
    for (const auto& [name, sdst] :
         {std::pair{"s_mov_b32 s0, 0x12345678", 0u}, std::pair{"s_mov_b32 m0, 0x12345678", 124u}})
      if (text == name) {
        const auto w = gcn::encodeSMovB32Literal(gen, sdst, 0x12345678);
        EXPECT_EQ(std::vector<uint32_t>(w.begin(), w.end()), g.words) << text;
        ++checked;
      }
  }
  EXPECT_EQ(checked, 2);
  EXPECT_THROW((void)gcn::encodeSMovB32Literal(gen, 128, 0), gcn::Error);
}

// The gfx7 literal offset needs IMM = 0: with IMM = 1, OFFSET 255 is an immediate
// (llvm-mc -mcpu=bonaire: s_load_dword s0, s[2:3], 0xff -> 0xc00003ff, 4 bytes) and gfx6
// has no literal form at all.
TEST(CodeScan, SmrdLiteralOnlyOnGfx7WithImmClear) {
  const uint32_t imm[] = {0xc00003ff};
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx7, imm, 0).dwords, 1u);
  const uint32_t lit[] = {0xc00002ff, 0x12345};
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx7, lit, 0).dwords, 2u);
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx6, lit, 0).dwords, 1u);
}

// Live: llvm-mc assembles every golden text again and the scan agrees with its byte count.
TEST(CodeScan, LiveLlvmMcAgrees) {
  if (std::system("llvm-mc --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "llvm-mc missing";
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  for (const Gen gen : gcn::kGcnGens) {
    const std::string cpu(gcn::representativeChip(gen).llvmCpu);
    const auto src = dir / ("gcnprobe_code_scan_" + cpu + ".s");
    {
      std::ofstream f(src);
      for (const Golden& g : goldens(gen))
        f << g.text << "\n";
    }
    const std::string cmd =
        "llvm-mc -arch=amdgcn -mcpu=" + cpu + " -show-encoding " + src.string() + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::vector<uint32_t> stream;
    std::vector<std::size_t> lengths;
    char line[1024];
    while (std::fgets(line, sizeof line, p) != nullptr) {
      const std::string s(line);
      const auto at = s.find("encoding: [");
      if (at == std::string::npos) continue;
      std::istringstream bytes(s.substr(at + 11));
      std::vector<uint8_t> b;
      std::string tok;
      while (std::getline(bytes, tok, ','))
        b.push_back(static_cast<uint8_t>(std::stoul(tok, nullptr, 16)));
      lengths.push_back(b.size() / 4);
      for (std::size_t i = 0; i + 3 < b.size(); i += 4)
        stream.push_back(b[i] | b[i + 1] << 8 | b[i + 2] << 16 |
                         static_cast<uint32_t>(b[i + 3]) << 24);
    }
    pclose(p);
    std::filesystem::remove(src);
    SCOPED_TRACE(cpu);
    ASSERT_EQ(lengths.size(), goldens(gen).size());
    const auto code = gcn::scanCode(gen, stream);
    ASSERT_EQ(code.size(), lengths.size());
    for (std::size_t i = 0; i < code.size(); ++i) {
      EXPECT_EQ(code[i].dwords, lengths[i]) << goldens(gen)[i].text;
      // The golden words are exactly what llvm-mc prints today.
      EXPECT_EQ(std::vector<uint32_t>(stream.begin() + code[i].offset,
                                      stream.begin() + code[i].offset + code[i].dwords),
                goldens(gen)[i].words)
          << goldens(gen)[i].text;
    }
  }
}

}  // namespace
