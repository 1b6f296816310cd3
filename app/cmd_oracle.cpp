// gcnprobe oracle: the reference model as a streaming oracle (probe/oracle.h, docs/oracle.md):
// one JSON query per line of standard input, one JSON answer per line of standard output, in
// order. A bad line gets an error line and the stream goes on.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "app/commands.h"
#include "probe/oracle.h"

namespace gcnprobe::app {

void addOracleCommand(CLI::App& app, Context& ctx) {
  auto flush = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "oracle",
      "The reference model as a streaming oracle: one JSON query per input line (instruction, "
      "V#, registers, memory, policies), one JSON answer per output line (docs/oracle.md)");
  cmd->add_flag("--flush", *flush,
                "flush each answer as it is written (for a caller that waits for it before the "
                "next query)");
  cmd->callback([flush, &ctx] {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
      if (line.empty()) continue;
      const std::string answer = gcn::probe::answerOracleLine(line) + "\n";
      std::fwrite(answer.data(), 1, answer.size(), stdout);
      if (*flush) std::fflush(stdout);
    }
    ctx.exitCode = 0;
  });
}

}  // namespace gcnprobe::app
