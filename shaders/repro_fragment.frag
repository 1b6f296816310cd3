#version 450
// `gcnprobe export` (harness/repro): the fragment stage an Amber graphics pipeline must have
// beside the vertex route's shader (shaders/vertex_fetch.vert). gcnprobe's own vertex pipeline
// has no fragment stage (rasterizer discard); what is checked is what the vertex shader stored.
// It writes a constant to the colour attachment Amber adds, so that no attachment is left
// undefined (the validation layer warns about one).
layout(location = 0) out vec4 colour;
void main() { colour = vec4(0.0); }
