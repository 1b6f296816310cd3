// `gcnprobe isa`: which GCN instruction each case really runs, proven from the encoded words
// of the pipeline RADV's compiler (ACO) builds for a chip on RADV's compile-only null device
// (VK_KHR_pipeline_executable_properties). The driver choice is per process, so every chip
// runs in a child process (hidden `_isa-worker`, JSON lines on a pipe) told to use the active
// driver's RADV as the family's null device (harness/vulkan/driver.h). For gfx6/7 ACO runs
// `clrxdisasm` (Mesa 22.3.6 aco_print_asm.cpp) once per pipeline: the child answers those
// commands in-process (app/clrxdisasm/in_process.cpp), and its PATH starts with a temp dir
// holding a `clrxdisasm` that is the small gcnprobe-clrxdisasm program for anything else
// (app/clrx_dir.h, harness/isa/clrx_listing.h).
// Usage and output: docs/isa.md.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/child_process.h"
#include "app/clrx_dir.h"
#include "app/commands.h"
#include "harness/cases/select.h"
#include "harness/cases/suite.h"
#include "harness/cases/twin.h"
#include "harness/control/control_route.h"
#include "harness/formats.h"
#include "harness/isa/binary_patch.h"
#include "harness/isa/binary_route.h"
#include "harness/isa/check.h"
#include "harness/isa/clrx_listing.h"
#include "harness/isa/coverage.h"
#include "harness/isa/saved_listing.h"
#include "harness/routes/all_routes.h"
#include "harness/run/runner.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/driver.h"
#include "reference/error.h"
#include "reference/executor.h"
#include "reference/format.h"
#include "reference/opcodes.h"
#include "reference/resource.h"
#include "results/baseline.h"
#include "results/isa_compare.h"

