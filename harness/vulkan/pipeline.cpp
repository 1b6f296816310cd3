#include "harness/vulkan/pipeline.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>

#include "reference/error.h"

namespace gcnprobe::vk {

VkShaderModule createShaderModule(VkDevice device, std::span<const uint32_t> spirv) {
  auto mi = make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  mi.codeSize = spirv.size_bytes();
  mi.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  check(vkCreateShaderModule(device, &mi, nullptr, &module), "vkCreateShaderModule");
  return module;
}

VkDescriptorSetLayout createSetLayout(VkDevice device, std::span<const Binding> bindings,
                                      VkShaderStageFlags stages, bool descriptorBuffer) {
  std::vector<VkDescriptorSetLayoutBinding> lb;
  for (const Binding& b : bindings) {
    VkDescriptorSetLayoutBinding x{};
    x.binding = b.binding;
    x.descriptorType = b.type;
    x.descriptorCount = 1;
    x.stageFlags = stages;
    lb.push_back(x);
  }
  auto li =
      make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  if (descriptorBuffer) li.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT;
  li.bindingCount = static_cast<uint32_t>(lb.size());
  li.pBindings = lb.data();
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  check(vkCreateDescriptorSetLayout(device, &li, nullptr, &layout), "vkCreateDescriptorSetLayout");
  return layout;
}

PipelineObjects::PipelineObjects(Context& ctx, std::span<const uint32_t> spirv,
                                 std::span<const Binding> bindings, VkShaderStageFlags stages,
                                 uint32_t pushConstantBytes, bool descriptorBuffer)
    : device_(ctx.device()),
      bindings_(bindings.begin(), bindings.end()),
      descriptorBuffer_(descriptorBuffer) {
  try {
    if (descriptorBuffer && !ctx.features().descriptorBuffer)
      throw gcn::Error(ctx.info().name + ": VK_EXT_descriptor_buffer is not enabled");
    module_ = createShaderModule(device_, spirv);
    setLayout_ = createSetLayout(device_, bindings_, stages, descriptorBuffer);
    VkPushConstantRange pcr{stages, 0, pushConstantBytes};
    auto pli = make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &setLayout_;
    pli.pushConstantRangeCount = pushConstantBytes > 0 ? 1 : 0;
    pli.pPushConstantRanges = &pcr;
    check(vkCreatePipelineLayout(device_, &pli, nullptr, &layout_), "vkCreatePipelineLayout");
  } catch (...) {
    destroy();  // a constructor that throws gets no destructor call
    throw;
  }
}

PipelineObjects::~PipelineObjects() {
  destroy();
}

void PipelineObjects::destroy() {
  if (pipeline_ != VK_NULL_HANDLE) vkDestroyPipeline(device_, pipeline_, nullptr);
  if (layout_ != VK_NULL_HANDLE) vkDestroyPipelineLayout(device_, layout_, nullptr);
  if (setLayout_ != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device_, setLayout_, nullptr);
  if (module_ != VK_NULL_HANDLE) vkDestroyShaderModule(device_, module_, nullptr);
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
  setLayout_ = VK_NULL_HANDLE;
  module_ = VK_NULL_HANDLE;
}

VkPipelineCreateFlags PipelineObjects::captureFlags(Context& ctx, bool captureIsa) {
  if (!captureIsa) return 0;
  if (!ctx.features().pipelineExecutableInfo)
    throw gcn::Error(ctx.info().name +
                     " has no VK_KHR_pipeline_executable_properties: no ISA to capture");
  return VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR;
}

VkPipelineCreateFlags PipelineObjects::createFlags(Context& ctx, bool captureIsa) const {
  return captureFlags(ctx, captureIsa) |
         (descriptorBuffer_ ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0);
}

// A derived constructor that throws leaves the base destructor to destroy what was created.
ComputePipeline::ComputePipeline(Context& ctx, std::span<const uint32_t> spirv,
                                 std::span<const Binding> bindings, uint32_t pushConstantBytes,
                                 bool captureIsa, std::span<const uint32_t> specialization,
                                 bool descriptorBuffer)
    : PipelineObjects(ctx, spirv, bindings, VK_SHADER_STAGE_COMPUTE_BIT, pushConstantBytes,
                      descriptorBuffer) {
  std::vector<VkSpecializationMapEntry> entries;
  for (uint32_t i = 0; i < specialization.size(); ++i) {
    entries.push_back({i, i * 4, 4});
  }
  VkSpecializationInfo si{};
  si.mapEntryCount = static_cast<uint32_t>(entries.size());
  si.pMapEntries = entries.data();
  si.dataSize = specialization.size_bytes();
  si.pData = specialization.data();

  auto ci = make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = module_;
  ci.stage.pName = "main";
  ci.stage.pSpecializationInfo = specialization.empty() ? nullptr : &si;
  ci.layout = layout_;
  ci.flags = createFlags(ctx, captureIsa);
  const VkPipelineCache cache = captureIsa ? VK_NULL_HANDLE : ctx.pipelineCache();
  VkPipelineCreationFeedback feedback{};
  auto fci = make<VkPipelineCreationFeedbackCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO);
  fci.pPipelineCreationFeedback = &feedback;
  if (cache != VK_NULL_HANDLE && ctx.apiVersion() >= VK_API_VERSION_1_3) ci.pNext = &fci;
  check(vkCreateComputePipelines(device_, cache, 1, &ci, nullptr, &pipeline_),
        "vkCreateComputePipelines");
  if (cache != VK_NULL_HANDLE) ctx.keepPipelineCacheEntries();
  fromCache_ =
      (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) != 0 &&
      (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT) != 0;
}

