// Small text helpers shared by every parser in the project (formats, V#, assembler, chips,
// probe files, suites): ASCII case folding and unsigned numbers in decimal or 0x-hex.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gcn {

std::string asciiLower(std::string_view s);
std::string asciiUpper(std::string_view s);
// Decimal or 0x/0X hexadecimal, the whole text, no sign; false when malformed or too large.
bool parseUnsigned(std::string_view s, uint64_t& value);

}  // namespace gcn
