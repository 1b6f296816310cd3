// The raw V# route: any V# gcnprobe can confine, on an AMD device, through the unchanged lane
// shaders of the texel, storage and atomic routes. With VK_EXT_descriptor_buffer the
// application writes the descriptor bytes itself, and on RADV a texel-buffer or storage-buffer
// descriptor is the 16-byte V# (Mesa src/amd/vulkan/radv_descriptor_set.c,
// radv_GetDescriptorEXT); ACO's code is the same as with descriptor sets (the set's 32-bit
// pointer in a user SGPR, the V# loaded with s_load_dwordx4 at the binding's offset). So the
// case's V# words go into the descriptor buffer with BASE moved to a harness buffer that
// covers every byte any lane may touch (reference/reach.h) plus guard bands.
//
// The route runs only where the descriptor is the V#: the device is a GCN chip, has
// VK_EXT_descriptor_buffer and bufferDeviceAddress, and the driver's own texel-buffer
// descriptors (vkGetDescriptorEXT) decode to exactly the V#s of gcnprobe's format table
// (vsharp_selfcheck.h). Elsewhere, lavapipe included, every raw case is unsupported with the
// reason. docs/routes.md "Raw V# route".
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "harness/routes/route.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/descriptor_buffer.h"
#include "harness/vulkan/pipeline.h"

