#include "harness/isa/aco_asm.h"

#include <cctype>

#include "reference/error.h"

namespace gcnprobe::isa {
namespace {

bool isHexWord(std::string_view t) {
  if (t.size() != 8) return false;
  for (char c : t)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<AsmInstruction> parseAcoAssembly(std::string_view text) {
  std::vector<AsmInstruction> out;
  bool constantData = false;
  int lineNo = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++lineNo;
    const std::string_view t = trim(line);
    // Everything after the constant-data marker is data, not code (print_constant_data).
    if (t.rfind("/* constant data */", 0) == 0) constantData = true;
    if (constantData || t.empty()) continue;
    const auto semi = line.rfind(';');
    if (semi == std::string_view::npos) continue;  // "BB0:", "(then repeated N times)"
    AsmInstruction ins;
    ins.line = lineNo;
    ins.text = std::string(trim(line.substr(0, semi)));
    std::size_t pos = semi + 1;
    while (pos < line.size()) {
      while (pos < line.size() && line[pos] == ' ')
        ++pos;
      if (pos >= line.size()) break;
      std::size_t end = line.find(' ', pos);
      if (end == std::string_view::npos) end = line.size();
      const std::string_view tok = trim(line.substr(pos, end - pos));
      if (!isHexWord(tok))
        throw gcn::Error(
            gcn::Place{"ACO assembly", lineNo, static_cast<int>(pos) + 1},
            "expected an 8-digit hex instruction word after ';', found '" + std::string(tok) + "'");
      ins.words.push_back(static_cast<uint32_t>(std::stoul(std::string(tok), nullptr, 16)));
      pos = end;
    }
    if (ins.words.empty())
      throw gcn::Error(gcn::Place{"ACO assembly", lineNo, static_cast<int>(semi) + 1},
                       "instruction '" + ins.text + "' has no words after ';'");
    out.push_back(std::move(ins));
  }
  return out;
}

std::string mnemonicOf(std::string_view text) {
  text = trim(text);
  std::string m;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) break;
    m += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return m;
}

}  // namespace gcnprobe::isa
