// Runs the gcnprobe program as a user does, for the tests of its command line.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace gcnprobe::test_support {

struct CliRun {
  int exit = -1;    // the exit status; -1 when the program did not exit normally
  std::string out;  // standard output (and standard error unless discarded)
};

enum class Stderr { Merge, Discard };

// A shell command line: its standard output and exit status.
inline CliRun runCommand(const std::string& cmd) {
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    r.out = "popen failed";
    return r;
  }
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// `gcnprobe <args>` through the shell (args may quote globs), GCNPROBE_BINARY from CMake.
inline CliRun runGcnprobe(const std::string& args, Stderr err = Stderr::Merge) {
  return runCommand("XDG_RUNTIME_DIR=/tmp " + std::string(GCNPROBE_BINARY) + " " + args +
                    (err == Stderr::Merge ? " 2>&1" : " 2>/dev/null"));
}

// Signals a run half-way: `gcnprobe <args>` starts in the background with `env` (variable
// assignments) before it; `ready` (a shell command) is polled every 0.1 s, at most 60 s; then
// the run gets SIGTERM. `script` is where the shell script is written. Returns the program's
// exit status (-1 when the script could not run).
inline int terminateWhen(const std::string& env, const std::string& args, const std::string& ready,
                         const std::string& script) {
  std::ofstream(script) << "XDG_RUNTIME_DIR=/tmp " << env << " " << GCNPROBE_BINARY << " " << args
                        << " >/dev/null 2>&1 &\n"
                        << "pid=$!\n"
                        << "for i in $(seq 600); do\n"
                        << "  " << ready << " && break\n"
                        << "  sleep 0.1\n"
                        << "done\n"
                        << "kill -TERM $pid\n"
                        << "wait $pid\n"
                        << "echo $?\n";
  const CliRun r = runCommand("bash " + script);
  return r.exit == 0 ? std::atoi(r.out.c_str()) : -1;
}

}  // namespace gcnprobe::test_support
