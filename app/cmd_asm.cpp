// `gcnprobe asm` and `gcnprobe disasm`: MUBUF/MTBUF text <-> the two instruction dwords,
// through reference/assembler.h and reference/encoding.h. `asm --list-opcodes` prints the
// opcode table. Usage: docs/asm.md.
#include <charconv>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "app/commands.h"
#include "reference/assembler.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/opcodes.h"
#include "reference/text.h"

namespace gcnprobe::app {
namespace {

struct AsmOptions {
  std::string gen = "gfx9";
  std::vector<std::string> text;
  bool json = false;
  bool listOpcodes = false;
};

struct DisasmOptions {
  std::string gen = "gfx9";
  std::vector<std::string> words;
  bool json = false;
};

uint32_t parseWord(const std::string& text) {
  std::string_view s = text;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  uint32_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (s.empty() || s.size() > 8 || ec != std::errc() || p != s.data() + s.size())
    throw gcn::Error("disasm: '" + text + "' is not a 32-bit hex word (e.g. 0xe00c2000)");
  return v;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts)
    out += (out.empty() ? "" : " ") + p;
  return out;
}

std::string_view kindName(gcn::OpKind kind) {
  switch (kind) {
    case gcn::OpKind::LoadFormat:
      return "load-format";
    case gcn::OpKind::StoreFormat:
      return "store-format";
    case gcn::OpKind::Load:
      return "load";
    case gcn::OpKind::Store:
      return "store";
    case gcn::OpKind::Atomic:
      return "atomic";
    case gcn::OpKind::Cache:
      return "cache";
  }
  return "?";
}

// The opcode table as a Markdown table (docs/asm.md pastes this output).
void listOpcodes() {
  std::printf(
      "| mnemonic | gfx11 name | enc | kind | gfx6 | gfx7 | gfx8 | gfx9 | gfx10 | gfx10.3 | gfx11 "
      "| data | flags |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const gcn::OpcodeInfo& op : gcn::allOpcodes()) {
    std::string ops;
    for (int16_t code : op.opcode) {
      char buf[16];
      if (code < 0)
        std::snprintf(buf, sizeof buf, " - |");
      else
        std::snprintf(buf, sizeof buf, " 0x%02x |", static_cast<unsigned>(code));
      ops += buf;
    }
    std::string data;
    if (op.kind == gcn::OpKind::LoadFormat || op.kind == gcn::OpKind::StoreFormat)
      data = std::to_string(op.components) + " comp";
    else if (op.kind != gcn::OpKind::Cache)
      data = std::to_string(op.memBytes) + " B";
    std::string flags;
    auto add = [&](bool on, const char* name) {
      if (on) flags += (flags.empty() ? "" : " ") + std::string(name);
    };
    add(op.signExtend, "signed");
    add(op.d16 && !op.d16Hi, "d16");
    add(op.d16Hi, "d16_hi");
    add(op.ldsCapable && !op.ldsData, "lds");
    add(op.ldsData, "from-lds");
    std::printf("| %s | %s | %s | %s |%s %s | %s |\n", std::string(op.mnemonic).c_str(),
                op.gfx11Mnemonic.empty() ? "" : std::string(op.gfx11Mnemonic).c_str(),
                op.encoding == gcn::Encoding::Mubuf ? "MUBUF" : "MTBUF",
                std::string(kindName(op.kind)).c_str(), ops.c_str(), data.c_str(), flags.c_str());
  }
}

}  // namespace

void addAsmCommand(CLI::App& app, Context& ctx) {
  auto asmOpts = std::make_shared<AsmOptions>();
  CLI::App* as = app.add_subcommand(
      "asm", "Assemble one MUBUF/MTBUF instruction (LLVM syntax) into its two dwords");
  as->add_option(
        "--gen", asmOpts->gen,
        "generation or chip: gfx6..gfx9, gfx10, gfx10.3, gfx11, tonga, vega10, navi21, ...")
      ->capture_default_str();
  as->add_option("text", asmOpts->text,
                 "instruction text, e.g. \"buffer_load_dword v1, off, "
                 "s[4:7], 0 offset:4\"");
  as->add_flag("--json", asmOpts->json, "print {\"words\": [...], \"text\": ...}");
  as->add_flag("--list-opcodes", asmOpts->listOpcodes,
               "print the opcode table of every generation (Markdown)");
  as->callback([asmOpts, &ctx] {
    ctx.exitCode = 0;
    if (asmOpts->listOpcodes) {
      listOpcodes();
      return;
    }
    if (asmOpts->text.empty()) throw gcn::Error("asm: give the instruction text");
    const gcn::Gen gen = gcn::parseAnyGen(asmOpts->gen);
    const std::string text = joined(asmOpts->text);
    const gcn::Instruction inst = gcn::parseInstruction(gen, text);
    const auto words = gcn::encode(gen, inst);
    const std::string canonical = gcn::printInstruction(gen, inst);
    if (asmOpts->json) {
      nlohmann::json j{{"words", {gcn::hexWord(words[0]), gcn::hexWord(words[1])}},
                       {"text", canonical}};
      std::printf("%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    } else {
      std::printf("%s %s\n", gcn::hexWord(words[0]).c_str(), gcn::hexWord(words[1]).c_str());
    }
  });

  auto disOpts = std::make_shared<DisasmOptions>();
  CLI::App* dis = app.add_subcommand(
      "disasm", "Disassemble two MUBUF/MTBUF dwords into the canonical text that asm reads");
  dis->add_option(
         "--gen", disOpts->gen,
         "generation or chip: gfx6..gfx9, gfx10, gfx10.3, gfx11, tonga, vega10, navi21, ...")
      ->capture_default_str();
  dis->add_option("words", disOpts->words, "the two dwords in hex, e.g. 0xe00c2000 0x80010400")
      ->required();
  dis->add_flag("--json", disOpts->json, "print {\"words\": [...], \"text\": ...}");
  dis->callback([disOpts, &ctx] {
    ctx.exitCode = 0;
    if (disOpts->words.size() != 2)
      throw gcn::Error("disasm: give exactly two dwords, found " +
                       std::to_string(disOpts->words.size()));
    const gcn::Gen gen = gcn::parseAnyGen(disOpts->gen);
    const uint32_t w0 = parseWord(disOpts->words[0]);
    const uint32_t w1 = parseWord(disOpts->words[1]);
    const std::string text = gcn::printInstruction(gen, gcn::decode(gen, w0, w1));
    if (disOpts->json) {
      nlohmann::json j{{"words", {gcn::hexWord(w0), gcn::hexWord(w1)}}, {"text", text}};
      std::printf("%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    } else {
      std::printf("%s\n", text.c_str());
    }
  });
}

}  // namespace gcnprobe::app
