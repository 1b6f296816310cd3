// The format table checked against the driver itself: on a GCN device whose driver has
// VK_EXT_descriptor_buffer (RADV since Mesa 23, also on its null device), the descriptor of a
// uniform or storage texel buffer is the V#, and vkGetDescriptorEXT returns its words without
// any memory. Decoding them with the reference's V# layout and comparing with the V# the table
// predicts (makeTexelBufferVSharp) checks every DATA_FORMAT, NUM_FORMAT, DST_SEL, STRIDE and
// NUM_RECORDS of the table on that chip, field by field: the strongest check of the table
// that exists without hardware. The storage-buffer descriptor is checked the same way against
// makeStorageBufferVSharp (the raw V# route writes V#s into SSBO slots too). The descriptors
// describe a buffer of the harness's own where the device has memory (Vulkan requires a real
// address), a made-up address on the null device. `gcnprobe formats --self-check` prints it.
#pragma once

#include <volk.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/vulkan/context.h"

namespace gcnprobe::routes {

struct VSharpCheck {
  std::string format;                    // "VK_FORMAT_R8G8B8A8_UNORM", "(raw buffer)" for the SSBO
  std::string binding;                   // "uniform-texel" / "storage-texel" / "storage-buffer"
  std::array<uint32_t, 4> driver{};      // the driver's descriptor words
  std::array<uint32_t, 4> predicted{};   // the table's V#, encoded
  std::vector<std::string> differences;  // "dst_sel_x: driver 4 (x), table 5 (y)"; empty = agrees
};

// The storage-buffer descriptor, then one entry per table format with a V# and per texel
// binding the device supports it for.
// Throws gcn::Error naming the reason when the check cannot run: not a GCN or RDNA device, no
// VK_EXT_descriptor_buffer enabled (open the context with descriptorBuffer = true), or a
// descriptor size other than 16 bytes (the descriptor is then not a bare V#).
std::vector<VSharpCheck> checkDriverVSharps(vk::Context& ctx);

// The chip whose V# layout the check reads: the GCN chip of the device, or the RDNA chip RADV
// names (the reference models the RDNA V# and formats too, docs/rdna.md). Throws gcn::Error
// naming the device when it is neither.
gcn::Chip selfCheckChip(const vk::DeviceInfo& info);

// Field-by-field differences of two V#s on `gen` (vsharpFields(); bits outside every field
// of the generation are reported as "reserved bits").
std::vector<std::string> vsharpDifferences(gcn::Gen gen, const std::array<uint32_t, 4>& driver,
                                           const std::array<uint32_t, 4>& predicted);

}  // namespace gcnprobe::routes
