// Probe-file parsing: malformed input gives gcn::Error naming file, line and reason; a
// mutation fuzz loop over the shipped probes gives only gcn::Error or success.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "probe/expr.h"
#include "probe/probe_eval.h"
#include "probe/probe_file.h"
#include "tests/probe/probe_error.h"

namespace gcn::probe {
namespace parser_test {

// A valid probe; the malformed cases below append or replace one line.
const std::string kValid =
    "gen = gfx8\n"
    "inst = buffer_load_dword v1, v0, s[4:7], 0 offen\n"
    "vsharp = base=0x1000 num_records=16 dfmt=32 nfmt=uint\n"
    "lanes = 4\n"
    "v0 = lane * 4\n";

using test::errorOf;

struct Bad {
  std::string text;
  int line;
  std::string reason;  // a substring of the reason
};

TEST(ProbeParser, MalformedInputNamesFileLineAndReason) {
  const std::vector<Bad> cases = {
      {kValid + "lanes 4\n", 6, "no '='"},
      {kValid + "colour = red\n", 6, "unknown key 'colour'"},
      {kValid + "m0 = 12q\n", 6, "not an integer"},
      {"lanes = 0\n" + kValid, 1, "lanes must be 1..64"},
      {"lanes = 65\n" + kValid, 1, "lanes must be 1..64"},
      {kValid + "gen = gfx9\n", 6, "already set on line 1"},
      {kValid + "v1 = lane + foo\n", 6, "unknown name 'foo'"},
      {kValid + "v1 = 1, 2, 3\n", 6, "lists 3 values but the probe has 4 lanes"},
      {kValid + "mem @250 u32 x4 = 1\n", 6, "runs past the image"},
      {kValid + "policy = straddle=sideways\n", 6, "no option 'sideways'"},
      {kValid + "policy = frobnicate=on\n", 6, "unknown policy 'frobnicate'"},
      {kValid + "exec = 0x10\n", 6, "exec sets lanes at or above"},
      {kValid + "mem @0 u24 = 1\n", 6, "unknown element type 'u24'"},
      {kValid + "mem @0 u32 x3 = 1, 2\n", 6, "count x3 but the list has 2"},
      {kValid + "expect v1 = 1, 2\n", 6, "lists 2 values"},
      {kValid + "expect colour = 1\n", 6, "unknown expectation"},
      {kValid + "expect device inrange = 1\n", 6, "does not report its range checks"},
      {kValid + "expect device lds @0 u32 = 1\n", 6, "LDS is not read back"},
      {kValid + "expect device\n", 6, "no '='"},
      {kValid + "expect device = 1\n", 6, "'expect device' needs a target"},
      {kValid + "expect v1 = 1 within\n", 6, "a tolerance is 'within N'"},
      {kValid + "expect v1 = 1 within 2 ulps\n", 6, "a tolerance is 'within N'"},
      {kValid + "expect mem @0 u16 = 1 within 1 ulp\n", 6, "needs 32-bit values"},
      {kValid + "expect inrange = 1 within 1\n", 6, "takes no tolerance"},
      {kValid + "expect inrange = 1 within 1 ulp\n", 6, "takes no tolerance"},
      {kValid + "expect v1 = 1 within -1\n", 6, "is no distance"},
      {kValid + "expect device v1 = 1\nexpect device v1 = 2\n", 7, "already given on line 6"},
      {kValid + "v300 = 1\n", 6, "no VGPR v300"},
      {kValid + "mem @0 u8 = i * lane\n", 6, "'lane' is not available here: use 'i'"},
      {kValid + "v1 = (1 + 2\n", 6, "expected ')'"},
      {kValid + "v1 = 1 / (lane - 2)\n", 6, "division by zero"},
      {kValid + "memory size = 0x10000000\n", 6, "over the limit"},
      {kValid + "far 0x100000000 = 256\n", 6, "'far' needs an offset"},
      {kValid + "far @0x100000000 = 0\n", 6, "far region size 0 is not 1.."},
      {kValid + "far @0x100000000 = 0x2000000\n", 6, "is not 1..16777216 bytes"},
      {kValid + "far @0x80 = 256\n", 6, "overlap"},
      {kValid + "far @0x10000 = 16\nfar @0x10008 = 16\n", 7, "overlap"},
      {kValid + "far @0x100000000 = 16\nmem @0x10000000c u32 x2 = 1\n", 7,
       "memory write of 8 bytes at @0x10000000c runs past the far region at @0x100000000 (16 "
       "bytes; widen its 'far @OFF = SIZE' line)"},
      {kValid + "far @0x1000 = 1\nfar @0x2000 = 1\nfar @0x3000 = 1\nfar @0x4000 = 1\n"
                "far @0x5000 = 1\n",
       10, "more than 4 far regions"},
      {"gen = gfx42\ninst = buffer_load_dword v1, off, s[4:7], 0\nvsharp = dfmt=32\n", 1, ""},
      {"gen = gfx8\ninst = buffer_load_dwrd v1, off, s[4:7], 0\nvsharp = dfmt=32\n", 2, ""},
      {"gen = gfx8\ninst = buffer_load_dword v1, off, s[4:7], 0 addr64\nvsharp = dfmt=32\n", 2, ""},
      {"gen = gfx8\ninst = buffer_load_dword v1, off, s[4:7], 0\nvsharp = colour=3\n", 3, "colour"},
      {"gen = gfx8\ninst = buffer_load_dword v1, off, s[4:7], 0\nvsharp words = 1, 2, 3\n", 3,
       "exactly 4 dwords"},
      {"gen = gfx8\nvsharp = dfmt=32\n", 0, "no 'inst = ...'"},
      {"gen = gfx8\ninst = buffer_load_dword v1, off, s[4:7], 0\n", 0, "no 'vsharp"},
      {"inst = buffer_load_dword v1, off, s[4:7], 0\nvsharp = dfmt=32\n", 0, "no 'gen = ...'"},
  };
  for (const Bad& b : cases) {
    const Error e = errorOf(b.text);
    EXPECT_EQ(e.place().file, "t.probe") << b.text;
    EXPECT_EQ(e.place().line, b.line) << b.text << "\n-> " << e.what();
    EXPECT_NE(e.reason().find(b.reason), std::string::npos) << b.text << "\n-> " << e.what();
    EXPECT_FALSE(e.reason().empty());
  }
}

// Columns point into the line: "v1 = lane + foo" has foo at column 13.
TEST(ProbeParser, ErrorColumnPointsAtTheToken) {
  const Error e = errorOf(kValid + "v1 = lane + foo\n");
  EXPECT_EQ(e.place().column, 13);
}

// Hand-computed values of the expression language.
TEST(ProbeExpr, ArithmeticPrecedenceAndFloats) {
  const Place p{"x", 1, 1};
  EXPECT_EQ(Expr::parse("lane*4+16", IndexVar::Lane, p).eval(3), 28u);
  EXPECT_EQ(Expr::parse("1+2*3", IndexVar::None, p).eval(0), 7u);
  EXPECT_EQ(Expr::parse("1<<4|1", IndexVar::None, p).eval(0), 17u);
  EXPECT_EQ(Expr::parse("(0x10 - 1) & ~3", IndexVar::None, p).eval(0), 12u);
  EXPECT_EQ(Expr::parse("-1", IndexVar::None, p).eval(0) & 0xffffffffu, 0xffffffffu);
  // IEEE 754 binary32: 1.5 = 0x3fc00000, -2.0 = 0xc0000000, 1.0 = 0x3f800000.
  EXPECT_EQ(Expr::parse("f32(1.5)", IndexVar::None, p).eval(0), 0x3fc00000u);
  EXPECT_EQ(Expr::parse("f32(-2.0)", IndexVar::None, p).eval(0), 0xc0000000u);
  EXPECT_EQ(Expr::parse("f32(i + 1)", IndexVar::Element, p).eval(0), 0x3f800000u);
  EXPECT_EQ(Expr::parse("f32(inf)", IndexVar::None, p).eval(0), 0x7f800000u);
  // rand is a function of (seed, index): same inputs, same value; different index differs
  // (splitmix64 has no collisions on consecutive inputs in this range).
  const Expr r = Expr::parse("rand(5)", IndexVar::Element, p);
  EXPECT_EQ(r.eval(7), r.eval(7));
  EXPECT_NE(r.eval(7), r.eval(8));
}

TEST(ProbeParser, ValuesReachRegistersAndMemory) {
  const Probe p = parseProbe(kValid +
                                 "s8 = 0x40\nm0 = 3\nexec = 0b1010\n"
                                 "mem @4 u16 = 0x1234, 0xabcd\nlds @0 u8 x3 = i + 7\n",
                             "t.probe");
  const ProbeSetup s = prepare(p, {});
  EXPECT_EQ(s.state.vgpr(0)[3], 12u);  // lane*4 at lane 3
  EXPECT_EQ(s.state.sgpr[8], 0x40u);
  EXPECT_EQ(s.state.m0, 3u);
  EXPECT_EQ(s.state.exec, 0b1010u);
  EXPECT_EQ(s.memory.base, 0x1000u);  // the V#'s base when no 'memory base'
  // Little-endian u16s at byte 4.
  EXPECT_EQ(s.memory.bytes[4], 0x34);
  EXPECT_EQ(s.memory.bytes[5], 0x12);
  EXPECT_EQ(s.memory.bytes[6], 0xcd);
  EXPECT_EQ(s.memory.bytes[7], 0xab);
  EXPECT_EQ(s.lds[2], 9);
  // The V# sits in s[4:7]: word 2 is NUM_RECORDS (CLRX GcnMemHandling bits 64-95).
  EXPECT_EQ(s.state.sgpr[6], 16u);
}

std::vector<std::filesystem::path> shippedProbes() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(GCNPROBE_SOURCE_DIR "/probes"))
    if (e.path().extension() == ".probe") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Random byte edits of valid probes: parsing, preparing and running end in success or a
// gcn::Error that names the file; anything else (another exception, a crash) fails.
// `inst =` takes the instruction's two dwords as a listing gives them: llvm-mc 14 encodes
// "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen" for tonga as e00c2000 80010100, which
// must prepare the same instruction as the text; one word or a word that decodes to nothing is
// an error at the value.
// `far @OFF = SIZE` adds a region at the image's base + OFF; `mem @OFF` writes land in the region
// that holds their first byte, the others in the image.
TEST(ProbeParser, FarLinesAddRegionsThatMemWritesReach) {
  const Probe p = parseProbe(kValid +
                                 "mem @0 u32 = 0x11111111\n"
                                 "far @0x100000000 = 16\n"
                                 "far @0x200000000 = 4\n"
                                 "mem @0x100000004 u32 x2 = 0xf0000000 + i\n"
                                 "mem @0x200000000 u8 x4 = 0xa0 + i\n",
                             "t.probe");
  const ProbeSetup s = prepare(p, {});
  ASSERT_EQ(s.memory.far.size(), 2u);
  EXPECT_EQ(s.memory.base, 0x1000u);
  EXPECT_EQ(s.memory.far[0].base, 0x100001000u);
  EXPECT_EQ(s.memory.far[0].bytes,
            (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 0xf0, 1, 0, 0, 0xf0, 0, 0, 0, 0}));
  EXPECT_EQ(s.memory.far[1].base, 0x200001000u);
  EXPECT_EQ(s.memory.far[1].bytes, (std::vector<uint8_t>{0xa0, 0xa1, 0xa2, 0xa3}));
  EXPECT_EQ(s.memory.bytes.size(), 256u);
  EXPECT_EQ(s.memory.bytes[0], 0x11);
  EXPECT_EQ(s.memory.bytes[3], 0x11);
}

