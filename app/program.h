// The whole command line of gcnprobe, built once: the description, --version and --help-all,
// the global options (--driver, --radv-null) and every subcommand. main() parses with it;
// the tests that check the help, the completion and the man page read the same object.
#pragma once

#include <CLI/CLI.hpp>

#include "app/commands.h"

namespace gcnprobe::app {

void buildProgram(CLI::App& app, Context& ctx);

}  // namespace gcnprobe::app
