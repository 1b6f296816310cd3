// llvm-mc (Debian's llvm package, 14) as an independent oracle for tests: one run over a
// temp file of lines, stdout split into lines. Header-only; tests that need it skip when
// llvm-mc is not on PATH.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gcntest {

inline bool haveLlvmMcTool() {
  return std::system("llvm-mc --version >/dev/null 2>&1") == 0;
}

// Runs `llvm-mc -arch=amdgcn -mcpu=<cpu> <flags>` over `lines`; returns stdout's lines.
inline std::vector<std::string> runLlvmMc(const std::string& cpu, const std::string& flags,
                                          const std::vector<std::string>& lines) {
  static int serial = 0;
  const auto dir = std::filesystem::temp_directory_path();
  const std::string stem =
      "gcnprobe_mc_" + std::to_string(::getpid()) + "_" + cpu + "_" + std::to_string(serial++);
  const auto in = dir / (stem + ".s"), out = dir / (stem + ".out");
  {
    std::ofstream f(in);
    for (const std::string& l : lines)
      f << l << "\n";
  }
  const std::string cmd = "llvm-mc -arch=amdgcn -mcpu=" + cpu + " " + flags + " " + in.string() +
                          " >" + out.string() + " 2>/dev/null";
  (void)std::system(cmd.c_str());
  std::vector<std::string> result;
  std::ifstream f(out);
  for (std::string l; std::getline(f, l);)
    result.push_back(l);
  std::filesystem::remove(in);
  std::filesystem::remove(out);
  return result;
}

// "0x0a,0x00,0xc9,0xd1" for llvm-mc -disassemble, from little-endian dwords.
inline std::string mcBytes(const std::vector<uint32_t>& words) {
  std::string s;
  char buf[8];
  for (uint32_t w : words)
    for (int b = 0; b < 4; ++b) {
      std::snprintf(buf, sizeof buf, "%s0x%02x", s.empty() ? "" : ",", (w >> (8 * b)) & 0xff);
      s += buf;
    }
  return s;
}

}  // namespace gcntest
