#include "harness/routes/texel.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "harness/formats.h"
#include "harness/routes/storage.h"
#include "harness/vulkan/pipeline.h"
#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::routes {
namespace {

const vk::Binding kBindingsUniform[] = {{0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER},
                                        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
const vk::Binding kBindingsStorage[] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER},
                                        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};

bool isTexelBinding(Binding b) {
  return b == Binding::UniformTexel || b == Binding::StorageTexel;
}

// "r8g8b8a8_unorm" for VK_FORMAT_R8G8B8A8_UNORM: the variant names of shaders/variants.cmake.
std::string lowerFormatName(std::string_view name) {
  if (name.rfind("VK_FORMAT_", 0) == 0) name.remove_prefix(10);
  return gcn::asciiLower(name);
}

// R64_UINT / R64_SINT: one 64-bit component, which only a 64-bit image type reads.
bool wide(const vk::BufferFormat& f) {
  return texelModel(f) == vk::TexelModel::Wide;
}

class TexelRoute final : public Route {
 public:
  explicit TexelRoute(vk::Context& ctx)
      : ctx_(ctx), readWithoutFormat_(ctx.features().shaderStorageImageReadWithoutFormat) {}

  std::string_view name() const override { return "texel"; }

  // Format loads and stores only: atomics on storage texel buffers belong to the atomic route.
  bool handles(const DeviceCase& c) const override {
    return !c.rawVsharp && !c.binaryPatch && !c.ownProgram && isTexelBinding(c.binding) &&
           c.inst.op != nullptr &&
           (c.inst.op->kind == gcn::OpKind::LoadFormat ||
            c.inst.op->kind == gcn::OpKind::StoreFormat);
  }

  std::string unsupportedReason(const DeviceCase& c) const override {
    if (std::string far = farMemoryProblem(c, name()); !far.empty()) return far;
    const gcn::Instruction& in = c.inst;
    if (in.op == nullptr) return "no instruction";
    const bool load = in.op->kind == gcn::OpKind::LoadFormat;
    const bool store = in.op->kind == gcn::OpKind::StoreFormat;
    if (in.op->encoding != gcn::Encoding::Mubuf || (!load && !store) || in.op->d16)
      return "the texel route realises only BUFFER_LOAD_FORMAT_* and BUFFER_STORE_FORMAT_*";
    if (store && c.binding != Binding::StorageTexel) return "stores need a storage texel buffer";
    if (!in.idxen || in.offen || in.addr64 || in.offset != 0 || in.soffset != 128 || in.tfe ||
        in.lds)
      return "a texel buffer access is IDXEN with OFFSET 0 and SOFFSET 0 (no OFFEN, ADDR64, TFE, "
             "LDS)";
    const vk::BufferFormat* f = vk::findBufferFormat(c.format);
    if (f == nullptr) return "format is not in the buffer format table";
    // Formats without a single-load V# (formats.h channelDfmt) arrive as composed view reads
    // (harness/judge/case.h ViewCompose: BUFFER_LOAD_FORMAT_X per channel); other Invalid rows
    // (64-bit channels beyond R64) have no model.
    const vk::TexelModel model = texelModel(*f);
    if (model == vk::TexelModel::None || (model == vk::TexelModel::PerChannel && store))
      return std::string(f->name) + ": no GCN buffer V# reads it" +
             (f->note.empty() ? "" : " (" + std::string(f->note) + ")");
    if (c.viewComponents > 4) return "a view has at most four components";
    // A store of fewer than four components: the shader stores the others as constant zero
    // (texel_store.comp STORE_COMPS), which is this instruction only when the format has no
    // component beyond the ones stored.
    if (store && model == vk::TexelModel::SingleLoad &&
        in.op->components < gcn::dfmtInfo(f->dfmt).components)
      return std::string(f->name) + " has " + std::to_string(gcn::dfmtInfo(f->dfmt).components) +
             " components: imageStore writes all of them, " + std::string(in.op->mnemonic) +
             " fewer";
    const VkFormatProperties props = ctx_.formatProperties(c.format);
    const VkFormatFeatureFlags need = c.binding == Binding::UniformTexel
                                          ? VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT
                                          : VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
    if ((props.bufferFeatures & need) == 0)
      return std::string(f->name) + " lacks " +
             (c.binding == Binding::UniformTexel ? "VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT"
                                                 : "VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT") +
             " on this device";
    // Vulkan: a 64-bit component format needs a 64-bit texel type in the shader (R64ui /
    // R64i, capability Int64ImageEXT of VK_EXT_shader_image_atomic_int64; lavapipe 22.3
    // does not have it), and GLSL has 64-bit image types only (no u64samplerBuffer).
    if (wide(*f)) {
      if (!ctx_.features().shaderImageInt64Atomics)
        return std::string(f->name) +
               ": a 64-bit texel must be read with a 64-bit SampledType "
               "(VUID-vkCmdDispatch-SampledType-04472), which needs Int64ImageEXT, and the "
               "device lacks shaderImageInt64Atomics (VK_EXT_shader_image_atomic_int64)";
      if (c.binding == Binding::UniformTexel)
        return std::string(f->name) +
               ": GLSL has no 64-bit sampler type (GL_EXT_shader_image_int64 adds images only): "
               "read through a storage texel buffer";
      if (!load || in.op->components != 2)
        return std::string(f->name) +
               ": only buffer_load_format_xy (the 64-bit texel as two dwords) is realised";
    }
    // Vulkan encodes a store to an sRGB view (linear -> sRGB); no GCN buffer store does, and
    // the route has no model of the encode's rounding yet.
    if (store && f->srgb)
      return std::string(f->name) +
             ": stores to sRGB views (linear -> sRGB encode) are not modelled";
    // Without shaderStorageImageReadWithoutFormat the image must declare its format, which
    // exists only for the VkFormats of the Vulkan spec's "Compatibility Between SPIR-V
    // Image Formats and Vulkan Formats" table (the formatted variants in variants.cmake).
    if (c.binding == Binding::StorageTexel && load && !readWithoutFormat_ &&
        !hasShaderVariant(texelVariant(c, false)))
      return std::string(f->name) +
             " has no SPIR-V image format (Vulkan spec, \"Compatibility Between SPIR-V Image "
             "Formats and Vulkan Formats\") and the device lacks "
             "shaderStorageImageReadWithoutFormat: no imageLoad reads it";
    if (store && !ctx_.features().shaderStorageImageWriteWithoutFormat)
      return "device lacks shaderStorageImageWriteWithoutFormat (imageStore without format)";
    if (f->stride == 0 || c.memory.bytes.empty() || c.memory.bytes.size() % f->stride != 0)
      return "the buffer is not a whole number of elements";
    if (c.memory.bytes.size() / f->stride > ctx_.limits().maxTexelBufferElements)
      return "view exceeds maxTexelBufferElements";
    return "";
  }

