// The data-path proof (harness/isa/data_path.h) on listings taken from RADV's null device
// (Mesa 25.0.7, `gcnprobe isa --dump-asm`), and on hand edits of them whose inserted words are
// llvm-mc 14's encodings (`llvm-mc -arch=amdgcn -mcpu=tonga|gfx900 -show-encoding`). Every kind
// of rewrite the drivers were seen to make must break the proof, naming the instruction and its
// line; plain copies (also across blocks) must not; a shape the proof cannot follow must fail.
// The same listings as saved-listing files (`gcnprobe isa --prove`, saved_listing.h) go through
// the whole ISA check: the header selects the chip, the route and the case instruction.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

#include "harness/isa/aco_asm.h"
#include "harness/isa/data_path.h"
#include "harness/isa/descriptor_trace.h"
#include "harness/isa/saved_listing.h"
#include "reference/code_scan.h"
#include "reference/error.h"

namespace data_path_test {

using gcn::Gen;
using gcnprobe::isa::DataPathProof;
using gcnprobe::routes::BufferSlot;
using gcnprobe::routes::DataPath;

// Proves the listing with the instruction whose text starts with `caseText` as the case.
DataPathProof prove(Gen gen, const std::string& listing, VkShaderStageFlags stage,
                    const DataPath& path, const std::string& caseText) {
  // The tonga listings serve GFX9 too, with GFX9's pointer high half (s_movk_i32 s3, 0x8000:
  // 0xffff8000; llvm-mc b0038000) where GFX8 has s_mov_b32 s3, 0.
  std::string text = listing;
  if (gen == Gen::Gfx9)
    if (const std::size_t at = text.find("be830080\n"); at != std::string::npos)
      text.replace(at, 8, "b0038000");
  const std::vector<gcnprobe::isa::AsmInstruction> code =
      gcnprobe::isa::parseAcoAssembly(text, "test listing");
  std::vector<std::vector<uint32_t>> words;
  std::size_t caseIndex = code.size();
  for (std::size_t i = 0; i < code.size(); ++i) {
    words.push_back(code[i].words);
    if (caseIndex == code.size() && code[i].text.rfind(caseText, 0) == 0) caseIndex = i;
  }
  EXPECT_LT(caseIndex, code.size()) << "no '" << caseText << "' in the listing";
  const gcnprobe::isa::UserSgprRoles roles = gcnprobe::isa::radvUserSgprRoles(gen, stage);
  std::vector<gcnprobe::isa::SgprEntryCopies> sgprs;
  const auto traced = gcnprobe::isa::traceDescriptors(gen, words, roles, &sgprs);
  return gcnprobe::isa::proveDataPath(gen, code, traced, sgprs, {caseIndex, path, roles});
}

DataPath lanePath() {
  DataPath p;
  p.in = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 1};
  p.out = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 2};
  p.lanes = DataPath::Lanes{};
  return p;
}

DataPath vertexPath() {
  DataPath p;
  p.in = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 0};
  p.out = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 1};
  p.address = DataPath::Address::VertexIndex;
  return p;
}

// The dwords of listing lines (the hex words after each ';').
unsigned dwordsOf(const std::string& lines) {
  unsigned n = 0;
  for (const auto& a : gcnprobe::isa::parseAcoAssembly(lines))
    n += static_cast<unsigned>(a.words.size());
  return n;
}

// "s_cbranch_execz BB6" over `dwords` dwords (SIMM16 counts dwords from the next instruction).
std::string execzOver(unsigned dwords) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "\ts_cbranch_execz BB6 ; bf88%04x\n", dwords);
  return buf;
}

// The lane shaders' entry as RADV compiles it on tonga: In's `enabled` word of the lane
// (binding 1 at byte 0x10 of set 0, offset 256) narrows EXEC, and lanes without it skip the
// block of `block` dwords.
std::string laneShaderEntry(unsigned block) {
  return "BB0:\n"
         "\ts_mov_b32 s3, 0                  ; be830080\n"
         "\ts_load_dwordx4 s[4:7], s[2:3], 0x10 ; c00a0101 00000010\n"
         "\tv_lshlrev_b32_e32 v1, 2, v0       ; 24020082\n"
         "\ts_waitcnt lgkmcnt(0)              ; bf8cc07f\n"
         "\tbuffer_load_dword v2, v1, s[4:7], 0 offen offset:256 ; e0501100 80010201\n"
         "\ts_waitcnt vmcnt(0)                ; bf8c3f70\n"
         "\tv_cmpx_ne_i32_e32 vcc, 0, v2      ; 7daa0480\n" +
         execzOver(block);
}

const char* const kTexelLoadStore =
    "\tbuffer_store_dwordx2 v[2:3], v0, s[0:3], 0 offen ; e0741000 80000200\n";

// texel.uniform.r32g32_uint.load_format_xy on tonga, Mesa 25.0.7: the load's v[2:3] go to Out
// unchanged; VADDR v1 is In's idx[l]. `beforeLoad` is inserted before the case's load,
// `beforeStore` after it, and `store` replaces the Out store; the execz branch over the block
// is recomputed (13 dwords in the original).
std::string texelLoad(const std::string& beforeLoad = "", const std::string& beforeStore = "",
                      const std::string& store = kTexelLoadStore) {
  const unsigned block = 11 + dwordsOf(beforeLoad + beforeStore + store);
  return laneShaderEntry(block) +
         "BB1:\n"
         "\ts_load_dwordx4 s[8:11], s[2:3], 0x0 ; c00a0201 00000000\n"
         "\tbuffer_load_dword v1, v1, s[4:7], 0 offen ; e0501000 80010101\n"
         "\ts_waitcnt vmcnt(0) lgkmcnt(0)     ; bf8c0070\n" +
         beforeLoad +
         "\tbuffer_load_format_xy v[2:3], v1, s[8:11], 0 idxen ; e0042000 80020201\n"
         "\ts_load_dwordx4 s[0:3], s[2:3], 0x20 ; c00a0001 00000020\n"
         "\tv_lshlrev_b32_e32 v0, 4, v0       ; 24000084\n"
         "\ts_waitcnt vmcnt(0) lgkmcnt(0)     ; bf8c0070\n" +
         beforeStore + store +
         "BB6:\n"
         "\ts_endpgm                          ; bf810000\n";
}

constexpr const char* kTexelCase = "buffer_load_format_xy";

// Proves a tonga lane-shader listing with the texel load as the case and expects the proof to
// break with a reason that contains `want`.
void expectBreak(const std::string& listing, const std::string& want,
                 const DataPath& path = lanePath()) {
  const DataPathProof p = prove(Gen::Gfx8, listing, VK_SHADER_STAGE_COMPUTE_BIT, path, kTexelCase);
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find(want), std::string::npos) << p.reason;
}

