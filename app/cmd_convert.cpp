// `gcnprobe convert`: one element through the reference conversions (reference/convert.h),
// memory -> registers (--load) or registers -> memory (--store). Usage: docs/convert.md.
#include <charconv>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/commands.h"
#include "reference/convert.h"
#include "reference/error.h"
#include "reference/float_bits.h"
#include "reference/text.h"

namespace gcnprobe::app {
namespace {

struct ConvertOptions {
  std::string gen;
  std::string dfmt;
  std::string nfmt;
  std::string load;
  std::string store;
  std::vector<std::string> policies;
  bool d16 = false;
  bool json = false;
};

constexpr char kComponentNames[4] = {'X', 'Y', 'Z', 'W'};

std::vector<std::string_view> splitCommas(std::string_view text) {
  std::vector<std::string_view> out;
  while (true) {
    const auto comma = text.find(',');
    out.push_back(text.substr(0, comma));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

bool isHex(std::string_view s) {
  return s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

// Unsigned integer, decimal or 0x-hex, fitting `bits` bits.
uint64_t parseUnsigned(std::string_view flag, std::string_view text, unsigned bits) {
  std::string_view s = text;
  int base = 10;
  if (isHex(s)) {
    s.remove_prefix(2);
    base = 16;
  }
  uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (!s.empty() && ec == std::errc::result_out_of_range && p == s.data() + s.size())
    throw gcn::Error(std::string(flag) + ": '" + std::string(text) + "' does not fit in " +
                     std::to_string(bits) + " bits");
  if (s.empty() || ec != std::errc() || p != s.data() + s.size())
    throw gcn::Error(std::string(flag) + ": '" + std::string(text) +
                     "' is not a number (decimal or 0x-hex)");
  if (bits < 64 && (v >> bits) != 0)
    throw gcn::Error(std::string(flag) + ": '" + std::string(text) + "' does not fit in " +
                     std::to_string(bits) + " bits");
  return v;
}

int64_t parseSigned(std::string_view flag, std::string_view text, unsigned bits) {
  int64_t v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (!text.empty() && ec == std::errc::result_out_of_range && p == text.data() + text.size())
    throw gcn::Error(std::string(flag) + ": '" + std::string(text) + "' does not fit in " +
                     std::to_string(bits) + " bits");
  if (text.empty() || ec != std::errc() || p != text.data() + text.size())
    throw gcn::Error(std::string(flag) + ": '" + std::string(text) +
                     "' is not an integer (decimal, or 0x-hex register bits)");
  const int64_t lo = -(int64_t{1} << (bits - 1));
  const int64_t hi = (int64_t{1} << bits) - 1;  // allow unsigned spellings of the same bits
  if (v < lo || v > hi)
    throw gcn::Error(std::string(flag) + ": '" + std::string(text) + "' does not fit in " +
                     std::to_string(bits) + " bits");
  return v;
}

// Correctly rounded to float: 1e39 is +inf and 1e-50 is +0, as a register would hold them.
float parseFloat(std::string_view flag, std::string_view text) {
  const std::optional<float> v = gcn::fbits::parseDecimalFloat(text);
  if (!v)
    throw gcn::Error(std::string(flag) + ": '" + std::string(text) +
                     "' is not a number (e.g. 0.5, -1, 1e-3, inf, nan) or 0x register bits");
  return *v;
}

// One --store value as register bits (32-bit, or 16-bit with --d16).
uint32_t parseRegister(std::string_view text, gcn::RegType type, bool d16) {
  const unsigned bits = d16 ? 16 : 32;
  if (isHex(text)) return static_cast<uint32_t>(parseUnsigned("--store", text, bits));
  if (type == gcn::RegType::Float) {
    const uint32_t f = gcn::fbits::floatToBits(parseFloat("--store", text));
    return d16 ? gcn::fbits::floatToHalf(f, gcn::fbits::Rounding::NearestEven) : f;
  }
  const int64_t v = parseSigned("--store", text, bits);
  return static_cast<uint32_t>(v) & (d16 ? 0xffffu : 0xffffffffu);
}

// Register bits -> JSON value: a number when finite, else the text ("inf", "nan(0x...)").
nlohmann::json jsonValue(gcn::RegType type, uint32_t reg32, const std::string& text) {
  if (type != gcn::RegType::Float) return nlohmann::json::parse(text);
  const float f = gcn::fbits::bitsToFloat(reg32);
  if (f != f || f - f != 0) return text;
  return std::stod(text);  // shortest float text -> the double the JSON printer shortens again
}

void runLoad(const ConvertOptions& o, gcn::Gen gen, gcn::Dfmt d, gcn::Nfmt n,
             const gcn::Policies& pol) {
  const gcn::DfmtInfo& info = gcn::dfmtInfo(d);
  const gcn::RegType type = gcn::nfmtInfo(n, gen).reg;
  const auto words = splitCommas(o.load);
  const unsigned dwords = (info.bytes + 3) / 4;
  if (words.size() != dwords)
    throw gcn::Error("--load: data format " + std::string(info.name) + " takes " +
                     std::to_string(dwords) + " dword(s), got " + std::to_string(words.size()) +
                     " in '" + o.load + "'");
  std::vector<uint8_t> bytes(dwords * 4);
  for (unsigned w = 0; w < dwords; ++w) {
    const unsigned bits = info.bytes < 4 ? info.bytes * 8u : 32u;
    const auto v = static_cast<uint32_t>(parseUnsigned("--load", words[w], bits));
    for (unsigned b = 0; b < 4; ++b)
      bytes[w * 4 + b] = static_cast<uint8_t>(v >> (8 * b));
  }
  nlohmann::json comps = nlohmann::json::array();
  for (unsigned c = 0; c < info.components; ++c) {
    const uint32_t code = gcn::extractComponent(d, c, bytes, pol);
    std::optional<uint32_t> reg32;  // float32 view for printing
    std::string regText;
    if (o.d16) {
      const auto h = gcn::loadComponentD16(gen, d, n, c, code, pol);
      if (h) {
        regText = gcn::hexNumber(*h, 4);
        reg32 = type == gcn::RegType::Float ? gcn::fbits::halfToFloat(*h)
                : type == gcn::RegType::Sint
                    ? static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(*h)))
                    : uint32_t{*h};
      }
    } else {
      reg32 = gcn::loadComponent(gen, d, n, c, code, pol);
      if (reg32) regText = gcn::hexNumber(*reg32, 8);
    }
    const char name[2] = {kComponentNames[c], 0};
    if (!reg32) {
      const std::string reason =
          o.d16 && gen <= gcn::Gen::Gfx7 ? std::string("D16 does not exist before gfx8")
          : o.d16 && gcn::pairVerdict(gen, d, n, gcn::Direction::Load, pol).status ==
                         gcn::PairStatus::Defined
              ? std::string("no document says how D16 narrows an integer field wider than 16 bits")
              : std::string(gcn::pairVerdict(gen, d, n, gcn::Direction::Load, pol).reason);
      if (o.json)
        comps.push_back({{"register", nullptr}, {"value", nullptr}, {"reason", reason}});
      else
        std::printf("%s undefined (%s)\n", name, reason.c_str());
      continue;
    }
    const std::string text = gcn::registerValueText(type, *reg32);
    if (o.json)
      comps.push_back({{"register", regText}, {"value", jsonValue(type, *reg32, text)}});
    else
      std::printf("%s %s %s\n", name, regText.c_str(), text.c_str());
  }
  if (o.json)
    std::printf("%s\n", nlohmann::json{{"components", comps}}
                            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                            .c_str());
}

void runStore(const ConvertOptions& o, gcn::Gen gen, gcn::Dfmt d, gcn::Nfmt n,
              const gcn::Policies& pol) {
  const gcn::DfmtInfo& info = gcn::dfmtInfo(d);
  const gcn::RegType type = gcn::nfmtInfo(n, gen).reg;
  const auto values = splitCommas(o.store);
  if (values.size() != info.components)
    throw gcn::Error("--store: data format " + std::string(info.name) + " has " +
                     std::to_string(info.components) + " component(s), got " +
                     std::to_string(values.size()) + " value(s) in '" + o.store + "'");
  std::array<uint8_t, 16> bytes{};
  std::string reason;
  for (unsigned c = 0; c < info.components && reason.empty(); ++c) {
    const uint32_t reg = parseRegister(values[c], type, o.d16);
    const auto code = o.d16 ? gcn::storeComponentD16(gen, d, n, c, static_cast<uint16_t>(reg), pol)
                            : gcn::storeComponent(gen, d, n, c, reg, pol);
    if (!code) {
      reason = o.d16 && gen <= gcn::Gen::Gfx7
                   ? "D16 does not exist before gfx8"
                   : std::string(gcn::pairVerdict(gen, d, n, gcn::Direction::Store, pol).reason);
      break;
    }
    gcn::insertComponent(d, c, *code, std::span<uint8_t>(bytes.data(), info.bytes), pol);
  }
  if (!reason.empty()) {
    if (o.json)
      std::printf("%s\n", nlohmann::json{{"memory", nullptr}, {"reason", reason}}
                              .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                              .c_str());
    else
      std::printf("undefined (%s)\n", reason.c_str());
    return;
  }
  const unsigned dwords = (info.bytes + 3) / 4;
  const unsigned digits = info.bytes < 4 ? info.bytes * 2u : 8u;
  nlohmann::json mem = nlohmann::json::array();
  std::string line;
  for (unsigned w = 0; w < dwords; ++w) {
    uint32_t v = 0;
    for (unsigned b = 0; b < 4; ++b)
      v |= static_cast<uint32_t>(bytes[w * 4 + b]) << (8 * b);
    mem.push_back(gcn::hexNumber(v, digits));
    line += (w ? " " : "") + gcn::hexNumber(v, digits);
  }
  if (o.json)
    std::printf("%s\n", nlohmann::json{{"memory", mem}}
                            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                            .c_str());
  else
    std::printf("%s\n", line.c_str());
}

// Runs `parse` on one flag's value; an error names the flag, so a user with five flags on
// the line knows which one to fix.
template <class F>
auto forFlag(std::string_view flag, F parse) {
  try {
    return parse();
  } catch (const gcn::Error& e) {
    throw gcn::Error(std::string(flag) + ": " + e.what());
  }
}

void run(const ConvertOptions& o) {
  const gcn::Chip& chip = *forFlag("--gen", [&] { return &gcn::parseChip(o.gen); });
  const gcn::Gen gen = chip.gen;
  const gcn::Dfmt d = forFlag("--dfmt", [&] { return gcn::parseDfmt(o.dfmt); });
  const gcn::Nfmt n = forFlag("--nfmt", [&] { return gcn::parseNfmt(o.nfmt, gen); });
  gcn::Policies pol = gcn::Policies::defaults(chip);
  for (const std::string& a : o.policies)
    forFlag("--policy", [&] {
      pol.set(a);
      return 0;
    });
  if (o.load.empty() == o.store.empty())
    throw gcn::Error("convert: give exactly one of --load and --store");
  const gcn::Direction dir = o.load.empty() ? gcn::Direction::Store : gcn::Direction::Load;
  const gcn::PairVerdict v = gcn::pairStatus(gen, d, n, dir);
  if (v.status == gcn::PairStatus::Illegal)
    throw gcn::Error("--dfmt " + o.dfmt + " --nfmt " + o.nfmt + ": illegal " +
                     (dir == gcn::Direction::Load ? "load" : "store") + " on " +
                     std::string(gcn::genName(gen)) + ": " + std::string(v.reason));
  if (dir == gcn::Direction::Load)
    runLoad(o, gen, d, n, pol);
  else
    runStore(o, gen, d, n, pol);
}

}  // namespace

void addConvertCommand(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<ConvertOptions>();
  CLI::App* sub = app.add_subcommand(
      "convert", "Convert one element between memory and registers with the reference model");
  sub->add_option("--gen", opts->gen, "generation or chip: gfx6..gfx9, gfx803, polaris10, ...")
      ->required();
  sub->add_option("--dfmt", opts->dfmt, "data format: 8_8_8_8, BUF_DATA_FORMAT_16, 10, ...")
      ->required();
  sub->add_option("--nfmt", opts->nfmt, "number format: unorm, snorm, uint, float, 7, ...")
      ->required();
  sub->add_option("--load", opts->load,
                  "memory dwords, comma-separated (0x... or decimal); a 1- or 2-byte element "
                  "is one value");
  sub->add_option("--store", opts->store,
                  "one register value per component: a number, or 0x... raw register bits");
  sub->add_option("--policy", opts->policies, "name=option (repeatable), e.g. norm=mulrcp");
  sub->add_flag("--d16", opts->d16, "16-bit registers (D16 format ops, gfx8+)");
  sub->add_flag("--json", opts->json, "print one JSON object");
  sub->callback([opts, &ctx] {
    run(*opts);
    ctx.exitCode = 0;
  });
}

}  // namespace gcnprobe::app
