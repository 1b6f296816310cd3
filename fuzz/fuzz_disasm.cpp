// The decoder on arbitrary words. What it accepts must re-encode to the same words and print
// as text that assembles to them (reference/encoding.h, reference/assembler.h).
#include <cstring>

#include "fuzz/fuzz_common.h"
#include "reference/assembler.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/opcodes.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gcnprobe::fuzz;
  const gcn::Gen gen = takeGen(data, size);
  if (size < 8) return 0;
  uint32_t w[2];
  std::memcpy(w, data, 8);
  gcn::Instruction inst;
  try {
    inst = gcn::decode(gen, w[0], w[1]);
  } catch (const gcn::Error&) {
    return 0;
  }
  // VADDR is a don't-care field when the address mode reads no VGPR: decoded as `off` and
  // re-encoded as 0, like llvm-mc (reference/encoding.h); so is VDATA (bits 8-15) of a GFX10
  // load to LDS, which names none. Every other bit must come back.
  uint32_t w1 = gcn::vaddrRegs(inst) == 0 ? w[1] & ~0xffu : w[1];
  if (gcn::isRdna(gen) && inst.lds) w1 &= ~0xff00u;
  const std::array<uint32_t, 2> words{w[0], w1};
  check(gcn::encode(gen, inst) == words, "encode(decode(w)) == w");
  const std::string text = gcn::printInstruction(gen, inst);
  check(gcn::encode(gen, gcn::parseInstruction(gen, text)) == words, "asm(disasm(w)) == w", text);
  return 0;
}