// Two predictions that differ only in a far region are two predictions: a UINT store of 300
// into an 8-bit field clamps to 0xff or truncates to 0x2c (int-store), and the 64-bit index
// product puts the store in the far region.
TEST(ProbeExplore, PredictionsDifferingOnlyInAFarRegionStayApart) {
  const Probe p = parseProbe(
      "gen = gfx9\n"
      "inst = buffer_store_format_x v1, v0, s[4:7], 0 idxen\n"
      "vsharp = base=0x1000 stride=4 num_records=0xffffffff dfmt=8 nfmt=uint\n"
      "lanes = 1\n"
      "v0 = 0x40000000\n"
      "v1 = 300\n"
      "policy = index-product=wide64\n"
      "far @0x100000000 = 16\n",
      "t.probe");
  const Exploration ex = explore(p, prepare(p, {}));
  std::set<uint8_t> stored;
  for (const Prediction& pr : ex.predictions) {
    ASSERT_EQ(pr.result.memory().far.size(), 1u);
    stored.insert(pr.result.memory().far[0].bytes[0]);
  }
  EXPECT_EQ(stored, (std::set<uint8_t>{0xff, 0x2c}));
}

TEST(ProbeParser, InstructionWordsAreTheInstructionsText) {
  const std::string head =
      "gen = gfx8\nvsharp = base=0x1000 stride=16 num_records=16 "
      "dfmt=32_32_32_32 nfmt=float\nlanes = 1\nv0 = lane\n";
  const gcn::probe::EvalOptions eo;
  const auto text = gcn::probe::prepare(
      gcn::probe::parseProbe(head + "inst = buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen\n",
                             "text.probe"),
      eo);
  const auto words = gcn::probe::prepare(
      gcn::probe::parseProbe(head + "inst = 0xe00c2000 0x80010100\n", "words.probe"), eo);
  EXPECT_TRUE(words.inst == text.inst);
  for (const char* bad : {"inst = 0xe00c2000\n", "inst = 0xffffffff 0x80010100\n",
                          "inst = 0xe00c2000 0x1ffffffff\n"}) {
    try {
      gcn::probe::prepare(gcn::probe::parseProbe(head + bad, "bad.probe"), eo);
      ADD_FAILURE() << bad << " accepted";
    } catch (const gcn::Error& e) {
      EXPECT_NE(std::string(e.what()).find("bad.probe:5:8"), std::string::npos) << e.what();
    }
  }
}

