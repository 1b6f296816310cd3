// ACO's "Assembly" text (VK_KHR_pipeline_executable_properties on RADV) as data: one entry
// per instruction with the driver's text and the encoded words it printed after ';'.
// The shapes Mesa's src/amd/compiler/aco_print_asm.cpp prints (22.3 and 25 alike):
//   "<text padded to 60> ; <8-hex-digit words>"  one instruction (print_instr)
//   "BB<n>:"                                      a block label
//   "(then repeated N times)"                     the previous instruction N more times
//   "/* constant data */" and "[nnnnnn] words"    data after the code (print_constant_data)
// Any other line is an error naming the listing's source (driver and version) and the line:
// a listing gcnprobe cannot read must never turn into a silently shorter instruction stream.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gcnprobe::isa {

struct AsmInstruction {
  int line = 0;                 // 1-based line in the text
  std::string text;             // the driver's instruction text, trimmed
  std::vector<uint32_t> words;  // the encoded dwords, in order
};

// `source` names the listing in errors ("RADV Mesa 25.0.7 (compute) assembly"). Repeat markers
// are expanded: each copy is an entry of its own with the marker's line. Throws gcn::Error
// (Place{source, line, column}) for a line of no known shape, words that are not 8-digit hex
// numbers, or a repeat marker with no instruction before it.
std::vector<AsmInstruction> parseAcoAssembly(std::string_view text,
                                             std::string_view source = "ACO assembly");

// The mnemonic of an instruction text: its first token, lower case.
std::string mnemonicOf(std::string_view text);

}  // namespace gcnprobe::isa
