// The ISA check (harness/isa): ACO's Assembly text parsed into words, buffer words decoded by
// the reference and compared with ACO's own text, the intended-instruction match, the
// runner's route-miss verdict, the clrxdisasm stand-in's listing and the coverage rows.
// ACO texts below are pasted from RADV's null device (Mesa 22.3.6, `gcnprobe _smoke-isa`
// and `gcnprobe isa --family tonga|vega10`); their words are ACO's, their text is LLVM 15's
// disassembler (gfx8+), so agreement with the reference decoder is an independent check.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "harness/cases/suite.h"
#include "harness/isa/aco_asm.h"
#include "harness/isa/check.h"
#include "harness/isa/clrx_listing.h"
#include "harness/isa/coverage.h"
#include "harness/isa/descriptor_trace.h"
#include "harness/run/runner.h"
#include "reference/assembler.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/opcodes.h"

namespace isa_test {

using gcn::Gen;
using gcnprobe::isa::Outcome;

// `gcnprobe _smoke-isa` on RADV_FORCE_FAMILY=tonga (the smoke_fill shader).
const char* kTongaSmoke = R"(BB0:
	s_mov_b32 s0, s3                                            ; be800003
	s_mov_b32 s3, 0                                             ; be830080
	s_load_dwordx4 s[4:7], s[2:3], 0x0                          ; c00a0101 00000000
	v_mad_u32_u24 v0, s0, 64, v0                                ; d1c30000 04018000
	v_mad_u32_u24 v1, 3, v0, 1                                  ; d1c30001 02060083
	v_lshlrev_b32_e32 v0, 2, v0                                 ; 24000082
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	buffer_store_dword v1, v0, s[4:7], 0 offen glc              ; e0705000 80010100
	s_endpgm                                                    ; bf810000
)";

// Buffer lines of texel pipelines (gcnprobe isa --family tonga / vega10, texel_load_uniform_f4
// and texel_store_f) and docs/platform.md's vertex fetch (gfx8+).
const char* kTexelGfx8 = R"(BB0:
	buffer_load_dword v2, v1, s[4:7], 0 offen offset:256        ; e0501100 80010201
	buffer_load_dword v1, v1, s[4:7], 0 offen                   ; e0501000 80010101
	buffer_load_format_xyzw v[4:7], v1, s[8:11], 0 idxen        ; e00c2000 80020401
	tbuffer_load_format_xyzw v[4:7], v0, s[8:11], 0 format:[BUF_DATA_FORMAT_2_10_10_10,BUF_NUM_FORMAT_SNORM] idxen ; e8c9a000 80020400
	buffer_store_dwordx4 v[4:7], v0, s[4:7], 0 offen glc        ; e07c5000 80010400
	s_endpgm                                                    ; bf810000

/* constant data */
[000000] 00000000 3f800000
)";

// The texel pipelines' descriptor loads (tonga, texel_load_uniform_f4): s[4:7] <- set 0
// byte 0x10 (binding 1, the lane input SSBO), s[8:11] <- byte 0 (binding 0, the case's texel
// buffer), so kTexelGfx8's idxen accesses on s[8:11] are the case's. The pointer's high half s3
// is 0 before GFX9 (s_mov_b32 s3, 0: be830080) and 0xffff8000 from GFX9 on (s_movk_i32 s3,
// 0x8000: b0038000), as RADV's null-device listings set it.
std::string texelLoads(Gen gen = Gen::Gfx8) {
  return std::string(gen >= Gen::Gfx9 ? "\ts_movk_i32 s3, 0x8000 ; b0038000\n"
                                      : "\ts_mov_b32 s3, 0 ; be830080\n") +
         R"(	s_load_dwordx4 s[4:7], s[2:3], 0x10                         ; c00a0101 00000010
	s_load_dwordx4 s[8:11], s[2:3], 0x0                         ; c00a0201 00000000
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
)";
}

// `gcnprobe isa --family tahiti|tonga --filter storage.load_dword.offset0 --dump-asm` and
// `--family vega10 --filter vertex.r8_unorm.tbuffer_load_format_x.packed --dump-asm`
// (Mesa 22.3.6 on RADV's null device; gfx6 text is the clrxdisasm stand-in's).
const char* kTahitiStorageLoadDword = R"(BB0:
	.long 0xbe830380 /* sop1 */                                 ; be830380
	.long 0xc0820304 /* smrd */                                 ; c0820304
	.long 0x34020082 /* vop2 */                                 ; 34020082
	.long 0xbf8cc07f /* sopp */                                 ; bf8cc07f
	buffer_load_dword v2, v1, s[4:7], 0 offen offset:256        ; e0301100 80010201
	.long 0xbe80047e /* sop1 */                                 ; be80047e
	.long 0xbf8c3f70 /* sopp */                                 ; bf8c3f70
	.long 0x7d2a0480 /* vopc */                                 ; 7d2a0480
	.long 0xbf88000d /* sopp */                                 ; bf88000d
BB1:
	.long 0xc0840300 /* smrd */                                 ; c0840300
	buffer_load_dword v1, v1, s[4:7], 0 offen                   ; e0301000 80010101
	.long 0xbf8c3f70 /* sopp */                                 ; bf8c3f70
	.long 0x360202c4 /* vop2 */                                 ; 360202c4
	.long 0xbf8cc07f /* sopp */                                 ; bf8cc07f
	buffer_load_dword v1, v1, s[8:11], 0 offen                  ; e0301000 80020101
	.long 0xc0820308 /* smrd */                                 ; c0820308
	.long 0x34000084 /* vop2 */                                 ; 34000084
	.long 0xbf8c0070 /* sopp */                                 ; bf8c0070
	buffer_store_dword v1, v0, s[4:7], 0 offen glc              ; e0705000 80010100
BB6:
	.long 0xbf810000 /* sopp */                                 ; bf810000
)";
const char* kTongaStorageLoadDword = R"(BB0:
	s_mov_b32 s3, 0                                             ; be830080
	s_load_dwordx4 s[4:7], s[2:3], 0x10                         ; c00a0101 00000010
	v_lshlrev_b32_e32 v1, 2, v0                                 ; 24020082
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	buffer_load_dword v2, v1, s[4:7], 0 offen offset:256        ; e0501100 80010201
	s_mov_b64 s[0:1], exec                                      ; be80017e
	s_waitcnt vmcnt(0)                                          ; bf8c3f70
	v_cmpx_ne_i32_e32 vcc, 0, v2                                ; 7daa0480
	s_cbranch_execz BB6                                         ; bf88000f
BB1:
	s_load_dwordx4 s[8:11], s[2:3], 0x0                         ; c00a0201 00000000
	buffer_load_dword v1, v1, s[4:7], 0 offen                   ; e0501000 80010101
	s_waitcnt vmcnt(0)                                          ; bf8c3f70
	v_and_b32_e32 v1, -4, v1                                    ; 260202c4
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	buffer_load_dword v1, v1, s[8:11], 0 offen                  ; e0501000 80020101
	s_load_dwordx4 s[4:7], s[2:3], 0x20                         ; c00a0101 00000020
	v_lshlrev_b32_e32 v0, 4, v0                                 ; 24000084
	s_waitcnt vmcnt(0) lgkmcnt(0)                               ; bf8c0070
	buffer_store_dword v1, v0, s[4:7], 0 offen glc              ; e0705000 80010100
BB6:
	s_endpgm                                                    ; bf810000
)";
const char* kVega10VertexFetch = R"(BB0:
	s_setprio 3                                                 ; bf8f0003
	s_mov_b32 s0, s3                                            ; be800003
	s_movk_i32 s3, 0x8000                                       ; b0038000
	s_load_dwordx4 s[8:11], s[2:3], 0x0                         ; c00a0201 00000000
	v_add_u32_e32 v0, s0, v0                                    ; 68000000
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	tbuffer_load_format_x v1, v0, s[8:11], 0 idxen              ; e8082000 80020100
	s_mov_b32 s0, 0                                             ; be800080
BB1:
	s_cmp_ge_u32 s0, 64                                         ; bf09c000
	s_cbranch_scc1 BB14                                         ; bf850023