TEST(DataPath, TexelLoadStraightToOutIsProven) {
  const DataPathProof p =
      prove(Gen::Gfx8, texelLoad(), VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  ASSERT_TRUE(p.proven) << p.reason;
  ASSERT_EQ(p.links.size(), 4u);
  EXPECT_EQ(p.links[3],
            "every register is read after the memory instruction that writes it has returned "
            "(s_waitcnt)");
  EXPECT_EQ(p.links[0],
            "results v[2:3] reach Out dwords 0-1 through copies, each in the storing lane's slot "
            "(Out byte 16*lane + 4k)");
  EXPECT_EQ(p.links[1], "VADDR register v1 = the lane's In word (byte 4*lane)");
  EXPECT_EQ(
      p.links[2],
      "EXEC = exactly the enabled lanes (In byte 4*lane + 256 not 0) at the case instruction and "
      "every Out store; every path with an enabled lane runs it once and stores every result "
      "component");
}

// Each rewrite inserted between the load and the Out store breaks the proof, and the reason
// quotes the instruction with its listing line (the inserted line is line 17).
struct Rewrite {
  const char* line;
  const char* quoted;
};
TEST(DataPath, EveryKindOfRewriteIsCaught) {
  const Rewrite rewrites[] = {
      {"\tv_cvt_u32_f32_e32 v3, v3 ; 7e060f03\n", "'v_cvt_u32_f32_e32 v3, v3' (listing line 18)"},
      {"\tv_max_f32_e32 v3, -1.0, v3 ; 160606f3\n",
       "'v_max_f32_e32 v3, -1.0, v3' (listing line 18)"},
      {"\tv_mov_b32_e32 v3, v0 ; 7e060300\n", "'v_mov_b32_e32 v3, v0' (listing line 18)"},
      {"\tv_mov_b32_sdwa v3, v3 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_1 ; "
       "7e0602f9 00050403\n",
       "'v_mov_b32_sdwa v3, v3"},
      {"\tv_xor_b32_e32 v2, v2, v3 ; 2a040702\n", "'v_xor_b32_e32 v2, v2, v3' (listing line 18)"},
  };
  for (const Rewrite& r : rewrites) {
    const DataPathProof p = prove(Gen::Gfx8, texelLoad("", r.line), VK_SHADER_STAGE_COMPUTE_BIT,
                                  lanePath(), kTexelCase);
    EXPECT_FALSE(p.proven) << r.line;
    EXPECT_NE(p.reason.find(r.quoted), std::string::npos) << p.reason;
    EXPECT_NE(p.reason.find("overwrites"), std::string::npos) << p.reason;
  }
}

TEST(DataPath, SwapOnGfx9IsAPermutation) {
  const DataPathProof p = prove(Gen::Gfx9, texelLoad("", "\tv_swap_b32 v2, v3 ; 7e04a303\n"),
                                VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("component 0 -> Out dword 1, component 1 -> Out dword 0"),
            std::string::npos)
      << p.reason;
}

TEST(DataPath, XorSwapIsCaught) {
  const DataPathProof p = prove(Gen::Gfx8,
                                texelLoad("",
                                          "\tv_xor_b32_e32 v2, v2, v3 ; 2a040702\n"
                                          "\tv_xor_b32_e32 v3, v2, v3 ; 2a060702\n"
                                          "\tv_xor_b32_e32 v2, v2, v3 ; 2a040702\n"),
                                VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("v_xor_b32"), std::string::npos) << p.reason;
}

TEST(DataPath, AnExtraAddOnVaddrIsCaught) {
  const DataPathProof p = prove(Gen::Gfx8, texelLoad("\tv_add_u32_e32 v1, vcc, 4, v1 ; 32020284\n"),
                                VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("VADDR register v1 holds the value written by 'v_add_u32_e32 v1, vcc, "
                          "4, v1' (listing line 14)"),
            std::string::npos)
      << p.reason;
}

// Out writers the proof does not model break it: a narrower, D16, format or atomic write of
// Out, or a store through a descriptor the trace cannot name (it could be Out's), wherever it
// is. Encodings: llvm-mc 14 -mcpu=tonga.
TEST(DataPath, OutWritersOtherThanWholeDwordStoresBreakTheProof) {
  const std::string kNotWhole = "writes Out, and not as whole dwords";
  const struct {
    std::string beforeStore, store, want;
  } edits[] = {
      // The result stored as a byte in place of the dword store.
      {"", "\tbuffer_store_byte v2, v0, s[0:3], 0 offen ; e0601000 80000200\n",
       "'buffer_store_byte v2, v0, s[0:3], 0 offen' (listing line 18) " + kNotWhole},
      // A format store (8-bit DFMT) of the result over Out dword 0 before the dword store.
      {"\ttbuffer_store_format_x v2, v0, s[0:3], 0 offen ; e80a1000 80000200\n", kTexelLoadStore,
       "'tbuffer_store_format_x v2, v0, s[0:3], 0 offen' (listing line 18) " + kNotWhole},
      // An atomic swap on Out.
      {"\tbuffer_atomic_swap v2, v0, s[0:3], 0 offen ; e1001000 80000200\n", kTexelLoadStore,
       "'buffer_atomic_swap v2, v0, s[0:3], 0 offen' (listing line 18) " + kNotWhole},
      // A dword store through s[12:15], which nothing loads.
      {"\tbuffer_store_dword v2, v0, s[12:15], 0 offen ; e0701000 80030200\n", kTexelLoadStore,
       "'buffer_store_dword v2, v0, s[12:15], 0 offen' (listing line 18) writes memory through "
       "a descriptor the trace cannot name"},
  };
  for (const auto& e : edits) {
    SCOPED_TRACE(e.want);
    expectBreak(texelLoad("", e.beforeStore, e.store), e.want);
  }
}

// Only the case instruction and whole-dword Out stores may write memory: a store to In before
// the case reads it, a store over the case's own buffer, a scalar store and a FLAT store (which
// could write anything) break the proof; a scalar cache write-back does not. Encodings: llvm-mc
// 14 -mcpu=tonga.
TEST(DataPath, OtherMemoryWritesBreakTheProof) {
  const struct {
    std::string beforeLoad, beforeStore, want;
  } edits[] = {
      {"\tbuffer_store_dword v2, v1, s[4:7], 0 offen ; e0701000 80010201\n", "",
       "(listing line 14) writes set 0 binding 1, which is not Out"},
      {"", "\tbuffer_store_dword v2, v1, s[8:11], 0 idxen ; e0702000 80020201\n",
       "(listing line 18) writes set 0 binding 0, which is not Out"},
      {"", "\ts_store_dword s0, s[2:3], 0x0 ; c0420001 00000000\n",
       "(listing line 18) is a scalar store or atomic"},
      {"", "\tflat_store_dword v[0:1], v2 ; dc700000 00000200\n",
       "(listing line 18) is a FLAT/GLOBAL/SCRATCH instruction"},
  };
  for (const auto& e : edits) {
    SCOPED_TRACE(e.want);
    expectBreak(texelLoad(e.beforeLoad, e.beforeStore), e.want);
  }
  // After the Out store: the descriptor trace counts an SMEM instruction's SDATA as written,
  // so before it the trace of Out's descriptor would be lost.
  const DataPathProof wb =
      prove(Gen::Gfx8,
            texelLoad("", "", std::string(kTexelLoadStore) + "\ts_dcache_wb ; c0840000 00000000\n"),
            VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  EXPECT_TRUE(wb.proven) << wb.reason;
}

// The raw route's SOFFSET form guards a store to the case's buffer with a push constant it keeps
// 0: with DataPath::guardedCaseStores such a store is an assumed link, not a break; a store to In
// still breaks the proof.
TEST(DataPath, AGuardedStoreToTheCasesBufferIsAnAssumedLink) {
  DataPath path = lanePath();
  path.guardedCaseStores = true;
  // Behind a scalar branch over it (s_cbranch_scc0 over 2 dwords: llvm-mc bf840002), as the
  // SOFFSET form's `if (pc.never != 0)` compiles: assumed not to run.
  const DataPathProof p =
      prove(Gen::Gfx8,
            texelLoad("",
                      "\ts_cbranch_scc0 2 ; bf840002\n"
                      "\tbuffer_store_dword v2, v1, s[8:11], 0 idxen ; e0702000 80020201\n"),
            VK_SHADER_STAGE_COMPUTE_BIT, path, kTexelCase);
  ASSERT_TRUE(p.proven) << p.reason;
  EXPECT_EQ(p.links.back(),
            "'buffer_store_dword v2, v1, s[8:11], 0 idxen' (listing line 19) writes set 0 binding "
            "0: assumed not to run (the route keeps the push constant it is behind 0)");
  // The same store on every path (only the execz branch, taken when no lane is enabled, jumps
  // past it) is no guarded store.
  const DataPathProof unguarded =
      prove(Gen::Gfx8,
            texelLoad("", "\tbuffer_store_dword v2, v1, s[8:11], 0 idxen ; e0702000 80020201\n"),
            VK_SHADER_STAGE_COMPUTE_BIT, path, kTexelCase);
  EXPECT_FALSE(unguarded.proven);
  EXPECT_NE(unguarded.reason.find("writes set 0 binding 0, which is not Out"), std::string::npos)
      << unguarded.reason;
  const DataPathProof in = prove(
      Gen::Gfx8, texelLoad("\tbuffer_store_dword v2, v1, s[4:7], 0 offen ; e0701000 80010201\n"),
      VK_SHADER_STAGE_COMPUTE_BIT, path, kTexelCase);
  EXPECT_FALSE(in.proven);
}

// Two addresses are one only when the proof can show it: two Out stores through different
// values it cannot follow (Mixed: each set on one path only), or through one SGPR SOFFSET that
// changes between them, are not the route's one Out slot. Encodings: llvm-mc 14 -mcpu=tonga.
TEST(DataPath, AddressesTheProofCannotShowEqualAreNotOneSlot) {
  const std::string mixed =
      "\ts_cbranch_scc0 BB3 ; bf840002\n"
      "\tv_add_u32_e32 v5, vcc, 4, v0 ; 320a0084\n"
      "\tv_add_u32_e32 v6, vcc, 8, v0 ; 320c0088\n"
      "BB3:\n"
      "\tbuffer_store_dword v2, v5, s[0:3], 0 offen ; e0701000 80000205\n"
      "\tbuffer_store_dword v3, v6, s[0:3], 0 offen offset:4 ; e0701004 80000306\n";
  const std::string sgpr =
      "\tbuffer_store_dword v2, v0, s[0:3], s9 offen ; e0701000 09000200\n"
      "\ts_add_u32 s9, s9, 4 ; 80098409\n"
      "\tbuffer_store_dword v3, v0, s[0:3], s9 offen offset:4 ; e0701004 09000300\n";
  for (const std::string& store : {mixed, sgpr}) {
    SCOPED_TRACE(store);
    expectBreak(texelLoad("", "", store),
                "stores to Out at an address the proof cannot compare with the other Out "
                "stores'");
  }
}

// An incomparable address may be any other store's: a dwordx2 of the results and a dword of
// something else, both through SGPR SOFFSET s9, may write the same Out dword.
TEST(DataPath, AnIncomparableOutAddressMayOverwriteAResult) {
  expectBreak(texelLoad("", "",
                        "\tbuffer_store_dwordx2 v[2:3], v0, s[0:3], s9 offen ; e0741000 09000200\n"
                        "\tbuffer_store_dword v4, v0, s[0:3], s9 offen ; e0701000 09000400\n"),
              "it may overwrite a result");
}

// Words beyond one instruction on a line would run unseen: a listing line carries exactly one
// instruction's words.
TEST(DataPath, ALineWithMoreWordsThanItsInstructionBreaksTheProof) {
  expectBreak(
      texelLoad("", "", std::string(kTexelLoadStore) + "\ts_nop 0 ; bf800000 e0701000 80000400\n"),
      "'s_nop 0' (listing line 19) carries 3 words, but its encoding is 1");
}

// Modes that change what later vector instructions do break the proof: with
// s_set_gpr_idx_on (GFX8/9) `v_mov_b32 v2, v2` reads v[2 + the index], no copy; s_setvskip
// skips vector instructions (the Out store among them).
TEST(DataPath, VectorModesBreakTheProof) {
  const std::string idx =
      "\ts_set_gpr_idx_on s2, gpr_idx(SRC0) ; bf110102\n"
      "\tv_mov_b32_e32 v2, v2 ; 7e040302\n"
      "\ts_set_gpr_idx_off ; bf9c0000\n";
  const std::string skip = "\ts_setvskip s2, 0 ; bf108002\n";
  // The MODE register's VSKIP bit (28) set directly; llvm-mc 14 -mcpu=tonga.
  const std::string setreg =
      "\ts_setreg_imm32_b32 hwreg(HW_REG_MODE, 28, 1), 1 ; ba000701 00000001\n";
  for (const std::string& edit : {idx, skip, setreg}) {
    SCOPED_TRACE(edit);
    expectBreak(texelLoad("", edit),
                "(listing line 18) sets a mode that changes what later vector "
                "instructions do");
  }
  // Other MODE bits (the float modes, bits 0-3) change no VGPR operand; without the mode the
  // same v_mov_b32 is a copy.
  const DataPathProof fp =
      prove(Gen::Gfx8,
            texelLoad("", "",
                      std::string(kTexelLoadStore) +
                          "\ts_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 1 ; ba001801 00000001\n"),
            VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  EXPECT_TRUE(fp.proven) << fp.reason;
  EXPECT_TRUE(prove(Gen::Gfx8, texelLoad("", "\tv_mov_b32_e32 v2, v2 ; 7e040302\n"),
                    VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase)
                  .proven);
}

// A copy chain through another block (reached by a branch) keeps the value.
TEST(DataPath, CopyChainAcrossBlocksIsProven) {
  const std::string listing =
      texelLoad("", "",
                "\tv_mov_b32_e32 v5, v2 ; 7e0a0302\n"
                "\ts_branch BB3 ; bf820000\n"
                "BB3:\n"
                "\tv_mov_b32_e32 v6, v3 ; 7e0c0303\n"
                "\tbuffer_store_dwordx2 v[5:6], v0, s[0:3], 0 offen ; e0741000 80000500\n");
  const DataPathProof p =
      prove(Gen::Gfx8, listing, VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  EXPECT_TRUE(p.proven) << p.reason;
}

// A path that skips the copy (s_cbranch_scc0 over it) joins another value: not proven.
TEST(DataPath, APathThatSkipsTheCopyIsNotProven) {
  const std::string listing =
      texelLoad("", "",
                "\tv_mov_b32_e32 v5, v1 ; 7e0a0301\n"
                "\ts_cbranch_scc0 BB3 ; bf840001\n"
                "\tv_mov_b32_e32 v5, v2 ; 7e0a0302\n"
                "BB3:\n"
                "\tv_mov_b32_e32 v6, v3 ; 7e0c0303\n"
                "\tbuffer_store_dwordx2 v[5:6], v0, s[0:3], 0 offen ; e0741000 80000500\n");
  const DataPathProof p =
      prove(Gen::Gfx8, listing, VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("v2 (component 0) reaches no Out store unchanged"), std::string::npos)
      << p.reason;
}

// A copy made under a narrowed EXEC reaches only some lanes; once EXEC is restored the other
// lanes hold the register's older value, so the store after the restore proves nothing.
TEST(DataPath, ACopyUnderNarrowedExecDoesNotSurviveARestore) {
  const auto listing = [](const std::string& restore) {
    return texelLoad("", "",
                     "\tv_mov_b32_e32 v5, v2 ; 7e0a0302\n"
                     "\tv_mov_b32_e32 v6, v3 ; 7e0c0303\n" +
                         restore +
                         "\tbuffer_store_dwordx2 v[5:6], v0, s[0:3], 0 offen ; e0741000 "
                         "80000500\n");
  };
  const DataPathProof p = prove(Gen::Gfx8, listing("\ts_mov_b64 exec, -1 ; befe01c1\n"),
                                VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  EXPECT_FALSE(p.proven);
  // Without the restore the same copies are proven.
  const DataPathProof q =
      prove(Gen::Gfx8, listing(""), VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  EXPECT_TRUE(q.proven) << q.reason;
}

TEST(DataPath, AnUnreadableShapeFails) {
  const DataPathProof indirect =
      prove(Gen::Gfx8, texelLoad("", "\ts_setpc_b64 s[8:9] ; be801d08\n"),
            VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  EXPECT_FALSE(indirect.proven);
  EXPECT_NE(indirect.reason.find("'s_setpc_b64 s[8:9]' (listing line 18) transfers control "
                                 "indirectly"),
            std::string::npos)
      << indirect.reason;
  // 0xffffffff is no gfx8 encoding (the scanner rejects it).
  const uint32_t bad = 0xffffffffu;
  ASSERT_FALSE(gcn::tryScanInstruction(Gen::Gfx8, std::span<const uint32_t>(&bad, 1), 0));
  const DataPathProof undecodable =
      prove(Gen::Gfx8, texelLoad("", "\t.long 0xffffffff ; ffffffff\n"),
            VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
  EXPECT_FALSE(undecodable.proven);
  EXPECT_NE(undecodable.reason.find("is no encoding the proof decodes"), std::string::npos)
      << undecodable.reason;
}

TEST(DataPath, ARouteWithoutOutProvesNothing) {
  DataPath none = lanePath();
  none.out.reset();
  EXPECT_FALSE(prove(Gen::Gfx8, texelLoad(), VK_SHADER_STAGE_COMPUTE_BIT, none, kTexelCase).proven);
}

// vertex.a2b10g10r10_snorm_pack32.tbuffer_load_format_xyzw.packed, tonga, Mesa 25.0.7: RADV
// sign-extends W (v_bfe_i32), converts and clamps it. The fetch index is v0 + s3 (base vertex).
const char* const kVertexSnormTonga =
    "BB0:\n"
    "\ts_setprio 3                       ; bf8f0003\n"
    "\ts_mov_b32 s0, s3                  ; be800003\n"
    "\ts_mov_b32 s3, 0                   ; be830080\n"
    "\ts_load_dwordx4 s[8:11], s[2:3], 0x0 ; c00a0201 00000000\n"
    "\tv_add_u32_e32 v0, vcc, s0, v0     ; 32000000\n"
    "\ts_waitcnt lgkmcnt(0)              ; bf8cc07f\n"
    "\ttbuffer_load_format_xyzw v[4:7], v0, s[8:11], 0 "
    "format:[BUF_DATA_FORMAT_2_10_10_10,BUF_NUM_FORMAT_SNORM] idxen ; e8c9a000 80020400\n"
    "\ts_mov_b32 s5, 0                   ; be850080\n"
    "\ts_load_dwordx4 s[0:3], s[4:5], 0x0 ; c00a0002 00000000\n"
    "\ts_mov_b32 s6, 0                   ; be860080\n"
    "\ts_waitcnt vmcnt(0)                ; bf8c3f70\n"
    "\tv_bfe_i32 v7, v7, 23, 2           ; d1c90007 02092f07\n"
    "\tv_cvt_f32_i32_e32 v7, v7          ; 7e0e0b07\n"
    "\tv_max_f32_e32 v7, -1.0, v7        ; 160e0ef3\n"
    "BB1:\n"
    "\ts_lshl_b32 s7, s6, 2              ; 8e078206\n"
    "\ts_add_u32 s8, 0x100, s7           ; 800807ff 00000100\n"
    "\ts_waitcnt lgkmcnt(0)              ; bf8cc07f\n"
    "\ts_buffer_load_dword s8, s[0:3], s8 ; c0200200 00000008\n"
    "\ts_waitcnt lgkmcnt(0)              ; bf8cc07f\n"
    "\ts_cmp_lg_i32 s8, 0                ; bf018008\n"
    "\ts_cbranch_scc0 BB3                ; bf840005\n"
    "BB2:\n"
    "\ts_buffer_load_dword s7, s[0:3], s7 ; c02001c0 00000007\n"
    "\ts_waitcnt lgkmcnt(0)              ; bf8cc07f\n"
    "\tv_cmp_eq_i32_e32 vcc, s7, v0      ; 7d840007\n"
    "\ts_branch BB4                      ; bf820001\n"
    "BB3:\n"
    "\ts_mov_b64 vcc, 0                  ; beea0180\n"
    "BB4:\n"
    "\ts_and_saveexec_b64 s[8:9], vcc    ; be88206a\n"
    "\ts_cbranch_execz BB10              ; bf880006\n"
    "BB5:\n"
    "\ts_load_dwordx4 s[12:15], s[4:5], 0x10 ; c00a0302 00000010\n"
    "\ts_lshl_b32 s7, s6, 4              ; 8e078406\n"
    "\ts_waitcnt lgkmcnt(0)              ; bf8cc07f\n"
    "\tbuffer_store_dwordx4 v[4:7], off, s[12:15], s7 ; e07c0000 07030480\n"
    "BB10:\n"
    "\ts_mov_b64 exec, s[8:9]            ; befe0108\n"
    "\ts_add_u32 s6, s6, 1               ; 80068106\n"
    "\ts_cmp_ge_u32 s6, 64               ; bf09c006\n"
    "\ts_cbranch_scc0 BB1                ; bf84ffe5\n"
    "BB14:\n"
    "\ts_endpgm                          ; bf810000\n";

TEST(DataPath, VertexSnormWIsRewrittenByBfe) {
  const DataPathProof p = prove(Gen::Gfx8, kVertexSnormTonga, VK_SHADER_STAGE_VERTEX_BIT,
                                vertexPath(), "tbuffer_load_format_xyzw");
  EXPECT_FALSE(p.proven);
  // X, Y and Z reach Out unchanged: a partial proof, W the driver's rewrite.
  EXPECT_EQ(p.components, 0x7u);
  EXPECT_NE(p.reason.find("'v_bfe_i32 v7, v7, 23, 2' (listing line 13) overwrites v7, which "
                          "holds result register v7 (component 3)"),
            std::string::npos)
      << p.reason;
}

// The same shader without the three W instructions: the loop (a back edge over the store) keeps
// v[4:7], and the fetch index v0 + s3 is the vertex index.
TEST(DataPath, VertexLoopWithoutRewriteIsProven) {
  std::string listing = kVertexSnormTonga;
  for (const char* l : {"\tv_bfe_i32 v7, v7, 23, 2           ; d1c90007 02092f07\n",
                        "\tv_cvt_f32_i32_e32 v7, v7          ; 7e0e0b07\n",
                        "\tv_max_f32_e32 v7, -1.0, v7        ; 160e0ef3\n"})
    listing.erase(listing.find(l), std::string(l).size());
  // Branch targets stay right: the three removed words are before every branch's target.
  const DataPathProof p = prove(Gen::Gfx8, listing, VK_SHADER_STAGE_VERTEX_BIT, vertexPath(),
                                "tbuffer_load_format_xyzw");
  ASSERT_TRUE(p.proven) << p.reason;
  EXPECT_EQ(p.links[1], "VADDR register v0 = the vertex id plus the base vertex");
  // A fetch index that is not v0 + base vertex is caught.
  std::string other = listing;
  const std::string add = "\tv_add_u32_e32 v0, vcc, s0, v0     ; 32000000\n";
  other.replace(other.find(add), add.size(), "\tv_add_u32_e32 v0, vcc, 4, v0 ; 32000084\n");
  EXPECT_FALSE(
      prove(Gen::Gfx8, other, VK_SHADER_STAGE_VERTEX_BIT, vertexPath(), "tbuffer_load_format_xyzw")
          .proven);
}

// The same fetch on tahiti: RADV prints the VALU words raw; the proof names v_bfe_i32 from the
// encoding.
TEST(DataPath, Gfx6RawWordsAreDecoded) {
  const std::string listing =
      "BB0:\n"
      "\t.long 0xbf8f0003 /* sopp */ ; bf8f0003\n"
      "\t.long 0xbe800303 /* sop1 */ ; be800303\n"
      "\t.long 0xbe830380 /* sop1 */ ; be830380\n"
      "\t.long 0xc0840300 /* smrd */ ; c0840300\n"
      "\t.long 0x4a000000 /* vop2 */ ; 4a000000\n"
      "\t.long 0xbf8cc07f /* sopp */ ; bf8cc07f\n"
      "\ttbuffer_load_format_xyzw v[4:7], v0, s[8:11], 0 "
      "format:[BUF_DATA_FORMAT_2_10_10_10,BUF_NUM_FORMAT_SNORM] idxen ; e8cb2000 80020400\n"
      "\t.long 0xbe850380 /* sop1 */ ; be850380\n"
      "\t.long 0xc0800500 /* smrd */ ; c0800500\n"
      "\t.long 0xbf8c3f70 /* sopp */ ; bf8c3f70\n"
      "\t.long 0xd2920007, 0x02092f07 /* vop3 */ ; d2920007 02092f07\n"
      "\t.long 0xc0860504 /* smrd */ ; c0860504\n"
      "\t.long 0xbf8cc07f /* sopp */ ; bf8cc07f\n"
      "\tbuffer_store_dwordx4 v[4:7], off, s[12:15], 0 ; e0780000 80030400\n"
      "\t.long 0xbf810000 /* sopp */ ; bf810000\n";
  const DataPathProof p = prove(Gen::Gfx6, listing, VK_SHADER_STAGE_VERTEX_BIT, vertexPath(),
                                "tbuffer_load_format_xyzw");
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("'.long 0xd2920007, 0x02092f07 /* vop3 */' (v_bfe_i32) (listing line 12) "
                          "overwrites v7"),
            std::string::npos)
      << p.reason;
}

// texel.storage.r32g32_uint.store_format_xy on tonga: VDATA v[2:3] are In's data words.
std::string texelStore(const std::string& beforeStore = "") {
  const unsigned block = 10 + dwordsOf(beforeStore);
  return laneShaderEntry(block) +
         "BB1:\n"
         "\ts_load_dwordx4 s[0:3], s[2:3], 0x0 ; c00a0001 00000000\n"
         "\tv_lshlrev_b32_e32 v0, 4, v0       ; 24000084\n"
         "\tbuffer_load_dword v1, v1, s[4:7], 0 offen ; e0501000 80010101\n"
         "\tbuffer_load_dwordx2 v[2:3], v0, s[4:7], 0 offen offset:512 ; e0541200 80010200\n"
         "\ts_waitcnt vmcnt(0) lgkmcnt(0)     ; bf8c0070\n" +
         beforeStore +
         "\tbuffer_store_format_xy v[2:3], v1, s[0:3], 0 idxen ; e0142000 80000201\n"
         "BB6:\n"
         "\ts_endpgm                          ; bf810000\n";
}

TEST(DataPath, StoreDataFromInIsProvenAndAChangeIsCaught) {
  const DataPathProof ok = prove(Gen::Gfx8, texelStore(), VK_SHADER_STAGE_COMPUTE_BIT, lanePath(),
                                 "buffer_store_format_xy");
  ASSERT_TRUE(ok.proven) << ok.reason;
  EXPECT_EQ(ok.links[0],
            "VDATA v[2:3] = the lane's In data words (In byte 16*lane + 512 + 4k), unchanged");
  const DataPathProof changed =
      prove(Gen::Gfx8, texelStore("\tv_add_u32_e32 v3, vcc, 1, v3 ; 32060681\n"),
            VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), "buffer_store_format_xy");
  EXPECT_FALSE(changed.proven);
  EXPECT_NE(changed.reason.find("VDATA register v3 holds the value written by 'v_add_u32_e32 "
                                "v3, vcc, 1, v3'"),
            std::string::npos)
      << changed.reason;
  const DataPathProof swapped =
      prove(Gen::Gfx9, texelStore("\tv_swap_b32 v2, v3 ; 7e04a303\n"), VK_SHADER_STAGE_COMPUTE_BIT,
            lanePath(), "buffer_store_format_xy");
  EXPECT_FALSE(swapped.proven);
  // The swap puts data word 1 where word 0 belongs.
  EXPECT_NE(swapped.reason.find("VDATA register v2 holds In's word at byte 16*lane + 516, not the "
                                "lane's data word 0 (In byte 16*lane + 512)"),
            std::string::npos)
      << swapped.reason;
}

// RDNA: the storage route's storage.load_dword.offset0 on navi21 (gfx10.3) and navi31 (gfx11),
// RADV 25.0.7's null device. The case's load (binding 0) takes VADDR = an In word ANDed with
// -4 and its result goes straight to Out; the SMEM loads carry SOFFSET = NULL (0x7d on gfx10.3,
// 0x7c on gfx11). Inserted words are llvm-mc-15's: "v_add_nc_u32_e32 v1, 1, v1" 4a020281
// (gfx1030 and gfx1100); "v_dual_mov_b32 v3, v1 :: v_dual_mov_b32 v4, v2" ca100101 03040102
// (gfx1100, the copy moves the result to v3).
const char* const kNavi21StorageHead = R"(BB0:
	s_movk_i32 s3, 0x8000                                       ; b0038000
	s_load_dwordx4 s[4:7], s[2:3], 0x10                         ; f4080101 fa000010
	v_lshlrev_b32_e32 v1, 2, v0                                 ; 34020082
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	buffer_load_dword v2, v1, s[4:7], 0 offen offset:256        ; e0301100 80010201
	s_waitcnt vmcnt(0)                                          ; bf8c3f70
	v_cmpx_ne_i32_e32 0, v2                                     ; 7d2a0480
	s_cbranch_execz BB6                                         ; bf88000f
BB1:
	s_load_dwordx4 s[8:11], s[2:3], null                        ; f4080201 fa000000
	buffer_load_dword v1, v1, s[4:7], 0 offen                   ; e0301000 80010101
	s_waitcnt vmcnt(0)                                          ; bf8c3f70
	v_and_b32_e32 v1, -4, v1                                    ; 360202c4
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	buffer_load_dword v1, v1, s[8:11], 0 offen                  ; e0301000 80020101
	s_load_dwordx4 s[0:3], s[2:3], 0x20                         ; f4080001 fa000020
	v_lshlrev_b32_e32 v0, 4, v0                                 ; 34000084
	s_waitcnt vmcnt(0) lgkmcnt(0)                               ; bf8c0070
)";
const char* const kNavi21StorageTail =
    R"(	buffer_store_dword v1, v0, s[0:3], 0 offen                  ; e0701000 80000100
BB6:
	s_endpgm                                                    ; bf810000
)";
const char* const kNavi31StorageHead = R"(BB0:
	s_movk_i32 s3, 0x8000                                       ; b0038000
	s_load_b128 s[4:7], s[2:3], 0x10                            ; f4080101 f8000010
	v_lshlrev_b32_e32 v1, 2, v0                                 ; 30020082
	s_waitcnt lgkmcnt(0)                                        ; bf89fc07
	buffer_load_b32 v2, v1, s[4:7], 0 offen offset:256          ; e0500100 80410201
	s_waitcnt vmcnt(0)                                          ; bf8903f7
	v_cmpx_ne_i32_e32 0, v2                                     ; 7d8a0480
	s_cbranch_execz BB6                                         ; bfa5000f
BB1:
	s_load_b128 s[8:11], s[2:3], null                           ; f4080201 f8000000
	buffer_load_b32 v1, v1, s[4:7], 0 offen                     ; e0500000 80410101
	s_waitcnt vmcnt(0)                                          ; bf8903f7
	v_and_b32_e32 v1, -4, v1                                    ; 360202c4
	s_waitcnt lgkmcnt(0)                                        ; bf89fc07
	buffer_load_b32 v1, v1, s[8:11], 0 offen                    ; e0500000 80420101
	s_load_b128 s[0:3], s[2:3], 0x20                            ; f4080001 f8000020
	v_lshlrev_b32_e32 v0, 4, v0                                 ; 30000084
	s_waitcnt vmcnt(0) lgkmcnt(0)                               ; bf890007
)";
const char* const kNavi31StorageTail =
    R"(	buffer_store_b32 v1, v0, s[0:3], 0 offen                    ; e0680000 80400100
BB6:
	s_nop 0                                                     ; bf800000
	s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)                        ; bfb60003
	s_endpgm                                                    ; bfb00000
)";

DataPath storagePath() {
  DataPath p = lanePath();
  p.address = DataPath::Address::AlignedInputWords;
  p.alignBytes = 4;
  return p;
}

TEST(DataPath, RdnaStorageLoadIsProvenAndARewriteIsCaught) {
  for (const auto& [gen, head, tail] :
       {std::tuple{Gen::Gfx10_3, kNavi21StorageHead, kNavi21StorageTail},
        std::tuple{Gen::Gfx11, kNavi31StorageHead, kNavi31StorageTail}}) {
    SCOPED_TRACE(gcn::genName(gen));
    const std::string caseText =
        gen == Gen::Gfx11 ? "buffer_load_b32 v1, v1, s[8:11]" : "buffer_load_dword v1, v1, s[8:11]";
    const DataPathProof p =
        prove(gen, std::string(head) + tail, VK_SHADER_STAGE_COMPUTE_BIT, storagePath(), caseText);
    ASSERT_TRUE(p.proven) << p.reason;
    ASSERT_EQ(p.links.size(), 4u);
    EXPECT_EQ(p.links[0],
              "results v1 reach Out dwords 0-0 through copies, each in the storing lane's slot "
              "(Out byte 16*lane + 4k)");
    EXPECT_EQ(p.links[1], "VADDR register v1 = the lane's In word (byte 4*lane) ANDed with -4");
    // v_add_nc_u32 between the load and the store rewrites the result (the execz branch skips
    // one dword more; the proof follows the branch by dword count).
    std::string edited = std::string(head) + "\tv_add_nc_u32_e32 v1, 1, v1 ; 4a020281\n" + tail;
    const std::string from = gen == Gen::Gfx11 ? "bfa5000f" : "bf88000f";
    const std::string to = gen == Gen::Gfx11 ? "bfa50010" : "bf880010";
    edited.replace(edited.find(from), from.size(), to);
    const DataPathProof q =
        prove(gen, edited, VK_SHADER_STAGE_COMPUTE_BIT, storagePath(), caseText);
    EXPECT_FALSE(q.proven);
    EXPECT_NE(q.reason.find("v_add_nc_u32_e32 v1, 1, v1"), std::string::npos) << q.reason;
  }
}

// An opcode the VGPR table does not know may write any VGPR: GFX11's v_swap_b16 (VOP1 0x66;
// llvm-mc 15 does not know it; LLVM's VOP1Instructions.td, and 7e0acd81 decodes as
// "v_swap_b16 v5.l, v1.h" in public RDNA3 decoder tests) writes its source v1, the result.
TEST(DataPath, AnOpcodeTheTablesLackMayWriteAnyVgpr) {
  std::string listing =
      std::string(kNavi31StorageHead) + "\tv_swap_b16 v5, v1 ; 7e0acd01\n" + kNavi31StorageTail;
  listing.replace(listing.find("bfa5000f"), 8, "bfa50010");
  const DataPathProof p = prove(Gen::Gfx11, listing, VK_SHADER_STAGE_COMPUTE_BIT, storagePath(),
                                "buffer_load_b32 v1, v1, s[8:11]");
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("'v_swap_b16 v5, v1'"), std::string::npos) << p.reason;
}

