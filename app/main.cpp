// gcnprobe: dispatch real GCN buffer instructions through Vulkan, predict every lane with the
// reference model, diff lane by lane. This file only wires the subcommands together.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>

#include "app/commands.h"
#include "app/version.h"
#include "reference/error.h"

int main(int argc, char** argv) {
  CLI::App app{
      "gcnprobe: lane-by-lane conformance of AMD GCN MUBUF/MTBUF buffer instructions "
      "(GFX6-GFX9) against a CPU reference model"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("gcnprobe ") + GCNPROBE_VERSION + " (" +
                                        GCNPROBE_GIT_REVISION + ")");
  app.set_help_all_flag("--help-all", "Print help for every subcommand");
  app.footer(
      "Exit status: 0 success (every case passed, was unsupported or matched the baseline); "
      "1 a regression (fail, route-miss, error, crash, timeout); 2 bad input (an unknown flag, "
      "suite, format or case name, a "
      "malformed file); 3 infrastructure (no Vulkan device, an output that cannot be written, "
      "repeated device loss). docs/run.md has the details per command.");
  // The driver choice is global and goes through the environment, so that `isa`'s child
  // processes and the tests see the same one (harness/vulkan/driver.h).
  app.fallthrough();
  app.add_option_function<std::string>(
         "--driver",
         [](const std::string& v) {
           // A folder is made absolute: child processes (isolation, isa, survey) may run
           // elsewhere.
           const std::string value =
               v == "system" || v.empty() ? v : std::filesystem::absolute(v).string();
           setenv("GCNPROBE_DRIVER", value.c_str(), 1);
         },
         "Vulkan driver: 'system' (default) or a driver folder from scripts/mesa25.sh "
         "(env GCNPROBE_DRIVER)")
      ->type_name("DIR");
  app.add_option_function<std::string>(
         "--radv-null", [](const std::string& v) { setenv("GCNPROBE_RADV_NULL", v.c_str(), 1); },
         "use only the driver's RADV, as the compile-only null device of this GCN family "
         "(tahiti, bonaire, tonga, polaris10, vega10, ...; env GCNPROBE_RADV_NULL)")
      ->type_name("FAMILY");
  gcnprobe::app::Context ctx;
  gcnprobe::app::addConvertCommand(app, ctx);
  gcnprobe::app::addVsharpCommand(app, ctx);
  gcnprobe::app::addAsmCommand(app, ctx);
  gcnprobe::app::addRefCommand(app, ctx);
  gcnprobe::app::addDeviceCommands(app, ctx);
  gcnprobe::app::addRunCommands(app, ctx);
  gcnprobe::app::addBaselineCommand(app, ctx);
  gcnprobe::app::addIsaCommand(app, ctx);
  gcnprobe::app::addBinaryCommand(app, ctx);
  gcnprobe::app::addSweepCommand(app, ctx);
  gcnprobe::app::addFuzzCommand(app, ctx);
  gcnprobe::app::addProbeCommand(app, ctx);
  gcnprobe::app::addResultsCommands(app, ctx);
  gcnprobe::app::addReportCommand(app, ctx);
  gcnprobe::app::addSurveyCommand(app, ctx);
  gcnprobe::app::addCompletionValuesCommand(app, ctx);
  using gcnprobe::app::finishStdout;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message; its own codes (104, 109, ...) are bad input like any other.
    // Words it could not place (an unknown flag, a misspelt subcommand) get the nearest names
    // they could mean.
    const int code = app.exit(e);
    for (const std::string& hint : gcnprobe::app::didYouMean(app, app.remaining()))
      std::fprintf(stderr, "gcnprobe: %s\n", hint.c_str());
    return finishStdout(code == 0 ? 0 : 2);
  } catch (const gcn::Error& e) {
    std::fprintf(stderr, "gcnprobe: error: %s\n", e.what());
    return finishStdout(2);
  } catch (const gcn::InfraError& e) {
    std::fprintf(stderr, "gcnprobe: error: %s\n", e.what());
    return finishStdout(3);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gcnprobe: internal error: %s\n", e.what());
    return finishStdout(3);
  }
  return finishStdout(ctx.exitCode);
}
