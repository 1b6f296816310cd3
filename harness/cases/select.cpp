#include "harness/cases/select.h"

#include "harness/cases/suite.h"

namespace gcnprobe::cases {

std::vector<judge::Case> selectCases(std::vector<judge::Case> all, const results::Selection& s,
                                     std::vector<std::string>* skipped) {
  results::Selector selector(s);
  std::vector<judge::Case> out;
  for (judge::Case& c : all)
    if (selector.take(c.name)) out.push_back(std::move(c));
  selector.finish();
  if (skipped != nullptr) *skipped = selector.skipped();
  return out;
}

std::vector<judge::Case> selectCases(std::string_view suite, const gcn::Chip& chip,
                                     const results::Selection& s,
                                     std::vector<std::string>* skipped) {
  results::Selector selector(s);
  std::vector<judge::Case> out = buildWantedCases(
      suite, [&](const std::string& name) { return selector.take(name); }, chip);
  selector.finish();
  if (skipped != nullptr) *skipped = selector.skipped();
  return out;
}

}  // namespace gcnprobe::cases
