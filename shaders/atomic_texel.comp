#version 450
// Atomic route, storage texel buffers (harness/routes/atomic.cpp): lane l performs FN on
// element addr[l] of an R32_UINT / R32_SINT imageBuffer (BUFFER_ATOMIC_* ... IDXEN on RADV,
// docs/platform.md) and writes the returned pre-op value to Out. The format needs
// VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT. data[l*4] = source, data[l*4+1] =
// CMPSWAP compare; NEG = 1: "sub via add(-x)" (GLSL has no imageAtomicSub).
// Defines: T (uint / int), TEX (uimageBuffer / iimageBuffer), FMT (r32ui / r32i), FN, CMPSWAP,
// NEG.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, FMT) uniform coherent TEX img;
layout(std430, set = 0, binding = 1) readonly buffer In {
  uint addr[64];
  uint enabled[64];
  uint data[256];
} inp;
layout(std430, set = 0, binding = 2) buffer Out { uint v[256]; } outp;

void main() {
  uint l = gl_LocalInvocationID.x;
  if (inp.enabled[l] == 0u) return;
  T v = T(inp.data[l * 4u]);
#if NEG
  v = -v;
#endif
#if CMPSWAP
  T r = imageAtomicCompSwap(img, int(inp.addr[l]), T(inp.data[l * 4u + 1u]), v);
#else
  T r = FN(img, int(inp.addr[l]), v);
#endif
  outp.v[l * 4u] = uint(r);
}
