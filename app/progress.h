// The progress line of `gcnprobe run` on a terminal: cases done of the total, failures so far,
// time left (from the pace so far). Nothing at all when standard error is not a terminal (CI
// logs) or with --quiet. Other text is printed through clear() first, so that the line never
// mixes with it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

#include "harness/judge/case.h"

namespace gcnprobe::app {

class Progress {
 public:
  // Shown only when `enabled` and `out` is a terminal.
  Progress(std::size_t total, bool enabled, std::FILE* out = stderr);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void caseDone(results::Verdict v);
  // Removes the line (before other output); the next caseDone draws it again.
  void clear();
  bool shown() const { return enabled_; }
  // "[123/885] 2 failing, ~14 s left": the text of the line, for tests.
  static std::string line(std::size_t done, std::size_t total, std::size_t failing,
                          double secondsLeft);

 private:
  void draw();
  std::size_t total_, done_ = 0, failing_ = 0;
  bool enabled_;
  bool drawn_ = false;
  std::FILE* out_;
  std::chrono::steady_clock::time_point start_, lastDraw_;
};

}  // namespace gcnprobe::app
