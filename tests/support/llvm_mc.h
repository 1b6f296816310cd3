// llvm-mc (Debian's llvm package, 14; llvm-mc-15 for RDNA) as an independent oracle for tests:
// one run over a temp file of lines, stdout split into lines. Header-only; tests that need it skip
// when llvm-mc is not on PATH.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "reference/gen.h"

namespace gcntest {

// llvm-mc's -mcpu for a generation: its representative chip's (tahiti, bonaire, tonga, gfx900).
inline std::string mcCpu(gcn::Gen gen) {
  return std::string(gcn::representativeChip(gen).llvmCpu);
}

inline bool haveLlvmMcTool() {
  return std::system("llvm-mc --version >/dev/null 2>&1") == 0;
}

// The llvm-mc that knows the CPU: Debian's llvm-mc (14) for GCN, llvm-mc-15 (the first with
// GFX11) for the RDNA CPUs (gfx10xx, gfx11xx).
inline std::string mcToolFor(const std::string& cpu) {
  return cpu.rfind("gfx1", 0) == 0 && cpu.size() >= 7 ? "llvm-mc-15" : "llvm-mc";
}
inline bool haveLlvmMc15Tool() {
  return std::system("llvm-mc-15 --version >/dev/null 2>&1") == 0;
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
  const std::string cmd = mcToolFor(cpu) + " -arch=amdgcn -mcpu=" + cpu + " " + flags + " " +
                          in.string() + " >" + out.string() + " 2>/dev/null";
  (void)std::system(cmd.c_str());
  std::vector<std::string> result;
  std::ifstream f(out);
  for (std::string l; std::getline(f, l);)
    result.push_back(l);
  std::filesystem::remove(in);
  std::filesystem::remove(out);
  return result;
}

// The little-endian dwords llvm-mc -show-encoding gives each line it assembles, in order (a
// line it rejects gives none, so callers compare the count).
inline std::vector<std::vector<uint32_t>> assembleEach(const std::string& cpu,
                                                       const std::vector<std::string>& lines) {
  std::vector<std::vector<uint32_t>> out;
  const std::regex enc(R"(encoding: \[([^\]]*)\])");
  for (const std::string& l : runLlvmMc(cpu, "-show-encoding", lines)) {
    std::smatch m;
    if (!std::regex_search(l, m, enc)) continue;
    const std::string bytes = m[1];
    std::vector<uint32_t> b, w;
    for (std::size_t p = 0; (p = bytes.find("0x", p)) != std::string::npos; p += 2)
      b.push_back(static_cast<uint32_t>(std::stoul(bytes.substr(p + 2, 2), nullptr, 16)));
    for (std::size_t k = 0; k + 3 < b.size(); k += 4)
      w.push_back(b[k] | b[k + 1] << 8 | b[k + 2] << 16 | b[k + 3] << 24);
    out.push_back(w);
  }
  return out;
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

// Disassembles each encoding (an s_nop 7 marker after it splits llvm-mc's output) and returns
// the text llvm-mc printed for it: "" where it printed nothing (an encoding it rejects) or more
// than one instruction (it read the words some other way).
inline std::vector<std::string> disassembleEach(const std::string& cpu,
                                                const std::vector<std::vector<uint32_t>>& encs) {
  std::vector<std::string> lines;
  for (std::vector<uint32_t> w : encs) {
    w.push_back(0xbf800007u);  // s_nop 7
    lines.push_back(mcBytes(w));
  }
  std::vector<std::vector<std::string>> segments(1);
  for (const std::string& l : runLlvmMc(cpu, "-disassemble", lines)) {
    std::string t = l;
    t.erase(0, t.find_first_not_of(" \t"));
    if (t.empty() || t[0] == '.') continue;
    if (t.rfind("s_nop 7", 0) == 0) {
      segments.emplace_back();
      continue;
    }
    segments.back().push_back(t);
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < encs.size(); ++i)
    out.push_back(i < segments.size() && segments[i].size() == 1 ? segments[i][0] : "");
  return out;
}

}  // namespace gcntest
