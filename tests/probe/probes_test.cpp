// Every file in probes/ parses, evaluates on the reference, and is worth running: its policy
// variants predict at least two different things, or its own `expect` lines hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "probe/probe_eval.h"
#include "probe/probe_file.h"
#include "reference/text.h"

namespace gcn::probe {
namespace probes_test {

std::vector<std::filesystem::path> shippedProbes() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(GCNPROBE_SOURCE_DIR "/probes"))
    if (e.path().extension() == ".probe") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Every shipped probe's question and source lines read back whole: the text after '=' of each
// such line, trimmed, is in the parsed question (its lines joined by a blank) or is one of the
// sources. (A '#' inside a value once started a comment and cut "A V# of ..." to "A V".)
TEST(Probes, QuestionAndSourceTextReadsBackWhole) {
  unsigned withHash = 0;
  for (const auto& path : shippedProbes()) {
    SCOPED_TRACE(path.string());
    const Probe probe = loadProbe(path.string());
    std::ifstream in(path);
    std::string question;
    std::vector<std::string> sources;
    for (std::string line; std::getline(in, line);) {
      const auto eq = line.find('=');
      if (eq == std::string::npos) continue;
      const std::string key(gcn::trimSpace(std::string_view(line).substr(0, eq)));
      const std::string value(gcn::trimSpace(std::string_view(line).substr(eq + 1)));
      if (key != "question" && key != "source") continue;
      if (value.find('#') != std::string::npos) ++withHash;
      if (key == "question") question += (question.empty() ? "" : " ") + value;
      if (key == "source") sources.push_back(value);
    }
    EXPECT_EQ(probe.question, question);
    EXPECT_EQ(probe.sources, sources);
  }
  EXPECT_GE(withHash, 5u) << "the shipped probes name V#s in their questions and sources";
  // A comment is a whole line (also indented); a '#' inside a value stays.
  std::ifstream in(std::string(GCNPROBE_SOURCE_DIR) + "/probes/all-zero-vsharp.probe");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Probe base = parseProbe(text, "inline.probe");
  const Probe p = parseProbe(
      text + "  # an indented comment line\nquestion = and the V# #2\nsource = the V# table\n",
      "inline.probe");
  EXPECT_EQ(p.question, base.question + " and the V# #2");
  ASSERT_FALSE(p.sources.empty());
  EXPECT_EQ(p.sources.back(), "the V# table");
}

TEST(Probes, EveryProbeEvaluatesAndSettlesSomething) {
  const auto files = shippedProbes();
  // One per disputed point of docs/gcn-facts.md: the 11 range-check rows plus conversions,
  // component counts, TFE, zero/invalid V#, NUM_RECORDS units.
  EXPECT_GE(files.size(), 20u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const Probe probe = loadProbe(path.string());
    EXPECT_FALSE(probe.question.empty()) << "a probe states its question";
    EXPECT_FALSE(probe.sources.empty()) << "a probe cites its sources";
    const ProbeSetup setup = prepare(probe, {});
    const Exploration ex = explore(probe, setup);
    ASSERT_FALSE(ex.predictions.empty());
    EXPECT_TRUE(ex.predictions.front().isDefault);
    const auto failures = checkExpect(probe, setup, ex.predictions.front().result);
    for (const ExpectFailure& f : failures)
      ADD_FAILURE() << Error::format(f.place, f.what);
    EXPECT_TRUE(ex.predictions.size() >= 2 || probe.hasExpect())
        << "the policies agree and no expectation is given: the probe settles nothing";
    // Distinct predictions really differ, and every pair of them is told apart.
    for (std::size_t i = 0; i < ex.predictions.size(); ++i)
      for (std::size_t j = i + 1; j < ex.predictions.size(); ++j)
        EXPECT_FALSE(
            samePrediction(ex.predictions[i].result, ex.predictions[j].result, setup.lanes));
  }
}

// raw-straddle.probe: memory dword k holds 0x11111111 * (k + 1); lane 1 reads dwords 1 and 2
// of an 8-byte buffer. CLRX GcnMemHandling checks the start only (dword 2 = 0x33333333 read); AMD
// RDNA3 ISA checks per dword (dword 2 is out of range: 0). Only `straddle` matters.
TEST(Probes, RawStraddleShowsBothRules) {
  const Probe probe = loadProbe(GCNPROBE_SOURCE_DIR "/probes/raw-straddle.probe");
  const ProbeSetup setup = prepare(probe, {});
  const Exploration ex = explore(probe, setup);
  ASSERT_EQ(ex.mattering.size(), 1u);
  EXPECT_EQ(ex.mattering[0], PolicyId::RawStraddle);
  ASSERT_EQ(ex.predictions.size(), 2u);
  for (const Prediction& p : ex.predictions) {
    const auto& lane1 = p.result.lanes[1];
    ASSERT_EQ(lane1.vdataCount, 2);
    EXPECT_EQ(lane1.vdata[0], 0x22222222u);
    const bool startOnly = p.policies.rawStraddle() == policy::RawStraddle::StartOnly;
    EXPECT_EQ(lane1.vdata[1], startOnly ? 0x33333333u : 0u);
  }
}

// A point that matters only together with another one is found: an A8_UNORM store (V# DST_SEL
// 000X, gfx8) of X = 0.88625f and W = 0.3f. Under store-dst-sel=ignore memory gets X: 0.88625f
// * 255 = 225.99, 226 (0xe2) under both norm-store options. Under inverse it gets W: 0.3f * 255
// = 76.50000304, 77 (0x4d) exact or 76 (0x4c) through float32 (hand-derived, convert_test.cpp
// NormStorePerPolicy). Under forward memory component X takes what DST_SEL[0] names, SEL_0:
// 0. Flipping norm-store alone changes nothing once store-dst-sel is ignore; with inverse it
// does. (Found by gcnprobe fuzz on Mesa 25's lavapipe, which answers inverse + f32mul.)
TEST(Probes, APointThatMattersOnlyWithAnotherIsExplored) {
  const Probe probe = parseProbe(R"(question = interaction
source = gcnprobe fuzz
gen = gfx8
inst = buffer_store_format_xyzw v[1:4], v0, s[4:7], 0 idxen
vsharp words = 0x1000, 0x10000, 0x40, 0x8800
memory base = 0x1000
memory size = 64
lanes = 1
v0 = 4
v1 = 0x3f62e148
v2 = 0x47320b60
v3 = 0xbe9c28f6
v4 = 0x3e99999a
mem fill = 0x12
)",
                                 "interaction.probe");
  // The exploration starts from store-dst-sel=ignore (not pinned: still explored), where
  // norm-store alone changes nothing.
  ProbeSetup setup = prepare(probe, {});
  setup.policies.set("store-dst-sel=ignore");
  const Exploration ex = explore(probe, setup);
  EXPECT_NE(std::find(ex.mattering.begin(), ex.mattering.end(), PolicyId::StoreDstSel),
            ex.mattering.end());
  EXPECT_NE(std::find(ex.mattering.begin(), ex.mattering.end(), PolicyId::NormStore),
            ex.mattering.end());
  std::set<uint8_t> stored;
  for (const Prediction& p : ex.predictions)
    stored.insert(p.result.memory().bytes.at(4));
  EXPECT_EQ(stored, (std::set<uint8_t>{0xe2, 0x4d, 0x4c, 0x00}));
}

