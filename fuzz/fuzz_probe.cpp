// A probe file end to end on the reference: parse, prepare for its generation, explore every
// policy variant that matters, check its expectations and write both reports. Bad text must
// be a gcn::Error (file:line:column) and the JSON must serialise whatever the text was.
#include "fuzz/fuzz_common.h"
#include "probe/probe_eval.h"
#include "probe/probe_file.h"
#include "probe/probe_report.h"
#include "reference/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gcnprobe::fuzz;
  try {
    const gcn::probe::Probe probe = gcn::probe::parseProbe(asText(data, size), "fuzz.probe");
    const gcn::probe::ProbeSetup setup = gcn::probe::prepare(probe, {});
    const gcn::probe::Exploration ex = gcn::probe::explore(probe, setup);
    const gcn::ExecResult& result = ex.predictions.front().result;
    const auto failures = gcn::probe::checkExpect(probe, setup, result);
    (void)gcn::probe::refText(probe, setup, result, failures);
    (void)gcn::probe::refJson(probe, setup, result, failures)
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)gcn::probe::exploreText(probe, setup, ex, failures, "not run");
    (void)gcn::probe::exploreJson(probe, setup, ex, failures, nlohmann::json::object())
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const gcn::Error&) {
  }
  return 0;
}
