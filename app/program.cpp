#include "app/program.h"

#include <cstdlib>
#include <filesystem>
#include <string>

#include "app/commands.h"
#include "app/version.h"

namespace gcnprobe::app {

void buildProgram(CLI::App& app, Context& ctx) {
  app.description(
      "gcnprobe: lane-by-lane conformance of AMD GCN MUBUF/MTBUF buffer instructions "
      "(GFX6-GFX9) against a CPU reference model");
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
         "(tahiti, bonaire, tonga, polaris10, vega10, ...) or RDNA chip (navi10, navi21, navi31, "
         "...: formats --self-check only; env GCNPROBE_RADV_NULL)")
      ->type_name("FAMILY");
  addConvertCommand(app, ctx);
  addVsharpCommand(app, ctx);
  addAsmCommand(app, ctx);
  addRefCommand(app, ctx);
  addPoliciesCommand(app, ctx);
  addOracleCommand(app, ctx);
  addDeviceCommands(app, ctx);
  addRunCommands(app, ctx);
  addBaselineCommand(app, ctx);
  addIsaCommand(app, ctx);
  addBinaryCommand(app, ctx);
  addSweepCommand(app, ctx);
  addFuzzCommand(app, ctx);
  addProbeCommand(app, ctx);
  addResultsCommands(app, ctx);
  addReportCommand(app, ctx);
  addExportCommand(app, ctx);
  addSurveyCommand(app, ctx);
  addCompletionValuesCommand(app, ctx);
}

}  // namespace gcnprobe::app
