// A vertex-only graphics pipeline for the vertex-fetch route: one vertex binding with one
// attribute at location 0, point list, rasterizer discard, and a render pass without
// attachments. Why a render pass and not dynamic rendering: dynamicRendering is a Vulkan
// 1.3 *feature* that the Context does not enable, while a subpass with no attachments and a
// framebuffer with no attachments are core Vulkan 1.0 (VkFramebufferCreateInfo allows
// attachmentCount = 0 with width/height >= 1). With rasterizerDiscardEnable the viewport,
// multisample and colour-blend states are ignored (VkGraphicsPipelineCreateInfo), so the
// pipeline carries none of them.
#pragma once

#include <volk.h>

#include <cstdint>
#include <span>
#include <vector>

#include "harness/vulkan/context.h"
#include "harness/vulkan/pipeline.h"

namespace gcnprobe::vk {

// A render pass with one subpass and no attachments, and its 1x1 framebuffer.
class EmptyRenderPass {
 public:
  explicit EmptyRenderPass(Context& ctx);
  ~EmptyRenderPass();
  EmptyRenderPass(const EmptyRenderPass&) = delete;
  EmptyRenderPass& operator=(const EmptyRenderPass&) = delete;

  VkRenderPass renderPass() const { return renderPass_; }
  VkFramebuffer framebuffer() const { return framebuffer_; }
  // vkCmdBeginRenderPass over the 1x1 area (inline contents) / vkCmdEndRenderPass.
  void begin(VkCommandBuffer cmd) const;
  static void end(VkCommandBuffer cmd);

 private:
  void destroy();
  VkDevice device_ = VK_NULL_HANDLE;
  VkRenderPass renderPass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
};

// The vertex input of the pipeline: binding 0 with `stride` (per-vertex rate), attribute
// location 0 of `format` at `offset`.
struct VertexInput {
  uint32_t stride = 0;
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t offset = 0;
};

// Set-0 bindings are visible to the vertex stage. With captureIsa the pipeline is created
// with VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR (captureIsa() in
// pipeline.h then returns ACO's text on RADV).
class GraphicsPipeline : public PipelineObjects {
 public:
  GraphicsPipeline(Context& ctx, std::span<const uint32_t> vertexSpirv,
                   std::span<const Binding> bindings, const VertexInput& input,
                   const EmptyRenderPass& pass, bool captureIsa = false);
};

// A descriptor pool with `count` storage-buffer sets of a pipeline's set-0 layout (DescriptorSet
// of pipeline.h holds one set of any binding type). Sets are freed with the pool.
class StorageDescriptorSets {
 public:
  StorageDescriptorSets(Context& ctx, const PipelineObjects& pipeline, uint32_t count);
  ~StorageDescriptorSets();
  StorageDescriptorSets(const StorageDescriptorSets&) = delete;
  StorageDescriptorSets& operator=(const StorageDescriptorSets&) = delete;

  VkDescriptorSet set(uint32_t i) const { return sets_.at(i); }
  void writeStorageBuffer(uint32_t set, uint32_t binding, VkBuffer buffer);

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets_;
};

// Vertex-shader writes -> host reads, recorded after the render pass.
void recordVertexToHostBarrier(VkCommandBuffer cmd);

}  // namespace gcnprobe::vk
