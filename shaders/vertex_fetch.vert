#version 450
// Vertex route (harness/routes/vertex.cpp): one point per lane of an indexed draw
// (rasterizer discard). Vertex gl_VertexIndex fetches the attribute at location 0 (RADV:
// TBUFFER_LOAD_FORMAT_* or BUFFER_LOAD_DWORD* with IDXEN, docs/platform.md) and writes its four
// components as raw bits to the slot of every active lane whose index it is: an indexed
// draw may shade a repeated index once, and gl_VertexIndex is all a vertex knows.
// Defines: VEC4 (vec4 / ivec4 / uvec4, the attribute's numeric type), IS_FLOAT.
layout(location = 0) in VEC4 attr;

#if IS_FLOAT
#define BITS(x) floatBitsToUint(x)
#else
#define BITS(x) uint(x)
#endif

layout(std430, set = 0, binding = 0) readonly buffer In {
  uint idx[64];
  uint enabled[64];
} inp;
layout(std430, set = 0, binding = 1) buffer Out { uint v[256]; } outp;

void main() {
  uint vi = uint(gl_VertexIndex);
  for (uint l = 0u; l < 64u; ++l) {
    if (inp.enabled[l] != 0u && inp.idx[l] == vi) {
      outp.v[l * 4u + 0u] = BITS(attr.x);
      outp.v[l * 4u + 1u] = BITS(attr.y);
      outp.v[l * 4u + 2u] = BITS(attr.z);
      outp.v[l * 4u + 3u] = BITS(attr.w);
    }
  }
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
