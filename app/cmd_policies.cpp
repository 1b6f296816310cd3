// gcnprobe policies: every disputed point of the reference model (reference/policy.h), its
// options with their sources, and the default per generation, or for one generation or chip
// (a chip's own quirks included: Policies::defaults(chip)).
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/commands.h"
#include "reference/error.h"
#include "reference/gen.h"
#include "reference/policy.h"

namespace gcnprobe::app {
namespace {

struct PoliciesOptions {
  std::string gen;
  std::string chip;
  bool json = false;
};

// The columns: one per generation, or the one generation or chip asked for.
struct Column {
  std::string name;
  gcn::Policies defaults;
};

std::vector<Column> columnsOf(const PoliciesOptions& o) {
  if (!o.gen.empty() && !o.chip.empty())
    throw gcn::Error("policies: give --gen or --chip, not both");
  if (!o.chip.empty()) {
    const gcn::Chip& chip = gcn::parseAnyChip(o.chip);
    return {{std::string(chip.name), gcn::Policies::defaults(chip)}};
  }
  if (!o.gen.empty()) {
    const gcn::Gen gen = gcn::parseAnyChip(o.gen).gen;
    return {{std::string(gcn::genName(gen)), gcn::Policies::defaults(gen)}};
  }
  std::vector<Column> all;
  for (const gcn::Gen g : gcn::kAllGens)
    all.push_back({std::string(gcn::genName(g)), gcn::Policies::defaults(g)});
  return all;
}

void printText(const std::vector<Column>& columns) {
  for (const gcn::PolicyPoint& p : gcn::allPolicyPoints()) {
    std::printf("%s: %s%s\n", std::string(p.name).c_str(), std::string(p.question).c_str(),
                p.addressing ? " (can move an access)" : "");
    const auto options = p.options();
    for (std::size_t k = 0; k < options.size(); ++k) {
      std::string by;
      for (const Column& c : columns)
        if (c.defaults.get(p.id) == k) by += (by.empty() ? "" : " ") + c.name;
      std::printf("  %-12s %s%s\n", std::string(options[k].name).c_str(),
                  std::string(options[k].source).c_str(),
                  by.empty() ? "" : ("  [default: " + by + "]").c_str());
    }
  }
}

void printJson(const std::vector<Column>& columns) {
  nlohmann::json points = nlohmann::json::array();
  for (const gcn::PolicyPoint& p : gcn::allPolicyPoints()) {
    nlohmann::json j{{"name", p.name},
                     {"question", p.question},
                     {"addressing", p.addressing},
                     {"options", nlohmann::json::array()},
                     {"defaults", nlohmann::json::object()}};
    for (const gcn::PolicyOption& opt : p.options())
      j["options"].push_back({{"name", opt.name}, {"source", opt.source}});
    for (const Column& c : columns)
      j["defaults"][c.name] = std::string(p.options()[c.defaults.get(p.id)].name);
    points.push_back(std::move(j));
  }
  std::printf("%s\n", nlohmann::json{{"policies", points}}.dump(1).c_str());
}

}  // namespace

void addPoliciesCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<PoliciesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "policies",
      "Every disputed point of the reference model: its options, their sources and the default "
      "per generation (or for one generation or chip)");
  cmd->add_option("--gen", o->gen, "only this generation's defaults: gfx6..gfx11");
  cmd->add_option("--chip", o->chip,
                  "only this chip's defaults, its own quirks included: tahiti, bonaire, ...");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->callback([o, &ctx] {
    const std::vector<Column> columns = columnsOf(*o);
    if (o->json)
      printJson(columns);
    else
      printText(columns);
    ctx.exitCode = 0;
  });
}

}  // namespace gcnprobe::app
