// gcnprobe: dispatch real GCN buffer instructions through Vulkan, predict every lane with the
// reference model, diff lane by lane. This file only wires the subcommands together.
#include <cstdio>
#include <exception>

#include "app/commands.h"
#include "reference/error.h"

int main(int argc, char** argv) {
  CLI::App app{
      "gcnprobe: lane-by-lane conformance of AMD GCN MUBUF/MTBUF buffer instructions "
      "(GFX6-GFX9) against a CPU reference model"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Print help for every subcommand");
  gcnprobe::app::Context ctx;
  gcnprobe::app::addConvertCommand(app, ctx);
  gcnprobe::app::addVsharpCommand(app, ctx);
  gcnprobe::app::addAsmCommand(app, ctx);
  gcnprobe::app::addRefCommand(app, ctx);
  gcnprobe::app::addDeviceCommands(app, ctx);
  gcnprobe::app::addRunCommands(app, ctx);
  gcnprobe::app::addIsaCommand(app, ctx);
  gcnprobe::app::addProbeCommand(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const gcn::Error& e) {
    std::fprintf(stderr, "gcnprobe: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gcnprobe: internal error: %s\n", e.what());
    return 3;
  }
  return ctx.exitCode;
}
