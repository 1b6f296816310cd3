// CI's ISA check: `gcnprobe isa --family <chip>` for one chip of each of gfx6, gfx7,
// gfx8 and gfx9 on RADV's null device. Every case must be ISA-verified or listed in
// docs/isa-misses.md with its reason; every row there must still be needed; no case may
// end in error; and on gfx8/9 (ACO text from LLVM's disassembler) the driver's text must
// agree with the reference decoder's view of the words.
#include <fnmatch.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness/vulkan/driver.h"
#include "reference/error.h"
#include "tests/support/cli.h"

namespace isa_cli_test {

// RADV of the driver under test (GCNPROBE_DRIVER: the system's Mesa or a driver folder).
bool haveRadv() {
  try {
    gcnprobe::vk::radvManifest();
    return true;
  } catch (const gcn::Error&) {
    return false;
  }
}

using gcnprobe::test_support::CliRun;

CliRun runIsa(const std::string& args) {
  return gcnprobe::test_support::runGcnprobe("isa " + args,
                                             gcnprobe::test_support::Stderr::Discard);
}

struct Explained {
  std::string glob, chips, mesa, outcome, reason;
  bool used = false;
};

std::vector<Explained> readMisses() {
  std::ifstream f(std::string(GCNPROBE_SOURCE_DIR) + "/docs/isa-misses.md");
  std::vector<Explained> rows;
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("| ", 0) != 0 || line.rfind("| case glob", 0) == 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) {
      const auto b = cell.find_first_not_of(' ');
      const auto e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    if (cells.size() >= 5) rows.push_back({cells[0], cells[1], cells[2], cells[3], cells[4]});
  }
  return rows;
}

// `mesa` is "*" or a comma list of version prefixes ("22.3"); `version` is "25.0.7-2~bpo12+1".
bool mesaMatches(const std::string& mesa, const std::string& version) {
  if (mesa == "*") return true;
  std::stringstream ss(mesa);
  std::string v;
  while (std::getline(ss, v, ','))
    if (version.rfind(v, 0) == 0 &&
        (version.size() == v.size() || version[v.size()] == '.' || version[v.size()] == '-'))
      return true;
  return false;
}

bool chipMatches(const std::string& chips, const std::string& chip) {
  if (chips == "*") return true;
  std::stringstream ss(chips);
  std::string c;
  while (std::getline(ss, c, ','))
    if (c.find(chip) != std::string::npos) return true;
  return false;
}

