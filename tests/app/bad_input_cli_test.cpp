// Hostile command lines: every bad value is an error that names the flag (exit 2), every
// well-formed value gets an answer.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/cli.h"

namespace bad_input_cli_test {

using gcnprobe::test_support::CliRun;
using gcnprobe::test_support::runGcnprobe;

void expectError(const std::string& args, const std::string& mention) {
  const CliRun r = runGcnprobe(args);
  EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(mention), std::string::npos) << args << "\n" << r.out;
}

// Float stores round like IEEE round to nearest even: 1e39 is +Inf (0x7f800000), 1e-50 is +0.
// 16_16 UNORM clamps +Inf to 1.0 (0xffff in X, the low half).
TEST(ConvertBadInput, OutOfRangeFloatsAreRoundedNotRejected) {
  CliRun r = runGcnprobe("convert --gen gfx8 --dfmt 32 --nfmt float --store 1e39");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out, "0x7f800000\n");
  r = runGcnprobe("convert --gen gfx8 --dfmt 32 --nfmt float --store=-1e-50");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out, "0x80000000\n");
  r = runGcnprobe("convert --gen gfx8 --dfmt 16_16 --nfmt unorm --store 1e39,1e-50");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out, "0x0000ffff\n");
}

TEST(ConvertBadInput, IntegersTooWideSayTheyDoNotFit) {
  expectError("convert --gen gfx8 --dfmt 32 --nfmt uint --load 99999999999999999999999",
              "--load: '99999999999999999999999' does not fit in 32 bits");
  expectError("convert --gen gfx8 --dfmt 32 --nfmt sint --store 99999999999999999999999",
              "--store: '99999999999999999999999' does not fit in 32 bits");
  expectError("convert --gen gfx8 --dfmt 32 --nfmt uint --store 1e39", "--store: '1e39'");
}

// `gcnprobe <args>` with standard output on /dev/full; `out` holds standard error.
CliRun runToFullStdout(const std::string& args) {
  return gcnprobe::test_support::runCommand("XDG_RUNTIME_DIR=/tmp " + std::string(GCNPROBE_BINARY) +
                                            " " + args + " 2>&1 >/dev/full");
}

// /dev/full accepts the open and fails every write with ENOSPC: the output is lost, so the
// exit is 3 (README) and the message names where the output went.
TEST(OutputIntegrity, FullStdoutIsAnErrorNamingStdout) {
  for (const char* args :
       {"asm --gen gfx8 \"buffer_load_dword v1, v0, s[4:7], 0 offen\"",
        "convert --gen gfx8 --dfmt 32 --nfmt float --store 1 --json",
        "vsharp --gen gfx9 --decode 0 0 0 0", "list --suite storage", "--help"}) {
    const CliRun r = runToFullStdout(args);
    EXPECT_EQ(r.exit, 3) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("stdout"), std::string::npos) << args << "\n" << r.out;
  }
  // The same command to a working stdout succeeds: the failure above is the full disk.
  EXPECT_EQ(runGcnprobe("asm --gen gfx8 \"buffer_load_dword v1, v0, s[4:7], 0 offen\"").exit, 0);
}

TEST(OutputIntegrity, FullJsonReportIsAnErrorNamingThePath) {
  const CliRun r = runGcnprobe("run --suite storage --json /dev/full");
  EXPECT_EQ(r.exit, 3) << r.out;
  EXPECT_NE(r.out.find("/dev/full: cannot write"), std::string::npos) << r.out;
}