BB4:
	s_mov_b32 s2, s4                                            ; be820004
	s_movk_i32 s3, 0x8000                                       ; b0038000
	s_load_dwordx4 s[8:11], s[2:3], 0x0                         ; c00a0201 00000000
	s_lshl_b32 s1, s0, 2                                        ; 8e018200
	s_lshl2_add_u32 s5, s0, 0x100                               ; 9785ff00 00000100
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	s_buffer_load_dword s5, s[8:11], s5                         ; c0200144 00000005
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	s_cmp_lg_i32 s5, 0                                          ; bf018005
	s_cbranch_scc0 BB6                                          ; bf840005
BB5:
	s_buffer_load_dword s1, s[8:11], s1                         ; c0200044 00000001
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	v_cmp_eq_i32_e32 vcc, s1, v0                                ; 7d840001
	s_branch BB7                                                ; bf820001
BB6:
	s_mov_b64 vcc, 0                                            ; beea0180
BB7:
	s_and_saveexec_b64 s[6:7], vcc                              ; be86206a
	s_cbranch_execz BB13                                        ; bf88000b
BB8:
	s_load_dwordx4 s[8:11], s[2:3], 0x10                        ; c00a0201 00000010
	s_lshl_b32 s5, s0, 4                                        ; 8e058400
	s_waitcnt vmcnt(0)                                          ; bf8c3f70
	v_mov_b32_e32 v4, v1                                        ; 7e080301
	v_mov_b32_e32 v5, 0                                         ; 7e0a0280
	v_mov_b32_e32 v6, 0                                         ; 7e0c0280
	v_mov_b32_e32 v7, 1.0                                       ; 7e0e02f2
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	buffer_store_dwordx4 v[4:7], off, s[8:11], s5 glc           ; e07c4000 05020480
BB13:
	s_mov_b64 exec, s[6:7]                                      ; befe0106
	s_add_u32 s0, s0, 1                                         ; 80008100
	s_branch BB1                                                ; bf82ffdb
BB14:
	v_mov_b32_e32 v0, 0                                         ; 7e000280
	s_waitcnt vmcnt(0)                                          ; bf8c3f70
	v_mov_b32_e32 v1, 1.0                                       ; 7e0202f2
	exp pos0 v0, v0, v0, v1                                     ; c40000cf 01000000
	exp pos1 v1, off, off, off done                             ; c40008d1 80808001
	s_endpgm                                                    ; bf810000
)";

gcnprobe::routes::PipelineIsa isaOf(const std::string& assembly, bool offsetFixed = true,
                                    VkShaderStageFlags stage = VK_SHADER_STAGE_COMPUTE_BIT) {
  gcnprobe::routes::PipelineIsa p;
  // The name is deliberately neither driver's spelling: executables are matched by stage.
  p.executables.push_back({"any name", "", assembly, "", stage, "test listing", {}});
  p.offsetFixed = offsetFixed;
  // The routes' data paths (docs/isa.md "The data path"): the lane shaders' In at binding 1
  // and Out at binding 2; the vertex shader's In at binding 0, Out at 1, the vertex index.
  using gcnprobe::routes::BufferSlot;
  using gcnprobe::routes::DataPath;
  const bool vertex = stage == VK_SHADER_STAGE_VERTEX_BIT;
  p.dataPath.in = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, vertex ? 0u : 1u};
  p.dataPath.out = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, vertex ? 1u : 2u};
  p.dataPath.address =
      vertex ? DataPath::Address::VertexIndex : DataPath::Address::AlignedInputWords;
  p.dataPath.alignBytes = 4;
  if (!vertex) p.dataPath.lanes = DataPath::Lanes{};
  return p;
}

// kTexelGfx8 is a list of buffer instructions, not a shader: an instruction the check finds
// there on the case's buffer still has no data path to Out, so the check says exactly that.
void expectFoundWithoutPath(const gcnprobe::isa::CheckResult& r) {
  EXPECT_EQ(r.outcome, Outcome::RouteMiss);
  EXPECT_NE(r.reason.find("is in the pipeline on the case's buffer, but its data path is not "
                          "proven"),
            std::string::npos)
      << r.reason;
}

gcn::Instruction intended(Gen gen, const char* text) {
  return gcn::parseInstruction(gen, text);
}

TEST(AcoAssembly, ParsesTextAndWordsSkippingLabelsAndConstantData) {
  const auto ins = gcnprobe::isa::parseAcoAssembly(kTongaSmoke);
  ASSERT_EQ(ins.size(), 9u);
  EXPECT_EQ(ins[2].text, "s_load_dwordx4 s[4:7], s[2:3], 0x0");
  EXPECT_EQ(ins[2].words, (std::vector<uint32_t>{0xc00a0101, 0x00000000}));
  EXPECT_EQ(ins[2].line, 4);
  EXPECT_EQ(gcnprobe::isa::mnemonicOf(ins[7].text), "buffer_store_dword");
  // The "[000000] ..." line after "/* constant data */" is data, not an instruction.
  EXPECT_EQ(gcnprobe::isa::parseAcoAssembly(kTexelGfx8).size(), 6u);
}

TEST(AcoAssembly, MalformedWordsAreErrorsWithLineAndColumn) {
  try {
    gcnprobe::isa::parseAcoAssembly("BB0:\n\ts_endpgm ; bf81zz00\n");
    FAIL() << "no error";
  } catch (const gcn::Error& e) {
    EXPECT_EQ(e.place().line, 2);
    EXPECT_EQ(e.place().column, 13);
    EXPECT_NE(e.reason().find("bf81zz00"), std::string::npos);
  }
  EXPECT_THROW(gcnprobe::isa::parseAcoAssembly("\ts_endpgm ;\n"), gcn::Error);
}

// Mesa 25's listings (and 22.3's, for identical neighbours) print "(then repeated N times)"
// after an instruction instead of N more copies (aco_print_asm.cpp, print_asm_llvm): the
// stream must hold every copy, or every later instruction's dword position is wrong.
TEST(AcoAssembly, RepeatMarkersStandForThatManyCopies) {
  const char* text =
      "BB0:\n"
      "\ts_nop 0                                                     ; bf800000\n"
      "\t(then repeated 3 times)\n"
      "\tbuffer_load_dword v1, v0, s[4:7], 0 offen                   ; e0501000 80010100\n"
      "\ts_endpgm                                                    ; bf810000\n";
  const auto ins = gcnprobe::isa::parseAcoAssembly(text);
  ASSERT_EQ(ins.size(), 6u);  // s_nop x4, the load, s_endpgm
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(ins[i].words, (std::vector<uint32_t>{0xbf800000})) << i;
    EXPECT_EQ(ins[i].text, "s_nop 0") << i;
  }
  EXPECT_EQ(ins[1].line, 3);  // the copies point at the marker
  EXPECT_EQ(ins[4].words, (std::vector<uint32_t>{0xe0501000, 0x80010100}));
  EXPECT_EQ(ins[4].line, 4);
  EXPECT_EQ(
      gcnprobe::isa::parseAcoAssembly("\ts_nop 0 ; bf800000\n\t(then repeated 0 times)\n").size(),
      1u);
}

// A line of no known shape is an error that names the listing's source and the line, never
// a skipped line (which would silently shorten the instruction stream).
TEST(AcoAssembly, UnknownLineShapesAreErrorsNamingTheSourceAndLine) {
  const auto errorOf = [](const char* text) -> std::string {
    try {
      gcnprobe::isa::parseAcoAssembly(text, "radv Mesa 99.1 (compute)");
    } catch (const gcn::Error& e) {
      return e.what();
    }
    return "no error";
  };
  // clrxdisasm missing on gfx6/7 (print_asm_clrx prints this instead of a listing).
  const std::string missing = errorOf("BB0:\nclrxdisasm not found\n");
  EXPECT_NE(missing.find("radv Mesa 99.1 (compute):2:"), std::string::npos) << missing;
  EXPECT_NE(missing.find("clrxdisasm not found"), std::string::npos) << missing;
  // A repeat marker must follow an instruction; its count must be a number.
  EXPECT_NE(errorOf("\t(then repeated 2 times)\n").find(":1:"), std::string::npos);
  EXPECT_NE(errorOf("\ts_nop 0 ; bf800000\n\t(then repeated many times)\n").find(":2:"),
            std::string::npos);
  // A label must be BB<digits>:.
  EXPECT_NE(errorOf("BBx:\n").find(":1:"), std::string::npos);
  EXPECT_EQ(errorOf("BB0:\n\ts_endpgm ; bf810000\n\n/* constant data */\n[000000] 00000001\n"),
            "no error");
}