namespace gcnprobe::app {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// ---- `_isa-worker`: one chip, inside the null-device environment ----------------------

struct IsaOptions {
  std::vector<std::string> families;
  std::vector<std::string> filters;  // globs: a case matching any of them (none: every case)
  std::vector<std::string> excludes;
  std::string suite;
  bool coverage = false;
  bool verbose = false;
  bool dumpAsm = false;  // print every executable's Assembly text (fixtures for tests)
  bool binary = false;   // with --coverage: the binary route's reach too (binary_patch.h)
  std::string json;      // write every chip's records as one JSON document here ('-': stdout)
  std::string baseline;  // expected route-misses and errors (results/baseline.h)
  std::string prove;     // prove this saved listing instead (harness/isa/saved_listing.h)
  std::vector<std::string> compare;  // two isa --json documents to compare (results/isa_compare.h)
  int outFd = 1;                     // _isa-worker: where the JSON lines go
};

json pairJson(const routes::DeviceCase& d, gcn::Gen gen) {
  const gcn::OpcodeInfo* op = d.inst.op;
  json j = json::object();
  if (op == nullptr) return j;
  // The (DATA_FORMAT, NUM_FORMAT) pair the conversion uses (on RDNA: its unified FORMAT's).
  const gcn::VSharp v =
      gcn::accessVSharp(gen, gcn::decodeVSharp(gen, gcn::vsharpWords(d.state, d.inst.srsrc)),
                        op->encoding == gcn::Encoding::Mtbuf);
  if (op->dfmtSource == gcn::FieldSource::Instruction ||
      op->dfmtSource == gcn::FieldSource::Resource) {
    const gcn::ConversionFormat f = gcn::conversionFormat(gen, *op, d.inst, v);
    j["dfmt"] = static_cast<int>(f.dfmt);
    j["nfmt"] = static_cast<int>(f.nfmt);
  }
  return j;
}

// A listing with each line prefixed by its 1-based number, "   12| ", the numbering of the ISA
// check's reasons ("listing line 12").
std::string numberedListing(const std::string& text) {
  std::string out;
  int n = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    char gutter[16];
    std::snprintf(gutter, sizeof gutter, "%5d| ", ++n);
    out += gutter + line + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

// The twins of a route-miss case in gcnprobe's own program (harness/cases/twin.h), each checked
// as any case: one object with the outcome ("verified" only when every twin is; "none" with why
// there is none) and one entry per twin.
// One case's ISA check on its route, as {route, outcome, reason, proof}: for a twin, and for
// the realisation a case with a preferred route did not take.
json checkedJson(const gcn::Chip& chip, const judge::Case& c,
                 std::span<const std::unique_ptr<routes::Route>> routeList) {
  json t = json::object();
  const routes::RouteChoice choice = routes::chooseRoute(routeList, c.device);
  try {
    if (choice.route == nullptr) throw gcn::Error(choice.reason);
    t["route"] = std::string(choice.route->name());
    if (const std::string u = choice.route->unbuildableReason(c.device); !u.empty()) {
      t["outcome"] = std::string(isa::caseOutcomeName(isa::CaseOutcome::Unsupported));
      t["reason"] = u;
    } else {
      const isa::CheckResult check =
          run::checkCaseIsa(chip.gen, c, choice.route->pipelineIsa(c.device));
      t["outcome"] = std::string(isa::caseOutcomeName(isa::caseOutcome(check.outcome)));
      t["reason"] = check.reason;
      t["proof"] = check.proven;
    }
  } catch (const std::exception& e) {
    t["outcome"] = std::string(isa::caseOutcomeName(isa::CaseOutcome::Error));
    t["reason"] = e.what();
  }
  return t;
}

json twinJson(const gcn::Chip& chip, const judge::Case& c,
              std::span<const std::unique_ptr<routes::Route>> routeList) {
  std::string why;
  const std::vector<judge::Case> twins = cases::programTwins(chip, c, why);
  if (twins.empty()) return {{"outcome", "none"}, {"reason", why}};
  json all{{"route", "program"}, {"cases", json::array()}};
  std::string outcome = "verified", reason;
  for (const judge::Case& twin : twins) {
    json t = checkedJson(chip, twin, routeList);
    t.erase("route");
    t["case"] = twin.name;
    if (t["outcome"] != "verified" && outcome == "verified") {
      outcome = t["outcome"].get<std::string>();
      reason = twin.name + ": " + t.value("reason", std::string());
    }
    all["cases"].push_back(std::move(t));
  }
  all["case"] = twins.size() == 1
                    ? twins.front().name
                    : c.name + "@program (" + std::to_string(twins.size()) + " loads)";
  all["outcome"] = outcome;
  all["reason"] = reason;
  return all;
}

// --dump-asm: the pipeline's listings, and the header of the case's saved listing
// (`isa --prove`): the case instruction as the listing writes it where the pipeline holds it on
// the case's buffer, else the intended.
void addListing(json& j, const gcn::Chip& chip, const judge::Case& c, const routes::Route& route,
                const routes::PipelineIsa& pisa, const isa::CheckResult& check) {
  for (const auto& exe : pisa.executables)
    j["assembly"].push_back(
        {{"name", exe.name}, {"stage", vk::stageNames(exe.stages)}, {"text", exe.assembly}});
  std::string caseText = j["intended"].get<std::string>();
  for (const isa::EmittedInstruction& e : check.emitted)
    if (e.decoded && e.descriptor == pisa.caseBuffer &&
        isa::mismatchField(c.device.inst, e.inst, pisa.offsetFixed).empty()) {
      caseText = e.driverText;
      break;
    }
  j["saved_listing_header"] =
      isa::savedListingHeader(chip, route.name(), caseText, pisa.soffsetValue);
}

// The ISA record of one case on `chip`'s null device: its route's pipeline built and checked
// (isa::CheckResult), the twins of a route-miss, the route a preferred route stood in for, and
// with --dump-asm the listing (`gcnprobe isa --json` writes one per line).
json caseIsaJson(const gcn::Chip& chip, const judge::Case& asked,
                 std::span<const std::unique_ptr<routes::Route>> routeList, const IsaOptions& o) {
  // A case with a preferred route takes it where this device builds it; the realisation it
  // did not take is checked too and reported beside it (`elsewhere`).
  std::string routeNote;
  const judge::Case c = run::withRunnableRoute(asked, routeList, run::RouteNeed::Build, &routeNote);
  json j = pairJson(c.device, chip.gen);
  j["case"] = c.name;
  if (!routeNote.empty()) j["route_note"] = routeNote;
  if (!asked.preferred.empty() && routes::chooseRoute(routeList, c.device).route !=
                                      routes::chooseRoute(routeList, asked.device).route) {
    judge::Case other = asked;
    other.preferred.clear();
    j["elsewhere"] = checkedJson(chip, other, routeList);
  }
  // Where the case sits in a report's matrix (results/isa_report.h): as `run --json` names them.
  j["suite"] = c.suite;
  const vk::BufferFormat* bf = vk::findBufferFormat(c.device.format);
  j["format"] = bf != nullptr ? std::string(bf->name) : "";
  j["binding"] = std::string(routes::bindingName(c.device.binding));
  j["intended"] = cases::caseInstructionText(chip.gen, c);
  j["mnemonic"] = c.device.inst.op != nullptr ? std::string(c.device.inst.op->mnemonic) : "";
  j["unsupported"] = "";
  j["emitted"] = json::array();
  if (!c.broken.empty()) {  // a probe file that does not parse (disputed suite)
    j["outcome"] = std::string(isa::caseOutcomeName(isa::CaseOutcome::Error));
    j["reason"] = c.broken;
    return j;
  }
  const routes::RouteChoice choice = routes::chooseRoute(routeList, c.device);
  if (choice.route == nullptr) {
    j["outcome"] = std::string(isa::caseOutcomeName(choice.ambiguous ? isa::CaseOutcome::Error
                                                                     : isa::CaseOutcome::NoRoute));
    j["reason"] = choice.reason;
    return j;
  }
  routes::Route* route = choice.route;
  try {
    j["unsupported"] = route->unsupportedReason(c.device);
    if (const std::string why = route->unbuildableReason(c.device); !why.empty()) {
      j["outcome"] = std::string(isa::caseOutcomeName(isa::CaseOutcome::Unsupported));
      j["reason"] = why;
      return j;
    }
    const routes::PipelineIsa pisa = route->pipelineIsa(c.device);
    const isa::CheckResult check = run::checkCaseIsa(chip.gen, c, pisa);
    if (o.dumpAsm) addListing(j, chip, c, *route, pisa, check);
    j["outcome"] = std::string(isa::caseOutcomeName(isa::caseOutcome(check.outcome)));
    j["reason"] = check.reason;
    j["proof"] = check.proven;
    if (check.components != 0) j["components_proven"] = isa::componentNames(check.components);
    for (const isa::EmittedInstruction& e : check.emitted)
      j["emitted"].push_back({{"text", e.describe(chip.gen)},
                              {"driver", e.driverText},
                              {"disagreement", e.textDisagreement}});
    // The driver's path is not proven: the case's twin in gcnprobe's own program
    // (harness/cases/twin.h) gives it a proven one; the driver's verdict stays the case's.
    if (check.outcome == isa::Outcome::RouteMiss) {
      j["twin"] = twinJson(chip, c, routeList);
      // The driver cannot run the case on this chip (a format RADV lacks): its twin runs the
      // reference model's V#, written by gcnprobe, not one the driver built.
      if (!j["unsupported"].get<std::string>().empty())
        j["twin"]["note"] =
            "the case's route cannot run it on this chip; the twin's V# is the reference "
            "model's, written by gcnprobe";
    }
  } catch (const std::exception& e) {
    j["outcome"] = std::string(isa::caseOutcomeName(isa::CaseOutcome::Error));
    j["reason"] = e.what();
  }
  return j;
}

int runWorker(const IsaOptions& o) {
  if (o.families.size() != 1) throw gcn::Error("_isa-worker takes one --family");
  auto ctx = vk::Context::open("", false, /*descriptorBuffer=*/true);
  const vk::DeviceInfo& info = ctx->info();
  const char* forced = std::getenv("RADV_FORCE_FAMILY");
  // GCN devices carry their chip in DeviceInfo; an RDNA null device is known by its name.
  const std::optional<gcn::Chip>& found = info.modelledChip();
  if (!found || forced == nullptr ||
      (found->radvFamily != forced && found->radvFamilyMesa22 != forced))
    throw gcn::Error("device '" + info.name + "' is not RADV's null device for " +
                     (forced != nullptr ? forced : "(RADV_FORCE_FAMILY unset)"));
  const gcn::Chip chip = *found;
  auto routeList = control::makeRunRoutes(*ctx);  // the same list `gcnprobe run` uses
  // JSON goes to its own descriptor: the driver and ACO's `system("clrxdisasm --version")`
  // write to stdout.
  FILE* out = fdopen(dup(o.outFd), "w");
  if (out == nullptr) throw gcn::Error("--out-fd " + std::to_string(o.outFd) + " is not open");
  results::Selection selection;
  selection.include = o.filters;
  selection.exclude = o.excludes;
  const std::vector<judge::Case> cases = cases::selectCases(o.suite, chip, selection);
  if (cases.empty() && !o.filters.empty()) {
    std::string what;
    for (const std::string& f : o.filters)
      what += (what.empty() ? "'" : ", '") + f + "'";
    throw gcn::Error(gcn::Place{"--filter", 0, 0},
                     "no case matches " + what +
                         (o.suite.empty() ? std::string() : " in suite '" + o.suite + "'"));
  }
  const json header{{"device", info.name},
                    {"driver", info.driverName + " " + info.driverInfo},
                    {"chip", std::string(chip.name)},
                    {"cases", cases.size()}};
  std::fprintf(out, "%s\n", header.dump().c_str());
  std::fflush(out);
  for (const judge::Case& asked : cases) {
    const json j = caseIsaJson(chip, asked, routeList, o);
    std::fprintf(out, "%s\n", j.dump(-1, ' ', false, json::error_handler_t::replace).c_str());
    std::fflush(out);
  }
  if (o.binary) {
    // One line per opcode of the generation: built and proven by the binary route, or why
    // not (harness/isa/binary_patch.h; the same rows as `gcnprobe binary`).
    isa::BinaryBuilder builder(*ctx);
    for (const gcn::OpcodeInfo& op : gcn::allOpcodes()) {
      if (!gcn::existsOn(op, chip.gen)) continue;
      json j{{"binary", std::string(op.mnemonic)}};
      try {
        const isa::BinaryBuild b = builder.build(isa::onTemplateOperands(
            chip.gen, builder.templateInstruction(op), op, gcn::Dfmt::F32, gcn::Nfmt::Uint));
        j["reason"] = b.built ? "" : b.reason;
      } catch (const gcn::Error& e) {
        j["reason"] = std::string("binary route: ") + e.what();
      }
      std::fprintf(out, "%s\n", j.dump(-1, ' ', false, json::error_handler_t::replace).c_str());
    }
  }
  std::fclose(out);
  return 0;
}

// ---- `isa`: the parent ------------------------------------------------------------------

// Runs `gcnprobe _isa-worker` for one RADV family; returns its JSON lines. Throws
// gcn::Error when it cannot start or does not exit 0.
std::vector<json> runChild(const std::string& family, const IsaOptions& o, const ClrxDir& clrx) {
  ChildSpec spec;
  // The JSON lines come on fd 3; the child's stdout (driver chatter) goes to our stderr.
  spec.args = {"_isa-worker", "--family", family, "--out-fd", "3"};
  for (const std::string& f : o.filters)
    spec.args.insert(spec.args.end(), {"--filter", f});
  for (const std::string& x : o.excludes)
    spec.args.insert(spec.args.end(), {"--exclude", x});
  if (!o.suite.empty()) spec.args.insert(spec.args.end(), {"--suite", o.suite});
  if (o.dumpAsm) spec.args.push_back("--dump-asm");
  if (o.coverage) spec.args.push_back("--binary");
  // The active driver (system or --driver folder) as RADV's null device for the family.
  for (const auto& [k, v] : vk::radvNullEnvironment(family))
    spec.env.emplace_back(k, v);
  const char* path = std::getenv("PATH");
  spec.env.emplace_back("PATH", clrx.prependTo(path));
  // The binary and own-program routes import patched pipeline caches: with Mesa's on-disk cache
  // on, RADV writes the patched code there under the template's key and serves it to later
  // compiles of the template, in this run and later ones (docs/binary.md).
  spec.env.emplace_back("MESA_SHADER_CACHE_DISABLE", "true");
  if (std::getenv("XDG_RUNTIME_DIR") == nullptr)
    spec.env.emplace_back("XDG_RUNTIME_DIR", clrx.path().string());
  // In this process's group: a terminal's Ctrl-C stops the workers with `isa`.
  spec.ownProcessGroup = false;
  spec.stdoutToStderr = true;
  std::vector<json> lines;
  std::string parseError;
  spec.onLine = [&](const std::string& line) {
    try {
      lines.push_back(json::parse(line));
    } catch (const std::exception& e) {
      if (parseError.empty()) parseError = e.what();
    }
  };
  const ChildResult r = runChildProcess(spec);
  if (!r.started)
    throw gcn::Error("cannot start the " + family + " null-device process: " + r.error);
  if (r.signal != 0 || r.exitCode != 0)
    throw gcn::Error("the " + family + " null-device process failed (" +
                     (r.signal != 0 ? "signal " + std::to_string(r.signal)
                                    : "exit " + std::to_string(r.exitCode)) +
                     "); its messages are above");
  if (!parseError.empty()) throw gcn::Error("unreadable worker output: " + parseError);
  if (lines.empty()) throw gcn::Error("the " + family + " null-device process printed nothing");
  return lines;
}

// `isa --prove FILE`: exit 0 proven, 1 not proven (the reason on stdout), 2 malformed.
int runProve(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "gcnprobe: error: %s: cannot read the saved listing\n", file.c_str());
    return 2;
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  isa::SavedProof proof;
  try {
    proof = isa::proveSavedListing(isa::parseSavedListing(text, file));
  } catch (const gcn::Error& e) {
    std::fprintf(stderr, "gcnprobe: error: %s\n", e.what());
    return 2;
  }
  if (!proof.proven) {
    std::printf("not proven: %s\n", proof.reason.c_str());
    return 1;
  }
  std::printf("proven: %s\n", proof.instruction.c_str());
  for (const std::string& link : proof.links)
    std::printf("  %s\n", link.c_str());
  return 0;
}

// `isa --compare A B`: exit 1 when a case verified in A is not in B, 2 on a file that is no
// isa JSON.
int runCompare(const IsaOptions& o) {
  std::vector<json> docs;
  for (const std::string& path : o.compare) {
    std::ifstream in(path);
    if (!in) throw gcn::Error(path + ": cannot be read");
    json j = json::parse(in, nullptr, false);
    if (j.is_discarded()) throw gcn::Error(path + ": not JSON");
    docs.push_back(std::move(j));
  }
  const results::IsaComparison c =
      results::compareIsa(docs[0], docs[1], o.compare[0], o.compare[1]);
  std::printf("%s", results::isaComparisonText(c).c_str());
  return c.newlyBroken > 0 ? 1 : 0;
}

// What `isa` counts for one chip.
struct ChipTally {
  std::map<std::string, unsigned> counts;  // by outcome name
  unsigned unsupported = 0, disagreements = 0, partial = 0, expected = 0, unexpected = 0;
  unsigned twinsProven = 0;  // route-misses whose own-program twin is verified

