#include "harness/isa/saved_listing.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/isa/aco_asm.h"
#include "harness/isa/binary_patch.h"
#include "harness/isa/check.h"
#include "harness/routes/route.h"
#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::isa {
namespace {

constexpr std::string_view kRoutes[] = {"texel",  "storage", "atomic", "raw",
                                        "vertex", "binary",  "program"};
// "texel, storage, atomic, raw, vertex or binary", for errors.
std::string routeNames() {
  std::string out;
  for (std::size_t k = 0; k < std::size(kRoutes); ++k)
    out += (k == 0 ? "" : k + 1 == std::size(kRoutes) ? " or " : ", ") + std::string(kRoutes[k]);
  return out;
}
constexpr std::string_view kStageMark = "--- stage ";
constexpr std::size_t kMaxExecutables = 8;

// Runs of blanks as one blank, trimmed: `case` and the driver's padded text compare alike.
std::string squeezeBlanks(std::string_view text) {
  std::string out;
  for (char ch : gcn::trimSpace(text)) {
    const bool blank = ch == ' ' || ch == '\t';
    if (blank && !out.empty() && out.back() == ' ') continue;
    out += blank ? ' ' : ch;
  }
  return out;
}

// The executable a `--- stage <names> (the driver calls it '<name>') ---` line starts, or
// nullopt when the line is not one. Throws for a stage name the program does not know.
std::optional<vk::ExecutableIsa> stageMark(std::string_view line, const gcn::Place& at) {
  const std::string_view t = gcn::trimSpace(line);
  if (t.rfind(kStageMark, 0) != 0) return std::nullopt;
  std::string_view rest = t.substr(kStageMark.size());
  const std::string_view names = rest.substr(0, rest.find(' '));
  const std::optional<VkShaderStageFlags> stages = vk::parseStageNames(names);
  if (!stages)
    throw gcn::Error(at, "stage line names no known stage ('" + std::string(names) +
                             "'; the names are vertex, tess-control, tess-eval, geometry, "
                             "fragment and compute, joined by '+')");
  vk::ExecutableIsa exe;
  exe.stages = *stages;
  const std::string_view calls = "calls it '";
  if (const std::size_t q = rest.find(calls); q != std::string_view::npos) {
    const std::string_view name = rest.substr(q + calls.size());
    exe.name = std::string(name.substr(0, name.find('\'')));
  }
  if (exe.name.empty()) exe.name = std::string(names) + " shader";
  return exe;
}

// One pass over a saved listing's lines: its header keys, its stage lines and which executable
// each listing line belongs to.
class ListingReader {
 public:
  ListingReader(std::string_view text, std::string_view source) {
    s_.source = std::string(source);
    for (std::string_view rest = text; !rest.empty();) {
      const std::size_t nl = rest.find('\n');
      lines_.push_back(rest.substr(0, nl));
      rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    }
    gutter_.assign(lines_.size(), 0);
    owner_.assign(lines_.size(), -1);
  }

  SavedListing read() {
    readGutters();
    readLines();
    resolveChip();
    if (s_.route.empty()) fail(0, "no 'route =' line (" + routeNames() + ")");
    if (s_.caseText.empty()) fail(0, "no 'case =' line: which instruction of the listing to prove");
    addRouteStage();
    std::size_t instructions = 0;
    for (std::size_t k = 0; k < s_.executables.size(); ++k) {
      assemble(k);
      // throws with the line
      instructions += parseAcoAssembly(s_.executables[k].assembly, s_.source).size();
    }
    if (instructions == 0) fail(0, "no listing: no instruction follows the header lines");
    return std::move(s_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& why) const {
    throw gcn::Error(gcn::Place{s_.source, line, 0}, why);
  }

  // `isa --dump-asm` numbers listing lines ("   12| text"): the number is the line the reasons
  // cite, so it stays the line's number here; the rest of the line is the listing.
  void readGutters() {
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const std::string_view l = lines_[i];
      std::size_t p = l.find_first_not_of(' ');
      const std::size_t digits =
          p == std::string_view::npos ? p : l.find_first_not_of("0123456789", p);
      if (p == std::string_view::npos || digits == p || digits == std::string_view::npos ||
          l[digits] != '|')
        continue;
      int n = 0;
      for (std::size_t k = p; k < digits && n < 10000000; ++k)
        n = n * 10 + (l[k] - '0');
      gutter_[i] = n;
      lines_[i] = l.substr(digits + 1 + (digits + 1 < l.size() && l[digits + 1] == ' ' ? 1 : 0));
    }
  }

