#include "harness/routes/route.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "harness/routes/raw.h"
#include "reference/error.h"
#include "shaders/embedded.h"

namespace gcnprobe::routes {

std::string farMemoryProblem(const DeviceCase& c, std::string_view route) {
  if (c.memory.far.empty()) return "";
  return std::string(route) + " route: the memory has " + std::to_string(c.memory.far.size()) +
         " far region(s); only the raw V# placement (raw, binary and own-program routes) puts "
         "them on a device";
}

DataPath laneShaderDataPath(const DeviceCase& c) {
  DataPath p;
  p.in = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 1};
  p.out = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 2};
  p.lanes = DataPath::Lanes{};
  if (c.binding == Binding::StorageBuffer && c.inst.op != nullptr) {
    p.address = DataPath::Address::AlignedInputWords;
    const unsigned bytes = c.inst.op->memBytes;
    p.alignBytes = c.inst.op->kind == gcn::OpKind::Atomic ? bytes : std::min(bytes, 4u);
  }
  return p;
}

PipelineIsa routePipelineShape(std::string_view route, const DeviceCase& c, std::string_view chip) {
  // The lane shaders' V# is binding 0 of set 0 (shaders/texel_*.comp, storage_access.comp,
  // atomic_*.comp); bindings 1 and 2 are the lane I/O. Texel accesses are IDXEN with OFFSET 0
  // and every route puts the case's OFFSET into the instruction, so the check compares it.
  const BufferSlot binding0{BufferSlot::Kind::DescriptorSet, 0, 0};
  if (route == "texel" || route == "storage" || route == "atomic")
    return {{}, true, binding0, laneShaderDataPath(c), kDriverVSharpSource, std::nullopt};
  if (route == "raw") {  // the V# is read from the descriptor buffer at binding 0's offset
    DataPath path = laneShaderDataPath(c);
    path.guardedCaseStores = rawSoffsetForm(c.inst);
    return {{},
            true,
            binding0,
            path,
            "proven: written by gcnprobe into the descriptor buffer (raw V# route)",
            std::nullopt};
  }
  if (route == "program") {
    // gcnprobe's own program (harness/control/lane_program.h): the lane-shader layout, VADDR the
    // lane's In word unchanged, VDATA its In data words, the returned registers to Out.
    DataPath path;
    path.in = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 1};
    path.out = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 2};
    path.address = DataPath::Address::InputWords;
    path.lanes = DataPath::Lanes{};
    return {{},
            true,
            binding0,
            path,
            c.rawVsharp ? "proven: written by gcnprobe into the descriptor buffer (own program)"
                        : kDriverVSharpSource,
            std::nullopt};
  }
  if (route == "vertex") {
    // The case's buffer is vertex buffer binding 0 (vkCmdBindVertexBuffers(cmd, 0, 1, ...));
    // In (idx, enabled) is set 0 binding 0, Out binding 1 (shaders/vertex_fetch.vert). The
    // fetch index is gl_VertexIndex: RADV's vertex id VGPR (v0) plus the base vertex SGPR.
    DataPath path;
    path.in = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 0};
    path.out = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 1};
    path.address = DataPath::Address::VertexIndex;
    path.vertexIdVgpr = 0;
    // RADV compiles RDNA vertex shaders as NGG except on navi14 (use_ngg in
    // radv_physical_device.c excludes CHIP_NAVI14; seen in its null-device listings: the
    // vertex buffers in s2, the base vertex in s3, the vertex id in v0, as on GCN).
    path.legacyVertexShader = chip == "navi14";
    return {{},
            true,
            BufferSlot{BufferSlot::Kind::VertexBuffer, 0, 0},
            path,
            "assumed: the driver's vertex buffer descriptor, built at draw time from the format "
            "table's fields; nothing checks it",
            std::nullopt};
  }
  throw gcn::Error("no route '" + std::string(route) +
                   "' (texel, storage, atomic, raw and vertex describe their pipelines)");
}

std::string_view bindingName(Binding b) {
  switch (b) {
    case Binding::UniformTexel:
      return "uniform-texel";
    case Binding::StorageTexel:
      return "storage-texel";
    case Binding::VertexAttribute:
      return "vertex";
    case Binding::StorageBuffer:
      return "storage-buffer";
  }
  return "?";
}

unsigned componentsRead(const DeviceCase& c) {
  if (c.viewComponents != 0) return c.viewComponents;
  return c.inst.op != nullptr ? c.inst.op->components : 0;
}

bool hasShaderVariant(std::string_view variant) {
  const auto all = shaders::all();
  return std::any_of(all.begin(), all.end(),
                     [&](const shaders::Variant& v) { return v.name == variant; });
}

std::span<const uint32_t> shaderVariant(std::string_view variant) {
  try {
    return shaders::get(variant);
  } catch (const std::out_of_range& e) {
    throw gcn::Error(e.what());
  }
}

}  // namespace gcnprobe::routes
