// The differ's pieces on hand-made inputs, no Vulkan and no reference run: acceptance sets
// (which labelled alternative accepts a value, or that none does), mismatch classes and the
// report text. Expected values come from IEEE 754 / two's complement, the sRGB EOTF of the
// Khronos Data Format Specification, or exhaustive properties stated independently of the
// code under test.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "harness/judge/acceptance.h"
#include "harness/judge/classify.h"
#include "harness/judge/diff_report.h"
#include "reference/text.h"

namespace gcnprobe::judge {
namespace acceptance_test {

Tolerance exactTolerance() {
  return findTolerance("exact");
}

// An expectation whose primary prediction leaves `bytes` in memory.
Expected withMemory(std::vector<uint8_t> bytes) {
  Expected e;
  gcn::ExecResult r;
  r.written = gcn::MemoryImage{0, std::move(bytes)};
  e.alternatives.push_back({"reference", std::move(r)});
  e.rules.push_back("reference");
  return e;
}

FormatView rgba8(gcn::Nfmt n) {
  FormatView fv;
  fv.dfmt = gcn::Dfmt::F8_8_8_8;
  fv.nfmt = n;
  fv.reg = n == gcn::Nfmt::Uint ? gcn::RegType::Uint : gcn::RegType::Float;
  fv.stride = 4;
  return fv;
}

TEST(Accept, LaneNamesTheAlternativeThatAcceptsIt) {
  Expected e = withMemory({});
  LaneSet& set = e.lanes[3];
  set.count = 4;
  set.alternatives.push_back({0, AcceptKind::Values, {0x3f800000u, 0u, 0u, 0x3f800000u, {}}});
  const RuleId zero = e.rule("vulkan: zero");
  set.alternatives.push_back({zero, AcceptKind::Values, {0u, 0u, 0u, 0u, {}}});
  const FormatView fv = rgba8(gcn::Nfmt::Unorm);
  const Tolerance tol = exactTolerance();

  const std::array<uint32_t, 5> one{0x3f800000u, 0, 0, 0x3f800000u, 0};
  const std::array<uint32_t, 5> zeros{};
  const std::array<uint32_t, 5> neither{0x3f800000u, 0, 0, 0, 0};
  ASSERT_TRUE(acceptLane(e, 3, one, fv, tol));
  EXPECT_EQ(acceptLane(e, 3, one, fv, tol)->rule, kReferenceRule);
  ASSERT_TRUE(acceptLane(e, 3, zeros, fv, tol));
  EXPECT_EQ(acceptLane(e, 3, zeros, fv, tol)->rule, zero);
  EXPECT_EQ(acceptanceText(e, acceptLane(e, 3, zeros, fv, tol), tol), "vulkan: zero");
  // Components from different alternatives do not add up to an accepted vector.
  EXPECT_FALSE(acceptLane(e, 3, neither, fv, tol));
  EXPECT_EQ(acceptanceText(e, std::nullopt, tol),
            "no rule accepts it (tolerance exact; rules: reference, vulkan: zero)");
}

TEST(Accept, AnyComponentAndToleranceAreReported) {
  Expected e = withMemory({});
  e.lanes[0].count = 2;
  e.lanes[0].alternatives.push_back({0, AcceptKind::Values, {0x3b808081u, std::nullopt}});
  const FormatView fv = rgba8(gcn::Nfmt::Unorm);
  // 1/255 = 0x3b808081 correctly rounded; one float ulp up is 0x3b808082.
  const std::array<uint32_t, 5> up{0x3b808082u, 0xdeadbeefu};
  EXPECT_FALSE(acceptLane(e, 0, up, fv, exactTolerance()));
  const auto a = acceptLane(e, 0, up, fv, findTolerance("norm-1ulp"));
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->tolerance);
  EXPECT_EQ(acceptanceText(e, a, findTolerance("norm-1ulp")),
            "reference, within tolerance norm-1ulp");
}

TEST(Accept, SerialOrderNeedsItsEvidence) {
  Expected e = withMemory({0, 0, 0, 0});
  e.lanes[1].count = 1;
  e.lanes[1].alternatives.push_back({0, AcceptKind::Values, {5u}});
  const RuleId order = e.rule("any serial order");
  e.lanes[1].alternatives.push_back({order, AcceptKind::SerialAtomicOrder, {}});
  e.memory.ranges.push_back({0, 4, order, AcceptKind::SerialAtomicOrder});
  EXPECT_TRUE(needsOrderEvidence(e));
  FormatView fv = rgba8(gcn::Nfmt::Uint);
  const std::array<uint32_t, 5> seven{7u};
  EXPECT_FALSE(acceptLane(e, 1, seven, fv, exactTolerance()));
  AtomicOrderAcceptance evidence;
  evidence.lanes[1] = true;
  evidence.ranges.push_back({0, 4});
  EXPECT_EQ(acceptLane(e, 1, seven, fv, exactTolerance(), &evidence)->rule, order);
  const std::vector<uint8_t> changed{9, 9, 9, 9};
  EXPECT_FALSE(acceptRange(e, 0, 4, changed, fv, exactTolerance()));
  EXPECT_EQ(acceptRange(e, 0, 4, changed, fv, exactTolerance(), &evidence)->rule, order);
  EXPECT_FALSE(needsOrderEvidence(withMemory({})));
}

TEST(Accept, MemoryRangesCoverOnlyTheirBytes) {
  // Two RGBA8 UINT elements; any bytes accepted in [0, 2) and [2, 4): element 0 together.
  Expected e = withMemory({1, 2, 3, 4, 5, 6, 7, 8});
  const RuleId land = e.rule("oob stores may land");
  e.memory.ranges.push_back({0, 2, land, AcceptKind::Any});
  e.memory.ranges.push_back({2, 4, land, AcceptKind::Any});
  const FormatView fv = rgba8(gcn::Nfmt::Uint);
  const std::vector<uint8_t> actual{0xff, 0xff, 0xff, 0xff, 5, 6, 7, 0xff};
  EXPECT_EQ(acceptRange(e, 0, 4, actual, fv, exactTolerance())->rule, land);
  EXPECT_FALSE(acceptRange(e, 4, 4, actual, fv, exactTolerance()));
  // An open field accepts any code in that one field of that one element.
  e.memory.anyFields.push_back({1, 3, e.rule("nan to unorm")});
  EXPECT_EQ(acceptRange(e, 4, 4, actual, fv, exactTolerance())->rule, e.rule("nan to unorm"));
  EXPECT_FALSE(acceptField(e, 1, 2, 7, 8, fv, exactTolerance()));
  // Another whole-buffer outcome of the reference.
  Expected two = withMemory({1, 2, 3, 4});
  gcn::ExecResult other;
  other.written = gcn::MemoryImage{0, {1, 2, 3, 9}};
  two.alternatives.push_back({"policy b", std::move(other)});
  two.rules.push_back("policy b");
  two.memory.images.push_back({1, 1});
  const std::vector<uint8_t> b{1, 2, 3, 9};
  EXPECT_EQ(acceptRange(two, 0, 4, b, fv, exactTolerance())->rule, 1);
  EXPECT_FALSE(acceptRange(two, 0, 4, std::vector<uint8_t>{1, 2, 3, 8}, fv, exactTolerance()));
  EXPECT_TRUE(acceptGuard(two, {}));
  EXPECT_FALSE(acceptGuard(two, std::vector<int64_t>{-1}));
}

TEST(Accept, StoredCodesWithinOneAreExhaustivelyTheNeighbours) {
  // UNORM8: codes are unsigned; SNORM8: two's complement, so 0x7f (127) and 0x80 (-128) are
  // 255 apart although their bit patterns are adjacent.
  Tolerance oneCode = exactTolerance();
  oneCode.storeCodes = 1;
  for (uint32_t e = 0; e < 256; ++e) {
    for (uint32_t a = 0; a < 256; ++a) {
      const bool unorm = std::abs(static_cast<int>(e) - static_cast<int>(a)) <= 1;
      const int se = e < 128 ? static_cast<int>(e) : static_cast<int>(e) - 256;
      const int sa = a < 128 ? static_cast<int>(a) : static_cast<int>(a) - 256;
      const bool snorm = std::abs(se - sa) <= 1;
      ASSERT_EQ(fieldMatches(gcn::Dfmt::F8_8_8_8, gcn::Nfmt::Unorm, 0, e, a, oneCode), unorm);
      ASSERT_EQ(fieldMatches(gcn::Dfmt::F8_8_8_8, gcn::Nfmt::Snorm, 0, e, a, oneCode), snorm);
      ASSERT_EQ(fieldMatches(gcn::Dfmt::F8_8_8_8, gcn::Nfmt::Unorm, 0, e, a, exactTolerance()),
                e == a);
    }
  }
}

TEST(Accept, HalfNanPayloadsOnlyUnderTheirTolerance) {
  // binary16: exponent 0x7c00; 0x7e00 quiet NaN, 0x7c01 signalling NaN, 0x7c00 infinity.
  Tolerance nan = exactTolerance();
  nan.anyNanPayload = true;
  EXPECT_TRUE(fieldMatches(gcn::Dfmt::F16, gcn::Nfmt::Float, 0, 0x7e00, 0x7c01, nan));
  EXPECT_FALSE(fieldMatches(gcn::Dfmt::F16, gcn::Nfmt::Float, 0, 0x7e00, 0x7c00, nan));
  EXPECT_FALSE(fieldMatches(gcn::Dfmt::F16, gcn::Nfmt::Float, 0, 0x7e00, 0x7c01, exactTolerance()));
  EXPECT_TRUE(registerMatches(gcn::RegType::Float, 0x7fc00000u, 0xffc00001u, false, nan));
  EXPECT_FALSE(registerMatches(gcn::RegType::Uint, 0x7fc00000u, 0xffc00001u, false, nan));
}

TEST(Classify, FieldClasses) {
  const uint32_t fields[4] = {0x10, 0x20, 0x30, 0x40};
  // Memory kept its initial bits.
  EXPECT_EQ(classifyField(gcn::Dfmt::F8_8_8_8, gcn::Nfmt::Unorm, 0, 0x10, 0x55, 0x55, fields),
            "not-written");
  // Field X holds the expected W.
  EXPECT_EQ(classifyField(gcn::Dfmt::F8_8_8_8, gcn::Nfmt::Unorm, 0, 0x10, 0x40, 0, fields),
            "channel-swap(w)");
  // SNORM8 0x00 (0) and 0xff (-1) are one code apart.
  EXPECT_EQ(classifyField(gcn::Dfmt::F8_8_8_8, gcn::Nfmt::Snorm, 1, 0x00, 0xff, 0x77, fields),
            "1-lsb");
  // UNORM8 0x00 and 0xff are 255 apart.
  EXPECT_EQ(classifyField(gcn::Dfmt::F8_8_8_8, gcn::Nfmt::Unorm, 1, 0x00, 0xff, 0x77, fields),
            "zero-vs-stale");
  // binary16: 1.0 = 0x3c00, next up 0x3c01; smallest denormal 0x0001 (and -0x8001) flushed.
  const uint32_t none[1] = {0};
  EXPECT_EQ(classifyField(gcn::Dfmt::F16, gcn::Nfmt::Float, 0, 0x3c00, 0x3c01, 0, none), "1-ulp");
  EXPECT_EQ(classifyField(gcn::Dfmt::F16, gcn::Nfmt::Float, 0, 0x8001, 0x8000, 0x1234, none),
            "denorm-flush");
  EXPECT_EQ(classifyField(gcn::Dfmt::F16, gcn::Nfmt::Float, 0, 0x7e00, 0x7c01, 0, none),
            "nan-payload");
}

TEST(Classify, SrgbDecodeSkipped) {
  // sRGB code 128: EOTF(128/255) = ((128/255 + 0.055) / 1.055)^2.4 = 0.2158605 (Khronos Data
  // Format Specification, sRGB EOTF); a device that skips it returns 128/255.
  const uint32_t decoded = std::bit_cast<uint32_t>(0.21586050f);
  const uint32_t raw = std::bit_cast<uint32_t>(128.0f / 255.0f);
  EXPECT_TRUE(srgbNotDecoded(decoded, raw));
  EXPECT_FALSE(srgbNotDecoded(decoded, decoded));
  EXPECT_FALSE(srgbNotDecoded(decoded, std::bit_cast<uint32_t>(0.5f)));  // not a code / 255
  FormatView fv = rgba8(gcn::Nfmt::Unorm);
  fv.srgb = {true, true, true, false};
  const std::optional<uint32_t> v[4] = {decoded, 0u, 0u, 0x3f800000u};
  EXPECT_EQ(classifyComponent(fv, 0, decoded, raw, v), "srgb-not-decoded");
  fv.srgb[0] = false;
  EXPECT_EQ(classifyComponent(fv, 0, decoded, raw, v), "other");
}

TEST(Report, Text) {
  EXPECT_EQ(gcn::hexWord(0xabcdu), "0x0000abcd");
  const uint8_t le[2] = {0x34, 0x12};
  EXPECT_EQ(gcn::hexElement(le), "0x1234");
  EXPECT_EQ(guardProblem(std::vector<int64_t>{-1, 64}),
            "2 guard byte(s) changed, first at payload offset -1");
  EXPECT_EQ(memorySizeProblem(12, 16), "memory size 12 != expected 16");
  results::ComponentDiff d;
  d.lane = 5;
  d.component = 1;
  describeRegister(d, gcn::RegType::Float, 0x3f800000u, 0x40000000u, "");
  d.classification = "other";
  EXPECT_EQ(laneProblem(2, &d),
            "2 lane(s) differ, first lane 5 component y: expected 0x3f800000 (1), actual "
            "0x40000000 (2) [other]");
  results::ComponentDiff u;
  describeRegister(u, gcn::RegType::Uint, std::nullopt, 7u, "");
  EXPECT_EQ(u.expectedBits, "undefined");
  EXPECT_EQ(u.expectedValue, "the reference claims no value");
  results::ComponentDiff f;
  f.element = 10;
  f.component = 2;
  describeField(f, rgba8(gcn::Nfmt::Uint), 2, 0x21, 0x20, std::nullopt);
  f.classification = "1-lsb";
  EXPECT_EQ(f.memoryBits, "");
  EXPECT_EQ(fieldMismatchText(f),
            "element 10 field z: expected 0x00000021, actual 0x00000020 [1-lsb]");
  EXPECT_EQ(memoryProblem(3, fieldMismatchText(f)),
            "3 memory element(s) differ, first element 10 field z: expected 0x00000021, actual "
            "0x00000020 [1-lsb]");
  EXPECT_EQ(joinProblems({"a", "b"}), "a; b");
}

}  // namespace acceptance_test
}  // namespace gcnprobe::judge
