// A compute pipeline of the lane-shader layout created through a given VkPipelineCache with
// creation feedback, and a VkPipelineCache seeded with given data: what the binary route
// (binary_patch.h) and the own-program route (harness/control/) build patched pipelines with.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "harness/routes/storage.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/pipeline.h"
#include "reference/error.h"

namespace gcnprobe::isa {

// Why a patched pipeline cannot be trusted on this driver ("" when it can): Mesa's on-disk
// shader cache must be off (MESA_SHADER_CACHE_DISABLE). RADV writes every entry of imported
// cache data to it, keyed by the hash of the original binary, and serves the entry to any later
// compile of the same shader, in this process and later ones (Mesa 25.0.7
// src/vulkan/runtime/vk_pipeline_cache.c vk_pipeline_cache_load, radv_pipeline_cache.c
// radv_shader_deserialize): a template would come back patched.
inline std::string diskCacheProblem(const vk::DeviceInfo& info) {
  const char* off = std::getenv("MESA_SHADER_CACHE_DISABLE");
  const std::string v = off != nullptr ? off : "";
  if (v == "true" || v == "1" || v == "yes") return "";
  return info.name + " (" + info.driverName + " " + info.driverInfo +
         "): Mesa's on-disk shader cache is on (MESA_SHADER_CACHE_DISABLE is not true); a patched "
         "pipeline cache would be written to it and served to later compiles of the template "
         "(gcnprobe's commands turn it off)";
}

// A compute pipeline created through a given VkPipelineCache, with creation feedback.
class CachedPipeline : public vk::PipelineObjects {
 public:
  CachedPipeline(vk::Context& ctx, std::span<const uint32_t> spirv, bool texel,
                 VkPipelineCache cache, bool captureIsa, bool descriptorBuffer)
      : PipelineObjects(ctx, spirv, routes::lane::laneShaderBindings(texel),
                        VK_SHADER_STAGE_COMPUTE_BIT, 0, descriptorBuffer) {
    // The templates' OFFSET specialisation constant (shaders/storage_access.comp,
    // atomic_ssbo.comp) stays 0.
    // The proof of a patched pipeline is the driver's creation feedback: core in Vulkan 1.3.
    if (ctx.apiVersion() < VK_API_VERSION_1_3)
      throw gcn::Error(
          "a patched pipeline (binary and own-program routes) is proven through pipeline creation "
          "feedback (Vulkan 1.3), and this device and loader give Vulkan " +
          std::to_string(VK_API_VERSION_MAJOR(ctx.apiVersion())) + "." +
          std::to_string(VK_API_VERSION_MINOR(ctx.apiVersion())));
    const uint32_t spec[] = {0};
    const VkSpecializationMapEntry entry{0, 0, 4};
    VkSpecializationInfo si{1, &entry, sizeof spec, spec};
    VkPipelineCreationFeedback stageFeedback{};
    auto fb = vk::make<VkPipelineCreationFeedbackCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO);
    fb.pPipelineCreationFeedback = &feedback_;
    fb.pipelineStageCreationFeedbackCount = 1;
    fb.pPipelineStageCreationFeedbacks = &stageFeedback;
    auto ci = vk::make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    ci.pNext = &fb;
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = module_;
    ci.stage.pName = "main";
    ci.stage.pSpecializationInfo = &si;
    ci.layout = layout_;
    ci.flags = createFlags(ctx, captureIsa);
    const VkResult r = vkCreateComputePipelines(device_, cache, 1, &ci, nullptr, &pipeline_);
    if (r != VK_SUCCESS)
      throw gcn::Error("vkCreateComputePipelines failed (" + std::to_string(r) + ")");
  }
  // Whether the driver took the whole pipeline from the application's cache.
  bool cacheHit() const {
    return (feedback_.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) != 0 &&
           (feedback_.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT) !=
               0;
  }
  bool feedbackValid() const {
    return (feedback_.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) != 0;
  }

 private:
  VkPipelineCreationFeedback feedback_{};
};

// A VkPipelineCache, optionally seeded, destroyed with the object.
class SeededPipelineCache {
 public:
  SeededPipelineCache(VkDevice device, std::span<const uint8_t> seed) : device_(device) {
    auto ci = vk::make<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    ci.initialDataSize = seed.size();
    ci.pInitialData = seed.empty() ? nullptr : seed.data();
    const VkResult r = vkCreatePipelineCache(device_, &ci, nullptr, &cache_);
    if (r != VK_SUCCESS)
      throw gcn::Error("vkCreatePipelineCache failed (" + std::to_string(r) + ")");
  }
  ~SeededPipelineCache() { vkDestroyPipelineCache(device_, cache_, nullptr); }
  SeededPipelineCache(const SeededPipelineCache&) = delete;
  SeededPipelineCache& operator=(const SeededPipelineCache&) = delete;
  VkPipelineCache get() const { return cache_; }
  std::vector<uint8_t> data() const {
    std::size_t size = 0;
    if (vkGetPipelineCacheData(device_, cache_, &size, nullptr) != VK_SUCCESS)
      throw gcn::Error("vkGetPipelineCacheData (size) failed");
    std::vector<uint8_t> out(size);
    if (vkGetPipelineCacheData(device_, cache_, &size, out.data()) != VK_SUCCESS)
      throw gcn::Error("vkGetPipelineCacheData failed");
    out.resize(size);
    return out;
  }

 private:
  VkDevice device_;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
};

}  // namespace gcnprobe::isa
