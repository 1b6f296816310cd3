// Help for the command line itself: "did you mean" for a mistyped flag or subcommand, and the
// hidden `_completion-values`, which prints the values the bash completion offers for the
// options that take a name from a fixed set (written into the completion at build time by
// cmake/GcnprobeHelpDocs.cmake, so the lists are the program's own).
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "app/commands.h"
#include "harness/cases/suite.h"
#include "reference/error.h"
#include "reference/gen.h"

namespace gcnprobe::app {
namespace {

// Levenshtein distance, with a transposition counting 1 ("--fitler" is one step from
// "--filter").
std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i)
    d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j)
    d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The names `sub` (and the global options of `top`) accept: long and short option names, and
// for the top level its visible subcommands.
std::vector<std::string> knownWords(const CLI::App& top, const CLI::App* sub) {
  std::vector<std::string> out;
  const auto addOptions = [&](const CLI::App& a) {
    for (const CLI::Option* o : a.get_options()) {
      for (const std::string& n : o->get_lnames())
        out.push_back("--" + n);
      for (const std::string& n : o->get_snames())
        out.push_back("-" + n);
    }
  };
  addOptions(top);
  if (sub != nullptr) {
    addOptions(*sub);
  } else {
    for (const CLI::App* s : top.get_subcommands({}))
      if (!s->get_description().empty()) out.push_back(s->get_name());
  }
  return out;
}

}  // namespace

std::vector<std::string> didYouMean(const CLI::App& top, const std::vector<std::string>& extras) {
  // The subcommand the words were given to: the last one parsed.
  const CLI::App* sub = nullptr;
  for (const CLI::App* s : top.get_subcommands())
    sub = s;
  const std::vector<std::string> known = knownWords(top, sub);
  std::vector<std::string> out;
  for (const std::string& word : extras) {
    const std::string flag = word.substr(0, word.find('='));
    if (sub != nullptr && (flag.empty() || flag[0] != '-')) continue;  // a stray argument
    // The nearest name within a third of the word's length (at least 2 edits); the first
    // of equally near ones.
    std::string best;
    std::size_t bestDistance = std::max<std::size_t>(2, flag.size() / 3) + 1;
    for (const std::string& k : known) {
      const std::size_t d = editDistance(flag, k);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    if (!best.empty()) out.push_back("'" + flag + "': did you mean '" + best + "'?");
  }
  return out;
}

void addCompletionValuesCommand(CLI::App& app, Context& ctx) {
  CLI::App* c = app.add_subcommand("_completion-values", "");
  c->group("");  // hidden: for the build's completion script
  c->callback([&ctx] {
    // Profiles are GCN generations; --family, --gen and --radv-null take RDNA chips too
    // (their generic rows are the generation names gfx10, gfx10.3, gfx11).
    std::string gcnGenerations, generations, chips, families;
    const auto isGeneration = [](std::string_view name) {
      for (const gcn::Gen g : gcn::kAllGens)
        if (gcn::genName(g) == name) return true;
      return false;
    };
    for (const auto list : {gcn::gcnChips(), gcn::rdnaChips()})
      for (const gcn::Chip& chip : list) {
        const std::string name(chip.name);
        if (isGeneration(name)) {
          generations += " " + name;
          if (gcn::isGcn(chip.gen)) gcnGenerations += " " + name;
          continue;
        }
        chips += " " + name;
        // --radv-null takes chip names (RADV's own family name may differ on RDNA).
        const std::string family = gcn::isGcn(chip.gen) ? std::string(chip.radvFamily) : name;
        if (!family.empty() && (families + " ").find(" " + family + " ") == std::string::npos)
          families += " " + family;
      }
    std::string suites;
    for (const std::string& s : cases::suiteNames())
      suites += " " + s;
    // One line per option: the option, then its values.
    std::printf("--suite%s\n", suites.c_str());
    std::printf("--profile%s portable\n", gcnGenerations.c_str());
    std::printf("--family%s%s\n", generations.c_str(), chips.c_str());
    std::printf("--gen%s%s\n", generations.c_str(), chips.c_str());
    std::printf("--radv-null%s\n", families.c_str());
    ctx.exitCode = 0;
  });
}

gcn::Error noCaseMatches(const std::vector<std::string>& filters,
                         const std::vector<std::string>& excludes, const std::string& suite) {
  std::string what, excluded;
  for (const std::string& f : filters)
    what += (what.empty() ? "'" : ", '") + f + "'";
  for (const std::string& x : excludes)
    excluded += (excluded.empty() ? " once --exclude '" : "', '") + x;
  if (!excluded.empty()) excluded += "' takes its cases out";
  return gcn::Error(gcn::Place{what.empty() && !excluded.empty() ? "--exclude" : "--filter", 0, 0},
                    "no case matches " + (what.empty() ? std::string("the selection") : what) +
                        (suite.empty() ? "" : " in suite '" + suite + "'") + excluded);
}

}  // namespace gcnprobe::app
