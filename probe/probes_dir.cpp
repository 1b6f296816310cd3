#include "probe/probes_dir.h"

#include <cstdlib>
#include <system_error>

#include "reference/error.h"

namespace gcn::probe {

std::filesystem::path findProbesDir(const ProbesDirSearch& search) {
  namespace fs = std::filesystem;
  if (search.env) return fs::path(*search.env);
  std::string searched = "$GCNPROBE_PROBES_DIR (unset)";
  std::error_code ec;
  if (!search.exe.empty()) {
    const fs::path installed =
        (search.exe.parent_path() / search.installRelative).lexically_normal();
    if (fs::is_directory(installed, ec)) return installed;
    searched += ", " + installed.string();
  }
  if (!search.sourceDir.empty()) {
    if (fs::is_directory(search.sourceDir, ec)) return search.sourceDir;
    searched += ", " + search.sourceDir.string();
  }
  throw InfraError("no probe directory: searched " + searched +
                   " (set GCNPROBE_PROBES_DIR to the probes/ folder)");
}

std::filesystem::path shippedProbesDir() {
  ProbesDirSearch search;
  const char* env = std::getenv("GCNPROBE_PROBES_DIR");
  if (env != nullptr && *env != '\0') search.env = env;
  std::error_code ec;
  search.exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) search.exe.clear();
  search.installRelative = GCNPROBE_PROBES_INSTALL_RELATIVE;
  search.sourceDir = GCNPROBE_PROBES_SOURCE_DIR;
  return findProbesDir(search);
}

}  // namespace gcn::probe
