#include "harness/cases/select.h"

#include "harness/cases/suite.h"

namespace gcnprobe::run {

std::vector<Case> selectCases(std::vector<Case> all, const Selection& s,
                              std::vector<std::string>* skipped) {
  Selector selector(s);
  std::vector<Case> out;
  for (Case& c : all)
    if (selector.take(c.name)) out.push_back(std::move(c));
  selector.finish();
  if (skipped != nullptr) *skipped = selector.skipped();
  return out;
}

std::vector<Case> selectCases(std::string_view suite, const gcn::Chip& chip, const Selection& s,
                              std::vector<std::string>* skipped) {
  Selector selector(s);
  std::vector<Case> out = buildWantedCases(
      suite, [&](const std::string& name) { return selector.take(name); }, chip);
  selector.finish();
  if (skipped != nullptr) *skipped = selector.skipped();
  return out;
}

}  // namespace gcnprobe::run