// GFX11 VOPD: a v_dual_mov_b32 pair moving the result to v3 before the store is a copy; the
// proof follows it, and the store of v3 reaches Out.
TEST(DataPath, Gfx11VopdCopyIsFollowed) {
  std::string tail = kNavi31StorageTail;
  tail.replace(tail.find("buffer_store_b32 v1"), 19, "buffer_store_b32 v3");
  tail.replace(tail.find("e0680000 80400100"), 17, "e0680000 80400300");
  std::string listing = std::string(kNavi31StorageHead) +
                        "\tv_dual_mov_b32 v3, v1 :: v_dual_mov_b32 v4, v2 ; ca100101 03040102\n" +
                        tail;
  listing.replace(listing.find("bfa5000f"), 8, "bfa50011");
  const DataPathProof p = prove(Gen::Gfx11, listing, VK_SHADER_STAGE_COMPUTE_BIT, storagePath(),
                                "buffer_load_b32 v1, v1, s[8:11]");
  ASSERT_TRUE(p.proven) << p.reason;
  EXPECT_EQ(
      p.links[0],
      "results v1 reach Out dwords 0-0 through copies, each in the storing lane\'s slot (Out byte "
      "16*lane + 4k)");
}

// ---- The lane's own slots and words (the lane layout of the lane shaders) ---------------

