// The storage-buffer route: BUFFER_LOAD_{UBYTE,SBYTE,USHORT,SSHORT,DWORD,DWORDX2..4} and
// BUFFER_STORE_{BYTE,SHORT,DWORD,DWORDX2..4} with OFFEN (per-lane byte offset) and the
// instruction OFFSET, through an SSBO (shaders/storage_access.comp). RADV/ACO emits the
// typed MUBUF ops for SSBO accesses (docs/platform.md "Instruction selection"), except
// SBYTE/SSHORT, which it never emits (UBYTE/USHORT + a sign-extending bitfield extract): a
// case naming them is what the GLSL int8_t/int16_t load means on GCN, and the ISA check
// reports what the driver chose. docs/routes.md has the table per device.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "harness/routes/route.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/pipeline.h"
#include "reference/resource.h"

namespace gcnprobe::routes {

std::unique_ptr<Route> makeStorageRoute(vk::Context& ctx);

// The V# RADV writes for a storage-buffer descriptor of `rangeBytes` at `base` on GFX6-9:
// STRIDE 0, NUM_RECORDS = the range in bytes rounded up to 4, DST_SEL XYZW, DATA_FORMAT 32,
// NUM_FORMAT FLOAT, nothing else set (Mesa src/amd/vulkan/radv_descriptor_set.c,
// write_buffer_descriptor: "dst[2] = align(range, 4)" and the GFX6-9 branch
// "S_008F0C_NUM_FORMAT(V_008F0C_BUF_NUM_FORMAT_FLOAT) |
// S_008F0C_DATA_FORMAT(V_008F0C_BUF_DATA_FORMAT_32)"; radeonsi builds the same word 3).
gcn::VSharp makeStorageBufferVSharp(uint64_t base, uint32_t rangeBytes);
// The same for a generation: on GFX10+ RADV's raw V# (docs/rdna.md): 32_FLOAT as the unified
// code, OOB_SELECT 3 (raw), RESOURCE_LEVEL 1 where the field exists.
gcn::VSharp makeStorageBufferVSharp(gcn::Gen gen, uint64_t base, uint32_t rangeBytes);

// The shader variant (shaders/variants.cmake) for a storage case ("storage_load_dwordx3"),
// "" when the case is not one.
std::string storageVariant(const DeviceCase& c);

// The plain V# fields every GFX6-9 layout shares (CLRX GcnMemHandling bit table: BASE [47:0],
// STRIDE [61:48], SWIZZLE_ENABLE [63], NUM_RECORDS [95:64], ADD_TID_ENABLE [119]), read from
// state.sgpr[inst.srsrc..+3]: the routes bind what the V# says.
struct RawBufferFields {
  uint64_t base = 0;
  uint32_t stride = 0;
  uint32_t numRecords = 0;
  bool swizzle = false;
  bool addTid = false;
};
RawBufferFields rawBufferFields(const DeviceCase& c);

// routes::lane (also raw.h): the lane-shader layout's buffers, sizes and dispatch.
namespace lane {
// Shared by the storage, atomic and texel routes: shaders with the data at binding 0 (a
// storage buffer whose descriptor range is the V#'s NUM_RECORDS, or, with texelFormat set, a
// texel buffer view of the whole memory in the case's own format, texelFormat when it has
// none: a uniform one with uniformTexel, else a storage one), In {addr[64], enabled[64],
// data[256]} at binding 1 and Out {v[256]} at binding 2. Lane l gets addr = VADDR[0], data =
// VDATA[0..3]; `vdataWords` returned words per lane are read back. Cases run in submissions
// of up to kLaneChunkCases: one allocation with a buffer per case (guard bands of its own
// around each, vk::GuardedRegions), one In and one Out buffer, one descriptor pool. `pipeline`
// is any pipeline with this layout: a route's own, or the binary route's patched template.
std::vector<DeviceResult> runLaneShader(vk::Context& ctx, const vk::PipelineObjects& pipeline,
                                        std::span<const DeviceCase* const> cases,
                                        VkFormat texelFormat, unsigned vdataWords,
                                        bool uniformTexel = false);
inline constexpr std::size_t kLaneChunkCases = 4096;
inline constexpr std::size_t kLaneChunkBytes = std::size_t{64} << 20;
// The In/data/Out bindings of those shaders.
std::span<const vk::Binding> laneShaderBindings(bool texel);
// The lane shaders' I/O buffers (shaders/storage_access.comp, texel_*.comp, atomic_*.comp):
// In {addr[64], enabled[64], data[256]}, Out {v[256]}, 4 words per lane.
inline constexpr std::size_t kLaneInBytes = (64 + 64 + 256) * 4;
inline constexpr std::size_t kLaneOutBytes = 256 * 4;
// Writes In for the case (addr = VADDR[0], enabled = EXEC, data = VDATA[0..3]) and fills Out
// with a marker no shader writes.
void fillLaneShaderIo(const DeviceCase& c, std::span<uint8_t> in, std::span<uint8_t> out);
// The words per lane the lane shader returns for the case: the components a format load reads,
// a typed load's dwords, an atomic's pre-op value (2 for _X2); 0 for stores.
unsigned laneShaderWords(const DeviceCase& c);
// Reads `words` returned words per lane from Out into r.vdata (and sets r.vdataCount).
void readLaneShaderOut(std::span<const uint8_t> out, unsigned words, DeviceResult& r);
// "" when an SSBO typed access or atomic can be written as GLSL element indexing: OFFSET and
// every active lane's byte offset a multiple of the shader's element (min(access size, 4);
// an atomic's 4 or 8 bytes); else why not.
std::string ssboIndexingProblem(const DeviceCase& c);
// Guard band behind the payload: large enough for a V# whose NUM_RECORDS overruns the
// memory by up to this much (the overrun lands in the guard band and is reported).
inline constexpr uint32_t kMaxOverrun = 1024;
// The guard band on each side of a case's data buffer: 256 bytes plus the NUM_RECORDS overrun
// a storage V# may have past the memory image.
inline constexpr std::size_t kLaneGuardBytes = 256 + kMaxOverrun;
}  // namespace lane

}  // namespace gcnprobe::routes
