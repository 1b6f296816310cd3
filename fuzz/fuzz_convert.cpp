// `gcnprobe convert`'s argument parsing and conversions: the input is the argument list,
// NUL-separated. Bad arguments must be a gcn::Error (exit 2) or a CLI11 parse error.
#include <cstdio>
#include <string>
#include <vector>

#include "app/commands.h"
#include "fuzz/fuzz_common.h"
#include "reference/error.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The command prints its answer; the fuzzer needs none of it.
  if (std::freopen("/dev/null", "w", stdout) == nullptr) return 0;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"gcnprobe", "convert"};
  std::string cur;
  for (size_t i = 0; i < size && args.size() < 32; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(data[i]);
    }
  }
  args.push_back(cur);
  std::vector<char*> argv;
  for (std::string& a : args)
    argv.push_back(a.data());
  CLI::App app{"gcnprobe"};
  app.require_subcommand(1);
  gcnprobe::app::Context ctx;
  gcnprobe::app::addConvertCommand(app, ctx);
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::Error&) {
  } catch (const gcn::Error&) {
  }
  return 0;
}
