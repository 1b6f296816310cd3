// The assembler on arbitrary text. What it accepts must round-trip as the headers promise:
// encode -> decode -> encode gives the same words, and printInstruction's text assembles
// to them again.
#include <array>

#include "fuzz/fuzz_common.h"
#include "reference/assembler.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/opcodes.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gcnprobe::fuzz;
  const gcn::Gen gen = takeGen(data, size);
  const std::string_view text = asText(data, size);
  gcn::Instruction inst;
  try {
    inst = gcn::parseInstruction(gen, text);
    gcn::validate(gen, inst);
  } catch (const gcn::Error&) {
    return 0;
  }
  std::array<uint32_t, 2> words{};
  try {
    words = gcn::encode(gen, inst);
  } catch (const gcn::Error&) {
    return 0;  // e.g. a field the encoding cannot hold: refused, not mis-encoded
  }
  const gcn::Instruction back = gcn::decode(gen, words[0], words[1]);
  check(gcn::encode(gen, back) == words, "encode(decode(w)) == w", std::string(text));
  const std::string printed = gcn::printInstruction(gen, back);
  check(gcn::encode(gen, gcn::parseInstruction(gen, printed)) == words,
        "asm(print(decode(w))) == w", std::string(text) + " -> " + printed);
  return 0;
}