// gfx8/gfx9: the reference's decode of ACO's words equals LLVM's text read by the project's
// parser: every field (opcode, registers, format, idxen/offen, offset, glc).
TEST(IsaCheck, DecoderAgreesWithAcoTextOnGfx8AndGfx9) {
  for (Gen gen : {Gen::Gfx8, Gen::Gfx9}) {
    const auto emitted =
        gcnprobe::isa::emittedBufferInstructions(gen, isaOf(kTexelGfx8).executables);
    ASSERT_EQ(emitted.size(), 5u) << gcn::genName(gen);
    for (const auto& e : emitted) {
      SCOPED_TRACE(e.driverText);
      ASSERT_TRUE(e.decoded) << e.decodeError;
      EXPECT_EQ(e.textDisagreement, "");
      EXPECT_EQ(std::string(e.inst.op->mnemonic), gcnprobe::isa::mnemonicOf(e.driverText));
    }
    // Fields read off the words, by hand from the LLVM texts above.
    EXPECT_EQ(emitted[0].inst.offset, 256);
    EXPECT_TRUE(emitted[0].inst.offen);
    EXPECT_TRUE(emitted[2].inst.idxen);
    EXPECT_EQ(emitted[2].inst.srsrc, 8);
    EXPECT_EQ(emitted[3].inst.dfmt, gcn::Dfmt::F2_10_10_10);
    EXPECT_EQ(emitted[3].inst.nfmt, gcn::Nfmt::Snorm);
    EXPECT_TRUE(emitted[4].inst.glc);
  }
  const auto smoke =
      gcnprobe::isa::emittedBufferInstructions(Gen::Gfx8, isaOf(kTongaSmoke).executables);
  ASSERT_EQ(smoke.size(), 1u);
  EXPECT_EQ(smoke[0].textDisagreement, "");
}

TEST(IsaCheck, TextThatContradictsTheWordsIsReported) {
  // Words of buffer_load_format_xyzw (op 3), text claiming _xy.
  const char* lie = "\tbuffer_load_format_xy v[4:5], v1, s[8:11], 0 idxen ; e00c2000 80020401\n";
  const auto e = gcnprobe::isa::emittedBufferInstructions(Gen::Gfx8, isaOf(lie).executables);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(std::string(e[0].inst.op->mnemonic), "buffer_load_format_xyzw");
  EXPECT_NE(e[0].textDisagreement, "");
}

TEST(IsaCheck, IntendedInstructionPresentIsVerified) {
  const auto r = gcnprobe::isa::checkIsa(
      Gen::Gfx8, intended(Gen::Gfx8, "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen"),
      isaOf(texelLoads() + kTexelGfx8));
  expectFoundWithoutPath(r);
  // Registers are the compiler's choice: the check ignores them.
  const auto t = gcnprobe::isa::checkIsa(
      Gen::Gfx9,
      intended(Gen::Gfx9,
               "tbuffer_load_format_xyzw v[0:3], v9, s[12:15], 0 "
               "format:[BUF_DATA_FORMAT_2_10_10_10,BUF_NUM_FORMAT_SNORM] idxen"),
      isaOf(texelLoads(Gen::Gfx9) + kTexelGfx8));
  expectFoundWithoutPath(t);
  // A real pipeline (the storage route's dword load on tonga) is verified, data path included.
  const auto v = gcnprobe::isa::checkIsa(
      Gen::Gfx8, intended(Gen::Gfx8, "buffer_load_dword v1, v0, s[4:7], 0 offen"),
      isaOf(kTongaStorageLoadDword));
  EXPECT_EQ(v.outcome, Outcome::Verified) << v.reason;
  ASSERT_EQ(v.proven.size(), 6u);
  EXPECT_EQ(v.proven[0],
            "instruction: proven: buffer_load_dword v1, v1, s[8:11], 0 offen ; e0501000 80020101 "
            "on set 0 binding 0");
  EXPECT_EQ(v.proven[2],
            "data path: results v1 reach Out dwords 0-0 through copies, each in the storing "
            "lane\'s slot (Out byte "
            "16*lane + 4k)");
  EXPECT_EQ(v.proven[3],
            "data path: VADDR register v1 = the lane's In word (byte 4*lane) ANDed with -4");
  EXPECT_EQ(v.proven[4],
            "data path: EXEC = exactly the enabled lanes (In byte 4*lane + 256 not 0) at the case "
            "instruction and every Out store; every path with an enabled lane runs it once and "
            "stores every result component");
  // Without the descriptor loads nothing ties s[8:11] to the case's buffer: no proof.
  const auto u = gcnprobe::isa::checkIsa(
      Gen::Gfx8, intended(Gen::Gfx8, "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen"),
      isaOf(kTexelGfx8));
  EXPECT_EQ(u.outcome, Outcome::RouteMiss);
  EXPECT_NE(u.reason.find("descriptor not traced"), std::string::npos) << u.reason;
}

// Deliberately wrong intended instructions: each differs from everything in the pipeline in
// one compared field, so each is a route-miss naming what the pipeline holds.
TEST(IsaCheck, DeliberatelyWrongIntendedInstructionIsRouteMiss) {
  const char* wrong[] = {
      "buffer_load_format_xy v[1:2], v0, s[4:7], 0 idxen",             // opcode
      "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 offen",           // offen instead of idxen
      "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen offset:4",  // offset
      ("tbuffer_load_format_xyzw v[0:3], v9, s[12:15], 0 "
       "format:[BUF_DATA_FORMAT_2_10_10_10,BUF_NUM_FORMAT_UNORM] idxen"),  // nfmt
      "buffer_load_sbyte v1, v0, s[4:7], 0 offen",                         // not there at all
      "buffer_load_format_xyzw v[1:5], v0, s[4:7], 0 idxen tfe",           // tfe
      "buffer_load_format_xyzw v[1:4], v0, s[4:7], s2 idxen",              // SOFFSET an SGPR
      "buffer_load_format_xyzw v[1:4], v0, s[4:7], 1 idxen",               // another constant
  };
  for (const char* w : wrong) {
    SCOPED_TRACE(w);
    const auto r = gcnprobe::isa::checkIsa(Gen::Gfx8, intended(Gen::Gfx8, w), isaOf(kTexelGfx8));
    EXPECT_EQ(r.outcome, Outcome::RouteMiss);
    EXPECT_NE(
        r.reason.find("buffer_load_format_xyzw v[4:7], v1, s[8:11], 0 idxen ; e00c2000 80020401"),
        std::string::npos)
        << r.reason;
  }
  // OFFSET is compared only where the route fixes it.
  const auto loose = gcnprobe::isa::checkIsa(
      Gen::Gfx8,
      intended(Gen::Gfx8, "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen offset:4"),
      isaOf(texelLoads() + kTexelGfx8, false));
  expectFoundWithoutPath(loose);
}

