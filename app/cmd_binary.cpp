// `gcnprobe binary`: the binary route's reach on a device. For every MUBUF/MTBUF opcode of the
// device's generation the opcode is patched into its template's pipeline (on the template's
// operands; MTBUF with DATA_FORMAT 32, NUM_FORMAT UINT) and the result proven or refused
// (harness/isa/binary_patch.h, docs/binary.md). Runs on RADV's null device
// (`--radv-null tonga binary`): building needs no memory.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/clrx_dir.h"
#include "app/commands.h"
#include "harness/isa/binary_patch.h"
#include "harness/vulkan/context.h"
#include "reference/assembler.h"
#include "reference/error.h"
#include "reference/opcodes.h"
#include "reference/resource.h"

namespace gcnprobe::app {
namespace {

struct BinaryOptions {
  std::string device;
  bool json = false;
};

int runBinary(const BinaryOptions& o) {
  const std::unique_ptr<ClrxDir> clrx = prepareBinaryRoute();
  auto ctx = vk::Context::open(o.device);
  const vk::DeviceInfo& info = ctx->info();
  isa::BinaryBuilder builder(*ctx);
  if (const std::string why = builder.deviceProblem(); !why.empty()) {
    std::fprintf(stderr, "gcnprobe binary: unsupported: %s\n", why.c_str());
    return 1;
  }
  const gcn::Chip& chip = *builder.chip();
  nlohmann::json rows = nlohmann::json::array();
  unsigned total = 0, built = 0;
  for (const gcn::OpcodeInfo& op : gcn::allOpcodes()) {
    if (!gcn::existsOn(op, chip.gen)) continue;
    ++total;
    isa::BinaryBuild b;
    gcn::Instruction intended;
    try {
      intended = isa::onTemplateOperands(chip.gen, builder.templateInstruction(op), op,
                                         gcn::Dfmt::F32, gcn::Nfmt::Uint);
      b = builder.build(intended);
    } catch (const gcn::Error& e) {
      b.reason = std::string("binary route: ") + e.what();
    }
    built += b.built ? 1 : 0;
    std::string text;
    try {
      text = gcn::printInstruction(chip.gen, intended);
    } catch (const gcn::Error&) {
      text = std::string(op.mnemonic);
    }
    if (o.json) {
      rows.push_back({{"opcode", std::string(op.mnemonic)},
                      {"instruction", text},
                      {"built", b.built},
                      {"proof", b.proof},
                      {"reason", b.reason}});
    } else {
      std::printf("%-32s %s  %s\n", std::string(op.mnemonic).c_str(),
                  b.built ? "built  " : "refused", b.built ? text.c_str() : b.reason.c_str());
    }
  }
  const std::string summary = std::string(gcn::genName(chip.gen)) + " (" + std::string(chip.name) +
                              ", " + info.driverName + " " + info.driverInfo +
                              "): " + std::to_string(built) + " of " + std::to_string(total) +
                              " opcodes built and proven on the binary route";
  if (o.json)
    std::printf("%s\n", nlohmann::json{{"chip", std::string(chip.name)},
                                       {"gen", std::string(gcn::genName(chip.gen))},
                                       {"driver", info.driverName + " " + info.driverInfo},
                                       {"opcodes", total},
                                       {"built", built},
                                       {"rows", rows}}
                            .dump(2)
                            .c_str());
  else
    std::printf("%s\n", summary.c_str());
  return 0;
}

}  // namespace

void addBinaryCommand(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<BinaryOptions>();
  auto* c = app.add_subcommand(
      "binary",
      "Patch every MUBUF/MTBUF opcode of the device's generation into a compiled template "
      "pipeline (pipeline cache data) and prove each (docs/binary.md)");
  c->add_option("--device", opts->device, "device selector (as for 'gcnprobe devices')");
  c->add_flag("--json", opts->json, "machine-readable output");
  c->callback([opts, &ctx] { ctx.exitCode = runBinary(*opts); });
}

}  // namespace gcnprobe::app
