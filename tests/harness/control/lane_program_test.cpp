// gcnprobe's own lane program (harness/control/lane_program.h): every line's words are what
// llvm-mc (an independent assembler) makes of its text, on every GCN generation; and the
// program passes the same ISA check as a driver's listing, while a program with one link broken
// does not.
#include "harness/control/lane_program.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/control/program_build.h"
#include "harness/isa/check.h"
#include "reference/assembler.h"
#include "tests/support/llvm_mc.h"

namespace {

using gcnprobe::control::LaneProgram;
using gcnprobe::control::ProgramSpec;

// The cases the tests write programs for: an SGPR SOFFSET with and without VADDR, IDXEN, a
// store, an atomic with GLC, an unaligned OFFSET, a three-register load.
const char* const kCases[] = {
    "buffer_load_dword v1, v0, s[4:7], s8 offen",
    "buffer_load_dword v1, off, s[4:7], s8",
    "buffer_load_dword v1, v0, s[4:7], s8 idxen offset:20",
    "buffer_store_dwordx2 v[1:2], v0, s[4:7], 0 offen offset:6",
    "buffer_atomic_add v1, v0, s[4:7], 0 offen offset:2 glc",
    "buffer_load_dwordx3 v[1:3], v0, s[4:7], 0 offen",
    "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen",
};

ProgramSpec specFor(gcn::Gen gen, const std::string& text, uint32_t high = 0) {
  ProgramSpec s;
  s.chip = gcn::representativeChip(gen);
  s.inst = gcn::parseInstruction(gen, text);
  s.pointerHigh = high;
  s.soffsetValue = 0x100;
  return s;
}

// The words llvm-mc -show-encoding gives each line, in order.
std::vector<std::vector<uint32_t>> mcWords(gcn::Gen gen, const std::vector<std::string>& lines) {
  return gcntest::assembleEach(gcntest::mcCpu(gen), lines);
}

TEST(LaneProgram, EveryLineIsWhatLlvmMcAssemblesFromItsText) {
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  for (gcn::Gen gen : {gcn::Gen::Gfx6, gcn::Gen::Gfx7, gcn::Gen::Gfx8, gcn::Gen::Gfx9}) {
    for (const char* text : kCases) {
      // A high half that needs a literal (GFX9's) and one that is an inline constant.
      for (uint32_t high : {0u, 0xffff8000u}) {
        const LaneProgram p = gcnprobe::control::writeLaneProgram(specFor(gen, text, high));
        std::vector<std::string> lines;
        for (const auto& l : p.lines)
          lines.push_back(l.text);
        const auto mc = mcWords(gen, lines);
        ASSERT_EQ(mc.size(), p.lines.size()) << gcn::genName(gen) << " " << text;
        for (std::size_t i = 0; i < mc.size(); ++i)
          EXPECT_EQ(mc[i], p.lines[i].words) << gcn::genName(gen) << " " << text << ": line " << i
                                             << " '" << p.lines[i].text << "'";
      }
    }
  }
}

// The program's listing as the ISA check reads a driver's, with the route's data path.
gcnprobe::isa::CheckResult check(gcn::Gen gen, const LaneProgram& p, const std::string& text,
                                 std::optional<uint32_t> soffset) {
  gcnprobe::routes::PipelineIsa shape;
  shape.executables.push_back(gcnprobe::control::programExecutable(p, "test"));
  shape.caseBuffer = gcnprobe::routes::BufferSlot{};
  shape.dataPath = gcnprobe::control::programDataPath();
  shape.soffsetValue = soffset;
  return gcnprobe::isa::checkIsa(gen, gcn::parseInstruction(gen, text), shape);
}

TEST(LaneProgram, TheProgramPassesTheIsaCheckOnEveryGeneration) {
  for (gcn::Gen gen : {gcn::Gen::Gfx6, gcn::Gen::Gfx7, gcn::Gen::Gfx8, gcn::Gen::Gfx9}) {
    const uint32_t high = gen == gcn::Gen::Gfx9 ? 0xffff8000u : 0u;  // RADV's address32_hi
    for (const char* text : kCases) {
      const LaneProgram p = gcnprobe::control::writeLaneProgram(specFor(gen, text, high));
      const bool sgpr = std::string(text).find(", s8") != std::string::npos;
      const auto r = check(gen, p, text, sgpr ? std::optional<uint32_t>(0x100) : std::nullopt);
      EXPECT_EQ(r.outcome, gcnprobe::isa::Outcome::Verified)
          << gcn::genName(gen) << " " << text << ": " << r.reason;
      if (sgpr) {
        bool soffsetProven = false;
        for (const std::string& l : r.proven)
          soffsetProven = soffsetProven || l.find("SOFFSET s2 = 0x00000100") != std::string::npos;
        EXPECT_TRUE(soffsetProven) << text;
      }
    }
  }
}

// Each mutation breaks one link the check must prove; none may pass.
TEST(LaneProgram, AProgramWithOneLinkBrokenIsNotVerified) {
  const gcn::Gen gen = gcn::Gen::Gfx8;
  const std::string text = "buffer_load_dword v1, v0, s[4:7], s8 offen";
  const LaneProgram good = gcnprobe::control::writeLaneProgram(specFor(gen, text));
  ASSERT_EQ(check(gen, good, text, 0x100).outcome, gcnprobe::isa::Outcome::Verified);
  // The SOFFSET register holds another value than the case's.
  EXPECT_NE(check(gen, good, text, 0x104).outcome, gcnprobe::isa::Outcome::Verified);
  const auto mutated = [&](const std::string& from, const std::string& to) {
    LaneProgram p = good;
    bool done = false;
    for (auto& l : p.lines)
      if (l.text == from) {
        const auto mc = mcWords(gen, {to});
        if (mc.size() != 1) return p;
        l.text = to;
        l.words = mc[0];
        done = true;
      }
    EXPECT_TRUE(done) << from;
    return p;
  };
  if (!gcntest::haveLlvmMcTool()) GTEST_SKIP() << "llvm-mc not on PATH";
  // VADDR from the enable word instead of the address word.
  EXPECT_NE(check(gen,
                  mutated("buffer_load_dword v3, v1, s[8:11], 0 offen",
                          "buffer_load_dword v3, v1, s[8:11], 0 offen offset:256"),
                  text, 0x100)
                .outcome,
            gcnprobe::isa::Outcome::Verified);
  // The case's V# loaded from binding 1 (In) instead of binding 0.
  EXPECT_NE(
      check(gen,
            mutated("s_load_dwordx4 s[4:7], s[2:3], 0x0", "s_load_dwordx4 s[4:7], s[2:3], 0x10"),
            text, 0x100)
          .outcome,
      gcnprobe::isa::Outcome::Verified);
  // No wait for the loads before the instruction reads their registers.
  {
    LaneProgram p = good;
    for (std::size_t i = p.caseIndex; i-- > 0;)
      if (p.lines[i].text.rfind("s_waitcnt", 0) == 0) {
        p.lines[i].text = "s_nop 0";
        p.lines[i].words = {0xbf800000u};
        break;
      }
    EXPECT_NE(check(gen, p, text, 0x100).outcome, gcnprobe::isa::Outcome::Verified);
  }
  // EXEC never narrowed to the enabled lanes.
  EXPECT_NE(check(gen, mutated("s_and_b64 exec, exec, s[0:1]", "s_nop 0"), text, 0x100).outcome,
            gcnprobe::isa::Outcome::Verified);
  // The result stored to another lane's slot.
  EXPECT_NE(check(gen,
                  mutated("buffer_store_dword v4, v2, s[12:15], 0 offen",
                          "buffer_store_dword v4, v1, s[12:15], 0 offen"),
                  text, 0x100)
                .outcome,
            gcnprobe::isa::Outcome::Verified);
}

// A D16 load keeps the half of each register it does not write: VDATA before it must be the
// lane's In data, as a store's (found by an adversarial review: it was not required).
TEST(LaneProgram, AD16LoadWhoseRegistersAreNotTheInDataIsNotVerified) {
  // GFX8 has D16 format loads only (unpacked on gfx8.0: the low half of each register).
  for (const auto& [gen, text] :
       {std::pair{gcn::Gen::Gfx8, std::string("buffer_load_format_d16_x v1, v0, s[4:7], 0 offen")},
        std::pair{gcn::Gen::Gfx9,
                  std::string("buffer_load_short_d16_hi v1, v0, s[4:7], 0 offen")}}) {
    const LaneProgram good = gcnprobe::control::writeLaneProgram(
        specFor(gen, text, gen == gcn::Gen::Gfx9 ? 0xffff8000u : 0u));  // RADV's address32_hi
    const auto ok = check(gen, good, text, std::nullopt);
    ASSERT_EQ(ok.outcome, gcnprobe::isa::Outcome::Verified)
        << gcn::genName(gen) << ": " << ok.reason;
    LaneProgram p = good;
    bool dropped = false;
    for (auto& l : p.lines)
      if (l.text.rfind("buffer_load_dwordx4", 0) == 0) {  // VDATA = the lane's In data
        l.text = "s_nop 0";
        l.words = {0xbf800000u};
        dropped = true;
      }
    ASSERT_TRUE(dropped);
    const auto r = check(gen, p, text, std::nullopt);
    EXPECT_NE(r.outcome, gcnprobe::isa::Outcome::Verified) << gcn::genName(gen);
    EXPECT_NE(r.reason.find("VDATA register"), std::string::npos) << r.reason;
  }
}

TEST(LaneProgram, FormsTheProgramCannotHostAreRefusedWithTheReason) {
  const gcn::Chip& tahiti = gcn::representativeChip(gcn::Gen::Gfx6);
  const auto why = [&](const char* text) {
    return gcnprobe::control::programProblem(tahiti, gcn::parseInstruction(tahiti.gen, text));
  };
  EXPECT_NE(why("buffer_load_dword v1, v[0:1], s[4:7], 0 addr64").find("ADDR64"),
            std::string::npos);
  EXPECT_NE(why("buffer_load_dword v1, v[0:1], s[4:7], 0 idxen offen").find("IDXEN with OFFEN"),
            std::string::npos);
  EXPECT_NE(why("buffer_load_dword v1, v0, s[4:7], 0 offen lds").find("LDS"), std::string::npos);
  EXPECT_EQ(why("buffer_load_dword v1, v0, s[4:7], s8 offen"), "");
  EXPECT_NE(why("buffer_wbinvl1").find("cache operation"), std::string::npos);
  EXPECT_THROW((void)gcnprobe::control::writeLaneProgram(
                   specFor(gcn::Gen::Gfx6, "buffer_load_dword v1, v[0:1], s[4:7], 0 addr64")),
               gcn::Error);
}

}  // namespace
