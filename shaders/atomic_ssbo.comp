#version 450
// Atomic route, storage buffers (harness/routes/atomic.cpp): lane l performs FN on the
// element of the SSBO at binding 0 at byte address addr[l] + OFF (OFF: specialization
// constant 0, foldable into the MUBUF OFFSET field) and writes the returned pre-op value as
// raw bits to Out (BUFFER_ATOMIC_* with GLC, docs/platform.md "Instruction selection":
// SSBO atomics -> buffer_atomic_*). Operands follow the VDATA layout of the instruction (reference/atomic.h):
// data[l*4 + 0 (..1)] = source, CMPSWAP compare at data[l*4 + WORDS]. NEG = 1: GLSL has no
// atomicSub, the source is negated and added (the case says so: "sub via add(-x)").
// Defines: T (uint, int, uint64_t, int64_t), WIDE (0/1), FN (atomicAdd, ...), CMPSWAP, NEG.
#if WIDE
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#define ESIZE 8u
#define WORDS 2u
#define VALUE(b) T(packUint2x32(uvec2(inp.data[b], inp.data[(b) + 1u])))
#else
#define ESIZE 4u
#define WORDS 1u
#define VALUE(b) T(inp.data[b])
#endif
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint OFF = 0u;

layout(std430, set = 0, binding = 0) buffer Data { T m[]; } dat;
layout(std430, set = 0, binding = 1) readonly buffer In {
  uint addr[64];
  uint enabled[64];
  uint data[256];
} inp;
layout(std430, set = 0, binding = 2) buffer Out { uint v[256]; } outp;

void main() {
  uint l = gl_LocalInvocationID.x;
  if (inp.enabled[l] == 0u) return;
  uint i = inp.addr[l] / ESIZE + OFF / ESIZE;
  T v = VALUE(l * 4u);
#if NEG
  v = -v;
#endif
#if CMPSWAP
  T r = atomicCompSwap(dat.m[i], VALUE(l * 4u + WORDS), v);
#else
  T r = FN(dat.m[i], v);
#endif
#if WIDE
  uvec2 bits = unpackUint2x32(uint64_t(r));
  outp.v[l * 4u] = bits.x;
  outp.v[l * 4u + 1u] = bits.y;
#else
  outp.v[l * 4u] = uint(r);
#endif
}
