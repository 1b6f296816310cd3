// harness/isa/instruction_effects.h against llvm-mc 14 (GCN) and llvm-mc-15 (RDNA):
//  - gfx8/gfx9: every VOP1 and VOP2 opcode in its 32-bit encoding and every VOP3 opcode, with
//    VDST v10, is disassembled; for each one llvm-mc decodes, the decoder must write exactly the
//    registers llvm-mc prints as the destination (none for an SGPR destination);
//  - gfx10, gfx10.3, gfx11: the same for VOP1, VOP2 and VOP3 with llvm-mc-15;
//  - every generation: EXEC effects, copies and indirect branches of instructions assembled by
//    llvm-mc from text (wave32 and wave64 forms on RDNA, and GFX11's VOPD).
#include <gtest/gtest.h>

#include <algorithm>

#include <regex>
#include <string>
#include <vector>

#include "harness/isa/instruction_effects.h"
#include "tests/support/llvm_mc.h"

namespace instruction_effects_test {

using gcn::Gen;
using gcnprobe::isa::VgprEffects;

std::string cpuOf(Gen gen) {
  return gcntest::mcCpu(gen);
}

// "v[10:11]" -> {10, 2}; "v10" -> {10, 1}; anything else -> {0, 0}.
std::pair<unsigned, unsigned> vgprRange(const std::string& op) {
  std::smatch m;
  if (std::regex_match(op, m, std::regex(R"(v\[(\d+):(\d+)\])")))
    return {static_cast<unsigned>(std::stoi(m[1])),
            static_cast<unsigned>(std::stoi(m[2]) - std::stoi(m[1]) + 1)};
  if (std::regex_match(op, m, std::regex(R"(v(\d+))")))
    return {static_cast<unsigned>(std::stoi(m[1])), 1};
  return {0, 0};
}

TEST(InstructionEffects, VopDestinationsAreWhatLlvmMcPrints) {
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  const bool mc15 = gcntest::haveLlvmMc15Tool();
  for (Gen gen : {Gen::Gfx8, Gen::Gfx9, Gen::Gfx10, Gen::Gfx10_3, Gen::Gfx11}) {
    if (gcn::isRdna(gen) && !mc15) continue;  // reported at the end
    const bool rdna = gcn::isRdna(gen);
    std::vector<std::vector<uint32_t>> encs;
    for (uint32_t op = 0; op < 256; ++op)  // VOP1: VDST v10, SRC0 v20
      encs.push_back({0x7e000000u | (10u << 17) | (op << 9) | 276u});
    for (uint32_t op = 0; op < 62; ++op) {  // VOP2: VDST v10, SRC0 v20, VSRC1 v30
      encs.push_back({(op << 25) | (10u << 17) | (30u << 9) | 276u});
      // v_madmk/v_madak/v_fmamk/v_fmaak carry a constant dword (reference/code_scan.h):
      // gfx8/9 23, 24, 36, 37; RDNA 32, 33 (gfx10), 44, 45, 55, 56.
      const bool k = rdna ? (op == 44 || op == 45 || op == 55 || op == 56 ||
                             (gen == Gen::Gfx10 && (op == 32 || op == 33)))
                          : (op == 23 || op == 24 || op == 36 || op == 37);
      if (k) encs.back().push_back(0x3f800000u);
    }
    // VOP3 (not VOPC): VDST v10, sources v20, v30, v40; [31:26] = 110100 on GCN, 110101 on RDNA.
    const uint32_t vop3 = rdna ? 0xd4000000u : 0xd0000000u;
    for (uint32_t op = 256; op < 1024; ++op)
      for (uint32_t srcs : {276u | (286u << 9) | (296u << 18), 276u | (286u << 9), 276u})
        encs.push_back({vop3 | (op << 16) | 10u, srcs});
    const std::vector<std::string> texts = gcntest::disassembleEach(cpuOf(gen), encs);
    unsigned compared = 0;
    for (std::size_t i = 0; i < encs.size(); ++i) {
      const std::string& t = texts[i];
      if (t.empty() || t.rfind("v_", 0) != 0) continue;
      const std::size_t sp = t.find(' ');
      if (sp == std::string::npos) continue;
      std::string first = t.substr(sp + 1);
      first = first.rfind("v[", 0) == 0 ? first.substr(0, first.find(']') + 1)
                                        : first.substr(0, first.find(','));
      // Only encodings llvm-mc read with our VDST (a garbage decode of a rejected word names
      // other registers).
      const auto [reg, width] = vgprRange(first);
      const bool sgprDst = std::regex_search(first, std::regex(R"(^s\[?10\b)"));
      if (!sgprDst && (width == 0 || reg != 10)) continue;
      const VgprEffects e = gcnprobe::isa::vgprEffects(gen, encs[i]);
      // M0-relative writes (VGPR[VDST + M0]) count every VGPR: the next test's subject.
      if (t.rfind("v_movreld", 0) == 0 || t.rfind("v_movrelsd", 0) == 0 ||
          t.rfind("v_swaprel", 0) == 0) {
        EXPECT_EQ(e.writeCount, 256u) << cpuOf(gen) << " '" << t << "'";
        continue;
      }
      ++compared;
      EXPECT_TRUE(e.writeWidthKnown) << cpuOf(gen) << " '" << t << "'";
      EXPECT_EQ(e.writeCount, sgprDst ? 0u : width) << cpuOf(gen) << " '" << t << "'";
      if (!sgprDst) {
        EXPECT_EQ(e.writeFirst, 10u) << cpuOf(gen) << " '" << t << "'";
      }
    }
    EXPECT_GT(compared, 450u) << cpuOf(gen);
  }
  if (!mc15) GTEST_SKIP() << "llvm-mc-15 missing: the RDNA generations were not compared";
}

struct Expect {
  const char* text;
  VgprEffects::Exec exec;
  bool indirect;
};

// Words assembled by llvm-mc at test time for every generation (the text must assemble there).
std::vector<std::vector<uint32_t>> assemble(Gen gen, const std::vector<std::string>& lines) {
  return gcntest::assembleEach(cpuOf(gen), lines);
}

TEST(InstructionEffects, ExecAndControlFlowOnEveryGeneration) {
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  using X = VgprEffects::Exec;
  const std::vector<Expect> cases = {
      {"s_and_saveexec_b64 s[8:9], vcc", X::Narrows, false},
      {"s_or_saveexec_b64 s[8:9], vcc", X::Changes, false},
      {"s_andn2_saveexec_b64 s[8:9], vcc", X::Changes, false},
      {"s_xor_saveexec_b64 s[8:9], vcc", X::Changes, false},
      {"s_mov_b64 exec, s[8:9]", X::Changes, false},
      {"s_or_b64 exec, exec, s[8:9]", X::Changes, false},
      {"s_and_b64 exec, exec, vcc", X::Narrows, false},
      {"s_andn2_b64 exec, exec, vcc", X::Changes, false},
      {"s_mov_b64 s[8:9], exec", X::Keeps, false},
      {"v_cmpx_ne_i32_e32 vcc, 0, v2", X::Narrows, false},
      {"v_cmp_ne_i32_e32 vcc, 0, v2", X::Keeps, false},
      {"s_setpc_b64 s[8:9]", X::Keeps, true},
      {"s_swappc_b64 s[8:9], s[10:11]", X::Keeps, true},
      {"s_cbranch_join s8", X::Keeps, true},
      {"s_add_u32 s6, s6, 1", X::Keeps, false},
  };
  std::vector<std::string> lines;
  for (const Expect& c : cases)
    lines.push_back(c.text);
  for (Gen gen : gcn::kGcnGens) {
    const auto words = assemble(gen, lines);
    ASSERT_EQ(words.size(), cases.size()) << cpuOf(gen);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const VgprEffects e = gcnprobe::isa::vgprEffects(gen, words[i]);
      EXPECT_EQ(e.exec, cases[i].exec) << cpuOf(gen) << " " << cases[i].text;
      EXPECT_EQ(e.indirectFlow, cases[i].indirect) << cpuOf(gen) << " " << cases[i].text;
      EXPECT_EQ(e.writeCount, 0u) << cpuOf(gen) << " " << cases[i].text;
    }
  }
}

