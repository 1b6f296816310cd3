// Which descriptor each buffer instruction of a pipeline uses: the ISA check must prove the
// intended instruction on the CASE's buffer, not on the route's own I/O buffers (the routes
// read lane inputs and write results through SSBOs with buffer_load/store_dword too).
//
// In ACO's GFX6-9 code a V# in SRSRC s[a:a+3] is loaded by a scalar memory load (SMRD on
// gfx6/7: OFFSET in dwords, 8-bit immediate or a gfx7 literal; SMEM on gfx8/9: 20-bit byte
// offset; encodings checked with llvm-mc 14, tests/harness/isa/isa_test.cpp) from a 32-bit
// pointer held in a user SGPR: the descriptor set's pointer, or on a vertex shader the
// vertex buffer table's. RADV (radv_descriptor_set.c, radv_CreateDescriptorSetLayout)
// gives storage buffers and uniform/storage texel buffers 16-byte descriptors, 16-byte
// aligned, in binding order (bindings sorted by number); dynamic buffers take 0 bytes (their
// descriptors live in user data instead) and inline uniform blocks their byte size. Our
// routes use neither, so binding b of a set is at byte 16*b, and vertex buffer binding k at
// byte 16*k of the table (radv_cmd_buffer.c, radv_flush_vertex_descriptors).
//
// The trace is a forward data flow over the instruction stream (branches decoded from SOPP,
// states merged at join points): each SGPR holds "argument SGPR i at entry", a constant,
// "dword d of the 16*k-byte-aligned load from pointer argument i", or unknown (the flow itself
// is instruction_effects.h's forwardFlow). Every scalar
// and vector encoding that can write an SGPR either propagates (s_mov_b32/b64 copies, scalar
// loads) or makes its destinations unknown; anything not traced is unknown and never counts
// as proof.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/routes/route.h"
#include "reference/gen.h"

namespace gcnprobe::isa {

// Which argument registers RADV gives one shader stage: the descriptor set 0 pointer and, for
// a vertex shader, the vertex buffer table pointer, the base vertex SGPR and the vertex id
// VGPR (-1: none / not known). Mesa 22.3.6 and 25.0.7 (radv_shader_args.c: ring offsets in
// s[0:1] on GFX6-9; set_vs_specific_input_locs / declare_vs_specific_input_sgprs put the
// vertex buffers pointer and base vertex before the set pointers of a VS), observed in RADV
// null-device listings for our pipelines (one descriptor set, no push constants):
//   GFX6-9 and GFX10+ compute: s2 = set 0;
//   GFX6-9 vertex: s2 = vertex buffers, s3 = base vertex, s4 = set 0, v0 = vertex id;
//   GFX10+ vertex (NGG, run as the merged GS stage: user SGPRs start at s8 after 8 system
//   SGPRs, "For merged shaders the user SGPRs start at 8"): s8 = vertex buffers, s9 = base
//   vertex, s10 = set 0, v5 = vertex id.
struct UserSgprRoles {
  int set0Pointer = -1;
  int vertexBuffersPointer = -1;
  int baseVertexSgpr = -1;
  int vertexIdVgpr = -1;
};
// By the generation and the executable's Vulkan stages
// (VkPipelineExecutablePropertiesKHR::stages; an NGG vertex shader reports VERTEX alone): a
// compute or a vertex shader; other stages or merged stages: no roles. `legacyVertexShader`:
// RADV compiled an RDNA vertex shader without NGG (navi14), with GCN's layout.
UserSgprRoles radvUserSgprRoles(gcn::Gen gen, VkShaderStageFlags stages,
                                bool legacyVertexShader = false);

// The descriptor one buffer instruction uses; `slot` empty when not traced (`why` says why).
struct TracedDescriptor {
  std::optional<routes::BufferSlot> slot;
  std::string why;
  // The value of the instruction's SOFFSET when it names an SGPR or M0 that holds one constant
  // on every path to it (written by s_mov_b32 / s_movk_i32 of a constant, copied by s_mov);
  // nullopt otherwise (an inline constant SOFFSET needs no trace).
  std::optional<uint32_t> soffsetConstant;
};

// The high half RADV gives its 32-bit pointers (descriptor sets, the vertex buffer table):
// 0xffff8000 from GFX9 on, 0 before (see descriptor_trace.cpp).
uint32_t radvAddress32Hi(gcn::Gen gen);

// "set 0 binding 1", "vertex buffer 0".
std::string bufferSlotName(const routes::BufferSlot& s);

// For each SGPR before an instruction: the number of the SGPR whose entry (argument) value it
// holds, through s_mov copies only; -1 when it holds anything else.
using SgprEntryCopies = std::array<int16_t, 128>;

// What one instruction does to SGPRs 0..127 (VCC 106/107, EXEC 126/127) as the trace's transfer
// models it: per SGPR -1 unchanged, j >= 0 now holds the value SGPR j held before (s_mov_b32 /
// s_mov_b64 copies), -2 written with anything else. Implicit writes the trace does not follow
// (EXEC by v_cmpx_* and s_*_saveexec_*, SCC) are not in it: VgprEffects::exec says those.
// Words of no known encoding write every SGPR.
using SgprWrites = std::array<int16_t, 128>;
SgprWrites sgprWrites(gcn::Gen gen, std::span<const uint32_t> words);

// One entry per instruction (`instructions[i]` = the dwords of instruction i, in program
// order, as ACO prints them); entries for non-buffer instructions are untraced with why =
// "not a buffer instruction". Never throws: words that are no encoding of the generation
// make the SGPRs they could write unknown (all of them).
std::vector<TracedDescriptor> traceDescriptors(gcn::Gen gen,
                                               std::span<const std::vector<uint32_t>> instructions,
                                               const UserSgprRoles& roles,
                                               std::vector<SgprEntryCopies>* entryCopies = nullptr);

}  // namespace gcnprobe::isa