// A pinned point is not varied: with straddle pinned, raw-straddle has one prediction.
TEST(Probes, PinnedPolicyIsNotVaried) {
  const Probe probe = loadProbe(GCNPROBE_SOURCE_DIR "/probes/raw-straddle.probe");
  EvalOptions o;
  o.policies = {"straddle=whole"};
  const ProbeSetup setup = prepare(probe, o);
  const Exploration ex = explore(probe, setup);
  EXPECT_TRUE(ex.mattering.empty());
  ASSERT_EQ(ex.predictions.size(), 1u);
  EXPECT_EQ(ex.predictions[0].result.lanes[1].vdata[1], 0u);
}

// The store form of raw-straddle with a 16 MiB image: lane 1's second dword lands under
// `straddle=start` only, so the two predictions keep two different 16 MiB images. The
// images held are bounded: under a limit below two images explore refuses, at the
// `memory size` line, with the numbers.
TEST(Probes, PredictionImagesAreBounded) {
  const Probe probe = parseProbe(
      "gen = gfx8\n"
      "inst = buffer_store_dwordx2 v[1:2], v0, s[4:7], 0 offen\n"
      "vsharp = base=0x1000 stride=0 num_records=8 dfmt=32 nfmt=uint\n"
      "lanes = 2\n"
      "v0 = 0, 4\n"
      "v1 = 0xaaaaaaaa\n"
      "v2 = 0xbbbbbbbb\n"
      "memory size = 16777216\n",
      "big.probe");
  const ProbeSetup setup = prepare(probe, {});
  const Exploration ex = explore(probe, setup);
  ASSERT_EQ(ex.predictions.size(), 2u);
  for (const Prediction& p : ex.predictions) {
    ASSERT_TRUE(p.result.written.has_value());
    const std::vector<uint8_t>& m = p.result.written->bytes;
    ASSERT_EQ(m.size(), 16777216u);
    // Byte 8 is lane 1's second dword: written only when the start alone is checked.
    const bool startOnly = p.policies.rawStraddle() == policy::RawStraddle::StartOnly;
    EXPECT_EQ(m[8], startOnly ? 0xbb : 0x00);
  }
  try {
    (void)explore(probe, setup, 24u << 20);
    FAIL() << "two 16 MiB images passed a 24 MiB limit";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("big.probe:8:"), std::string::npos) << what;
    EXPECT_NE(what.find("2 or more distinct memory images of 16777216 bytes"), std::string::npos)
        << what;
    EXPECT_NE(what.find("the limit is 25165824"), std::string::npos) << what;
  }
  // The default limit is 256 MiB: 16 such images.
  EXPECT_EQ(kMaxPredictionImageBytes, 16u * 16777216u);
}

