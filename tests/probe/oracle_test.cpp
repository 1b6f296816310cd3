// The streaming oracle (probe/oracle.h, `gcnprobe oracle`). Expected values are derived here:
// an 8-bit UNORM component c loads as the float nearest c/255 (one correctly rounded division,
// CLRX GcnMemHandling "Data conversion"), an out-of-range load returns 0 (CLRX: "Reads are zero
// and writes are ignored for addresses out of range"), and an FMIN with a NaN operand has no
// documented result in memory (CLRX gives MIN/MAX only), which the answer must mark unclaimed
// rather than say only in prose.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "probe/oracle.h"

namespace oracle_test {

using nlohmann::json;

json ask(const std::string& line) {
  const std::string answer = gcn::probe::answerOracleLine(line);
  EXPECT_EQ(answer.find('\n'), std::string::npos);
  return json::parse(answer);
}

std::string bitsOf(float f) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", std::bit_cast<uint32_t>(f));
  return buf;
}

TEST(Oracle, AFormatLoadPerLaneWithTheOutOfRangeLaneZero) {
  // Memory 0x80402010: X 0x10, Y 0x20, Z 0x40, W 0x80. Lane 0 reads record 0; lane 1 record 7
  // of a 4-record buffer (out of range).
  const json a = ask(
      R"({"id":"q1","chip":"tonga","inst":"buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen",)"
      R"("vsharp":"base=0x1000 stride=4 num_records=4 dfmt=8_8_8_8 nfmt=unorm","lanes":2,)"
      R"("vgpr":{"0":[0,7]},"memory":{"base":4096,"words":["0x80402010"]}})");
  ASSERT_TRUE(a["ok"]) << a.dump();
  EXPECT_EQ(a["id"], "q1");
  ASSERT_EQ(a["lanes"].size(), 2u);
  const json& l0 = a["lanes"][0];
  EXPECT_EQ(l0["vdata"], json::array({bitsOf(16.0f / 255.0f), bitsOf(32.0f / 255.0f),
                                      bitsOf(64.0f / 255.0f), bitsOf(128.0f / 255.0f)}));
  EXPECT_EQ(l0["accesses"][0]["address"], "0x1000");
  EXPECT_TRUE(l0["accesses"][0]["in_range"]);
  const json& l1 = a["lanes"][1];
  EXPECT_EQ(l1["vdata"], json::array({"0x0", "0x0", "0x0", "0x0"}));
  EXPECT_FALSE(l1["accesses"][0]["in_range"]);
  EXPECT_EQ(l1["accesses"][0]["address"], "0x101c");  // 0x1000 + 7 * 4
  EXPECT_TRUE(a["memory_writes"].empty());
}

TEST(Oracle, MemoryTheModelDoesNotClaimIsMarkedSo) {
  const json a = ask(R"({"chip":"bonaire","inst":"buffer_atomic_fmin v1, v0, s[4:7], 0 offen glc",)"
                     R"("vsharp":"base=0x1000 num_records=16 dfmt=32 nfmt=float","lanes":1,)"
                     R"("vgpr":{"0":0,"1":"0x7fc00000"},"memory":{"base":4096,"hex":"0000803f"}})");
  ASSERT_TRUE(a["ok"]) << a.dump();
  // The returned pre-op value is memory's 1.0; the memory after it is not claimed.
  EXPECT_EQ(a["lanes"][0]["vdata"], json::array({bitsOf(1.0f)}));
  EXPECT_TRUE(a["lanes"][0].value("memory_unclaimed", false));
  ASSERT_EQ(a["memory_writes"].size(), 1u);
  EXPECT_FALSE(a["memory_writes"][0]["claimed"]);
  EXPECT_FALSE(a["memory_writes"][0].contains("bytes"));
  // An integer store is claimed, with its bytes (little-endian).
  const json s =
      ask(R"({"chip":"tonga","inst":"buffer_store_dword v1, v0, s[4:7], 0 offen",)"
          R"("vsharp":"base=0x1000 num_records=16","lanes":1,"vgpr":{"0":4,"1":"0x11223344"},)"
          R"("memory":{"base":4096,"hex":"00000000000000000000000000000000"}})");
  ASSERT_TRUE(s["ok"]) << s.dump();
  ASSERT_EQ(s["memory_writes"].size(), 1u);
  EXPECT_TRUE(s["memory_writes"][0]["claimed"]);
  EXPECT_EQ(s["memory_writes"][0]["address"], "0x1004");
  EXPECT_EQ(s["memory_writes"][0]["bytes"], "44332211");
}

