// The binary route as a route (docs/binary.md, "Running cases"): a case whose instruction no
// Vulkan construct emits (DeviceCase::binaryPatch) runs by patching its encoding into the
// template pipeline of its class (BinaryBuilder, harness/isa/binary_patch.h), proving the
// patched pipeline, and running that pipeline exactly as the storage route runs its lane
// shader (routes::lane::runLaneShader: the case's buffer at binding 0 with guard bands,
// lane inputs In, lane outputs Out).
//
// What a case must be for the templates to host it, each refused with its reason otherwise:
// - a device whose pipeline cache holds GCN code and that can run (a compile-only device
//   builds and proves, `gcnprobe binary`, and runs nothing);
// - the instruction in a template's form: one VADDR register with OFFEN (the SSBO templates) or
//   IDXEN (the texel templates, raw V# only), or no VADDR; no ADDR64; SOFFSET the inline 0;
//   any OFFSET (0 for the LDS store), GLC, SLC; no load with the LDS bit (it writes LDS, which
//   no template reads back), VDATA no wider than the template's (patchProblem);
// - a D16 load that writes half registers runs in the atomic template, whose registers hold
//   the case's VDATA before it: at most the two registers that template returns;
// - BUFFER_STORE_LDS_DWORD runs in the LDS template: SOFFSET 0, no VADDR, DeviceCase::lds as
//   the LDS image (In.data, at most kLdsTemplateBytes) and state.m0 patched in as M0; every
//   LDS dword an active lane reads inside the image;
// - with OFFEN, every active lane's VADDR a multiple of the template's access size (16 bytes
//   for the load and store templates, 8 for the atomic one): the template computes the
//   address from it, so only those values reach VADDR unchanged (an IDXEN index arrives as
//   it is);
// - the features the template's shader needs (storage images without format for the texel
//   templates, 64-bit SSBO atomics for the atomic one);
// - confinement (docs/confinement.md): every byte any lane may touch under any option of the
//   addressing points (reference/reach.h) inside the buffer and the guard band behind it;
// - the V# RADV writes for the case's buffer bound as an SSBO of range NUM_RECORDS
//   (routes::makeStorageBufferVSharp), as the storage route binds it; or, for a raw V# case
//   (DeviceCase::rawVsharp), any V# the raw route can confine: the template is then built as
//   a descriptor-buffer pipeline and the V# rebased into a harness buffer covering the reach,
//   exactly as the raw route runs its lane shaders (routes::lane::runRawLaneShader), on a
//   device where the raw route's V# self-check holds;
// The registers compared are the ones the instruction writes (vdataRegs); the template's other
// VDATA registers hold what its compiler left there.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/routes/route.h"
#include "harness/vulkan/context.h"

namespace gcnprobe::isa {

std::unique_ptr<routes::Route> makeBinaryRoute(vk::Context& ctx);

// Why the binary templates cannot host the case's form on `chip` ("" when they can): every
// check above that needs no device (operands, V#, confinement, VADDR, LDS image). The route
// asks it first; `probe` and the disputed suite ask it to decide whether a probe whose
// instruction no Vulkan construct emits goes to this route.
std::string binaryFormProblem(const gcn::Chip& chip, const routes::DeviceCase& c);

// Confinement of a case run through a patched lane-layout pipeline (the binary route's
// templates, gcnprobe's own program; docs/confinement.md), "" when it holds: a raw V# case is
// placed as on the raw route (a harness buffer around every byte any lane may touch, refused
// over the bound); any other must carry RADV's SSBO V# for its buffer and reach nothing outside
// the buffer and the guard band behind it, under every option of the addressing points.
std::string laneLayoutConfinementProblem(const gcn::Chip& chip, const routes::DeviceCase& c);

// How the template that hosts `op` on `chip` (templateVariant) binds its buffer: StorageTexel
// for the IDXEN texel templates, StorageBuffer (an SSBO) for the others. A case for the binary
// route binds its buffer so (binaryFormProblem refuses any other binding).
routes::Binding binaryTemplateBinding(const gcn::Chip& chip, const gcn::OpcodeInfo& op, bool idxen);

// Whether the case's V# is the one RADV writes for its buffer bound as an SSBO of range
// NUM_RECORDS (routes::makeStorageBufferVSharp; base the memory's, NUM_RECORDS a multiple of
// 4 ending at most kMaxOverrun bytes past the memory): such a case needs no raw V#.
bool isDriverSsboVsharp(const gcn::Chip& chip, const routes::DeviceCase& c);

}  // namespace gcnprobe::isa
