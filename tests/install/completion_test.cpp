// The bash completion and the man page that the build writes from the program's help
// (cmake/GcnprobeHelpDocs.cmake) hold every subcommand and option the program has: the
// program's own help read with this test's own parser, and CLI11's data of the command line
// main() builds (app/program.h). The completion is exercised in bash as
// a user's shell calls it.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/program.h"
#include "tests/support/cli.h"

namespace completion_test {

using gcnprobe::test_support::runCommand;
using gcnprobe::test_support::runGcnprobe;
using gcnprobe::test_support::Stderr;

// The program's command line, built as main() builds it (app/program.h).
struct Commands {
  CLI::App app;
  gcnprobe::app::Context ctx;
  Commands() { gcnprobe::app::buildProgram(app, ctx); }
  // Hidden subcommands (group "") are helpers of the program itself, not for users.
  std::vector<CLI::App*> visible() {
    return app.get_subcommands([](CLI::App* s) { return !s->get_group().empty(); });
  }
  std::vector<CLI::App*> hidden() {
    return app.get_subcommands([](CLI::App* s) { return s->get_group().empty(); });
  }
};

// "--name" and "-n" for every visible, non-positional option of CLI11's data.
std::vector<std::string> optionNames(const CLI::App& a) {
  std::vector<std::string> out;
  for (const CLI::Option* o : a.get_options()) {
    if (o->get_group().empty() || !o->nonpositional()) continue;
    for (const std::string& l : o->get_lnames())
      out.push_back("--" + l);
    for (const std::string& s : o->get_snames())
      out.push_back("-" + s);
  }
  return out;
}

// `gcnprobe <args> --help`, in lines.
std::vector<std::string> helpLines(const std::string& args) {
  const auto r = runGcnprobe(args + " --help", Stderr::Discard);
  EXPECT_EQ(r.exit, 0) << args << ": " << r.out;
  std::vector<std::string> out;
  std::istringstream in(r.out);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

// The first word of each entry ("  NAME ...  description") of one section of a help.
std::vector<std::string> sectionNames(const std::vector<std::string>& lines,
                                      const std::string& header) {
  std::vector<std::string> out;
  bool in = false;
  const std::regex entry(R"(^  ([^ ]+))");
  for (const std::string& l : lines) {
    if (!l.empty() && l.front() != ' ' && l.back() == ':') {
      in = l == header;
      continue;
    }
    std::smatch m;
    if (in && std::regex_search(l, m, entry)) out.push_back(m[1].str());
  }
  return out;
}

// The program's subcommands, from `gcnprobe --help`.
std::vector<std::string> programSubcommands() {
  return sectionNames(helpLines(""), "Subcommands:");
}

// The option names of `gcnprobe <sub> --help` ("-h,--help": "-h" and "--help"); sub "": the
// global options.
std::vector<std::string> programOptions(const std::string& sub) {
  std::vector<std::string> out;
  for (const std::string& column : sectionNames(helpLines(sub), "Options:")) {
    std::istringstream names(column);
    for (std::string n; std::getline(names, n, ',');)
      out.push_back(n);
  }
  return out;
}

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// What the completion offers for `words`, the last of them being the word completed.
std::set<std::string> complete(const std::vector<std::string>& words) {
  std::string script = "source " + shellQuote(GCNPROBE_COMPLETION) + " && COMP_WORDS=(";
  for (const std::string& w : words)
    script += shellQuote(w) + " ";
  script += "); COMP_CWORD=" + std::to_string(words.size() - 1) +
            "; _gcnprobe 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"";
  const auto r = runCommand("bash --norc -c " + shellQuote(script) + " 2>&1");
  EXPECT_EQ(r.exit, 0) << r.out;
  std::set<std::string> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.insert(line);
  return out;
}

std::string join(const std::set<std::string>& s) {
  std::string out;
  for (const std::string& w : s)
    out += w + " ";
  return out;
}

TEST(Completion, TheFirstWordIsExactlyTheProgramsSubcommands) {
  const std::vector<std::string> subs = programSubcommands();
  ASSERT_GE(subs.size(), 11u);  // convert ... probe
  EXPECT_EQ(complete({"gcnprobe", ""}), std::set<std::string>(subs.begin(), subs.end()));
  EXPECT_EQ(complete({"gcnprobe", "r"}), (std::set<std::string>{"ref", "report", "run"}));
}

TEST(Completion, EverySubcommandOffersEachOfItsOptions) {
  for (const std::string& sub : programSubcommands()) {
    const std::vector<std::string> names = programOptions(sub);
    EXPECT_GE(names.size(), 3u) << sub;  // -h, --help, --help-all at least
    const std::set<std::string> offered = complete({"gcnprobe", sub, "-"});
    for (const std::string& n : names)
      EXPECT_TRUE(offered.count(n))
          << "gcnprobe " << sub << " " << n << " is not completed; offered: " << join(offered);
  }
}

// The same from CLI11's data rather than the help text: an option whose help line the
// generator misread would be missing here.
TEST(Completion, AgreesWithCLI11sOwnData) {
  Commands c;
  const std::set<std::string> first = complete({"gcnprobe", ""});
  ASSERT_GE(c.visible().size(), 11u);
  for (CLI::App* s : c.visible()) {
    EXPECT_TRUE(first.count(s->get_name())) << s->get_name();
    const std::set<std::string> offered = complete({"gcnprobe", s->get_name(), "-"});
    for (const std::string& n : optionNames(*s))
      EXPECT_TRUE(offered.count(n)) << "gcnprobe " << s->get_name() << " " << n
                                    << " is not completed; offered: " << join(offered);
  }
  for (CLI::App* s : c.hidden())
    EXPECT_FALSE(first.count(s->get_name())) << s->get_name() << " is hidden";
}

TEST(Completion, TheGlobalOptionsAreOfferedBeforeAndAfterTheSubcommand) {
  const std::vector<std::string> globals = programOptions("");
  ASSERT_GE(globals.size(), 5u);  // -h, --help, --version, --help-all, --driver, ...
  const std::set<std::string> before = complete({"gcnprobe", "-"});
  const std::set<std::string> after = complete({"gcnprobe", "run", "-"});
  for (const std::string& g : globals) {
    EXPECT_TRUE(before.count(g)) << g << "; offered: " << join(before);
    EXPECT_TRUE(after.count(g)) << g << "; offered: " << join(after);
  }
}

// The names after "known: " / "expected " in an error message of the program, split on
// ", ", " or " and blanks: what its own validation accepts, said to a user who got it wrong.
std::set<std::string> namesInError(const std::string& args, const std::string& after) {
  const auto r = runGcnprobe(args);
  EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;
  std::string list = r.out.substr(r.out.find(after) + after.size());
  list = list.substr(0, list.find_first_of(")\n"));
  for (const char* sep : {",", " or "})
    for (std::size_t at = list.find(sep); at != std::string::npos; at = list.find(sep))
      list.replace(at, std::string(sep).size(), " ");
  std::set<std::string> out;
  std::istringstream words(list);
  for (std::string w; words >> w;)
    out.insert(w);
  return out;
}

// --suite, --profile, --family and --gen complete to the names the program's own errors list
// as accepted, and every name offered is accepted.
TEST(Completion, FixedSetValuesAreTheNamesTheProgramAccepts) {
  const std::set<std::string> suites = complete({"gcnprobe", "list", "--suite", ""});
  EXPECT_EQ(suites, namesInError("list --suite nosuch", "(known: "));
  for (const std::string& s : suites)
    EXPECT_EQ(runGcnprobe("list --suite " + s, Stderr::Discard).exit, 0) << s;
  const std::set<std::string> profiles = complete({"gcnprobe", "run", "--profile", ""});
  EXPECT_EQ(profiles, namesInError("list --profile nosuch", "(expected "));
  for (const std::string& p : profiles)
    EXPECT_EQ(
        runGcnprobe("list --filter 'storage.load_dword.*' --profile " + p, Stderr::Discard).exit, 0)
        << p;
  // The chips an unknown name lists, plus the generations, are what --family and --gen offer.
  std::set<std::string> chips = namesInError("isa --family nosuch", "or a chip: ");
  for (const char* g : {"gfx6", "gfx7", "gfx8", "gfx9", "gfx10", "gfx10.3", "gfx11"})
    chips.insert(g);
  EXPECT_EQ(complete({"gcnprobe", "isa", "--family", ""}), chips);
  EXPECT_EQ(complete({"gcnprobe", "probe", "--gen", ""}), chips);
  EXPECT_EQ(complete({"gcnprobe", "isa", "--family", "pol"}),
            (std::set<std::string>{"polaris10", "polaris11", "polaris12"}));
  // RADV families: a subset of the chips, each one the null device accepts as a name.
  const std::set<std::string> families = complete({"gcnprobe", "--radv-null", ""});
  EXPECT_GE(families.size(), 4u);
  for (const std::string& f : families)
    EXPECT_TRUE(chips.count(f)) << f;
}

TEST(Completion, AnOptionsValueIsNotTakenForTheSubcommandOrAnOption) {
  // --driver takes a folder or 'system'; the word after its value is the subcommand.
  EXPECT_TRUE(complete({"gcnprobe", "--driver", "sys"}).count("system"));
  EXPECT_EQ(complete({"gcnprobe", "--driver", "/tmp", "r"}),
            (std::set<std::string>{"ref", "report", "run"}));
  // run's --json takes a path (no option names offered); --verbose is a flag.
  EXPECT_TRUE(complete({"gcnprobe", "run", "--json", "--su"}).empty());
  EXPECT_EQ(complete({"gcnprobe", "run", "--verbose", "--su"}), (std::set<std::string>{"--suite"}));
  // A path is completed as a file name.
  const std::string dir = testing::TempDir() + "/completion-files";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/results.json") << "{}";
  EXPECT_EQ(complete({"gcnprobe", "run", "--json", dir + "/res"}),
            (std::set<std::string>{dir + "/results.json"}));
}

// The man page's text with roff's escaped hyphens ("\-") plain.
std::string manText() {
  const std::string path = GCNPROBE_MAN;
  const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  const auto r = runCommand((gz ? "gzip -dc " : "cat ") + shellQuote(path));
  EXPECT_EQ(r.exit, 0) << r.out;
  return std::regex_replace(r.out, std::regex(R"(\\-)"), "-");
}

// The text of the man page from the line `heading` up to the next .SS or .SH heading.
std::string section(const std::string& man, const std::string& heading) {
  const auto start = man.find("\n" + heading + "\n");
  if (start == std::string::npos) return "";
  const auto end = std::min(man.find("\n.SS ", start + 1), man.find("\n.SH ", start + 1));
  return man.substr(start, end - start);
}

// "\fB--name\fR": an option as the man page sets it.
std::string bold(const std::string& name) {
  return "\\fB" + name + "\\fR";
}

TEST(ManPage, EverySubcommandHasASectionWithEachOfItsOptions) {
  const std::string man = manText();
  ASSERT_NE(man.find(".TH GCNPROBE 1"), std::string::npos) << man.substr(0, 400);
  for (const std::string& sub : programSubcommands()) {
    const std::string text = section(man, ".SS " + sub);
    ASSERT_FALSE(text.empty()) << "no section for " << sub;
    for (const std::string& n : programOptions(sub))
      EXPECT_NE(text.find(bold(n)), std::string::npos)
          << sub << " " << n << " missing from its man page section";
  }
  Commands c;
  for (CLI::App* s : c.visible()) {
    const std::string text = section(man, ".SS " + s->get_name());
    for (const std::string& n : optionNames(*s))
      EXPECT_NE(text.find(bold(n)), std::string::npos) << s->get_name() << " " << n;
  }
  const std::string options = section(man, ".SH OPTIONS");
  for (const std::string& g : programOptions(""))
    EXPECT_NE(options.find(bold(g)), std::string::npos) << g;
}

}  // namespace completion_test