// GFX6/7's signalling compares: v_cmpsx_* write EXEC as v_cmpx_* do, v_cmps_* only VCC
// (AMD's Southern Islands and Sea Islands guides, VOPC opcodes 0x40-0x5f).
TEST(InstructionEffects, SignallingCompareXNarrowsExecOnGfx6And7) {
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  using X = VgprEffects::Exec;
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7}) {
    const auto words =
        assemble(gen, {"v_cmpsx_lt_f32_e32 vcc, 0, v2", "v_cmps_lt_f32_e32 vcc, 0, v2"});
    ASSERT_EQ(words.size(), 2u) << cpuOf(gen);
    EXPECT_EQ(gcnprobe::isa::vgprEffects(gen, words[0]).exec, X::Narrows) << cpuOf(gen);
    EXPECT_EQ(gcnprobe::isa::vgprEffects(gen, words[1]).exec, X::Keeps) << cpuOf(gen);
  }
}

// SGPR sources where the encoding puts them in a VGPR-looking field: SDWA's S0/S1 bits (gfx9)
// and gfx6/7's VOP2 lane select of v_readlane_b32 / v_writelane_b32. Words from llvm-mc.
TEST(InstructionEffects, SgprSourcesInVgprFields) {
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  const auto sdwa =
      assemble(Gen::Gfx9, {"v_add_f32_sdwa v6, s12, v3 dst_sel:DWORD dst_unused:UNUSED_PAD "
                           "src0_sel:DWORD src1_sel:DWORD",
                           "v_add_f32_sdwa v6, v3, s12 dst_sel:DWORD dst_unused:UNUSED_PAD "
                           "src0_sel:DWORD src1_sel:DWORD",
                           "v_add_f32_sdwa v6, v12, v3 dst_sel:DWORD dst_unused:UNUSED_PAD "
                           "src0_sel:DWORD src1_sel:DWORD"});
  ASSERT_EQ(sdwa.size(), 3u);
  const VgprEffects s0 = gcnprobe::isa::vgprEffects(Gen::Gfx9, sdwa[0]);
  EXPECT_EQ(s0.src[0], 12);  // s12, not v12
  EXPECT_EQ(s0.src[1], 256 + 3);
  EXPECT_EQ(std::count(s0.reads.begin(), s0.reads.end(), 12u), 0);
  const VgprEffects s1 = gcnprobe::isa::vgprEffects(Gen::Gfx9, sdwa[1]);
  EXPECT_EQ(s1.src[0], 256 + 3);
  EXPECT_EQ(s1.src[1], 12);
  const VgprEffects v = gcnprobe::isa::vgprEffects(Gen::Gfx9, sdwa[2]);
  EXPECT_EQ(v.src[0], 256 + 12);  // S0 clear: a VGPR
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7}) {
    const auto lane = assemble(gen, {"v_readlane_b32 s1, v2, s5"});
    ASSERT_EQ(lane.size(), 1u) << cpuOf(gen);
    const VgprEffects r = gcnprobe::isa::vgprEffects(gen, lane[0]);
    EXPECT_EQ(r.src[0], 256 + 2) << cpuOf(gen);
    EXPECT_EQ(r.src[1], 5) << cpuOf(gen) << ": the lane select is s5";
    EXPECT_EQ(std::count(r.reads.begin(), r.reads.end(), 5u), 0) << cpuOf(gen);
  }
}

