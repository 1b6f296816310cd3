// The storage-buffer route and suite on lavapipe (the device every machine here has), the
// RADV SSBO V# against hand-derived words, and a real stray write caught in a guard band.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "harness/cases/suite.h"
#include "harness/routes/atomic.h"
#include "harness/routes/storage.h"
#include "harness/routes/texel.h"
#include "harness/run/runner.h"
#include "harness/vulkan/context.h"
#include "reference/resource.h"
#include "tests/harness/support.h"

namespace storage_test {

using namespace gcnprobe;

std::vector<results::CaseResult> runOnLavapipe(vk::Context& ctx,
                                               const std::vector<judge::Case>& cases) {
  std::vector<std::unique_ptr<routes::Route>> list;
  list.push_back(routes::makeTexelRoute(ctx));
  list.push_back(routes::makeStorageRoute(ctx));
  list.push_back(routes::makeAtomicRoute(ctx));
  const run::RunOptions ro = test_support::portableOptions(ctx);
  std::vector<results::CaseResult> out;
  run::runCases(cases, list, ro, [&](const results::CaseResult& r) { out.push_back(r); });
  return out;
}

const gcn::Chip& portableChip() {
  return gcn::representativeChip(judge::kPortableGen);
}

// Golden words of RADV's SSBO descriptor on GFX6-9, derived by hand from CLRX GcnMemHandling's bit
// table and Mesa radv_descriptor_set.c (write_buffer_descriptor): word 3 = DST_SEL X,Y,Z,W
// (codes 4,5,6,7 at bits 0,3,6,9: 0xfac) | NUM_FORMAT FLOAT (7 << 12 = 0x7000) |
// DATA_FORMAT 32 (4 << 15 = 0x20000) = 0x27fac; word 2 = the range rounded up to 4.
TEST(StorageVSharp, MatchesRadvWords) {
  for (gcn::Gen gen : gcn::kGcnGens) {
    const auto w = gcn::encodeVSharp(gen, routes::makeStorageBufferVSharp(0x123456789abcull, 10));
    EXPECT_EQ(w[0], 0x56789abcu) << gcn::genName(gen);
    EXPECT_EQ(w[1], 0x1234u) << gcn::genName(gen);  // BASE_HI, STRIDE 0, no swizzle
    EXPECT_EQ(w[2], 12u) << gcn::genName(gen);
    EXPECT_EQ(w[3], 0x27facu) << gcn::genName(gen);
  }
}

TEST(StorageSuite, EveryInstructionHasCasesWithEdgeLanes) {
  const std::vector<judge::Case> cases = cases::storageSuite(portableChip());
  std::set<std::string> ops;
  for (const judge::Case& c : cases) {
    ops.insert(std::string(c.device.inst.op->mnemonic));
    EXPECT_TRUE(c.device.inst.offen) << c.name;
    // Some lane reaches at or past NUM_RECORDS (the V#'s word 2).
    const uint32_t numRecords = c.device.state.sgpr[c.device.inst.srsrc + 2];
    bool past = false;
    for (unsigned l = 0; l < 62; ++l)
      past = past || c.device.state.vgpr(0)[l] + c.device.inst.offset + c.device.inst.op->memBytes >
                         numRecords;
    EXPECT_TRUE(past) << c.name;
  }
  EXPECT_EQ(ops.size(), 14u);
  EXPECT_EQ(cases::buildCases("storage", "", portableChip()).size(), cases.size());
}

TEST(StorageSuite, PassesOnLavapipeWithEveryInstruction) {
  auto ctx = vk::Context::open("llvmpipe");
  const std::vector<judge::Case> cases = cases::storageSuite(portableChip());
  const auto results = runOnLavapipe(*ctx, cases);
  ASSERT_EQ(results.size(), cases.size());
  std::set<std::string> passing;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const results::CaseResult& r = results[i];
    const auto it = std::find_if(cases.begin(), cases.end(),
                                 [&](const judge::Case& c) { return c.name == r.name; });
    ASSERT_NE(it, cases.end());
    if (r.verdict == results::Verdict::Unsupported) {
      // Only a missing 8/16-bit storage feature may make a case unsupported.
      EXPECT_NE(r.reason.find("device lacks"), std::string::npos) << r.name << ": " << r.reason;
      continue;
    }
    EXPECT_EQ(r.verdict, results::Verdict::Pass) << r.name << ": " << r.reason;
    if (r.verdict == results::Verdict::Pass)
      passing.insert(std::string(it->device.inst.op->mnemonic));
  }
  const std::set<std::string> want = {
      "buffer_load_ubyte",    "buffer_load_sbyte",   "buffer_load_ushort",  "buffer_load_sshort",
      "buffer_load_dword",    "buffer_load_dwordx2", "buffer_load_dwordx3", "buffer_load_dwordx4",
      "buffer_store_byte",    "buffer_store_short",  "buffer_store_dword",  "buffer_store_dwordx2",
      "buffer_store_dwordx3", "buffer_store_dwordx4"};
  const vk::Features& f = ctx->features();
  std::set<std::string> expected;
  for (const std::string& m : want) {
    const unsigned bytes = gcn::findOpcode(m)->memBytes;
    if (bytes == 1 && !(f.storageBuffer8BitAccess && f.shaderInt8)) continue;
    if (bytes == 2 && !(f.storageBuffer16BitAccess && f.shaderInt16)) continue;
    expected.insert(m);
  }
  EXPECT_EQ(passing, expected);
  EXPECT_GE(expected.size(), 10u);  // dword forms never need an optional feature
}