BufferView::BufferView(Context& ctx, VkBuffer buffer, VkFormat format, VkDeviceSize offset,
                       VkDeviceSize range)
    : device_(ctx.device()) {
  auto ci = make<VkBufferViewCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO);
  ci.buffer = buffer;
  ci.format = format;
  ci.offset = offset;
  ci.range = range;
  check(vkCreateBufferView(device_, &ci, nullptr, &view_), "vkCreateBufferView");
}

BufferView::~BufferView() {
  if (view_ != VK_NULL_HANDLE) vkDestroyBufferView(device_, view_, nullptr);
}

BufferView::BufferView(BufferView&& o) noexcept
    : device_(o.device_), view_(std::exchange(o.view_, VK_NULL_HANDLE)) {}

DescriptorSets::DescriptorSets(Context& ctx, const PipelineObjects& pipeline, uint32_t count)
    : device_(ctx.device()), bindings_(pipeline.bindings()) {
  if (count == 0) throw gcn::Error("a descriptor pool needs at least one set");
  // Everything that may throw comes before the pool, which only the destructor frees.
  const std::vector<VkDescriptorSetLayout> layouts(count, pipeline.setLayout());
  sets_.assign(count, VK_NULL_HANDLE);
  std::map<VkDescriptorType, uint32_t> counts;
  for (const Binding& b : bindings_)
    counts[b.type] += count;
  std::vector<VkDescriptorPoolSize> sizes;
  for (auto [type, n] : counts)
    sizes.push_back({type, n});
  if (sizes.empty()) sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1});
  auto pi = make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  pi.maxSets = count;
  pi.poolSizeCount = static_cast<uint32_t>(sizes.size());
  pi.pPoolSizes = sizes.data();
  check(vkCreateDescriptorPool(device_, &pi, nullptr, &pool_), "vkCreateDescriptorPool");
  auto ai = make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  ai.descriptorPool = pool_;
  ai.descriptorSetCount = count;
  ai.pSetLayouts = layouts.data();
  VkResult r = vkAllocateDescriptorSets(device_, &ai, sets_.data());
  if (r != VK_SUCCESS) {
    vkDestroyDescriptorPool(device_, pool_, nullptr);
    check(r, "vkAllocateDescriptorSets");
  }
}

DescriptorSets::~DescriptorSets() {
  if (pool_ != VK_NULL_HANDLE) vkDestroyDescriptorPool(device_, pool_, nullptr);
}

VkDescriptorSet DescriptorSets::set(uint32_t index) const {
  if (index >= sets_.size())
    throw gcn::Error("descriptor set " + std::to_string(index) + " of " +
                     std::to_string(sets_.size()));
  return sets_[index];
}

VkDescriptorType DescriptorSets::typeOf(uint32_t binding) const {
  for (const Binding& b : bindings_) {
    if (b.binding == binding) return b.type;
  }
  throw gcn::Error("descriptor binding " + std::to_string(binding) +
                   " is not in the pipeline's set layout");
}