// GLC and SLC steer caches on loads and stores (verified, with a note naming both settings);
// on an atomic GLC decides whether the pre-op value comes back, so it must match.
TEST(IsaCheck, CacheBitsAreNotedOnLoadsAndComparedOnAtomics) {
  const auto r = gcnprobe::isa::checkIsa(
      Gen::Gfx8, intended(Gen::Gfx8, "buffer_load_dword v1, v0, s[4:7], 0 offen glc"),
      isaOf(kTongaStorageLoadDword));
  EXPECT_EQ(r.outcome, Outcome::Verified) << r.reason;
  EXPECT_NE(r.reason.find("cache bits differ (intended glc=1 slc=0, emitted glc=0 slc=0)"),
            std::string::npos)
      << r.reason;
  const auto same = gcnprobe::isa::checkIsa(
      Gen::Gfx8, intended(Gen::Gfx8, "buffer_load_dword v1, v0, s[4:7], 0 offen"),
      isaOf(kTongaStorageLoadDword));
  EXPECT_EQ(same.outcome, Outcome::Verified) << same.reason;
  EXPECT_EQ(same.reason, "");
  const gcn::Instruction add = intended(Gen::Gfx8, "buffer_atomic_add v1, v0, s[4:7], 0 offen");
  const gcn::Instruction addGlc =
      intended(Gen::Gfx8, "buffer_atomic_add v1, v0, s[4:7], 0 offen glc");
  EXPECT_EQ(gcnprobe::isa::mismatchField(addGlc, add, true), "glc");
  EXPECT_EQ(gcnprobe::isa::mismatchField(add, add, true), "");
  const gcn::Instruction addSlc =
      intended(Gen::Gfx8, "buffer_atomic_add v1, v0, s[4:7], 0 offen slc");
  EXPECT_EQ(gcnprobe::isa::mismatchField(addSlc, add, true), "");
  EXPECT_NE(gcnprobe::isa::cacheBitsNote(addSlc, add), "");
  // RDNA MTBUF: the unified FORMAT is compared (decoded from llvm-mc-15's gfx1030 words for
  // format:[BUF_FMT_32_FLOAT] e8b02000 80010100 and format:[BUF_FMT_32_UINT] e8a02000 80010100).
  const auto f32 = gcn::tryDecode(Gen::Gfx10_3, 0xe8b02000u, 0x80010100u);
  const auto u32 = gcn::tryDecode(Gen::Gfx10_3, 0xe8a02000u, 0x80010100u);
  ASSERT_TRUE(f32 && u32);
  EXPECT_EQ(gcnprobe::isa::mismatchField(*f32, *u32, true), "format");
  EXPECT_EQ(gcnprobe::isa::mismatchField(*f32, *f32, true), "");
  // SOFFSET: any SGPR stands for any other (the route loads the value); never a constant.
  const gcn::Instruction s2 = intended(Gen::Gfx8, "buffer_load_dword v1, v0, s[4:7], s2 offen");
  const gcn::Instruction s9 = intended(Gen::Gfx8, "buffer_load_dword v1, v0, s[4:7], s9 offen");
  const gcn::Instruction zero = intended(Gen::Gfx8, "buffer_load_dword v1, v0, s[4:7], 0 offen");
  EXPECT_EQ(gcnprobe::isa::mismatchField(s2, s9, true), "");
  EXPECT_EQ(gcnprobe::isa::mismatchField(s2, zero, true), "soffset");
  EXPECT_EQ(gcnprobe::isa::mismatchField(zero, s2, true), "soffset");
  // ADDR64 (gfx6/7) and LDS change where the data goes or comes from.
  const gcn::Instruction a64 =
      intended(Gen::Gfx7, "buffer_load_dword v1, v[0:1], s[4:7], 0 addr64");
  gcn::Instruction noA64 = a64;
  noA64.addr64 = false;
  EXPECT_EQ(gcnprobe::isa::mismatchField(a64, noA64, true), "addr64");
  EXPECT_EQ(gcnprobe::isa::mismatchField(
                intended(Gen::Gfx8, "buffer_load_dword v1, v0, s[4:7], 0 offen lds"),
                intended(Gen::Gfx8, "buffer_load_dword v1, v0, s[4:7], 0 offen"), true),
            "lds");
}

TEST(IsaCheck, NoIsaAndNoAssemblyAreNotVerified) {
  const auto inst = intended(Gen::Gfx6, "buffer_load_format_x v1, v0, s[4:7], 0 idxen");
  EXPECT_EQ(gcnprobe::isa::checkIsa(Gen::Gfx6, inst, {}).outcome, Outcome::NoIsa);
  EXPECT_EQ(gcnprobe::isa::checkIsa(Gen::Gfx6, inst, isaOf("")).outcome, Outcome::NoAssembly);
}

// A route whose device results are garbage and whose pipeline holds the wrong instruction:
// the runner must say route-miss (never pass or fail); with the right ISA it stays a diff
// verdict.
class FakeRoute final : public gcnprobe::routes::Route {
 public:
  explicit FakeRoute(std::string isa, unsigned components = 1)
      : isa_(std::move(isa)), components_(components) {}
  std::string_view name() const override { return "fake"; }
  bool handles(const gcnprobe::routes::DeviceCase&) const override { return true; }
  std::string unsupportedReason(const gcnprobe::routes::DeviceCase&) const override { return ""; }
  std::string batchKey(const gcnprobe::routes::DeviceCase&) const override { return "k"; }
  std::vector<gcnprobe::routes::DeviceResult> run(
      std::span<const gcnprobe::routes::DeviceCase* const> cases) override {
    std::vector<gcnprobe::routes::DeviceResult> out(cases.size());
    for (auto& r : out) {
      r.vdataCount = components_;
      for (auto& lane : r.vdata)
        for (unsigned k = 0; k < components_; ++k)
          lane[k] = 0x7fc00001u;  // a NaN no load of an 8-bit UNORM texel returns
    }
    for (std::size_t i = 0; i < cases.size(); ++i)
      out[i].memory = cases[i]->memory.bytes;
    return out;
  }
  gcnprobe::routes::PipelineIsa pipelineIsa(const gcnprobe::routes::DeviceCase&) override {
    return isaOf(isa_);
  }

 private:
  std::string isa_;
  unsigned components_;
};

gcnprobe::results::CaseResult runCase(const std::string& isa, const std::string& name,
                                      unsigned components) {
  const gcn::Chip& chip = gcn::representativeChip(Gen::Gfx8);
  const auto cases = gcnprobe::cases::buildCases("texel", name, chip);
  EXPECT_EQ(cases.size(), 1u);
  std::vector<std::unique_ptr<gcnprobe::routes::Route>> routes;
  routes.push_back(std::make_unique<FakeRoute>(isa, components));
  gcnprobe::run::RunOptions ro;
  ro.profile = gcnprobe::judge::resolveProfile("gfx8", std::nullopt);
  ro.jobs = 1;
  gcnprobe::results::CaseResult out;
  gcnprobe::run::runCases(cases, routes, ro,
                          [&](const gcnprobe::results::CaseResult& r) { out = r; });
  return out;
}

gcnprobe::results::Verdict runOne(const std::string& isa, std::string* reason) {
  const gcn::Chip& chip = gcn::representativeChip(Gen::Gfx8);
  const auto cases =
      gcnprobe::cases::buildCases("texel", "texel.uniform.r8_unorm.load_format_x", chip);
  EXPECT_EQ(cases.size(), 1u);
  std::vector<std::unique_ptr<gcnprobe::routes::Route>> routes;
  routes.push_back(std::make_unique<FakeRoute>(isa));
  gcnprobe::run::RunOptions ro;
  ro.profile = gcnprobe::judge::resolveProfile("gfx8", std::nullopt);
  ro.jobs = 1;
  gcnprobe::results::Verdict v = gcnprobe::results::Verdict::Error;
  gcnprobe::run::runCases(cases, routes, ro, [&](const gcnprobe::results::CaseResult& r) {
    v = r.verdict;
    *reason = r.reason;
  });
  return v;
}

// The lane shader's part before its case instruction, as RADV compiles it on tonga: the
// descriptors (Out in s[12:15]); v1 = 4*lane, the lane's In address word; EXEC narrowed to the
// lanes whose enable word (byte 256 + 4*lane) is not 0 (v_cmpx_ne_i32); v0 = 16*lane, the lane's
// Out slot; v1 = the address word, waited for.
std::string laneShader() {
  return texelLoads() +
         "\ts_load_dwordx4 s[12:15], s[2:3], 0x20 ; c00a0301 00000020\n"
         "\tv_lshlrev_b32_e32 v1, 2, v0 ; 24020082\n"
         "\tbuffer_load_dword v2, v1, s[4:7], 0 offen offset:256 ; e0501100 "
         "80010201\n"
         "\ts_waitcnt vmcnt(0) ; bf8c3f70\n"
         "\tv_cmpx_ne_i32_e32 vcc, 0, v2 ; 7daa0480\n"
         "\tv_lshlrev_b32_e32 v0, 4, v0 ; 24000084\n"
         "\tbuffer_load_dword v1, v1, s[4:7], 0 offen ; e0501000 80010101\n"
         "\ts_waitcnt vmcnt(0) ; bf8c3f70\n";
}

