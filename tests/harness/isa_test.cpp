// The ISA check (harness/isa): ACO's Assembly text parsed into words, buffer words decoded by
// the reference and compared with ACO's own text, the intended-instruction match, the
// runner's route-miss verdict, the clrxdisasm stand-in's listing and the coverage rows.
// ACO texts below are pasted from RADV's null device (Mesa 22.3.6, `gcnprobe _smoke-isa`
// and `gcnprobe isa --family tonga|vega10`); their words are ACO's, their text is LLVM 15's
// disassembler (gfx8+), so agreement with the reference decoder is an independent check.
#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "harness/isa/aco_asm.h"
#include "harness/isa/check.h"
#include "harness/isa/clrx_listing.h"
#include "harness/isa/coverage.h"
#include "harness/run/runner.h"
#include "harness/run/suite.h"
#include "reference/assembler.h"
#include "reference/error.h"
#include "reference/opcodes.h"

namespace {

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
// and texel_store_f) and PLATFORM.md's vertex fetch (gfx8+).
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

gcnprobe::routes::PipelineIsa isaOf(const char* assembly, bool offsetFixed = true) {
  gcnprobe::routes::PipelineIsa p;
  p.executables.push_back({"Compute Shader", "", assembly, ""});
  p.offsetFixed = offsetFixed;
  return p;
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
      isaOf(kTexelGfx8));
  EXPECT_EQ(r.outcome, Outcome::Verified) << r.reason;
  // Registers are the compiler's choice: the check ignores them.
  const auto t = gcnprobe::isa::checkIsa(
      Gen::Gfx9,
      intended(Gen::Gfx9,
               "tbuffer_load_format_xyzw v[0:3], v9, s[12:15], 0 "
               "format:[BUF_DATA_FORMAT_2_10_10_10,BUF_NUM_FORMAT_SNORM] idxen"),
      isaOf(kTexelGfx8));
  EXPECT_EQ(t.outcome, Outcome::Verified) << t.reason;
}

// Deliberately wrong intended instructions: each differs from everything in the pipeline in
// one compared field, so each is a route-miss naming what the pipeline holds.
TEST(IsaCheck, DeliberatelyWrongIntendedInstructionIsRouteMiss) {
  const char* wrong[] = {
      "buffer_load_format_xy v[1:2], v0, s[4:7], 0 idxen",             // opcode
      "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 offen",           // offen instead of idxen
      "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen offset:4",  // offset
      "tbuffer_load_format_xyzw v[0:3], v9, s[12:15], 0 "
      "format:[BUF_DATA_FORMAT_2_10_10_10,BUF_NUM_FORMAT_UNORM] idxen",  // nfmt
      "buffer_load_sbyte v1, v0, s[4:7], 0 offen",                       // not there at all
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
      isaOf(kTexelGfx8, false));
  EXPECT_EQ(loose.outcome, Outcome::Verified);
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
  explicit FakeRoute(const char* isa) : isa_(isa) {}
  std::string_view name() const override { return "fake"; }
  bool handles(const gcnprobe::routes::DeviceCase&) const override { return true; }
  std::string unsupportedReason(const gcnprobe::routes::DeviceCase&) const override { return ""; }
  std::string batchKey(const gcnprobe::routes::DeviceCase&) const override { return "k"; }
  std::vector<gcnprobe::routes::DeviceResult> run(
      std::span<const gcnprobe::routes::DeviceCase* const> cases) override {
    std::vector<gcnprobe::routes::DeviceResult> out(cases.size());
    for (auto& r : out) {
      r.vdataCount = 1;
      for (auto& lane : r.vdata)
        lane[0] = 0x7fc00001u;  // a NaN no load of an 8-bit UNORM texel returns
    }
    for (std::size_t i = 0; i < cases.size(); ++i)
      out[i].memory = cases[i]->memory.bytes;
    return out;
  }
  gcnprobe::routes::PipelineIsa pipelineIsa(const gcnprobe::routes::DeviceCase&) override {
    return isaOf(isa_);
  }

 private:
  const char* isa_;
};

