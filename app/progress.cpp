#include "app/progress.h"

#include <unistd.h>

#include <cmath>

namespace gcnprobe::app {

Progress::Progress(std::size_t total, bool enabled, std::FILE* out)
    : total_(total),
      enabled_(enabled && isatty(fileno(out)) != 0),
      out_(out),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  clear();
}

std::string Progress::line(std::size_t done, std::size_t total, std::size_t failing,
                           double secondsLeft) {
  // Appended piece by piece: "lit" + std::string&& trips GCC 12's -Wrestrict at -O3.
  std::string s = "[";
  s.append(std::to_string(done)).append("/").append(std::to_string(total)).append("] ");
  s.append(std::to_string(failing)).append(" failing");
  if (secondsLeft >= 0)
    s.append(", ~")
        .append(std::to_string(static_cast<long long>(std::ceil(secondsLeft))))
        .append(" s left");
  return s;
}

void Progress::caseDone(results::Verdict v) {
  ++done_;
  failing_ += results::isRegression(v);
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  // At most five redraws a second: a terminal is slower than lavapipe's cases.
  if (drawn_ && now - lastDraw_ < std::chrono::milliseconds(200) && done_ != total_) return;
  lastDraw_ = now;
  draw();
}

void Progress::draw() {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double left = done_ > 0 && done_ <= total_ ? elapsed / static_cast<double>(done_) *
                                                         static_cast<double>(total_ - done_)
                                                   : -1;
  std::fprintf(out_, "\r\033[K%s", line(done_, total_, failing_, left).c_str());
  std::fflush(out_);
  drawn_ = true;
}

void Progress::clear() {
  if (!enabled_ || !drawn_) return;
  std::fprintf(out_, "\r\033[K");
  std::fflush(out_);
  drawn_ = false;
}

}  // namespace gcnprobe::app
