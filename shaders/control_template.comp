#version 450
// The own-program route's template (harness/control/, docs/program.md). RADV compiles it only
// for what gcnprobe's own program needs of the driver: the lane-shader layout (set 0: binding 0
// the case's buffer, 1 In, 2 Out), its argument registers, a register allocation and code room
// large enough for the program, which replaces its code as a whole. So it keeps at least 16
// uniform words in SGPRs (beside three V#s) and 20 lane words in VGPRs at once; what it computes
// is never run.
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
  uvec4 u[4];
  for (int k = 0; k < 4; ++k)
    u[k] = uvec4(inp.addr[4 * k], inp.addr[4 * k + 1], inp.addr[4 * k + 2], inp.addr[4 * k + 3]);
  uvec4 a[4];
  for (int k = 0; k < 4; ++k)
    a[k] = dat.m[inp.addr[l] / 16u + uint(k)];
  for (int k = 0; k < 4; ++k)
    outp.v[l * 4u + uint(k)] = a[0][k] * u[0][k] + a[1][k] * u[1][k] + a[2][k] * u[2][k] +
                               a[3][k] * u[3][k] + inp.data[l * 4u + uint(k)];
}