// What leaves the straight line, from words llvm-mc assembles on each generation: every SOPP
// branch and program end, s_sethalt, s_trap and the indirect forms (s_cbranch_i_fork included),
// and none of the ordinary scalar, vector and memory instructions around them.
TEST(InstructionEffects, WhatLeavesTheStraightLine) {
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  const std::vector<std::pair<std::string, bool>> common = {
      {"s_endpgm", true},
      {"s_branch 4", true},
      {"s_cbranch_scc0 4", true},
      {"s_cbranch_execz 4", true},
      {"s_cbranch_vccnz 4", true},
      {"s_cbranch_cdbgsys 4", true},
      {"s_sethalt 1", true},
      {"s_trap 2", true},
      {"s_setpc_b64 s[8:9]", true},
      {"s_swappc_b64 s[8:9], s[10:11]", true},
      {"s_rfe_b64 s[8:9]", true},
      {"s_cbranch_join s8", true},
      {"s_cbranch_g_fork s[8:9], s[10:11]", true},
      {"s_cbranch_i_fork s[8:9], 4", true},
      {"s_nop 0", false},
      {"s_waitcnt vmcnt(0)", false},
      {"s_mov_b32 m0, s8", false},
      {"s_add_u32 s6, s6, 1", false},
      {"s_movk_i32 s8, 0x10", false},
      {"v_mov_b32_e32 v1, v2", false},
      {"buffer_load_dword v1, v0, s[4:7], 0 offen", false},
  };
  for (Gen gen : gcn::kGcnGens) {
    std::vector<std::pair<std::string, bool>> cases = common;
    if (gen >= Gen::Gfx8) cases.push_back({"s_endpgm_saved", true});
    if (gen == Gen::Gfx9) cases.push_back({"s_endpgm_ordered_ps_done", true});
    std::vector<std::string> lines;
    for (const auto& c : cases)
      lines.push_back(c.first);
    const auto words = assemble(gen, lines);
    ASSERT_EQ(words.size(), cases.size()) << cpuOf(gen);
    for (std::size_t i = 0; i < cases.size(); ++i)
      EXPECT_EQ(gcnprobe::isa::breaksStraightLine(gen, words[i]), cases[i].second)
          << cpuOf(gen) << " " << cases[i].first;
  }
}

