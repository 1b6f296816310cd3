// Hostile probe input: whatever the text, parsing and evaluating give a result or a
// gcn::Error that names the place and the reason, never a crash, a hang or an internal error.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "probe/expr.h"
#include "probe/probe_eval.h"
#include "probe/probe_file.h"
#include "tests/probe/probe_error.h"
#include "tests/support/cli.h"

namespace gcn::probe {
namespace bad_input_test {

using gcnprobe::test_support::CliRun;
using gcnprobe::test_support::runGcnprobe;
using gcnprobe::test_support::Stderr;

const std::string kHead =
    "gen = gfx8\n"
    "inst = buffer_load_dword v1, v0, s[4:7], 0 offen\n"
    "vsharp = base=0x1000 num_records=16 dfmt=32 nfmt=uint\n"
    "lanes = 4\n";

std::string repeat(const std::string& s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i)
    out += s;
  return out;
}

using test::errorOf;

std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  FILE* f = std::fopen(path.c_str(), "wb");
  EXPECT_NE(f, nullptr) << path;
  if (f == nullptr) return path;
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return path;
}

// Column 6 of line 5 is where the value of `v0 = ` starts.
TEST(ProbeBadInput, DeepNestingIsALocatedErrorNamingTheLimit) {
  const std::size_t n = static_cast<std::size_t>(kMaxExprDepth) + 1;
  const Error e = errorOf(kHead + "v0 = " + repeat("(", n) + "1" + repeat(")", n) + "\n");
  EXPECT_EQ(e.place().file, "t.probe");
  EXPECT_EQ(e.place().line, 5);
  EXPECT_GT(e.place().column, 6);
  EXPECT_NE(e.reason().find("nests deeper than " + std::to_string(kMaxExprDepth)),
            std::string::npos)
      << e.what();
  // One level less is fine: the limit is exactly where it says.
  const std::size_t ok = static_cast<std::size_t>(kMaxExprDepth) - 1;
  EXPECT_NO_THROW(
      (void)Expr::parse(repeat("(", ok) + "1" + repeat(")", ok), IndexVar::None, Place{}));
}

TEST(ProbeBadInput, ChainsOfUnaryOperatorsHitTheDepthLimit) {
  for (const char* op : {"-", "~", "+"}) {
    const Error e = errorOf(kHead + "v0 = " + repeat(op, 1000) + "1\n");
    EXPECT_EQ(e.place().line, 5) << op;
    EXPECT_NE(e.reason().find("nests deeper than"), std::string::npos) << e.what();
  }
}

TEST(ProbeBadInput, LongChainsHitTheTermLimit) {
  // 1100 terms joined by '+': 2199 nodes, under the character limit.
  const std::string text = "1" + repeat("+1", 1099);
  ASSERT_LE(text.size(), kMaxExprChars);
  const Error e = errorOf(kHead + "v0 = " + text + "\n");
  EXPECT_EQ(e.place().line, 5);
  EXPECT_NE(e.reason().find("more than " + std::to_string(kMaxExprNodes)), std::string::npos)
      << e.what();
  // 1000 terms (1999 nodes) are allowed and evaluate to 1000.
  EXPECT_EQ(Expr::parse("1" + repeat("+1", 999), IndexVar::None, Place{}).eval(0), 1000u);
}

TEST(ProbeBadInput, LongExpressionsHitTheLengthLimit) {
  try {
    (void)Expr::parse(repeat("+1", 100000), IndexVar::None, Place{"t.probe", 3, 7});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.place().line, 3);
    EXPECT_EQ(e.place().column, 7);
    EXPECT_NE(e.reason().find("over the limit of " + std::to_string(kMaxExprChars)),
              std::string::npos)
        << e.what();
  }
}

// The reproducers as a user meets them: exit 2 and file:line:column, no crash.
TEST(ProbeBadInput, CliReportsNestingAndLengthAsBadInput) {
  const std::string parens = writeTemp(
      "deep-parens.probe", kHead + "v0 = " + repeat("(", 10000) + "1" + repeat(")", 10000) + "\n");
  const std::string plus = writeTemp("long-plus.probe", kHead + "v0 = 1" + repeat("+1", 100000));
  const std::string minus = writeTemp("long-minus.probe", kHead + "v0 = " + repeat("-", 100000));
  const std::string tilde =
      writeTemp("long-tilde.probe", kHead + "v0 = " + repeat("~", 2000) + "1");
  for (const std::string& path : {parens, plus, minus, tilde}) {
    for (const char* cmd : {"ref ", "probe "}) {
      const CliRun r = runGcnprobe(cmd + path);
      EXPECT_EQ(r.exit, 2) << cmd << path << "\n" << r.out.substr(0, 400);
      EXPECT_NE(r.out.find(path + ":5:"), std::string::npos) << r.out.substr(0, 400);
      EXPECT_NE(r.out.find("limit"), std::string::npos) << r.out.substr(0, 400);
    }
  }
}

