#include "app/clrx_dir.h"

#include <stdlib.h>

#include <fstream>

#include "reference/error.h"

namespace gcnprobe::app {
namespace fs = std::filesystem;
namespace {

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

ClrxDir::ClrxDir() {
  std::string tmpl = (fs::temp_directory_path() / "gcnprobe-isa-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) throw gcn::Error("cannot create a temp dir in " + tmpl);
  dir_ = tmpl;
  const fs::path script = dir_ / "clrxdisasm";
  std::ofstream(script) << "#!/bin/sh\nexec " << shellQuote(fs::read_symlink("/proc/self/exe"))
                        << " _clrxdisasm \"$@\"\n";
  fs::permissions(script, fs::perms::owner_all);
}

ClrxDir::~ClrxDir() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string ClrxDir::prependTo(const char* current) const {
  std::string out = dir_.string();
  if (current != nullptr && *current != '\0') {
    out += ':';
    out += current;
  }
  return out;
}

std::unique_ptr<ClrxDir> prepareBinaryRoute() {
  setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
  auto clrx = std::make_unique<ClrxDir>();
  setenv("PATH", clrx->prependTo(std::getenv("PATH")).c_str(), 1);
  return clrx;
}

}  // namespace gcnprobe::app