  std::string batchKey(const DeviceCase& c) const override {
    return texelVariant(c, readWithoutFormat_);
  }

  PipelineIsa pipelineIsa(const DeviceCase& c) override {
    const std::string variant = texelVariant(c, readWithoutFormat_);
    if (variant.empty()) throw gcn::Error("not a texel case");
    auto it = isa_.find(variant);
    if (it == isa_.end()) {
      const vk::ComputePipeline& p = pipelineFor(variant, c.binding == Binding::UniformTexel);
      it = isa_.emplace(variant, vk::captureIsa(ctx_, p.pipeline())).first;
    }
    // Texel accesses are IDXEN with OFFSET 0 (unsupportedReason); the texel buffer is binding 0
    // (shaders/texel_load.comp, texel_store.comp), the lane I/O SSBOs bindings 1 and 2.
    PipelineIsa isa = routePipelineShape(name(), c);
    isa.executables = it->second;
    return isa;
  }

  std::vector<DeviceResult> run(std::span<const DeviceCase* const> cases) override {
    if (cases.empty()) return {};
    const DeviceCase& first = *cases.front();
    const bool uniform = first.binding == Binding::UniformTexel;
    // The texel shaders have the lane shaders' bindings (texel view, In, Out) and In layout;
    // a batch shares one variant, so one component count (stores return none).
    return lane::runLaneShader(ctx_, pipelineFor(texelVariant(first, readWithoutFormat_), uniform),
                               cases, first.format, lane::laneShaderWords(first), uniform);
  }

  void releasePipelines() override { pipelines_.clear(); }

 private:
  vk::ComputePipeline& pipelineFor(const std::string& variant, bool uniform) {
    auto it = pipelines_.find(variant);
    if (it != pipelines_.end()) return *it->second;
    const std::span<const uint32_t> spirv = shaderVariant(variant);
    // Capture ISA wherever the device can, so the runner's ISA check (harness/isa) sees
    // which instruction the pipeline really holds.
    auto p = std::make_unique<vk::ComputePipeline>(
        ctx_, spirv,
        uniform ? std::span<const vk::Binding>(kBindingsUniform)
                : std::span<const vk::Binding>(kBindingsStorage),
        0, ctx_.features().pipelineExecutableInfo);
    return *pipelines_.emplace(variant, std::move(p)).first->second;
  }

  vk::Context& ctx_;
  const bool readWithoutFormat_;  // storage loads: imageLoad without format, else formatted
  std::map<std::string, std::unique_ptr<vk::ComputePipeline>> pipelines_;
  std::map<std::string, std::vector<vk::ExecutableIsa>> isa_;  // per variant
};

}  // namespace

std::string texelVariant(const DeviceCase& c, bool readWithoutFormat) {
  if (!isTexelBinding(c.binding) || c.inst.op == nullptr) return "";
  const vk::BufferFormat* f = vk::findBufferFormat(c.format);
  const char t = f != nullptr ? shaderNumericType(*f) : 'f';
  if (c.inst.op->kind == gcn::OpKind::StoreFormat)
    return std::string("texel_store_") + t +
           (c.inst.op->components < 4 ? std::to_string(c.inst.op->components) : "");
  const std::string comps = std::to_string(std::clamp<unsigned>(componentsRead(c), 1, 4));
  // 64-bit texels: always the formatted 64-bit image variant (texel_load.comp WIDE).
  if (c.binding == Binding::StorageTexel && (!readWithoutFormat || (f != nullptr && wide(*f)))) {
    // The format qualifier fixes the sampled type, so the name carries the format.
    if (f == nullptr) return "";
    return "texel_load_formatted_" + lowerFormatName(f->name) + "_" + comps;
  }
  return std::string("texel_load_") +
         (c.binding == Binding::UniformTexel ? "uniform_" : "storage_") + t + comps;
}

std::unique_ptr<Route> makeTexelRoute(vk::Context& ctx) {
  return std::make_unique<TexelRoute>(ctx);
}

}  // namespace gcnprobe::routes
