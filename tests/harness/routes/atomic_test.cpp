// The atomic route and suite on lavapipe, and the lane-order acceptance rule
// (harness/judge/atomic_order.h) on hand-built results: two legal serial orders accepted, an
// impossible result rejected. Expected values below are worked out by hand per order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>

#include "harness/cases/suite.h"
#include "harness/judge/atomic_order.h"
#include "harness/judge/diff.h"
#include "harness/routes/atomic.h"
#include "harness/routes/storage.h"
#include "harness/routes/texel.h"
#include "harness/run/runner.h"
#include "harness/vulkan/context.h"
#include "reference/error.h"
#include "reference/executor.h"
#include "tests/harness/support.h"

namespace atomic_test {

using namespace gcnprobe;

const gcn::Chip& portableChip() {
  return gcn::representativeChip(judge::kPortableGen);
}

// A wave with lanes 0, 1, 2 doing `mnemonic` (GLC) on the dword at byte 8 of a 16-byte SSBO
// holding `initial` there; sources 1, 2, 4 (and CMPSWAP compares in `cmp`).
routes::DeviceCase threeLanes(const char* mnemonic, uint32_t initial,
                              std::array<uint32_t, 3> src = {1, 2, 4},
                              std::array<uint32_t, 3> cmp = {0, 0, 0}) {
  routes::DeviceCase d;
  d.binding = routes::Binding::StorageBuffer;
  d.inst.op = gcn::findOpcode(mnemonic);
  d.inst.vaddr = 0;
  d.inst.vdata = 1;
  d.inst.srsrc = 4;
  d.inst.offen = true;
  d.inst.glc = true;
  const auto w = gcn::encodeVSharp(gcn::Gen::Gfx9, routes::makeStorageBufferVSharp(0x1000, 16));
  gcn::setVsharpWords(d.state, 4, w);
  d.state.exec = 0b111;
  d.memory.base = 0x1000;
  d.memory.bytes.assign(16, 0);
  std::memcpy(d.memory.bytes.data() + 8, &initial, 4);
  for (unsigned l = 0; l < 3; ++l) {
    d.state.vgprMut(0)[l] = 8;
    d.state.vgprMut(1)[l] = src[l];
    d.state.vgprMut(2)[l] = cmp[l];
  }
  return d;
}

routes::DeviceResult deviceResult(const routes::DeviceCase& d, std::array<uint32_t, 3> returned,
                                  uint32_t final) {
  routes::DeviceResult r;
  r.vdataCount = 1;
  for (unsigned l = 0; l < 3; ++l)
    r.vdata[l][0] = returned[l];
  r.memory = d.memory.bytes;
  std::memcpy(r.memory.data() + 8, &final, 4);
  return r;
}

judge::DiffResult diff(const routes::DeviceCase& d, const routes::DeviceResult& actual) {
  judge::Case c;
  c.name = "atomic.order";
  c.device = d;
  const judge::Profile p = judge::resolveProfile("gfx9", std::nullopt);
  const judge::Expected e = judge::buildExpected(c, p, judge::DeviceRules{true});
  return judge::diffCase(d, judge::formatViewOf(p.chip, d), e, actual,
                         judge::findTolerance("exact"));
}

gcn::ExecResult predict(const routes::DeviceCase& d) {
  return gcn::execute(gcn::representativeChip(gcn::Gen::Gfx9), d.inst, d.state, d.memory, {},
                      gcn::Policies::defaults(gcn::Gen::Gfx9));
}

// ADD from 100 with 1, 2, 4: order 0,1,2 returns 100,101,103; order 2,0,1 returns lane 2
// 100, lane 0 104, lane 1 105. Both end at 107. Lanes 0 and 1 both seeing 100 is no order.
TEST(AtomicOrder, AddAcceptsTwoOrdersRejectsImpossible) {
  const routes::DeviceCase d = threeLanes("buffer_atomic_add", 100);
  const gcn::ExecResult pred = predict(d);
  const auto inOrder = judge::acceptAtomicOrders(d, pred, deviceResult(d, {100, 101, 103}, 107));
  const auto reversed = judge::acceptAtomicOrders(d, pred, deviceResult(d, {104, 105, 100}, 107));
  const auto impossible = judge::acceptAtomicOrders(d, pred, deviceResult(d, {100, 100, 103}, 107));
  const auto wrongFinal = judge::acceptAtomicOrders(d, pred, deviceResult(d, {100, 101, 103}, 108));
  for (unsigned l = 0; l < 3; ++l) {
    EXPECT_TRUE(inOrder.lanes[l]);
    EXPECT_TRUE(reversed.lanes[l]);
    EXPECT_FALSE(impossible.lanes[l]);
    EXPECT_FALSE(wrongFinal.lanes[l]);
  }
  EXPECT_TRUE(reversed.memoryAccepted(8, 4));
  EXPECT_FALSE(impossible.memoryAccepted(8, 4));
  ASSERT_EQ(reversed.notes.size(), 1u);
  EXPECT_NE(reversed.notes[0].find("2,0,1"), std::string::npos) << reversed.notes[0];
}

// SWAP from 100 with 1, 2, 4 (order-dependent memory too): order 1,2,0 returns lane 1 100,
// lane 2 2, lane 0 4 and leaves 1; order 0,1,2 leaves 4. A lane returning a value no lane
// wrote (7) is impossible.
TEST(AtomicOrder, SwapThroughTheDiff) {
  const routes::DeviceCase d = threeLanes("buffer_atomic_swap", 100);
  EXPECT_TRUE(diff(d, deviceResult(d, {100, 1, 2}, 4)).pass);
  const judge::DiffResult other = diff(d, deviceResult(d, {4, 100, 2}, 1));
  EXPECT_TRUE(other.pass) << other.summary;
  EXPECT_FALSE(diff(d, deviceResult(d, {4, 100, 7}, 1)).pass);
  EXPECT_FALSE(diff(d, deviceResult(d, {4, 100, 2}, 2)).pass);  // final memory of no order
}

// CMPSWAP from 100: lane 0 (src 1, cmp 100), lane 1 (src 2, cmp 1), lane 2 (src 4, cmp 100).
// Order 0,1,2: lane 0 swaps (100 -> 1), lane 1 swaps (1 -> 2), lane 2 fails: returns 100, 1,
// 2, final 2. Order 2,0,1: lane 2 swaps (100 -> 4), lane 0 fails, lane 1 fails: returns 4,
// 4, 100, final 4.
TEST(AtomicOrder, CmpswapOrders) {
  const routes::DeviceCase d = threeLanes("buffer_atomic_cmpswap", 100, {1, 2, 4}, {100, 1, 100});
  const gcn::ExecResult pred = predict(d);
  EXPECT_TRUE(judge::acceptAtomicOrders(d, pred, deviceResult(d, {100, 1, 2}, 2)).lanes[0]);
  EXPECT_TRUE(judge::acceptAtomicOrders(d, pred, deviceResult(d, {4, 4, 100}, 4)).lanes[0]);
  EXPECT_FALSE(judge::acceptAtomicOrders(d, pred, deviceResult(d, {100, 100, 100}, 4)).lanes[0]);
}

TEST(AtomicOrder, SerialOrderSearchIsBounded) {
  std::vector<judge::AtomicLaneOp> ops(13);
  EXPECT_THROW(judge::findSerialOrder(gcn::AtomicOp::Add, false, 0, ops, 0), gcn::Error);
}

TEST(AtomicSuite, PassesOnLavapipeWithEveryInstruction) {
  auto ctx = vk::Context::open("llvmpipe");
  const std::vector<judge::Case> cases = cases::atomicSuite(portableChip());
  std::vector<std::unique_ptr<routes::Route>> list;
  list.push_back(routes::makeTexelRoute(*ctx));
  list.push_back(routes::makeStorageRoute(*ctx));
  list.push_back(routes::makeAtomicRoute(*ctx));
  const run::RunOptions ro = test_support::portableOptions(*ctx);
  std::set<std::string> passing, passingTexel;
  std::size_t count = 0;
  run::runCases(cases, list, ro, [&](const results::CaseResult& r) {
    ++count;
    const auto it = std::find_if(cases.begin(), cases.end(),
                                 [&](const judge::Case& c) { return c.name == r.name; });
    ASSERT_NE(it, cases.end());
    if (r.verdict == results::Verdict::Unsupported) {
      EXPECT_NE(r.reason.find("lacks"), std::string::npos) << r.name << ": " << r.reason;
      return;
    }
    EXPECT_EQ(r.verdict, results::Verdict::Pass) << r.name << ": " << r.reason;
    if (r.verdict != results::Verdict::Pass) return;
    (it->device.binding == routes::Binding::StorageTexel ? passingTexel : passing)
        .insert(std::string(it->device.inst.op->mnemonic));
  });
  EXPECT_EQ(count, cases.size());
  const char* ops[] = {"swap", "cmpswap", "add", "sub", "smin", "umin",
                       "smax", "umax",    "and", "or",  "xor"};
  std::set<std::string> want32, want64;
  for (const char* o : ops) {
    want32.insert(std::string("buffer_atomic_") + o);
    want64.insert(std::string("buffer_atomic_") + o + "_x2");
  }
  std::set<std::string> want = want32;
  if (ctx->features().shaderInt64 && ctx->features().shaderBufferInt64Atomics)
    want.insert(want64.begin(), want64.end());
  EXPECT_EQ(passing, want);
  const bool texelAtomics = (ctx->formatProperties(VK_FORMAT_R32_UINT).bufferFeatures &
                             VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT) != 0;
  if (texelAtomics) {
    EXPECT_EQ(passingTexel, want32);
  }
}

}  // namespace atomic_test
