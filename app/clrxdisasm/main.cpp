// gcnprobe-clrxdisasm: the stand-in for CLRX's disassembler that ACO runs on gfx6/7 (one
// popen per pipeline, docs/isa.md). A program of its own, linked only to the reference model and
// the listing writer, so that a pipeline costs the start of a small program, not of gcnprobe
// with its Vulkan loader and debug information.
#include <cstdio>
#include <exception>
#include <string_view>
#include <vector>

#include "harness/isa/clrx_listing.h"

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    return gcnprobe::isa::clrxDisasmMain(args, stdout);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gcnprobe-clrxdisasm: %s\n", e.what());
    return 2;
  }
}
