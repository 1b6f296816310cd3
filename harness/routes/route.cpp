#include "harness/routes/route.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "reference/error.h"
#include "shaders/embedded.h"

namespace gcnprobe::routes {

DataPath laneShaderDataPath(const DeviceCase& c) {
  DataPath p;
  p.in = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 1};
  p.out = BufferSlot{BufferSlot::Kind::DescriptorSet, 0, 2};
  if (c.binding == Binding::StorageBuffer && c.inst.op != nullptr) {
    p.address = DataPath::Address::AlignedInputWords;
    const unsigned bytes = c.inst.op->memBytes;
    p.alignBytes = c.inst.op->kind == gcn::OpKind::Atomic ? bytes : std::min(bytes, 4u);
  }
  return p;
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
