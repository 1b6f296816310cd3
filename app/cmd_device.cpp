// `gcnprobe devices` and `gcnprobe formats`: what Vulkan sees and what `run` would pick;
// the GCN buffer-format table with this device's support. Plus a hidden `_smoke-isa`
// (used by tests/harness/vulkan/vulkan_test.cpp on the RADV null device, where ICD selection is
// per process): builds the smoke compute shader and prints ACO's texts.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/commands.h"
#include "harness/formats.h"
#include "harness/vsharp_selfcheck.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/driver.h"
#include "harness/vulkan/pipeline.h"
#include "reference/format.h"
#include "reference/gen.h"
#include "reference/resource.h"
#include "reference/text.h"
#include "shaders/embedded.h"

namespace gcnprobe::app {
namespace {

std::string chipText(const vk::DeviceInfo& d) {
  if (!d.chip) {
    // An RDNA device (known by its RADV name) is not GCN: the model covers it in parts
    // (docs/rdna.md), and `run` treats it as a device that is not GCN.
    if (const std::optional<gcn::Chip>& r = d.rdnaChip)
      return "-  RDNA " + std::string(r->name) + " (" + std::string(gcn::genName(r->gen)) + ", " +
             std::string(gcn::gcnVersionName(r->gen)) + ")";
    return "-";
  }
  return std::string(d.chip->name) + " (" + std::string(gcn::genName(d.chip->gen)) + ", " +
         std::string(gcn::gcnVersionName(d.chip->gen)) + ")";
}

void runDevices(bool json) {
  auto devices = vk::listDevices();
  const vk::DeviceInfo& pick = vk::selectDevice(devices, "");
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : devices) {
      nlohmann::json j;
      j["index"] = d.index;
      j["name"] = d.name;
      j["vendor_id"] = d.vendorId;
      j["device_id"] = d.deviceId;
      j["type"] = vk::deviceTypeName(d.type);
      j["driver"] = d.driverName;
      j["driver_info"] = d.driverInfo;
      j["api_version"] = std::to_string(VK_API_VERSION_MAJOR(d.apiVersion)) + "." +
                         std::to_string(VK_API_VERSION_MINOR(d.apiVersion)) + "." +
                         std::to_string(VK_API_VERSION_PATCH(d.apiVersion));
      j["chip"] = d.chip ? nlohmann::json(std::string(d.chip->name)) : nlohmann::json(nullptr);
      j["gfx"] =
          d.chip ? nlohmann::json(std::string(gcn::genName(d.chip->gen))) : nlohmann::json(nullptr);
      j["software"] = d.isSoftware;
      j["executable_properties"] = d.hasExecutableProperties;
      j["robustness2"] = d.hasRobustness2;
      j["descriptor_buffer"] = d.hasDescriptorBuffer;
      j["selected"] = d.index == pick.index;
      out.push_back(j);
    }
    std::printf("%s\n", out.dump(2).c_str());
    return;
  }
  for (const auto& d : devices) {
    std::printf("%c %u: %s\n", d.index == pick.index ? '*' : ' ', d.index, d.name.c_str());
    std::printf("     vendor %s  device %s  type %s  driver %s %s\n",
                gcn::hexNumber(d.vendorId, 4).c_str(), gcn::hexNumber(d.deviceId, 4).c_str(),
                vk::deviceTypeName(d.type).c_str(),
                d.driverName.empty() ? "-" : d.driverName.c_str(), d.driverInfo.c_str());
    std::printf("     GCN %s  executable-properties %s  robustness2 %s\n", chipText(d).c_str(),
                d.hasExecutableProperties ? "yes" : "no", d.hasRobustness2 ? "yes" : "no");
  }
  std::printf("* = the device `gcnprobe run` picks (AMD GCN GPU, then other GPU, then CPU)\n");
  std::string skipped;
  for (const std::filesystem::path& m : vk::skippedManifests())
    skipped += (skipped.empty() ? "" : ", ") + m.filename().string();
  if (!skipped.empty())
    std::printf(
        "not loaded: %s (no render node in /dev/dri, which these drivers need to find a device; "
        "set VK_LOADER_DRIVERS_DISABLE, even empty, to load them)\n",
        skipped.c_str());
}

std::string selName(const std::array<gcn::DstSel, 4>& s) {
  std::string out;
  for (gcn::DstSel x : s)
    out += gcn::dstSelName(x);
  return out;
}

