#include "app/stop_signals.h"

namespace gcnprobe::app {
namespace {

volatile std::sig_atomic_t gSignal = 0;
extern "C" void onStopSignal(int sig) {
  gSignal = sig;
}

}  // namespace

StopSignals::StopSignals() {
  gSignal = 0;
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &oldInt_);
  sigaction(SIGTERM, &sa, &oldTerm_);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &oldInt_, nullptr);
  sigaction(SIGTERM, &oldTerm_, nullptr);
}

int StopSignals::received() {
  return gSignal;
}

}  // namespace gcnprobe::app