void DescriptorSets::writeBuffer(uint32_t index, uint32_t binding, VkBuffer buffer,
                                 VkDeviceSize offset, VkDeviceSize range) {
  VkDescriptorBufferInfo bi{buffer, offset, range};
  auto w = make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  w.dstSet = set(index);
  w.dstBinding = binding;
  w.descriptorCount = 1;
  w.descriptorType = typeOf(binding);
  w.pBufferInfo = &bi;
  vkUpdateDescriptorSets(device_, 1, &w, 0, nullptr);
}

void DescriptorSets::writeTexelBuffer(uint32_t index, uint32_t binding, VkBufferView view) {
  auto w = make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  w.dstSet = set(index);
  w.dstBinding = binding;
  w.descriptorCount = 1;
  w.descriptorType = typeOf(binding);
  w.pTexelBufferView = &view;
  vkUpdateDescriptorSets(device_, 1, &w, 0, nullptr);
}

void submitAndWait(Context& ctx, const std::function<void(VkCommandBuffer)>& record) {
  VkDevice dev = ctx.device();
  auto pi = make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pi.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pi.queueFamilyIndex = ctx.queueFamily();
  VkCommandPool pool = VK_NULL_HANDLE;
  check(vkCreateCommandPool(dev, &pi, nullptr, &pool), "vkCreateCommandPool");
  VkFence fence = VK_NULL_HANDLE;
  auto cleanup = [&] {
    if (fence != VK_NULL_HANDLE) vkDestroyFence(dev, fence, nullptr);
    vkDestroyCommandPool(dev, pool, nullptr);
  };
  try {
    auto ai = make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    ai.commandPool = pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    check(vkAllocateCommandBuffers(dev, &ai, &cmd), "vkAllocateCommandBuffers");
    auto bi = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
    record(cmd);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    auto fi = make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    check(vkCreateFence(dev, &fi, nullptr, &fence), "vkCreateFence");
    auto si = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    check(vkQueueSubmit(ctx.queue(), 1, &si, fence), "vkQueueSubmit");
    VkResult r = vkWaitForFences(dev, 1, &fence, VK_TRUE, 10'000'000'000ull);
    if (r == VK_TIMEOUT) {
      vkDeviceWaitIdle(dev);
      throw gcn::Error("the GPU did not finish within 10 s on " + ctx.info().name);
    }
    check(r, "vkWaitForFences");
  } catch (...) {
    cleanup();
    throw;
  }
  cleanup();
}

void recordDispatch(VkCommandBuffer cmd, const PipelineObjects& pipeline, const DescriptorSet& set,
                    uint32_t groupsX, std::span<const uint8_t> pushConstants) {
  recordDispatch(cmd, pipeline, set.set(), groupsX, pushConstants);
}

void recordDispatch(VkCommandBuffer cmd, const PipelineObjects& pipeline, VkDescriptorSet s,
                    uint32_t groupsX, std::span<const uint8_t> pushConstants) {
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline());
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, 1, &s, 0,
                          nullptr);
  if (!pushConstants.empty()) {
    vkCmdPushConstants(cmd, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       static_cast<uint32_t>(pushConstants.size()), pushConstants.data());
  }
  vkCmdDispatch(cmd, groupsX, 1, 1);
}

void recordHostReadBarrier(VkCommandBuffer cmd) {
  auto b = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &b, 0, nullptr, 0, nullptr);
}

namespace {
constexpr std::pair<VkShaderStageFlagBits, std::string_view> kStageNames[] = {
    {VK_SHADER_STAGE_VERTEX_BIT, "vertex"},
    {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, "tess-control"},
    {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, "tess-eval"},
    {VK_SHADER_STAGE_GEOMETRY_BIT, "geometry"},
    {VK_SHADER_STAGE_FRAGMENT_BIT, "fragment"},
    {VK_SHADER_STAGE_COMPUTE_BIT, "compute"}};
}  // namespace

std::string stageNames(VkShaderStageFlags stages) {
  std::string out;
  for (const auto& [bit, name] : kStageNames)
    if (stages & bit) out.append(out.empty() ? "" : "+").append(name);
  return out.empty() ? "none" : out;
}

