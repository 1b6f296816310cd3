#include "harness/run/probe_run.h"

#include <string>

#include "harness/run/runner.h"

namespace gcnprobe::run {

ProbeRun runProbeCase(const judge::Case& c, const gcn::Chip& chip,
                      std::span<const std::unique_ptr<routes::Route>> routes,
                      bool robustBufferAccess2) {
  RunOptions ro;
  ro.profile.name = std::string(gcn::genName(chip.gen));
  ro.profile.portable = false;
  ro.profile.chip = chip;
  ro.rules.robustBufferAccess2 = robustBufferAccess2;
  ro.jobs = 1;
  ProbeRun out;
  ro.onDeviceResult = [&](std::size_t, const routes::DeviceResult& r) { out.device = r; };
  runCases(std::span<const judge::Case>(&c, 1), routes, ro,
           [&](const results::CaseResult& r) { out.verdict = r; });
  return out;
}

std::vector<cases::PredictionMatch> matchPredictions(const gcn::Chip& chip, const judge::Case& c,
                                                     const gcn::probe::Exploration& ex,
                                                     const routes::DeviceResult& actual) {
  std::vector<cases::PredictionMatch> m;
  m.reserve(ex.predictions.size());
  for (const gcn::probe::Prediction& p : ex.predictions)
    m.push_back(cases::matchPrediction(chip, c, p.result, actual));
  return m;
}

}  // namespace gcnprobe::run