TEST(IsaCli, EveryCaseVerifiedOrExplainedOnOneChipPerGeneration) {
  if (!haveRadv()) GTEST_SKIP() << "RADV's ICD (mesa-vulkan-drivers) is not installed";
  std::vector<Explained> misses = readMisses();
  ASSERT_FALSE(misses.empty()) << "docs/isa-misses.md has no rows";
  for (const auto& m : misses)
    ASSERT_FALSE(m.reason.empty()) << m.glob << " has no reason";
  const std::regex caseLine(R"(^(\S+)  (\S+)  (.+)$)");
  const std::regex countLine(R"(^(\w+): (\d+) cases, (\d+) verified, (\d+) route-miss)");
  const std::regex emittedSlot(R"( ; (set \d+ binding \d+|vertex buffer \d+)$)");
  const std::regex header(R"(^== \w+ \(gfx\d\): .*, driver .*Mesa (\d+\.\d+\.\d+\S*))");
  std::string mesaVersion;
  for (const std::string chip : {"tahiti", "bonaire", "tonga", "polaris10", "vega10"}) {
    SCOPED_TRACE(chip);
    const CliRun r = runIsa("--family " + chip);
    ASSERT_GE(r.exit, 0);
    std::istringstream in(r.out);
    std::string line;
    unsigned cases = 0, unexplainedMisses = 0, countCases = 0, countVerified = 0, countMiss = 0;
    unsigned seenMiss = 0, seenVerified = 0, provenInstructions = 0, provenPaths = 0;
    unsigned partial = 0, countPartial = 0;
    bool sawCount = false, inVerified = false, inPartial = false, pathSeen = false;
    const bool gfx89 = chip == "tonga" || chip == "vega10";
    while (std::getline(in, line)) {
      std::smatch m;
      if (std::regex_search(line, m, header)) {
        mesaVersion = m[1];
        continue;
      }
      if (std::regex_search(line, m, countLine)) {
        sawCount = true;
        std::smatch p;
        const std::regex partialCount(R"((\d+) of the route-misses proven for some components)");
        countPartial = std::regex_search(line, p, partialCount) ? std::stoul(p[1]) : 0u;
        countCases = std::stoul(m[2]);
        countVerified = std::stoul(m[3]);
        countMiss = std::stoul(m[4]);
        continue;
      }
      if (gfx89) {
        EXPECT_EQ(line.find("driver text disagrees"), std::string::npos) << line;
      }
      // docs/isa.md: on Mesa 22.3 and 25 alike every emitted buffer instruction's SRSRC is traced
      // to a descriptor (a set binding or a vertex buffer).
      if (line.rfind("    emitted: ", 0) == 0) {
        EXPECT_TRUE(std::regex_search(line, emittedSlot)) << line;
        continue;
      }
      // docs/isa.md "The data path": every verified case prints the instruction it proved and
      // at least one data-path link; so does a route-miss proven for some components ("Per-
      // component verdicts", after its `components proven:` line); no other case prints them.
      if (line.rfind("    components proven: ", 0) == 0) {
        EXPECT_FALSE(inVerified) << line;
        inPartial = true;
        ++partial;
        continue;
      }
      if (line.rfind("    instruction: proven: ", 0) == 0) {
        EXPECT_TRUE(inVerified || inPartial) << line;
        if (inVerified) ++provenInstructions;
        continue;
      }
      if (line.rfind("    data path: ", 0) == 0) {
        EXPECT_TRUE(inVerified || inPartial) << line;
        if (!pathSeen && inVerified) ++provenPaths;
        pathSeen = true;
        continue;
      }
      if (line.rfind("==", 0) == 0 || !std::regex_match(line, m, caseLine)) continue;
      ++cases;
      const std::string name = m[1], outcome = m[2];
      inVerified = outcome == "verified";
      inPartial = false;
      pathSeen = false;
      if (outcome == "verified") {
        ++seenVerified;
        continue;
      }
      if (outcome == "route-miss") ++seenMiss;
      EXPECT_NE(outcome, "error") << name;
      bool explained = false;
      for (auto& x : misses)
        if (x.outcome == outcome && chipMatches(x.chips, chip) &&
            mesaMatches(x.mesa, mesaVersion) && fnmatch(x.glob.c_str(), name.c_str(), 0) == 0) {
          x.used = true;
          explained = true;
        }
      if (!explained) {
        ++unexplainedMisses;
        ADD_FAILURE() << name << " is " << outcome << " and not explained in docs/isa-misses.md";
      }
    }
    ASSERT_TRUE(sawCount) << "no count line in:\n" << r.out.substr(0, 2000);
    ASSERT_FALSE(mesaVersion.empty()) << "no driver version in the header:\n"
                                      << r.out.substr(0, 500);
    EXPECT_GT(cases, 400u);  // the texel suite alone has 431 cases
    EXPECT_EQ(cases, countCases);
    EXPECT_EQ(seenVerified, countVerified);
    EXPECT_EQ(provenInstructions, countVerified);
    EXPECT_EQ(provenPaths, countVerified);
    EXPECT_EQ(seenMiss, countMiss);
    EXPECT_EQ(partial, countPartial);
    EXPECT_EQ(unexplainedMisses, 0u);
    // Exit status: non-zero exactly when some case is a route-miss (or worse).
    EXPECT_EQ(r.exit != 0, countVerified != countCases) << "status " << r.exit;
  }
  for (const auto& x : misses) {
    if (!mesaMatches(x.mesa, mesaVersion)) continue;
    EXPECT_TRUE(x.used) << "docs/isa-misses.md row '" << x.glob << "' (Mesa " << x.mesa
                        << ") matches no case on Mesa " << mesaVersion << ": remove it";
  }
}

