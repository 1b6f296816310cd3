// The Python module over the reference model (docs/python.md): the streaming oracle's query as a
// dict, one element's conversion, V# text and words, instruction text and words, and the policy
// table. A gcn::Error (bad input) becomes a ValueError naming the field or the reason.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "probe/oracle.h"
#include "reference/assembler.h"
#include "reference/convert.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/format.h"
#include "reference/gen.h"
#include "reference/policy.h"
#include "reference/resource.h"

namespace py = pybind11;

namespace {

const gcn::Chip& chipOf(const std::string& name) {
  return gcn::parseAnyChip(name);
}

// The oracle's query (docs/oracle.md) as a dict, its answer as a dict; an answer with ok false
// raises ValueError with its error.
py::dict query(const py::dict& q) {
  const py::module_ json = py::module_::import("json");
  const std::string line = py::str(json.attr("dumps")(q));
  const std::string answer = gcn::probe::answerOracleLine(line);
  py::dict out = json.attr("loads")(answer);
  if (!out["ok"].cast<bool>()) throw py::value_error(out["error"].cast<std::string>());
  return out;
}

// One element of a format loaded from memory words: each component's register bits, None where
// the model claims none.
std::vector<std::optional<uint32_t>> convertLoad(const std::string& gen, const std::string& dfmt,
                                                 const std::string& nfmt,
                                                 const std::vector<uint32_t>& words) {
  const gcn::Chip& chip = chipOf(gen);
  const gcn::Dfmt d = gcn::parseDfmt(dfmt);
  const gcn::Nfmt n = gcn::parseNfmt(nfmt, chip.gen);
  std::vector<uint8_t> bytes;
  for (const uint32_t w : words)
    for (int b = 0; b < 4; ++b)
      bytes.push_back(static_cast<uint8_t>(w >> (8 * b)));
  bytes.resize(gcn::dfmtInfo(d).bytes);
  const gcn::LoadedElement e =
      gcn::loadElement(chip.gen, d, n, bytes, gcn::Policies::defaults(chip));
  return {e.reg.begin(), e.reg.begin() + e.count};
}

py::list policies(const std::optional<std::string>& chipOrGen) {
  py::list out;
  for (const gcn::PolicyPoint& p : gcn::allPolicyPoints()) {
    py::dict d;
    d["name"] = std::string(p.name);
    d["question"] = std::string(p.question);
    d["addressing"] = p.addressing;
    py::list options;
    for (const gcn::PolicyOption& o : p.options()) {
      py::dict od;
      od["name"] = std::string(o.name);
      od["source"] = std::string(o.source);
      options.append(od);
    }
    d["options"] = options;
    py::dict defaults;
    if (chipOrGen) {
      const gcn::Chip& chip = chipOf(*chipOrGen);
      defaults[py::str(std::string(chip.name))] =
          std::string(p.options()[gcn::Policies::defaults(chip).get(p.id)].name);
    } else {
      for (const gcn::Gen g : gcn::kAllGens)
        defaults[py::str(std::string(gcn::genName(g)))] =
            std::string(p.options()[gcn::Policies::defaults(g).get(p.id)].name);
    }
    d["defaults"] = defaults;
    out.append(d);
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(gcnprobe_reference, m) {
  m.doc() =
      "gcnprobe's reference model of AMD GCN/RDNA MUBUF/MTBUF buffer instructions "
      "(docs/python.md)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const gcn::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.def("query", &query, py::arg("query"),
        "One query of the streaming oracle as a dict (docs/oracle.md); returns its answer");
  m.def("oracle_line", &gcn::probe::answerOracleLine, py::arg("line"),
        "One JSON line of `gcnprobe oracle`; returns the answer line");
  m.def("convert_load", &convertLoad, py::arg("gen"), py::arg("dfmt"), py::arg("nfmt"),
        py::arg("words"), "One element loaded from memory words: register bits per component");
  m.def(
      "vsharp_encode",
      [](const std::string& gen, const std::string& text) {
        const gcn::Chip& chip = chipOf(gen);
        return gcn::encodeVSharp(chip.gen, gcn::parseVSharp(chip.gen, text));
      },
      py::arg("gen"), py::arg("text"), "V# text (gcnprobe vsharp) to its four dwords");
  m.def(
      "vsharp_decode",
      [](const std::string& gen, const std::array<uint32_t, 4>& words) {
        const gcn::Chip& chip = chipOf(gen);
        return gcn::formatVSharp(chip.gen, gcn::decodeVSharp(chip.gen, words));
      },
      py::arg("gen"), py::arg("words"), "Four V# dwords to their text");
  m.def(
      "assemble",
      [](const std::string& gen, const std::string& text) {
        const gcn::Chip& chip = chipOf(gen);
        return gcn::encode(chip.gen, gcn::parseInstruction(chip, text));
      },
      py::arg("gen"), py::arg("text"), "One MUBUF/MTBUF instruction to its two dwords");
  m.def(
      "disassemble",
      [](const std::string& gen, uint32_t w0, uint32_t w1) {
        const gcn::Chip& chip = chipOf(gen);
        return gcn::printInstruction(chip.gen, gcn::decode(chip.gen, w0, w1));
      },
      py::arg("gen"), py::arg("w0"), py::arg("w1"), "Two dwords to the instruction's text");
  m.def("policies", &policies, py::arg("chip") = py::none(),
        "Every disputed point: options, sources and defaults (per generation, or for one chip)");
}
