// THE table of VkFormats that can be texel buffers or vertex buffers on GCN, with the V# a
// GCN driver (RADV, Mesa 22.3) builds for them: DATA_FORMAT, NUM_FORMAT, DST_SEL, element
// stride. Sources (cited per function in formats.cpp): Mesa src/amd/vulkan/radv_formats.c
// radv_translate_buffer_dataformat / radv_translate_buffer_numformat, and
// radv_make_texel_buffer_descriptor (radv_device.c / radv_image.c) for DST_SEL.
#pragma once

#include <volk.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "reference/format.h"
#include "reference/gen.h"
#include "reference/resource.h"

namespace gcnprobe::vk {

struct BufferFormat {
  VkFormat vk;
  std::string_view name;  // "VK_FORMAT_R8G8B8A8_UNORM"
  gcn::Dfmt dfmt;         // Invalid when RADV has no buffer data format for it
  gcn::Nfmt nfmt;
  std::array<gcn::DstSel, 4> dstSel;  // from the format's swizzle (BGRA swaps here)
  uint8_t stride;                     // element size in bytes
  bool texel;  // RADV (Mesa 25) offers it as a texel buffer (false: 3-channel 8/16-bit, ...)
  std::string_view note;  // why a row is special ("" otherwise)
  // 3 channels of 8/16 bits (dfmt Invalid): the 1-channel DATA_FORMAT a driver fetches each
  // channel with, one load per channel (RADV does this for such vertex attributes:
  // "one channel per load" in the rows' notes); Invalid for every other row.
  gcn::Dfmt channelDfmt = gcn::Dfmt::Invalid;
  // Vulkan sRGB format: a view read applies the sRGB EOTF to R, G, B (Vulkan spec, Texel
  // Input Operations, "Format Conversion"); no GCN buffer NUM_FORMAT does (CLRX GcnMemHandling
  // codes 0-7).
  bool srgb = false;
};

// VkFormats newer than Debian 12's Vulkan headers (1.3.239), by their registry values
// (VK_KHR_maintenance5, vk.xml): drivers report them, the headers cannot name them.
inline constexpr VkFormat kFormatA1B5G5R5UnormPack16Khr = static_cast<VkFormat>(1000470000);
inline constexpr VkFormat kFormatA8UnormKhr = static_cast<VkFormat>(1000470001);

// Every VkFormat gcnprobe can name: the installed headers' (read from vulkan_core.h at build
// time) plus the newer ones above. The walk that finds formats a device supports for buffers
// that the table has no row for (coverage report, `gcnprobe formats`).
struct NamedVkFormat {
  VkFormat vk;
  std::string_view name;
};
std::span<const NamedVkFormat> allVkFormats();
// "VK_FORMAT_R8_UNORM"; "VkFormat(<n>)" for a value the list lacks.
std::string vkFormatName(VkFormat f);

// Every row, in VkFormat order.
std::span<const BufferFormat> allBufferFormats();
// nullptr when the format is not in the table.
const BufferFormat* findBufferFormat(VkFormat format);

// How a texel-buffer read of the format maps to GCN buffer instructions (the texel suite's
// model, docs/run.md "The texel suite"):
//   SingleLoad: one BUFFER_LOAD_FORMAT_* on the row's V# (dfmt, nfmt, dstSel);
//   PerChannel: 3 channels of 8/16 bits, one BUFFER_LOAD_FORMAT_X per channel on a
//               one-channel V# (channelDfmt), gathered by dstSel;
//   Wide:       R64_UINT/SINT, one 64-bit component in registers X and Y of a 32_32 V#;
//   None:       no GCN model (64-bit channels other than R64_UINT/SINT, no buffer DATA_FORMAT).
// Stores are modelled for SingleLoad rows only.
enum class TexelModel { SingleLoad, PerChannel, Wide, None };
TexelModel texelModel(const BufferFormat& f);
// "single-load", "per-channel", "wide", "none".
std::string_view texelModelName(TexelModel m);
// A PerChannel row's channels (the texel's bytes over channelDfmt's); 0 for other rows.
unsigned perChannelCount(const BufferFormat& f);

// The format's numeric type in a shader (Vulkan "Format Definition": USCALED, SSCALED,
// UNORM, SNORM and FLOAT read as float): 'u' (UINT), 'i' (SINT) or 'f'; it names the shader
// variant's sampled / input type.
char shaderNumericType(const BufferFormat& f);
// Accepts "VK_FORMAT_R8G8B8A8_UNORM" or "r8g8b8a8_unorm" (case-insensitive). Throws
// gcn::Error naming the text when it is not a table format.
const BufferFormat& parseBufferFormat(std::string_view name);

// NUM_RECORDS a driver writes for a texel buffer of `elements` elements of `stride` bytes,
// in the unit gcn::numRecordsInBytes gives for an IDXEN access without SWIZZLE_ENABLE.
uint32_t texelBufferNumRecords(gcn::Gen gen, uint32_t elements, uint32_t stride);
// Whether that NUM_RECORDS counts bytes (else elements).
bool texelNumRecordsInBytes(gcn::Gen gen, uint32_t stride);

// A texel-buffer V# with the given format fields: STRIDE, NUM_RECORDS per
// texelBufferNumRecords, DST_SEL, DATA/NUM_FORMAT, everything else 0.
gcn::VSharp makeBufferVSharp(const gcn::Chip& chip, uint64_t base, uint32_t elements,
                             gcn::Dfmt dfmt, gcn::Nfmt nfmt, std::array<gcn::DstSel, 4> dstSel,
                             uint32_t stride);

// The V# RADV builds for a texel buffer view of `format` at `base` with `elements`
// elements on `chip`: STRIDE = element size, NUM_RECORDS per texelBufferNumRecords,
// DATA/NUM_FORMAT and DST_SEL from the table, everything else 0. Throws gcn::Error when the
// format has no texel-buffer translation.
gcn::VSharp makeTexelBufferVSharp(const gcn::Chip& chip, uint64_t base, uint32_t elements,
                                  VkFormat format);

}  // namespace gcnprobe::vk
