#version 450
// Smallest possible compute shader: proves the Vulkan path end to end (device, pipeline,
// dispatch, readback) before any route is involved. Lane i writes i * 3 + 1.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() { o.v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + 1u; }