gcnprobe::run::Verdict runOne(const char* isa, std::string* reason) {
  const gcn::Chip& chip = gcn::representativeChip(Gen::Gfx8);
  const auto cases =
      gcnprobe::run::buildCases("texel", "texel.uniform.r8_unorm.load_format_x", chip);
  EXPECT_EQ(cases.size(), 1u);
  std::vector<std::unique_ptr<gcnprobe::routes::Route>> routes;
  routes.push_back(std::make_unique<FakeRoute>(isa));
  gcnprobe::run::RunOptions ro;
  ro.profile = gcnprobe::run::resolveProfile("gfx8", std::nullopt);
  ro.jobs = 1;
  gcnprobe::run::Verdict v = gcnprobe::run::Verdict::Error;
  gcnprobe::run::runCases(cases, routes, ro, [&](const gcnprobe::run::CaseResult& r) {
    v = r.verdict;
    *reason = r.reason;
  });
  return v;
}

TEST(IsaCheck, RunnerTurnsAWrongPipelineIntoRouteMiss) {
  std::string reason;
  // The pipeline holds buffer_load_format_xyzw, the case intends buffer_load_format_x.
  EXPECT_EQ(runOne(kTexelGfx8, &reason), gcnprobe::run::Verdict::RouteMiss) << reason;
  EXPECT_NE(reason.find("buffer_load_format_x v1, v0, s[4:7], 0 idxen"), std::string::npos);
  const char* right = "\tbuffer_load_format_x v1, v1, s[8:11], 0 idxen ; e0002000 80020101\n";
  EXPECT_EQ(runOne(right, &reason), gcnprobe::run::Verdict::Fail) << reason;
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
  const std::vector<CaseIsaRecord> recs = {
      {"a", "buffer_load_format_x", gcn::Dfmt::F8, gcn::Nfmt::Unorm, "verified", ""},
      {"b", "buffer_load_format_x", gcn::Dfmt::F8, gcn::Nfmt::Snorm, "verified",
       "VK_FORMAT_R8_SNORM lacks X"},
      {"c", "buffer_load_format_x", gcn::Dfmt::F16, gcn::Nfmt::Float, "route-miss", ""},
      {"d", "buffer_load_dword", std::nullopt, std::nullopt, "verified", ""},
  };
  const auto rows = gcnprobe::isa::coverage(Gen::Gfx8, recs, "tonga");
  const auto row = [&](const char* m) {
    return *std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.mnemonic == m; });
  };
  EXPECT_EQ(row("buffer_load_format_x").reached, 1u);
  // 8_UNORM, 8_SNORM and 16_FLOAT are legal loads (seed 003), so at least those are known.
  EXPECT_GE(row("buffer_load_format_x").known, 3u);
  EXPECT_LE(row("buffer_load_format_x").known, 14u * 8u);
  EXPECT_NE(row("buffer_load_format_x").whyNot.find("unsupported on tonga: <format> lacks X"),
            std::string::npos);
  EXPECT_NE(row("buffer_load_format_x").whyNot.find("ISA route-miss"), std::string::npos);
  EXPECT_EQ(row("buffer_load_dword").known, 1u);
  EXPECT_EQ(row("buffer_load_dword").reached, 1u);
  EXPECT_EQ(row("buffer_load_dword").whyNot, "");
  EXPECT_EQ(row("buffer_load_ubyte").whyNot, "no case in any suite uses it");
  // gfx8-only instructions have no gfx6 row.
  const auto gfx6 = gcnprobe::isa::coverage(Gen::Gfx6, recs, "tahiti");
  EXPECT_TRUE(std::none_of(gfx6.begin(), gfx6.end(),
                           [](const auto& r) { return r.mnemonic == "buffer_load_format_d16_x"; }));
}

}  // namespace
