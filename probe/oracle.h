// The streaming oracle (`gcnprobe oracle`, docs/oracle.md): one JSON object per input line is a
// query (the instruction as text or words; the chip or generation; the V# as words or fields;
// per-lane VGPRs and SGPRs; memory; policy overrides), and one JSON object per output line is
// the reference model's answer: per lane the registers written (a value, or null with the
// reason where the model claims none), the accesses, the memory the instruction wrote with each
// write marked claimed or not, and on request every policy option whose prediction differs. A
// line that is not a valid query gets {"ok": false, "error": ...} naming the field, and the
// stream goes on. Pure C++ over reference/ (no Vulkan).
#pragma once

#include <string>
#include <string_view>

namespace gcn::probe {

// The answer to one line (without its newline). Never throws.
std::string answerOracleLine(std::string_view line);

}  // namespace gcn::probe
