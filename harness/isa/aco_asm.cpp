#include "harness/isa/aco_asm.h"

#include <cctype>
#include <charconv>
#include <optional>
#include <string>

#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::isa {
namespace {

bool isHexWord(std::string_view t) {
  if (t.size() != 8) return false;
  for (char c : t)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "BB12:"
bool isBlockLabel(std::string_view t) {
  if (t.size() < 4 || t.substr(0, 2) != "BB" || t.back() != ':') return false;
  for (char c : t.substr(2, t.size() - 3))
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "(then repeated 7 times)" -> 7.
std::optional<unsigned> repeatCount(std::string_view t) {
  constexpr std::string_view kHead = "(then repeated ", kTail = " times)";
  if (t.size() <= kHead.size() + kTail.size() || t.substr(0, kHead.size()) != kHead ||
      t.substr(t.size() - kTail.size()) != kTail)
    return std::nullopt;
  const std::string_view digits = t.substr(kHead.size(), t.size() - kHead.size() - kTail.size());
  unsigned n = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (r.ec != std::errc{} || r.ptr != digits.data() + digits.size() || n > 1u << 20)
    return std::nullopt;
  return n;
}

}  // namespace

std::vector<AsmInstruction> parseAcoAssembly(std::string_view text, std::string_view source) {
  std::vector<AsmInstruction> out;
  bool constantData = false;
  int lineNo = 0;
  const auto fail = [&](int column, const std::string& why) {
    throw gcn::Error(gcn::Place{std::string(source), lineNo, column}, why);
  };
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++lineNo;
    const std::string_view t = gcn::trimSpace(line);
    // Everything after the constant-data marker is data, not code (print_constant_data).
    if (t.rfind("/* constant data */", 0) == 0) constantData = true;
    if (constantData || t.empty()) continue;
    if (isBlockLabel(t)) continue;
    if (const std::optional<unsigned> n = repeatCount(t)) {
      if (out.empty()) fail(1, "'" + std::string(t) + "' follows no instruction");
      const AsmInstruction prev = out.back();
      for (unsigned k = 0; k < *n; ++k) {
        out.push_back(prev);
        out.back().line = lineNo;
      }
      continue;
    }
    const auto semi = line.rfind(';');
    if (semi == std::string_view::npos)
      fail(1,
           "line of no known shape (not an instruction '<text> ; <words>', a block label or "
           "a repeat marker): '" +
               std::string(t) + "'");
    AsmInstruction ins;
    ins.line = lineNo;
    ins.text = std::string(gcn::trimSpace(line.substr(0, semi)));
    std::size_t pos = semi + 1;
    while (pos < line.size()) {
      while (pos < line.size() && line[pos] == ' ')
        ++pos;
      if (pos >= line.size()) break;
      std::size_t end = line.find(' ', pos);
      if (end == std::string_view::npos) end = line.size();
      const std::string_view tok = gcn::trimSpace(line.substr(pos, end - pos));
      if (!isHexWord(tok))
        fail(
            static_cast<int>(pos) + 1,
            "expected an 8-digit hex instruction word after ';', found '" + std::string(tok) + "'");
      ins.words.push_back(static_cast<uint32_t>(std::stoul(std::string(tok), nullptr, 16)));
      pos = end;
    }
    if (ins.words.empty())
      fail(static_cast<int>(semi) + 1, "instruction '" + ins.text + "' has no words after ';'");
    out.push_back(std::move(ins));
  }
  return out;
}

std::string mnemonicOf(std::string_view text) {
  text = gcn::trimSpace(text);
  std::size_t end = 0;
  while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])))
    ++end;
  return gcn::asciiLower(text.substr(0, end));
}

}  // namespace gcnprobe::isa
