// gcnprobe: dispatch real GCN buffer instructions through Vulkan, predict every lane with the
// reference model, diff lane by lane. This file only parses the command line (app/program.h) and
// turns errors into exit codes.
#include <cstdio>
#include <exception>

#include "app/commands.h"
#include "app/program.h"
#include "reference/error.h"

int main(int argc, char** argv) {
  CLI::App app;
  gcnprobe::app::Context ctx;
  gcnprobe::app::buildProgram(app, ctx);
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
