// The atomic route: BUFFER_ATOMIC_{SWAP,CMPSWAP,ADD,SUB,SMIN,UMIN,SMAX,UMAX,AND,OR,XOR}
// (+ _X2 where the device has shaderBufferInt64Atomics) with GLC (the pre-op value is
// returned), through SSBO atomics (OFFEN, shaders/atomic_ssbo.comp) and imageAtomic* on an
// R32_UINT / R32_SINT storage texel buffer (IDXEN, shaders/atomic_texel.comp), which RADV
// turns into these instructions (docs/platform.md). GLSL has no atomic subtract: SUB cases run
// atomicAdd of the negated source, which gives the same pre-op value and memory modulo
// 2^32 (2^64); RADV emits BUFFER_ATOMIC_ADD for it (docs/routes.md).
#pragma once

#include <memory>
#include <string>

#include "harness/routes/route.h"
#include "harness/vulkan/context.h"

namespace gcnprobe::routes {

std::unique_ptr<Route> makeAtomicRoute(vk::Context& ctx);

// "atomic_ssbo_add", "atomic_ssbo_cmpswap_x2", "atomic_texel_smin"; "" when the case is not
// an atomic case this route knows.
std::string atomicVariant(const DeviceCase& c);

// Whether a GLSL atomic reaches the operation (shaders/variants.cmake rows). INC/DEC, RSUB
// and the float atomics have no GLSL/SPIR-V atomic that RADV lowers to them.
bool atomicRoutable(gcn::AtomicOp a);

// The texel-buffer format an atomic case on a storage texel buffer needs: R32_SINT for
// SMIN/SMAX (imageAtomicMin/Max on iimageBuffer compare signed), R32_UINT otherwise.
VkFormat atomicTexelFormat(gcn::AtomicOp op);

}  // namespace gcnprobe::routes
