// The CI examples of docs/ci/ (GitLab `parallel:`, a GitHub Actions matrix, a container recipe
// on debian:bookworm) hold the real commands: tests/app/check_ci_examples.py parses them and
// runs every gcnprobe command they hold, job by job, against the program built here.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/cli.h"

namespace ci_examples_test {

TEST(CiExamples, ParseAndTheirCommandsRunAsWritten) {
  const auto r = gcnprobe::test_support::runCommand(
      "python3 " + std::string(GCNPROBE_SOURCE_DIR) + "/tests/app/check_ci_examples.py " +
      GCNPROBE_SOURCE_DIR + " " + GCNPROBE_BINARY + " 2>&1");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("0 problem(s)"), std::string::npos) << r.out;
}

}  // namespace ci_examples_test