// texelLoad() with the line `from` replaced by `to`; the execz branch over the block moves by
// the dwords the replacement adds when `from` is inside the block.
std::string texelLoadWith(const std::string& from, const std::string& to,
                          const std::string& beforeStore = "") {
  std::string s = texelLoad("", beforeStore);
  const std::size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at == std::string::npos) return s;
  s.replace(at, from.size(), to);
  const unsigned block = 11 + dwordsOf(beforeStore + kTexelLoadStore);
  const std::string branch = execzOver(block);
  const std::size_t b = s.find(branch);
  if (b < at) s.replace(b, branch.size(), execzOver(block + dwordsOf(to) - dwordsOf(from)));
  return s;
}

const char* const kOutAddress = "\tv_lshlrev_b32_e32 v0, 4, v0       ; 24000084\n";
const char* const kInAddressWordLoad =
    "\tbuffer_load_dword v1, v1, s[4:7], 0 offen ; e0501000 80010101\n";

// Out stores that do not put result k of a lane in that lane's slot (byte 16*lane + 4k) break
// the proof, however the address is formed: a constant VADDR, an OFFSET, no OFFEN, another
// stride, a DPP row shift of the address, an address that wraps for lane 0, an OR that moves
// the results one dword on, an SGPR SOFFSET. Encodings: llvm-mc 14, -mcpu=tonga.
TEST(DataPath, AnOutStoreOutsideTheLanesSlotIsCaught) {
  const struct {
    std::string listing;
    const char* want;
  } edits[] = {
      {texelLoad("", "\tv_mov_b32_e32 v0, 0 ; 7e000280\n"),
       "writes Out byte 0, which is no result slot of the storing lane (16*lane + 4k for "
       "component k < 2)"},
      {texelLoad("", "",
                 "\tbuffer_store_dwordx2 v[2:3], v0, s[0:3], 0 offen offset:16 ; e0741010 "
                 "80000200\n"),
       "writes Out byte 16*lane + 16, which is no result slot"},
      {texelLoad("", "", "\tbuffer_store_dwordx2 v[2:3], off, s[0:3], 0 ; e0740000 80000200\n"),
       "writes Out byte 0, which is no result slot"},
      {texelLoadWith(kOutAddress, "\tv_lshlrev_b32_e32 v0, 3, v0 ; 24000083\n"),
       "writes Out byte 8*lane, which is no result slot"},
      {texelLoad(
           "", "\tv_mov_b32_dpp v0, v0 row_shr:1 row_mask:0xf bank_mask:0xf ; 7e0002fa ff011100\n"),
       "stores to Out at an address the proof cannot tie to the lane's slot (VADDR v0 is no term "
       "of the lane id: 'v_mov_b32_dpp v0, v0 row_shr:1 row_mask:0xf bank_mask:0xf' (listing "
       "line 18) has modifiers"},
      {texelLoad("", "\tv_add_u32_e32 v0, vcc, -4, v0 ; 320000c4\n",
                 "\tbuffer_store_dwordx2 v[2:3], v0, s[0:3], 0 offen offset:4 ; e0741004 "
                 "80000200\n"),
       "'v_add_u32_e32 v0, vcc, -4, v0' (listing line 18): a step whose 32-bit result wraps for "
       "some lanes and not others"},
      {texelLoad("", "\tv_or_b32_e32 v0, 4, v0 ; 28000084\n"),
       "writes the lane's Out dword 1 with the value written by 'buffer_load_format_xy"},
      {texelLoad("", "",
                 "\tbuffer_store_dwordx2 v[2:3], v0, s[0:3], s4 offen ; e0741000 04000200\n"),
       "its SOFFSET is not a constant"},
  };
  for (const auto& e : edits) {
    SCOPED_TRACE(e.want);
    expectBreak(e.listing, e.want);
  }
}

