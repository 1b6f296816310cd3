// Where the shipped probe files (probes/*.probe) are, for the installed program and for the
// build tree alike. The one place that decides it; docs/install.md describes the order.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace gcn::probe {

// The places searched, in order. `env` is $GCNPROBE_PROBES_DIR (nullopt when unset or
// empty), `exe` the running program (/proc/self/exe; empty when unknown), `installRelative`
// the probe folder's path relative to the program's folder once installed
// ("../share/gcnprobe/probes"), `sourceDir` the source tree's probes/ (compiled in).
struct ProbesDirSearch {
  std::optional<std::string> env;
  std::filesystem::path exe;
  std::filesystem::path installRelative;
  std::filesystem::path sourceDir;
};

// The first of: `env` when set (taken as given, even when it does not exist, so that a
// mistyped variable is reported instead of silently replaced); <folder of exe>/installRelative
// when it is a directory; sourceDir when it is a directory. Throws gcn::InfraError naming
// every place searched when none is (an installation without its probes).
std::filesystem::path findProbesDir(const ProbesDirSearch& search);

// findProbesDir with this process's $GCNPROBE_PROBES_DIR, /proc/self/exe and the paths
// compiled in.
std::filesystem::path shippedProbesDir();

}  // namespace gcn::probe
