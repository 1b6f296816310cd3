// Small text helpers shared by every parser in the project (formats, V#, assembler, chips,
// probe files, suites): ASCII case folding and unsigned numbers in decimal or 0x-hex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gcn {

std::string asciiLower(std::string_view s);
std::string asciiUpper(std::string_view s);
// Decimal or 0x/0X hexadecimal, the whole text, no sign; false when malformed or too large.
bool parseUnsigned(std::string_view s, uint64_t& value);
// `s` without leading and trailing ASCII white space (space, \t, \n, \v, \f, \r).
std::string_view trimSpace(std::string_view s);
// The byte offset where `s` stops being well-formed UTF-8 (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or npos when all of it is. JSON output must be UTF-8.
std::size_t firstInvalidUtf8(std::string_view s);
// The one home of hex text in the project:
// `w` as 0x and eight lower-case hex digits ("0x0000001f"): instruction and V# words.
std::string hexWord(uint32_t w);
// `x` as 0x and as few lower-case hex digits as it needs, at least `minDigits` ("0x1f", "0x0";
// hexNumber(0x1f, 4) is "0x001f").
std::string hexNumber(uint64_t x, unsigned minDigits = 0);
// Words as eight lower-case hex digits each, no prefix, blank-separated ("e00c2000 80020401"):
// instruction words as listings print them, V# dwords.
std::string hexWordList(std::span<const uint32_t> words);
// Each byte as two lower-case hex digits, in order, no prefix ("0a1b"): memory as stored.
std::string hexDigits(std::span<const uint8_t> bytes);
// A little-endian element as one number: 0x and its bytes from the last to the first
// ({0x34, 0x12} is "0x1234").
std::string hexElement(std::span<const uint8_t> bytes);

}  // namespace gcn
