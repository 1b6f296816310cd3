// SIGINT and SIGTERM (a CI timeout or cancel, Ctrl-C) while a long command runs: the command ends
// between its steps (a run between batches, a survey between steps) and keeps what it finished
// (docs/run.md, docs/hardware.md). One StopSignals per command installs the handler, clears the
// signal received, and restores the previous handlers when it goes.
#pragma once

#include <csignal>

namespace gcnprobe::app {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The signal received since the last StopSignals was made, 0 for none. Safe to read from any
  // thread and after this object is gone.
  static int received();

 private:
  struct sigaction oldInt_ {};
  struct sigaction oldTerm_ {};
};

}  // namespace gcnprobe::app
