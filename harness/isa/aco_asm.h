// ACO's "Assembly" text (VK_KHR_pipeline_executable_properties on RADV) as data: one entry
// per instruction with the driver's text and the encoded words it printed after ';'.
// Format (Mesa 22.3.6 aco_print_asm.cpp, print_instr): "<text padded to 60> ; <8-hex-digit
// words>", plus "BB<n>:" block labels, "(then repeated N times)" and a trailing
// "/* constant data */" section, which carry no instruction.
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

// Throws gcn::Error (Place{"ACO assembly", line, column}) for an instruction line whose
// words are not 8-digit hex numbers.
std::vector<AsmInstruction> parseAcoAssembly(std::string_view text);

// The mnemonic of an instruction text: its first token, lower case.
std::string mnemonicOf(std::string_view text);

}  // namespace gcnprobe::isa