TEST(ProbeParser, MutationFuzzGivesOnlyErrorsOrSuccess) {
  std::mt19937 rng(12345);
  const std::string alphabet = "0123456789abcdefxv@=,#()*+-<>&|^~ \n\t.:[]_sl\x01\xff";
  int errors = 0, successes = 0;
  for (const auto& path : shippedProbes()) {
    const std::string base = readFile(path);
    ASSERT_FALSE(base.empty());
    for (int iter = 0; iter < 150; ++iter) {
      std::string text = base;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < edits; ++k) {
        const std::size_t pos = rng() % (text.size() + 1);
        const char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
          case 0:
            if (pos < text.size()) text[pos] = c;
            break;
          case 1:
            text.insert(text.begin() + static_cast<std::ptrdiff_t>(pos), c);
            break;
          default:
            if (pos < text.size()) text.erase(pos, 1);
        }
      }
      try {
        const Probe p = parseProbe(text, "fuzz.probe");
        const ProbeSetup s = prepare(p, {});
        (void)run(p, s, s.policies);
        ++successes;
      } catch (const Error& e) {
        ++errors;
        EXPECT_FALSE(e.reason().empty());
        EXPECT_EQ(e.place().file.empty() ? std::string("fuzz.probe") : e.place().file,
                  "fuzz.probe");
      } catch (const std::exception& e) {
        ADD_FAILURE() << path << ": non-gcn::Error exception " << e.what() << " for:\n" << text;
      }
    }
  }
  // Both outcomes must occur, or the loop tested nothing.
  EXPECT_GT(errors, 0);
  EXPECT_GT(successes, 0);
}

}  // namespace parser_test
}  // namespace gcn::probe