// An output that cannot be opened is infrastructure (exit 3, as docs/run.md says), named with
// its errno, and it is found before any device opens or input is read: `run` prints no
// "device:" line, and `report`/`merge`/`baseline` are not even given a readable input.
TEST(OutputIntegrity, UnwritableOutputPathsExitThreeBeforeAnyWork) {
  const std::string missing = "/nonexistent-gcnprobe-dir/out";
  // Inputs must exist (the parser checks that), but are never read: README.md will do.
  const std::string in = std::string(GCNPROBE_SOURCE_DIR) + "/README.md";
  const struct {
    std::string args, what;
  } cases[] = {
      {"run --suite storage --json " + missing + ".json", "JSON report"},
      {"run --suite storage --junit " + missing + ".xml", "JUnit report"},
      {"run --suite storage --csv " + missing + ".csv", "CSV results"},
      {"report -o " + missing + ".html " + in, "report"},
      {"merge -o " + missing + ".json " + in + " " + in, "merged report"},
      {"baseline --from " + in + " -o " + missing + ".txt", "baseline"},
      {"compare " + in + " " + in + " --json " + missing + ".json", "JSON output"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    const CliRun r = runGcnprobe(c.args);
    EXPECT_EQ(r.exit, 3) << r.out;
    EXPECT_NE(r.out.find(": cannot open the " + c.what + " for writing: No such file or directory"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("device:"), std::string::npos) << r.out;
  }
  // A folder is no output file either.
  const CliRun dir = runGcnprobe("run --suite storage --json /tmp");
  EXPECT_EQ(dir.exit, 3) << dir.out;
  EXPECT_NE(dir.out.find("/tmp: cannot open the JSON report for writing: Is a directory"),
            std::string::npos)
      << dir.out;
}

// A runner whose GPU went missing must not pass on lavapipe: a --device that matches nothing
// exits 3 (infrastructure, what CI retries), naming the devices there are.
TEST(RunBadInput, ADeviceThatIsNotThereExitsThree) {
  const CliRun r = runGcnprobe("run --suite storage --device no-such-gpu-here");
  EXPECT_EQ(r.exit, 3) << r.out;
  EXPECT_NE(r.out.find("--device 'no-such-gpu-here' matches no device"), std::string::npos)
      << r.out;
}

// The limit is checked before any device opens or thread starts: a message, not an abort.
TEST(RunBadInput, TooManyJobsIsAnErrorNamingTheFlag) {
  expectError("run --suite storage --jobs 100000", "--jobs: 100000 threads is over the limit");
}

// CLI11's own parse errors are bad input too: exit 2, not CLI11's codes.
TEST(RunBadInput, MalformedFlagsExit2) {
  expectError("run --jobs abc", "--jobs");
  expectError("asm --bogus", "--bogus");
}

// gfx9 word 3 bits 24, 26 and 28 (0x15000000) belong to no field: they come back unchanged.
TEST(VsharpBadInput, UnnamedBitsSurviveEncodeAndDecode) {
  CliRun r = runGcnprobe("vsharp --gen gfx9 --encode \"0x0 0x0 0x0 0x15000000\"");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out, "0x00000000 0x00000000 0x00000000 0x15000000\n");
  r = runGcnprobe("vsharp --gen gfx9 --decode 0x0 0x0 0x0 0x15000000");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("reserved_w3=0x15000000"), std::string::npos) << r.out;
  // Bit 27 is NV on gfx9: not a reserved bit.
  expectError("vsharp --gen gfx9 --encode reserved_w3=0x08000000", "reserved_w3");
}

// Every convert error starts with the flag it is about.
TEST(ConvertBadInput, EveryErrorNamesItsFlag) {
  const char* base = "convert --gen gfx8 --dfmt 8_8 --nfmt uint --load 1";
  expectError("convert --gen gfx42 --dfmt 8_8 --nfmt unorm --load 0", "error: --gen: ");
  expectError("convert --gen gfx8 --dfmt 8_8_8_9 --nfmt unorm --load 0", "error: --dfmt: ");
  expectError("convert --gen gfx8 --dfmt 8_8 --nfmt bogus --load 0", "error: --nfmt: ");
  expectError(std::string(base) + " --policy norm=fast", "error: --policy: ");
  expectError(std::string(base) + " --policy xx", "error: --policy: ");
  expectError("convert --gen gfx8 --dfmt 8_8 --nfmt uint --load ,", "error: --load: ");
  expectError("convert --gen gfx8 --dfmt 8_8 --nfmt uint --load 1 --store 1", "--load and --store");
}

// docs/asm.md's examples are pasted runs: each `$ gcnprobe ...` line, its output and its
// `# exit N` must be what the program prints now.
TEST(DocsBadInput, AsmExamplesShowWhatTheProgramPrints) {
  std::ifstream in(std::string(GCNPROBE_SOURCE_DIR) + "/docs/asm.md");
  ASSERT_TRUE(in) << "docs/asm.md";
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);)
    lines.push_back(l);
  int examples = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("$ gcnprobe ", 0) != 0) continue;
    std::string expected;
    int exit = -1;
    std::size_t j = i + 1;
    for (; j < lines.size() && lines[j].rfind("$ ", 0) != 0 && lines[j].rfind("```", 0) != 0; ++j) {
      if (lines[j].rfind("# exit ", 0) == 0)
        exit = std::stoi(lines[j].substr(7));
      else
        expected += lines[j] + "\n";
    }
    if (exit < 0) continue;  // an example without its exit status is not a pasted run
    ++examples;
    const CliRun r = runGcnprobe(lines[i].substr(std::string("$ gcnprobe ").size()));
    EXPECT_EQ(r.exit, exit) << lines[i];
    EXPECT_EQ(r.out, expected) << lines[i];
  }
  EXPECT_GE(examples, 10);
}

// A mistyped flag or subcommand exits 2 with CLI11's message and the nearest name it could
// mean; a word close to nothing gets no guess.
TEST(CliHints, AMistypedFlagOrSubcommandSaysWhatItCouldMean) {
  for (const auto& [args, hint] : std::vector<std::pair<std::string, std::string>>{
           {"run --fitler 'x*'", "'--fitler': did you mean '--filter'?"},
           {"list --sute texel", "'--sute': did you mean '--suite'?"},
           {"merge a.json --outptu b.json", "'--outptu': did you mean '--output'?"},
           {"rn", "'rn': did you mean 'run'?"},
           {"isa --famly tahiti", "'--famly': did you mean '--family'?"},
           {"--drvier system devices", "'--drvier': did you mean '--driver'?"}}) {
    const CliRun r = runGcnprobe(args);
    EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(hint), std::string::npos) << args << "\n" << r.out;
  }
  const CliRun far = runGcnprobe("run --zzzzzzzz");
  EXPECT_EQ(far.exit, 2);
  EXPECT_EQ(far.out.find("did you mean"), std::string::npos) << far.out;
}

}  // namespace bad_input_cli_test
