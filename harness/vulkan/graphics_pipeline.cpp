#include "harness/vulkan/graphics_pipeline.h"

#include <algorithm>

#include "reference/error.h"

namespace gcnprobe::vk {

EmptyRenderPass::EmptyRenderPass(Context& ctx) : device_(ctx.device()) {
  try {
    VkSubpassDescription sub{};
    sub.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    auto ri = make<VkRenderPassCreateInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
    ri.subpassCount = 1;
    ri.pSubpasses = &sub;
    check(vkCreateRenderPass(device_, &ri, nullptr, &renderPass_), "vkCreateRenderPass");
    auto fi = make<VkFramebufferCreateInfo>(VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
    fi.renderPass = renderPass_;
    fi.width = 1;
    fi.height = 1;
    fi.layers = 1;
    check(vkCreateFramebuffer(device_, &fi, nullptr, &framebuffer_), "vkCreateFramebuffer");
  } catch (...) {
    destroy();
    throw;
  }
}

EmptyRenderPass::~EmptyRenderPass() {
  destroy();
}

void EmptyRenderPass::destroy() {
  if (framebuffer_ != VK_NULL_HANDLE) vkDestroyFramebuffer(device_, framebuffer_, nullptr);
  if (renderPass_ != VK_NULL_HANDLE) vkDestroyRenderPass(device_, renderPass_, nullptr);
  framebuffer_ = VK_NULL_HANDLE;
  renderPass_ = VK_NULL_HANDLE;
}

void EmptyRenderPass::begin(VkCommandBuffer cmd) const {
  auto bi = make<VkRenderPassBeginInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
  bi.renderPass = renderPass_;
  bi.framebuffer = framebuffer_;
  bi.renderArea.extent = {1, 1};
  vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
}

void EmptyRenderPass::end(VkCommandBuffer cmd) {
  vkCmdEndRenderPass(cmd);
}

GraphicsPipeline::GraphicsPipeline(Context& ctx, std::span<const uint32_t> vertexSpirv,
                                   std::span<const Binding> bindings, const VertexInput& input,
                                   const EmptyRenderPass& pass, bool captureIsa)
    : PipelineObjects(ctx, vertexSpirv, bindings, VK_SHADER_STAGE_VERTEX_BIT, 0) {
  auto stage =
      make<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  stage.stage = VK_SHADER_STAGE_VERTEX_BIT;
  stage.module = module_;
  stage.pName = "main";

  VkVertexInputBindingDescription vb{0, input.stride, VK_VERTEX_INPUT_RATE_VERTEX};
  VkVertexInputAttributeDescription va{0, 0, input.format, input.offset};
  auto vi = make<VkPipelineVertexInputStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
  vi.vertexBindingDescriptionCount = 1;
  vi.pVertexBindingDescriptions = &vb;
  vi.vertexAttributeDescriptionCount = 1;
  vi.pVertexAttributeDescriptions = &va;

  auto ia = make<VkPipelineInputAssemblyStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
  ia.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;

  auto rs = make<VkPipelineRasterizationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
  rs.rasterizerDiscardEnable = VK_TRUE;
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  rs.lineWidth = 1.0f;

  auto ci = make<VkGraphicsPipelineCreateInfo>(VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  ci.stageCount = 1;
  ci.pStages = &stage;
  ci.pVertexInputState = &vi;
  ci.pInputAssemblyState = &ia;
  ci.pRasterizationState = &rs;
  ci.layout = layout_;
  ci.renderPass = pass.renderPass();
  ci.subpass = 0;
  ci.flags = captureFlags(ctx, captureIsa);
  check(vkCreateGraphicsPipelines(device_, captureIsa ? VK_NULL_HANDLE : ctx.pipelineCache(), 1,
                                  &ci, nullptr, &pipeline_),
        "vkCreateGraphicsPipelines");
  if (!captureIsa) ctx.keepPipelineCacheEntries();
}

StorageDescriptorSets::StorageDescriptorSets(Context& ctx, const PipelineObjects& pipeline,
                                             uint32_t count)
    : device_(ctx.device()) {
  for (const Binding& b : pipeline.bindings())
    if (b.type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
      throw gcn::Error("StorageDescriptorSets: binding " + std::to_string(b.binding) +
                       " is not a storage buffer");
  const auto perSet = static_cast<uint32_t>(pipeline.bindings().size());
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::max(1u, perSet * count)};
  auto pi = make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  pi.maxSets = count;
  pi.poolSizeCount = 1;
  pi.pPoolSizes = &size;
  check(vkCreateDescriptorPool(device_, &pi, nullptr, &pool_), "vkCreateDescriptorPool");
  std::vector<VkDescriptorSetLayout> layouts(count, pipeline.setLayout());
  sets_.resize(count);
  auto ai = make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  ai.descriptorPool = pool_;
  ai.descriptorSetCount = count;
  ai.pSetLayouts = layouts.data();
  const VkResult r = vkAllocateDescriptorSets(device_, &ai, sets_.data());
  if (r != VK_SUCCESS) {
    vkDestroyDescriptorPool(device_, pool_, nullptr);
    check(r, "vkAllocateDescriptorSets");
  }
}

StorageDescriptorSets::~StorageDescriptorSets() {
  if (pool_ != VK_NULL_HANDLE) vkDestroyDescriptorPool(device_, pool_, nullptr);
}

void StorageDescriptorSets::writeStorageBuffer(uint32_t set, uint32_t binding, VkBuffer buffer) {
  VkDescriptorBufferInfo bi{buffer, 0, VK_WHOLE_SIZE};
  auto w = make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  w.dstSet = sets_.at(set);
  w.dstBinding = binding;
  w.descriptorCount = 1;
  w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  w.pBufferInfo = &bi;
  vkUpdateDescriptorSets(device_, 1, &w, 0, nullptr);
}

void recordVertexToHostBarrier(VkCommandBuffer cmd) {
  auto b = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                       &b, 0, nullptr, 0, nullptr);
}

}  // namespace gcnprobe::vk
