#include "harness/repro/amber.h"

#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "reference/error.h"

namespace gcnprobe::repro {
namespace {

constexpr std::size_t kValuesPerLine = 16;

std::string hexByte(uint8_t b) {
  char s[8];
  std::snprintf(s, sizeof s, "%02x", b);
  return s;
}

// Element `i` of a buffer listed in `elementBytes` units, little-endian, as a decimal number
// (Amber reads numbers in decimal; the comments say the same values in hex).
uint32_t element(const std::vector<uint8_t>& bytes, std::size_t i, unsigned elementBytes) {
  uint32_t v = 0;
  for (unsigned b = 0; b < elementBytes; ++b)
    v |= static_cast<uint32_t>(bytes[i * elementBytes + b]) << (8 * b);
  return v;
}

// Whether every byte of element `i` is checked, and its expected value.
std::optional<uint32_t> expectedElement(const ReproBuffer& buf, std::size_t i) {
  if ((i + 1) * buf.elementBytes > buf.expected.size()) return std::nullopt;  // nothing checked
  uint32_t v = 0;
  for (unsigned b = 0; b < buf.elementBytes; ++b) {
    const std::optional<uint8_t>& e = buf.expected[i * buf.elementBytes + b];
    if (!e) return std::nullopt;
    v |= static_cast<uint32_t>(*e) << (8 * b);
  }
  return v;
}

const char* dataType(unsigned elementBytes) {
  return elementBytes == 4 ? "uint32" : "uint8";
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

// What the script checks and what it does not, for its header and the README.
std::string checkedSummary(const Reproduction& r) {
  std::string s = "checked: the returned words of " + std::to_string(r.checkedLanes) + " of " +
                  std::to_string(r.activeLanes) + " active lanes";
  bool bufferChecked = false;
  for (const ReproBuffer& b : r.buffers)
    if (b.name == "data")
      for (std::size_t k = b.offset;
           k < b.offset + std::max<uint64_t>(b.range, 1) && k < b.expected.size(); ++k)
        bufferChecked = bufferChecked || b.expected[k].has_value();
  s += bufferChecked ? ", the data buffer's bytes" : "";
  s += ", the data buffer's guard bands (never written)";
  return s;
}

}  // namespace

std::string amberScript(const Reproduction& r, const std::string& generator) {
  if (!r.notExpressed.empty()) throw gcn::Error(r.name + ": no reproduction: " + r.notExpressed);
  std::string s = "#!amber\n";
  commentBlock(s, "Reproduction of gcnprobe case " + r.name + ", written by " + generator + ".");
  commentBlock(s, "route: " + r.route + " (shader variant " + r.variant + ")");
  commentBlock(s, "instruction the case tests: " + r.instruction);
  commentBlock(s, "V# the driver builds for binding 0 on GCN: " + r.vsharp);
  commentBlock(s, "expected values: gcnprobe's reference, profile " + r.profile);
  commentBlock(s, checkedSummary(r));
  for (const std::string& u : r.unchecked)
    commentBlock(s, "not checked (gcnprobe accepts more than one outcome): " + u);
  for (const std::string& n : r.laneNotes)
    commentBlock(s, n);
  s += "\n";
  for (const std::string& f : r.deviceFeatures)
    s += "DEVICE_FEATURE " + f + "\n";
  s += "\nSHADER compute gcnprobe_case SPIRV-ASM\n" + r.spirvAsm;
  if (!r.spirvAsm.empty() && r.spirvAsm.back() != '\n') s += "\n";
  s += "END\n\n";

  for (const ReproBuffer& b : r.buffers) {
    s += "BUFFER " + b.name + " DATA_TYPE " + dataType(b.elementBytes) + " DATA\n";
    const std::size_t n = b.bytes.size() / b.elementBytes;
    for (std::size_t i = 0; i < n; ++i) {
      s += std::to_string(element(b.bytes, i, b.elementBytes));
      s += (i + 1) % kValuesPerLine == 0 || i + 1 == n ? "\n" : " ";
    }
    s += "END\n\n";
  }

  s += "PIPELINE compute gcnprobe_pipeline\n  ATTACH gcnprobe_case";
  if (r.specOffset) s += " SPECIALIZE 0 AS uint32 " + std::to_string(*r.specOffset);
  s += "\n";
  for (const ReproBuffer& b : r.buffers) {
    s += "  BIND BUFFER " + b.name + " AS storage DESCRIPTOR_SET 0 BINDING " +
         std::to_string(b.binding);
    if (b.range != 0)
      s += " DESCRIPTOR_OFFSET " + std::to_string(b.offset) + " DESCRIPTOR_RANGE " +
           std::to_string(b.range);
    s += "\n";
  }
  s += "END\n\nRUN gcnprobe_pipeline 1 1 1\n\n";

  // The checks: runs of consecutive checked elements, kValuesPerLine values per EXPECT.
  for (const ReproBuffer& b : r.buffers) {
    const std::size_t n = b.bytes.size() / b.elementBytes;
    std::size_t i = 0;
    while (i < n) {
      if (!expectedElement(b, i)) {
        ++i;
        continue;
      }
      s += "EXPECT " + b.name + " IDX " + std::to_string(i) + " EQ";
      std::size_t count = 0;
      while (i < n && count < kValuesPerLine) {
        const std::optional<uint32_t> v = expectedElement(b, i);
        if (!v) break;
        s += " " + std::to_string(*v);
        ++i;
        ++count;
      }
      s += "\n";
    }
  }
  return s;
}

std::vector<std::pair<std::string, std::string>> reproductionFiles(const Reproduction& r,
                                                                   const std::string& generator) {
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back("case.amber", amberScript(r, generator));
  files.emplace_back("shader.comp", r.glsl);
  files.emplace_back("shader.spv", std::string(reinterpret_cast<const char*>(r.spirv.data()),
                                               r.spirv.size() * sizeof(uint32_t)));
  files.emplace_back("shader.spvasm", r.spirvAsm);
  nlohmann::json expected = nlohmann::json::object();
  for (const ReproBuffer& b : r.buffers) {
    files.emplace_back(b.name + ".bin",
                       std::string(reinterpret_cast<const char*>(b.bytes.data()), b.bytes.size()));
    // Runs of checked bytes as hex: {"offset": N, "bytes": "a5a5..."}.
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
        hex += hexByte(*b.expected[k++]);
      runs.push_back({{"offset", start}, {"bytes", hex}});
    }
    expected[b.name] = {{"binding", b.binding},
                        {"size", b.bytes.size()},
                        {"descriptor_offset", b.offset},
                        {"descriptor_range", b.range},
                        {"checked", runs}};
  }
  files.emplace_back("expected.json", expected.dump(1) + "\n");

