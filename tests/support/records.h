// A case record with just a name, a verdict and a reason, for the tests of what is done with
// results (baselines, retries) that need no device.
#pragma once

#include <string>

#include "results/record.h"

namespace gcnprobe::test_support {

inline results::CaseResult record(const std::string& name, results::Verdict v,
                                  const std::string& reason = "") {
  results::CaseResult r;
  r.name = name;
  r.suite = "storage";
  r.verdict = v;
  r.reason = reason;
  return r;
}

}  // namespace gcnprobe::test_support