  // Counts one case's record. A route-miss or error the baseline expects does not fail the run
  // (as in `run`); the names of those cases go to `seenNames`.
  void add(const json& j, isa::CaseOutcome outcome, const results::Baseline& baseline,
           std::vector<std::string>& seenNames) {
    ++counts[std::string(isa::caseOutcomeName(outcome))];
    if (outcome == isa::CaseOutcome::RouteMiss || outcome == isa::CaseOutcome::Error ||
        outcome == isa::CaseOutcome::NoAssembly || outcome == isa::CaseOutcome::NoIsa) {
      const std::string name = j.value("case", std::string());
      seenNames.push_back(name);
      const results::BaselineEntry* e = baseline.find(name);
      const results::Verdict v = outcome == isa::CaseOutcome::RouteMiss
                                     ? results::Verdict::RouteMiss
                                     : results::Verdict::Error;
      if (e != nullptr && e->covers(v))
        ++expected;
      else
        ++unexpected;
    }
    if (!j.value("unsupported", std::string()).empty()) ++unsupported;
    if (const auto t = j.find("twin");
        t != j.end() && t->value("outcome", std::string()) == "verified")
      ++twinsProven;
  }
};

// One case's record as `isa` prints it: outcome, emitted instructions, reason, proof links, twin,
// route notes, and the listing with --dump-asm. Counts driver-text disagreements and partial
// proofs in `tally`.
void printCaseRecord(FILE* text, const json& j, isa::CaseOutcome outcome,
                     const std::string& outcomeText, ChipTally& tally) {
  const std::string unsup = j.value("unsupported", std::string());
  std::fprintf(text, "%s  %s  %s\n", j.value("case", std::string()).c_str(), outcomeText.c_str(),
               j.value("intended", std::string()).c_str());
  for (const json& e : j["emitted"]) {
    std::fprintf(text, "    emitted: %s\n", e.value("text", std::string()).c_str());
    const std::string dis = e.value("disagreement", std::string());
    if (!dis.empty()) {
      ++tally.disagreements;
      std::fprintf(text, "    driver text disagrees: %s\n", dis.c_str());
    }
  }
  if (outcome != isa::CaseOutcome::Verified)
    std::fprintf(text, "    reason: %s\n", j.value("reason", std::string()).c_str());
  if (j.contains("components_proven")) {
    ++tally.partial;
    std::fprintf(text,
                 "    components proven: %s (the others are the driver's rewrite: a device "
                 "run judges only these)\n",
                 j["components_proven"].get<std::string>().c_str());
  }
  if (const auto p = j.find("proof"); p != j.end() && p->is_array())
    for (const json& link : *p)
      if (link.is_string()) std::fprintf(text, "    %s\n", link.get<std::string>().c_str());
  if (!unsup.empty()) std::fprintf(text, "    unsupported on this chip: %s\n", unsup.c_str());
  if (const auto t = j.find("twin"); t != j.end())
    std::fprintf(text, "    twin %s: %s%s\n", t->value("case", std::string("-")).c_str(),
                 t->value("outcome", std::string()).c_str(),
                 t->value("outcome", std::string()) == "verified"
                     ? ""
                     : (" (" + t->value("reason", std::string()) + ")").c_str());
  if (const auto n = j.find("route_note"); n != j.end() && n->is_string())
    std::fprintf(text, "    %s\n", n->get<std::string>().c_str());
  if (const auto e = j.find("elsewhere"); e != j.end() && e->is_object())
    std::fprintf(text, "    route %s (where the preferred route cannot run): %s%s\n",
                 e->value("route", std::string("?")).c_str(),
                 e->value("outcome", std::string()).c_str(),
                 e->value("outcome", std::string()) == "verified"
                     ? ""
                     : (" (" + e->value("reason", std::string()) + ")").c_str());
  if (j.contains("saved_listing_header"))
    std::fprintf(text, "%s", j["saved_listing_header"].get<std::string>().c_str());
  if (j.contains("assembly"))
    for (const json& a : j["assembly"]) {
      std::fprintf(text, "    --- stage %s (the driver calls it '%s') ---\n",
                   a.value("stage", std::string()).c_str(), a.value("name", std::string()).c_str());
      // Each line numbered as the reasons cite it ("listing line N"); `isa --prove` reads
      // the numbers back (harness/isa/saved_listing.h).
      std::fprintf(text, "%s", numberedListing(a.value("text", std::string())).c_str());
    }
}

// The chip's summary line ("tonga: 59 cases, 59 verified, 0 route-miss (...)").
std::string chipSummaryLine(const gcn::Chip& real, std::size_t cases, ChipTally& tally,
                            bool withBaseline) {
  std::string line = std::string(real.name) + ": " + std::to_string(cases) + " cases, " +
                     std::to_string(tally.counts["verified"]) + " verified, " +
                     std::to_string(tally.counts["route-miss"]) + " route-miss";
  for (const auto& [k, n] : tally.counts)
    if (k != "verified" && k != "route-miss") line += ", " + std::to_string(n) + " " + k;
  line += " (" + std::to_string(tally.unsupported) + " of them unsupported on the chip";
  if (tally.partial > 0)
    line +=
        ", " + std::to_string(tally.partial) + " of the route-misses proven for some components";
  if (tally.counts["route-miss"] > 0)
    line += ", " + std::to_string(tally.twinsProven) +
            " of the route-misses proven by their twin in gcnprobe's own program";
  if (withBaseline)
    line += ", " + std::to_string(tally.expected) + " expected by the baseline, " +
            std::to_string(tally.unexpected) + " not";
  if (tally.disagreements > 0)
    line += ", " + std::to_string(tally.disagreements) + " driver-text disagreements";
  line += ")";
  return line;
}

// The chips `isa` checks: one per GCN generation, or the --family ones (RADV must know them).
std::vector<const gcn::Chip*> isaChips(const std::vector<std::string>& families) {
  std::vector<const gcn::Chip*> chips;
  if (families.empty())
    for (gcn::Gen g : gcn::kGcnGens)
      chips.push_back(&gcn::representativeChip(g));
  for (const std::string& f : families) {
    const gcn::Chip& c = gcn::parseAnyChip(f);
    if (c.radvFamily.empty())
      throw gcn::Error(gcn::Place{"--family", 0, 0}, "RADV has no family for '" + f + "'");
    chips.push_back(&c);
  }
  return chips;
}

// What the coverage table needs of a case's JSON record.
isa::CaseIsaRecord caseIsaRecordOf(const json& j, isa::CaseOutcome outcome) {
  isa::CaseIsaRecord rec{j.value("case", std::string()),
                         j.value("mnemonic", std::string()),
                         std::nullopt,
                         std::nullopt,
                         outcome,
                         j.value("unsupported", std::string())};
  if (j.contains("dfmt")) {
    rec.dfmt = static_cast<gcn::Dfmt>(j["dfmt"].get<int>());
    rec.nfmt = static_cast<gcn::Nfmt>(j["nfmt"].get<int>());
  }
  return rec;
}

// --json: the document to standard output ("-") or to the file.
void writeIsaJson(const std::string& path, const json& document) {
  const std::string dumped = document.dump(1, ' ', false, json::error_handler_t::replace);
  if (path == "-") {
    std::printf("%s\n", dumped.c_str());
    return;
  }
  std::ofstream f(path, std::ios::binary);
  f << dumped << "\n";
  f.close();
  if (!f) throw gcn::InfraError(path + ": cannot write the JSON report");
}

int runIsa(const IsaOptions& o) {
  if (!o.compare.empty()) return runCompare(o);
  if (!o.prove.empty()) {
    if (!o.families.empty() || !o.filters.empty() || !o.excludes.empty() || !o.suite.empty() ||
        o.coverage || o.dumpAsm || !o.json.empty())
      throw gcn::Error(gcn::Place{"--prove", 0, 0},
                       "takes no other option: the file names the chip, the route and the case");
    return runProve(o.prove);
  }
  const std::vector<const gcn::Chip*> chips = isaChips(o.families);
  gcn::requireWritable(o.json, "JSON report");
  // With --json -, the JSON document is the standard output and the text goes to stderr.
  FILE* text = o.json == "-" ? stderr : stdout;
  json document = {{"chips", json::array()}};
  const ClrxDir clrx;
  bool failed = false;
  // Read before any null device starts: a bad baseline is bad input.
  const results::Baseline baseline =
      o.baseline.empty() ? results::Baseline{} : results::readBaseline(o.baseline);
  std::vector<std::string> seenNames;
  std::string coverageText;
  for (const gcn::Chip* chip : chips) {
    const std::string family(chip->radvFamily);
    const std::vector<json> lines = runChild(family, o, clrx);
    const gcn::Chip& real = gcn::parseAnyChip(lines.front().value("chip", family));
    json chipJson = {{"chip", std::string(real.name)},
                     {"generation", std::string(gcn::genName(real.gen))},
                     {"device", lines.front().value("device", std::string())},
                     {"driver", lines.front().value("driver", std::string())},
                     {"cases", json::array()},
                     {"binary", json::object()}};
    std::fprintf(text, "== %s (%s): %s, driver %s\n", std::string(real.name).c_str(),
                 std::string(gcn::genName(real.gen)).c_str(),
                 lines.front().value("device", std::string("?")).c_str(),
                 lines.front().value("driver", std::string("?")).c_str());
    ChipTally tally;
    std::vector<isa::CaseIsaRecord> records;
    std::map<std::string, std::string> binary;  // opcode -> "" (built) or why not
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const json& j = lines[i];
      if (j.contains("binary")) {
        binary[j["binary"].get<std::string>()] = j.value("reason", std::string());
        chipJson["binary"][j["binary"].get<std::string>()] = j.value("reason", std::string());
        continue;
      }
      chipJson["cases"].push_back(j);
      const isa::CaseOutcome outcome = isa::parseCaseOutcome(j.value("outcome", std::string()))
                                           .value_or(isa::CaseOutcome::Error);
      const std::string outcomeText(isa::caseOutcomeName(outcome));
      tally.add(j, outcome, baseline, seenNames);
      records.push_back(caseIsaRecordOf(j, outcome));
      if (o.coverage && !o.verbose) continue;
      printCaseRecord(text, j, outcome, outcomeText, tally);
    }
    const std::string line = chipSummaryLine(real, records.size(), tally, !baseline.empty());
    std::fprintf(text, "%s\n", line.c_str());
    std::fflush(text);
    // Non-zero on any route-miss; an error (pipeline not built, unreadable ISA) or
    // missing assembly also means the check did not prove anything.
    if (baseline.empty()) {
      for (const char* bad : {"route-miss", "error", "no-assembly", "no-isa"})
        if (tally.counts[bad] > 0) failed = true;
    } else if (tally.unexpected > 0) {
      failed = true;
    }
    chipJson["summary"] = line;
    chipJson["counts"] = tally.counts;
    chipJson["twins_proven"] = tally.twinsProven;
    document["chips"].push_back(std::move(chipJson));
    if (o.coverage)
      coverageText +=
          "\n" + isa::coverageMarkdown(real, isa::coverage(real.gen, records, real.name), &binary);
  }
  if (o.coverage) std::fprintf(text, "%s", coverageText.c_str());
  if (!o.json.empty()) writeIsaJson(o.json, document);
  return failed ? 1 : 0;
}

}  // namespace

