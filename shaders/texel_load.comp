#version 450
// Texel route, loads: lane l reads element idx[l] of the texel buffer at binding 0 and
// writes the COMPS components it uses (so the driver emits BUFFER_LOAD_FORMAT_{X..XYZW},
// docs/platform.md) as raw bits. Lanes with enabled[l] == 0 skip the load (EXEC).
// Defines: STORAGE (0: texelFetch on a textureBuffer, 1: imageLoad on an imageBuffer),
// FMT (STORAGE only: the image's GLSL format layout qualifier, e.g. rgba8, r11f_g11f_b10f;
// without it the image has no format, GL_EXT_shader_image_load_formatted, which needs
// shaderStorageImageReadWithoutFormat), TEX (the texture or image type: textureBuffer,
// itextureBuffer, uimageBuffer, ...; a textureBuffer, not a samplerBuffer: texelFetch needs
// no sampler, and SPIR-V 1.6 forbids the sampled-image type of a buffer image that a
// samplerBuffer makes, which the validation layer flags on Vulkan 1.4 drivers), VEC4 (vec4 / ivec4 / uvec4), IS_FLOAT, COMPS (1..4).
// WIDE (R64_UINT/SINT): a 64-bit image (u64imageBuffer / i64imageBuffer, FMT r64ui / r64i,
// GL_EXT_shader_image_int64); its one component goes out as two dwords, low then high,
// as the 32_32 V# returns them in registers X and Y.
#if STORAGE && !defined(FMT)
#extension GL_EXT_shader_image_load_formatted : require
#endif
#if defined(WIDE)
#extension GL_EXT_shader_image_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif
layout(local_size_x = 64) in;

#if STORAGE && defined(FMT)
layout(set = 0, binding = 0, FMT) uniform readonly TEX tex;
#define FETCH(i) imageLoad(tex, i)
#elif STORAGE
layout(set = 0, binding = 0) uniform readonly TEX tex;
#define FETCH(i) imageLoad(tex, i)
#else
layout(set = 0, binding = 0) uniform TEX tex;
#define FETCH(i) texelFetch(tex, i)
#endif
#if IS_FLOAT
#define BITS(x) floatBitsToUint(x)
#else
#define BITS(x) uint(x)
#endif

layout(std430, set = 0, binding = 1) readonly buffer In {
  uint idx[64];
  uint enabled[64];
  uint data[256];
} inp;
layout(std430, set = 0, binding = 2) buffer Out { uint v[256]; } outp;

void main() {
  uint l = gl_LocalInvocationID.x;
  if (inp.enabled[l] == 0u) return;
  VEC4 r = FETCH(int(inp.idx[l]));
#if defined(WIDE)
  outp.v[l * 4u + 0u] = uint(r.x);
  outp.v[l * 4u + 1u] = uint(r.x >> 32);
#else
  outp.v[l * 4u + 0u] = BITS(r.x);
#if COMPS >= 2
  outp.v[l * 4u + 1u] = BITS(r.y);
#endif
#if COMPS >= 3
  outp.v[l * 4u + 2u] = BITS(r.z);
#endif
#if COMPS >= 4
  outp.v[l * 4u + 3u] = BITS(r.w);
#endif
#endif
}
