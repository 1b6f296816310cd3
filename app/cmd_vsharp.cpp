// gcnprobe vsharp: decode four V# dwords into fields, or encode the text form into dwords, with
// the generation's word-3 layout (reference/resource.h).
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "app/commands.h"
#include "reference/error.h"
#include "reference/resource.h"
#include "reference/text.h"

namespace gcnprobe::app {
namespace {

struct VsharpOptions {
  std::string gen;
  std::vector<std::string> decode;
  std::string encode;
  bool json = false;
};

std::string bitsText(const gcn::VSharpField& f) {
  const unsigned lo = f.bit, hi = f.bit + f.width - 1;
  const std::string word = "w" + std::to_string(lo / 32) + "[" +
                           (hi != lo ? std::to_string(hi % 32) + ":" : "") +
                           std::to_string(lo % 32) + "]";
  const std::string abs = std::to_string(lo) + (hi != lo ? "-" + std::to_string(hi) : "");
  return abs + " " + (hi / 32 != lo / 32 ? "w0[31:0] w1[15:0]" : word);
}

std::string valueText(gcn::Gen gen, const gcn::VSharpField& f, uint64_t x) {
  if (f.kind == gcn::VSharpFieldKind::Address) return gcn::hexNumber(x);
  std::string out = std::to_string(x);
  switch (f.kind) {
    case gcn::VSharpFieldKind::DstSel:
      out += " (" + std::string(gcn::dstSelName(static_cast<gcn::DstSel>(x))) + ")";
      break;
    case gcn::VSharpFieldKind::Nfmt:
      out += " (" + std::string(gcn::nfmtName(static_cast<gcn::Nfmt>(x), gen)) + ")";
      break;
    case gcn::VSharpFieldKind::Dfmt:
      out += " (" + std::string(gcn::dfmtName(static_cast<gcn::Dfmt>(x))) + ")";
      break;
    case gcn::VSharpFieldKind::Format:
      out += " (" + gcn::llvmUnifiedFormatName(gen, static_cast<uint8_t>(x)) + ")";
      break;
    default:
      break;
  }
  return out;
}

// The text has no file or line: say which option the column is in.
gcn::VSharp parseOption(gcn::Gen gen, std::string_view option, const std::string& text) {
  try {
    return gcn::parseVSharp(gen, text);
  } catch (const gcn::Error& e) {
    if (e.place().column == 0) throw;
    throw gcn::Error(std::string(option) + " column " + std::to_string(e.place().column) + ": " +
                     e.reason());
  }
}

void runDecode(gcn::Gen gen, const VsharpOptions& o) {
  std::string joined;
  for (const std::string& w : o.decode) {
    if (w.find('=') != std::string::npos)
      throw gcn::Error("vsharp --decode takes four dwords, not '" + w + "' (use --encode)");
    joined += w + " ";
  }
  const gcn::VSharp v = parseOption(gen, "--decode", joined);
  const std::string text = gcn::formatVSharp(gen, v);
  if (o.json) {
    nlohmann::ordered_json j;
    j["gen"] = std::string(gcn::genName(gen));
    j["text"] = text;
    nlohmann::ordered_json fields;
    for (const gcn::VSharpField& f : gcn::vsharpFields()) {
      if (!gcn::vsharpFieldExists(gen, f)) continue;
      fields[std::string(f.name)] = gcn::vsharpFieldValue(v, f);
    }
    const std::array<uint32_t, 4> mask = gcn::vsharpReservedMask(gen);
    for (std::size_t i = 0; i < 4; ++i)
      if (mask[i] != 0) fields["reserved_w" + std::to_string(i)] = v.reserved[i];
    j["fields"] = fields;
    std::printf("%s\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    return;
  }
  std::printf("%s\n\n", text.c_str());
  std::printf("%-15s %-15s %-22s %s\n", "field", "register", "bits", "value");
  for (const gcn::VSharpField& f : gcn::vsharpFields()) {
    if (!gcn::vsharpFieldExists(gen, f)) continue;
    std::printf("%-15s %-15s %-22s %s\n", std::string(f.name).c_str(), std::string(f.reg).c_str(),
                bitsText(f).c_str(), valueText(gen, f, gcn::vsharpFieldValue(v, f)).c_str());
  }
  // Bits no field names on this generation, kept so that the words survive a round trip.
  const std::array<uint32_t, 4> mask = gcn::vsharpReservedMask(gen);
  for (std::size_t i = 0; i < 4; ++i)
    if (mask[i] != 0)
      std::printf("%-15s %-15s %-22s %s\n", ("reserved_w" + std::to_string(i)).c_str(), "-",
                  ("w" + std::to_string(i) + " mask " + gcn::hexWord(mask[i])).c_str(),
                  gcn::hexWord(v.reserved[i]).c_str());
}

void runEncode(gcn::Gen gen, const VsharpOptions& o) {
  const gcn::VSharp v = parseOption(gen, "--encode", o.encode);
  const std::array<uint32_t, 4> w = gcn::encodeVSharp(gen, v);
  if (o.json) {
    nlohmann::ordered_json j;
    j["gen"] = std::string(gcn::genName(gen));
    j["text"] = gcn::formatVSharp(gen, v);
    j["words"] = {gcn::hexWord(w[0]), gcn::hexWord(w[1]), gcn::hexWord(w[2]), gcn::hexWord(w[3])};
    std::printf("%s\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    return;
  }
  std::printf("%s %s %s %s\n", gcn::hexWord(w[0]).c_str(), gcn::hexWord(w[1]).c_str(),
              gcn::hexWord(w[2]).c_str(), gcn::hexWord(w[3]).c_str());
}

}  // namespace

void addVsharpCommand(CLI::App& app, Context& /*ctx*/) {
  auto opts = std::make_shared<VsharpOptions>();
  CLI::App* cmd = app.add_subcommand(
      "vsharp", "Decode or encode a buffer resource (V#) with a generation's layout");
  cmd->add_option(
         "--gen", opts->gen,
         "Generation or chip: gfx6..gfx9, gfx10, gfx10.3, gfx11, gfx803, polaris10, navi21, ...")
      ->required();
  auto* dec =
      cmd->add_option("--decode", opts->decode, "Four dwords W0 W1 W2 W3 (0x-hex or decimal)")
          ->expected(4);
  auto* enc = cmd->add_option("--encode", opts->encode,
                              "Text form, e.g. \"base=0x1000 stride=16 num_records=64 "
                              "dst_sel=xyzw dfmt=8_8_8_8 nfmt=unorm\"");
  dec->excludes(enc);
  cmd->add_flag("--json", opts->json, "Print JSON");
  cmd->callback([opts, dec, enc] {
    const gcn::Gen gen = gcn::parseAnyGen(opts->gen);
    if (dec->count() > 0) {
      runDecode(gen, *opts);
    } else if (enc->count() > 0) {
      runEncode(gen, *opts);
    } else {
      throw gcn::Error("vsharp: give --decode W0 W1 W2 W3 or --encode \"text\"");
    }
  });
}

}  // namespace gcnprobe::app