TEST(InstructionEffects, CopiesAndWhatIsNoCopy) {
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  using M = VgprEffects::Move;
  for (Gen gen : gcn::kGcnGens) {
    const bool gfx8 = gen == Gen::Gfx8 || gen == Gen::Gfx9;
    std::vector<std::pair<std::string, M>> cases = {
        {"v_mov_b32_e32 v5, v2", M::Copy},
        {"v_mov_b32_e64 v5, v2", M::Copy},
        {"v_mov_b32_e32 v5, s2", M::None},
        {"v_mov_b32_e32 v5, 1.0", M::None},
        {"v_xor_b32_e32 v5, v5, v2", M::None},
        {gfx8 ? "v_lshrrev_b64 v[2:3], 32, v[2:3]" : "v_lshr_b64 v[2:3], v[2:3], 32", M::Copy},
        {gfx8 ? "v_ashrrev_i64 v[2:3], 32, v[2:3]" : "v_ashr_i64 v[2:3], v[2:3], 32", M::Copy},
        {gfx8 ? "v_lshrrev_b64 v[2:3], 16, v[2:3]" : "v_lshr_b64 v[2:3], v[2:3], 16", M::None},
    };
    if (gfx8)
      cases.push_back(
          {"v_mov_b32_dpp v5, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", M::None});
    if (gen == Gen::Gfx9) cases.push_back({"v_swap_b32 v5, v2", M::Swap});
    std::vector<std::string> lines;
    for (const auto& c : cases)
      lines.push_back(c.first);
    const auto words = assemble(gen, lines);
    ASSERT_EQ(words.size(), cases.size()) << cpuOf(gen);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const VgprEffects e = gcnprobe::isa::vgprEffects(gen, words[i]);
      EXPECT_EQ(e.move, cases[i].second) << cpuOf(gen) << " " << cases[i].first;
      if (e.move == M::None) continue;
      const bool shift = cases[i].first.find("_b64") != std::string::npos ||
                         cases[i].first.find("_i64") != std::string::npos;
      EXPECT_EQ(e.writeFirst, shift ? 2u : 5u) << cases[i].first;
      EXPECT_EQ(e.moveSrc, shift ? 3u : 2u) << cases[i].first;  // the high dword, or v2
    }
    // llvm-mc takes no modifiers on v_mov_b32, but the encoding has room for them: the VOP3
    // form (case 1) with NEG of SRC0 ([61]) or OMOD ([60:59]) set is no plain copy.
    for (const uint32_t bits : {1u << 29, 1u << 27}) {
      std::vector<uint32_t> w = words[1];
      ASSERT_EQ(w.size(), 2u);
      w[1] |= bits;
      EXPECT_EQ(gcnprobe::isa::vgprEffects(gen, w).move, M::None) << cpuOf(gen);
    }
  }
}

