#include "harness/repro/amber.h"

#include <bit>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::repro {
namespace {

constexpr std::size_t kValuesPerLine = 16;

// Listed value `i` of a buffer (componentBytes little-endian, signed where the format's
// components are), as a decimal number: Amber reads numbers in decimal and stores a format
// buffer's components as the integers given.
// A float as Amber must read it back to the same bits: nine significant digits (enough for
// every finite float) and a decimal point or exponent, since Amber compares a value written as
// an integer as an integer. Only finite values reach here (reproduction.cpp).
std::string floatText(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  std::string t = buf;
  if (t.find_first_of(".e") == std::string::npos) t += ".0";
  return t;
}

std::string listedValue(const std::vector<uint8_t>& bytes, std::size_t i, const ReproBuffer& b) {
  uint64_t v = 0;
  for (unsigned k = 0; k < b.componentBytes; ++k)
    v |= static_cast<uint64_t>(bytes[i * b.componentBytes + k]) << (8 * k);
  if (b.floats) return floatText(std::bit_cast<float>(static_cast<uint32_t>(v)));
  const unsigned bits = 8 * b.componentBytes;
  if (!b.componentsSigned || bits == 0) return std::to_string(v);
  if (bits == 64) return std::to_string(static_cast<int64_t>(v));
  const uint64_t sign = uint64_t{1} << (bits - 1);
  return std::to_string(static_cast<int64_t>(v ^ sign) - static_cast<int64_t>(sign));
}

// Whether every byte of element `e` (elementBytes bytes) is checked.
bool elementChecked(const ReproBuffer& b, std::size_t e) {
  if ((e + 1) * b.elementBytes > b.expected.size()) return false;  // nothing checked
  for (unsigned k = 0; k < b.elementBytes; ++k)
    if (!b.expected[e * b.elementBytes + k]) return false;
  return true;
}

void commentBlock(std::string& s, const std::string& text) {
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t nl = text.find('\n', start);
    s += "# " + text.substr(start, nl == std::string::npos ? std::string::npos : nl - start) + "\n";
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
}

// What the script checks, for its header and the README.
std::string checkedSummary(const Reproduction& r) {
  std::string s = "checked: the returned words of " + std::to_string(r.checkedLanes) + " of " +
                  std::to_string(r.activeLanes) + " active lanes";
  for (const ReproBuffer& b : r.buffers) {
    if (b.name != "data") continue;
    const uint64_t end = b.range != 0 ? b.offset + b.range : b.bytes.size() - b.offset;
    bool payload = false;
    for (uint64_t k = b.offset; k < end && k < b.expected.size(); ++k)
      payload = payload || b.expected[k].has_value();
    if (payload) s += ", the data buffer's bytes";
    if (b.offset > 0) s += ", the data buffer's guard bands (never written)";
  }
  return s;
}

// The script's comment block: what the case is, what it checks and needs.
void amberHeader(std::string& s, const Reproduction& r, const std::string& generator) {
  commentBlock(s, "Reproduction of gcnprobe case " + r.name + ", written by " + generator + ".");
  commentBlock(s, "route: " + r.route + " (shader variant " + r.variant + ")");
  commentBlock(s, "instruction the case tests: " + r.instruction);
  commentBlock(s, "V# the driver builds for binding 0 on GCN: " + r.vsharp);
  commentBlock(s, "expected values: gcnprobe's reference, profile " + r.profile);
  commentBlock(s, checkedSummary(r));
  for (const std::string& q : r.requirements)
    commentBlock(s, "requires: " + q);
  for (const std::string& u : r.unchecked)
    commentBlock(s, "not checked: " + u);
  for (const std::string& n : r.laneNotes)
    commentBlock(s, n);
  s += "\n";
  for (const std::string& f : r.deviceFeatures)
    s += "DEVICE_FEATURE " + f + "\n";
}

void amberBufferData(std::string& s, const std::string& name, const std::string& type,
                     const std::vector<std::string>& values) {
  s += "BUFFER " + name + " DATA_TYPE " + type + " DATA\n";
  for (std::size_t i = 0; i < values.size(); ++i)
    s += values[i] + ((i + 1) % kValuesPerLine == 0 || i + 1 == values.size() ? "\n" : " ");
  s += "END\n\n";
}

// The shaders and the buffers' initial data (the vertex and index buffers of a draw too).
void amberShadersAndBuffers(std::string& s, const Reproduction& r) {
  const auto shader = [&s](const char* stage, const char* name, const std::string& text) {
    s += std::string("\nSHADER ") + stage + " " + name + " SPIRV-ASM TARGET_ENV vulkan1.1\n" + text;
    if (!text.empty() && text.back() != '\n') s += "\n";
    s += "END\n";
  };
  const Reproduction::VertexInput* vi = r.vertexInput ? &*r.vertexInput : nullptr;
  shader(vi ? "vertex" : "compute", "gcnprobe_case", r.spirvAsm);
  if (vi) shader("fragment", "gcnprobe_fragment", r.fragmentAsm);
  s += "\n";
  for (const ReproBuffer& b : r.buffers) {
    std::vector<std::string> values;
    for (std::size_t i = 0; i < b.bytes.size() / b.componentBytes; ++i)
      values.push_back(listedValue(b.bytes, i, b));
    amberBufferData(s, b.name, b.dataType, values);
  }
  if (!vi) return;
  // The vertex buffer's raw bytes; VERTEX_DATA reads them in the attribute's format.
  std::vector<std::string> bytes, indices;
  for (uint8_t byte : vi->vertices)
    bytes.push_back(std::to_string(byte));
  for (uint32_t i : vi->indices)
    indices.push_back(std::to_string(i));
  amberBufferData(s, "vertices", "uint8", bytes);
  amberBufferData(s, "indices", "uint32", indices);
}

// The pipeline with its bindings, and the dispatch or draw that runs it.
void amberPipelineAndRun(std::string& s, const Reproduction& r) {
  const Reproduction::VertexInput* vi = r.vertexInput ? &*r.vertexInput : nullptr;
  s += std::string("PIPELINE ") + (vi ? "graphics" : "compute") +
       " gcnprobe_pipeline\n  ATTACH gcnprobe_case";
  if (r.specOffset) s += " SPECIALIZE 0 AS uint32 " + std::to_string(*r.specOffset);
  s += "\n";
  if (vi)
    s += "  ATTACH gcnprobe_fragment\n  VERTEX_DATA vertices LOCATION 0 RATE vertex FORMAT " +
         vi->format + " OFFSET " + std::to_string(vi->offset) + " STRIDE " +
         std::to_string(vi->stride) + "\n  INDEX_DATA indices\n";
  for (const ReproBuffer& b : r.buffers) {
    s += "  BIND BUFFER " + b.name + " AS " + b.bindAs + " DESCRIPTOR_SET 0 BINDING " +
         std::to_string(b.binding);
    if (b.range != 0)
      s += " DESCRIPTOR_OFFSET " + std::to_string(b.offset) + " DESCRIPTOR_RANGE " +
           std::to_string(b.range);
    s += "\n";
  }
  s += "END\n\n";
  if (vi)
    s += "RUN gcnprobe_pipeline DRAW_ARRAY AS POINT_LIST INDEXED START_IDX 0 COUNT " +
         std::to_string(vi->indices.size()) + "\n\n";
  else
    s += "RUN gcnprobe_pipeline 1 1 1\n\n";
}

// The checks of one buffer: runs of whole checked elements (IDX is a byte offset, a multiple of
// the element's size), about kValuesPerLine values per EXPECT.
void amberExpects(std::string& s, const ReproBuffer& b) {
  const std::size_t elements = b.bytes.size() / b.elementBytes;
  const std::size_t perElement = b.elementBytes / b.componentBytes;
  std::vector<uint8_t> want(b.bytes.size());
  for (std::size_t k = 0; k < want.size() && k < b.expected.size(); ++k)
    want[k] = b.expected[k].value_or(0);
  std::size_t e = 0;
  while (e < elements) {
    if (!elementChecked(b, e)) {
      ++e;
      continue;
    }
    // One bound per line: Amber's TOLERANCE applies to every value of the EXPECT.
    const double bound = e < b.tolerance.size() ? b.tolerance[e] : 0.0;
    const auto sameBound = [&](std::size_t x) {
      return (x < b.tolerance.size() ? b.tolerance[x] : 0.0) == bound;
    };
    s += "EXPECT " + b.name + " IDX " + std::to_string(e * b.elementBytes) +
         (bound > 0 ? " TOLERANCE " + floatText(bound) : std::string()) + " EQ";
    std::size_t listed = 0;
    while (e < elements && elementChecked(b, e) && sameBound(e) && listed < kValuesPerLine) {
      for (std::size_t c = 0; c < perElement; ++c)
        s += " " + listedValue(want, e * perElement + c, b);
      listed += perElement;
      ++e;
    }
    s += "\n";
  }
}

// Per buffer, the bytes the reference expects after the run: runs of checked bytes as hex,
// {"offset": N, "bytes": "a5a5..."}.
nlohmann::json expectedJson(const Reproduction& r) {
  nlohmann::json expected = nlohmann::json::object();
  for (const ReproBuffer& b : r.buffers) {
    nlohmann::json runs = nlohmann::json::array();
    std::size_t k = 0;
    while (k < b.expected.size()) {
      if (!b.expected[k]) {
        ++k;
        continue;
      }
      const std::size_t start = k;
      std::string hex;
      while (k < b.expected.size() && b.expected[k])
        hex += gcn::hexDigits(std::span<const uint8_t>(&*b.expected[k++], 1));
      runs.push_back({{"offset", start}, {"bytes", hex}});
    }
    expected[b.name] = {{"binding", b.binding},
                        {"size", b.bytes.size()},
                        {"descriptor_offset", b.offset},
                        {"descriptor_range", b.range},
                        {"checked", runs}};
  }
  return expected;
}

// The README's first part: the case, and how to run and rebuild it.
std::string readmeIntro(const Reproduction& r, const std::string& generator) {
  std::string readme = "# " + r.name + "\n\nA reproduction of the gcnprobe case `" + r.name +
                       "`, written by " + generator + ". It needs no gcnprobe.\n\n";
  readme += "- **Instruction the case tests** (GCN, LLVM syntax): `" + r.instruction + "`\n";
  readme += "- **V#** the driver builds for binding 0 on GCN: `" + r.vsharp + "`\n";
  readme += "- **Route**: " + r.route + ", shader variant `" + r.variant + "`\n";
  readme += "- **Expected values**: gcnprobe's reference model, profile `" + r.profile + "`; " +
            checkedSummary(r) + ".\n";
  for (const std::string& q : r.requirements)
    readme += "- **Requires** " + q + ".\n";
  readme += "\n## Run it\n\n```sh\namber case.amber     # https://github.com/google/amber\n```\n\n";
  const std::string glsl = r.vertexInput ? "shader.vert" : "shader.comp";
  readme += "`" + glsl +
            "` is the GLSL (its definitions inlined); `glslangValidator -V --target-env "
            "vulkan1.1 " +
            glsl +
            " -o shader.spv` gives `shader.spv` again, and `shader.spvasm` is its SPIR-V "
            "assembly, the shader of `case.amber`.\n\n";
  return readme;
}

// The README's draw or dispatch, with its descriptor set and the files' layout.
std::string readmeDispatch(const Reproduction& r) {
  const Reproduction::VertexInput* vi = r.vertexInput ? &*r.vertexInput : nullptr;
  std::string readme;
  if (vi) {
    readme +=
        "## The draw\n\nA graphics pipeline: the vertex stage `shader.spvasm`, a fragment "
        "stage that writes a constant colour (`fragment.spvasm`), vertex input location 0 from "
        "`vertices.bin` (bound whole) in " +
        vi->format + " at offset " + std::to_string(vi->offset) + " with stride " +
        std::to_string(vi->stride) + ", and an indexed point list of the " +
        std::to_string(vi->indices.size()) +
        " active lanes' vertex indices (`indices.bin`, uint32). Descriptor set 0:\n\n";
  } else {
    readme += "## The dispatch\n\nOne workgroup of 64 invocations (`vkCmdDispatch(1, 1, 1)`)";
    if (r.specOffset)
      readme += ", specialization constant 0 (the instruction's OFFSET) = " +
                std::to_string(*r.specOffset);
    readme += ". Descriptor set 0:\n\n";
  }
  readme +=
      "| binding | type | file | bytes | descriptor offset | descriptor range |\n"
      "|---|---|---|---|---|---|\n";
  for (const ReproBuffer& b : r.buffers)
    readme += "| " + std::to_string(b.binding) + " | " + b.bindAs +
              (b.bindAs == "storage" ? "" : " (" + b.dataType + ")") + " | `" + b.name +
              ".bin` | " + std::to_string(b.bytes.size()) + " | " + std::to_string(b.offset) +
              " | " + (b.range != 0 ? std::to_string(b.range) : std::string("whole")) + " |\n";
  if (vi)
    readme +=
        "\n`lane_in.bin`: per lane its vertex index (`idx[64]`) and whether it is enabled "
        "(`enabled[64]`). `lane_out.bin` starts as 0xdeadbeef words; the vertex of an "
        "index writes the attribute's four components at words 4*lane... of every enabled "
        "lane with that index. ";
  else
    readme +=
        "\n`data.bin` holds the case's memory (for an SSBO between guard bands of 0xa5 "
        "bytes, which the shader must never write). `lane_in.bin`: per lane its byte "
        "offset or index (`addr[64]`), whether it is enabled (`enabled[64]`) and its store "
        "data (`data[256]`, four words per lane). `lane_out.bin` starts as 0xdeadbeef words; "
        "a lane writes what it loaded at words 4*lane... ";
  readme +=
      "`expected.json` lists, per buffer, the bytes the reference expects after the run "
      "(runs of checked bytes in hex).\n";
  return readme;
}

std::string readmeText(const Reproduction& r, const std::string& generator) {
  std::string readme = readmeIntro(r, generator) + readmeDispatch(r);
  if (!r.unchecked.empty()) {
    readme +=
        "\n## Not checked\n\nWhat gcnprobe checks and this reproduction cannot (several "
        "acceptable outcomes, a tolerance, bytes Amber does not lay out):\n\n";
    for (const std::string& u : r.unchecked)
      readme += "- " + u + "\n";
  }
  readme += "\n## Lanes\n\n";
  for (const std::string& n : r.laneNotes)
    readme += "- " + n + "\n";
  return readme;
}

std::string bytesOf(const void* data, std::size_t size) {
  return std::string(static_cast<const char*>(data), size);
}

}  // namespace

