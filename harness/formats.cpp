#include "harness/formats.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "reference/address.h"
#include "reference/error.h"

namespace gcnprobe::vk {
namespace {

using gcn::Dfmt;
using gcn::DstSel;
using gcn::Nfmt;

// DST_SEL = radv_map_swizzle(swizzle) where swizzle is the util format's swizzle
// (radv_compose_swizzle(desc, NULL, ...) in radv_make_texel_buffer_descriptor, Mesa
// src/amd/vulkan/radv_image.c / radv_buffer_view.c): channels the format lacks read 0, alpha
// reads 1; BGR(A) formats are described in memory order and swapped back here.
constexpr std::array<DstSel, 4> kX001{DstSel::X, DstSel::Zero, DstSel::Zero, DstSel::One};
constexpr std::array<DstSel, 4> kXY01{DstSel::X, DstSel::Y, DstSel::Zero, DstSel::One};
constexpr std::array<DstSel, 4> kXYZ1{DstSel::X, DstSel::Y, DstSel::Z, DstSel::One};
constexpr std::array<DstSel, 4> kXYZW{DstSel::X, DstSel::Y, DstSel::Z, DstSel::W};
constexpr std::array<DstSel, 4> kZYX1{DstSel::Z, DstSel::Y, DstSel::X, DstSel::One};
constexpr std::array<DstSel, 4> kZYXW{DstSel::Z, DstSel::Y, DstSel::X, DstSel::W};
// R64_UINT/SINT: radv_compose_swizzle's special case ("zw components are 1,0").
constexpr std::array<DstSel, 4> kXY10{DstSel::X, DstSel::Y, DstSel::One, DstSel::Zero};
constexpr std::array<DstSel, 4> k000X{DstSel::Zero, DstSel::Zero, DstSel::Zero, DstSel::X};

// DATA_FORMAT per radv_translate_buffer_dataformat (Mesa 22.3 src/amd/vulkan/radv_formats.c):
// equal channel sizes of 8/16/32 bits with 1, 2 or 4 channels (32 bits also 3); 10-10-10-2
// -> 2_10_10_10 (CLRX GcnMemHandling code 9, docs/gcn-facts.md); R11G11B10_FLOAT -> 10_11_11;
// 1-channel 64-bit integers -> 32_32; everything else (3 channels of 8/16 bits, other 64-bit)
// INVALID. NUM_FORMAT per radv_translate_buffer_numformat: the first channel's type (normalized ->
// UNORM/SNORM, pure integer -> UINT/SINT, else USCALED/SSCALED, float -> FLOAT); sRGB is
// unsigned normalized there, so UNORM. `texel` is what RADV 22.3 reports in bufferFeatures
// (uniform or storage texel), checked against the RADV null device in formats_test.cpp.
#define ROW(fmt, dfmt, nfmt, sel, stride, texel, note)                                    \
  {                                                                                       \
    VK_FORMAT_##fmt, "VK_FORMAT_" #fmt, Dfmt::dfmt, Nfmt::nfmt, sel, stride, texel, note, \
        Dfmt::Invalid, std::string_view(#fmt).find("SRGB") != std::string_view::npos      \
  }
// 3 channels of 8/16 bits: no DATA_FORMAT; `chan` is the 1-channel DATA_FORMAT per load.
#define ROW3(fmt, chan, nfmt, sel, stride)                                                    \
  {                                                                                           \
    VK_FORMAT_##fmt, "VK_FORMAT_" #fmt, Dfmt::Invalid, Nfmt::nfmt, sel, stride, false,        \
        "3 channels of 8/16 bits: no buffer data format on GCN; RADV fetches it as a vertex " \
        "attribute only, one channel per load",                                               \
        Dfmt::chan, std::string_view(#fmt).find("SRGB") != std::string_view::npos             \
  }
// 16-bit channels whose low bits are padding (R10X6, R12X4): RADV's V# is the plain 16-bit
// UNORM one, which reads the padding bits as value bits. lavapipe reads them the same way.
#define PADDED(fmt, dfmt, sel, stride)                                                        \
  ROW(fmt, dfmt, Unorm, sel, stride, true,                                                    \
      "X-padded: read as UNORM16 with the padding bits as value bits (RADV's V#; lavapipe "   \
      "does the same); whether Vulkan's 10/12-bit component should read as top-bits/1023 is " \
      "open")
constexpr BufferFormat kFormats[] = {
    ROW(R8_UNORM, F8, Unorm, kX001, 1, true, ""),
    ROW(R8_SNORM, F8, Snorm, kX001, 1, true, ""),
    ROW(R8_USCALED, F8, Uscaled, kX001, 1, true, ""),
    ROW(R8_SSCALED, F8, Sscaled, kX001, 1, true, ""),
    ROW(R8_UINT, F8, Uint, kX001, 1, true, ""),
    ROW(R8_SINT, F8, Sint, kX001, 1, true, ""),
    ROW(R8_SRGB, F8, Unorm, kX001, 1, true,
        "sRGB: the buffer path does no sRGB decode; RADV offers it as storage texel only"),
    ROW(R8G8_UNORM, F8_8, Unorm, kXY01, 2, true, ""),
    ROW(R8G8_SNORM, F8_8, Snorm, kXY01, 2, true, ""),
    ROW(R8G8_USCALED, F8_8, Uscaled, kXY01, 2, true, ""),
    ROW(R8G8_SSCALED, F8_8, Sscaled, kXY01, 2, true, ""),
    ROW(R8G8_UINT, F8_8, Uint, kXY01, 2, true, ""),
    ROW(R8G8_SINT, F8_8, Sint, kXY01, 2, true, ""),
    ROW(R8G8_SRGB, F8_8, Unorm, kXY01, 2, true,
        "sRGB: the buffer path does no sRGB decode; RADV offers it as storage texel only"),
    ROW3(R8G8B8_UNORM, F8, Unorm, kXYZ1, 3),
    ROW3(R8G8B8_SNORM, F8, Snorm, kXYZ1, 3),
    ROW3(R8G8B8_USCALED, F8, Uscaled, kXYZ1, 3),
    ROW3(R8G8B8_SSCALED, F8, Sscaled, kXYZ1, 3),
    ROW3(R8G8B8_UINT, F8, Uint, kXYZ1, 3),
    ROW3(R8G8B8_SINT, F8, Sint, kXYZ1, 3),
    ROW3(R8G8B8_SRGB, F8, Unorm, kXYZ1, 3),
    ROW3(B8G8R8_UNORM, F8, Unorm, kZYX1, 3),
    ROW3(B8G8R8_SNORM, F8, Snorm, kZYX1, 3),
    ROW3(B8G8R8_USCALED, F8, Uscaled, kZYX1, 3),
    ROW3(B8G8R8_SSCALED, F8, Sscaled, kZYX1, 3),
    ROW3(B8G8R8_UINT, F8, Uint, kZYX1, 3),
    ROW3(B8G8R8_SINT, F8, Sint, kZYX1, 3),
    ROW3(B8G8R8_SRGB, F8, Unorm, kZYX1, 3),
    ROW(R8G8B8A8_UNORM, F8_8_8_8, Unorm, kXYZW, 4, true, ""),
    ROW(R8G8B8A8_SNORM, F8_8_8_8, Snorm, kXYZW, 4, true, ""),
    ROW(R8G8B8A8_USCALED, F8_8_8_8, Uscaled, kXYZW, 4, true, ""),
    ROW(R8G8B8A8_SSCALED, F8_8_8_8, Sscaled, kXYZW, 4, true, ""),
    ROW(R8G8B8A8_UINT, F8_8_8_8, Uint, kXYZW, 4, true, ""),
    ROW(R8G8B8A8_SINT, F8_8_8_8, Sint, kXYZW, 4, true, ""),
    ROW(R8G8B8A8_SRGB, F8_8_8_8, Unorm, kXYZW, 4, true,
        "sRGB: the buffer path does no sRGB decode; RADV offers it as storage texel only"),
    ROW(B8G8R8A8_UNORM, F8_8_8_8, Unorm, kZYXW, 4, true,
        "BGRA: memory order B,G,R,A; RADV swaps through DST_SEL"),
    ROW(B8G8R8A8_SNORM, F8_8_8_8, Snorm, kZYXW, 4, true,
        "BGRA: memory order B,G,R,A; RADV swaps through DST_SEL"),
    ROW(B8G8R8A8_USCALED, F8_8_8_8, Uscaled, kZYXW, 4, true,
        "BGRA: memory order B,G,R,A; RADV swaps through DST_SEL"),
    ROW(B8G8R8A8_SSCALED, F8_8_8_8, Sscaled, kZYXW, 4, true,
        "BGRA: memory order B,G,R,A; RADV swaps through DST_SEL"),
    ROW(B8G8R8A8_UINT, F8_8_8_8, Uint, kZYXW, 4, true,
        "BGRA: memory order B,G,R,A; RADV swaps through DST_SEL"),
    ROW(B8G8R8A8_SINT, F8_8_8_8, Sint, kZYXW, 4, true,
        "BGRA: memory order B,G,R,A; RADV swaps through DST_SEL"),
    ROW(B8G8R8A8_SRGB, F8_8_8_8, Unorm, kZYXW, 4, true,
        "sRGB: the buffer path does no sRGB decode; RADV offers it as storage texel only"),
    ROW(A8B8G8R8_UNORM_PACK32, F8_8_8_8, Unorm, kXYZW, 4, true, ""),
    ROW(A8B8G8R8_SNORM_PACK32, F8_8_8_8, Snorm, kXYZW, 4, true, ""),
    ROW(A8B8G8R8_USCALED_PACK32, F8_8_8_8, Uscaled, kXYZW, 4, true, ""),
    ROW(A8B8G8R8_SSCALED_PACK32, F8_8_8_8, Sscaled, kXYZW, 4, true, ""),
    ROW(A8B8G8R8_UINT_PACK32, F8_8_8_8, Uint, kXYZW, 4, true, ""),
    ROW(A8B8G8R8_SINT_PACK32, F8_8_8_8, Sint, kXYZW, 4, true, ""),
    ROW(A8B8G8R8_SRGB_PACK32, F8_8_8_8, Unorm, kXYZW, 4, true,
        "sRGB: the buffer path does no sRGB decode; RADV offers it as storage texel only"),
    ROW(A2R10G10B10_UNORM_PACK32, F2_10_10_10, Unorm, kZYXW, 4, true,
        "BGRA order in the dword: swapped through DST_SEL"),
    ROW(A2R10G10B10_SNORM_PACK32, F2_10_10_10, Snorm, kZYXW, 4, false,
        "RADV removes the texel-buffer features of signed 2_10_10_10 "
        "(radv_physical_device_get_format_properties); vertex only"),
    ROW(A2R10G10B10_USCALED_PACK32, F2_10_10_10, Uscaled, kZYXW, 4, true,
        "BGRA order in the dword: swapped through DST_SEL"),
    ROW(A2R10G10B10_SSCALED_PACK32, F2_10_10_10, Sscaled, kZYXW, 4, false,
        "RADV removes the texel-buffer features of signed 2_10_10_10 "
        "(radv_physical_device_get_format_properties); vertex only"),
    ROW(A2R10G10B10_UINT_PACK32, F2_10_10_10, Uint, kZYXW, 4, true,
        "BGRA order in the dword: swapped through DST_SEL"),
    ROW(A2R10G10B10_SINT_PACK32, F2_10_10_10, Sint, kZYXW, 4, false,
        "RADV removes the texel-buffer features of signed 2_10_10_10 "
        "(radv_physical_device_get_format_properties); vertex only"),
    ROW(A2B10G10R10_UNORM_PACK32, F2_10_10_10, Unorm, kXYZW, 4, true, ""),
    ROW(A2B10G10R10_SNORM_PACK32, F2_10_10_10, Snorm, kXYZW, 4, false,
        "RADV removes the texel-buffer features of signed 2_10_10_10 "
        "(radv_physical_device_get_format_properties); vertex only"),
    ROW(A2B10G10R10_USCALED_PACK32, F2_10_10_10, Uscaled, kXYZW, 4, true, ""),
    ROW(A2B10G10R10_SSCALED_PACK32, F2_10_10_10, Sscaled, kXYZW, 4, false,
        "RADV removes the texel-buffer features of signed 2_10_10_10 "
        "(radv_physical_device_get_format_properties); vertex only"),
    ROW(A2B10G10R10_UINT_PACK32, F2_10_10_10, Uint, kXYZW, 4, true, ""),
    ROW(A2B10G10R10_SINT_PACK32, F2_10_10_10, Sint, kXYZW, 4, false,
        "RADV removes the texel-buffer features of signed 2_10_10_10 "
        "(radv_physical_device_get_format_properties); vertex only"),
    ROW(R16_UNORM, F16, Unorm, kX001, 2, true, ""),
    ROW(R16_SNORM, F16, Snorm, kX001, 2, true, ""),
    ROW(R16_USCALED, F16, Uscaled, kX001, 2, true, ""),
    ROW(R16_SSCALED, F16, Sscaled, kX001, 2, true, ""),
    ROW(R16_UINT, F16, Uint, kX001, 2, true, ""),
    ROW(R16_SINT, F16, Sint, kX001, 2, true, ""),
    ROW(R16_SFLOAT, F16, Float, kX001, 2, true, ""),
    ROW(R16G16_UNORM, F16_16, Unorm, kXY01, 4, true, ""),
    ROW(R16G16_SNORM, F16_16, Snorm, kXY01, 4, true, ""),
    ROW(R16G16_USCALED, F16_16, Uscaled, kXY01, 4, true, ""),
    ROW(R16G16_SSCALED, F16_16, Sscaled, kXY01, 4, true, ""),
    ROW(R16G16_UINT, F16_16, Uint, kXY01, 4, true, ""),
    ROW(R16G16_SINT, F16_16, Sint, kXY01, 4, true, ""),
    ROW(R16G16_SFLOAT, F16_16, Float, kXY01, 4, true, ""),
    ROW3(R16G16B16_UNORM, F16, Unorm, kXYZ1, 6),
    ROW3(R16G16B16_SNORM, F16, Snorm, kXYZ1, 6),
    ROW3(R16G16B16_USCALED, F16, Uscaled, kXYZ1, 6),
    ROW3(R16G16B16_SSCALED, F16, Sscaled, kXYZ1, 6),
    ROW3(R16G16B16_UINT, F16, Uint, kXYZ1, 6),
    ROW3(R16G16B16_SINT, F16, Sint, kXYZ1, 6),
    ROW3(R16G16B16_SFLOAT, F16, Float, kXYZ1, 6),
    ROW(R16G16B16A16_UNORM, F16_16_16_16, Unorm, kXYZW, 8, true, ""),
    ROW(R16G16B16A16_SNORM, F16_16_16_16, Snorm, kXYZW, 8, true, ""),
    ROW(R16G16B16A16_USCALED, F16_16_16_16, Uscaled, kXYZW, 8, true, ""),
    ROW(R16G16B16A16_SSCALED, F16_16_16_16, Sscaled, kXYZW, 8, true, ""),
    ROW(R16G16B16A16_UINT, F16_16_16_16, Uint, kXYZW, 8, true, ""),
    ROW(R16G16B16A16_SINT, F16_16_16_16, Sint, kXYZW, 8, true, ""),
    ROW(R16G16B16A16_SFLOAT, F16_16_16_16, Float, kXYZW, 8, true, ""),
    ROW(R32_UINT, F32, Uint, kX001, 4, true, ""),
    ROW(R32_SINT, F32, Sint, kX001, 4, true, ""),
    ROW(R32_SFLOAT, F32, Float, kX001, 4, true, ""),
    ROW(R32G32_UINT, F32_32, Uint, kXY01, 8, true, ""),
    ROW(R32G32_SINT, F32_32, Sint, kXY01, 8, true, ""),
    ROW(R32G32_SFLOAT, F32_32, Float, kXY01, 8, true, ""),
    ROW(R32G32B32_UINT, F32_32_32, Uint, kXYZ1, 12, true, ""),
    ROW(R32G32B32_SINT, F32_32_32, Sint, kXYZ1, 12, true, ""),
    ROW(R32G32B32_SFLOAT, F32_32_32, Float, kXYZ1, 12, true, ""),
    ROW(R32G32B32A32_UINT, F32_32_32_32, Uint, kXYZW, 16, true, ""),
    ROW(R32G32B32A32_SINT, F32_32_32_32, Sint, kXYZW, 16, true, ""),
    ROW(R32G32B32A32_SFLOAT, F32_32_32_32, Float, kXYZW, 16, true, ""),
    ROW(R64_UINT, F32_32, Uint, kXY10, 8, true,
        "read as 32_32 with DST_SEL x,y,1,0 (radv_compose_swizzle special case); storage texel and "
        "atomics only"),
    ROW(R64_SINT, F32_32, Sint, kXY10, 8, true,
        "read as 32_32 with DST_SEL x,y,1,0 (radv_compose_swizzle special case); storage texel and "
        "atomics only"),
    ROW(R64_SFLOAT, Invalid, Float, kX001, 8, false,
        "64-bit channels: no buffer data format; RADV fetches it as a vertex attribute only "
        "(32-bit loads)"),
    ROW(R64G64_UINT, Invalid, Uint, kXY01, 16, false,
        "64-bit channels: no buffer data format; RADV fetches it as a vertex attribute only "
        "(32-bit loads)"),
    ROW(R64G64_SINT, Invalid, Sint, kXY01, 16, false,
        "64-bit channels: no buffer data format; RADV fetches it as a vertex attribute only "
        "(32-bit loads)"),
    ROW(R64G64_SFLOAT, Invalid, Float, kXY01, 16, false,
        "64-bit channels: no buffer data format; RADV fetches it as a vertex attribute only "
        "(32-bit loads)"),
    ROW(R64G64B64_UINT, Invalid, Uint, kXYZ1, 24, false,
        "64-bit channels: no buffer data format; RADV fetches it as a vertex attribute only "
        "(32-bit loads)"),
    ROW(R64G64B64_SINT, Invalid, Sint, kXYZ1, 24, false,
        "64-bit channels: no buffer data format; RADV fetches it as a vertex attribute only "
        "(32-bit loads)"),
    ROW(R64G64B64_SFLOAT, Invalid, Float, kXYZ1, 24, false,
        "64-bit channels: no buffer data format; RADV fetches it as a vertex attribute only "
        "(32-bit loads)"),
    ROW(R64G64B64A64_UINT, Invalid, Uint, kXYZW, 32, false,
        "64-bit channels: no buffer data format; RADV fetches it as a vertex attribute only "
        "(32-bit loads)"),
    ROW(R64G64B64A64_SINT, Invalid, Sint, kXYZW, 32, false,
        "64-bit channels: no buffer data format; RADV fetches it as a vertex attribute only "
        "(32-bit loads)"),
    ROW(R64G64B64A64_SFLOAT, Invalid, Float, kXYZW, 32, false,
        "64-bit channels: no buffer data format; RADV fetches it as a vertex attribute only "
        "(32-bit loads)"),
    ROW(B10G11R11_UFLOAT_PACK32, F10_11_11, Float, kXYZ1, 4, true,
        "R at bits 0-10: DATA_FORMAT 10_11_11 (x = low 11 bits)"),
    // Mesa 25 (RADV and lavapipe) offers these as texel buffers; Mesa 22.3 does not. RADV 25's
    // descriptors, read with vkGetDescriptorEXT on its null device (`gcnprobe formats
    // --self-check`): R10X6/R12X4 = DATA_FORMAT 16 (16_16 for the 2PACK16 forms) UNORM.
    PADDED(R10X6_UNORM_PACK16, F16, kX001, 2),
    PADDED(R10X6G10X6_UNORM_2PACK16, F16_16, kXY01, 4),
    PADDED(R12X4_UNORM_PACK16, F16, kX001, 2),
    PADDED(R12X4G12X4_UNORM_2PACK16, F16_16, kXY01, 4),
    // 5-5-5-1 has no buffer DATA_FORMAT on GCN (the codes stop at 8/16/32-bit channels,
    // 10_11_11, 11_11_10, 10_10_10_2, 2_10_10_10); lavapipe 25 offers it as a uniform texel.
    {kFormatA1B5G5R5UnormPack16Khr, "VK_FORMAT_A1B5G5R5_UNORM_PACK16_KHR", Dfmt::Invalid,
     Nfmt::Unorm, kXYZW, 2, false,
     "5-5-5-1 channels: no buffer data format on GCN (RADV offers no buffer use)"},
    // Alpha only: RADV 25 reads it as DATA_FORMAT 8 with DST_SEL 0,0,0,X.
    {kFormatA8UnormKhr, "VK_FORMAT_A8_UNORM_KHR", Dfmt::F8, Nfmt::Unorm, k000X, 1, true,
     "alpha only: DATA_FORMAT 8 read into W through DST_SEL 0,0,0,X"},
};
#undef ROW
#undef ROW3
#undef PADDED

}  // namespace

std::span<const BufferFormat> allBufferFormats() {
  return kFormats;
}

std::span<const NamedVkFormat> allVkFormats() {
  static constexpr NamedVkFormat kAll[] = {
#include "vk_format_list.inc"
      {kFormatA1B5G5R5UnormPack16Khr, "VK_FORMAT_A1B5G5R5_UNORM_PACK16_KHR"},
      {kFormatA8UnormKhr, "VK_FORMAT_A8_UNORM_KHR"},
  };
  return kAll;
}

std::string vkFormatName(VkFormat f) {
  for (const NamedVkFormat& n : allVkFormats())
    if (n.vk == f) return std::string(n.name);
  return "VkFormat(" + std::to_string(static_cast<int>(f)) + ")";
}

TexelModel texelModel(const BufferFormat& f) {
  if (f.vk == VK_FORMAT_R64_UINT || f.vk == VK_FORMAT_R64_SINT) return TexelModel::Wide;
  if (f.dfmt != Dfmt::Invalid) return TexelModel::SingleLoad;
  if (f.channelDfmt != Dfmt::Invalid) return TexelModel::PerChannel;
  return TexelModel::None;
}

unsigned perChannelCount(const BufferFormat& f) {
  if (texelModel(f) != TexelModel::PerChannel) return 0;
  return f.stride / gcn::dfmtInfo(f.channelDfmt).bytes;
}

std::string_view texelModelName(TexelModel m) {
  switch (m) {
    case TexelModel::SingleLoad:
      return "single-load";
    case TexelModel::PerChannel:
      return "per-channel";
    case TexelModel::Wide:
      return "wide";
    case TexelModel::None:
      return "none";
  }
  return "?";
}

char shaderNumericType(const BufferFormat& f) {
  if (f.nfmt == gcn::Nfmt::Uint) return 'u';
  if (f.nfmt == gcn::Nfmt::Sint) return 'i';
  return 'f';
}

const BufferFormat* findBufferFormat(VkFormat format) {
  for (const BufferFormat& f : kFormats) {
    if (f.vk == format) return &f;
  }
  return nullptr;
}

const BufferFormat& parseBufferFormat(std::string_view name) {
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (upper.rfind("VK_FORMAT_", 0) != 0) upper = "VK_FORMAT_" + upper;
  for (const BufferFormat& f : kFormats) {
    if (f.name == upper) return f;
  }
  throw gcn::Error("unknown buffer format '" + std::string(name) +
                   "': expected a VkFormat name such as VK_FORMAT_R8G8B8A8_UNORM or "
                   "r32g32_sfloat (see `gcnprobe formats`)");
}

bool texelNumRecordsInBytes(gcn::Gen gen, uint32_t stride) {
  // radv_make_texel_buffer_descriptor: "if (gfx_level != GFX8 && stride) range /= stride",
  // i.e. the unit NUM_RECORDS counts in for the IDXEN access of a V# without SWIZZLE_ENABLE;
  // on RDNA the view's V# has OOB_SELECT 0 (structured with offset), which counts records.
  if (gcn::isRdna(gen)) return gcn::rdnaNumRecordsInBytes(gen, /*oobSelect=*/0, stride, false);
  return gcn::numRecordsInBytes(gen, stride, /*swizzleEnable=*/false, /*idxen=*/true);
}

uint32_t texelBufferNumRecords(gcn::Gen gen, uint32_t elements, uint32_t stride) {
  return texelNumRecordsInBytes(gen, stride) ? elements * stride : elements;
}

gcn::VSharp makeTexelBufferVSharp(const gcn::Chip& chip, uint64_t base, uint32_t elements,
                                  VkFormat format) {
  const BufferFormat* f = findBufferFormat(format);
  if (f == nullptr) {
    throw gcn::Error("VkFormat " + std::to_string(static_cast<int>(format)) +
                     " is not a GCN buffer format");
  }
  if (!f->texel || f->dfmt == Dfmt::Invalid) {
    throw gcn::Error(std::string(f->name) +
                     " has no texel-buffer V# on RADV: " + std::string(f->note));
  }
  return makeBufferVSharp(chip, base, elements, f->dfmt, f->nfmt, f->dstSel, f->stride);
}

gcn::VSharp makeBufferVSharp(const gcn::Chip& chip, uint64_t base, uint32_t elements,
                             gcn::Dfmt dfmt, gcn::Nfmt nfmt, std::array<gcn::DstSel, 4> dstSel,
                             uint32_t stride) {
  gcn::VSharp v;
  v.base = base;
  v.stride = stride;
  if (gcn::isRdna(chip.gen)) {
    // RADV's texel-buffer V# on GFX10+ (docs/rdna.md): the unified code of the pair,
    // structured-with-offset range checking (OOB_SELECT 0) over NUM_RECORDS elements, and
    // RESOURCE_LEVEL 1 where the field exists (GFX10/10.3).
    const gcn::UnifiedFormat* f = gcn::findUnifiedFormat(chip.gen, dfmt, nfmt);
    if (f == nullptr)
      throw gcn::Error(std::string(gcn::dfmtName(dfmt)) + " " +
                       std::string(gcn::nfmtName(nfmt, gcn::Gen::Gfx9)) + " has no " +
                       std::string(gcn::genName(chip.gen)) + " buffer format");
    v.numRecords = elements;
    v.dstSel = dstSel;
    v.format = f->code;
    v.oobSelect = 0;
    v.resourceLevel = chip.gen != gcn::Gen::Gfx11;
    return v;
  }
  v.numRecords = texelBufferNumRecords(chip.gen, elements, stride);
  v.dstSel = dstSel;
  v.numFormat = nfmt;
  v.dataFormat = dfmt;
  return v;
}

}  // namespace gcnprobe::vk