TEST(IsaCheck, RunnerTurnsAWrongPipelineIntoRouteMiss) {
  std::string reason;
  // The pipeline holds buffer_load_format_xyzw, the case intends buffer_load_format_x.
  EXPECT_EQ(runOne(kTexelGfx8, &reason), gcnprobe::results::Verdict::RouteMiss) << reason;
  EXPECT_NE(reason.find("buffer_load_format_x v1, v0, s[4:7], 0 idxen"), std::string::npos);
  // The intended instruction, its index the lane's In word (binding 1, byte 4*lane: v1 = v0 << 2),
  // on the lanes whose enable word (byte 256 + 4*lane) is not 0 (v_cmpx_ne_i32), its result
  // stored to the lane's Out slot (binding 2, loaded into s[12:15], byte 16*lane: v0 << 4): the
  // data path holds, so the lanes are compared.
  const std::string right = laneShader() +
                            "\tbuffer_load_format_x v1, v1, s[8:11], 0 idxen ; e0002000 80020101\n"
                            "\ts_waitcnt vmcnt(0) lgkmcnt(0) ; bf8c0070\n"
                            "\tbuffer_store_dword v1, v0, s[12:15], 0 offen ; e0701000 80030100\n";
  EXPECT_EQ(runOne(right, &reason), gcnprobe::results::Verdict::Fail) << reason;
  // The same with the result changed before the store (v_add_u32 v1, vcc, 1, v1): the driver's
  // arithmetic, not the instruction, would be compared: a route-miss.
  std::string changed = right;
  changed.insert(changed.find("\tbuffer_store_dword"),
                 "\tv_add_u32_e32 v1, vcc, 1, v1 ; 32020281\n");
  EXPECT_EQ(runOne(changed, &reason), gcnprobe::results::Verdict::RouteMiss) << reason;
  EXPECT_NE(reason.find("'v_add_u32_e32 v1, vcc, 1, v1'"), std::string::npos) << reason;
  // The same instruction on the lane-input SSBO's descriptor (s[4:7], binding 1) proves
  // nothing about the case's buffer.
  const std::string io =
      texelLoads() + "\tbuffer_load_format_x v1, v1, s[4:7], 0 idxen ; e0002000 80010101\n";
  EXPECT_EQ(runOne(io, &reason), gcnprobe::results::Verdict::RouteMiss) << reason;
}

// A pipeline whose instruction and data path are proven for X, Y and Z but whose W the driver
// rewrites (v_add_u32 v7, vcc, 1, v7 between the load and the Out store; llvm-mc 320 0e 0e 81):
// the case is a route-miss (its weakest component), its proof links are kept, and the lanes
// are judged on X, Y and Z only (the fake device returns a NaN in every component, so each
// enabled lane differs in X, Y and Z, and W is not compared).
TEST(IsaCheck, APartlyProvenCaseIsARouteMissJudgedOnItsProvenComponents) {
  const std::string listing = laneShader() +
                              "\tbuffer_load_format_xyzw v[4:7], v1, s[8:11], 0 idxen ; e00c2000 "
                              "80020401\n"
                              "\ts_waitcnt vmcnt(0) lgkmcnt(0) ; bf8c0070\n"
                              "\tv_add_u32_e32 v7, vcc, 1, v7 ; 320e0e81\n"
                              "\tbuffer_store_dwordx4 v[4:7], v0, s[12:15], 0 offen ; e07c1000 "
                              "80030400\n";
  const auto check = gcnprobe::isa::checkIsa(
      Gen::Gfx8, intended(Gen::Gfx8, "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen"),
      isaOf(listing));
  EXPECT_EQ(check.outcome, Outcome::RouteMiss);
  EXPECT_EQ(check.components, 0x7u);
  EXPECT_NE(check.reason.find("its data path is proven for X, Y, Z only: 'v_add_u32_e32 v7, vcc, "
                              "1, v7' (listing line 15) overwrites v7"),
            std::string::npos)
      << check.reason;
  EXPECT_NE(std::find(check.proven.begin(), check.proven.end(),
                      "data path: result components 0, 1, 2 of 4 (v4, v5, v6) reach Out dwords 0, "
                      "1, 2 through copies, each in the storing lane's slot (Out byte 16*lane + "
                      "4k)"),
            check.proven.end());

  const gcnprobe::results::CaseResult r =
      runCase(listing, "texel.uniform.r8g8b8a8_unorm.load_format_xyzw", 4);
  EXPECT_EQ(r.verdict, gcnprobe::results::Verdict::RouteMiss) << r.reason;
  EXPECT_FALSE(r.proof.empty());
  std::size_t differ = 0;
  for (const auto& d : r.diffs) {
    EXPECT_LT(d.component, 3u);
    if (!d.match) ++differ;
  }
  // Every lane the case enables differs in X, Y and Z (the lanes it leaves out keep Out's fill).
  EXPECT_GT(differ, 0u);
  EXPECT_EQ(differ % 3, 0u);
  EXPECT_NE(std::find(r.notes.begin(), r.notes.end(),
                      "isa: components X, Y, Z proven; on them " + std::to_string(differ) +
                          " component values differ from the reference"),
            r.notes.end());
}

// The clrxdisasm stand-in: one "/*offset*/ text" line per instruction, offsets advancing by
// the llvm-mc lengths (tests/reference/code_scan_test.cpp), buffer words printed in LLVM
// syntax, everything else as .long.
TEST(ClrxListing, OffsetsFollowInstructionLengthsAndBufferTextIsLlvmSyntax) {
  const uint32_t words[] = {
      0xbe8003ff, 0x12345678,  // s_mov_b32 s0, 0x12345678 (8 bytes, llvm-mc -mcpu=tahiti)
      0xc0820301,              // s_load_dwordx4 s[4:7], s[2:3], 0x1
      0xe0301000, 0x80010001,  // buffer_load_dword v0, v1, s[4:7], 0 offen
      0xd2820000, 0x040e0501,  // v_mad_f32 v0, v1, v2, v3
      0xbf810000,              // s_endpgm
  };
  const std::string out = gcnprobe::isa::clrxListing(Gen::Gfx6, words);
  EXPECT_EQ(out,
            "/*000000000000*/ .long 0xbe8003ff, 0x12345678 /* sop1 */\n"
            "/*000000000008*/ .long 0xc0820301 /* smrd */\n"
            "/*00000000000c*/ buffer_load_dword v0, v1, s[4:7], 0 offen\n"
            "/*000000000014*/ .long 0xd2820000, 0x040e0501 /* vop3 */\n"
            "/*00000000001c*/ .long 0xbf810000 /* sopp */\n");
  EXPECT_EQ(out.find(".L"), std::string::npos);
  EXPECT_EQ(out.find(';'), std::string::npos);
}

TEST(ClrxListing, UnknownWordsBecomeSingleLongsAndGpuTypesMapToGenerations) {
  const uint32_t words[] = {0xd4000001, 0xbf810000};  // gfx8 VINTRP: no gfx6 encoding
  EXPECT_EQ(gcnprobe::isa::clrxListing(Gen::Gfx6, words),
            "/*000000000000*/ .long 0xd4000001 /* unknown */\n"
            "/*000000000004*/ .long 0xbf810000 /* sopp */\n");
  // ACO's to_clrx_device_name spellings.
  EXPECT_EQ(gcnprobe::isa::clrxGpuTypeGen("tahiti"), Gen::Gfx6);
  EXPECT_EQ(gcnprobe::isa::clrxGpuTypeGen("capeverde"), Gen::Gfx6);
  EXPECT_EQ(gcnprobe::isa::clrxGpuTypeGen("gfx700"), Gen::Gfx7);
  EXPECT_EQ(gcnprobe::isa::clrxGpuTypeGen("hawaii"), Gen::Gfx7);
  EXPECT_THROW(gcnprobe::isa::clrxGpuTypeGen("navi10"), gcn::Error);
}