// Makes a store_dword case's V# run 64 bytes past its memory image (NUM_RECORDS) and lane 5
// store 8 bytes behind the payload; returns the image's size.
uint32_t makeStrayStore(judge::Case& c) {
  const uint32_t bytes = static_cast<uint32_t>(c.device.memory.bytes.size());
  c.device.state.sgpr[c.device.inst.srsrc + 2] = bytes + 64;  // NUM_RECORDS
  c.device.state.vgprMut(0)[5] = bytes + 8;                   // lane 5: behind the payload
  return bytes;
}

// A V# whose NUM_RECORDS runs 64 bytes past the memory image: the descriptor range follows
// the V#, so the device really writes behind the payload, into the guard band. The
// reference calls that store in range but unmapped (not performed); the guard catches it.
TEST(StorageRoute, StrayWriteIntoGuardBandIsCaught) {
  auto ctx = vk::Context::open("llvmpipe");
  std::vector<judge::Case> cases =
      cases::buildCases("storage", "storage.store_dword.offset0", portableChip());
  ASSERT_EQ(cases.size(), 1u);
  judge::Case& c = cases[0];
  const uint32_t bytes = makeStrayStore(c);
  const auto results = runOnLavapipe(*ctx, cases);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].verdict, results::Verdict::Fail) << results[0].reason;
  EXPECT_NE(results[0].reason.find("guard"), std::string::npos) << results[0].reason;
  const std::vector<int64_t>& g = results[0].changedGuardBytes;
  ASSERT_FALSE(g.empty());
  // Lane 5's dword is among the changed guard bytes; every change lies inside the V#'s
  // range (the lanes that start at NUM_RECORDS of the original case are now in range too).
  for (int64_t b = bytes + 8; b < bytes + 12; ++b)
    EXPECT_TRUE(std::binary_search(g.begin(), g.end(), b)) << b;
  EXPECT_GE(g.front(), static_cast<int64_t>(bytes));
  EXPECT_LT(g.back(), static_cast<int64_t>(bytes + 64));

  // The same case with the V# back in bounds passes: the failure was the stray write.
  c.device.state.sgpr[c.device.inst.srsrc + 2] = bytes;
  const auto again = runOnLavapipe(*ctx, cases);
  EXPECT_EQ(again[0].verdict, results::Verdict::Pass) << again[0].reason;
}

// `n` copies of the storage.store_dword.offset0 case, named "...#0" to "...#n-1": one batch.
std::vector<judge::Case> storeDwordCopies(std::size_t n) {
  std::vector<judge::Case> one =
      cases::buildCases("storage", "storage.store_dword.offset0", portableChip());
  EXPECT_EQ(one.size(), 1u);
  std::vector<judge::Case> cases(n, one.at(0));
  for (std::size_t i = 0; i < n; ++i)
    cases[i].name += "#" + std::to_string(i);
  return cases;
}

