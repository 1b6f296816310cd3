#version 450
// Binary route template for LDS forms (harness/isa/binary_patch.h, docs/binary.md):
// BUFFER_STORE_LDS_DWORD stores the dword at LDS byte (M0 & 0xffff) + 4 * lane, so the
// template gives the patched instruction an LDS image and a place to set M0.
//  - LDS: the only shared variable (LDS byte 0 on), 1 KiB, filled from In.data before a
//    barrier: LDS byte 4j holds data[j].
//  - The buffer instruction on set 0 binding 0: lane l stores one dword at byte address
//    addr[l] (a multiple of 4): buffer_store_dword with OFFEN. Its data is a neighbour's LDS
//    dword XORed with MARK, a literal no other instruction carries: that XOR is a VOP2 with a
//    32-bit literal (8 bytes) that runs before the store, since the store reads its result.
//    The patch puts s_mov_b32 m0, <value> in its 8 bytes (the patched instruction reads no
//    VDATA, so nothing reads the XOR's register afterwards) and the LDS instruction in the
//    store's.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint OFF = 0u;  // the shared lane-shader layout; unused here

layout(std430, set = 0, binding = 0) buffer Data { uint w[]; } dat;
layout(std430, set = 0, binding = 1) readonly buffer In {
  uint addr[64];
  uint enabled[64];
  uint data[256];
} inp;
layout(std430, set = 0, binding = 2) buffer Out { uint v[256]; } outp;

shared uint lds[256];

const uint MARK = 0x4d30c0deu;  // harness/isa/binary_patch.cpp kLdsTemplateMark

void main() {
  uint l = gl_LocalInvocationID.x;
  for (uint k = 0u; k < 4u; ++k)
    lds[l * 4u + k] = inp.data[l * 4u + k];
  barrier();
  if (inp.enabled[l] != 0u)
    dat.w[inp.addr[l] / 4u + OFF / 4u] = lds[(l * 4u + 4u) & 255u] ^ MARK;
}
