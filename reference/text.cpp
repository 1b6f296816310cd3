#include "reference/text.h"

#include <cctype>
#include <charconv>
#include <cstdio>

namespace gcn {

std::string asciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string asciiUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool parseUnsigned(std::string_view s, uint64_t& value) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  return ec == std::errc() && p == s.data() + s.size();
}

std::string_view trimSpace(std::string_view s) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && space(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && space(s.back()))
    s.remove_suffix(1);
  return s;
}

std::size_t firstInvalidUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      ++i;
      continue;
    }
    // Lead byte: length and the allowed range of the second byte (RFC 3629, section 4).
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      len = 2;
    } else if (b >= 0xe0 && b <= 0xef) {
      len = 3;
      if (b == 0xe0) lo = 0xa0;  // overlong
      if (b == 0xed) hi = 0x9f;  // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      len = 4;
      if (b == 0xf0) lo = 0x90;  // overlong
      if (b == 0xf4) hi = 0x8f;  // above U+10FFFF
    } else {
      return i;
    }
    if (i + len > s.size()) return i;
    for (std::size_t k = 1; k < len; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xbf)) return i;
    }
    i += len;
  }
  return std::string_view::npos;
}

std::string hexWord(uint32_t w) {
  return hexNumber(w, 8);
}

std::string hexNumber(uint64_t x, unsigned minDigits) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, 16);
  (void)ec;  // 16 hex digits always fit
  const std::string digits(buf, end);
  return "0x" + std::string(minDigits > digits.size() ? minDigits - digits.size() : 0, '0') +
         digits;
}

std::string hexDigits(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

std::string hexWordList(std::span<const uint32_t> words) {
  std::string s;
  for (uint32_t w : words) {
    if (!s.empty()) s += ' ';
    s += hexWord(w).substr(2);
  }
  return s;
}

std::string hexElement(std::span<const uint8_t> bytes) {
  std::string s = "0x";
  for (std::size_t i = bytes.size(); i-- > 0;)
    s += hexDigits(bytes.subspan(i, 1));
  return s;
}

}  // namespace gcn
