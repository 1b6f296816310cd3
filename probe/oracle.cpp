#include "probe/oracle.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "reference/assembler.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/executor.h"
#include "reference/gen.h"
#include "reference/opcodes.h"
#include "reference/policy.h"
#include "reference/resource.h"
#include "reference/text.h"

namespace gcn::probe {
namespace {

using nlohmann::json;

// A query field that is wrong: its JSON path and the reason.
struct FieldError {
  std::string field, reason;
};

[[noreturn]] void bad(const std::string& field, const std::string& reason) {
  throw FieldError{field, reason};
}

// A JSON unsigned number, or a string holding one ("0x1f", "31").
uint64_t number(const json& v, const std::string& field, uint64_t max = 0xffffffffull) {
  uint64_t x = 0;
  if (v.is_number_unsigned()) {
    x = v.get<uint64_t>();
  } else if (v.is_number_integer() && v.get<int64_t>() >= 0) {
    x = static_cast<uint64_t>(v.get<int64_t>());
  } else if (v.is_string()) {
    if (!parseUnsigned(v.get<std::string>(), x))
      bad(field, "'" + v.get<std::string>() + "' is not a number");
  } else {
    bad(field, "expected a number or a string holding one");
  }
  if (x > max)
    bad(field, "does not fit in " + std::string(max == 0xffffffffull ? "32" : "64") + " bits");
  return x;
}

std::vector<uint8_t> bytesOfHex(const std::string& text, const std::string& field) {
  if (text.size() % 2 != 0) bad(field, "an odd number of hex digits");
  std::vector<uint8_t> out;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    uint64_t b = 0;
    if (!parseUnsigned("0x" + text.substr(i, 2), b))
      bad(field, "'" + text.substr(i, 2) + "' is not hex");
    out.push_back(static_cast<uint8_t>(b));
  }
  return out;
}

struct Query {
  const Chip* chip = nullptr;
  Instruction inst;
  WaveState state;
  MemoryImage memory;
  std::vector<uint8_t> lds;
  Policies policies = Policies::defaults(Gen::Gfx8);
  bool alternatives = false;
};

void checkKnownFields(const json& q) {
  if (!q.is_object()) bad("", "a query is a JSON object");
  static const std::array<std::string_view, 16> kKeys = {
      "id",    "chip", "gen",  "inst", "inst_words", "vsharp", "vsharp_words", "exec",
      "lanes", "vgpr", "sgpr", "m0",   "memory",     "lds",    "policy",       "alternatives"};
  for (const auto& [k, v] : q.items()) {
    bool known = false;
    for (const std::string_view key : kKeys)
      known = known || k == key;
    if (!known) bad(k, "unknown field (docs/oracle.md lists them)");
  }
}

const Chip& queryChip(const json& q) {
  const std::string chipField = q.contains("chip") ? "chip" : "gen";
  if (!q.contains(chipField) || !q[chipField].is_string())
    bad("chip", "give 'chip' or 'gen' as a string");
  try {
    return parseAnyChip(q[chipField].get<std::string>());
  } catch (const Error& e) {
    bad(chipField, e.reason());
  }
}

Instruction queryInstruction(const json& q, const Chip& chip) {
  const Gen gen = chip.gen;
  try {
    Instruction inst;
    if (q.contains("inst_words")) {
      const json& w = q["inst_words"];
      if (!w.is_array() || w.size() != 2) bad("inst_words", "two dwords");
      inst = decode(gen, static_cast<uint32_t>(number(w[0], "inst_words[0]")),
                    static_cast<uint32_t>(number(w[1], "inst_words[1]")));
    } else if (q.contains("inst") && q["inst"].is_string()) {
      inst = parseInstruction(chip, q["inst"].get<std::string>());
    } else {
      bad("inst", "give 'inst' (assembler text) or 'inst_words' (two dwords)");
    }
    validate(gen, inst);
    return inst;
  } catch (const Error& e) {
    bad(q.contains("inst_words") ? "inst_words" : "inst", e.reason());
  }
}

// SGPRs, then the V# in s[srsrc..srsrc+3] over them.
void setScalars(const json& q, Gen gen, unsigned srsrc, WaveState& state) {
  if (q.contains("sgpr")) {
    if (!q["sgpr"].is_object()) bad("sgpr", "an object of register number: value");
    for (const auto& [k, v] : q["sgpr"].items()) {
      uint64_t r = 0;
      if (!parseUnsigned(k, r) || r >= kSgprCount)
        bad("sgpr." + k, "no SGPR s" + k + " (s0..s103)");
      state.sgpr[r] = static_cast<uint32_t>(number(v, "sgpr." + k));
    }
  }
  std::array<uint32_t, 4> vsharp{};
  try {
    if (q.contains("vsharp_words")) {
      const json& w = q["vsharp_words"];
      if (!w.is_array() || w.size() != 4) bad("vsharp_words", "four dwords");
      for (std::size_t i = 0; i < 4; ++i)
        vsharp[i] = static_cast<uint32_t>(number(w[i], "vsharp_words[" + std::to_string(i) + "]"));
    } else if (q.contains("vsharp") && q["vsharp"].is_string()) {
      vsharp = encodeVSharp(gen, parseVSharp(gen, q["vsharp"].get<std::string>()));
    } else {
      bad("vsharp", "give 'vsharp' (fields as text) or 'vsharp_words' (four dwords)");
    }
    setVsharpWords(state, srsrc, vsharp);
  } catch (const Error& e) {
    bad(q.contains("vsharp_words") ? "vsharp_words" : "vsharp", e.reason());
  }
}

// lanes, exec, m0 and the VGPRs.
void setLanes(const json& q, WaveState& state) {
  const uint64_t lanes = q.contains("lanes") ? number(q["lanes"], "lanes") : kWaveSize;
  if (lanes < 1 || lanes > kWaveSize) bad("lanes", "1..64");
  state.exec = q.contains("exec") ? number(q["exec"], "exec", ~0ull)
                                  : (lanes == 64 ? ~0ull : (1ull << lanes) - 1);
  if (q.contains("m0")) state.m0 = static_cast<uint32_t>(number(q["m0"], "m0"));
  if (!q.contains("vgpr")) return;
  if (!q["vgpr"].is_object()) bad("vgpr", "an object of register number: value or per-lane list");
  for (const auto& [k, v] : q["vgpr"].items()) {
    uint64_t r = 0;
    const std::string field = "vgpr." + k;
    if (!parseUnsigned(k, r) || r >= kVgprCount) bad(field, "no VGPR v" + k + " (v0..v255)");
    LaneWords& lw = state.vgprMut(static_cast<unsigned>(r));
    if (v.is_array()) {
      if (v.size() > kWaveSize) bad(field, "more than 64 lanes");
      for (std::size_t l = 0; l < v.size(); ++l)
        lw[l] = static_cast<uint32_t>(number(v[l], field + "[" + std::to_string(l) + "]"));
    } else {
      lw.fill(static_cast<uint32_t>(number(v, field)));
    }
  }
}

MemoryImage queryMemory(const json& q) {
  MemoryImage memory;
  if (!q.contains("memory")) return memory;
  const json& m = q["memory"];
  if (!m.is_object()) bad("memory", "an object: base and hex (or words)");
  memory.base = m.contains("base") ? number(m["base"], "memory.base", ~0ull) : 0;
  if (m.contains("hex")) {
    if (!m["hex"].is_string()) bad("memory.hex", "a string of hex digits");
    memory.bytes = bytesOfHex(m["hex"].get<std::string>(), "memory.hex");
  } else if (m.contains("words")) {
    if (!m["words"].is_array()) bad("memory.words", "a list of dwords");
    for (std::size_t i = 0; i < m["words"].size(); ++i) {
      const auto w =
          static_cast<uint32_t>(number(m["words"][i], "memory.words[" + std::to_string(i) + "]"));
      for (int b = 0; b < 4; ++b)
        memory.bytes.push_back(static_cast<uint8_t>(w >> (8 * b)));
    }
  }
  if (memory.bytes.size() > (64u << 20)) bad("memory", "more than 64 MiB");
  return memory;
}

// The chip's defaults with the query's policy points, as a list or an object.
Policies queryPolicies(const json& q, const Chip& chip) {
  Policies policies = Policies::defaults(chip);
  if (!q.contains("policy")) return policies;
  const json& p = q["policy"];
  try {
    if (p.is_array()) {
      for (const json& a : p) {
        if (!a.is_string()) bad("policy", "a list of 'name=option' strings");
        policies.set(a.get<std::string>());
      }
    } else if (p.is_object()) {
      for (const auto& [k, v] : p.items()) {
        if (!v.is_string()) bad("policy." + k, "an option name");
        policies.set(k + "=" + v.get<std::string>());
      }
    } else {
      bad("policy", "a list of 'name=option' or an object of name: option");
    }
  } catch (const Error& e) {
    bad("policy", e.reason());
  }
  return policies;
}

Query parseQuery(const json& q) {
  checkKnownFields(q);
  Query out;
  out.chip = &queryChip(q);
  out.inst = queryInstruction(q, *out.chip);
  setScalars(q, out.chip->gen, out.inst.srsrc, out.state);
  setLanes(q, out.state);
  out.memory = queryMemory(q);
  if (q.contains("lds")) {
    if (!q["lds"].is_string()) bad("lds", "a string of hex digits");
    out.lds = bytesOfHex(q["lds"].get<std::string>(), "lds");
  }
  out.policies = queryPolicies(q, *out.chip);
  if (q.contains("alternatives")) {
    if (!q["alternatives"].is_boolean()) bad("alternatives", "true or false");
    out.alternatives = q["alternatives"].get<bool>();
  }
  return out;
}

json lanesOf(const ExecResult& r) {
  json lanes = json::array();
  for (unsigned l = 0; l < kWaveSize; ++l) {
    const LaneResult& lr = r.lanes[l];
    if (!lr.active) continue;
    json j{{"lane", l}};
    json vdata = json::array();
    for (unsigned k = 0; k < lr.vdataCount; ++k)
      vdata.push_back(lr.vdata[k] ? json(hexNumber(*lr.vdata[k])) : json(nullptr));
    j["vdata"] = std::move(vdata);
    json acc = json::array();
    for (const LaneAccess& a : lr.accesses)
      acc.push_back({{"address", hexNumber(a.address)},
                     {"size", a.size},
                     {"in_range", a.inRange},
                     {"write", a.write}});
    j["accesses"] = std::move(acc);
    if (lr.memoryUnclaimed) j["memory_unclaimed"] = true;
    if (!lr.note.empty()) j["why"] = lr.note;
    lanes.push_back(std::move(j));
  }
  return lanes;
}

// Every byte range a lane wrote, with its bytes after the instruction and whether the model
// claims them.
json memoryWritesOf(const ExecResult& r) {
  json out = json::array();
  const MemoryImage& after = r.memory();
  for (unsigned l = 0; l < kWaveSize; ++l) {
    const LaneResult& lr = r.lanes[l];
    if (!lr.active) continue;
    for (const LaneAccess& a : lr.accesses) {
      if (!a.write || !a.inRange) continue;
      json j{{"lane", l},
             {"address", hexNumber(a.address)},
             {"size", a.size},
             {"claimed", !lr.memoryUnclaimed}};
      if (a.mapped && a.address >= after.base &&
          a.address + a.size <= after.base + after.bytes.size() && !lr.memoryUnclaimed)
        j["bytes"] = gcn::hexDigits(
            std::span<const uint8_t>(after.bytes.data() + (a.address - after.base), a.size));
      else if (!a.mapped)
        j["claimed"] = false;
      out.push_back(std::move(j));
    }
  }
  return out;
}

// One line of output; text from the query (a field name, a reason quoting it) that is not
// UTF-8 is replaced rather than thrown on.
std::string dumpLine(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string answerOracleLine(std::string_view line) {
  json id;
  try {
    const json q = json::parse(line, nullptr, false);
    if (q.is_discarded()) return dumpLine(json{{"ok", false}, {"error", "the line is not JSON"}});
    if (q.is_object() && q.contains("id")) id = q["id"];
    const Query query = parseQuery(q);
    const ExecResult r =
        execute(*query.chip, query.inst, query.state, query.memory, query.lds, query.policies);
    json out{{"ok", true},
             {"chip", std::string(query.chip->name)},
             {"inst", printInstruction(query.chip->gen, query.inst)},
             {"policies", query.policies.describe()},
             {"lanes", lanesOf(r)},
             {"memory_writes", memoryWritesOf(r)},
             {"notes", r.notes}};
    if (!id.is_null()) out["id"] = id;
    if (query.alternatives) {
      // Every other option of every point, alone: where its prediction differs.
      const std::string base = out["lanes"].dump() + out["memory_writes"].dump();
      json alt = json::array();
      for (const PolicyPoint& p : allPolicyPoints())
        for (const uint8_t o : otherOptions(p.id, query.policies.get(p.id))) {
          Policies other = query.policies;
          other.set(p.id, o);
          const ExecResult ro =
              execute(*query.chip, query.inst, query.state, query.memory, query.lds, other);
          json lanes = lanesOf(ro), writes = memoryWritesOf(ro);
          if (lanes.dump() + writes.dump() == base) continue;
          alt.push_back({{"policy", std::string(p.name) + "=" + std::string(p.options()[o].name)},
                         {"lanes", std::move(lanes)},
                         {"memory_writes", std::move(writes)}});
        }
      out["alternatives"] = std::move(alt);
    }
    return dumpLine(out);
  } catch (const FieldError& e) {
    json out{{"ok", false},
             {"field", e.field},
             {"error", (e.field.empty() ? "" : e.field + ": ") + e.reason}};
    if (!id.is_null()) out["id"] = id;
    return dumpLine(out);
  } catch (const std::exception& e) {
    json out{{"ok", false}, {"error", e.what()}};
    if (!id.is_null()) out["id"] = id;
    return dumpLine(out);
  }
}

}  // namespace gcn::probe
