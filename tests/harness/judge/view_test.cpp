// Vulkan views that no single GCN buffer instruction reads (harness/judge/case.h ViewCompose): 3
// channels of 8/16 bits composed from one-channel loads, and sRGB views decoded through the
// sRGB EOTF. Goldens come from the Vulkan format definitions (component order in memory,
// (0,0,1) inserted for missing G, B, A) and from the sRGB standard's published values, never
// from the code under test; no Vulkan device is needed.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "harness/cases/suite.h"
#include "harness/formats.h"
#include "harness/judge/diff.h"
#include "harness/judge/expect.h"
#include "tests/harness/support.h"

namespace gcnprobe::judge {
namespace view_test {

using gcnprobe::test_support::findTexelCase;
const gcn::Chip& chip() {
  return gcnprobe::test_support::gfx9Chip();
}

float f(std::optional<uint32_t> bits) {
  return bits ? std::bit_cast<float>(*bits) : std::nanf("");
}

TEST(SrgbEotf, PublishedValues) {
  // IEC 61966-2-1 linear segment: c/255/12.92 below 0.04045 (codes 0..10).
  EXPECT_EQ(std::bit_cast<float>(srgbToLinearBits(0)), 0.0f);
  EXPECT_FLOAT_EQ(std::bit_cast<float>(srgbToLinearBits(std::bit_cast<uint32_t>(10.0f / 255))),
                  static_cast<float>(10.0 / 255 / 12.92));
  // Widely tabulated sRGB -> linear values: 128 -> 0.2158605, 188 -> 0.5028865, 255 -> 1.
  EXPECT_NEAR(std::bit_cast<float>(srgbToLinearBits(std::bit_cast<uint32_t>(128.0f / 255))),
              0.2158605, 1e-7);
  EXPECT_NEAR(std::bit_cast<float>(srgbToLinearBits(std::bit_cast<uint32_t>(188.0f / 255))),
              0.5028865, 1e-7);
  EXPECT_EQ(std::bit_cast<float>(srgbToLinearBits(0x3f800000u)), 1.0f);
}

TEST(SrgbEotf, MonotoneAndContinuousOverEveryCode) {
  // Exhaustive over the 256 UNORM8 codes: strictly increasing; the two segments meet at
  // 0.04045 (the linear value there, 0.04045 / 12.92, within 1e-7 of the power segment).
  float last = -1;
  for (unsigned c = 0; c < 256; ++c) {
    const float v = std::bit_cast<float>(srgbToLinearBits(std::bit_cast<uint32_t>(c / 255.0f)));
    EXPECT_GT(v, last) << c;
    last = v;
  }
  // At the segment boundary the decoder agrees with both segments of the standard's formula.
  const float knee = std::bit_cast<float>(srgbToLinearBits(std::bit_cast<uint32_t>(0.04045f)));
  EXPECT_NEAR(knee, 0.04045 / 12.92, 1e-7);
  EXPECT_NEAR(knee, std::pow((0.04045 + 0.055) / 1.055, 2.4), 1e-7);
}

// R8G8B8_UNORM: memory R, G, B per 3-byte element; the view reads (R, G, B, 1).
TEST(ComposedView, ThreeByteElementsReadAsRgb1) {
  const Case c = findTexelCase("texel.uniform.r8g8b8_unorm.view_xyzw");
  ASSERT_TRUE(c.view.has_value());
  EXPECT_EQ(c.view->channels, 3u);
  EXPECT_EQ(c.view->loadBytes, 1u);
  EXPECT_EQ(c.device.memory.bytes.size() % 3, 0u);
  const Expected e = buildExpected(c, resolveProfile("gfx9", std::nullopt), {});
  const gcn::ExecResult& r = e.alternatives.front().result;
  const auto& mem = c.device.memory.bytes;
  const uint32_t elements = static_cast<uint32_t>(mem.size() / 3);
  unsigned inRange = 0, outOfRange = 0;
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    if (!((c.device.state.exec >> l) & 1)) continue;
    const uint32_t idx = c.device.state.vgpr(c.device.inst.vaddr)[l];
    SCOPED_TRACE(l);
    ASSERT_EQ(r.lanes[l].vdataCount, 4u);
    if (idx < elements) {
      ++inRange;
      for (unsigned k = 0; k < 3; ++k)
        EXPECT_EQ(f(r.lanes[l].vdata[k]), mem[idx * 3 + k] / 255.0f) << k;
    } else {
      ++outOfRange;
      for (unsigned k = 0; k < 3; ++k)
        EXPECT_EQ(f(r.lanes[l].vdata[k]), 0.0f) << k;
    }
    EXPECT_EQ(f(r.lanes[l].vdata[3]), 1.0f);
  }
  EXPECT_GT(inRange, 40u);
  EXPECT_GT(outOfRange, 4u);
}

// B8G8R8_UINT: memory B, G, R; the view reads (R, G, B, 1) = (byte 2, byte 1, byte 0, 1).
TEST(ComposedView, BgrElementsSwapBack) {
  const Case c = findTexelCase("texel.uniform.b8g8r8_uint.view_xyzw");
  const Expected e = buildExpected(c, resolveProfile("gfx9", std::nullopt), {});
  const gcn::ExecResult& r = e.alternatives.front().result;
  const auto& mem = c.device.memory.bytes;
  for (unsigned l = 0; l < 10; ++l) {
    const uint32_t idx = c.device.state.vgpr(c.device.inst.vaddr)[l];
    ASSERT_LT(idx * 3 + 2, mem.size());
    EXPECT_EQ(r.lanes[l].vdata[0], mem[idx * 3 + 2]);
    EXPECT_EQ(r.lanes[l].vdata[1], mem[idx * 3 + 1]);
    EXPECT_EQ(r.lanes[l].vdata[2], mem[idx * 3 + 0]);
    EXPECT_EQ(r.lanes[l].vdata[3], 1u);
  }
}

// R16G16B16_SFLOAT: 6-byte elements, half floats; every channel load is OFFSET +2.
TEST(ComposedView, HalfFloatChannelsAtTwoByteSteps) {
  const Case c = findTexelCase("texel.uniform.r16g16b16_sfloat.view_xyz");
  EXPECT_EQ(c.view->loadBytes, 2u);
  const std::string text = cases::caseInstructionText(gcn::Gen::Gfx9, c);
  EXPECT_NE(text.find("offset:2"), std::string::npos) << text;
  EXPECT_NE(text.find("offset:4"), std::string::npos) << text;
  const Expected e = buildExpected(c, resolveProfile("gfx9", std::nullopt), {});
  const auto& mem = c.device.memory.bytes;
  unsigned checked = 0;
  for (unsigned l = 0; l < 48; ++l) {  // lanes 0-47 read elements in range
    const uint32_t idx = c.device.state.vgpr(c.device.inst.vaddr)[l];
    for (unsigned k = 0; k < 3; ++k) {
      const uint16_t h =
          static_cast<uint16_t>(mem[idx * 6 + 2 * k] | mem[idx * 6 + 2 * k + 1] << 8);
      // A finite, normal half: (-1)^s * 2^(e-15) * (1 + m/1024).
      const unsigned ex = (h >> 10) & 31, m = h & 1023;
      if (ex == 0 || ex == 31) continue;
      const float want = (h & 0x8000 ? -1.0f : 1.0f) * std::ldexp(1.0f + m / 1024.0f, int(ex) - 15);
      EXPECT_EQ(f(e.alternatives.front().result.lanes[l].vdata[k]), want) << l << " " << k;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100u);
}

// A view read loads only the channels its components select: R8G8B8 x is byte 0, B8G8R8 x
// (memory order B, G, R) is byte 2; three components need all three channels.
TEST(ComposedView, LoadsOnlyTheSelectedChannels) {
  const auto offsets = [](const std::string& name) {
    std::vector<unsigned> out;
    for (const ViewLoad& l : viewLoads(findTexelCase(name)))
      out.push_back(l.inst.offset);
    return out;
  };
  EXPECT_EQ(offsets("texel.uniform.r8g8b8_unorm.view_x"), std::vector<unsigned>({0}));
  EXPECT_EQ(offsets("texel.uniform.b8g8r8_unorm.view_x"), std::vector<unsigned>({2}));
  EXPECT_EQ(offsets("texel.uniform.b8g8r8_unorm.view_xyzw"), std::vector<unsigned>({0, 1, 2}));
  EXPECT_EQ(offsets("texel.uniform.r16g16b16_sint.view_xyz"), std::vector<unsigned>({0, 2, 4}));
  const std::string text = cases::caseInstructionText(
      gcn::Gen::Gfx9, findTexelCase("texel.uniform.b8g8r8_unorm.view_x"));
  EXPECT_EQ(text, "buffer_load_format_x v1, v0, s[4:7], 0 idxen offset:2") << text;
}

// sRGB: R, G, B through the EOTF, alpha as plain UNORM.
TEST(SrgbView, DecodesRgbNotAlpha) {
  const Case c = findTexelCase("texel.uniform.r8g8b8a8_srgb.load_format_xyzw");
  ASSERT_TRUE(c.view.has_value());
  EXPECT_TRUE(c.view->srgb);
  EXPECT_EQ(tolerance(c.tolerance).name, "srgb");
  const Expected e = buildExpected(c, resolveProfile("gfx9", std::nullopt), {});
  const auto& mem = c.device.memory.bytes;
  for (unsigned l = 0; l < 20; ++l) {
    const uint32_t idx = c.device.state.vgpr(c.device.inst.vaddr)[l];
    const auto& v = e.alternatives.front().result.lanes[l].vdata;
    for (unsigned k = 0; k < 3; ++k) {
      const double x = mem[idx * 4 + k] / 255.0;
      const double want = x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
      EXPECT_NEAR(f(v[k]), want, 1e-7) << l << " " << k;
    }
    EXPECT_EQ(f(v[3]), mem[idx * 4 + 3] / 255.0f);
  }
  const FormatView fv = caseFormatView(chip(), c);
  EXPECT_TRUE(fv.srgb[0] && fv.srgb[1] && fv.srgb[2]);
  EXPECT_FALSE(fv.srgb[3]);
  // R8_SRGB reads (R, 0, 0, 1): only R is decoded, so only R gets the sRGB slack.
  const FormatView r8 =
      caseFormatView(chip(), findTexelCase("texel.uniform.r8_srgb.load_format_xyzw"));
  EXPECT_TRUE(r8.srgb[0]);
  EXPECT_FALSE(r8.srgb[1] || r8.srgb[2] || r8.srgb[3]);
}

// The srgb tolerance: 2^-7 on R, G, B (the Vulkan CTS bound), nothing extra on alpha.
TEST(SrgbView, ToleranceBoundsAreEnforced) {
  const Case c = findTexelCase("texel.uniform.r8g8b8a8_srgb.load_format_xyzw");
  const Expected e = buildExpected(c, resolveProfile("portable", std::nullopt), {});
  const FormatView fv = caseFormatView(chip(), c);
  const Tolerance& tol = findTolerance("srgb");
  routes::DeviceResult actual = gcnprobe::test_support::perfectResult(c, e);
  EXPECT_TRUE(diffCase(c.device, fv, e, actual, tol).pass);
  // Lane 3 (an in-range element), R off by 0.007 (< 2^-7): accepted, and reported.
  const float r3 = std::bit_cast<float>(actual.vdata[3][0]);
  actual.vdata[3][0] = std::bit_cast<uint32_t>(r3 < 0.5f ? r3 + 0.007f : r3 - 0.007f);
  auto d = diffCase(c.device, fv, e, actual, tol);
  EXPECT_TRUE(d.pass) << d.summary;
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("0.007"), std::string::npos) << d.notes[0];
  // Off by 0.009 (> 2^-7 = 0.0078125): a failure.
  actual.vdata[3][0] = std::bit_cast<uint32_t>(r3 < 0.5f ? r3 + 0.009f : r3 - 0.009f);
  EXPECT_FALSE(diffCase(c.device, fv, e, actual, tol).pass);
  // Alpha is not sRGB: 0.007 off there fails.
  actual.vdata[3][0] = std::bit_cast<uint32_t>(r3);
  const float a3 = std::bit_cast<float>(actual.vdata[3][3]);
  actual.vdata[3][3] = std::bit_cast<uint32_t>(a3 < 0.5f ? a3 + 0.007f : a3 - 0.007f);
  EXPECT_FALSE(diffCase(c.device, fv, e, actual, tol).pass);
}

// A device that returns the UNORM value without the EOTF (code 128: 128/255 = 0.50196 instead
// of 0.2158605) fails, and the diff says what happened.
TEST(SrgbView, UndecodedValuesAreNamed) {
  const Case c = findTexelCase("texel.storage.b8g8r8a8_srgb.load_format_xyzw");
  const Expected e = buildExpected(c, resolveProfile("gfx9", std::nullopt), {});
  const FormatView fv = caseFormatView(chip(), c);
  routes::DeviceResult actual = gcnprobe::test_support::perfectResult(c, e);
  const auto& p = e.alternatives.front().result;
  // The first lane whose G is the EOTF of a code in (0, 255) (0 and 255 decode to
  // themselves): put that code's UNORM value there instead.
  unsigned lane = gcn::kWaveSize, code = 0;
  for (unsigned l = 0; l < gcn::kWaveSize && lane == gcn::kWaveSize; ++l) {
    if (!p.lanes[l].vdata[1]) continue;
    const float g = std::bit_cast<float>(*p.lanes[l].vdata[1]);
    for (unsigned cc = 1; cc < 255; ++cc) {
      const double x = cc / 255.0;
      const double lin = x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
      if (std::fabs(lin - g) < 1e-6) lane = l, code = cc;
    }
  }
  ASSERT_LT(lane, gcn::kWaveSize);
  actual.vdata[lane][1] = std::bit_cast<uint32_t>(static_cast<float>(code) / 255.0f);
  const DiffResult d = diffCase(c.device, fv, e, actual, findTolerance("exact"));
  EXPECT_FALSE(d.pass);
  bool named = false;
  for (const results::ComponentDiff& cd : d.diffs)
    if (cd.lane == static_cast<int>(lane) && cd.component == 1 && !cd.match)
      named = cd.classification == "srgb-not-decoded";
  EXPECT_TRUE(named) << d.summary;
}

TEST(TexelSuiteCases, EveryTexelFormatWithAModelHasCases) {
  // Which table rows the suite covers: every row with a V# or a per-channel composition.
  const auto cases = cases::buildCases("texel", "", chip());
  for (const vk::BufferFormat& bf : vk::allBufferFormats()) {
    const bool modelled = bf.dfmt != gcn::Dfmt::Invalid || bf.channelDfmt != gcn::Dfmt::Invalid;
    size_t n = 0;
    for (const Case& c : cases)
      n += c.device.format == bf.vk;
    if (modelled)
      EXPECT_GT(n, 0u) << bf.name;
    else
      EXPECT_EQ(n, 0u) << bf.name;
  }
}

}  // namespace view_test
}  // namespace gcnprobe::judge