// The storage route's load case on tonga: its buffer_load_dword is proven on binding 0 (the
// case's SSBO), and --dump-asm prints the listing the descriptors were traced from.
TEST(IsaCli, StorageLoadIsProvenOnTheCasesBinding) {
  if (!haveRadv()) GTEST_SKIP() << "RADV's ICD (mesa-vulkan-drivers) is not installed";
  const CliRun r = runIsa("--family tonga --filter storage.load_dword.offset0 --dump-asm");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("storage.load_dword.offset0  verified"), std::string::npos) << r.out;
  // shaders/storage_access.comp: binding 0 = the case's SSBO (loaded from set 0 byte 0).
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(R"(emitted: buffer_load_dword v\d+, v\d+, s\[\d+:\d+\], 0 offen ; )"
                        R"([0-9a-f]{8} [0-9a-f]{8} ; set 0 binding 0\n)")))
      << r.out;
  // The listing is labelled with the stage, whatever the driver calls the executable.
  EXPECT_NE(r.out.find("--- stage compute (the driver calls it '"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("s_load_dwordx4"), std::string::npos);
}

// One case's --dump-asm, from its `chip =` line to the end of its listing, is a saved listing
// that `isa --prove` proves as it stands (on each generation's shape of listing: gfx6 through
// the clrxdisasm stand-in, gfx8/9 and RDNA from ACO); a `case` the listing lacks is not proven
// (exit 1) and an unknown key is a malformed file (exit 2).
TEST(IsaCli, ADumpedCaseIsASavedListingThatProveAccepts) {
  if (!haveRadv()) GTEST_SKIP() << "RADV's ICD (mesa-vulkan-drivers) is not installed";
  const std::string dir = ::testing::TempDir() + "isa_prove_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  for (const char* chip : {"tahiti", "tonga", "vega10", "navi21"}) {
    SCOPED_TRACE(chip);
    const CliRun d =
        runIsa(std::string("--family ") + chip + " --filter storage.load_dword.offset0 --dump-asm");
    ASSERT_EQ(d.exit, 0) << d.out;
    const std::size_t from = d.out.find("chip = ");
    const std::size_t to = d.out.find(std::string("\n") + chip + ": 1 cases");
    ASSERT_NE(from, std::string::npos) << d.out;
    ASSERT_NE(to, std::string::npos) << d.out;
    const std::string saved = d.out.substr(from, to + 1 - from);
    const auto write = [&](const std::string& name, const std::string& text) {
      std::ofstream(dir + "/" + name) << text;
      return dir + "/" + name;
    };
    CliRun p = gcnprobe::test_support::runGcnprobe("isa --prove " + write("case.lst", saved));
    EXPECT_EQ(p.exit, 0) << saved << p.out;
    EXPECT_EQ(p.out.rfind("proven: buffer_load_dword ", 0), 0u) << p.out;
    EXPECT_NE(p.out.find("  data path: results "), std::string::npos) << p.out;

    std::string absent = saved;
    absent.replace(absent.find("case = "), 7, "case = buffer_store_byte ");
    p = gcnprobe::test_support::runGcnprobe("isa --prove " + write("absent.lst", absent));
    EXPECT_EQ(p.exit, 1) << p.out;
    EXPECT_EQ(p.out.rfind("not proven: no buffer instruction of the listing starts with", 0), 0u)
        << p.out;

    p = gcnprobe::test_support::runGcnprobe("isa --prove " +
                                            write("bad.lst", "colour = red\n" + saved));
    EXPECT_EQ(p.exit, 2) << p.out;
    EXPECT_NE(p.out.find("bad.lst:1: unknown key 'colour'"), std::string::npos) << p.out;
  }
  const CliRun missing = gcnprobe::test_support::runGcnprobe("isa --prove " + dir + "/nothing.lst");
  EXPECT_EQ(missing.exit, 2) << missing.out;
  std::filesystem::remove_all(dir);
}

