#version 450
// Storage-buffer route (harness/routes/storage.cpp): lane l accesses the SSBO at binding 0
// at byte address addr[l] + OFF (OFF: specialization constant 0, so RADV/ACO can fold it into
// the MUBUF OFFSET field, docs/platform.md "Instruction selection": a constant offset lands in
// the OFFSET field). addr[l] and OFF are multiples of the element size ESIZE. Loads write
// WORDS register values per lane to Out as raw bits; stores write data[l*4 .. l*4+WORDS-1].
// Multi-dword accesses are WORDS adjacent uint elements (not uvec2..4): the byte offset then
// only needs dword alignment like BUFFER_LOAD_DWORDX2..4 (std430 uvec3/uvec4 arrays would
// force 16-byte steps), and each dword is bounds-checked on its own like GCN's per-dword
// range check (AMD RDNA3 ISA). RADV vectorises adjacent loads into DWORDX2..4 (nir load/store
// vectoriser); whether it did is the ISA check's question, not this shader's.
// Defines: STORE (0/1), DTYPE (uint8_t, int8_t, uint16_t, int16_t, uint), SIGNED (0/1),
// ESIZE (bytes of DTYPE), WORDS (1..4, uint only), BITS8 / BITS16 (the storage extensions),
// SOFFSET_PC (0/1): with 1 the byte address is the push constant SOFF for every lane instead
// of addr[l]; a wave-uniform offset is an SGPR, which ACO puts in the instruction's SOFFSET
// with no VADDR (docs/routes.md, "SOFFSET form").
#if BITS8
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#endif
#if BITS16
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#endif
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint OFF = 0u;
#ifndef SOFFSET_PC
#define SOFFSET_PC 0
#endif
#if SOFFSET_PC
// `never` is always 0: its store keeps Data writable in the compiler's eyes, otherwise a
// uniform load from a read-only buffer becomes a scalar (SMEM) load instead of MUBUF.
layout(push_constant) uniform Push { uint soff; uint never; } pc;
#endif

layout(std430, set = 0, binding = 0) buffer Data { DTYPE m[]; } dat;
layout(std430, set = 0, binding = 1) readonly buffer In {
  uint addr[64];
  uint enabled[64];
  uint data[256];
} inp;
layout(std430, set = 0, binding = 2) buffer Out { uint v[256]; } outp;

#if SIGNED
#define TOREG(x) uint(int(x))
#else
#define TOREG(x) uint(x)
#endif

void main() {
  uint l = gl_LocalInvocationID.x;
#if SOFFSET_PC
  if (pc.never != 0u) dat.m[0] = DTYPE(0);
#endif
  if (inp.enabled[l] == 0u) return;
#if SOFFSET_PC
  uint i = pc.soff / ESIZE + OFF / ESIZE;
#else
  uint i = inp.addr[l] / ESIZE + OFF / ESIZE;
#endif
  for (uint k = 0u; k < WORDS; ++k) {
#if STORE
    dat.m[i + k] = DTYPE(inp.data[l * 4u + k]);
#else
    outp.v[l * 4u + k] = TOREG(dat.m[i + k]);
#endif
  }
}