  // Header lines (`key = value`, blank, `#`) until the first stage or listing line; after it,
  // every line is a listing line of the current executable (-2: no stage line yet).
  void readLines() {
    bool inListing = false;
    int current = -2;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const int lineNo = static_cast<int>(i) + 1;
      const std::string_view t = gcn::trimSpace(lines_[i]);
      if (std::optional<vk::ExecutableIsa> exe = stageMark(t, gcn::Place{s_.source, lineNo, 0})) {
        inListing = true;
        addStage(std::move(*exe), lineNo);
        current = static_cast<int>(s_.executables.size()) - 1;
        continue;
      }
      if (!inListing && (t.empty() || t.front() == '#')) continue;
      const std::size_t eq = t.find('=');
      const std::string_view key =
          eq == std::string_view::npos ? "" : gcn::trimSpace(t.substr(0, eq));
      const bool keyShape = !key.empty() && std::all_of(key.begin(), key.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || ch == '-' || ch == '_';
      });
      if (!inListing && keyShape) {
        readKey(key, std::string(gcn::trimSpace(t.substr(eq + 1))), lineNo);
        continue;
      }
      inListing = true;
      owner_[i] = current;
    }
  }

  // A pipeline has at most one executable per stage (6 in Vulkan 1.0's graphics and compute
  // pipelines); executables are told apart by name.
  void addStage(vk::ExecutableIsa exe, int lineNo) {
    if (s_.executables.size() == kMaxExecutables)
      fail(lineNo, "more than " + std::to_string(kMaxExecutables) + " stage lines");
    for (const vk::ExecutableIsa& other : s_.executables)
      if (other.name == exe.name) fail(lineNo, "a second executable named '" + exe.name + "'");
    s_.executables.push_back(std::move(exe));
  }

  void readKey(std::string_view key, const std::string& value, int lineNo) {
    if (value.empty()) fail(lineNo, "'" + std::string(key) + " =' has no value");
    const auto once = [&](bool seen) {
      if (seen) fail(lineNo, "'" + std::string(key) + "' is given twice");
    };
    if (key == "chip") {
      once(chipValue_.has_value());
      chipValue_ = value;
      chipLine_ = lineNo;
    } else if (key == "gen") {
      once(genValue_.has_value());
      genValue_ = value;
      genLine_ = lineNo;
    } else if (key == "route") {
      once(!s_.route.empty());
      if (std::find(std::begin(kRoutes), std::end(kRoutes), value) == std::end(kRoutes))
        fail(lineNo, "no route '" + value + "' (" + routeNames() + ")");
      s_.route = value;
    } else if (key == "soffset") {
      once(s_.soffset.has_value());
      try {
        std::size_t used = 0;
        const unsigned long v = std::stoul(value, &used, 0);
        if (used != value.size() || v > 0xffffffffu) throw std::invalid_argument(value);
        s_.soffset = static_cast<uint32_t>(v);
      } catch (const std::exception&) {
        fail(lineNo, "soffset = " + value + ": not a 32-bit number");
      }
    } else if (key == "case") {
      once(!s_.caseText.empty());
      s_.caseText = squeezeBlanks(value);
      s_.caseLine = lineNo;
    } else {
      fail(lineNo, "unknown key '" + std::string(key) + "' (chip, gen, route, case and soffset)");
    }
  }

  const gcn::Chip& chipOf(const std::string& value, int line) const {
    try {
      return gcn::parseAnyChip(value);
    } catch (const gcn::Error& e) {
      fail(line, e.reason());
    }
  }

  // `chip =`, `gen =` or both (which must agree).
  void resolveChip() {
    if (genValue_) {
      const gcn::Chip& g = chipOf(*genValue_, genLine_);
      if (gcn::asciiLower(*genValue_) != gcn::genName(g.gen))
        fail(genLine_, "gen = " + *genValue_ +
                           ": a generation is written gfx6, gfx7, gfx8, gfx9, " +
                           "gfx10, gfx10.3 or gfx11 (a chip goes in 'chip =')");
    }
    if (chipValue_) {
      s_.chip = &chipOf(*chipValue_, chipLine_);
      if (genValue_ && chipOf(*genValue_, genLine_).gen != s_.chip->gen)
        fail(genLine_, "gen = " + *genValue_ + " is not " + std::string(s_.chip->name) + "'s (" +
                           std::string(gcn::genName(s_.chip->gen)) + ")");
    } else if (genValue_) {
      s_.chip = &chipOf(*genValue_, genLine_);
    } else {
      fail(0, "no 'chip =' or 'gen =' line: which chip's code the listing is");
    }
  }

  // Lines before any stage line belong to the route's own shader stage.
  void addRouteStage() {
    if (std::find(owner_.begin(), owner_.end(), -2) == owner_.end()) return;
    vk::ExecutableIsa exe;
    const bool vertex = s_.route == "vertex";
    exe.stages = vertex ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_COMPUTE_BIT;
    exe.name = vertex ? "Vertex Shader" : "Compute Shader";
    for (const vk::ExecutableIsa& other : s_.executables)
      if (other.name == exe.name)
        fail(0,
             "the lines before the first stage line and a stage line both name '" + exe.name + "'");
    s_.executables.insert(s_.executables.begin(), std::move(exe));
    for (int& o : owner_)
      if (o >= 0) ++o;
    std::replace(owner_.begin(), owner_.end(), -2, 0);
  }

  // Executable k's text is the whole file with every other line left empty, so that the
  // listing parser's line numbers are the file's; or, where its lines carry `isa --dump-asm`'s
  // numbers, each line at its number (which must increase).
  void assemble(std::size_t k) {
    vk::ExecutableIsa& exe = s_.executables[k];
    exe.source = s_.source;
    const int mine = static_cast<int>(k);
    bool numbered = false;
    for (std::size_t i = 0; i < lines_.size(); ++i)
      numbered = numbered || (owner_[i] == mine && gutter_[i] > 0);
    int at = 0;  // lines written so far (numbered form)
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      if (!numbered) {
        if (owner_[i] == mine) exe.assembly += lines_[i];
        exe.assembly += '\n';
        continue;
      }
      if (owner_[i] != mine) continue;
      if (gutter_[i] <= at)
        fail(static_cast<int>(i) + 1, gutter_[i] == 0
                                          ? "a listing line without a number among numbered ones"
                                          : "listing line number " + std::to_string(gutter_[i]) +
                                                " does not follow line " + std::to_string(at));
      for (; at + 1 < gutter_[i]; ++at)
        exe.assembly += '\n';
      exe.assembly += std::string(lines_[i]) + '\n';
      at = gutter_[i];
    }
  }

  SavedListing s_;
  std::vector<std::string_view> lines_;
  std::vector<int> gutter_;  // the `isa --dump-asm` number of each line, 0 for none
  // Which executable each listing line belongs to (-1: a header line, -2: no stage line yet).
  std::vector<int> owner_;
  std::optional<std::string> chipValue_, genValue_;
  int chipLine_ = 0, genLine_ = 0;
};

}  // namespace