// Addresses computed another way but equal for every lane stay proven: the terms are compared,
// not the instructions (a 24-bit multiply for the shift, two shifts, a mask that keeps every
// bit, an OR into known-zero bits undone by the OFFSET... here: an add of 4 and OFFSET 4092
// would not be equal and is refused).
TEST(DataPath, AnOutAddressComputedOtherwiseButEqualStaysProven) {
  const std::string equal[] = {
      texelLoadWith(kOutAddress, "\tv_mul_u32_u24_e32 v0, 16, v0 ; 10000090\n"),
      texelLoadWith(kOutAddress,
                    "\tv_lshlrev_b32_e32 v0, 2, v0 ; 24000082\n"
                    "\tv_lshlrev_b32_e32 v0, 2, v0 ; 24000082\n"),
      texelLoad("", "\tv_and_b32_e32 v0, 0x3ff, v0 ; 260000ff 000003ff\n"),
  };
  for (const std::string& listing : equal) {
    const DataPathProof p =
        prove(Gen::Gfx8, listing, VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
    EXPECT_TRUE(p.proven) << p.reason << "\n" << listing;
  }
  expectBreak(texelLoad("", "\tv_add_u32_e32 v0, vcc, 4, v0 ; 32000084\n",
                        "\tbuffer_store_dwordx2 v[2:3], v0, s[0:3], 0 offen offset:4092 ; "
                        "e0741ffc 80000200\n"),
              "writes Out byte 16*lane + 4096, which is no result slot");
}

// The VADDR must be the lane's own address word (In byte 4*lane), loaded as a whole dword: the
// enable word, lane 0's word for every lane, a sub-dword or a format load of it are not.
TEST(DataPath, AnAddressWordThatIsNotTheLanesIsCaught) {
  const struct {
    std::string listing;
    const char* want;
  } edits[] = {
      {texelLoadWith(
           kInAddressWordLoad,
           "\tbuffer_load_dword v1, v1, s[4:7], 0 offen offset:256 ; e0501100 80010101\n"),
       "VADDR register v1 holds In's word at byte 4*lane + 256, not the lane's address word (In "
       "byte 4*lane)"},
      {texelLoadWith(kInAddressWordLoad,
                     std::string("\tv_mov_b32_e32 v1, 0 ; 7e020280\n") + kInAddressWordLoad),
       "VADDR register v1 holds In's word at byte 0, not the lane's address word"},
      {texelLoadWith(kInAddressWordLoad,
                     "\tbuffer_load_ushort v1, v1, s[4:7], 0 offen ; e0481000 80010101\n"),
       "which does not load In as whole dwords"},
      {texelLoadWith(kInAddressWordLoad,
                     "\tbuffer_load_format_x v1, v1, s[4:7], 0 offen ; e0001000 80010101\n"),
       "which does not load In as whole dwords"},
  };
  for (const auto& e : edits) {
    SCOPED_TRACE(e.want);
    expectBreak(e.listing, e.want);
  }
}

// A store case's VDATA must be the lane's data words (In byte 16*lane + 512 + 4k): the same
// dwordx2 load through the lane's address word register (byte 4*lane... once v1 is reloaded,
// an In word, no term) is refused, and through v1 = 4*lane it reads the wrong words.
TEST(DataPath, StoreDataThatIsNotTheLanesDataWordsIsCaught) {
  std::string listing = texelStore();
  const std::string data =
      "\tbuffer_load_dwordx2 v[2:3], v0, s[4:7], 0 offen offset:512 ; e0541200 80010200\n";
  const std::size_t at = listing.find(data);
  ASSERT_NE(at, std::string::npos);
  listing.replace(at, data.size(),
                  "\tbuffer_load_dwordx2 v[2:3], v1, s[4:7], 0 offen offset:512 ; e0541200 "
                  "80010201\n");
  DataPathProof p =
      prove(Gen::Gfx8, listing, VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), "buffer_store_format_xy");
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("VDATA register v2 holds a word of In that 'buffer_load_dwordx2 v[2:3], "
                          "v1, s[4:7], 0 offen offset:512' (listing line 14) loads from an address "
                          "the proof cannot evaluate"),
            std::string::npos)
      << p.reason;
  // Before the address word's load overwrites v1 (= 4*lane): In bytes 4*lane + 512.
  listing = texelStore();
  const std::string reload = "\tbuffer_load_dword v1, v1, s[4:7], 0 offen ; e0501000 80010101\n";
  listing.replace(listing.find(data), data.size(),
                  "\tbuffer_load_dwordx2 v[2:3], v1, s[4:7], 0 offen offset:512 ; e0541200 "
                  "80010201\n");
  const std::size_t r = listing.find(reload);
  ASSERT_NE(r, std::string::npos);
  listing.erase(r, reload.size());
  const std::size_t d = listing.find("\tbuffer_load_dwordx2");
  listing.insert(listing.find('\n', d) + 1, reload);
  p = prove(Gen::Gfx8, listing, VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), "buffer_store_format_xy");
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("VDATA register v2 holds In's word at byte 4*lane + 512, not the lane's "
                          "data word 0 (In byte 16*lane + 512)"),
            std::string::npos)
      << p.reason;
}

