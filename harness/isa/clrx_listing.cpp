#include "harness/isa/clrx_listing.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

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

int clrxDisasmMain(std::span<const std::string_view> args, std::FILE* out) {
  bool raw = false;
  std::string_view gpuType;
  std::vector<std::string_view> files;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--version") return 0;
    if (a == "-r" || a == "--raw") {
      raw = true;
    } else if (a.starts_with("--gpuType=")) {
      gpuType = a.substr(10);
    } else if (a == "-g" || a == "--gpuType") {
      if (i + 1 == args.size())
        throw gcn::Error(gcn::Place{std::string(a), 0, 0}, "needs a GPU type");
      gpuType = args[++i];
    } else if (!a.empty() && a[0] == '-') {
      throw gcn::Error(gcn::Place{std::string(a), 0, 0},
                       "not an option of the clrxdisasm stand-in (it takes `--gpuType=<chip> -r "
                       "<file>` and `--version`)");
    } else {
      files.push_back(a);
    }
  }
  if (!raw || files.size() != 1 || gpuType.empty())
    throw gcn::Error("clrxdisasm stand-in: only `--gpuType=<chip> -r <file>` is supported");
  const gcn::Gen gen = clrxGpuTypeGen(gpuType);
  const std::string file(files[0]);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw gcn::Error(gcn::Place{file, 0, 0}, "cannot open");
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  if (bytes.size() % 4 != 0)
    throw gcn::Error(gcn::Place{file, 0, 0},
                     "size " + std::to_string(bytes.size()) + " is not a whole number of dwords");
  std::vector<uint32_t> words(bytes.size() / 4);
  for (std::size_t i = 0; i < words.size(); ++i)  // ACO writes the dwords little-endian
    for (unsigned b = 0; b < 4; ++b)
      words[i] |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[i * 4 + b])) << (8 * b);
  const std::string listing = clrxListing(gen, words);
  std::fwrite(listing.data(), 1, listing.size(), out);
  return std::fflush(out) == 0 ? 0 : 1;
}

}  // namespace gcnprobe::isa