TEST(Oracle, WordsAndFieldsGiveTheSameAnswerAndAlternativesNameTheDisputedPoint) {
  // llvm-mc 14 -mcpu=tonga: "buffer_load_dwordx2 v[1:2], v0, s[4:7], 0 offen" is e0541000
  // 80010100. A dwordx2 at byte 4 of a 6-byte buffer straddles NUM_RECORDS: the straddle point
  // (start only, or the whole access) decides its second dword.
  const std::string rest =
      R"("vsharp":"base=0x1000 num_records=6","lanes":1,"vgpr":{"0":0},)"
      R"("memory":{"base":4096,"hex":"0102030405060708"},"alternatives":true})";
  const json t =
      ask(R"({"chip":"tonga","inst":"buffer_load_dwordx2 v[1:2], v0, s[4:7], 0 offen",)" + rest);
  const json w = ask(R"({"chip":"tonga","inst_words":["0xe0541000","0x80010100"],)" + rest);
  ASSERT_TRUE(t["ok"]) << t.dump();
  EXPECT_EQ(t["lanes"], w["lanes"]);
  EXPECT_EQ(t["lanes"][0]["vdata"], json::array({"0x4030201", "0x8070605"}));
  bool straddle = false;
  for (const json& alt : t["alternatives"])
    straddle = straddle || alt["policy"].get<std::string>().rfind("straddle=", 0) == 0;
  EXPECT_TRUE(straddle) << t["alternatives"].dump();
}

TEST(Oracle, ABadLineIsAnErrorNamingTheField) {
  const struct {
    const char* line;
    const char* field;
  } bad[] = {
      {R"({"chip":"tonga","inst":"buffer_load_dword v1, v0, s[4:7], 0 offen","vsharp":"base=0","colour":1})",
       "colour"},
      {R"({"chip":"tonga","inst":"buffer_load_dword v1, v0, s[4:7], 0 offen","vsharp":"base=0","vgpr":{"300":1}})",
       "vgpr.300"},
      {R"({"chip":"tonga","inst":"buffer_load_dword v1, v0, s[4:7], 0 offen","vsharp":"base=0","vgpr":{"0":-1}})",
       "vgpr.0"},
      {R"({"chip":"gfx42","inst":"x"})", "chip"},
      {R"({"chip":"tonga","inst":"buffer_load_dword v1"})", "inst"},
      {R"({"chip":"tonga","inst_words":[1],"vsharp":"base=0"})", "inst_words"},
      {R"({"chip":"tonga","inst":"buffer_load_dword v1, v0, s[4:7], 0 offen","vsharp":"stride=q"})",
       "vsharp"},
      {R"({"chip":"tonga","inst":"buffer_load_dword v1, v0, s[4:7], 0 offen","vsharp":"base=0","policy":["straddle=sideways"]})",
       "policy"},
      {R"({"chip":"tonga","inst":"buffer_load_dword v1, v0, s[4:7], 0 offen","vsharp":"base=0","memory":{"hex":"abc"}})",
       "memory.hex"},
  };
  for (const auto& b : bad) {
    SCOPED_TRACE(b.line);
    const json a = ask(b.line);
    EXPECT_FALSE(a["ok"]);
    EXPECT_EQ(a.value("field", std::string()), b.field) << a.dump();
  }
  const json notJson = ask("{not json");
  EXPECT_FALSE(notJson["ok"]);
}

}  // namespace oracle_test