TEST(Coverage, RowsCountReachedPairsAndSayWhyNot) {
  using gcnprobe::isa::CaseIsaRecord;
  using gcnprobe::isa::CaseOutcome;
  const std::vector<CaseIsaRecord> recs = {
      {"a", "buffer_load_format_x", gcn::Dfmt::F8, gcn::Nfmt::Unorm, CaseOutcome::Verified, ""},
      {"b", "buffer_load_format_x", gcn::Dfmt::F8, gcn::Nfmt::Snorm, CaseOutcome::Verified,
       "VK_FORMAT_R8_SNORM lacks X"},
      {"c", "buffer_load_format_x", gcn::Dfmt::F16, gcn::Nfmt::Float, CaseOutcome::RouteMiss, ""},
      {"d", "buffer_load_dword", std::nullopt, std::nullopt, CaseOutcome::Verified, ""},
  };
  const auto rows = gcnprobe::isa::coverage(Gen::Gfx8, recs, "tonga");
  const auto row = [&](const char* m) {
    return *std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.mnemonic == m; });
  };
  EXPECT_EQ(row("buffer_load_format_x").reached, 1u);
  // 8_UNORM, 8_SNORM and 16_FLOAT are legal loads (CLRX GcnMemHandling), so at least those are
  // known.
  EXPECT_GE(row("buffer_load_format_x").known, 3u);
  EXPECT_LE(row("buffer_load_format_x").known, 14u * 8u);
  EXPECT_NE(row("buffer_load_format_x").whyNot.find("unsupported on tonga: <format> lacks X"),
            std::string::npos);
  EXPECT_NE(row("buffer_load_format_x").whyNot.find("ISA route-miss"), std::string::npos);
  EXPECT_EQ(row("buffer_load_dword").known, 1u);
  EXPECT_EQ(row("buffer_load_dword").reached, 1u);
  EXPECT_EQ(row("buffer_load_dword").whyNot, "");
  EXPECT_EQ(row("buffer_load_ubyte").whyNot, "no case in any suite uses it");
  // The binary route's column: "built", the reason, or "not tried"; its total in the heading.
  const std::map<std::string, std::string> binary = {{"buffer_load_dword", ""},
                                                     {"buffer_load_ubyte", "binary route: X"}};
  const std::string md =
      gcnprobe::isa::coverageMarkdown(gcn::representativeChip(Gen::Gfx8), rows, &binary);
  EXPECT_NE(md.find("binary route: 1 of " + std::to_string(rows.size()) + " opcodes built"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| buffer_load_dword | 1 | 1 |  | built |"), std::string::npos) << md;
  EXPECT_NE(md.find("| binary route: X |"), std::string::npos) << md;
  EXPECT_NE(md.find("| buffer_load_sbyte | 1 | 0 | no case in any suite uses it | not tried |"),
            std::string::npos)
      << md;
  EXPECT_EQ(
      gcnprobe::isa::coverageMarkdown(gcn::representativeChip(Gen::Gfx8), rows).find("binary"),
      std::string::npos);
  // gfx8-only instructions have no gfx6 row.
  const auto gfx6 = gcnprobe::isa::coverage(Gen::Gfx6, recs, "tahiti");
  EXPECT_TRUE(std::none_of(gfx6.begin(), gfx6.end(),
                           [](const auto& r) { return r.mnemonic == "buffer_load_format_d16_x"; }));
}

// ---- descriptor tracing (harness/isa/descriptor_trace.h) -----------------------------------

// The high half of RADV's 32-bit pointers as ACO sets it before the first descriptor load
// (null-device listings): s_mov_b32 s3, 0 before GFX9 (SOP1 opcode 3 on gfx6/7, 0 on gfx8;
// llvm-mc: be830380, be830080), s_movk_i32 s3, 0x8000 (sign-extended: 0xffff8000; b0038000)
// from GFX9 on.
std::vector<uint32_t> pointerHighHalf(Gen gen) {
  if (gen >= Gen::Gfx9) return {0xb0038000u};
  return {gen >= Gen::Gfx8 ? 0xbe830080u : 0xbe830380u};
}

// The trace of `assembly` after the prelude that sets the pointers' high half (s3).
std::vector<std::string> tracedSlots(Gen gen, const std::string& assembly,
                                     VkShaderStageFlags stage = VK_SHADER_STAGE_COMPUTE_BIT) {
  std::vector<std::vector<uint32_t>> words{pointerHighHalf(gen)};
  for (const auto& a : gcnprobe::isa::parseAcoAssembly(assembly))
    words.push_back(a.words);
  std::vector<std::string> out;
  for (const auto& t :
       gcnprobe::isa::traceDescriptors(gen, words, gcnprobe::isa::radvUserSgprRoles(gen, stage)))
    if (t.why != "not a buffer instruction")
      out.push_back(t.slot ? gcnprobe::isa::bufferSlotName(*t.slot) : "untraced");
  return out;
}

// The storage route's shader (shaders/storage_access.comp): binding 0 = the case's SSBO,
// 1 = lane inputs, 2 = results. RADV puts binding b at byte 16*b of the set (16-byte buffer
// descriptors, radv_descriptor_set.c); set 0's pointer is s2 in a compute shader. Expected
// slots by hand from the scalar loads in the listings:
//   tonga (SMEM, byte offsets): s_load_dwordx4 s[4:7] @0x10 -> binding 1; s[8:11] @0x0 ->
//   binding 0; s[4:7] @0x20 -> binding 2.
//   tahiti (SMRD, dword offsets): c0820304 = sdst s4, sbase s[2:3], IMM, OFFSET 4 dwords =
//   16 bytes -> binding 1; c0840300 = s8, 0 -> binding 0; c0820308 = s4, 8 dwords -> 2.
TEST(DescriptorTrace, StorageRouteListingsOnGfx6AndGfx8) {
  const std::vector<std::string> expected = {
      "set 0 binding 1",  // buffer_load_dword ... offset:256 (the lane's address input)
      "set 0 binding 1",  // buffer_load_dword (the lane's address)
      "set 0 binding 0",  // buffer_load_dword on the case's SSBO
      "set 0 binding 2",  // buffer_store_dword (the result)
  };
  EXPECT_EQ(tracedSlots(Gen::Gfx8, kTongaStorageLoadDword), expected);
  EXPECT_EQ(tracedSlots(Gen::Gfx6, kTahitiStorageLoadDword), expected);
}

// The vertex route's VS on vega10: s[2:3] is first the vertex buffer table (the attribute
// fetch at byte 0 = vertex buffer binding 0), then inside the result loop ACO copies s4
// (set 0's pointer in a VS) into s2 and loads byte 0x10 (binding 1 = the result SSBO). The
// loop's back edge merges s2 = vertex buffers with s2 = set 0, so only the in-loop copy
// makes the store traceable.
TEST(DescriptorTrace, VertexShaderFetchIsTheVertexBufferAndTheLoopStoreIsBinding1) {
  EXPECT_EQ(tracedSlots(Gen::Gfx9, kVega10VertexFetch, VK_SHADER_STAGE_VERTEX_BIT),
            (std::vector<std::string>{"vertex buffer 0", "set 0 binding 1"}));
  // Unknown stage: no argument roles, so nothing is traced.
  EXPECT_EQ(tracedSlots(Gen::Gfx9, kVega10VertexFetch, VK_SHADER_STAGE_FRAGMENT_BIT),
            (std::vector<std::string>{"untraced", "untraced"}));
  // Merged stages (a GFX9 VS+GS executable) have another argument layout: not guessed.
  EXPECT_EQ(tracedSlots(Gen::Gfx9, kVega10VertexFetch,
                        VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_GEOMETRY_BIT),
            (std::vector<std::string>{"untraced", "untraced"}));
}

// The vertex route's VS on navi21, shortened from Mesa 25.0.7's null device (`isa --dump-asm`;
// the result loop replaced by one store, its words assembled by llvm-mc-15): an NGG vertex
// shader runs as the merged GS stage, so its user SGPRs start at s8: the vertex buffer table
// in s8 (s9 is overwritten with the address's high half after the base vertex is copied out),
// set 0's pointer in s10. The fetch is vertex buffer 0, the result store set 0 binding 1; on
// GCN's argument layout (s2 = vertex buffers) nothing would be traced.
const char* kNavi21VertexFetch = R"(BB0:
	s_setprio 3                                                 ; bf8f0003
	s_and_b32 s0, s3, 0xf000000                                 ; 8700ff03 0f000000
	s_cbranch_scc1 BB3                                          ; bf850007
BB1:
	s_bfe_u32 s0, s2, 0x90016                                   ; 9380ff02 00090016
	s_lshl_b32 s0, s0, 12                                       ; 8f008c00
	s_bfe_u32 s2, s2, 0x9000c                                   ; 9382ff02 0009000c
	s_or_b32 m0, s0, s2                                         ; 887c0200
	s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)                         ; bf900009
