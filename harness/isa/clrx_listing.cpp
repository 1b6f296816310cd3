#include "harness/isa/clrx_listing.h"

#include <cstdio>

#include "reference/assembler.h"
#include "reference/code_scan.h"
#include "reference/encoding.h"
#include "reference/error.h"

namespace gcnprobe::isa {
namespace {

std::string longs(std::span<const uint32_t> words) {
  std::string s = ".long ";
  char buf[16];
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s0x%08x", i == 0 ? "" : ", ", words[i]);
    s += buf;
  }
  return s;
}

std::string offsetTag(std::size_t dword) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "/*%012zx*/ ", dword * 4);
  return buf;
}

}  // namespace

std::string clrxListing(gcn::Gen gen, std::span<const uint32_t> words) {
  std::string out;
  for (std::size_t at = 0; at < words.size();) {
    std::string text;
    std::size_t len = 1;
    if (const std::optional<gcn::CodeInstruction> ci = gcn::tryScanInstruction(gen, words, at)) {
      len = ci->dwords;
      const auto span = words.subspan(at, len);
      text = longs(span) + " /* " + std::string(gcn::codeClassName(ci->cls)) + " */";
      if (gcn::isBufferClass(ci->cls)) {
        // Words the reference rejects stay raw: the ISA check reports them as undecodable.
        if (const std::optional<gcn::Instruction> inst = gcn::tryDecode(gen, span[0], span[1]))
          text = gcn::printInstruction(gen, *inst);
      }
    } else {
      len = 1;
      text = longs(words.subspan(at, 1)) + " /* unknown */";
    }
    out += offsetTag(at) + text + "\n";
    at += len;
  }
  return out;
}

gcn::Gen clrxGpuTypeGen(std::string_view gpuType) {
  // CLRX spells Verde "capeverde" (ACO's to_clrx_device_name); the chip table says "verde".
  if (gpuType == "capeverde") return gcn::Gen::Gfx6;
  try {
    return gcn::parseChip(gpuType).gen;
  } catch (const gcn::Error& e) {
    throw gcn::Error(gcn::Place{"--gpuType", 0, 0},
                     "unknown GPU type '" + std::string(gpuType) + "': " + e.reason());
  }
}

}  // namespace gcnprobe::isa
