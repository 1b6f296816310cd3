// ACO disassembles gfx6/7 code by running `clrxdisasm` from PATH (Mesa's aco_print_asm.cpp);
// without it RADV returns no Assembly text for those chips. gcnprobe carries its own stand-in
// (the hidden `_clrxdisasm` command, harness/isa/clrx_listing.h): ClrxDir is a temp dir
// holding a `clrxdisasm` script that runs it, removed on destruction.
#pragma once

#include <filesystem>
#include <string>

namespace gcnprobe::app {

class ClrxDir {
 public:
  ClrxDir();  // throws gcn::Error when the temp dir cannot be made
  ~ClrxDir();
  ClrxDir(const ClrxDir&) = delete;
  ClrxDir& operator=(const ClrxDir&) = delete;
  const std::filesystem::path& path() const { return dir_; }
  // `path()` in front of `current` (a PATH value, possibly empty).
  std::string prependTo(const char* current) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace gcnprobe::app