SavedListing parseSavedListing(std::string_view text, std::string_view source) {
  return ListingReader(text, source).read();
}

namespace {

// The listing's route shape for the case instruction: a template's own data path on the binary
// route, else the route's (routePipelineShape), with the listing's executables.
routes::PipelineIsa listingShape(const SavedListing& s, const gcn::Instruction& intended,
                                 std::vector<vk::ExecutableIsa> executables) {
  routes::PipelineIsa pisa;
  if (s.route == "binary") {
    // The listing is a template's: its instruction's own data path (binary_patch.h).
    pisa.executables = std::move(executables);
    pisa.caseBuffer = routes::BufferSlot{routes::BufferSlot::Kind::DescriptorSet, 0, 0};
    pisa.dataPath =
        templateDataPath(templateVariant(*s.chip, *intended.op, intended.idxen), intended);
    pisa.vsharpSource = "not part of a template's proof (the binary route records its case's)";
  } else {
    routes::DeviceCase c;
    c.inst = intended;
    c.binding = s.route == "vertex" ? routes::Binding::VertexAttribute
                : intended.idxen    ? routes::Binding::StorageTexel
                                    : routes::Binding::StorageBuffer;
    pisa = routes::routePipelineShape(s.route, c, s.chip->name);
    pisa.executables = std::move(executables);
  }
  // The value an SGPR or M0 SOFFSET must hold (the own program's listings carry it), compared
  // with the constant the trace finds.
  if (s.soffset && intended.soffset < 128) pisa.soffsetValue = s.soffset;
  return pisa;
}

// Why `case =` selects nothing: the buffer instructions the listing holds.
std::string nothingSelected(const SavedListing& s, const std::vector<EmittedInstruction>& emitted,
                            const std::function<int(const EmittedInstruction&)>& lineOf) {
  std::string reason = "no buffer instruction of the listing starts with '" + s.caseText + "'";
  if (emitted.empty()) return reason + "; it holds none";
  reason += "; it holds:";
  for (const EmittedInstruction& e : emitted)
    reason += " [line " + std::to_string(lineOf(e)) + ": " + e.driverText + "]";
  return reason;
}

}  // namespace