// ---- EXEC per lane and every path -------------------------------------------------------

const char* const kCompareEnable = "\tv_cmpx_ne_i32_e32 vcc, 0, v2      ; 7daa0480\n";
const char* const kCaseLoad =
    "\tbuffer_load_format_xy v[2:3], v1, s[8:11], 0 idxen ; e0042000 80020201\n";

// The case instruction and the Out stores must run on exactly the lanes whose enable word (In
// byte 256 + 4*lane) is not 0: EXEC set to lane 0 or inverted before the narrowing, narrowed
// by another value (the address word), or narrowed again before the store is refused. (A write
// of EXEC after the narrowing also loses the values written under it: the tags break first.)
// Encodings: llvm-mc 14, -mcpu=tonga.
TEST(DataPath, ExecThatIsNotExactlyTheEnabledLanesIsCaught) {
  const struct {
    std::string listing;
    const char* want;
  } edits[] = {
      {texelLoadWith(kCompareEnable,
                     std::string("\ts_mov_b64 exec, 1 ; befe0181\n") + kCompareEnable),
       "'buffer_load_format_xy v[2:3], v1, s[8:11], 0 idxen' (listing line 15) runs with EXEC = "
       "a lane mask the proof cannot name, not exactly the lanes whose enable word (In byte "
       "4*lane + 256) is not 0"},
      {texelLoadWith(kCompareEnable,
                     std::string("\ts_xor_b64 exec, exec, s[0:1] ; 88fe007e\n") + kCompareEnable),
       "runs with EXEC = a lane mask the proof cannot name"},
      {texelLoadWith(kCompareEnable, "\tv_cmpx_ne_i32_e32 vcc, 0, v1 ; 7daa0280\n"),
       "runs with EXEC = a lane mask the proof cannot name"},
      {texelLoad("", "\tv_cmpx_ne_i32_e32 vcc, 0, v1 ; 7daa0280\n"),
       "'buffer_store_dwordx2 v[2:3], v0, s[0:3], 0 offen' (listing line 19) runs with EXEC = "
       "a lane mask the proof cannot name"},
  };
  for (const auto& e : edits) {
    SCOPED_TRACE(e.want);
    expectBreak(e.listing, e.want);
  }
}

