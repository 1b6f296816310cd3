#include "app/clrx_dir.h"

#include <stdlib.h>
#include <unistd.h>

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

bool isExecutableFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<fs::path> findClrxHelper(const fs::path& self) {
  const fs::path dir = self.parent_path();
  for (const fs::path& candidate :
       {dir / "gcnprobe-clrxdisasm", dir / GCNPROBE_CLRX_INSTALL_RELATIVE}) {
    if (isExecutableFile(candidate)) return candidate.lexically_normal();
  }
  return std::nullopt;
}

ClrxDir::ClrxDir(const fs::path& program) {
  // The program's real path (a rebuilt program's /proc/self/exe reads "... (deleted)": then no
  // helper is found beside it and the script below names that path).
  std::error_code ec;
  fs::path self = fs::canonical(program, ec);
  if (ec) self = fs::read_symlink(program, ec);
  if (ec) self = program;
  std::string tmpl = (fs::temp_directory_path() / "gcnprobe-isa-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) throw gcn::Error("cannot create a temp dir in " + tmpl);
  dir_ = tmpl;
  const fs::path link = dir_ / "clrxdisasm";
  if (const std::optional<fs::path> helper = findClrxHelper(self)) {
    fs::create_symlink(*helper, link, ec);
    helper_ = !ec;
  }
  // The gcnprobe program answers ACO's clrxdisasm commands without a process
  // (clrxdisasm/in_process.cpp) wherever this is set, in this process and its children; a user's
  // GCNPROBE_CLRX_IN_PROCESS=0 keeps the stand-in on PATH as the only one.
  setenv("GCNPROBE_CLRX_IN_PROCESS", "1", 0);
  if (!helper_) {
    std::ofstream(link) << "#!/bin/sh\nexec " << shellQuote(self) << " _clrxdisasm \"$@\"\n";
    fs::permissions(link, fs::perms::owner_all);
  }
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
