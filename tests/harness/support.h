// Helpers the harness tests share: the portable run options a test device gets, and one
// texel case by name. They build inputs only; no expected value comes from here.
#pragma once

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "harness/cases/suite.h"
#include "harness/judge/expect.h"
#include "harness/run/runner.h"
#include "harness/vulkan/context.h"

namespace gcnprobe::test_support {

// The portable profile with the robustness the device really has: the same resolution
// `gcnprobe run` makes on a non-AMD device.
inline run::RunOptions portableOptions(const vk::Context& ctx) {
  run::RunOptions o;
  o.profile = judge::resolveProfile("portable", std::nullopt);
  o.rules.robustBufferAccess2 = ctx.features().robustBufferAccess2;
  return o;
}

// Opens the default device (lavapipe here); `validation` turns on the Khronos layer.
inline std::unique_ptr<vk::Context> openDefaultDevice(bool validation = false) {
  setenv("XDG_RUNTIME_DIR", "/tmp", 0);
  return vk::Context::open("", validation);
}

inline const gcn::Chip& gfx9Chip() {
  return gcn::representativeChip(gcn::Gen::Gfx9);
}

// The one texel-suite case called `name` (GFX9 V#s).
inline judge::Case findTexelCase(const std::string& name) {
  auto cases = cases::buildCases("texel", name, gfx9Chip());
  EXPECT_EQ(cases.size(), 1u) << name;
  return cases.at(0);
}

// What a perfect device would return for the case: the primary prediction (registers of
// the components the read returns, and the memory image after it).
inline routes::DeviceResult perfectResult(const judge::Case& c, const judge::Expected& e) {
  routes::DeviceResult r;
  const gcn::ExecResult& p = e.alternatives.front().result;
  r.vdataCount =
      c.device.viewComponents != 0 ? c.device.viewComponents : c.device.inst.op->components;
  for (unsigned l = 0; l < gcn::kWaveSize; ++l)
    for (unsigned k = 0; k < r.vdataCount; ++k)
      r.vdata[l][k] = p.lanes[l].vdata[k].value_or(0);
  r.memory = p.memory().bytes;
  return r;
}

}  // namespace gcnprobe::test_support