// Two lanes, lane l loading dword l of the memory (lines 1-5 of the probes below).
const std::string kTwoLaneLoad =
    "gen = gfx8\n"
    "inst = buffer_load_dword v1, v0, s[4:7], 0 offen\n"
    "vsharp = base=0x1000 num_records=16 dfmt=32 nfmt=uint\n"
    "lanes = 2\n"
    "v0 = lane * 4\n";

// An expectation that does not hold is reported with its line.
TEST(Probes, FailingExpectationIsReported) {
  const Probe probe = parseProbe(kTwoLaneLoad +
                                     "mem @0 u32 x2 = 7 + i\n"
                                     "expect v1 = 7, 9\n",  // lane 1 reads dword 1 = 8, not 9
                                 "t.probe");
  const ProbeSetup setup = prepare(probe, {});
  const auto failures = checkExpect(probe, setup, run(probe, setup, setup.policies));
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].place.line, 7);
  EXPECT_NE(failures[0].what.find("lane 1"), std::string::npos);
}

// Tolerances, checked against a reference result whose values the probe's memory fixes:
// lane l reads dword l. `within N` is a modular distance in the value's width (0xffffffff and
// 0 are one apart); `within N ulp` counts float32 steps, across zero (-0 and +0 are adjacent:
// 0x80000000 to 0x00000001 is two steps), and a NaN matches only a NaN.
TEST(Probes, ToleranceBoundsAreInclusiveAndNothingMore) {
  const auto failing = [](const std::string& memory, const std::string& expect) {
    const Probe probe =
        parseProbe(kTwoLaneLoad + "mem @0 u32 x2 = " + memory + "\n" + expect + "\n", "t.probe");
    const ProbeSetup setup = prepare(probe, {});
    return checkExpect(probe, setup, run(probe, setup, setup.policies)).size();
  };
  EXPECT_EQ(failing("10, 20", "expect v1 = 12, 18 within 2"), 0u);
  EXPECT_EQ(failing("10, 20", "expect v1 = 13, 18 within 2"), 1u);
  EXPECT_EQ(failing("10, 20", "expect v1 = 13, 17 within 2"), 2u);
  EXPECT_EQ(failing("0xffffffff, 0", "expect v1 = 0, 0xffffffff within 1"), 0u);
  EXPECT_EQ(failing("0xffffffff, 0", "expect v1 = 1, 0xfffffffe within 1"), 2u);
  // 1.0 = 0x3f800000; its neighbours 0x3f7fffff and 0x3f800001.
  EXPECT_EQ(failing("0x3f7fffff, 0x3f800001", "expect v1 = f32(1.0) within 1 ulp"), 0u);
  EXPECT_EQ(failing("0x3f7ffffe, 0x3f800002", "expect v1 = f32(1.0) within 1 ulp"), 2u);
  EXPECT_EQ(failing("0x80000000, 0x00000001", "expect v1 = 0x80000000, 0x80000000 within 1 ulp"),
            1u);
  EXPECT_EQ(failing("0x80000000, 0x00000001", "expect v1 = 0, 0x80000000 within 2 ulp"), 0u);
  EXPECT_EQ(failing("0x7fc00000, 0x7f800000", "expect v1 = 0x7fc00001, 0x7fc00000 within 1 ulp"),
            1u);
  // Without a tolerance the values must be equal.
  EXPECT_EQ(failing("10, 20", "expect v1 = 11, 20"), 1u);
  // Expectations of the device are not checked against the reference, and the reverse.
  EXPECT_EQ(failing("10, 20", "expect device v1 = 99"), 0u);
}

}  // namespace probes_test
}  // namespace gcn::probe