void runFormats(const std::string& selector, bool json) {
  auto ctx = vk::Context::open(selector);
  // NUM_FORMAT names depend on the generation only for code 6, which no row uses; print
  // them as GFX8 names unless the device is a known GCN chip.
  gcn::Gen gen = ctx->info().chip ? ctx->info().chip->gen : gcn::Gen::Gfx8;
  nlohmann::json out = nlohmann::json::array();
  if (!json) {
    std::printf("device %u: %s\n", ctx->info().index, ctx->info().name.c_str());
    std::printf("%-36s %-12s %-8s %-4s %-6s %-3s %-3s %-3s %-3s %s\n", "vk_format", "dfmt", "nfmt",
                "sel", "stride", "U", "S", "V", "A", "texel model");
  }
  for (const vk::BufferFormat& f : vk::allBufferFormats()) {
    VkFormatFeatureFlags b = ctx->formatProperties(f.vk).bufferFeatures;
    bool u = b & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
    bool s = b & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
    bool v = b & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT;
    bool a = b & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
    if (json) {
      nlohmann::json j;
      j["vk_format"] = std::string(f.name);
      j["vk_format_code"] = static_cast<int>(f.vk);
      j["dfmt"] = static_cast<int>(f.dfmt);
      j["dfmt_name"] = std::string(gcn::dfmtName(f.dfmt));
      j["nfmt"] = static_cast<int>(f.nfmt);
      j["nfmt_name"] = std::string(gcn::nfmtName(f.nfmt, gen));
      j["dst_sel"] = {static_cast<int>(f.dstSel[0]), static_cast<int>(f.dstSel[1]),
                      static_cast<int>(f.dstSel[2]), static_cast<int>(f.dstSel[3])};
      j["stride"] = f.stride;
      j["radv_texel"] = f.texel;
      j["uniform_texel"] = u;
      j["storage_texel"] = s;
      j["vertex"] = v;
      j["storage_texel_atomic"] = a;
      j["texel_model"] = std::string(texelModelName(texelModel(f)));
      if (f.channelDfmt != gcn::Dfmt::Invalid) {
        j["channel_dfmt"] = static_cast<int>(f.channelDfmt);
        j["channel_dfmt_name"] = std::string(gcn::dfmtName(f.channelDfmt));
      } else {
        j["channel_dfmt"] = nullptr;
        j["channel_dfmt_name"] = nullptr;
      }
      j["srgb"] = f.srgb;
      j["note"] = std::string(f.note);
      out.push_back(j);
    } else {
      std::string model(texelModelName(texelModel(f)));
      if (f.channelDfmt != gcn::Dfmt::Invalid)
        model += " " + std::string(gcn::dfmtName(f.channelDfmt));
      if (f.srgb) model += " +srgb";
      std::printf("%-36s %-12s %-8s %-4s %-6u %-3s %-3s %-3s %-3s %s\n",
                  std::string(f.name).c_str(), std::string(gcn::dfmtName(f.dfmt)).c_str(),
                  std::string(gcn::nfmtName(f.nfmt, gen)).c_str(), selName(f.dstSel).c_str(),
                  f.stride, u ? "U" : "-", s ? "S" : "-", v ? "V" : "-", a ? "A" : "-",
                  model.c_str());
    }
  }
  if (json) {
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    std::printf(
        "U/S = uniform/storage texel buffer, V = vertex buffer, A = storage texel atomics "
        "(vkGetPhysicalDeviceFormatProperties bufferFeatures on this device); texel model = how\n"
        "the texel suite reads it: single-load (one buffer_load_format_* on this V#), per-channel\n"
        "<dfmt> (one buffer_load_format_x per channel), wide (64-bit X,Y of a 32_32 V#), none\n"
        "(no GCN model, no cases); +srgb = sRGB EOTF applied after the UNORM load\n");
  }
}