// f32() literals round like IEEE round to nearest even (bits derived in
// tests/reference/decimal_float_test.cpp): tiny magnitudes are signed zeros, not infinities.
TEST(ProbeBadInput, F32LiteralsOutsideTheRangeRoundCorrectly) {
  const auto f32 = [](const std::string& lit) {
    return Expr::parse("f32(" + lit + ")", IndexVar::None, Place{}).eval(0);
  };
  EXPECT_EQ(f32("1e-50"), 0x00000000u);
  EXPECT_EQ(f32("-1e-50"), 0x80000000u);
  EXPECT_EQ(f32("3.4028235e38"), 0x7f7fffffu);
  EXPECT_EQ(f32("3.4028236e38"), 0x7f800000u);  // above the midpoint to 2^128
  EXPECT_EQ(f32("-1e39"), 0xff800000u);
}

// "question = caf" is 14 bytes, so the Latin-1 byte 0xe9 is column 15 of line 1.
TEST(ProbeBadInput, TextThatIsNotUtf8IsALocatedError) {
  const Error e = errorOf("question = caf\xe9\n" + kHead);
  EXPECT_EQ(e.place().line, 1);
  EXPECT_EQ(e.place().column, 15);
  EXPECT_NE(e.reason().find("0xe9 is not UTF-8"), std::string::npos) << e.what();
  // Also inside a comment: the file as a whole must be text.
  const Error c = errorOf(kHead + "# \xff\n");
  EXPECT_EQ(c.place().line, 5);
  EXPECT_EQ(c.place().column, 3);
}

TEST(ProbeBadInput, CliRejectsNonUtf8ProbesAsBadInputNotAnInternalError) {
  const std::string path = writeTemp("latin1.probe", "question = caf\xe9\n" + kHead);
  for (const char* cmd : {"ref --json ", "probe --json ", "ref "}) {
    const CliRun r = runGcnprobe(cmd + path);
    EXPECT_EQ(r.exit, 2) << cmd << r.out;
    EXPECT_NE(r.out.find(path + ":1:15: byte 0xe9 is not UTF-8"), std::string::npos) << r.out;
  }
}

// A path that is not UTF-8 still gives valid JSON (the bad byte becomes U+FFFD).
TEST(ProbeBadInput, JsonIsUtf8WhateverThePath) {
  const std::string path = writeTemp("caf\xe9.probe", kHead);
  const CliRun r =
      runGcnprobe("ref --json '" + path + "'", gcnprobe::test_support::Stderr::Discard);
  ASSERT_EQ(r.exit, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NE(j.at("file").get<std::string>().find("caf\xef\xbf\xbd.probe"), std::string::npos);
}

// 16 MiB filled with a 1000-term expression: 2^24 * 1999 terms, far over the budget of 2^28.
TEST(ProbeBadInput, ExpensiveFillIsRefusedAtItsLine) {
  const std::string fill = "i" + repeat("+i", 999);
  const Error e = errorOf(kHead + "memory size = 16777216\nmem fill = " + fill + "\n");
  EXPECT_EQ(e.place().line, 6);
  EXPECT_NE(e.reason().find("more than " + std::to_string(kMaxEvalTerms) + " term evaluations"),
            std::string::npos)
      << e.what();
  EXPECT_NE(e.reason().find("1999 terms, evaluated 16777216 times"), std::string::npos) << e.what();
  // The largest image with a one-term fill stays allowed.
  const Probe p = parseProbe(kHead + "memory size = 16777216\nmem fill = i\n", "t.probe");
  const ProbeSetup s = prepare(p, {});
  EXPECT_EQ(s.memory.bytes[0x12345], 0x45);
}

TEST(ProbeBadInput, TheBudgetCountsEveryWriteAndExpectation) {
  // Each line alone fits (16 MiB * 9 terms < 2^28); together they do not.
  const std::string nine = "i+i+i+i+i";
  const std::string line = "mem @0 u8 x16777216 = " + nine + "\n";
  const Error e = errorOf(kHead + "memory size = 16777216\n" + line + line);
  EXPECT_EQ(e.place().line, 7);
  EXPECT_NE(e.reason().find("term evaluations"), std::string::npos) << e.what();
}

TEST(ProbeBadInput, OverlongLinesAndFilesAreLocatedErrors) {
  const Error line = errorOf(kHead + "question = " + repeat("x", kMaxLineBytes) + "\n");
  EXPECT_EQ(line.place().line, 5);
  // "question = " is 11 bytes, so the line is 11 + kMaxLineBytes long and the first byte past
  // the limit is at column kMaxLineBytes + 1.
  EXPECT_EQ(line.place().column, static_cast<int>(kMaxLineBytes) + 1);
  EXPECT_NE(line.reason().find("over the limit of " + std::to_string(kMaxLineBytes) + " bytes"),
            std::string::npos)
      << line.what();
  const std::string big = kHead + repeat("#" + repeat(".", 62) + "\n", kMaxProbeBytes / 64 + 1);
  ASSERT_GT(big.size(), kMaxProbeBytes);
  const Error file = errorOf(big);
  EXPECT_EQ(file.place().file, "t.probe");
  EXPECT_NE(file.reason().find("over the limit of " + std::to_string(kMaxProbeBytes)),
            std::string::npos)
      << file.what();
}

TEST(ProbeBadInput, MemorySizeOverTheLimitNamesIt) {
  const Error e = errorOf(kHead + "memory size = 16777217\n");
  EXPECT_EQ(e.place().line, 5);
  EXPECT_NE(e.reason().find("over the limit of 16777216 bytes"), std::string::npos) << e.what();
}

// The reproducer: it used to run for minutes; now it is refused at once.
TEST(ProbeBadInput, CliRefusesTheExpensiveFillQuickly) {
  const std::string path = writeTemp(
      "expensive.probe", kHead + "memory size = 16777216\nmem fill = i" + repeat("+i", 999) + "\n");
  const CliRun r = runGcnprobe("ref " + path);
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find(path + ":6:"), std::string::npos) << r.out;
}