// A reason cites "listing line N"; --dump-asm numbers the listing so that line N is the one
// cited, and `isa --prove` of the dump cites the same number.
TEST(IsaCli, DumpedListingLinesAreNumberedAsTheReasonsCiteThem) {
  if (!haveRadv()) GTEST_SKIP() << "RADV's ICD (mesa-vulkan-drivers) is not installed";
  // RADV re-signs the 2-bit alpha of a signed 2_10_10_10 vertex fetch on GFX6-8
  // (docs/hardware-record.md R1): a route-miss whose reason quotes the rewrite's listing line,
  // on Mesa 22.3 and 25 alike.
  const CliRun d = runIsa(
      "--family tonga --filter vertex.a2b10g10r10_snorm_pack32.tbuffer_load_format_xyzw.packed "
      "--dump-asm");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(d.out, m, std::regex(R"('([^']+)' \(listing line (\d+)\))")))
      << d.out;
  const std::string cited = m[1], line = m[2];
  char gutter[16];
  std::snprintf(gutter, sizeof gutter, "%5d| ", std::stoi(line));
  const std::size_t at = d.out.find(std::string("\n") + gutter);
  ASSERT_NE(at, std::string::npos) << "no line " << line << " in\n" << d.out;
  const std::string numbered = d.out.substr(at + 1, d.out.find('\n', at + 1) - at - 1);
  EXPECT_NE(numbered.find(cited), std::string::npos) << numbered << " / " << cited;

  const std::size_t from = d.out.find("chip = ");
  const std::size_t to = d.out.find("\ntonga: 1 cases");
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  const std::string file = ::testing::TempDir() + "numbered_" + std::to_string(getpid()) + ".lst";
  std::ofstream(file) << d.out.substr(from, to + 1 - from);
  const CliRun p = gcnprobe::test_support::runGcnprobe("isa --prove " + file);
  EXPECT_EQ(p.exit, 1) << p.out;
  EXPECT_NE(p.out.find("(listing line " + line + ")"), std::string::npos) << p.out;
  std::filesystem::remove(file);
}

// --filter repeats (a case matching any glob), --exclude takes cases out, and a filter that
// matches nothing is an error (exit 2), not an empty success.
TEST(IsaCli, FiltersRepeatExcludesTakeOutAndNoMatchIsAnError) {
  const std::regex count(R"(tonga: (\d+) cases)");
  std::smatch m;
  CliRun r = runIsa(
      "--family tonga --filter 'texel.uniform.r8_unorm.*' --filter "
      "'storage.load_dword.offset0'");
  ASSERT_TRUE(std::regex_search(r.out, m, count)) << r.out;
  EXPECT_EQ(m[1], "3");  // load_format_x, load_format_xyzw and the storage load
  EXPECT_NE(r.out.find("storage.load_dword.offset0  verified"), std::string::npos) << r.out;
  r = runIsa("--family tonga --filter 'texel.uniform.r8_unorm.*' --exclude '*xyzw'");
  ASSERT_TRUE(std::regex_search(r.out, m, count)) << r.out;
  EXPECT_EQ(m[1], "1");
  r = gcnprobe::test_support::runGcnprobe("isa --family tonga --filter 'nosuchcase'");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.out.find("--filter: no case matches 'nosuchcase'"), std::string::npos) << r.out;
}

