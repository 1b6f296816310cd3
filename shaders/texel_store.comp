#version 450
// Texel route, stores: lane l writes data[l*4 .. l*4+3] (raw register bits) to element
// idx[l] of the storage texel buffer at binding 0 with imageStore (BUFFER_STORE_FORMAT_*
// on GCN, docs/platform.md). No format qualifier: needs shaderStorageImageWriteWithoutFormat.
// Lanes with enabled[l] == 0 skip the store (EXEC). Defines: TEX (imageBuffer / iimageBuffer / uimageBuffer), VEC4, IS_FLOAT,
// SCALAR (int / uint for integer types), STORE_COMPS (1..4: components taken from data; the
// rest are constant zero, so the compiler can store only the first STORE_COMPS registers:
// BUFFER_STORE_FORMAT_X / XY / XYZ for formats with that many components).
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform writeonly TEX tex;
#if IS_FLOAT
#define VALUE(b) uintBitsToFloat(b)
#else
#define VALUE(b) SCALAR(b)
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
  uint b = l * 4u;
#if STORE_COMPS == 1
  imageStore(tex, int(inp.idx[l]), VEC4(VALUE(inp.data[b]), 0, 0, 0));
#elif STORE_COMPS == 2
  imageStore(tex, int(inp.idx[l]), VEC4(VALUE(inp.data[b]), VALUE(inp.data[b + 1u]), 0, 0));
#elif STORE_COMPS == 3
  imageStore(tex, int(inp.idx[l]),
             VEC4(VALUE(inp.data[b]), VALUE(inp.data[b + 1u]), VALUE(inp.data[b + 2u]), 0));
#else
  imageStore(tex, int(inp.idx[l]),
             VEC4(VALUE(inp.data[b]), VALUE(inp.data[b + 1u]), VALUE(inp.data[b + 2u]),
                          VALUE(inp.data[b + 3u])));
#endif
}