namespace gcnprobe::routes {

std::unique_ptr<Route> makeRawRoute(vk::Context& ctx);

// "" when the case's instruction has a form the lane shaders produce (docs/platform.md
// "Instruction selection": binding, address form, OFFSET and offsets the shader's element
// indexing reaches, GLC only on atomics), else why not.
std::string rawFormProblem(const DeviceCase& c);

// The shader variant of the lane shader whose instruction form the raw case has (the texel,
// storage or atomic route's variant for the same binding), "" when none has it.
std::string rawVariant(const DeviceCase& c);

// The SOFFSET form: a dword load (DWORD, DWORDX2, DWORDX4) through an SSBO with SOFFSET in an
// SGPR and neither OFFEN nor IDXEN (shaders/storage_access.comp with SOFFSET_PC: the byte
// address is a push constant, the same in every lane). Its shader also holds a store to the
// case's buffer behind `if (never != 0)`, a push constant the route sets to 0.
bool rawSoffsetForm(const gcn::Instruction& in);

// Guard bytes the raw route keeps on both sides of what a case may reach.
inline constexpr uint64_t kRawGuard = 256;

// Where the raw route puts a case: a harness buffer of `bytes` bytes whose first byte stands
// for case address `origin`; every reach byte and the memory image lie at least `guard`
// bytes inside it. A case whose memory has far regions (gcn::MemoryImage::far) that its reach
// touches gets one more buffer per such region (`far`), each at the device address that keeps
// its distance from the first: reach bytes belong to the image or to the far region within
// gcn::kMaxReachSpanBytes of them, and each buffer is bounded as the first. Throws gcn::Error
// with the numbers when the reach is over the bound (gcn::reachBoundProblem) or far buffers
// would overlap.
struct RawPlacement {
  uint64_t origin = 0;
  uint64_t bytes = 0;
  struct Far {
    std::size_t region = 0;  // index into the case's memory.far
    uint64_t origin = 0;     // case address of this buffer's first byte
    uint64_t bytes = 0;
  };
  std::vector<Far> far;
};
RawPlacement placeRawCase(const gcn::Chip& chip, const DeviceCase& c, uint64_t guard);

// The case's V# words with BASE moved so that case address `origin` is device address
// `address` (every other bit kept); gcn::Error when the new BASE does not fit in 48 bits.
std::array<uint32_t, 4> rebasedVSharp(gcn::Gen gen, const DeviceCase& c, uint64_t origin,
                                      uint64_t address);

// The raw route's dispatch path with the driver's own descriptor (vkGetDescriptorEXT) of the
// case's buffer in place of the V#: descriptor-buffer allocation and binding, guard-banded
// placement (by `chip`'s reach), the lane shaders, read-back and the guard check, on any device
// with VK_EXT_descriptor_buffer and bufferDeviceAddress (lavapipe on Mesa 25). The cases are
// driver-route cases (texel, storage, atomic: their V# is the driver's, so the results must
// equal those routes'); the only part of the raw route this leaves out is writing the V#
// itself (rebasedVSharp). Throws gcn::Error when the device lacks the extensions or a case has
// no lane shader.
std::vector<DeviceResult> runRawPathWithDriverDescriptors(vk::Context& ctx, const gcn::Chip& chip,
                                                          std::span<const DeviceCase* const> cases);

// routes::lane: the lane-shader layout (binding 0 the case's buffer, 1 In, 2 Out) that the
// routes' shaders, the binary route's patched templates and gcnprobe's own program share: its
// dispatch with a raw V#, and the device checks that dispatch needs. Public to the layers
// above (isa, control), which patch and run pipelines of this layout.
namespace lane {
// Writes binding 0 of descriptor-buffer `region` for case `c`, whose guard-banded buffer
// (placement `place`) starts at device address `bufferAddress`.
using CaseDescriptorWriter =
    std::function<void(vk::DescriptorBuffer& descriptors, uint32_t region, const DeviceCase& c,
                       const RawPlacement& place, VkDeviceAddress bufferAddress)>;
// The raw route's writer: the case's V#, BASE moved into the buffer (the one step that needs
// a GCN device: the descriptor is the V#).
CaseDescriptorWriter rebasedVSharpWriter(const gcn::Chip& chip);

// Why no pipeline that reads a raw V# can be built at all ("" when it can): without
// VK_EXT_descriptor_buffer (RADV before Mesa 23) the V# has no way in. `route` names the route
// in the message; `isa` reports such a case unsupported (Route::unbuildableReason).
std::string descriptorBufferProblem(vk::Context& ctx, std::string_view route);

// Why the device's descriptors cannot carry raw V#s ("" when they can): the V# self-check of
// the driver's texel-buffer descriptors, and bufferDeviceAddress.
std::string rawDeviceProblem(vk::Context& ctx);
// The raw route's dispatch, for any descriptor-buffer pipeline with the lane-shader layout
// (binding 0 the case's buffer, 1 In, 2 Out; the raw route's lane shaders, or the binary
// route's patched templates): per case a harness buffer placed by placeRawCase with guard
// bytes, the case's V# rebased into it at binding 0 of its descriptor-buffer region, In
// filled as fillLaneShaderIo does; `vdataWords(c)` words per lane read back from Out, the
// memory image and every guard byte that changed. `pushConstants(c)`, when given and not
// empty, is pushed before the case's dispatch.
std::vector<DeviceResult> runRawLaneShader(
    vk::Context& ctx, const vk::PipelineObjects& pipeline, std::span<const DeviceCase* const> cases,
    const std::function<unsigned(const DeviceCase&)>& vdataWords,
    const std::function<std::vector<uint32_t>(const DeviceCase&)>& pushConstants = {});
// The registers an instruction returns, which a patched lane-layout pipeline stores to Out: a
// load's VDATA (D16 packing and TFE included), an atomic's pre-op value with GLC (two dwords for
// _X2); 0 for stores and cache operations.
unsigned returnedRegs(const gcn::Chip& chip, const gcn::Instruction& inst);
// The dispatch of a patched lane-layout pipeline (the binary route's templates, gcnprobe's own
// program): runRawLaneShader for raw V# cases, runLaneShader otherwise, returnedRegs words per
// lane read back.
std::vector<DeviceResult> runPatchedLaneShader(vk::Context& ctx, const gcn::Chip& chip,
                                               const vk::PipelineObjects& pipeline,
                                               std::span<const DeviceCase* const> cases);
// The same with the placement chip and binding 0's writer given (the above: the device's chip
// and rebasedVSharpWriter).
std::vector<DeviceResult> runRawLaneShader(
    vk::Context& ctx, const gcn::Chip& chip, const CaseDescriptorWriter& writeCase,
    const vk::PipelineObjects& pipeline, std::span<const DeviceCase* const> cases,
    const std::function<unsigned(const DeviceCase&)>& vdataWords,
    const std::function<std::vector<uint32_t>(const DeviceCase&)>& pushConstants = {});
}  // namespace lane

}  // namespace gcnprobe::routes