// --baseline (run's file format): route-misses it names are expected, so a run whose every
// other case is verified exits 0; one it does not name exits 1; a bad file is bad input (2).
TEST(IsaCli, ABaselineOfExpectedRouteMissesDecidesTheExitStatus) {
  const std::string dir = ::testing::TempDir();
  // On tonga the BGRA and alpha-adjusted vertex fetches are route-misses (docs/isa-misses.md);
  // the vertex r8_unorm fetches are verified.
  const std::string filter = "--family tonga --filter 'vertex.*'";
  const CliRun all = runIsa(filter + " --json " + dir + "isa-base.json");
  ASSERT_EQ(all.exit, 1) << all.out;
  std::ifstream in(dir + "isa-base.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  std::vector<std::string> misses;
  for (const auto& c : j["chips"][0]["cases"])
    if (c["outcome"] == "route-miss") misses.push_back(c["case"]);
  ASSERT_GE(misses.size(), 2u);
  {
    std::ofstream b(dir + "isa-baseline.txt");
    for (std::size_t k = 0; k + 1 < misses.size(); ++k)
      b << misses[k] << ",route-miss\n";
  }
  CliRun r = runIsa(filter + " --baseline " + dir + "isa-baseline.txt");
  EXPECT_EQ(r.exit, 1);
  EXPECT_NE(r.out.find(std::to_string(misses.size() - 1) + " expected by the baseline, 1 not"),
            std::string::npos)
      << r.out;
  std::ofstream(dir + "isa-baseline.txt", std::ios::app) << misses.back() << ",route-miss\n";
  r = runIsa(filter + " --baseline " + dir + "isa-baseline.txt");
  EXPECT_EQ(r.exit, 0) << r.out;
  std::ofstream(dir + "isa-bad-baseline.txt") << "vertex.x,sideways\n";
  EXPECT_EQ(runIsa(filter + " --baseline " + dir + "isa-bad-baseline.txt").exit, 2);
}

TEST(IsaCli, UnknownFamilyIsAnErrorNamingIt) {
  const CliRun r = runIsa("--family gfx42");
  EXPECT_EQ(r.exit, 2);  // bad input (docs/isa.md), not a crash
}

// The clrxdisasm stand-in as ACO calls it: the small program isa puts on the driver's PATH
// and gcnprobe's hidden fallback print the same listing.
TEST(IsaCli, ClrxdisasmStandInListsRawCode) {
  const auto path = std::filesystem::temp_directory_path() / "gcnprobe_isa_cli_code.bin";
  {
    // s_mov_b32 s0, 0x12345678 ; buffer_load_dword v0, v1, s[4:7], 0 offen ; s_endpgm
    // (llvm-mc -mcpu=tahiti words, little-endian)
    const uint32_t words[] = {0xbe8003ff, 0x12345678, 0xe0301000, 0x80010001, 0xbf810000};
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(words), sizeof words);
  }
  const std::string expected =
      "/*000000000000*/ .long 0xbe8003ff, 0x12345678 /* sop1 */\n"
      "/*000000000008*/ buffer_load_dword v0, v1, s[4:7], 0 offen\n"
      "/*000000000010*/ .long 0xbf810000 /* sopp */\n";
  const std::string helper =
      (std::filesystem::path(GCNPROBE_BINARY).parent_path() / "gcnprobe-clrxdisasm").string();
  const CliRun small = gcnprobe::test_support::runCommand(helper + " --gpuType=tahiti -r " +
                                                          path.string() + " 2>/dev/null");
  EXPECT_EQ(small.exit, 0);
  EXPECT_EQ(small.out, expected);
  const CliRun r = gcnprobe::test_support::runGcnprobe(
      "_clrxdisasm --gpuType=tahiti -r " + path.string(), gcnprobe::test_support::Stderr::Discard);
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(r.out, expected);
  // CLRX's other spelling of the option, as `clrxdisasm -g <chip> -r <file>`.
  EXPECT_EQ(gcnprobe::test_support::runCommand(helper + " -g bonaire -r " + path.string()).out,
            expected);
  // A file that is no whole number of dwords, an unknown chip, an unknown option: exit 2, named.
  std::filesystem::resize_file(path, 6);
  const CliRun odd = gcnprobe::test_support::runCommand(helper + " --gpuType=tahiti -r " +
                                                        path.string() + " 2>&1");
  EXPECT_EQ(odd.exit, 2);
  EXPECT_NE(odd.out.find("size 6 is not a whole number of dwords"), std::string::npos) << odd.out;
  const CliRun chip =
      gcnprobe::test_support::runCommand(helper + " --gpuType=gfx42 -r " + path.string() + " 2>&1");
  EXPECT_EQ(chip.exit, 2);
  EXPECT_NE(chip.out.find("unknown GPU type 'gfx42'"), std::string::npos) << chip.out;
  const CliRun opt = gcnprobe::test_support::runCommand(helper + " --all -r x 2>&1");
  EXPECT_EQ(opt.exit, 2);
  EXPECT_NE(opt.out.find("--all"), std::string::npos) << opt.out;
  std::filesystem::remove(path);
  EXPECT_EQ(std::system((helper + " --version >/dev/null").c_str()), 0);
  EXPECT_EQ(
      std::system((std::string(GCNPROBE_BINARY) + " _clrxdisasm --version >/dev/null").c_str()), 0);
}

