// Suites: named generators of cases. A suite builds its cases for the chip whose reference
// predicts them (the V# layout and NUM_RECORDS units depend on the generation).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/run/case.h"
#include "reference/gen.h"

namespace gcnprobe::run {

// Suite names, the default one first.
std::vector<std::string> suiteNames();

// All cases of `suite` ("" = every suite) whose name matches `filter` (a glob with * and
// ?; "" = all). Throws gcn::Error for an unknown suite.
std::vector<Case> buildCases(std::string_view suite, std::string_view filter,
                             const gcn::Chip& chip);

// The texel suite: BUFFER_LOAD_FORMAT_{X..XYZW} through uniform and storage texel buffers
// and BUFFER_STORE_FORMAT_XYZW through storage texel buffers, on every table format that
// has a texel-buffer V# (harness/formats.h).
std::vector<Case> texelSuite(const gcn::Chip& chip);

// The storage suite (suite_storage.cpp): BUFFER_LOAD/STORE_<type> through an SSBO.
std::vector<Case> storageSuite(const gcn::Chip& chip);
// The atomic suite (suite_atomic.cpp): BUFFER_ATOMIC_* on SSBOs and R32 texel buffers.
std::vector<Case> atomicSuite(const gcn::Chip& chip);
// The vertex suite (suite_vertex.cpp): TBUFFER_LOAD_FORMAT_* / BUFFER_LOAD_DWORD* through a
// vertex attribute, every format with a vertex fetch instruction.
std::vector<Case> vertexSuite(const gcn::Chip& chip);

// Elements in each texel case's view; lanes index in range, at the last element and past
// the end (see suite.cpp).
inline constexpr uint32_t kTexelElements = 48;

// The assembler text of a case's instruction (gcn::printInstruction, llvm-mc syntax):
// "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen".
std::string instructionText(gcn::Gen gen, const gcn::Instruction& inst);

}  // namespace gcnprobe::run
