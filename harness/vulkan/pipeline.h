// Compute pipelines from SPIR-V with one descriptor set, the descriptor set that feeds them,
// a one-shot submit, and ACO's ISA text through VK_KHR_pipeline_executable_properties.
#pragma once

#include <volk.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/vulkan/context.h"

namespace gcnprobe::vk {

// One binding of set 0.
struct Binding {
  uint32_t binding = 0;
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
};

// Shared by the compute and graphics pipelines: a shader module from SPIR-V, and a set-0
// layout with one descriptor per binding visible to `stages`. Both throw gcn::Error.
VkShaderModule createShaderModule(VkDevice device, std::span<const uint32_t> spirv);
// With descriptorBuffer the layout is for VK_EXT_descriptor_buffer
// (VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT).
VkDescriptorSetLayout createSetLayout(VkDevice device, std::span<const Binding> bindings,
                                      VkShaderStageFlags stages, bool descriptorBuffer = false);

// What a compute and a graphics pipeline both own: the shader module, the set-0 layout with
// one descriptor per binding, the pipeline layout and the pipeline, destroyed in reverse order.
class PipelineObjects {
 public:
  PipelineObjects(const PipelineObjects&) = delete;
  PipelineObjects& operator=(const PipelineObjects&) = delete;

  VkPipeline pipeline() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  VkDescriptorSetLayout setLayout() const { return setLayout_; }
  const std::vector<Binding>& bindings() const { return bindings_; }
  // Whether set 0 is read from a descriptor buffer (VK_EXT_descriptor_buffer).
  bool usesDescriptorBuffer() const { return descriptorBuffer_; }

 protected:
  // The module, the set layout (bindings visible to `stages`) and the pipeline layout, with
  // a push-constant range of `pushConstantBytes` for `stages` when it is not 0; the derived
  // class creates pipeline_. Throws gcn::Error, having destroyed what it created.
  PipelineObjects(Context& ctx, std::span<const uint32_t> spirv, std::span<const Binding> bindings,
                  VkShaderStageFlags stages, uint32_t pushConstantBytes,
                  bool descriptorBuffer = false);
  ~PipelineObjects();
  // VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR when captureIsa (so that
  // captureIsa() below returns text); throws gcn::Error when the device cannot capture.
  static VkPipelineCreateFlags captureFlags(Context& ctx, bool captureIsa);
  // captureFlags plus VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT for a descriptor-buffer
  // layout.
  VkPipelineCreateFlags createFlags(Context& ctx, bool captureIsa) const;

  VkDevice device_ = VK_NULL_HANDLE;
  std::vector<Binding> bindings_;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  bool descriptorBuffer_ = false;

 private:
  void destroy();
};

// A compute pipeline with its set-0 layout and pipeline layout. `pushConstantBytes` (0 = none)
// is visible to the compute stage. With captureIsa the pipeline is created with
// VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR (needs
// features().pipelineExecutableInfo) so captureIsa() returns text.
// Specialization constants: `specialization` holds 32-bit values for constant ids 0..n-1.
// With descriptorBuffer the set is read from a descriptor buffer (VK_EXT_descriptor_buffer,
// features().descriptorBuffer): no DescriptorSet, the caller binds the buffer.
class ComputePipeline : public PipelineObjects {
 public:
  ComputePipeline(Context& ctx, std::span<const uint32_t> spirv, std::span<const Binding> bindings,
                  uint32_t pushConstantBytes = 0, bool captureIsa = false,
                  std::span<const uint32_t> specialization = {}, bool descriptorBuffer = false);
  // Whether the driver reported (pipeline creation feedback, Vulkan 1.3) that it took the
  // pipeline from the context's pipeline cache without compiling; false where it cannot say.
  bool fromPipelineCache() const { return fromCache_; }