  std::string readme = "# " + r.name + "\n\nA reproduction of the gcnprobe case `" + r.name +
                       "`, written by " + generator + ". It needs no gcnprobe.\n\n";
  readme += "- **Instruction the case tests** (GCN, LLVM syntax): `" + r.instruction + "`\n";
  readme += "- **V#** the driver builds for binding 0 on GCN: `" + r.vsharp + "`\n";
  readme += "- **Route**: " + r.route + ", shader variant `" + r.variant + "`\n";
  readme += "- **Expected values**: gcnprobe's reference model, profile `" + r.profile + "`; " +
            checkedSummary(r) + ".\n\n";
  readme += "## Run it\n\n```sh\namber case.amber     # https://github.com/google/amber\n```\n\n";
  readme +=
      "`shader.comp` is the GLSL (its definitions inlined); `glslangValidator -V --target-env "
      "vulkan1.1 shader.comp -o shader.spv` gives `shader.spv` again, and `shader.spvasm` is its "
      "SPIR-V assembly, the shader of `case.amber`.\n\n";
  readme += "## The dispatch\n\nOne workgroup of 64 invocations (`vkCmdDispatch(1, 1, 1)`)";
  if (r.specOffset)
    readme +=
        ", specialization constant 0 (the instruction's OFFSET) = " + std::to_string(*r.specOffset);
  readme +=
      ". Descriptor set 0, every binding a storage buffer:\n\n| binding | file | bytes | "
      "descriptor offset | descriptor range |\n|---|---|---|---|---|\n";
  for (const ReproBuffer& b : r.buffers)
    readme += "| " + std::to_string(b.binding) + " | `" + b.name + ".bin` | " +
              std::to_string(b.bytes.size()) + " | " + std::to_string(b.offset) + " | " +
              (b.range != 0 ? std::to_string(b.range) : std::string("whole")) + " |\n";
  readme +=
      "\n`data.bin` holds the case's memory between guard bands of 0xa5 bytes, which the "
      "shader must never write. `lane_in.bin`: per lane its byte offset (`addr[64]`), whether "
      "it is enabled (`enabled[64]`) and its store data (`data[256]`, four words per lane). "
      "`lane_out.bin` starts as 0xdeadbeef words; a lane writes what it loaded at words "
      "4*lane... `expected.json` lists, per buffer, the bytes the reference expects after the "
      "dispatch (runs of checked bytes in hex).\n";
  if (!r.unchecked.empty()) {
    readme +=
        "\n## Not checked\n\ngcnprobe accepts more than one outcome here, so the script "
        "checks nothing of it:\n\n";
    for (const std::string& u : r.unchecked)
      readme += "- " + u + "\n";
  }
  readme += "\n## Lanes\n\n";
  for (const std::string& n : r.laneNotes)
    readme += "- " + n + "\n";
  files.emplace_back("README.md", readme);
  return files;
}

}  // namespace gcnprobe::repro
