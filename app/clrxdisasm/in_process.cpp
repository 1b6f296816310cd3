// The clrxdisasm stand-in without a process, inside the gcnprobe program. ACO asks for it with
// system("clrxdisasm --version") and popen("clrxdisasm --gpuType=<chip> -r <file>", "r") once per
// gfx6/7 pipeline (Mesa's aco_print_asm.cpp); starting even the small gcnprobe-clrxdisasm costs
// two processes each time, about 3 s of `isa` on one gfx6/7 chip and far more under the
// sanitizers. The program defines popen, pclose and system itself and exports them
// (app/CMakeLists.txt), so the driver's calls reach these first (ELF symbol interposition):
// when GCNPROBE_CLRX_IN_PROCESS is 1 (app/clrx_dir.h sets it where the stand-in is on PATH), a
// clrxdisasm command is answered here with the same listing the small program prints
// (isa::clrxDisasmMain); every other command, and a clrxdisasm command the stand-in cannot
// answer (it then reports why), goes to the C library's own function.
#include <dlfcn.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <set>
#include <string_view>
#include <vector>

#include "harness/isa/clrx_listing.h"

namespace {

constexpr std::string_view kCommand = "clrxdisasm ";

bool inProcess(const char* command) {
  const char* on = std::getenv("GCNPROBE_CLRX_IN_PROCESS");
  return on != nullptr && std::strcmp(on, "1") == 0 && command != nullptr &&
         std::string_view(command).starts_with(kCommand);
}

// The words after the program name, split at spaces (ACO's command has no quoting: a chip name
// and a mkstemp path).
std::vector<std::string_view> argumentsOf(std::string_view command) {
  std::vector<std::string_view> args;
  command.remove_prefix(kCommand.size());
  while (!command.empty()) {
    const std::size_t start = command.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    command.remove_prefix(start);
    const std::size_t end = command.find(' ');
    args.push_back(command.substr(0, end));
    command.remove_prefix(end == std::string_view::npos ? command.size() : end);
  }
  return args;
}

template <class F>
F next(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

std::mutex streamsLock;
// The popen results answered here, until their pclose. Never destroyed: a driver thread may
// still call pclose while the program exits.
std::set<FILE*>& ourStreams() {
  static auto* streams = new std::set<FILE*>;
  return *streams;
}

}  // namespace

extern "C" FILE* popen(const char* command, const char* type) {
  if (inProcess(command) && type != nullptr && type[0] == 'r') {
    if (FILE* listing = std::tmpfile()) {
      int rc = 2;
      try {
        rc = gcnprobe::isa::clrxDisasmMain(argumentsOf(command), listing);
      } catch (const std::exception&) {  // the small program will say what is wrong
      }
      if (rc == 0 && std::fseek(listing, 0, SEEK_SET) == 0) {
        const std::lock_guard<std::mutex> hold(streamsLock);
        ourStreams().insert(listing);
        return listing;
      }
      std::fclose(listing);
    }
  }
  static const auto real = next<FILE* (*)(const char*, const char*)>("popen");
  if (real == nullptr) {
    errno = ENOSYS;
    return nullptr;
  }
  FILE* stream = real(command, type);
  if (stream != nullptr) {  // an address of one of ours closed with fclose, now a real pipe
    const std::lock_guard<std::mutex> hold(streamsLock);
    ourStreams().erase(stream);
  }
  return stream;
}

extern "C" int pclose(FILE* stream) {
  {
    const std::lock_guard<std::mutex> hold(streamsLock);
    if (ourStreams().erase(stream) == 1) return std::fclose(stream) == 0 ? 0 : -1;
  }
  static const auto real = next<int (*)(FILE*)>("pclose");
  if (real == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  return real(stream);
}

extern "C" int system(const char* command) {
  // ACO (and RADV 25, once per device) only ask whether the disassembler is there, with the
  // output thrown away or not.
  if (inProcess(command)) {
    const std::string_view c(command);
    if (c == "clrxdisasm --version" || c == "clrxdisasm --version > /dev/null" ||
        c == "clrxdisasm --version > /dev/null 2>&1")
      return 0;
  }
  static const auto real = next<int (*)(const char*)>("system");
  if (real == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  return real(command);
}
