// The diff: a device result against a case's acceptance sets (acceptance.h, built by
// expect.h), per lane for returned registers, per element for memory, plus the guard bands.
// What no set accepts is classified (classify.h) and reported (diff_report.h). The entry
// point needs only the case, its expectation and the device result, so any caller (the
// runner, a probe file) can use it.
#pragma once

#include <string>
#include <vector>

#include "harness/judge/acceptance.h"
#include "harness/judge/case.h"
#include "harness/judge/classify.h"
#include "harness/judge/format_view.h"
#include "harness/judge/tolerance.h"
#include "harness/routes/route.h"

namespace gcnprobe::judge {

struct DiffResult {
  bool pass = false;
  std::string summary;                        // "" when pass
  std::vector<results::ComponentDiff> diffs;  // every component of every failing lane / element
  std::vector<std::string> notes;             // observations that do not decide the verdict
};

// fv: the case's format (caseFormatView, expect.h); tol: the case's tolerance. The verdict is
// pass when the guard bytes, every compared lane and every memory element are accepted.
DiffResult diffCase(const routes::DeviceCase& c, const FormatView& fv, const Expected& expected,
                    const routes::DeviceResult& actual, const Tolerance& tol);

}  // namespace gcnprobe::judge
