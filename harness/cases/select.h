// The cases a Selection (results/selection.h) takes, in list order.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/judge/case.h"
#include "reference/gen.h"
#include "results/selection.h"

namespace gcnprobe::cases {

// The selected cases, order kept; errors as Selector.
std::vector<judge::Case> selectCases(std::vector<judge::Case> all, const results::Selection& s,
                                     std::vector<std::string>* skipped = nullptr);
// The selected cases of `suite` ("" = the default suites, suite.h), only they built: a run
// of a few cases does not build the others. Throws gcn::Error as Selector and buildCases.
// `skipped`, when given, receives the names Selection::skip took out.
std::vector<judge::Case> selectCases(std::string_view suite, const gcn::Chip& chip,
                                     const results::Selection& s,
                                     std::vector<std::string>* skipped = nullptr);

}  // namespace gcnprobe::cases