// Every path on which a lane may be enabled runs the case instruction once and stores every
// result component: a uniform branch (s_cbranch_scc0, llvm-mc bf840002) over the only Out
// store, and a branch back to the case load (bf84fffd: -3 dwords) that may run it twice, are
// refused. The execz branch around the block is a path with no enabled lane: no obligation.
TEST(DataPath, EveryPathMustRunTheCaseOnceAndStoreEveryComponent) {
  expectBreak(texelLoad("", "\ts_cbranch_scc0 2 ; bf840002\n"),
              "a path reaches 's_endpgm' (listing line 21) without storing result component 0 "
              "to Out while lanes may be enabled");
  expectBreak(texelLoadWith(kCaseLoad, std::string(kCaseLoad) + "\ts_cbranch_scc0 -3 ; bf84fffd\n"),
              "'s_cbranch_scc0 -3' (listing line 15) branches back: the proof does not show that "
              "a loop ends");
}

// EXEC narrowed another way to the same lanes stays proven: v_cmp_ne_u32 into VCC and
// s_and_saveexec_b64 (7d9a0480, be80206a), or v_cmpx_gt_u32_e64 x > 0 (d0dc0000 00010102).
TEST(DataPath, ExecNarrowedAnotherWayToTheEnabledLanesStaysProven) {
  const std::string listings[] = {
      texelLoadWith(kCompareEnable,
                    "\tv_cmp_ne_u32_e32 vcc, 0, v2 ; 7d9a0480\n"
                    "\ts_and_saveexec_b64 s[0:1], vcc ; be80206a\n"),
      texelLoadWith(kCompareEnable, "\tv_cmpx_gt_u32_e64 s[0:1], v2, 0 ; d0dc0000 00010102\n"),
  };
  for (const std::string& listing : listings) {
    const DataPathProof p =
        prove(Gen::Gfx8, listing, VK_SHADER_STAGE_COMPUTE_BIT, lanePath(), kTexelCase);
    EXPECT_TRUE(p.proven) << p.reason << "\n" << listing;
  }
}

// ---- Saved listings (saved_listing.h) ---------------------------------------------------

gcnprobe::isa::SavedProof proveFile(const std::string& text) {
  return gcnprobe::isa::proveSavedListing(gcnprobe::isa::parseSavedListing(text, "case.lst"));
}

// The header `isa --dump-asm` writes for a case.
std::string texelHeader(const std::string& caseText = "buffer_load_format_xy v[2:3],  v1") {
  return gcnprobe::isa::savedListingHeader(gcn::parseAnyChip("tonga"), "texel", caseText);
}

