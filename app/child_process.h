// Running this program (or another) as a child process with its own output files, environment
// changes and a time limit: what `survey` does for each step, `run --isolate` for each batch of
// cases and `isa` for each chip. The child is asked to stop with SIGTERM (gcnprobe writes its
// reports on SIGTERM) and killed a grace period later.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gcnprobe::app {

struct ChildSpec {
  std::string program;            // "" = this program (/proc/self/exe); else looked up in PATH
  std::vector<std::string> args;  // after the program name
  // Environment changes: a value sets the variable, std::nullopt removes it.
  std::vector<std::pair<std::string, std::optional<std::string>>> env;
  std::string stdoutPath;        // "" = inherited; else the file (created or truncated)
  std::string stderrPath;        // "" = inherited
  std::string workingDirectory;  // "" = this process's; relative output paths are under it
  double timeoutSeconds = 0;     // 0 = no limit
  double graceSeconds = 10;      // between SIGTERM and SIGKILL
  std::function<bool()> stop;    // polled; true stops the child as a timeout would
  // Polled too (after `stop`); true kills the child at once with SIGKILL (ChildResult::killed),
  // after which neither `stop` nor the time limit is asked again.
  std::function<bool()> killNow;
  double pollSeconds = 0.05;  // how often the child is watched
  // true: the child leads its own process group, and stopping it stops what it started too.
  // false: it stays in this process's group, so a terminal's Ctrl-C reaches it as it reaches
  // this process; signals go to the child alone.
  bool ownProcessGroup = true;
  bool stdoutToStderr = false;  // the child's standard output is this process's standard error
  // Set: the child's fd 3 is a pipe, and every line it writes there is given to onLine (without
  // its newline) as it arrives; a last line without a newline is not.
  std::function<void(const std::string& line)> onLine;
};

struct ChildResult {
  bool started = false;
  std::string error;  // why it did not start
  int exitCode = -1;  // when it exited
  int signal = 0;     // when a signal ended it
  bool timedOut = false;
  bool stopped = false;  // `stop` asked for it
  bool killed = false;   // `killNow` asked for it
  double seconds = 0;
  double stopAfter = 0;  // seconds until SIGTERM (timedOut or stopped)
  // "exit 0", "exit 3", "signal 9", "timed out after 60 s (then signal 15)", "not started: ..."
  std::string describe() const;
};

ChildResult runChildProcess(const ChildSpec& spec);

// The path of this program (/proc/self/exe); gcn::InfraError when it cannot be read.
std::string selfPath();

// The whole content of a file (a child's log or report, a sysfs file); "" when it cannot be
// read.
std::string readWholeFile(const std::filesystem::path& p);

}  // namespace gcnprobe::app
