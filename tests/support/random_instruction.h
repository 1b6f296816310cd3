// Random valid MUBUF/MTBUF instructions for the encoding, assembler and llvm-mc tests; defined
// in tests/reference/encoding_test.cpp.
#pragma once

#include <random>
#include <vector>

#include "reference/gen.h"
#include "reference/opcodes.h"

namespace gcntest {

// Every opcode of the table that exists on the generation.
std::vector<const gcn::OpcodeInfo*> opcodesOn(gcn::Gen gen);
// A random valid instruction of `op` on `gen`: every field and modifier that validate() allows
// there, with the corner values (offset 0/4095, v255, last SRSRC) overweighted.
gcn::Instruction randomInstruction(gcn::Gen gen, const gcn::OpcodeInfo& op, std::mt19937& rng);

}  // namespace gcntest
