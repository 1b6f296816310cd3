// ACO disassembles gfx6/7 code by running `clrxdisasm` from PATH (Mesa's aco_print_asm.cpp);
// without it RADV returns no Assembly text for those chips. gcnprobe carries its own stand-in
// (the hidden `_clrxdisasm` command, harness/isa/clrx_listing.h): ClrxDir is a temp dir
// holding a `clrxdisasm` script that runs it, removed on destruction.
#pragma once

#include <filesystem>
#include <memory>
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

// The process environment the binary route (harness/isa/binary_patch.h) needs, set before any
// device exists (child processes inherit it):
// - MESA_SHADER_CACHE_DISABLE=true: with Mesa's on-disk shader cache warm, RADV takes the
//   templates from it and puts no machine code into the application's pipeline cache;
// - the `clrxdisasm` stand-in on PATH: on gfx6/7 ACO disassembles through it, and the
//   templates' instructions are found in that text.
// The returned directory must outlive the device.
std::unique_ptr<ClrxDir> prepareBinaryRoute();

}  // namespace gcnprobe::app
