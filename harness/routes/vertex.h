// The vertex-fetch route: TBUFFER_LOAD_FORMAT_{X..XYZW} (8/16-bit and packed formats) and
// BUFFER_LOAD_DWORD{,X2,X3,X4} (32-bit channels) through a vertex attribute, as RADV/ACO
// emits them (docs/platform.md, "Instruction selection"). A vertex-only graphics
// pipeline (harness/vulkan/graphics_pipeline.h) draws one point per active lane with an
// index buffer holding the lane's VADDR (the vertex index); binding stride = the V#'s
// STRIDE, attribute offset = the instruction's OFFSET, attribute format = the case's
// VkFormat (for MTBUF: the instruction's DFMT/NFMT). The vertex shader writes the fetched
// attribute to a storage buffer, so the device needs vertexPipelineStoresAndAtomics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "harness/formats.h"
#include "harness/routes/route.h"
#include "harness/vulkan/context.h"
#include "reference/gen.h"
#include "reference/opcodes.h"
#include "reference/resource.h"

namespace gcnprobe::routes {

std::unique_ptr<Route> makeVertexRoute(vk::Context& ctx);

// The shader variant (shaders/variants.cmake) of a vertex case: "vertex_fetch_f|i|u" by
// the attribute's numeric type; "" when the case is not a vertex case.
std::string vertexVariant(const DeviceCase& c);

// The vertex shader's I/O (shaders/vertex_fetch.vert): In {idx[64], enabled[64]} at binding 0,
// Out {v[256]} at binding 1, filled with kUnwrittenVertexWord before the draw.
inline constexpr std::size_t kVertexInWords = 64 + 64;
inline constexpr std::size_t kVertexOutWords = 256;
inline constexpr uint32_t kUnwrittenVertexWord = 0xdeadbeefu;

// The instruction ACO emits for a vec4 attribute of `f` (all components used), per
// aco_instruction_selection.cpp visit_load_input: 32-bit channels with FLOAT/UINT/SINT ->
// BUFFER_LOAD_DWORD{,X2,X3,X4} (the data needs no conversion), every other format with a
// buffer data format -> TBUFFER_LOAD_FORMAT with as many components as the format has.
// nullptr when no single GCN instruction fetches it: 3-channel 8/16-bit formats (no data
// format; ACO splits the fetch), 64-bit channels, sRGB (not a vertex format) — `why` says
// which.
const gcn::OpcodeInfo* vertexFetchOpcode(const vk::BufferFormat& f, std::string* why = nullptr);

// NUM_RECORDS of RADV's per-attribute vertex descriptor (use_per_attribute_vb_descs, which
// RADV uses whenever robustBufferAccess is enabled; radv_write_vertex_descriptors in
// src/amd/vulkan/radv_cmd_buffer.c): n = (bytes - attribEnd) / stride + 1 vertices whose
// attribute ends inside the binding (0 when even vertex 0's does not), counted in elements
// on GFX6/7/9 and converted to bytes on GFX8 as (n - 1) * stride + attribEnd ("GFX8 always
// uses bytes"). attribEnd = attribute offset + format size. stride must be non-zero.
uint32_t vertexNumRecords(gcn::Gen gen, uint32_t bytes, uint32_t stride, uint32_t attribEnd);

// The V# of a vertex binding of `bytes` bytes at `base` with `stride`, for the attribute of
// `format` at `attribOffset`: BASE = binding base (the attribute offset goes to the
// instruction's OFFSET, ACO), STRIDE = binding stride, NUM_RECORDS per vertexNumRecords,
// DST_SEL XYZW. Word 3's DATA/NUM_FORMAT are the attribute's, as RADV writes them for
// dynamic vertex input (vs_state path: the attribute's hw_format); static pipelines write
// 32/UINT there. Neither changes the fetch (MTBUF takes DFMT/NFMT from the instruction,
// typed loads from the opcode: CLRX GcnMemHandling), and the attribute's lets the diff name the
// format under test. Throws gcn::Error when the format has no vertex fetch instruction.
gcn::VSharp makeVertexBufferVSharp(gcn::Gen gen, uint64_t base, uint32_t bytes, uint32_t stride,
                                   uint32_t attribOffset, VkFormat format);

}  // namespace gcnprobe::routes
