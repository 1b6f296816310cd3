#version 450
// Binary route templates (harness/isa/binary_patch.h, docs/binary.md): one 16-byte SSBO access
// per lane at byte address addr[l] (a multiple of 16) of binding 0, which ACO emits as one
// buffer_load_dwordx4 / buffer_store_dwordx4 with OFFEN. Its four VDATA registers are the
// widest data any non-atomic MUBUF/MTBUF needs, so any of them can take the slot. The load's
// four registers all go to Out (a narrower patched load leaves some unwritten: only those it
// writes are compared); the store's come from In's data.
// Defines: STORE (0/1).
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint OFF = 0u;  // the shared lane-shader layout; unused here

layout(std430, set = 0, binding = 0) buffer Data { uvec4 m[]; } dat;
layout(std430, set = 0, binding = 1) readonly buffer In {
  uint addr[64];
  uint enabled[64];
  uint data[256];
} inp;
layout(std430, set = 0, binding = 2) buffer Out { uint v[256]; } outp;

void main() {
  uint l = gl_LocalInvocationID.x;
  if (inp.enabled[l] == 0u) return;
  uint i = inp.addr[l] / 16u + OFF / 16u;
#if STORE
  dat.m[i] = uvec4(inp.data[l * 4u], inp.data[l * 4u + 1u], inp.data[l * 4u + 2u],
                   inp.data[l * 4u + 3u]);
#else
  uvec4 r = dat.m[i];
  outp.v[l * 4u] = r.x;
  outp.v[l * 4u + 1u] = r.y;
  outp.v[l * 4u + 2u] = r.z;
  outp.v[l * 4u + 3u] = r.w;
#endif
}
