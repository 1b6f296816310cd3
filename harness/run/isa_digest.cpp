#include "harness/run/isa_digest.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "harness/isa/aco_asm.h"
#include "reference/error.h"

namespace gcnprobe::run {
namespace {

// Little-endian bytes of a number: the digest does not depend on the host's byte order.
void addNumber(std::string& out, uint64_t v, unsigned bytes) {
  for (unsigned k = 0; k < bytes; ++k)
    out += static_cast<char>((v >> (8 * k)) & 0xff);
}

// A listing gcnprobe cannot read as words: its lines, blanks collapsed, empty lines dropped.
std::string normalisedText(std::string_view text) {
  std::string out;
  bool blank = false, lineStart = true;
  for (const char ch : text) {
    if (ch == '\n' || ch == '\r') {
      if (!lineStart) out += '\n';
      lineStart = true;
      blank = false;
    } else if (std::isspace(static_cast<unsigned char>(ch))) {
      blank = true;
    } else {
      if (blank && !lineStart) out += ' ';
      out += ch;
      lineStart = false;
      blank = false;
    }
  }
  if (!lineStart) out += '\n';
  return out;
}

}  // namespace

uint64_t fnv1a64(std::string_view bytes, uint64_t state) {
  for (const char c : bytes) {
    state ^= static_cast<unsigned char>(c);
    state *= 0x100000001b3ull;
  }
  return state;
}

std::optional<std::string> isaDigest(const routes::PipelineIsa& isa) {
  // Executables in stage order (the driver lists them in a fixed order; this only makes the
  // digest independent of it).
  std::vector<const vk::ExecutableIsa*> exes;
  for (const vk::ExecutableIsa& e : isa.executables)
    exes.push_back(&e);
  std::stable_sort(exes.begin(), exes.end(),
                   [](const auto* a, const auto* b) { return a->stages < b->stages; });
  bool any = false;
  std::string bytes;
  for (const vk::ExecutableIsa* e : exes) {
    if (!e->assembly.empty()) any = true;
    // Every field is length-prefixed, so no two different streams give the same bytes.
    bytes += "exe";
    addNumber(bytes, e->stages, 4);
    try {
      const std::vector<isa::AsmInstruction> code = isa::parseAcoAssembly(e->assembly);
      bytes += "words";
      addNumber(bytes, code.size(), 8);
      for (const isa::AsmInstruction& ins : code) {
        addNumber(bytes, ins.words.size(), 4);
        for (const uint32_t w : ins.words)
          addNumber(bytes, w, 4);
      }
    } catch (const gcn::Error&) {
      const std::string t = normalisedText(e->assembly);
      bytes += "text";
      addNumber(bytes, t.size(), 8);
      bytes += t;
    }
  }
  if (!any) return std::nullopt;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(bytes)));
  return std::string(hex);
}

}  // namespace gcnprobe::run