std::string amberScript(const Reproduction& r, const std::string& generator) {
  if (!r.notExpressed.empty()) throw gcn::Error(r.name + ": no reproduction: " + r.notExpressed);
  std::string s = "#!amber\n";
  amberHeader(s, r, generator);
  amberShadersAndBuffers(s, r);
  amberPipelineAndRun(s, r);
  for (const ReproBuffer& b : r.buffers)
    amberExpects(s, b);
  return s;
}

std::vector<std::pair<std::string, std::string>> reproductionFiles(const Reproduction& r,
                                                                   const std::string& generator) {
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back("case.amber", amberScript(r, generator));
  files.emplace_back(r.vertexInput ? "shader.vert" : "shader.comp", r.glsl);
  files.emplace_back("shader.spv", bytesOf(r.spirv.data(), r.spirv.size() * sizeof(uint32_t)));
  files.emplace_back("shader.spvasm", r.spirvAsm);
  if (r.vertexInput) {
    files.emplace_back("fragment.spvasm", r.fragmentAsm);
    files.emplace_back("vertices.bin",
                       bytesOf(r.vertexInput->vertices.data(), r.vertexInput->vertices.size()));
    files.emplace_back("indices.bin", bytesOf(r.vertexInput->indices.data(),
                                              r.vertexInput->indices.size() * sizeof(uint32_t)));
  }
  for (const ReproBuffer& b : r.buffers)
    files.emplace_back(b.name + ".bin", bytesOf(b.bytes.data(), b.bytes.size()));
  files.emplace_back("expected.json", expectedJson(r).dump(1) + "\n");
  files.emplace_back("README.md", readmeText(r, generator));
  return files;
}

}  // namespace gcnprobe::repro