// RDNA (llvm-mc-15): wave32 EXEC forms next to wave64 ones, the GFX11 renumbered scalar and
// SOPP opcodes (the names come from reference/scalar_table.h), and GFX11's VOPD.
TEST(InstructionEffects, RdnaExecAndControlFlow) {
  if (!gcntest::haveLlvmMc15Tool()) GTEST_SKIP() << "llvm-mc-15 not on PATH";
  using X = VgprEffects::Exec;
  const std::vector<Expect> cases = {
      {"s_and_saveexec_b32 s8, vcc_lo", X::Narrows, false},
      {"s_and_saveexec_b64 s[8:9], vcc", X::Narrows, false},
      {"s_or_saveexec_b32 s8, vcc_lo", X::Changes, false},
      {"s_xor_saveexec_b64 s[8:9], vcc", X::Changes, false},
      {"s_mov_b32 exec_lo, s8", X::Changes, false},
      {"s_mov_b64 exec, s[8:9]", X::Changes, false},
      {"s_and_b32 exec_lo, exec_lo, vcc_lo", X::Narrows, false},
      {"s_and_b64 exec, exec, vcc", X::Narrows, false},
      {"s_or_b32 exec_lo, exec_lo, s8", X::Changes, false},
      {"s_mov_b32 s8, exec_lo", X::Keeps, false},
      {"v_cmpx_ne_i32_e32 0, v2", X::Narrows, false},
      {"v_cmpx_ne_i32_e64 0, v2", X::Narrows, false},
      {"v_cmp_ne_i32_e32 vcc_lo, 0, v2", X::Keeps, false},
      {"v_cmp_ne_i32_e64 exec_lo, 0, v2", X::Changes, false},
      {"s_setpc_b64 s[8:9]", X::Keeps, true},
      {"s_swappc_b64 s[8:9], s[10:11]", X::Keeps, true},
      {"s_add_u32 s6, s6, 1", X::Keeps, false},
  };
  std::vector<std::string> lines;
  for (const Expect& c : cases)
    lines.push_back(c.text);
  for (Gen gen : gcn::kRdnaGens) {
    const auto words = assemble(gen, lines);
    ASSERT_EQ(words.size(), cases.size()) << cpuOf(gen);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const VgprEffects e = gcnprobe::isa::vgprEffects(gen, words[i]);
      EXPECT_EQ(e.exec, cases[i].exec) << cpuOf(gen) << " " << cases[i].text;
      EXPECT_EQ(e.indirectFlow, cases[i].indirect) << cpuOf(gen) << " " << cases[i].text;
      EXPECT_EQ(e.writeCount, 0u) << cpuOf(gen) << " " << cases[i].text;
    }
  }

  std::vector<std::pair<std::string, bool>> straight = {
      {"s_endpgm", true},
      {"s_branch 4", true},
      {"s_cbranch_scc0 4", true},
      {"s_cbranch_execz 4", true},
      {"s_cbranch_cdbgsys 4", true},
      {"s_sethalt 1", true},
      {"s_trap 2", true},
      {"s_endpgm_saved", true},
      {"s_call_b64 s[8:9], 4", true},
      {"s_rfe_b64 s[8:9]", true},
      {"s_nop 0", false},
      {"s_clause 0x2", false},
      {"s_waitcnt vmcnt(0)", false},
      {"s_movk_i32 s8, 0x10", false},
      {"v_mov_b32_e32 v1, v2", false},
      {"buffer_load_dword v1, v0, s[4:7], 0 offen", false},
  };
  for (Gen gen : gcn::kRdnaGens) {
    std::vector<std::pair<std::string, bool>> cases2 = straight;
    if (gen != Gen::Gfx11) cases2.push_back({"s_endpgm_ordered_ps_done", true});
    if (gen == Gen::Gfx11) cases2.push_back({"s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", false});
    std::vector<std::string> l2;
    for (const auto& c : cases2)
      l2.push_back(c.first);
    const auto words = assemble(gen, l2);
    ASSERT_EQ(words.size(), cases2.size()) << cpuOf(gen);
    for (std::size_t i = 0; i < cases2.size(); ++i)
      EXPECT_EQ(gcnprobe::isa::breaksStraightLine(gen, words[i]), cases2[i].second)
          << cpuOf(gen) << " " << cases2[i].first;
    // s_branch 4 at dword 10: the target is 4 dwords after the next instruction.
    const auto f = gcnprobe::isa::controlFlowOf(gen, gcn::CodeClass::Sopp, words[1], 11);
    EXPECT_FALSE(f.fallsThrough) << cpuOf(gen);
    EXPECT_EQ(f.targetDword, 15) << cpuOf(gen);
    const auto c = gcnprobe::isa::controlFlowOf(gen, gcn::CodeClass::Sopp, words[3], 11);
    EXPECT_TRUE(c.fallsThrough) << cpuOf(gen);
    EXPECT_EQ(c.targetDword, 15) << cpuOf(gen);
  }
}

