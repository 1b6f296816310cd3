// ACO disassembles gfx6/7 code by running `clrxdisasm` from PATH (Mesa's aco_print_asm.cpp),
// once per pipeline; without it RADV returns no Assembly text for those chips. gcnprobe carries
// its own stand-in (harness/isa/clrx_listing.h): ClrxDir is a temp dir holding a `clrxdisasm`
// that is a link to the small gcnprobe-clrxdisasm program, found beside the gcnprobe program
// (the build tree) or in its installed place (GCNPROBE_CLRX_INSTALL_RELATIVE, libexec). Only
// where neither exists is it a script that runs this program's hidden `_clrxdisasm`: the same
// listing, at the cost of starting gcnprobe itself for every pipeline. Removed on destruction.
// Making one also sets GCNPROBE_CLRX_IN_PROCESS=1 (unless set already): the gcnprobe program
// then answers ACO's commands itself, without a process (app/clrxdisasm/in_process.cpp), and
// the PATH entry serves any other program.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace gcnprobe::app {

// The gcnprobe-clrxdisasm program for the gcnprobe program at `self`: beside it, then at the
// installed place relative to it; nullopt when neither is an executable file.
std::optional<std::filesystem::path> findClrxHelper(const std::filesystem::path& self);

class ClrxDir {
 public:
  // `program`: the gcnprobe program whose stand-in to use (default: this process's own).
  // Throws gcn::Error when the temp dir cannot be made.
  explicit ClrxDir(const std::filesystem::path& program = "/proc/self/exe");
  ~ClrxDir();
  ClrxDir(const ClrxDir&) = delete;
  ClrxDir& operator=(const ClrxDir&) = delete;
  const std::filesystem::path& path() const { return dir_; }
  // `path()` in front of `current` (a PATH value, possibly empty).
  std::string prependTo(const char* current) const;
  // True when `clrxdisasm` there is the small program, false when it is the fallback script.
  bool usesHelper() const { return helper_; }

 private:
  std::filesystem::path dir_;
  bool helper_ = false;
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