// `formats --self-check`: the table's V#s against the driver's own descriptor words.
int runSelfCheck(const std::string& selector, bool json) {
  auto ctx = vk::Context::open(selector, false, true);
  const std::vector<routes::VSharpCheck> checks = routes::checkDriverVSharps(*ctx);
  const vk::DeviceInfo& info = ctx->info();
  unsigned differ = 0;
  nlohmann::json out = nlohmann::json::array();
  const auto words = [](const std::array<uint32_t, 4>& w) {
    return gcn::hexWord(w[0]) + " " + gcn::hexWord(w[1]) + " " + gcn::hexWord(w[2]) + " " +
           gcn::hexWord(w[3]);
  };
  for (const routes::VSharpCheck& c : checks) {
    differ += c.differences.empty() ? 0 : 1;
    if (json) {
      out.push_back({{"vk_format", c.format},
                     {"binding", c.binding},
                     {"driver_words", words(c.driver)},
                     {"table_words", words(c.predicted)},
                     {"agrees", c.differences.empty()},
                     {"differences", c.differences}});
      continue;
    }
    std::printf("%-7s %-36s %-13s %s\n", c.differences.empty() ? "agree" : "DIFFER",
                c.format.c_str(), c.binding.c_str(), words(c.driver).c_str());
    for (const std::string& d : c.differences)
      std::printf("        %s\n", d.c_str());
  }
  if (json) {
    std::printf("%s\n", nlohmann::json{{"device", info.name},
                                       {"driver", info.driverName + " " + info.driverInfo},
                                       {"chip", std::string(routes::selfCheckChip(info).name)},
                                       {"checks", out}}
                            .dump(2)
                            .c_str());
  } else {
    std::printf("V# self-check on %s (%s %s): %zu descriptors, %zu agree, %u differ\n",
                std::string(routes::selfCheckChip(info).name).c_str(), info.driverName.c_str(),
                info.driverInfo.c_str(), checks.size(), checks.size() - differ, differ);
  }
  return differ == 0 ? 0 : 1;
}

void runSmokeIsa(const std::string& selector) {
  auto ctx = vk::Context::open(selector);
  const vk::Binding bindings[] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
  vk::ComputePipeline pipeline(*ctx, shaders::get("smoke_fill"), bindings, 0, true);
  std::printf("device: %s\nchip: %s\n", ctx->info().name.c_str(),
              ctx->info().chip ? std::string(ctx->info().chip->name).c_str() : "-");
  for (const auto& isa : vk::captureIsa(*ctx, pipeline.pipeline())) {
    std::printf("=== executable: %s\n=== Assembly\n%s\n=== ACO IR\n%s\n", isa.name.c_str(),
                isa.assembly.c_str(), isa.acoIr.c_str());
  }
}

}  // namespace

void addDeviceCommands(CLI::App& app, Context& ctx) {
  struct Options {
    std::string device;
    bool json = false;
    bool selfCheck = false;
  };
  auto devicesOpts = std::make_shared<Options>();
  auto* devices = app.add_subcommand(
      "devices", "List Vulkan devices: vendor, driver, GCN chip, and the one `run` picks");
  devices->add_flag("--json", devicesOpts->json, "print a JSON list");
  devices->callback([devicesOpts] { runDevices(devicesOpts->json); });

  auto formatsOpts = std::make_shared<Options>();
  auto* formats = app.add_subcommand(
      "formats",
      "The VkFormat -> GCN V# (DATA_FORMAT, NUM_FORMAT, DST_SEL) table with this device's "
      "buffer support");
  formats->add_option("--device", formatsOpts->device,
                      "device index or name substring (default: the best device)");
  formats->add_flag("--json", formatsOpts->json, "print a JSON list");
  formats->add_flag("--self-check", formatsOpts->selfCheck,
                    "compare every texel V# of the table with the driver's own descriptor words "
                    "(GCN or RDNA driver with VK_EXT_descriptor_buffer, e.g. --radv-null tonga or "
                    "navi21 on Mesa 25); exit 1 when a field differs");
  formats->callback([formatsOpts, &ctx] {
    if (formatsOpts->selfCheck)
      ctx.exitCode = runSelfCheck(formatsOpts->device, formatsOpts->json);
    else
      runFormats(formatsOpts->device, formatsOpts->json);
  });

  auto smokeOpts = std::make_shared<Options>();
  auto* smoke = app.add_subcommand("_smoke-isa", "");
  smoke->group("");  // hidden: a test helper, see the file comment
  smoke->add_option("--device", smokeOpts->device, "device index or name substring");
  smoke->callback([smokeOpts] { runSmokeIsa(smokeOpts->device); });
}

}  // namespace gcnprobe::app
