#include "harness/run/case.h"

namespace gcnprobe::run {

std::string_view verdictName(Verdict v) {
  switch (v) {
    case Verdict::Pass:
      return "pass";
    case Verdict::Fail:
      return "fail";
    case Verdict::Unsupported:
      return "unsupported";
    case Verdict::RouteMiss:
      return "route-miss";
    case Verdict::Error:
      return "error";
  }
  return "error";
}

}  // namespace gcnprobe::run