// What the proofs must not follow as ordinary code (llvm-mc-15 words): s_subvector_loop_*
// branch and rewrite EXEC; M0-relative writes (v_swaprel_b32, v_movreld_b32, s_movreld_b32)
// may hit any register, EXEC included; a carry-out or an SDWA compare into EXEC changes it.
TEST(InstructionEffects, RdnaWritesThatAreNoPlainDestination) {
  if (!gcntest::haveLlvmMc15Tool()) GTEST_SKIP() << "llvm-mc-15 not on PATH";
  using X = VgprEffects::Exec;
  for (Gen gen : gcn::kRdnaGens) {
    std::vector<std::string> lines = {
        "s_subvector_loop_begin s0, 4", "s_subvector_loop_end s0, 4",       "v_swaprel_b32 v5, v1",
        "v_movreld_b32 v5, v1",         "v_add_co_u32 v1, exec_lo, v2, v3", "s_movreld_b32 s0, s1"};
    if (gen != Gen::Gfx11)
      lines.push_back("v_cmp_eq_u32_sdwa exec_lo, v1, v2 src0_sel:DWORD src1_sel:DWORD");
    const auto w = assemble(gen, lines);
    ASSERT_EQ(w.size(), lines.size()) << cpuOf(gen);
    for (int k = 0; k < 2; ++k) {
      EXPECT_TRUE(gcnprobe::isa::breaksStraightLine(gen, w[k])) << cpuOf(gen) << " " << lines[k];
      EXPECT_EQ(gcnprobe::isa::vgprEffects(gen, w[k]).exec, X::Changes) << lines[k];
    }
    for (int k = 2; k < 4; ++k) {
      const VgprEffects e = gcnprobe::isa::vgprEffects(gen, w[k]);
      EXPECT_EQ(e.writeFirst, 0u) << cpuOf(gen) << " " << lines[k];
      EXPECT_EQ(e.writeCount, 256u) << cpuOf(gen) << " " << lines[k];
      EXPECT_EQ(e.move, VgprEffects::Move::None) << lines[k];
    }
    EXPECT_EQ(gcnprobe::isa::vgprEffects(gen, w[4]).exec, X::Changes) << cpuOf(gen);
    EXPECT_EQ(gcnprobe::isa::vgprEffects(gen, w[5]).exec, X::Changes) << cpuOf(gen);
    if (gen != Gen::Gfx11) {
      EXPECT_EQ(gcnprobe::isa::vgprEffects(gen, w[6]).exec, X::Changes) << cpuOf(gen);
    }
  }
}