// On gfx6/7 ACO asks for clrxdisasm once per pipeline; the gcnprobe program answers it without
// starting a process (app/clrxdisasm/in_process.cpp), and with GCNPROBE_CLRX_IN_PROCESS=0 the
// small program on PATH answers with the same listing. A copy of the program whose
// gcnprobe-clrxdisasm is a script that leaves a mark shows which one ran.
TEST(IsaCli, Gfx6ListingsNeedNoProcessPerPipeline) {
  if (!haveRadv()) GTEST_SKIP() << "RADV's ICD (mesa-vulkan-drivers) is not installed";
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(testing::TempDir()) / "clrx-in-process";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path program = dir / "gcnprobe", mark = dir / "helper-ran";
  fs::copy_file(GCNPROBE_BINARY, program);
  const fs::path real = fs::path(GCNPROBE_BINARY).parent_path() / "gcnprobe-clrxdisasm";
  std::ofstream(dir / "gcnprobe-clrxdisasm")
      << "#!/bin/sh\ntouch '" << mark.string() << "'\nexec '" << real.string() << "' \"$@\"\n";
  fs::permissions(dir / "gcnprobe-clrxdisasm", fs::perms::owner_all);
  const std::string isa = " isa --family tahiti --filter storage.load_dword.offset0 2>/dev/null";
  // RADV's disk cache would answer a pipeline without compiling it, and so without clrxdisasm.
  const std::string env = "XDG_RUNTIME_DIR=/tmp MESA_SHADER_CACHE_DISABLE=true ";
  const CliRun inside = gcnprobe::test_support::runCommand(env + "GCNPROBE_CLRX_IN_PROCESS=1 " +
                                                           program.string() + isa);
  EXPECT_FALSE(fs::exists(mark)) << "a clrxdisasm process ran";
  const CliRun outside = gcnprobe::test_support::runCommand(env + "GCNPROBE_CLRX_IN_PROCESS=0 " +
                                                            program.string() + isa);
  EXPECT_TRUE(fs::exists(mark)) << "the stand-in on PATH did not run";
  EXPECT_EQ(inside.exit, 0) << inside.out;
  EXPECT_NE(inside.out.find("1 cases, 1 verified"), std::string::npos) << inside.out;
  EXPECT_EQ(inside.out, outside.out);
}

// `isa --json -`: the JSON document alone on standard output (the text on stderr), one chip
// object whose case records agree with the summary line the text prints.
TEST(IsaCli, JsonHoldsTheRecordsTheTextSummarises) {
  if (!haveRadv()) GTEST_SKIP() << "no RADV in this driver";
  const std::string file = testing::TempDir() + "isa.json";
  const CliRun text = runIsa("--family tonga --filter 'storage.load_dword.*' --json " + file);
  ASSERT_EQ(text.exit, 0) << text.out;
  EXPECT_NE(text.out.find("tonga: 2 cases, 2 verified, 0 route-miss"), std::string::npos)
      << text.out;
  std::ifstream in(file);
  const nlohmann::json doc = nlohmann::json::parse(in);
  ASSERT_EQ(doc["chips"].size(), 1u);
  const nlohmann::json& chip = doc["chips"][0];
  EXPECT_EQ(chip["chip"], "tonga");
  EXPECT_EQ(chip["generation"], "gfx8");
  ASSERT_EQ(chip["cases"].size(), 2u);
  std::set<std::string> names;
  for (const nlohmann::json& c : chip["cases"]) {
    names.insert(c["case"].get<std::string>());
    EXPECT_EQ(c["outcome"], "verified") << c.dump();
    EXPECT_FALSE(c["emitted"].empty());
  }
  EXPECT_EQ(names,
            (std::set<std::string>{"storage.load_dword.offset0", "storage.load_dword.offset20"}));
  EXPECT_EQ(chip["counts"]["verified"], 2);
  const CliRun piped = runIsa("--family tonga --filter 'storage.load_dword.offset0' --json -");
  ASSERT_EQ(piped.exit, 0);
  EXPECT_EQ(nlohmann::json::parse(piped.out)["chips"][0]["cases"].size(), 1u) << piped.out;
}