// The cases of a batch share one allocation, each in a buffer with guard bands of its own: a
// stray write by the middle case of three is that case's failure, and its neighbours pass.
TEST(StorageRoute, StrayWriteInABatchIsItsOwnCasesOnly) {
  auto ctx = vk::Context::open("llvmpipe");
  std::vector<judge::Case> cases = storeDwordCopies(3);
  const uint32_t bytes = makeStrayStore(cases[1]);
  const auto results = runOnLavapipe(*ctx, cases);
  ASSERT_EQ(results.size(), 3u);
  for (const results::CaseResult& r : results) {
    if (r.name == cases[1].name) {
      EXPECT_EQ(r.verdict, results::Verdict::Fail) << r.reason;
      const std::vector<int64_t>& g = r.changedGuardBytes;
      for (int64_t b = bytes + 8; b < bytes + 12; ++b)
        EXPECT_TRUE(std::binary_search(g.begin(), g.end(), b)) << b;
    } else {
      EXPECT_EQ(r.verdict, results::Verdict::Pass) << r.name << ": " << r.reason;
      EXPECT_TRUE(r.changedGuardBytes.empty()) << r.name;
    }
  }
}

// A batch larger than one submission (routes/storage.h kLaneChunkCases): every case still
// gets its own result, the same as the first copy's, whichever submission it ran in; a store
// case, so each copy's memory is written and read back from its own region.
TEST(StorageRoute, ABatchLargerThanOneSubmissionKeepsEveryCasesResult) {
  auto ctx = vk::Context::open("llvmpipe");
  auto route = routes::makeStorageRoute(*ctx);
  const std::vector<judge::Case> one = storeDwordCopies(1);
  ASSERT_EQ(route->unsupportedReason(one[0].device), "");
  const std::size_t n = routes::lane::kLaneChunkCases + 5;
  std::vector<const routes::DeviceCase*> inputs(n, &one[0].device);
  const std::vector<routes::DeviceResult> results = route->run(inputs);
  ASSERT_EQ(results.size(), n);
  ASSERT_FALSE(results[0].memory.empty());
  EXPECT_NE(results[0].memory, one[0].device.memory.bytes);  // the store wrote something
  for (std::size_t i = 1; i < n; ++i) {
    ASSERT_EQ(results[i].memory, results[0].memory) << "case " << i;
    ASSERT_TRUE(results[i].changedGuardBytes.empty()) << "case " << i;
  }
}

// The runner dispatches a large batch in parts of run::kCasesPerDispatch (predicted, run,
// checked and freed in turn): every case still gets its verdict, in the order given, and a
// wrong case in the last part is still the one that fails.
TEST(StorageRoute, TheRunnerSplitsALargeBatchAndKeepsEveryVerdict) {
  auto ctx = vk::Context::open("llvmpipe");
  const std::size_t n = 2 * run::kCasesPerDispatch + 3;
  std::vector<judge::Case> cases = storeDwordCopies(n);
  makeStrayStore(cases[n - 2]);
  const auto results = runOnLavapipe(*ctx, cases);
  ASSERT_EQ(results.size(), n);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(results[i].name, cases[i].name);
    EXPECT_EQ(results[i].verdict, i == n - 2 ? results::Verdict::Fail : results::Verdict::Pass)
        << results[i].name << ": " << results[i].reason;
  }
}

TEST(StorageRoute, UnrealisableCasesSayWhy) {
  auto ctx = vk::Context::open("llvmpipe");
  auto route = routes::makeStorageRoute(*ctx);
  std::vector<judge::Case> cases =
      cases::buildCases("storage", "storage.load_dword.offset0", portableChip());
  ASSERT_EQ(cases.size(), 1u);
  routes::DeviceCase d = cases[0].device;
  EXPECT_EQ(route->unsupportedReason(d), "");
  d.state.vgprMut(0)[3] = 6;  // not a multiple of 4
  EXPECT_NE(route->unsupportedReason(d).find("lane 3"), std::string::npos);
  d = cases[0].device;
  d.inst.idxen = true;
  EXPECT_NE(route->unsupportedReason(d).find("OFFEN"), std::string::npos);
  d = cases[0].device;
  d.state.sgpr[d.inst.srsrc + 1] |= 16u << 16;  // STRIDE 16
  EXPECT_NE(route->unsupportedReason(d).find("STRIDE"), std::string::npos);
}

}  // namespace storage_test