// A byte order mark is skipped; the first key is still at column 1 of line 1.
TEST(ProbeBadInput, ByteOrderMarkIsSkipped) {
  const Probe p = parseProbe("\xef\xbb\xbf" + kHead, "t.probe");
  ASSERT_TRUE(p.gen.has_value());
  EXPECT_EQ(p.gen->value, "gfx8");
  const Error e = errorOf(
      "\xef\xbb\xbf"
      "colour = red\n" +
      kHead);
  EXPECT_EQ(e.place().line, 1);
  EXPECT_EQ(e.place().column, 1);
}

// Old Mac line endings: each lone CR ends a line, so errors still name the right line.
TEST(ProbeBadInput, CarriageReturnsEndLines) {
  std::string cr = kHead + "v0 = lane * 4\n";
  for (char& c : cr)
    if (c == '\n') c = '\r';
  const Probe p = parseProbe(cr, "t.probe");
  EXPECT_TRUE(p.inst.has_value());
  EXPECT_EQ(p.vgprs.size(), 1u);
  const Error e = errorOf(cr + "colour = red\r");
  EXPECT_EQ(e.place().line, 6);
  // Mixed endings count one line per ending: CRLF is one, CR alone is one.
  const Error mixed = errorOf("gen = gfx8\r\ninst = x\rcolour = red\n");
  EXPECT_EQ(mixed.place().line, 3);
}

TEST(ProbeBadInput, DirectoryIsNotAProbeFile) {
  const std::string dir = testing::TempDir();
  try {
    (void)loadProbe(dir);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.place().file, dir);
    EXPECT_NE(e.reason().find("is a directory"), std::string::npos) << e.what();
  }
  const CliRun r = runGcnprobe("ref " + dir);
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("is a directory"), std::string::npos) << r.out;
}

// The verdicts of a `run --suite disputed --json` over the probes in `dir`, by case name.
std::map<std::string, nlohmann::json> disputedRun(const std::string& dir, int& exit) {
  const std::string json = testing::TempDir() + "/disputed-run.json";
  // The child inherits the variable (probe_file.h: shippedProbeFiles).
  setenv("GCNPROBE_PROBES_DIR", dir.c_str(), 1);
  const CliRun r = runGcnprobe("run --suite disputed --json " + json, Stderr::Discard);
  unsetenv("GCNPROBE_PROBES_DIR");
  exit = r.exit;
  std::ifstream in(json);
  std::map<std::string, nlohmann::json> out;
  if (!in) return out;
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) return out;
  for (const nlohmann::json& c : j.at("cases"))
    out[c.at("name").get<std::string>()] = c;
  return out;
}

TEST(ProbeBadInput, MalformedProbeIsAnErrorCaseAndTheSuiteRunsOn) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(testing::TempDir()) / "probes-with-a-broken-one";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path shipped = fs::path(GCNPROBE_SOURCE_DIR) / "probes";
  for (const auto& e : fs::directory_iterator(shipped))
    fs::copy_file(e.path(), dir / e.path().filename());
  // Sorted first, so it would have stopped the suite before any case ran.
  writeTemp("probes-with-a-broken-one/aaa-broken.probe", kHead + "v0 = ((1\n");

  int shippedExit = -1, brokenExit = -1;
  const auto good = disputedRun(shipped.string(), shippedExit);
  const auto withBroken = disputedRun(dir.string(), brokenExit);
  ASSERT_FALSE(good.empty());
  EXPECT_EQ(shippedExit, 0);
  EXPECT_EQ(brokenExit, 1);  // an error case is a failed run (docs/run.md)
  ASSERT_EQ(withBroken.size(), good.size() + 1);
  const nlohmann::json& broken = withBroken.at("disputed.aaa-broken");
  EXPECT_EQ(broken.at("verdict"), "error");
  EXPECT_NE(broken.at("reason").get<std::string>().find("aaa-broken.probe:5:"), std::string::npos)
      << broken.dump();
  for (const auto& [name, record] : good)
    EXPECT_EQ(withBroken.at(name).at("verdict"), record.at("verdict")) << name;
}

}  // namespace bad_input_test
}  // namespace gcn::probe
