// The texel route and suite: the formatted storage-texel variants declare the SPIR-V image
// format the Vulkan spec pairs with their VkFormat, and on the default device (lavapipe
// here) under the portable profile the suite has zero failures, every uniform-texel load of
// a supported format passes and every storage-texel format class has a passing load.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

#include "harness/cases/suite.h"
#include "harness/formats.h"
#include "harness/routes/texel.h"
#include "harness/run/runner.h"
#include "harness/vulkan/context.h"
#include "reference/opcodes.h"
#include "shaders/embedded.h"
#include "tests/harness/support.h"

namespace gcnprobe::run {
namespace texel_test {

// SPIR-V 1.x spec, 3.32 "Instructions": OpTypeInt = 21 (width, signedness), OpTypeFloat =
// 22 (width), OpTypeImage = 25 (result, sampled type, Dim, Depth, Arrayed, MS, Sampled,
// Image Format); 3.8 "Dim": Buffer = 5.
struct ImageType {
  uint32_t dim = 0;
  uint32_t sampled = 0;
  uint32_t format = 0;
  char sampledType = '?';  // 'f' float32, 'i' int32, 'u' uint32, 'I' int64, 'U' uint64
};

// The one OpTypeImage of a texel_load shader, read from its SPIR-V words.
ImageType imageTypeOf(std::span<const uint32_t> spirv) {
  std::map<uint32_t, char> scalar;
  ImageType img;
  uint32_t sampledId = 0;
  int images = 0;
  for (size_t i = 5; i < spirv.size();) {
    const uint32_t count = spirv[i] >> 16, op = spirv[i] & 0xffffu;
    if (count == 0 || i + count > spirv.size()) throw std::runtime_error("bad SPIR-V");
    const uint32_t* w = &spirv[i];
    if (op == 21 && count == 4 && w[2] == 32) scalar[w[1]] = w[3] ? 'i' : 'u';
    if (op == 21 && count == 4 && w[2] == 64) scalar[w[1]] = w[3] ? 'I' : 'U';
    if (op == 22 && count == 3 && w[2] == 32) scalar[w[1]] = 'f';
    if (op == 25 && count >= 9) {
      ++images;
      sampledId = w[2];
      img.dim = w[3];
      img.sampled = w[7];
      img.format = w[8];
    }
    i += count;
  }
  if (images != 1) throw std::runtime_error("expected one OpTypeImage");
  if (scalar.count(sampledId)) img.sampledType = scalar[sampledId];
  return img;
}

routes::DeviceCase storageLoad(VkFormat format, unsigned components) {
  static constexpr const char* kLoads[] = {"buffer_load_format_x", "buffer_load_format_xy",
                                           "buffer_load_format_xyz", "buffer_load_format_xyzw"};
  routes::DeviceCase c;
  c.binding = routes::Binding::StorageTexel;
  c.format = format;
  c.inst.op = gcn::findOpcode(kLoads[components - 1]);
  return c;
}

bool variantExists(const std::string& name) {
  for (const shaders::Variant& v : shaders::all())
    if (v.name == name) return true;
  return false;
}

TEST(TexelRoute, FormattedVariantsDeclareTheSpecImageFormat) {
  // Goldens: the Vulkan spec's "Compatibility Between SPIR-V Image Formats and Vulkan
  // Formats" table (appendices/spirvenv) gives the SPIR-V Image Format of each VkFormat;
  // the numbers are the SPIR-V spec's 3.11 "Image Format" enumerants; the sampled type is
  // the format's numeric type (Vulkan "Image Format Requirements": UNORM/SNORM/FLOAT read
  // as float, SINT as int, UINT as uint). One row per class: 8/16/32-bit, packed, each
  // numeric type.
  struct Golden {
    VkFormat vk;
    uint32_t spirvFormat;
    char sampledType;
  };
  const Golden goldens[] = {
      {VK_FORMAT_R16G16B16A16_SFLOAT, 2, 'f'},        // Rgba16f
      {VK_FORMAT_R32_SFLOAT, 3, 'f'},                 // R32f
      {VK_FORMAT_R8G8B8A8_UNORM, 4, 'f'},             // Rgba8
      {VK_FORMAT_R8G8B8A8_SNORM, 5, 'f'},             // Rgba8Snorm
      {VK_FORMAT_B10G11R11_UFLOAT_PACK32, 8, 'f'},    // R11fG11fB10f
      {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 11, 'f'},  // Rgb10A2
      {VK_FORMAT_R16G16_UNORM, 12, 'f'},              // Rg16
      {VK_FORMAT_R8_UNORM, 15, 'f'},                  // R8
      {VK_FORMAT_R16_SNORM, 19, 'f'},                 // R16Snorm
      {VK_FORMAT_R32G32B32A32_SINT, 21, 'i'},         // Rgba32i
      {VK_FORMAT_R8_SINT, 29, 'i'},                   // R8i
      {VK_FORMAT_R32G32B32A32_UINT, 30, 'u'},         // Rgba32ui
      {VK_FORMAT_A2B10G10R10_UINT_PACK32, 34, 'u'},   // Rgb10a2ui
      {VK_FORMAT_R8_UINT, 39, 'u'},                   // R8ui
  };
  for (const Golden& g : goldens) {
    for (unsigned n = 1; n <= 4; ++n) {
      const std::string v = routes::texelVariant(storageLoad(g.vk, n), false);
      SCOPED_TRACE(v);
      ASSERT_TRUE(variantExists(v));
      const ImageType img = imageTypeOf(shaders::get(v));
      EXPECT_EQ(img.dim, 5u);      // Buffer
      EXPECT_EQ(img.sampled, 2u);  // storage image (read without a sampler)
      EXPECT_EQ(img.format, g.spirvFormat);
      EXPECT_EQ(img.sampledType, g.sampledType);
    }
  }
  // With the without-format feature the route keeps the unformatted variant (Unknown = 0).
  const std::string plain = routes::texelVariant(storageLoad(VK_FORMAT_R8G8B8A8_UNORM, 4), true);
  EXPECT_EQ(plain, "texel_load_storage_f4");
  EXPECT_EQ(imageTypeOf(shaders::get(plain)).format, 0u);
}

TEST(TexelRoute, FormatsOutsideTheSpecTableHaveNoFormattedVariant) {
  // The spec table has no BGRA, no packed A8B8G8R8, no scaled, no 3-component, no sRGB
  // entry.
  for (VkFormat f :
       {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_A8B8G8R8_UINT_PACK32,
        VK_FORMAT_R8G8B8A8_USCALED, VK_FORMAT_R16_SSCALED, VK_FORMAT_R32G32B32_SFLOAT,
        VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_A2R10G10B10_UNORM_PACK32, VK_FORMAT_R8G8B8_UNORM}) {
    const std::string v = routes::texelVariant(storageLoad(f, 1), false);
    EXPECT_FALSE(v.empty());
    EXPECT_FALSE(variantExists(v)) << v;
  }
}

TEST(TexelRoute, SixtyFourBitTexelsReadThroughA64BitImage) {
  // Vulkan spec table: R64_UINT <-> R64ui (40), R64_SINT <-> R64i (41), capability
  // Int64ImageEXT; the texel is one 64-bit component, read as buffer_load_format_xy.
  const struct {
    VkFormat vk;
    uint32_t spirvFormat;
    char sampledType;
  } goldens[] = {{VK_FORMAT_R64_UINT, 40, 'U'}, {VK_FORMAT_R64_SINT, 41, 'I'}};
  for (const auto& g : goldens) {
    for (bool withoutFormat : {false, true}) {
      const std::string v = routes::texelVariant(storageLoad(g.vk, 2), withoutFormat);
      SCOPED_TRACE(v);
      ASSERT_TRUE(variantExists(v));
      const ImageType img = imageTypeOf(shaders::get(v));
      EXPECT_EQ(img.dim, 5u);
      EXPECT_EQ(img.format, g.spirvFormat);
      EXPECT_EQ(img.sampledType, g.sampledType);
    }
  }
}

TEST(TexelRoute, EveryFormattedVariantAgreesWithTheFormatTable) {
  // Exhaustive over the compiled variants: each names a table format with a texel V#, has
  // all of 1..4 components (R64: the one xy read), a declared (not Unknown) buffer image
  // format and the format's numeric type. Count: the spec table's 41 rows.
  std::map<std::string, std::set<unsigned>> comps;
  const std::string prefix = "texel_load_formatted_";
  for (const shaders::Variant& v : shaders::all()) {
    const std::string name(v.name);
    if (name.rfind(prefix, 0) != 0) continue;
    SCOPED_TRACE(name);
    const size_t us = name.rfind('_');
    const std::string fmt = name.substr(prefix.size(), us - prefix.size());
    const unsigned n = static_cast<unsigned>(std::stoul(name.substr(us + 1)));
    const vk::BufferFormat& f = vk::parseBufferFormat(fmt);
    EXPECT_TRUE(f.texel);
    EXPECT_NE(f.dfmt, gcn::Dfmt::Invalid);
    EXPECT_EQ(routes::texelVariant(storageLoad(f.vk, n), false), name);
    const ImageType img = imageTypeOf(v.spirv);
    EXPECT_EQ(img.dim, 5u);
    EXPECT_NE(img.format, 0u);
    char want = f.nfmt == gcn::Nfmt::Uint ? 'u' : (f.nfmt == gcn::Nfmt::Sint ? 'i' : 'f');
    if (f.stride == 8 && gcn::dfmtInfo(f.dfmt).components == 2 && f.dstSel[2] == gcn::DstSel::One)
      want = static_cast<char>(want - 'a' + 'A');  // R64: 64-bit sampled type
    EXPECT_EQ(img.sampledType, want);
    EXPECT_TRUE(comps[fmt].insert(n).second);
  }
  EXPECT_EQ(comps.size(), 41u);
  for (const auto& [fmt, ns] : comps) {
    const std::set<unsigned> want =
        fmt.rfind("r64", 0) == 0 ? std::set<unsigned>{2} : std::set<unsigned>{1, 2, 3, 4};
    EXPECT_EQ(ns, want) << fmt;
  }
}

TEST(TexelSuite, PortableProfilePassesEverySupportedFormat) {
  auto ctx = test_support::openDefaultDevice();
  const RunOptions o = test_support::portableOptions(*ctx);
  const std::vector<judge::Case> cases = cases::buildCases("texel", "", o.profile.chip);

  // Lower bound derived from the format table and the device's format features alone:
  // every uniform-texel load case of a format with UNIFORM_TEXEL_BUFFER support, other
  // than 64-bit texels (no GLSL sampler type), must pass: formats with a V# load
  // {1, components, 4} components, 3-channel 8/16-bit formats (composed view, one load per
  // channel) {1, 3, 4}, sRGB formats too (the EOTF is applied to the reference). Formats
  // with neither (64-bit channels beyond R64) are not in the suite.
  size_t mustPass = 0;
  // Storage-texel load classes that must have a passing case: the DATA_FORMATs and
  // NUM_FORMATs of formats with STORAGE_TEXEL_BUFFER support (not sRGB, not 64-bit). When
  // the device lacks shaderStorageImageReadWithoutFormat only formats with a SPIR-V image
  // format can be read; that table (Vulkan spec) has no scaled and no 3-component entry,
  // so USCALED/SSCALED and 32_32_32 are then not required.
  const bool withoutFormat = ctx->features().shaderStorageImageReadWithoutFormat;
  std::set<gcn::Dfmt> dfmtClasses;
  std::set<gcn::Nfmt> nfmtClasses;
  std::set<std::string> uniformFormats;  // every one needs a passing uniform case
  for (const vk::BufferFormat& f : vk::allBufferFormats()) {
    const bool composed = f.dfmt == gcn::Dfmt::Invalid && f.channelDfmt != gcn::Dfmt::Invalid;
    if (f.dfmt == gcn::Dfmt::Invalid && !composed) continue;
    const std::string name(f.name);
    if (name.find("R64") != std::string::npos) continue;
    const VkFormatFeatureFlags features = ctx->formatProperties(f.vk).bufferFeatures;
    if ((features & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT) && !f.srgb && !composed) {
      const bool scaled = f.nfmt == gcn::Nfmt::Uscaled || f.nfmt == gcn::Nfmt::Sscaled;
      if (withoutFormat || !scaled) nfmtClasses.insert(f.nfmt);
      if (withoutFormat || f.dfmt != gcn::Dfmt::F32_32_32) dfmtClasses.insert(f.dfmt);
    }
    if ((features & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) == 0) continue;
    uniformFormats.insert(name);
    const unsigned n = composed ? 3 : gcn::dfmtInfo(f.dfmt).components;
    mustPass += n == 1 || n == 4 ? 2 : 3;
  }
  ASSERT_GT(mustPass, 40u);           // docs/platform.md: lavapipe has 87 uniform-texel formats
  ASSERT_GE(nfmtClasses.size(), 5u);  // UNORM, SNORM, UINT, SINT, FLOAT on any device here
  ASSERT_GE(dfmtClasses.size(), 8u);

  std::vector<std::unique_ptr<routes::Route>> routes;
  routes.push_back(routes::makeTexelRoute(*ctx));
  std::vector<std::string> failures;
  size_t uniformPassed = 0, storageLoadsPassed = 0;
  std::set<gcn::Dfmt> dfmtPassed;
  std::set<gcn::Nfmt> nfmtPassed;
  const results::Summary s = runCases(cases, routes, o, [&](const results::CaseResult& r) {
    if (r.verdict == results::Verdict::Fail || r.verdict == results::Verdict::Error)
      failures.push_back(r.name + ": " + r.reason);
    const vk::BufferFormat& f = vk::parseBufferFormat(r.format);
    if (r.verdict == results::Verdict::Unsupported) {
      EXPECT_FALSE(r.reason.empty()) << r.name;
      // 64-bit texels: only a 64-bit image type reads them (Int64ImageEXT).
      if (r.format.find("R64") != std::string::npos && !ctx->features().shaderImageInt64Atomics &&
          r.reason.find("lacks VK_FORMAT_FEATURE") == std::string::npos) {
        EXPECT_NE(r.reason.find("shaderImageInt64Atomics"), std::string::npos) << r.reason;
      }
    }
    const bool load = r.name.find(".load_format_") != std::string::npos;
    if (r.verdict == results::Verdict::Pass && r.binding == "uniform-texel") {
      ++uniformPassed;
      uniformFormats.erase(r.format);
    }
    if (r.verdict == results::Verdict::Pass && r.binding == "storage-texel" && load) {
      ++storageLoadsPassed;
      dfmtPassed.insert(f.dfmt);
      nfmtPassed.insert(f.nfmt);
    }
  });
  for (const std::string& f : failures)
    ADD_FAILURE() << f;
  EXPECT_EQ(s.count(results::Verdict::Fail), 0u);
  EXPECT_EQ(s.count(results::Verdict::Error), 0u);
  EXPECT_GE(uniformPassed, mustPass);
  for (const std::string& f : uniformFormats)
    ADD_FAILURE() << f << " supports uniform texel buffers and no uniform case of it passed";
  for (gcn::Dfmt d : dfmtClasses)
    EXPECT_TRUE(dfmtPassed.count(d))
        << "no storage-texel load passed for DATA_FORMAT " << static_cast<int>(d);
  for (gcn::Nfmt n : nfmtClasses)
    EXPECT_TRUE(nfmtPassed.count(n))
        << "no storage-texel load passed for NUM_FORMAT " << static_cast<int>(n);
  // Two load cases at least per required data format class ({1, ..., 4} components).
  EXPECT_GE(storageLoadsPassed, 2 * dfmtClasses.size());
  EXPECT_GT(s.count(results::Verdict::Pass), uniformPassed + storageLoadsPassed);  // plus stores
  std::printf("texel suite: %s (%zu storage-texel loads passed)\n", s.line().c_str(),
              storageLoadsPassed);
}

// Composed views (3 channels of 8/16 bits) and sRGB views: reads through views of formats
// with no SPIR-V image format, against the reference composed per channel and decoded
// through the sRGB EOTF; with validation on they must raise no validation error.
TEST(TexelSuite, ComposedAndSrgbViewsPassWithoutValidationErrors) {
  auto ctx = test_support::openDefaultDevice(/*validation=*/true);
  const RunOptions o = test_support::portableOptions(*ctx);
  std::vector<judge::Case> cases =
      cases::buildCases("texel", "texel.uniform.*.view_*", o.profile.chip);
  for (judge::Case& c : cases::buildCases("texel", "texel.uniform.*srgb*", o.profile.chip))
    if (c.name.find(".view_") == std::string::npos) cases.push_back(std::move(c));
  // 14 3-channel 8-bit + 7 16-bit formats x {1, 3, 4}; 5 sRGB formats with a V# (11 cases).
  ASSERT_EQ(cases.size(), 21u * 3 + 11u);
  std::vector<std::unique_ptr<routes::Route>> routes;
  routes.push_back(routes::makeTexelRoute(*ctx));
  size_t passed = 0;
  const results::Summary s = runCases(cases, routes, o, [&](const results::CaseResult& r) {
    if (r.verdict == results::Verdict::Pass) ++passed;
    if (r.verdict == results::Verdict::Fail || r.verdict == results::Verdict::Error)
      ADD_FAILURE() << r.name << ": " << r.reason;
    // The only excuse for a uniform view read is a device without the format.
    if (r.verdict == results::Verdict::Unsupported) {
      EXPECT_NE(r.reason.find("lacks VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT"),
                std::string::npos)
          << r.name << ": " << r.reason;
    }
  });
  // Every view whose format the device has as a uniform texel buffer runs and passes
  // (lavapipe: all but USCALED/SSCALED and R8/R8G8 sRGB).
  size_t supported = 0;
  for (const judge::Case& c : cases)
    if (ctx->formatProperties(c.device.format).bufferFeatures &
        VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT)
      ++supported;
  EXPECT_EQ(passed, supported);
  if (ctx->info().name.find("llvmpipe") != std::string::npos) {
    EXPECT_GE(passed, 50u);  // docs/platform.md: 87 uniform-texel formats
  }
  EXPECT_EQ(s.count(results::Verdict::Fail), 0u);
  EXPECT_EQ(ctx->validationErrors(), 0u);
  for (const std::string& m : ctx->validationMessages())
    ADD_FAILURE() << m;
}

// Without shaderStorageImageReadWithoutFormat the formatted storage loads run; with Vulkan
// validation on they must raise no validation error (format qualifier vs view format,
// capabilities). A device with the feature runs the unformatted variants instead.
TEST(TexelSuite, StorageTexelLoadsRaiseNoValidationError) {
  auto ctx = test_support::openDefaultDevice(/*validation=*/true);
  const RunOptions o = test_support::portableOptions(*ctx);
  const std::vector<judge::Case> cases =
      cases::buildCases("texel", "texel.storage.*.load_format_*", o.profile.chip);
  ASSERT_FALSE(cases.empty());
  std::vector<std::unique_ptr<routes::Route>> routes;
  routes.push_back(routes::makeTexelRoute(*ctx));
  size_t passed = 0;
  const results::Summary s = runCases(cases, routes, o, [&](const results::CaseResult& r) {
    if (r.verdict == results::Verdict::Pass) ++passed;
  });
  EXPECT_GT(passed, 0u);
  EXPECT_EQ(s.count(results::Verdict::Fail), 0u);
  EXPECT_EQ(s.count(results::Verdict::Error), 0u);
  EXPECT_EQ(ctx->validationErrors(), 0u);
  for (const std::string& m : ctx->validationMessages())
    ADD_FAILURE() << m;
}

// Stores of fewer than four components: lavapipe's result must be the 1..3-component store's
// (the shader writes constant zero past them), and a store with fewer components than its
// format has is unsupported with a reason, never run (imageStore writes every component).
TEST(TexelSuite, NarrowStoresRunOnlyWhereTheFormatIsNoWider) {
  auto ctx = test_support::openDefaultDevice(/*validation=*/true);
  const RunOptions o = test_support::portableOptions(*ctx);
  std::vector<judge::Case> cases;
  for (const char* filter : {"texel.storage.*.store_format_x", "texel.storage.*.store_format_xy",
                             "texel.storage.*.store_format_xyz"})
    for (judge::Case& c : cases::buildCases("texel", filter, o.profile.chip))
      cases.push_back(std::move(c));
  // Every format with 1..3 components and a V# (not sRGB): R8/R16/R32 x 7 number formats,
  // 8_8/16_16/32_32 likewise, 32_32_32 (3) and 10_11_11 (1), less sRGB and 64-bit rows.
  ASSERT_GE(cases.size(), 30u);
  judge::Case wide = test_support::findTexelCase("texel.storage.r8g8b8a8_unorm.store_format_xyzw");
  wide.name = "texel.storage.r8g8b8a8_unorm.store_format_x(narrowed)";
  wide.device.inst.op = gcn::findOpcode("buffer_store_format_x");
  cases.push_back(wide);
  std::vector<std::unique_ptr<routes::Route>> routes;
  routes.push_back(routes::makeTexelRoute(*ctx));
  size_t passed = 0;
  runCases(cases, routes, o, [&](const results::CaseResult& r) {
    if (r.name == wide.name) {
      EXPECT_EQ(r.verdict, results::Verdict::Unsupported);
      EXPECT_NE(r.reason.find("has 4 components"), std::string::npos) << r.reason;
      return;
    }
    if (r.verdict == results::Verdict::Pass) ++passed;
    EXPECT_TRUE(r.verdict == results::Verdict::Pass || r.verdict == results::Verdict::Unsupported)
        << r.name << ": " << r.reason;
  });
  if (ctx->info().name.find("llvmpipe") != std::string::npos) {
    EXPECT_GE(passed, 25u);  // every 1-3 component storage texel format lavapipe has
  }
  EXPECT_EQ(ctx->validationErrors(), 0u);
}

}  // namespace texel_test
}  // namespace gcnprobe::run
