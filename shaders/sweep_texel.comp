#version 450
// Sweeps (harness/explore/sweep.h, docs/sweep.md): invocation i reads texel FIRST + i of the
// uniform texel buffer at binding 0 (texelFetch: BUFFER_LOAD_FORMAT_XYZW IDXEN on GCN) and
// writes its four components' register bits to Out[i]. COUNT and FIRST are push constants
// (FIRST + i wraps at 2^32 and is read as a signed int: indices from 2^31 up are negative,
// out of range for Vulkan as they are past NUM_RECORDS for GCN); millions per dispatch.
// Defines: TEX (samplerBuffer, isamplerBuffer, usamplerBuffer), IS_FLOAT, IS_INT.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform TEX tex;
layout(std430, set = 0, binding = 1) buffer Out { uvec4 v[]; } outp;
layout(push_constant) uniform Push { uint count; uint first; } pc;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.count) return;
  int at = int(pc.first + i);
#if IS_FLOAT
  outp.v[i] = floatBitsToUint(texelFetch(tex, at));
#elif IS_INT
  outp.v[i] = uvec4(texelFetch(tex, at));
#else
  outp.v[i] = texelFetch(tex, at);
#endif
}
