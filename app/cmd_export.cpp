// `gcnprobe export`: the selected cases as reproductions that need no gcnprobe (Amber scripts,
// or with --dir a folder per case with the GLSL, the SPIR-V, the buffers and a README); no device
// is opened. Usage: docs/export.md.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/version.h"
#include "harness/cases/select.h"
#include "harness/judge/profile.h"
#include "harness/repro/amber.h"
#include "harness/repro/reproduction.h"
#include "reference/error.h"
#include "results/selection.h"

namespace gcnprobe::app {
namespace {

namespace fs = std::filesystem;

struct ExportOptions {
  std::string suite;
  std::vector<std::string> filters, excludes;
  std::string profile;
  std::string output;
  bool dir = false;
};

void writeFile(const fs::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw gcn::cannotWrite(path.string(), "export");
  out << contents;
  out.close();
  if (!out) throw gcn::InfraError(path.string() + ": cannot write the reproduction");
}

// Per route: how many were written (and of them how many check less than gcnprobe does), and
// why the others were not (reason -> count).
struct ExportTally {
  std::map<std::string, unsigned> written, partial;
  std::map<std::string, std::map<std::string, unsigned>> notWritten;
  std::size_t invalid = 0;

  // The summary lines; how many were written in all.
  std::size_t print(bool dir) {
    std::size_t total = 0;
    for (const auto& [route, n] : written) {
      total += n;
      std::printf(
          "export: %s route: %u %s, %u of them checking less than gcnprobe does (their "
          "'not checked' lines say what)\n",
          route.c_str(), n, dir ? "folders" : "scripts", partial[route]);
    }
    // Reasons naming a format are grouped: "<format> has 3 components: ..." with the formats.
    static const std::regex kFormat(R"(VK_FORMAT_[A-Z0-9_]+)");
    for (const auto& [route, reasons] : notWritten) {
      std::map<std::string, std::pair<unsigned, std::set<std::string>>> grouped;
      for (const auto& [why, n] : reasons) {
        std::smatch m;
        const bool named = std::regex_search(why, m, kFormat);
        auto& g = grouped[named ? std::regex_replace(why, kFormat, "<format>") : why];
        g.first += n;
        if (named) g.second.insert(m.str().substr(10));
      }
      for (const auto& [why, g] : grouped) {
        std::string formats;
        for (const std::string& f : g.second)
          formats += (formats.empty() ? " (" : ", ") + f;
        std::printf("export: %s route: %u not exported: %s%s\n", route.c_str(), g.first,
                    why.c_str(), formats.empty() ? "" : (formats + ")").c_str());
      }
    }
    return total;
  }
};

// One case's reproduction into the output folder (a folder of files, or one Amber script).
void exportCase(const ExportOptions& o, const judge::Case& c, const judge::Profile& profile,
                const std::string& generator, ExportTally& tally) {
  if (!c.broken.empty()) {
    ++tally.notWritten["(broken)"][c.broken];
    return;
  }
  const repro::Reproduction r = repro::reproduce(c, profile);
  if (!r.notExpressed.empty()) {
    ++tally.notWritten[r.route][r.notExpressed];
    return;
  }
  // A shader the validator refuses would make the reproduction a report about the export.
  if (const std::string bad = repro::spirvValidationProblem(r.spirv); !bad.empty()) {
    std::fprintf(stderr, "gcnprobe: error: %s: variant %s is not valid SPIR-V: %s\n",
                 c.name.c_str(), r.variant.c_str(), bad.c_str());
    ++tally.invalid;
    return;
  }
  if (o.dir) {
    const fs::path folder = fs::path(o.output) / c.name;
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) throw gcn::InfraError(folder.string() + ": cannot create the folder: " + ec.message());
    for (const auto& [file, contents] : repro::reproductionFiles(r, generator))
      writeFile(folder / file, contents);
  } else {
    writeFile(fs::path(o.output) / (c.name + ".amber"), repro::amberScript(r, generator));
  }
  ++tally.written[r.route];
  if (!r.unchecked.empty()) ++tally.partial[r.route];
}

int runExport(const ExportOptions& o) {
  const judge::Profile profile = judge::resolveProfile(o.profile, std::nullopt);
  results::Selection s;
  s.include = o.filters;
  s.exclude = o.excludes;
  const std::vector<judge::Case> cases = cases::selectCases(o.suite, profile.chip, s);
  if (cases.empty()) throw noCaseMatches(o.filters, o.excludes, o.suite);
  std::error_code ec;
  // Files an earlier export left stay; say so, so that a folder of mixed profiles is no surprise.
  if (fs::is_directory(o.output, ec) && !fs::is_empty(o.output, ec))
    std::fprintf(stderr,
                 "gcnprobe: note: %s is not empty: what it holds stays beside the new files\n",
                 o.output.c_str());
  fs::create_directories(o.output, ec);
  if (ec) throw gcn::InfraError(o.output + ": cannot create the folder: " + ec.message());
  const std::string generator =
      std::string("gcnprobe ") + GCNPROBE_VERSION + " (" + GCNPROBE_GIT_REVISION + ")";
  ExportTally tally;
  for (const judge::Case& c : cases)
    exportCase(o, c, profile, generator, tally);
  const std::size_t total = tally.print(o.dir);
  std::printf("export: %zu of %zu cases written to %s (profile %s)%s\n", total, cases.size(),
              o.output.c_str(), profile.name.c_str(),
              tally.invalid > 0
                  ? (", " + std::to_string(tally.invalid) + " refused: invalid SPIR-V").c_str()
                  : "");
  if (total == 0) {
    std::fprintf(stderr,
                 "gcnprobe: error: no selected case can be exported (the lines above say "
                 "why)\n");
    return 1;
  }
  return tally.invalid > 0 ? 1 : 0;
}

}  // namespace

void addExportCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "Write the selected cases as reproductions that need no gcnprobe: one Amber script per "
      "case (the shader as SPIR-V assembly, the buffers with their guard bands, the dispatch, "
      "EXPECT lines from the reference), or with --dir a folder per case with the GLSL, the "
      "SPIR-V, the buffers and a README");
  cmd->add_option("--suite", o->suite, "the suite (default: the default suites)");
  cmd->add_option("--filter", o->filters, "export only cases matching this glob (repeatable)");
  cmd->add_option("--exclude", o->excludes, "leave out cases matching this glob (repeatable)");
  cmd->add_option("--profile", o->profile,
                  "the expected values' profile: portable (default) or gfx6..gfx9");
  cmd->add_option("-o,--output", o->output, "the folder to write into (created)")->required();
  cmd->add_flag("--dir", o->dir,
                "a folder per case (case.amber, shader.comp, shader.spv, shader.spvasm, the "
                "buffers as .bin, expected.json, README.md) instead of one script per case");
  cmd->callback([o, &ctx] { ctx.exitCode = runExport(*o); });
}

}  // namespace gcnprobe::app