// Standard error holds gcnprobe's own lines, each starting "gcnprobe:", and the driver's: the
// disassembler stand-in that ACO asks for its version prints nothing, so on the null device
// every line not gcnprobe's is one Mesa prints itself.
TEST(IsaCli, StandardErrorKeepsTheDriversLinesApart) {
  if (!haveRadv()) GTEST_SKIP() << "no RADV in this driver";
  const CliRun err = gcnprobe::test_support::runCommand(
      "XDG_RUNTIME_DIR=/tmp " + std::string(GCNPROBE_BINARY) +
      " isa --family tahiti --filter storage.load_dword.offset0 2>&1 >/dev/null");
  ASSERT_EQ(err.exit, 0) << err.out;
  std::istringstream lines(err.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.rfind("gcnprobe:", 0) == 0) continue;
    // The lines Mesa 22.3 and 25 print for a null device: RADV's conformance warning, and
    // (25) src/amd/common's note that a null device has no PCI bus for its UUID.
    const bool mesa =
        line.find("radv") != std::string::npos || line.rfind("ac_compute_device_uuid", 0) == 0;
    EXPECT_TRUE(mesa) << "neither gcnprobe's nor a known Mesa line: " << line;
  }
  EXPECT_EQ(err.out.find("stand-in"), std::string::npos) << err.out;
}

// README.md's ISA coverage block gives, per driver, each chip's verified / route-miss /
// unsupported counts: they are what `isa` finds now on the driver under test (Mesa 22.3.6 or
// 25.0.7; another version has no numbers written down).
TEST(IsaCli, ReadmeNumbersAreWhatIsaFinds) {
  if (!haveRadv()) GTEST_SKIP() << "no RADV in this driver";
  const std::string file = testing::TempDir() + "isa-readme.json";
  const CliRun r = runIsa(
      "--family tahiti --family bonaire --family tonga --family polaris10 "
      "--family vega10 --json " +
      file);
  ASSERT_LE(r.exit, 1) << r.out;
  std::ifstream in(file);
  const nlohmann::json doc = nlohmann::json::parse(in);
  const std::string driver = doc["chips"][0]["driver"].get<std::string>();
  const std::string mesa = driver.find("Mesa 22.3.6") != std::string::npos   ? "Mesa 22.3.6"
                           : driver.find("Mesa 25.0.7") != std::string::npos ? "Mesa 25.0.7"
                                                                             : "";
  if (mesa.empty()) GTEST_SKIP() << driver << ": no numbers written down for it";
  std::ifstream rf(std::string(GCNPROBE_SOURCE_DIR) + "/README.md");
  std::stringstream text;
  text << rf.rdbuf();
  const std::string readme = text.str();
  const std::size_t from = readme.find(mesa + "  ");
  ASSERT_NE(from, std::string::npos) << mesa;
  const std::size_t to = readme.find("Mesa ", from + 5) == std::string::npos
                             ? readme.find("```", from)
                             : std::min(readme.find("Mesa ", from + 5), readme.find("```", from));
  const std::string block = readme.substr(from, to - from);
  for (const nlohmann::json& chip : doc["chips"]) {
    const nlohmann::json& n = chip["counts"];
    std::string counts = std::to_string(n.value("verified", 0)) + " verified, " +
                         std::to_string(n.value("route-miss", 0)) + " route-miss";
    if (n.value("unsupported", 0) > 0)
      counts += ", " + std::to_string(n.value("unsupported", 0)) + " unsupported";
    const std::string name = chip["chip"].get<std::string>();
    // The chip's line: "name: counts" or "a, name, b: counts".
    std::istringstream lines(block);
    bool found = false;
    for (std::string line; std::getline(lines, line);) {
      const std::size_t colon = line.find(": ");
      if (colon == std::string::npos) continue;
      std::string names = line.substr(0, colon);
      if (names.rfind(mesa, 0) == 0) names = names.substr(mesa.size());
      std::istringstream list(names);
      for (std::string w; std::getline(list, w, ',');) {
        w.erase(0, w.find_first_not_of(' '));
        if (w != name) continue;
        found = true;
        EXPECT_EQ(line.substr(colon + 2), counts) << mesa << " " << name;
      }
    }
    EXPECT_TRUE(found) << name << " has no line in README's " << mesa << " block";
  }
}

}  // namespace isa_cli_test