TEST(SavedListing, AnUneditedListingIsProvenThroughTheWholeCheck) {
  const gcnprobe::isa::SavedProof p = proveFile(texelHeader() + texelLoad());
  ASSERT_TRUE(p.proven) << p.reason;
  // The case instruction is the texel load (line 18 of the file: 4 header lines first).
  EXPECT_EQ(p.instruction, "buffer_load_format_xy v[2:3], v1, s[8:11], 0 idxen (line 18)");
  const std::vector<std::string> want = {
      "instruction: proven: buffer_load_format_xy v[2:3], v1, s[8:11], 0 idxen ; e0042000 "
      "80020201 on set 0 binding 0",
      "data path: results v[2:3] reach Out dwords 0-1 through copies, each in the storing lane\'s "
      "slot (Out byte "
      "16*lane + 4k)",
      "data path: VADDR register v1 = the lane's In word (byte 4*lane)"};
  for (const std::string& w : want)
    EXPECT_NE(std::find(p.links.begin(), p.links.end(), w), p.links.end()) << w;
}

TEST(SavedListing, AnEditThatRewritesTheResultIsRefusedWithItsLine) {
  const gcnprobe::isa::SavedProof p =
      proveFile(texelHeader() + texelLoad("", "\tv_cvt_u32_f32_e32 v3, v3 ; 7e060f03\n"));
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("'v_cvt_u32_f32_e32 v3, v3' (listing line 22)"), std::string::npos)
      << p.reason;
}

TEST(SavedListing, ACaseInstructionOnAnotherBufferOrAbsentIsNotProven) {
  // The In load (set 0 binding 1) is no case instruction of the texel route.
  gcnprobe::isa::SavedProof p = proveFile(texelHeader("buffer_load_dword v1, v1") + texelLoad());
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("only on set 0 binding 1"), std::string::npos) << p.reason;
  p = proveFile(texelHeader("buffer_load_format_xyzw") + texelLoad());
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("no buffer instruction of the listing starts with "
                          "'buffer_load_format_xyzw'"),
            std::string::npos)
      << p.reason;
}

TEST(SavedListing, AStageLineStartsTheListingOfAnotherExecutable) {
  const std::string text = texelHeader() +
                           "--- stage compute (the driver calls it 'Compute Shader') ---\n" +
                           texelLoad();
  const gcnprobe::isa::SavedListing s = gcnprobe::isa::parseSavedListing(text, "case.lst");
  ASSERT_EQ(s.executables.size(), 1u);
  EXPECT_EQ(s.executables[0].name, "Compute Shader");
  EXPECT_TRUE(gcnprobe::isa::proveSavedListing(s).proven);
}

// A V# is traced to its binding only through a pointer whose high half is the driver's
// 32-bit address space (0 before GFX9): the case's descriptor reloaded through s[2:3] after
// `s_mov_b32 s3, 0x1234` (llvm-mc: be8300ff 00001234) comes from elsewhere, so the case
// instruction is on no known buffer; the same reload with s3 = 0 (`s_mov_b32 s3, 0`) stays
// proven.
TEST(SavedListing, AV_SharpThroughAnotherPointerHighHalfIsNotTraced) {
  const std::string reload =
      "\ts_load_dwordx4 s[8:11], s[2:3], 0x0 ; c00a0201 00000000\n"
      "\ts_waitcnt lgkmcnt(0)              ; bf8cc07f\n";
  gcnprobe::isa::SavedProof p =
      proveFile(texelHeader() + texelLoad("\ts_mov_b32 s3, 0x1234 ; be8300ff 00001234\n" + reload));
  EXPECT_FALSE(p.proven);
  EXPECT_NE(p.reason.find("its high half the driver's constant 0x00000000"), std::string::npos)
      << p.reason;
  p = proveFile(texelHeader() + texelLoad("\ts_mov_b32 s3, 0 ; be830080\n" + reload));
  EXPECT_TRUE(p.proven) << p.reason;
}

// The folder of saved listings (tests/harness/isa/listings, made by its make-edits.py from two
// unedited RADV listings with llvm-mc's words): one edit of each family of hole the proof once
// had, each refused with its reason, and true edits (copies, an equal address computed another
// way, EXEC narrowed another way) proven. Each file's `# expect:` line says which.
TEST(SavedListing, EditedListingsOfThisFolder) {
  const std::filesystem::path dir =
      std::filesystem::path(GCNPROBE_SOURCE_DIR) / "tests/harness/isa/listings";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".lst") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::size_t refused = 0, proven = 0;
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    std::ifstream in(f);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t at = text.find("# expect: ");
    ASSERT_NE(at, std::string::npos);
    const std::string expect = text.substr(at + 10, text.find('\n', at) - at - 10);
    const gcnprobe::isa::SavedProof p = gcnprobe::isa::proveSavedListing(
        gcnprobe::isa::parseSavedListing(text, f.filename().string()));
    if (expect == "proven") {
      EXPECT_TRUE(p.proven) << p.reason;
      ++proven;
    } else {
      ASSERT_EQ(expect.rfind("refused: ", 0), 0u) << expect;
      EXPECT_FALSE(p.proven);
      EXPECT_NE(p.reason.find(expect.substr(9)), std::string::npos) << p.reason;
      ++refused;
    }
  }
  EXPECT_EQ(refused, 27u);  // one per family
  EXPECT_EQ(proven, 7u);    // the three unedited listings and four true edits
}

// Malformed files: an error with the file's name and line, never a proof.
TEST(SavedListing, MalformedFilesAreErrorsNamingTheLine) {
  const std::string listing = texelLoad();
  const struct {
    std::string text;
    std::string want;
  } bad[] = {
      {"chip = tonga\nroute = texel\ncolour = red\ncase = buffer_load\n" + listing,
       "case.lst:3: unknown key 'colour'"},
      {"chip = tonga\ncase = buffer_load\n" + listing, "no 'route =' line"},
      {"route = texel\ncase = buffer_load\n" + listing, "no 'chip =' or 'gen =' line"},
      {"chip = tonga\nroute = texel\n" + listing, "no 'case =' line"},
      {"chip = tonga\ngen = gfx9\nroute = texel\ncase = b\n" + listing,
       "case.lst:2: gen = gfx9 is not tonga's (gfx8)"},
      {"chip = tonga\nroute = texel\nroute = storage\ncase = b\n" + listing,
       "case.lst:3: 'route' is given twice"},
      {"chip = tonga\nroute = pixel\ncase = b\n" + listing, "case.lst:2: no route 'pixel'"},
      {"chip = gfx42\nroute = texel\ncase = b\n" + listing, "case.lst:1:"},
      {"chip = tonga\nroute = texel\ncase = b\n", "no listing"},
      {"chip = tonga\nroute = texel\ncase = b\nBB0:\n\tv_nop\n", "case.lst:5:"},
      {"chip = tonga\nroute = texel\ncase = b\n--- stage pixel ---\n" + listing,
       "case.lst:4: stage line names no known stage ('pixel'"},
      {"gen = tonga\nroute = texel\ncase = b\n" + listing,
       "case.lst:1: gen = tonga: a generation is written gfx6"},
      {"chip = tonga\nroute = texel\ncase = b\n--- stage compute (the driver calls it 'A') "
       "---\n" +
           listing + "--- stage compute (the driver calls it 'A') ---\n" + listing,
       "a second executable named 'A'"},
      {"chip = tonga\nroute = texel\ncase = b\n" + listing +
           "--- stage compute (the driver calls it 'Compute Shader') ---\n" + listing,
       "both name 'Compute Shader'"},
  };
  for (const auto& b : bad) {
    SCOPED_TRACE(b.want);
    try {
      proveFile(b.text);
      ADD_FAILURE() << "accepted";
    } catch (const gcn::Error& e) {
      EXPECT_NE(std::string(e.what()).find(b.want), std::string::npos) << e.what();
    }
  }
}

// `case` must select one instruction's fields: a prefix shared by loads of different
// opcodes is ambiguous (malformed), not a proof of either.
TEST(SavedListing, AnAmbiguousCaseIsMalformed) {
  try {
    proveFile(texelHeader("buffer_load") + texelLoad());
    ADD_FAILURE() << "accepted";
  } catch (const gcn::Error& e) {
    // The two In loads (OFFSET 256 and 0) already differ.
    EXPECT_NE(std::string(e.what()).find("case.lst:4: 'case = buffer_load' selects instructions "
                                         "that differ in offset: line 10 and line 16"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace data_path_test