TEST(InstructionEffects, RdnaCopiesAndVopd) {
  if (!gcntest::haveLlvmMc15Tool()) GTEST_SKIP() << "llvm-mc-15 not on PATH";
  using M = VgprEffects::Move;
  for (Gen gen : gcn::kRdnaGens) {
    const std::vector<std::pair<std::string, M>> cases = {
        {"v_mov_b32_e32 v5, v2", M::Copy},
        {"v_mov_b32_e64 v5, v2", M::Copy},
        {"v_mov_b32_e32 v5, s2", M::None},
        {"v_mov_b32_dpp v5, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", M::None},
        {"v_mov_b32_dpp v5, v2 dpp8:[1,0,3,2,5,4,7,6]", M::None},
        {"v_lshrrev_b64 v[2:3], 32, v[2:3]", M::Copy},
        {"v_lshrrev_b64 v[2:3], 16, v[2:3]", M::None},
        {"v_swap_b32 v5, v2", M::Swap},
    };
    std::vector<std::string> lines;
    for (const auto& c : cases)
      lines.push_back(c.first);
    const auto words = assemble(gen, lines);
    ASSERT_EQ(words.size(), cases.size()) << cpuOf(gen);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const VgprEffects e = gcnprobe::isa::vgprEffects(gen, words[i]);
      EXPECT_EQ(e.move, cases[i].second) << cpuOf(gen) << " " << cases[i].first;
      EXPECT_TRUE(e.writeWidthKnown) << cpuOf(gen) << " " << cases[i].first;
      if (e.move == M::None) continue;
      const bool shift = cases[i].first.find("_b64") != std::string::npos;
      EXPECT_EQ(e.writeFirst, shift ? 2u : 5u) << cases[i].first;
      EXPECT_EQ(e.moveSrc, shift ? 3u : 2u) << cases[i].first;
    }
    // OPSEL [14:11] of the VOP3 form makes it no plain copy on RDNA.
    std::vector<uint32_t> w = words[1];
    ASSERT_EQ(w.size(), 2u);
    w[0] |= 1u << 11;
    EXPECT_EQ(gcnprobe::isa::vgprEffects(gen, w).move, M::None) << cpuOf(gen);
  }
  // GFX11 VOPD: two destinations; each v_dual_mov_b32 half of a VGPR is a copy.
  const auto words = assemble(Gen::Gfx11, {"v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v4",
                                           "v_dual_add_f32 v6, v1, v2 :: v_dual_mov_b32 v9, v7",
                                           "v_dual_mov_b32 v6, s1 :: v_dual_add_f32 v9, v7, v8"});
  ASSERT_EQ(words.size(), 3u);
  const VgprEffects a = gcnprobe::isa::vgprEffects(Gen::Gfx11, words[0]);
  EXPECT_EQ(a.move, M::Copy);
  EXPECT_EQ(a.writeFirst, 0u);
  EXPECT_EQ(a.writeCount, 1u);
  EXPECT_EQ(a.moveSrc, 1u);
  ASSERT_TRUE(a.dualWrite.has_value());
  EXPECT_EQ(*a.dualWrite, 3u);
  EXPECT_TRUE(a.dualCopy);
  EXPECT_EQ(a.dualMoveSrc, 4u);
  const VgprEffects b = gcnprobe::isa::vgprEffects(Gen::Gfx11, words[1]);
  EXPECT_EQ(b.move, M::None);
  EXPECT_EQ(b.writeFirst, 6u);
  ASSERT_TRUE(b.dualWrite.has_value());
  EXPECT_EQ(*b.dualWrite, 9u);
  EXPECT_TRUE(b.dualCopy);
  EXPECT_EQ(b.dualMoveSrc, 7u);
  const VgprEffects c = gcnprobe::isa::vgprEffects(Gen::Gfx11, words[2]);
  EXPECT_EQ(c.move, M::None);  // an SGPR source is no VGPR copy
  ASSERT_TRUE(c.dualWrite.has_value());
  EXPECT_EQ(*c.dualWrite, 9u);
  EXPECT_FALSE(c.dualCopy);
}

}  // namespace instruction_effects_test