SavedProof proveSavedListing(const SavedListing& s) {
  SavedProof out;
  const gcn::Gen gen = s.chip->gen;
  const bool legacyVs = s.route == "vertex" && s.chip->name == "navi14";
  const std::vector<EmittedInstruction> emitted =
      emittedBufferInstructions(gen, s.executables, legacyVs);
  std::vector<std::vector<AsmInstruction>> code;  // per executable, for line numbers
  for (const vk::ExecutableIsa& exe : s.executables)
    code.push_back(parseAcoAssembly(exe.assembly, s.source));
  const std::function<int(const EmittedInstruction&)> lineOf = [&](const EmittedInstruction& e) {
    for (std::size_t k = 0; k < s.executables.size(); ++k)
      if (s.executables[k].name == e.executable && e.listingIndex < code[k].size())
        return code[k][e.listingIndex].line;
    return 0;
  };
  const auto selects = [&](const EmittedInstruction& e) {
    return squeezeBlanks(e.driverText).rfind(s.caseText, 0) == 0;
  };
  std::vector<const EmittedInstruction*> selected;
  for (const EmittedInstruction& e : emitted)
    if (selects(e)) selected.push_back(&e);
  if (selected.empty()) {
    out.reason = nothingSelected(s, emitted, lineOf);
    return out;
  }
  const EmittedInstruction& first = *selected.front();
  out.instruction = first.driverText + " (line " + std::to_string(lineOf(first)) + ")";
  if (!first.decoded) {
    out.reason =
        "the case instruction, " + out.instruction + ", does not decode: " + first.decodeError;
    return out;
  }
  for (const EmittedInstruction* e : selected) {
    const std::string field = e->decoded ? mismatchField(first.inst, e->inst, true) : "decoding";
    if (!field.empty())
      throw gcn::Error(gcn::Place{s.source, s.caseLine, 0},
                       "'case = " + s.caseText + "' selects instructions that differ in " + field +
                           ": line " + std::to_string(lineOf(first)) + " and line " +
                           std::to_string(lineOf(*e)) + "; give more of the text");
  }
  const gcn::Instruction& intended = first.inst;
  const routes::PipelineIsa pisa = listingShape(s, intended, s.executables);
  // Only the selected instructions may be the case's (another with the same fields, such as an
  // In load of the same opcode, is not what `case` names).
  const CheckResult check = checkIsa(gen, intended, pisa, selects);
  out.proven = check.outcome == Outcome::Verified;
  if (out.proven && check.verifiedIndex && *check.verifiedIndex < check.emitted.size()) {
    const EmittedInstruction& proven = check.emitted[*check.verifiedIndex];
    out.instruction = proven.driverText + " (line " + std::to_string(lineOf(proven)) + ")";
  }
  if (out.proven) {
    out.links = check.proven;
    if (!check.reason.empty()) out.links.push_back("note: " + check.reason);
  } else {
    out.reason = check.reason;
  }
  return out;
}

std::string savedListingHeader(const gcn::Chip& chip, std::string_view route,
                               std::string_view caseText, std::optional<uint32_t> soffset) {
  std::string out =
      "chip = " + std::string(chip.name) + "\ngen = " + std::string(gcn::genName(chip.gen)) +
      "\nroute = " + std::string(route) + "\ncase = " + squeezeBlanks(caseText) + "\n";
  if (soffset) out += "soffset = " + gcn::hexWord(*soffset) + "\n";
  return out;
}

}  // namespace gcnprobe::isa