BB3:
	s_mov_b32 s0, s9                                            ; be800309
	s_movk_i32 s9, 0x8000                                       ; b0098000
	s_load_dwordx4 s[4:7], s[8:9], null                         ; f4080104 fa000000
	v_add_nc_u32_e32 v5, s0, v5                                 ; 4a0a0a00
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	buffer_load_dword v1, v5, s[4:7], 0 idxen                   ; e0302000 80010105
	s_movk_i32 s11, 0x8000                                      ; b00b8000
	s_load_dwordx4 s[12:15], s[10:11], 0x10                     ; f4080305 fa000010
	s_waitcnt vmcnt(0) lgkmcnt(0)                               ; bf8c0070
	buffer_store_dword v1, v5, s[12:15], 0 idxen                ; e0702000 80030105
	s_endpgm                                                    ; bf810000
)";

// The same on navi31 (gfx11, Mesa 25.0.7), shortened the same way: vertex buffers in s8, the
// base vertex in s9 added to the vertex id in v5, set 0 in s10.
const char* kNavi31VertexFetch = R"(BB0:
	s_setprio 3                                                 ; bfb50003
	s_pack_ll_b32_b16 s0, 0, s3                                 ; 99000380
	s_delay_alu instid0(SALU_CYCLE_1)                           ; bf870009
	s_bfe_u64 exec, -1, s0                                      ; 947e00c1
BB1:
	s_mov_b32 s0, s9                                            ; be800009
	s_movk_i32 s9, 0x8000                                       ; b0098000
	s_load_b128 s[4:7], s[8:9], null                            ; f4080104 f8000000
	v_add_nc_u32_e32 v5, s0, v5                                 ; 4a0a0a00
	s_waitcnt lgkmcnt(0)                                        ; bf89fc07
	buffer_load_b32 v1, v5, s[4:7], 0 idxen                     ; e0500000 80810105
	s_movk_i32 s11, 0x8000                                      ; b00b8000
	s_load_b128 s[12:15], s[10:11], 0x10                        ; f4080305 f8000010
	s_waitcnt vmcnt(0) lgkmcnt(0)                               ; bf890007
	buffer_store_b32 v1, v5, s[12:15], 0 idxen                  ; e0680000 80830105
	s_endpgm                                                    ; bfb00000
)";

TEST(DescriptorTrace, RdnaVertexShaderArgumentsStartAtS8) {
  EXPECT_EQ(tracedSlots(Gen::Gfx10_3, kNavi21VertexFetch, VK_SHADER_STAGE_VERTEX_BIT),
            (std::vector<std::string>{"vertex buffer 0", "set 0 binding 1"}));
  EXPECT_EQ(tracedSlots(Gen::Gfx11, kNavi31VertexFetch, VK_SHADER_STAGE_VERTEX_BIT),
            (std::vector<std::string>{"vertex buffer 0", "set 0 binding 1"}));
  EXPECT_EQ(tracedSlots(Gen::Gfx9, kNavi21VertexFetch, VK_SHADER_STAGE_VERTEX_BIT)[0], "untraced");
}

// navi14's vertex shader is a legacy VS (RADV uses no NGG there), shortened from Mesa 25.0.7's
// null device with a store added (llvm-mc-15 -mcpu=gfx1012 words): GCN's layout, the vertex
// buffers in s2 and set 0 in s4. With the NGG roles nothing would be traced.
const char* kNavi14VertexFetch = R"(BB0:
	s_setprio 3                                                 ; bf8f0003
	s_mov_b32 s0, s3                                            ; be800303
	s_movk_i32 s3, 0x8000                                       ; b0038000
	s_load_dwordx4 s[8:11], s[2:3], null                        ; f4080201 fa000000
	v_add_nc_u32_e32 v0, s0, v0                                 ; 4a000000
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	buffer_load_dword v1, v0, s[8:11], 0 idxen                  ; e0302000 80020100
	s_movk_i32 s5, 0x8000                                       ; b0058000
	s_load_dwordx4 s[12:15], s[4:5], 0x10                       ; f4080302 fa000010
	s_waitcnt vmcnt(0) lgkmcnt(0)                               ; bf8c0070
	buffer_store_dword v1, v0, s[12:15], 0 idxen                ; e0702000 80030100
	s_endpgm                                                    ; bf810000
)";

TEST(DescriptorTrace, Navi14VertexShaderHasTheLegacyLayout) {
  std::vector<std::vector<uint32_t>> words;
  for (const auto& a : gcnprobe::isa::parseAcoAssembly(kNavi14VertexFetch))
    words.push_back(a.words);
  const auto slots = [&](bool legacy) {
    std::vector<std::string> out;
    for (const auto& t : gcnprobe::isa::traceDescriptors(
             Gen::Gfx10, words,
             gcnprobe::isa::radvUserSgprRoles(Gen::Gfx10, VK_SHADER_STAGE_VERTEX_BIT, legacy)))
      if (t.why != "not a buffer instruction")
        out.push_back(t.slot ? gcnprobe::isa::bufferSlotName(*t.slot) : "untraced");
    return out;
  };
  EXPECT_EQ(slots(true), (std::vector<std::string>{"vertex buffer 0", "set 0 binding 1"}));
  EXPECT_EQ(slots(false), (std::vector<std::string>{"untraced", "untraced"}));
  EXPECT_EQ(
      gcnprobe::isa::radvUserSgprRoles(Gen::Gfx10, VK_SHADER_STAGE_VERTEX_BIT, true).vertexIdVgpr,
      0);
}

// Copies, wide loads, overwrites and joins (words from llvm-mc 14 -mcpu=tonga/bonaire).
// The pointer's high half must be the driver's 32-bit address space: 0 before GFX9,
// 0xffff8000 from GFX9 on. The same load after another high half is not traced.
TEST(DescriptorTrace, APointerWithAnotherHighHalfIsNotTraced) {
  const std::string load = R"(
	s_load_dwordx4 s[8:11], s[2:3], 0x10 ; c00a0201 00000010
	buffer_load_dword v1, v1, s[8:11], 0 offen ; e0501000 80020101
)";
  EXPECT_EQ(tracedSlots(Gen::Gfx8, load), std::vector<std::string>{"set 0 binding 1"});
  EXPECT_EQ(tracedSlots(Gen::Gfx9, load), std::vector<std::string>{"set 0 binding 1"});
  // s_mov_b32 s3, 0x1234 (be8300ff 00001234); gfx9 with gfx8's s_mov_b32 s3, 0 (be830080).
  EXPECT_EQ(tracedSlots(Gen::Gfx8, "\ts_mov_b32 s3, 0x1234 ; be8300ff 00001234\n" + load),
            std::vector<std::string>{"untraced"});
  EXPECT_EQ(tracedSlots(Gen::Gfx9, "\ts_mov_b32 s3, 0 ; be830080\n" + load),
            std::vector<std::string>{"untraced"});
  // No high half at all (s3 is an argument SGPR's entry value).
  std::vector<std::vector<uint32_t>> words;
  for (const auto& a : gcnprobe::isa::parseAcoAssembly(load))
    words.push_back(a.words);
  const auto traced = gcnprobe::isa::traceDescriptors(
      Gen::Gfx8, words, gcnprobe::isa::radvUserSgprRoles(Gen::Gfx8, VK_SHADER_STAGE_COMPUTE_BIT));
  EXPECT_FALSE(traced[1].slot);
  EXPECT_NE(traced[1].why.find("its high half the driver's constant 0x00000000"), std::string::npos)
      << traced[1].why;
}

