// A consumer of the installed gcnprobe reference model: loads one element of a buffer format
// from memory words and prints each component's register bits, as `gcnprobe convert --gen GEN
// --dfmt DFMT --nfmt NFMT --load WORDS` prints them (its first two columns).
//   gcnprobe-reference-oracle GEN DFMT NFMT WORD...   e.g. gfx8 8_8_8_8 unorm 0x80402010
// Built against an installed tree (docs/library.md): with CMake's find_package(gcnprobe) or
// with pkg-config's gcnprobe-reference.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "reference/convert.h"
#include "reference/error.h"
#include "reference/format.h"
#include "reference/gen.h"
#include "reference/policy.h"

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s GEN DFMT NFMT WORD...\n", argv[0]);
    return 2;
  }
  try {
    const gcn::Gen gen = gcn::parseAnyChip(argv[1]).gen;
    const gcn::Dfmt dfmt = gcn::parseDfmt(argv[2]);
    const gcn::Nfmt nfmt = gcn::parseNfmt(argv[3], gen);
    std::vector<uint8_t> bytes;
    for (int i = 4; i < argc; ++i) {
      const auto word = static_cast<uint32_t>(std::stoul(argv[i], nullptr, 0));
      for (int b = 0; b < 4; ++b)
        bytes.push_back(static_cast<uint8_t>(word >> (8 * b)));
    }
    bytes.resize(gcn::dfmtInfo(dfmt).bytes);
    const gcn::LoadedElement e =
        gcn::loadElement(gen, dfmt, nfmt, bytes, gcn::Policies::defaults(gen));
    static constexpr char kNames[] = "XYZW";
    for (unsigned k = 0; k < e.count; ++k) {
      if (e.reg[k])
        std::printf("%c 0x%08x\n", kNames[k], *e.reg[k]);
      else
        std::printf("%c undefined\n", kNames[k]);
    }
  } catch (const gcn::Error& error) {  // thrown by the library, caught here: its type crosses
    std::fprintf(stderr, "error: %s\n", error.what());
    return 2;
  }
  return 0;
}