 private:
  bool fromCache_ = false;
};

// A texel buffer view (uniform or storage texel buffer). Non-copyable, movable.
class BufferView {
 public:
  BufferView(Context& ctx, VkBuffer buffer, VkFormat format, VkDeviceSize offset,
             VkDeviceSize range);
  ~BufferView();
  BufferView(BufferView&& o) noexcept;
  BufferView(const BufferView&) = delete;
  BufferView& operator=(const BufferView&) = delete;
  BufferView& operator=(BufferView&&) = delete;
  VkBufferView view() const { return view_; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkBufferView view_ = VK_NULL_HANDLE;
};

// One descriptor pool holding `count` sets for `pipeline`'s layout (a batch of cases allocates
// its sets at once instead of a pool per case). Bind resources with the write* calls before
// recording. Non-copyable.
class DescriptorSets {
 public:
  DescriptorSets(Context& ctx, const PipelineObjects& pipeline, uint32_t count);
  ~DescriptorSets();
  DescriptorSets(const DescriptorSets&) = delete;
  DescriptorSets& operator=(const DescriptorSets&) = delete;

  uint32_t size() const { return static_cast<uint32_t>(sets_.size()); }
  // Storage or uniform buffer (the type comes from the binding). range may be VK_WHOLE_SIZE.
  void writeBuffer(uint32_t index, uint32_t binding, VkBuffer buffer, VkDeviceSize offset,
                   VkDeviceSize range);
  // Uniform or storage texel buffer (the type comes from the binding).
  void writeTexelBuffer(uint32_t index, uint32_t binding, VkBufferView view);
  // Set `index`; gcn::Error when out of range.
  VkDescriptorSet set(uint32_t index) const;

 private:
  VkDescriptorType typeOf(uint32_t binding) const;
  VkDevice device_ = VK_NULL_HANDLE;
  std::vector<Binding> bindings_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets_;
};

// A single set: DescriptorSets of one.
class DescriptorSet {
 public:
  DescriptorSet(Context& ctx, const PipelineObjects& pipeline) : sets_(ctx, pipeline, 1) {}

  void writeBuffer(uint32_t binding, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range) {
    sets_.writeBuffer(0, binding, buffer, offset, range);
  }
  void writeTexelBuffer(uint32_t binding, VkBufferView view) {
    sets_.writeTexelBuffer(0, binding, view);
  }
  VkDescriptorSet set() const { return sets_.set(0); }

 private:
  DescriptorSets sets_;
};

// Records a command buffer through `record` (between begin and end), submits it on the
// context's queue and waits for it (fence, 10 s timeout -> gcn::Error).
void submitAndWait(Context& ctx, const std::function<void(VkCommandBuffer)>& record);

// Binds pipeline + set and dispatches groupsX x 1 x 1 workgroups; optional push constants.
void recordDispatch(VkCommandBuffer cmd, const PipelineObjects& pipeline, const DescriptorSet& set,
                    uint32_t groupsX, std::span<const uint8_t> pushConstants = {});
void recordDispatch(VkCommandBuffer cmd, const PipelineObjects& pipeline, VkDescriptorSet set,
                    uint32_t groupsX, std::span<const uint8_t> pushConstants = {});

// Full memory barrier (shader writes -> host reads), for use after a dispatch.
void recordHostReadBarrier(VkCommandBuffer cmd);

// ISA capture where VK_KHR_pipeline_executable_properties exists (the pipeline must have
// been created with captureIsa = true). On RADV: `assembly` = the "Assembly"
// representation (empty on gfx6/7 without clrxdisasm, docs/platform.md), `acoIr` = "ACO IR".
// Returns an empty list when the device lacks the extension.
// Executables are told apart by `stages` (the Vulkan shader stages they run), never by
// `name`, whose spelling is the driver's ("Compute Shader" in Mesa 22.3, "compute" in 25).
struct ExecutableIsa {
  std::string name, description;
  std::string assembly;
  std::string acoIr;
  VkShaderStageFlags stages = 0;
  std::string source;  // for errors: driver, version and executable ("radv Mesa 25.0.7 compute")
  // The driver's integer statistics by name, as it reported them (RADV: "SGPRs", "VGPRs").
  std::vector<std::pair<std::string, uint64_t>> statistics;
};
std::vector<ExecutableIsa> captureIsa(Context& ctx, VkPipeline pipeline);
// "compute", "vertex", "vertex+geometry", ... (lower case, '+'-joined; "none" for 0).
std::string stageNames(VkShaderStageFlags stages);
// The inverse: "vertex+fragment" -> the bits; nullopt for an empty text or an unknown name.
std::optional<VkShaderStageFlags> parseStageNames(std::string_view text);

}  // namespace gcnprobe::vk