TEST(DescriptorTrace, WideLoadsCopiesOverwritesAndJoins) {
  // s_load_dwordx8 s[8:15] @0x10 holds bindings 1 (s[8:11]) and 2 (s[12:15]); s_mov_b64
  // copies s[12:15] to s[16:19].
  const std::string wide = R"(
	s_load_dwordx8 s[8:15], s[2:3], 0x10 ; c00e0201 00000010
	buffer_load_dword v1, v1, s[8:11], 0 offen ; e0501000 80020101
	s_mov_b64 s[16:17], s[12:13] ; be90010c
	s_mov_b64 s[18:19], s[14:15] ; be92010e
	buffer_load_dword v1, v1, s[16:19], 0 offen ; e0501000 80040101
	s_endpgm ; bf810000
)";
  EXPECT_EQ(tracedSlots(Gen::Gfx8, wide),
            (std::vector<std::string>{"set 0 binding 1", "set 0 binding 2"}));
  // gfx7 SMRD: s_load_dwordx8 s[8:15], s[2:3], 0x4 (dwords: byte 16 -> bindings 1 and 2);
  // literal form s_load_dwordx4 s[8:11], s[2:3], 0x1234 dwords = byte 0x48d0 -> binding 1165.
  const std::string gfx7 = R"(
	s_load_dwordx8 s[8:15], s[2:3], 0x4 ; c0c40304
	buffer_load_dword v1, v1, s[12:15], 0 offen ; e0301000 80030101
	s_load_dwordx4 s[8:11], s[2:3], 0x1234 ; c08402ff 00001234
	buffer_load_dword v1, v1, s[8:11], 0 offen ; e0301000 80020101
)";
  EXPECT_EQ(tracedSlots(Gen::Gfx7, gfx7),
            (std::vector<std::string>{"set 0 binding 2", "set 0 binding 1165"}));
  // v_cmp_eq_u32_e64 s[8:9] overwrites half the V#; s_buffer_load fills s[8:11] from memory
  // the trace cannot see; an SGPR offset (s_load_dwordx4 s[8:11], s[2:3], s9) is unknown.
  const std::string clobbered = R"(
	s_load_dwordx4 s[8:11], s[2:3], 0x0 ; c00a0201 00000000
	v_cmp_eq_u32_e64 s[8:9], v1, v2 ; d0ca0008 00020501
	buffer_load_dword v1, v1, s[8:11], 0 offen ; e0501000 80020101
	s_buffer_load_dwordx4 s[8:11], s[4:7], 0x0 ; c02a0202 00000000
	buffer_load_dword v1, v1, s[8:11], 0 offen ; e0501000 80020101
	s_load_dwordx4 s[4:7], s[2:3], s9 ; c0080101 00000009
	buffer_load_dword v1, v1, s[4:7], 0 offen ; e0501000 80010101
)";
  EXPECT_EQ(tracedSlots(Gen::Gfx8, clobbered),
            (std::vector<std::string>{"untraced", "untraced", "untraced"}));
  // A join whose paths load different bindings into s[8:11] (s_cbranch_scc0 skips the
  // second 2-dword load): untraced; when both paths agree, traced.
  const auto join = [](const char* second) {
    return std::string(
               "\ts_load_dwordx4 s[8:11], s[2:3], 0x0 ; c00a0201 00000000\n"
               "\ts_cbranch_scc0 2 ; bf840002\n") +
           second + "\tbuffer_load_dword v1, v1, s[8:11], 0 offen ; e0501000 80020101\n";
  };
  EXPECT_EQ(tracedSlots(Gen::Gfx8, join("\ts_load_dwordx4 s[8:11], s[2:3], 0x10 ; "
                                        "c00a0201 00000010\n")),
            (std::vector<std::string>{"untraced"}));
  EXPECT_EQ(tracedSlots(Gen::Gfx8, join("\ts_load_dwordx4 s[8:11], s[2:3], 0x0 ; "
                                        "c00a0201 00000000\n")),
            (std::vector<std::string>{"set 0 binding 0"}));
}

// The flaw this closes: the storage route's own I/O is buffer_load_dword/buffer_store_dword
// too. With the case's load (binding 0) compiled to something else, the intended
// buffer_load_dword exists only on binding 1 and must not count.
TEST(IsaCheck, IntendedInstructionOnlyOnTheHarnessIoBindingIsRouteMiss) {
  const auto inst = intended(Gen::Gfx8, "buffer_load_dword v1, v0, s[4:7], 0 offen");
  const auto ok = gcnprobe::isa::checkIsa(Gen::Gfx8, inst, isaOf(kTongaStorageLoadDword));
  EXPECT_EQ(ok.outcome, Outcome::Verified) << ok.reason;
  // The case's load replaced by buffer_load_ubyte v1, v1, s[8:11], 0 offen (llvm-mc:
  // e0401000 80020101): the remaining buffer_load_dword ... offen is the route's input read.
  std::string wrong = kTongaStorageLoadDword;
  const std::string caseLoad = "e0501000 80020101";
  ASSERT_NE(wrong.find(caseLoad), std::string::npos);
  wrong.replace(wrong.find(caseLoad), caseLoad.size(), "e0401000 80020101");
  const auto miss = gcnprobe::isa::checkIsa(Gen::Gfx8, inst, isaOf(wrong));
  EXPECT_EQ(miss.outcome, Outcome::RouteMiss);
  EXPECT_NE(miss.reason.find("only on set 0 binding 1"), std::string::npos) << miss.reason;
  EXPECT_NE(miss.reason.find("set 0 binding 0"), std::string::npos) << miss.reason;
  // Intended at OFFSET 256 exists only as the route's own second input read (binding 1).
  const auto off = gcnprobe::isa::checkIsa(
      Gen::Gfx8, intended(Gen::Gfx8, "buffer_load_dword v1, v0, s[4:7], 0 offen offset:256"),
      isaOf(kTongaStorageLoadDword));
  EXPECT_EQ(off.outcome, Outcome::RouteMiss) << off.reason;
  // A case whose buffer the route says is elsewhere: binding 2 holds no load.
  auto p = isaOf(kTongaStorageLoadDword);
  p.caseBuffer = {gcnprobe::routes::BufferSlot::Kind::DescriptorSet, 0, 2};
  EXPECT_EQ(gcnprobe::isa::checkIsa(Gen::Gfx8, inst, p).outcome, Outcome::RouteMiss);
  // Gfx6 through the clrxdisasm stand-in's listing: same verdicts.
  const auto t = gcnprobe::isa::checkIsa(
      Gen::Gfx6, intended(Gen::Gfx6, "buffer_load_dword v1, v0, s[4:7], 0 offen"),
      isaOf(kTahitiStorageLoadDword));
  EXPECT_EQ(t.outcome, Outcome::Verified) << t.reason;
  // The emitted list names each instruction's descriptor.
  ASSERT_EQ(ok.emitted.size(), 4u);
  EXPECT_EQ(ok.emitted[3].descriptorName(), "set 0 binding 2");
  EXPECT_NE(ok.emitted[3].describe(Gen::Gfx8).find("; set 0 binding 2"), std::string::npos);
}

TEST(IsaCheck, VertexFetchIsVerifiedOnlyOnTheVertexBuffer) {
  const auto inst = intended(
      Gen::Gfx9,
      "tbuffer_load_format_x v1, v0, s[4:7], 0 format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_UNORM] "
      "idxen");
  auto p = isaOf(kVega10VertexFetch, true, VK_SHADER_STAGE_VERTEX_BIT);
  p.caseBuffer = {gcnprobe::routes::BufferSlot::Kind::VertexBuffer, 0, 0};
  const auto r = gcnprobe::isa::checkIsa(Gen::Gfx9, inst, p);
  EXPECT_EQ(r.outcome, Outcome::Verified) << r.reason;
  p.caseBuffer = {gcnprobe::routes::BufferSlot::Kind::DescriptorSet, 0, 0};
  EXPECT_EQ(gcnprobe::isa::checkIsa(Gen::Gfx9, inst, p).outcome, Outcome::RouteMiss);
}

}  // namespace isa_test
