// The texel route: BUFFER_LOAD_FORMAT_{X..XYZW} through uniform texel buffers (texelFetch)
// and storage texel buffers (imageLoad without format, GL_EXT_shader_image_load_formatted,
// where the device has shaderStorageImageReadWithoutFormat; else imageLoad on an image
// declared with the view's format, for VkFormats that have a SPIR-V image format),
// BUFFER_STORE_FORMAT_* through imageStore (docs/platform.md: RADV/ACO emits exactly these with
// IDXEN and the V# of the view). One pipeline per shader variant; all cases of a variant
// run as one dispatch each in one command buffer, each case with its own guarded buffer,
// view and descriptor set.
#pragma once

#include <memory>
#include <string>

#include "harness/routes/route.h"
#include "harness/vulkan/context.h"

namespace gcnprobe::routes {

std::unique_ptr<Route> makeTexelRoute(vk::Context& ctx);

// The shader variant (shaders/variants.cmake) that realises a texel case, e.g.
// "texel_load_uniform_f4", "texel_store_u"; "" when the case is not a texel case. Storage
// loads: "texel_load_storage_f4" when `readWithoutFormat` (the device's
// shaderStorageImageReadWithoutFormat), else "texel_load_formatted_r8g8b8a8_unorm_4", a
// name that exists only when the VkFormat has a SPIR-V image format.
std::string texelVariant(const DeviceCase& c, bool readWithoutFormat = true);

}  // namespace gcnprobe::routes
