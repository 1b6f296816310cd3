// `gcnprobe isa --compare` (results/isa_compare.h) on hand-written isa --json documents: a
// verdict change in either direction, a case instruction that changed apart from its
// registers, one that changed only in registers (not a change), cases and chips on one side
// (a verified case that is gone counts as newly broken).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "reference/error.h"
#include "results/isa_compare.h"

namespace isa_compare_test {

using nlohmann::json;

json verified(const std::string& name, const std::string& instruction) {
  return {{"case", name},
          {"outcome", "verified"},
          {"proof", {"instruction: proven: " + instruction + " on set 0 binding 0", "V#: x"}}};
}

json missed(const std::string& name, const std::string& emitted, const std::string& reason) {
  return {{"case", name},
          {"outcome", "route-miss"},
          {"reason", reason},
          {"emitted",
           {{{"text",
              "buffer_store_dword v1, v0, s[4:7], 0 offen ; e0701000 80010100 ; set 0 "
              "binding 2"}},
            {{"text", emitted + " ; set 0 binding 0"}}}}};
}

TEST(IsaCompare, VerdictsAndCaseInstructionsRegistersAside) {
  const json before = {
      {"chips",
       {{{"chip", "tonga"},
         {"cases",
          {verified("a", "buffer_load_dword v1, v1, s[8:11], 0 offen ; e0501000 80020101"),
           missed("b", "buffer_store_dword v2, v1, s[8:11], 0 offen ; e0701000 80020201", "x"),
           verified("c", "buffer_load_format_x v1, v1, s[8:11], 0 idxen ; e0002000 80020101"),
           verified("d", "buffer_load_dword v1, v1, s[8:11], 0 offen ; e0501000 80020101"),
           verified("gone", "buffer_load_dword v1, v1, s[8:11], 0 offen ; e0501000 80020101")}}},
        {{"chip", "tahiti"}, {"cases", json::array()}}}}};
  const json after = {
      {"chips",
       {{{"chip", "tonga"},
         {"cases",
          {// a: broken, the driver now loads two dwords
           missed("a", "buffer_load_dwordx2 v[1:2], v1, s[0:3], 0 offen ; e0541000 80000101",
                  "the driver rewrites the value"),
           // b: fixed
           verified("b", "buffer_store_dword v3, v1, s[0:3], 0 offen ; e0701000 80000301"),
           // c: other registers only: no change
           verified("c", "buffer_load_format_x v7, v2, s[4:7], 0 idxen ; e0002000 80010702"),
           // d: same verdict, another instruction (an OFFSET now)
           verified("d", "buffer_load_dword v1, v1, s[8:11], 0 offen offset:4 ; e0501004 80020101"),
           verified("new", "buffer_load_dword v1, v1, s[8:11], 0 offen ; e0501000 80020101")}}}}}};
  const gcnprobe::results::IsaComparison c = gcnprobe::results::compareIsa(before, after, "A", "B");
  EXPECT_EQ(c.compared, 4u);
  ASSERT_EQ(c.changes.size(), 3u);
  // a, and the verified case the later document lacks.
  EXPECT_EQ(c.newlyBroken, 2u);
  EXPECT_EQ(c.fixed, 1u);
  EXPECT_EQ(c.sameVerdictNewInstruction, 1u);
  EXPECT_EQ(c.changes[0].name, "a");
  EXPECT_TRUE(c.changes[0].newlyBroken());
  // The route's own Out store (binding 2) is not the case's instruction.
  EXPECT_EQ(
      c.changes[0].instructionAfter,
      "buffer_load_dwordx2 v[1:2], v1, s[0:3], 0 offen ; e0541000 80000101 ; set 0 binding 0");
  EXPECT_EQ(c.onlyBefore, std::vector<std::string>{"tonga: gone"});
  EXPECT_EQ(c.onlyAfter, std::vector<std::string>{"tonga: new"});
  EXPECT_EQ(c.chipsOnlyOnOneSide, std::vector<std::string>{"tahiti (only in A)"});
  const std::string t = gcnprobe::results::isaComparisonText(c);
  EXPECT_NE(t.find("tonga  a  verified -> route-miss  (newly broken)"), std::string::npos) << t;
  EXPECT_NE(t.find("reason: the driver rewrites the value"), std::string::npos) << t;
  EXPECT_EQ(t.find("tonga  c"), std::string::npos) << t;
  EXPECT_NE(t.find("4 cases in both: 3 changed (2 newly broken, 1 newly verified, 1 with the same"),
            std::string::npos)
      << t;
}

TEST(IsaCompare, ADocumentThatIsNoIsaJsonIsAnError) {
  try {
    gcnprobe::results::compareIsa(json{{"cases", json::array()}}, json{{"chips", json::array()}},
                                  "run.json", "isa.json");
    ADD_FAILURE() << "accepted";
  } catch (const gcn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("run.json: no \"chips\" array"), std::string::npos)
        << e.what();
  }
}

}  // namespace isa_compare_test
