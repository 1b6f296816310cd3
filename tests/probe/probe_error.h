// The error a probe text gives: parsed as "t.probe", prepared and run on the reference.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "probe/probe_eval.h"
#include "probe/probe_file.h"
#include "reference/error.h"

namespace gcn::probe::test {

// Fails the calling test when the text gives no error.
inline Error errorOf(const std::string& text) {
  try {
    const Probe p = parseProbe(text, "t.probe");
    const ProbeSetup s = prepare(p, {});
    (void)run(p, s, s.policies);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return Error("none");
}

}  // namespace gcn::probe::test