void addIsaCommand(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<IsaOptions>();
  CLI::App* cmd = app.add_subcommand(
      "isa",
      "Build every case's pipeline on RADV's null device for a chip and prove from the "
      "encoded words that it holds the intended buffer instruction (route-miss otherwise)");
  cmd->add_option("--family", opts->families,
                  "chip(s): tahiti|hawaii|bonaire|tonga|polaris10|vega10|... or gfx6..gfx9 "
                  "(default: tahiti, bonaire, tonga, vega10)");
  cmd->add_option("--filter", opts->filters,
                  "only cases whose name matches this glob (* and ?); repeat for several");
  cmd->add_option("--exclude", opts->excludes, "leave out cases matching this glob; repeatable");
  cmd->add_option("--compare", opts->compare,
                  "compare two isa --json files (before after): per case the verdict and the "
                  "case's own instruction that changed; exit 1 when a case verified before is "
                  "not after")
      ->expected(2);
  cmd->add_option("--baseline", opts->baseline,
                  "expected route-misses and errors (the file format of run's baselines: "
                  "NAME-or-GLOB,route-miss per line): exit 0 when every other case is verified");
  cmd->add_option("--suite", opts->suite, "only this suite");
  cmd->add_flag("--coverage", opts->coverage,
                "print the (opcode, DFMT, NFMT) coverage table per chip instead of every case");
  cmd->add_flag("--verbose", opts->verbose, "with --coverage, print every case too");
  cmd->add_option("--json", opts->json,
                  "also write every chip's case records (outcome, intended and emitted "
                  "instructions, proof) as one JSON document to this file ('-': standard output, "
                  "and the text goes to standard error)");
  cmd->add_flag("--dump-asm", opts->dumpAsm,
                "print each case's full Assembly text after the header lines of a saved listing "
                "(one case's dump is a FILE for --prove)");
  cmd->add_option("--prove", opts->prove,
                  "prove a saved listing FILE ('chip =', 'route =', 'case =' lines, then the "
                  "listing): exit 0 proven, 1 not (the reason on standard output), 2 malformed")
      ->type_name("FILE");
  cmd->callback([opts, &ctx] { ctx.exitCode = runIsa(*opts); });

  auto worker = std::make_shared<IsaOptions>();
  CLI::App* w = app.add_subcommand("_isa-worker", "");
  w->group("");  // hidden: the child process of `isa` (see the file comment)
  w->add_option("--family", worker->families);
  w->add_option("--filter", worker->filters);
  w->add_option("--exclude", worker->excludes);
  w->add_option("--suite", worker->suite);
  w->add_option("--out-fd", worker->outFd);
  w->add_flag("--dump-asm", worker->dumpAsm);
  w->add_flag("--binary", worker->binary);
  w->callback([worker, &ctx] { ctx.exitCode = runWorker(*worker); });

  // Hidden: what the `clrxdisasm` script in the child's PATH runs when the small
  // gcnprobe-clrxdisasm program is not beside this one (app/clrx_dir.h). The options are CLRX's;
  // the stand-in itself is the small program's (isa::clrxDisasmMain).
  struct ClrxArgs {
    bool version = false;
    bool raw = false;
    std::string gpuType;
    std::vector<std::string> files;
  };
  auto clrx = std::make_shared<ClrxArgs>();
  CLI::App* c = app.add_subcommand("_clrxdisasm", "");
  c->group("");
  c->add_flag("--version", clrx->version);
  c->add_flag("-r,--raw", clrx->raw);
  c->add_option("-g,--gpuType", clrx->gpuType);
  c->add_option("file", clrx->files);
  c->callback([clrx, &ctx] {
    std::vector<std::string> args;
    if (clrx->version) args.push_back("--version");
    if (clrx->raw) args.push_back("-r");
    if (!clrx->gpuType.empty()) args.push_back("--gpuType=" + clrx->gpuType);
    args.insert(args.end(), clrx->files.begin(), clrx->files.end());
    const std::vector<std::string_view> views(args.begin(), args.end());
    ctx.exitCode = isa::clrxDisasmMain(views, stdout);
  });
}

}  // namespace gcnprobe::app