std::optional<VkShaderStageFlags> parseStageNames(std::string_view text) {
  VkShaderStageFlags stages = 0;
  while (!text.empty()) {
    const std::size_t plus = text.find('+');
    const std::string_view name = text.substr(0, plus);
    text = plus == std::string_view::npos ? std::string_view{} : text.substr(plus + 1);
    const auto* it = std::find_if(std::begin(kStageNames), std::end(kStageNames),
                                  [&](const auto& n) { return n.second == name; });
    if (it == std::end(kStageNames)) return std::nullopt;
    stages |= it->first;
  }
  if (stages == 0) return std::nullopt;
  return stages;
}

std::vector<ExecutableIsa> captureIsa(Context& ctx, VkPipeline pipeline) {
  std::vector<ExecutableIsa> out;
  if (!ctx.features().pipelineExecutableInfo) return out;
  VkDevice dev = ctx.device();
  auto pi = make<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
  pi.pipeline = pipeline;
  uint32_t n = 0;
  check(vkGetPipelineExecutablePropertiesKHR(dev, &pi, &n, nullptr),
        "vkGetPipelineExecutablePropertiesKHR");
  std::vector<VkPipelineExecutablePropertiesKHR> props(
      n, make<VkPipelineExecutablePropertiesKHR>(
             VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR));
  check(vkGetPipelineExecutablePropertiesKHR(dev, &pi, &n, props.data()),
        "vkGetPipelineExecutablePropertiesKHR");
  for (uint32_t e = 0; e < n; ++e) {
    ExecutableIsa isa;
    isa.name = props[e].name;
    isa.description = props[e].description;
    isa.stages = props[e].stages;
    isa.source = ctx.info().driverName + " " + ctx.info().driverInfo + " (" + isa.name + ")";
    auto ei = make<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
    ei.pipeline = pipeline;
    ei.executableIndex = e;
    uint32_t nr = 0;
    check(vkGetPipelineExecutableInternalRepresentationsKHR(dev, &ei, &nr, nullptr),
          "vkGetPipelineExecutableInternalRepresentationsKHR");
    std::vector<VkPipelineExecutableInternalRepresentationKHR> reps(
        nr, make<VkPipelineExecutableInternalRepresentationKHR>(
                VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR));
    check(vkGetPipelineExecutableInternalRepresentationsKHR(dev, &ei, &nr, reps.data()),
          "vkGetPipelineExecutableInternalRepresentationsKHR");
    // Two-call idiom for the texts: sizes first, then the data.
    std::vector<std::string> texts(nr);
    for (uint32_t r = 0; r < nr; ++r) {
      texts[r].resize(reps[r].dataSize);
      reps[r].pData = texts[r].data();
    }
    check(vkGetPipelineExecutableInternalRepresentationsKHR(dev, &ei, &nr, reps.data()),
          "vkGetPipelineExecutableInternalRepresentationsKHR");
    for (uint32_t r = 0; r < nr; ++r) {
      std::string text = texts[r].substr(0, reps[r].dataSize);
      while (!text.empty() && text.back() == '\0')
        text.pop_back();
      std::string_view repName = reps[r].name;
      // RADV (radv_pipeline.c, radv_GetPipelineExecutableInternalRepresentationsKHR) names
      // them "ACO IR" / "LLVM IR" / "Assembly" (docs/platform.md).
      if (repName == "Assembly") isa.assembly = text;
      if (repName == "ACO IR") isa.acoIr = text;
    }
    // The driver's statistics (RADV: "SGPRs", "VGPRs", "Code size", ...), integers only.
    uint32_t ns = 0;
    check(vkGetPipelineExecutableStatisticsKHR(dev, &ei, &ns, nullptr),
          "vkGetPipelineExecutableStatisticsKHR");
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        ns, make<VkPipelineExecutableStatisticKHR>(
                VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
    check(vkGetPipelineExecutableStatisticsKHR(dev, &ei, &ns, stats.data()),
          "vkGetPipelineExecutableStatisticsKHR");
    for (uint32_t k = 0; k < ns && k < stats.size(); ++k) {
      const VkPipelineExecutableStatisticKHR& st = stats[k];
      if (st.format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR)
        isa.statistics.emplace_back(st.name, st.value.u64);
      else if (st.format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR && st.value.i64 >= 0)
        isa.statistics.emplace_back(st.name, static_cast<uint64_t>(st.value.i64));
    }
    out.push_back(std::move(isa));
  }
  return out;
}

}  // namespace gcnprobe::vk
