// The order in which the program looks for its probe files (probe/probes_dir.h): the
// variable, the installed share/gcnprobe/probes beside the program, the source tree's.
#include "probe/probes_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "reference/error.h"

namespace probes_dir_test {

namespace fs = std::filesystem;
using gcn::probe::findProbesDir;
using gcn::probe::ProbesDirSearch;

// A fresh folder under the test's temp dir.
fs::path freshDir(const std::string& name) {
  const fs::path d = fs::path(testing::TempDir()) / ("probes-dir-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// An installed tree prefix/{bin/gcnprobe, share/gcnprobe/probes/} and a source tree's probes/.
struct Trees {
  fs::path exe, installed, source;
  explicit Trees(const std::string& name, bool withInstalled, bool withSource) {
    const fs::path root = freshDir(name);
    exe = root / "prefix" / "bin" / "gcnprobe";
    installed = root / "prefix" / "share" / "gcnprobe" / "probes";
    source = root / "src" / "probes";
    fs::create_directories(exe.parent_path());
    if (withInstalled) fs::create_directories(installed);
    if (withSource) fs::create_directories(source);
  }
  ProbesDirSearch search() const {
    return ProbesDirSearch{std::nullopt, exe, "../share/gcnprobe/probes", source};
  }
};

TEST(ProbesDir, TheVariableComesFirstAndIsTakenAsGiven) {
  const Trees t("variable", true, true);
  ProbesDirSearch s = t.search();
  s.env = "/nonexistent/probes";
  // Not replaced by an existing folder: a mistyped variable is then reported as such.
  EXPECT_EQ(findProbesDir(s), fs::path("/nonexistent/probes"));
}

TEST(ProbesDir, TheInstalledProbesBesideTheProgramComeBeforeTheSourceTree) {
  const Trees t("installed", true, true);
  EXPECT_EQ(findProbesDir(t.search()), t.installed);
}

TEST(ProbesDir, TheSourceTreeWhenNothingIsInstalledBesideTheProgram) {
  const Trees t("source", false, true);
  EXPECT_EQ(findProbesDir(t.search()), t.source);
}

TEST(ProbesDir, NoneFoundIsAnInfrastructureErrorNamingEveryPlaceSearched) {
  const Trees t("none", false, false);
  try {
    (void)findProbesDir(t.search());
    ADD_FAILURE() << "no error";
  } catch (const gcn::InfraError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("GCNPROBE_PROBES_DIR (unset)"), std::string::npos) << what;
    EXPECT_NE(what.find(t.installed.string()), std::string::npos) << what;
    EXPECT_NE(what.find(t.source.string()), std::string::npos) << what;
  }
}

TEST(ProbesDir, AnUnknownProgramPathSkipsTheInstalledPlace) {
  const Trees t("noexe", true, true);
  ProbesDirSearch s = t.search();
  s.exe.clear();
  EXPECT_EQ(findProbesDir(s), t.source);
}

}  // namespace probes_dir_test
