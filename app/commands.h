// The gcnprobe subcommands. Each lives in its own app/cmd_<name>.cpp, adds itself to the
// CLI11 app and reports its result through Context::exitCode. Commands throw gcn::Error
// for bad input; main() prints it as "gcnprobe <cmd>: error: ..." and exits 2.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "reference/error.h"

namespace gcnprobe::app {

struct Context {
  int exitCode = 0;
};

// reference/ only
void addConvertCommand(CLI::App& app, Context& ctx);   // format conversions
void addVsharpCommand(CLI::App& app, Context& ctx);    // V# decode / encode
void addAsmCommand(CLI::App& app, Context& ctx);       // asm and disasm
void addRefCommand(CLI::App& app, Context& ctx);       // run one instruction on the reference
void addPoliciesCommand(CLI::App& app, Context& ctx);  // the disputed points and defaults
void addOracleCommand(CLI::App& app, Context& ctx);    // JSON lines in, JSON lines out
// harness/
void addDeviceCommands(CLI::App& app, Context& ctx);   // devices, formats
void addRunCommands(CLI::App& app, Context& ctx);      // list, run
void addIsaCommand(CLI::App& app, Context& ctx);       // isa (RADV null device)
void addBinaryCommand(CLI::App& app, Context& ctx);    // binary (patched pipelines)
void addSweepCommand(CLI::App& app, Context& ctx);     // sweep (every code of texel formats)
void addFuzzCommand(CLI::App& app, Context& ctx);      // fuzz (random cases, minimised)
void addProbeCommand(CLI::App& app, Context& ctx);     // probe files
void addResultsCommands(CLI::App& app, Context& ctx);  // merge, compare (JSON reports)
void addReportCommand(CLI::App& app, Context& ctx);    // report (HTML over JSON reports)
void addExportCommand(CLI::App& app, Context& ctx);    // export (Amber scripts, folders)
void addBaselineCommand(CLI::App& app, Context& ctx);
void addSurveyCommand(CLI::App& app, Context& ctx);  // survey (every hardware step, one bundle)

// The hidden `_completion-values`: per option with a fixed set of names, the names (for the
// bash completion the build writes).
void addCompletionValuesCommand(CLI::App& app, Context& ctx);
// For CLI11's "arguments were not expected" words: "'--fitler': did you mean '--filter'?" per
// word close to an option of the subcommand parsed (or to a subcommand, before one).
std::vector<std::string> didYouMean(const CLI::App& top, const std::vector<std::string>& extras);
// The error of a selection that matches no case: the --filter globs (or --exclude, when it took
// every case out) and the suite, for `run`, `list` and `export` alike.
gcn::Error noCaseMatches(const std::vector<std::string>& filters,
                         const std::vector<std::string>& excludes, const std::string& suite);

// Flushes and closes standard output: `code` when everything written arrived, else 3 with a
// message naming stdout. main() returns through it, so lost output is never a success.
int finishStdout(int code);

}  // namespace gcnprobe::app
