// code_scan: instruction classes and lengths of GFX6-GFX11 code. Golden words come from
// llvm-mc 14 for GCN and llvm-mc 15 for RDNA (`llvm-mc -arch=amdgcn -mcpu=<cpu>
// -show-encoding`, the byte lists read as little-endian dwords); the length of each golden is
// the number of bytes llvm-mc printed / 4. A live test re-assembles the same texts when
// llvm-mc (and llvm-mc-15) is installed.
#include "reference/code_scan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "reference/error.h"

namespace code_scan_test {

using gcn::CodeClass;
using gcn::Gen;

struct Golden {
  const char* text;  // as given to llvm-mc
  std::vector<uint32_t> words;
  CodeClass cls;
};

// llvm-mc -mcpu=tahiti (gfx6) and -mcpu=bonaire (gfx7) print identical words for these.
const std::vector<Golden> kGfx6And7 = {
    {"s_mov_b32 s0, s1", {0xbe800301}, CodeClass::Sop1},
    {"s_mov_b32 s0, 0x12345678", {0xbe8003ff, 0x12345678}, CodeClass::Sop1},
    {"s_mov_b32 m0, 0x12345678", {0xbefc03ff, 0x12345678}, CodeClass::Sop1},
    {"s_add_u32 s0, s1, s2", {0x80000201}, CodeClass::Sop2},
    {"s_add_u32 s0, 0x12345678, s2", {0x800002ff, 0x12345678}, CodeClass::Sop2},
    {"s_add_u32 s0, s2, 0x12345678", {0x8000ff02, 0x12345678}, CodeClass::Sop2},
    {"s_movk_i32 s0, 0x1234", {0xb0001234}, CodeClass::Sopk},
    {"s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x3", {0xba80f801, 0x00000003}, CodeClass::Sopk},
    {"s_cmp_eq_u32 s0, s1", {0xbf060100}, CodeClass::Sopc},
    {"s_cmp_eq_u32 s0, 0x12345678", {0xbf06ff00, 0x12345678}, CodeClass::Sopc},
    {"s_nop 0", {0xbf800000}, CodeClass::Sopp},
    {"s_endpgm", {0xbf810000}, CodeClass::Sopp},
    {"s_load_dwordx4 s[4:7], s[2:3], 0x1", {0xc0820301}, CodeClass::Smrd},
    {"v_mov_b32 v0, v1", {0x7e000301}, CodeClass::Vop1},
    {"v_mov_b32 v0, 0x12345678", {0x7e0002ff, 0x12345678}, CodeClass::Vop1},
    {"v_add_f32 v0, v1, v2", {0x06000501}, CodeClass::Vop2},
    {"v_add_f32 v0, 0x12345678, v2", {0x060004ff, 0x12345678}, CodeClass::Vop2},
    {"v_madmk_f32 v0, v1, 0x41200000, v2", {0x40000501, 0x41200000}, CodeClass::Vop2},
    {"v_madak_f32 v0, v1, v2, 0x41200000", {0x42000501, 0x41200000}, CodeClass::Vop2},
    {"v_cmp_eq_f32 vcc, v1, v2", {0x7c040501}, CodeClass::Vopc},
    {"v_cmp_eq_f32 vcc, 0x12345678, v2", {0x7c0404ff, 0x12345678}, CodeClass::Vopc},
    {"v_mad_f32 v0, v1, v2, v3", {0xd2820000, 0x040e0501}, CodeClass::Vop3},
    {"v_interp_p1_f32 v0, v1, attr0.x", {0xc8000001}, CodeClass::Vintrp},
    {"ds_read_b32 v0, v1", {0xd8d80000, 0x00000001}, CodeClass::Ds},
    {"buffer_load_dword v0, v1, s[4:7], 0 offen", {0xe0301000, 0x80010001}, CodeClass::Mubuf},
    {"tbuffer_load_format_x v0, v1, s[4:7], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] "
     "idxen",
     {0xeba02000, 0x80010001},
     CodeClass::Mtbuf},
    {"image_load v[0:3], v[0:3], s[4:11] dmask:0xf", {0xf0000f00, 0x00010000}, CodeClass::Mimg},
    {"exp mrt0 v0, v0, v0, v0", {0xf800000f, 0x00000000}, CodeClass::Exp},
};

// -mcpu=bonaire only: FLAT and the SMRD literal offset are new in gfx7.
const std::vector<Golden> kGfx7Only = {
    {"flat_load_dword v0, v[0:1]", {0xdc300000, 0x00000000}, CodeClass::Flat},
    {"s_load_dword s0, s[2:3], 0x12345", {0xc00002ff, 0x00012345}, CodeClass::Smrd},
};

// -mcpu=tonga (gfx8) and -mcpu=gfx900 (gfx9) print identical words for these.
const std::vector<Golden> kGfx8And9 = {
    {"s_mov_b32 s0, 0x12345678", {0xbe8000ff, 0x12345678}, CodeClass::Sop1},
    {"s_mov_b32 m0, 0x12345678", {0xbefc00ff, 0x12345678}, CodeClass::Sop1},
    {"s_add_u32 s0, s2, 0x12345678", {0x8000ff02, 0x12345678}, CodeClass::Sop2},
    {"s_movk_i32 s0, 0x1234", {0xb0001234}, CodeClass::Sopk},
    {"s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x3", {0xba00f801, 0x00000003}, CodeClass::Sopk},
    {"s_cmp_eq_u32 s0, 0x12345678", {0xbf06ff00, 0x12345678}, CodeClass::Sopc},
    {"s_endpgm", {0xbf810000}, CodeClass::Sopp},
    {"s_load_dwordx4 s[4:7], s[2:3], 0x1", {0xc00a0101, 0x00000001}, CodeClass::Smem},
    {"v_mov_b32 v0, 0x12345678", {0x7e0002ff, 0x12345678}, CodeClass::Vop1},
    {"v_add_f32 v0, v1, v2", {0x02000501}, CodeClass::Vop2},
    {"v_add_f32 v0, 0x12345678, v2", {0x020004ff, 0x12345678}, CodeClass::Vop2},
    {"v_madmk_f32 v0, v1, 0x41200000, v2", {0x2e000501, 0x41200000}, CodeClass::Vop2},
    {"v_madak_f32 v0, v1, v2, 0x41200000", {0x30000501, 0x41200000}, CodeClass::Vop2},
    {"v_madmk_f16 v0, v1, 0x4120, v2", {0x48000501, 0x00004120}, CodeClass::Vop2},
    {"v_cmp_eq_f32 vcc, 0x12345678, v2", {0x7c8404ff, 0x12345678}, CodeClass::Vopc},
    {"v_mad_f32 v0, v1, v2, v3", {0xd1c10000, 0x040e0501}, CodeClass::Vop3},
    {"v_interp_p1_f32 v0, v1, attr0.x", {0xd4000001}, CodeClass::Vintrp},
    {"ds_read_b32 v0, v1", {0xd86c0000, 0x00000001}, CodeClass::Ds},
    {"flat_load_dword v0, v[0:1]", {0xdc500000, 0x00000000}, CodeClass::Flat},
    {"buffer_load_dword v0, v1, s[4:7], 0 offen", {0xe0501000, 0x80010001}, CodeClass::Mubuf},
    {"tbuffer_load_format_x v0, v1, s[4:7], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] "
     "idxen",
     {0xeba02000, 0x80010001},
     CodeClass::Mtbuf},
    {"image_load v[0:3], v[0:3], s[4:11] dmask:0xf", {0xf0000f00, 0x00010000}, CodeClass::Mimg},
    {"exp mrt0 v0, v0, v0, v0", {0xc400000f, 0x00000000}, CodeClass::Exp},
    {"v_mov_b32_sdwa v0, v1 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD",
     {0x7e0002f9, 0x00060001},
     CodeClass::Vop1},
    {"v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
     {0x7e0002fa, 0xff00e401},
     CodeClass::Vop1},
    {"v_add_f32_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 "
     "src1_sel:DWORD",
     {0x020004f9, 0x06050601},
     CodeClass::Vop2},
    {"v_cmp_eq_f32_sdwa vcc, v1, v2 src0_sel:WORD_1 src1_sel:DWORD",
     {0x7c8404f9, 0x06050001},
     CodeClass::Vopc},
};

// -mcpu=gfx900 only.
const std::vector<Golden> kGfx9Only = {
    {"global_load_dword v0, v[0:1], off", {0xdc508000, 0x007f0000}, CodeClass::Flat},
    {"v_add_u32 v0, 0x12345678, v1", {0x680002ff, 0x12345678}, CodeClass::Vop2},
    {"s_load_dword s0, s[2:3], s4", {0xc0000001, 0x00000004}, CodeClass::Smem},
};

// -mcpu=gfx1010 (llvm-mc 15).
const std::vector<Golden> kGfx10 = {
    {"s_mov_b32 s0, s1", {0xbe800301}, CodeClass::Sop1},
    {"s_mov_b32 s0, 0x12345678", {0xbe8003ff, 0x12345678}, CodeClass::Sop1},
    {"s_mov_b32 m0, 0x12345678", {0xbefc03ff, 0x12345678}, CodeClass::Sop1},
    {"s_add_u32 s0, s2, 0x12345678", {0x8000ff02, 0x12345678}, CodeClass::Sop2},
    {"s_movk_i32 s0, 0x1234", {0xb0001234}, CodeClass::Sopk},
    {"s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x3", {0xba80f801, 0x00000003}, CodeClass::Sopk},
    {"s_cmp_eq_u32 s0, 0x12345678", {0xbf06ff00, 0x12345678}, CodeClass::Sopc},
    {"s_endpgm", {0xbf810000}, CodeClass::Sopp},
    {"s_load_dwordx4 s[4:7], s[2:3], 0x10", {0xf4080101, 0xfa000010}, CodeClass::Smem},
    {"s_load_dword s0, s[2:3], s4", {0xf4000001, 0x08000000}, CodeClass::Smem},
    {"v_mov_b32 v0, v1", {0x7e000301}, CodeClass::Vop1},
    {"v_mov_b32 v0, 0x12345678", {0x7e0002ff, 0x12345678}, CodeClass::Vop1},
    {"v_add_f32 v0, 0x12345678, v2", {0x060004ff, 0x12345678}, CodeClass::Vop2},
    {"v_fmamk_f32 v0, v1, 0x41200000, v2", {0x58000501, 0x41200000}, CodeClass::Vop2},
    {"v_fmaak_f32 v0, v1, v2, 0x41200000", {0x5a000501, 0x41200000}, CodeClass::Vop2},
    {"v_fmamk_f16 v0, v1, 0x4120, v2", {0x6e000501, 0x00004120}, CodeClass::Vop2},
    {"v_fmaak_f16 v0, v1, v2, 0x4120", {0x70000501, 0x00004120}, CodeClass::Vop2},
    {"v_cmp_eq_f32 vcc_lo, 0x12345678, v2", {0x7c0404ff, 0x12345678}, CodeClass::Vopc},
    {"v_fma_f32 v0, v1, v2, v3", {0xd54b0000, 0x040e0501}, CodeClass::Vop3},
    {"v_fma_f32 v0, v1, 0x12345678, v3", {0xd54b0000, 0x040dff01, 0x12345678}, CodeClass::Vop3},
    {"v_fma_f32 v0, v1, v2, 0x12345678", {0xd54b0000, 0x03fe0501, 0x12345678}, CodeClass::Vop3},
    {"v_add_f32_e64 v0, 0x12345678, v2", {0xd5030000, 0x000204ff, 0x12345678}, CodeClass::Vop3},
    {"v_cmp_eq_f32_e64 s0, v1, v2", {0xd4020000, 0x00020501}, CodeClass::Vop3},
    {"v_pk_add_f16 v0, v1, v2", {0xcc0f4000, 0x18020501}, CodeClass::Vop3p},
    {"v_pk_add_f16 v0, 0x12345678, v2", {0xcc0f4000, 0x180204ff, 0x12345678}, CodeClass::Vop3p},
    {"ds_read_b32 v0, v1", {0xd8d80000, 0x00000001}, CodeClass::Ds},
    {"global_load_dword v0, v[0:1], off", {0xdc308000, 0x007d0000}, CodeClass::Flat},
    {"buffer_load_dword v0, v1, s[4:7], 0 offen", {0xe0301000, 0x80010001}, CodeClass::Mubuf},
    {"tbuffer_load_format_x v0, v1, s[4:7], 0 format:[BUF_FMT_32_FLOAT] idxen",
     {0xe8b02000, 0x80010001},
     CodeClass::Mtbuf},
    {"image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D",
     {0xf0000f00, 0x00000000},
     CodeClass::Mimg},
    {"image_sample v[0:3], [v0, v2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D",
     {0xf0800f0a, 0x00400000, 0x00000002},
     CodeClass::Mimg},
    {"exp mrt0 v0, v0, v0, v0", {0xf800000f, 0x00000000}, CodeClass::Exp},
    {"v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
     {0x7e0002fa, 0xff00e401},
     CodeClass::Vop1},
    {"v_mov_b32_dpp v0, v1 dpp8:[0,1,2,3,4,5,6,7]", {0x7e0002e9, 0xfac68801}, CodeClass::Vop1},
    {"v_mov_b32_dpp v0, v1 dpp8:[0,1,2,3,4,5,6,7] fi:1", {0x7e0002ea, 0xfac68801}, CodeClass::Vop1},
    {"v_add_f32_dpp v0, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
     {0x060004fa, 0xff00e401},
     CodeClass::Vop2},
    {"v_madmk_f32 v0, v1, 0x41200000, v2", {0x40000501, 0x41200000}, CodeClass::Vop2},
    {"v_madak_f32 v0, v1, v2, 0x41200000", {0x42000501, 0x41200000}, CodeClass::Vop2},
    {"v_interp_p1_f32 v0, v1, attr0.x", {0xc8000001}, CodeClass::Vintrp},
    {"v_mov_b32_sdwa v0, v1 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD",
     {0x7e0002f9, 0x00060001},
     CodeClass::Vop1},
    {"v_cmp_eq_f32_sdwa vcc_lo, v1, v2 src0_sel:WORD_1 src1_sel:DWORD",
     {0x7c0404f9, 0x06050001},
     CodeClass::Vopc},
    {"image_sample_c_d v[0:3], [v0, v1, v2, v3, v4, v5, v6], s[0:7], s[8:11] dmask:0xf "
     "dim:SQ_RSRC_IMG_2D",
     {0xf0a80f0c, 0x00400000, 0x04030201, 0x00000605},
     CodeClass::Mimg},
    {"image_sample_c_d_o v[0:3], [v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10], s[0:7], s[8:11] "
     "dmask:0xf dim:SQ_RSRC_IMG_3D",
     {0xf0e80f16, 0x00400000, 0x04030201, 0x08070605, 0x00000a09},
     CodeClass::Mimg},
};

// -mcpu=gfx1030 (llvm-mc 15).
const std::vector<Golden> kGfx10_3 = {
    {"s_mov_b32 s0, s1", {0xbe800301}, CodeClass::Sop1},
    {"s_mov_b32 s0, 0x12345678", {0xbe8003ff, 0x12345678}, CodeClass::Sop1},
    {"s_mov_b32 m0, 0x12345678", {0xbefc03ff, 0x12345678}, CodeClass::Sop1},
    {"s_add_u32 s0, s2, 0x12345678", {0x8000ff02, 0x12345678}, CodeClass::Sop2},
    {"s_movk_i32 s0, 0x1234", {0xb0001234}, CodeClass::Sopk},
    {"s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x3", {0xba80f801, 0x00000003}, CodeClass::Sopk},
    {"s_cmp_eq_u32 s0, 0x12345678", {0xbf06ff00, 0x12345678}, CodeClass::Sopc},
    {"s_endpgm", {0xbf810000}, CodeClass::Sopp},
    {"s_load_dwordx4 s[4:7], s[2:3], 0x10", {0xf4080101, 0xfa000010}, CodeClass::Smem},
    {"s_load_dword s0, s[2:3], s4", {0xf4000001, 0x08000000}, CodeClass::Smem},
    {"v_mov_b32 v0, v1", {0x7e000301}, CodeClass::Vop1},
    {"v_mov_b32 v0, 0x12345678", {0x7e0002ff, 0x12345678}, CodeClass::Vop1},
    {"v_add_f32 v0, 0x12345678, v2", {0x060004ff, 0x12345678}, CodeClass::Vop2},
    {"v_fmamk_f32 v0, v1, 0x41200000, v2", {0x58000501, 0x41200000}, CodeClass::Vop2},
    {"v_fmaak_f32 v0, v1, v2, 0x41200000", {0x5a000501, 0x41200000}, CodeClass::Vop2},
    {"v_fmamk_f16 v0, v1, 0x4120, v2", {0x6e000501, 0x00004120}, CodeClass::Vop2},
    {"v_fmaak_f16 v0, v1, v2, 0x4120", {0x70000501, 0x00004120}, CodeClass::Vop2},
    {"v_cmp_eq_f32 vcc_lo, 0x12345678, v2", {0x7c0404ff, 0x12345678}, CodeClass::Vopc},
    {"v_fma_f32 v0, v1, v2, v3", {0xd54b0000, 0x040e0501}, CodeClass::Vop3},
    {"v_fma_f32 v0, v1, 0x12345678, v3", {0xd54b0000, 0x040dff01, 0x12345678}, CodeClass::Vop3},
    {"v_fma_f32 v0, v1, v2, 0x12345678", {0xd54b0000, 0x03fe0501, 0x12345678}, CodeClass::Vop3},
    {"v_add_f32_e64 v0, 0x12345678, v2", {0xd5030000, 0x000204ff, 0x12345678}, CodeClass::Vop3},
    {"v_cmp_eq_f32_e64 s0, v1, v2", {0xd4020000, 0x00020501}, CodeClass::Vop3},
    {"v_pk_add_f16 v0, v1, v2", {0xcc0f4000, 0x18020501}, CodeClass::Vop3p},
    {"v_pk_add_f16 v0, 0x12345678, v2", {0xcc0f4000, 0x180204ff, 0x12345678}, CodeClass::Vop3p},
    {"ds_read_b32 v0, v1", {0xd8d80000, 0x00000001}, CodeClass::Ds},
    {"global_load_dword v0, v[0:1], off", {0xdc308000, 0x007d0000}, CodeClass::Flat},
    {"buffer_load_dword v0, v1, s[4:7], 0 offen", {0xe0301000, 0x80010001}, CodeClass::Mubuf},
    {"tbuffer_load_format_x v0, v1, s[4:7], 0 format:[BUF_FMT_32_FLOAT] idxen",
     {0xe8b02000, 0x80010001},
     CodeClass::Mtbuf},
    {"image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D",
     {0xf0000f00, 0x00000000},
     CodeClass::Mimg},
    {"image_sample v[0:3], [v0, v2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D",
     {0xf0800f0a, 0x00400000, 0x00000002},
     CodeClass::Mimg},
    {"exp mrt0 v0, v0, v0, v0", {0xf800000f, 0x00000000}, CodeClass::Exp},
    {"v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
     {0x7e0002fa, 0xff00e401},
     CodeClass::Vop1},
    {"v_mov_b32_dpp v0, v1 dpp8:[0,1,2,3,4,5,6,7]", {0x7e0002e9, 0xfac68801}, CodeClass::Vop1},
    {"v_mov_b32_dpp v0, v1 dpp8:[0,1,2,3,4,5,6,7] fi:1", {0x7e0002ea, 0xfac68801}, CodeClass::Vop1},
    {"v_add_f32_dpp v0, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
     {0x060004fa, 0xff00e401},
     CodeClass::Vop2},
    {"v_interp_p1_f32 v0, v1, attr0.x", {0xc8000001}, CodeClass::Vintrp},
    {"v_mov_b32_sdwa v0, v1 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD",
     {0x7e0002f9, 0x00060001},
     CodeClass::Vop1},
    {"v_cmp_eq_f32_sdwa vcc_lo, v1, v2 src0_sel:WORD_1 src1_sel:DWORD",
     {0x7c0404f9, 0x06050001},
     CodeClass::Vopc},
    {"image_sample_c_d v[0:3], [v0, v1, v2, v3, v4, v5, v6], s[0:7], s[8:11] dmask:0xf "
     "dim:SQ_RSRC_IMG_2D",
     {0xf0a80f0c, 0x00400000, 0x04030201, 0x00000605},
     CodeClass::Mimg},
    {"image_sample_c_d_o v[0:3], [v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10], s[0:7], s[8:11] "
     "dmask:0xf dim:SQ_RSRC_IMG_3D",
     {0xf0e80f16, 0x00400000, 0x04030201, 0x08070605, 0x00000a09},
     CodeClass::Mimg},
};

// -mcpu=gfx1100 (llvm-mc 15).
const std::vector<Golden> kGfx11 = {
    {"s_mov_b32 s0, s1", {0xbe800001}, CodeClass::Sop1},
    {"s_mov_b32 s0, 0x12345678", {0xbe8000ff, 0x12345678}, CodeClass::Sop1},
    {"s_mov_b32 m0, 0x12345678", {0xbefd00ff, 0x12345678}, CodeClass::Sop1},
    {"s_add_u32 s0, s2, 0x12345678", {0x8000ff02, 0x12345678}, CodeClass::Sop2},
    {"s_movk_i32 s0, 0x1234", {0xb0001234}, CodeClass::Sopk},
    {"s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x3", {0xb980f801, 0x00000003}, CodeClass::Sopk},
    {"s_cmp_eq_u32 s0, 0x12345678", {0xbf06ff00, 0x12345678}, CodeClass::Sopc},
    {"s_endpgm", {0xbfb00000}, CodeClass::Sopp},
    {"s_load_dwordx4 s[4:7], s[2:3], 0x10", {0xf4080101, 0xf8000010}, CodeClass::Smem},
    {"s_load_dword s0, s[2:3], s4", {0xf4000001, 0x08000000}, CodeClass::Smem},
    {"v_mov_b32 v0, v1", {0x7e000301}, CodeClass::Vop1},
    {"v_mov_b32 v0, 0x12345678", {0x7e0002ff, 0x12345678}, CodeClass::Vop1},
    {"v_add_f32 v0, 0x12345678, v2", {0x060004ff, 0x12345678}, CodeClass::Vop2},
    {"v_fmamk_f32 v0, v1, 0x41200000, v2", {0x58000501, 0x41200000}, CodeClass::Vop2},
    {"v_fmaak_f32 v0, v1, v2, 0x41200000", {0x5a000501, 0x41200000}, CodeClass::Vop2},
    {"v_fmamk_f16 v0, v1, 0x4120, v2", {0x6e000501, 0x00004120}, CodeClass::Vop2},
    {"v_fmaak_f16 v0, v1, v2, 0x4120", {0x70000501, 0x00004120}, CodeClass::Vop2},
    {"v_cmp_eq_f32 vcc_lo, 0x12345678, v2", {0x7c2404ff, 0x12345678}, CodeClass::Vopc},
    {"v_fma_f32 v0, v1, v2, v3", {0xd6130000, 0x040e0501}, CodeClass::Vop3},
    {"v_fma_f32 v0, v1, 0x12345678, v3", {0xd6130000, 0x040dff01, 0x12345678}, CodeClass::Vop3},
    {"v_fma_f32 v0, v1, v2, 0x12345678", {0xd6130000, 0x03fe0501, 0x12345678}, CodeClass::Vop3},
    {"v_add_f32_e64 v0, 0x12345678, v2", {0xd5030000, 0x000204ff, 0x12345678}, CodeClass::Vop3},
    {"v_cmp_eq_f32_e64 s0, v1, v2", {0xd4120000, 0x00020501}, CodeClass::Vop3},
    {"v_pk_add_f16 v0, v1, v2", {0xcc0f4000, 0x18020501}, CodeClass::Vop3p},
    {"v_pk_add_f16 v0, 0x12345678, v2", {0xcc0f4000, 0x180204ff, 0x12345678}, CodeClass::Vop3p},
    {"ds_read_b32 v0, v1", {0xd8d80000, 0x00000001}, CodeClass::Ds},
    {"global_load_dword v0, v[0:1], off", {0xdc520000, 0x007c0000}, CodeClass::Flat},
    {"buffer_load_dword v0, v1, s[4:7], 0 offen", {0xe0500000, 0x80410001}, CodeClass::Mubuf},
    {"tbuffer_load_format_x v0, v1, s[4:7], 0 format:[BUF_FMT_32_FLOAT] idxen",
     {0xe8b00000, 0x80810001},
     CodeClass::Mtbuf},
    {"image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D",
     {0xf0000f00, 0x00000000},
     CodeClass::Mimg},
    {"image_sample v[0:3], [v0, v2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D",
     {0xf06c0f05, 0x08000000, 0x00000002},
     CodeClass::Mimg},
    {"exp mrt0 v0, v0, v0, v0", {0xf800000f, 0x00000000}, CodeClass::Exp},
    {"v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
     {0x7e0002fa, 0xff00e401},
     CodeClass::Vop1},
    {"v_mov_b32_dpp v0, v1 dpp8:[0,1,2,3,4,5,6,7]", {0x7e0002e9, 0xfac68801}, CodeClass::Vop1},
    {"v_mov_b32_dpp v0, v1 dpp8:[0,1,2,3,4,5,6,7] fi:1", {0x7e0002ea, 0xfac68801}, CodeClass::Vop1},
    {"v_add_f32_dpp v0, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
     {0x060004fa, 0xff00e401},
     CodeClass::Vop2},
    {"v_interp_p10_f32 v0, v1, v2, v3", {0xcd000000, 0x040e0501}, CodeClass::Vinterp},
    {"lds_param_load v0, attr0.x", {0xce000000}, CodeClass::Ldsdir},
    {"v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v4", {0xca100101, 0x00020104}, CodeClass::Vopd},
    {"v_dual_mov_b32 v0, 0x12345678 :: v_dual_mov_b32 v3, v4",
     {0xca1000ff, 0x00020104, 0x12345678},
     CodeClass::Vopd},
    {"v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, 0x12345678",
     {0xca100101, 0x000200ff, 0x12345678},
     CodeClass::Vopd},
    {"v_dual_fmaak_f32 v0, v1, v2, 0x1234 :: v_dual_mov_b32 v3, v4",
     {0xc8500501, 0x00020104, 0x00001234},
     CodeClass::Vopd},
    {"v_dual_mov_b32 v0, v1 :: v_dual_fmamk_f32 v3, v4, 0x1234, v5",
     {0xca040101, 0x00020b04, 0x00001234},
     CodeClass::Vopd},
    {"v_add_f32_e64_dpp v0, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
     {0xd5030000, 0x000204fa, 0xff00e401},
     CodeClass::Vop3},
    {"v_add_f32_e64_dpp v0, v1, v2 dpp8:[0,1,2,3,4,5,6,7]",
     {0xd5030000, 0x000204e9, 0xfac68801},
     CodeClass::Vop3},
    {"image_sample_c v[0:3], [v0, v1, v2, v3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY",
     {0xf0800f15, 0x08000000, 0x00030201},
     CodeClass::Mimg},
};

std::vector<Golden> goldens(Gen gen) {
  if (gen == Gen::Gfx10) return kGfx10;
  if (gen == Gen::Gfx10_3) return kGfx10_3;
  if (gen == Gen::Gfx11) return kGfx11;
  std::vector<Golden> out = (gen == Gen::Gfx6 || gen == Gen::Gfx7) ? kGfx6And7 : kGfx8And9;
  if (gen == Gen::Gfx7) out.insert(out.end(), kGfx7Only.begin(), kGfx7Only.end());
  if (gen == Gen::Gfx9) out.insert(out.end(), kGfx9Only.begin(), kGfx9Only.end());
  return out;
}

class CodeScanGen : public ::testing::TestWithParam<Gen> {};

TEST_P(CodeScanGen, EachGoldenHasLlvmMcLengthAndClass) {
  const Gen gen = GetParam();
  for (const Golden& g : goldens(gen)) {
    SCOPED_TRACE(g.text);
    const gcn::CodeInstruction ci = gcn::scanInstruction(gen, g.words, 0);
    EXPECT_EQ(ci.dwords, g.words.size());
    EXPECT_EQ(gcn::codeClassName(ci.cls), gcn::codeClassName(g.cls));
    EXPECT_EQ(ci.offset, 0u);
  }
}

// All goldens of a generation back to back: the scan must land on every boundary.
TEST_P(CodeScanGen, StreamSplitsAtEveryGoldenBoundary) {
  const Gen gen = GetParam();
  std::vector<uint32_t> stream;
  std::vector<std::size_t> starts;
  for (const Golden& g : goldens(gen)) {
    starts.push_back(stream.size());
    stream.insert(stream.end(), g.words.begin(), g.words.end());
  }
  const auto code = gcn::scanCode(gen, stream);
  ASSERT_EQ(code.size(), starts.size());
  for (std::size_t i = 0; i < code.size(); ++i)
    EXPECT_EQ(code[i].offset, starts[i]) << goldens(gen)[i].text;
}

TEST_P(CodeScanGen, TruncatedLiteralIsAnErrorNamingTheOffset) {
  const Gen gen = GetParam();
  const uint32_t words[] = {0xbf800000, 0x7e0002ff};  // s_nop 0; v_mov_b32 v0, <literal missing>
  try {
    gcn::scanCode(gen, words);
    FAIL() << "no error";
  } catch (const gcn::Error& e) {
    EXPECT_NE(e.reason().find("dword 1"), std::string::npos) << e.what();
    EXPECT_NE(e.reason().find("vop1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(gcn::scanInstruction(gen, words, 2), gcn::Error);
}

INSTANTIATE_TEST_SUITE_P(AllGens, CodeScanGen, ::testing::ValuesIn(gcn::kAllGens),
                         [](const auto& p) {
                           std::string name(gcn::genName(p.param));
                           std::replace(name.begin(), name.end(), '.', '_');
                           return name;
                         });

// Encodings that do not exist on a generation: FLAT (110111) before gfx7, gfx8's VINTRP
// (110101) on gfx6, gfx6's EXP (111110) and VINTRP (110010) on gfx8. (gfx8's EXP, 110001,
// is an SMRD word on gfx6: SMRD is [31:27] = 11000.)
TEST(CodeScan, EncodingsAbsentOnAGenerationAreErrors) {
  const uint32_t flat[] = {0xdc300000, 0};
  EXPECT_THROW(gcn::scanInstruction(Gen::Gfx6, flat, 0), gcn::Error);
  EXPECT_NO_THROW(gcn::scanInstruction(Gen::Gfx7, flat, 0));
  const uint32_t vintrp8[] = {0xd4000001};
  EXPECT_THROW(gcn::scanInstruction(Gen::Gfx6, vintrp8, 0), gcn::Error);
  const uint32_t exp8[] = {0xc400000f, 0};
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx6, exp8, 0).cls, CodeClass::Smrd);
  const uint32_t exp6[] = {0xf800000f, 0};
  EXPECT_THROW(gcn::scanInstruction(Gen::Gfx8, exp6, 0), gcn::Error);
  const uint32_t vintrp6[] = {0xc8000001};
  EXPECT_THROW(gcn::scanInstruction(Gen::Gfx9, vintrp6, 0), gcn::Error);
}

// The encoder writes what llvm-mc assembles for "s_mov_b32 <sdst>, 0x12345678" (the goldens
// above, with SDST s0 and m0).
TEST_P(CodeScanGen, SMovB32LiteralEncodesAsLlvmMc) {
  const Gen gen = GetParam();
  int checked = 0;
  // M0 is SGPR code 124, except on GFX11, which swapped it with NULL (llvm-mc's 0xbefd00ff).
  const unsigned m0 = gen == Gen::Gfx11 ? 125u : 124u;
  for (const Golden& g : goldens(gen)) {
    const std::string text(g.text);
    for (const auto& [name, sdst] :
         {std::pair{"s_mov_b32 s0, 0x12345678", 0u}, std::pair{"s_mov_b32 m0, 0x12345678", m0}})
      if (text == name) {
        const auto w = gcn::encodeSMovB32Literal(gen, sdst, 0x12345678);
        EXPECT_EQ(std::vector<uint32_t>(w.begin(), w.end()), g.words) << text;
        ++checked;
      }
  }
  EXPECT_EQ(checked, 2);
  EXPECT_THROW((void)gcn::encodeSMovB32Literal(gen, 128, 0), gcn::Error);
}

// The gfx7 literal offset needs IMM = 0: with IMM = 1, OFFSET 255 is an immediate
// (llvm-mc -mcpu=bonaire: s_load_dword s0, s[2:3], 0xff -> 0xc00003ff, 4 bytes) and gfx6
// has no literal form at all.
TEST(CodeScan, SmrdLiteralOnlyOnGfx7WithImmClear) {
  const uint32_t imm[] = {0xc00003ff};
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx7, imm, 0).dwords, 1u);
  const uint32_t lit[] = {0xc00002ff, 0x12345};
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx7, lit, 0).dwords, 2u);
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx6, lit, 0).dwords, 1u);
}

// Live: llvm-mc assembles every golden text again and the scan agrees with its byte count
// (llvm-mc 14 for GCN; llvm-mc-15, the first Debian LLVM with GFX11, for RDNA).
TEST(CodeScan, LiveLlvmMcAgrees) {
  if (std::system("llvm-mc --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "llvm-mc missing";
  const bool haveMc15 = std::system("llvm-mc-15 --version >/dev/null 2>&1") == 0;
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  for (const Gen gen : gcn::kAllGens) {
    if (gcn::isRdna(gen) && !haveMc15) continue;  // reported below
    const std::string mc = gcn::isRdna(gen) ? "llvm-mc-15" : "llvm-mc";
    const std::string cpu(gcn::representativeChip(gen).llvmCpu);
    const auto src = dir / ("gcnprobe_code_scan_" + cpu + ".s");
    {
      std::ofstream f(src);
      for (const Golden& g : goldens(gen))
        f << g.text << "\n";
    }
    const std::string cmd =
        mc + " -arch=amdgcn -mcpu=" + cpu + " -show-encoding " + src.string() + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::vector<uint32_t> stream;
    std::vector<std::size_t> lengths;
    char line[1024];
    while (std::fgets(line, sizeof line, p) != nullptr) {
      const std::string s(line);
      const auto at = s.find("encoding: [");
      if (at == std::string::npos) continue;
      std::istringstream bytes(s.substr(at + 11));
      std::vector<uint8_t> b;
      std::string tok;
      while (std::getline(bytes, tok, ','))
        b.push_back(static_cast<uint8_t>(std::stoul(tok, nullptr, 16)));
      lengths.push_back(b.size() / 4);
      for (std::size_t i = 0; i + 3 < b.size(); i += 4)
        stream.push_back(b[i] | b[i + 1] << 8 | b[i + 2] << 16 |
                         static_cast<uint32_t>(b[i + 3]) << 24);
    }
    pclose(p);
    std::filesystem::remove(src);
    SCOPED_TRACE(cpu);
    ASSERT_EQ(lengths.size(), goldens(gen).size());
    const auto code = gcn::scanCode(gen, stream);
    ASSERT_EQ(code.size(), lengths.size());
    for (std::size_t i = 0; i < code.size(); ++i) {
      EXPECT_EQ(code[i].dwords, lengths[i]) << goldens(gen)[i].text;
      // The golden words are exactly what llvm-mc prints today.
      EXPECT_EQ(std::vector<uint32_t>(stream.begin() + code[i].offset,
                                      stream.begin() + code[i].offset + code[i].dwords),
                goldens(gen)[i].words)
          << goldens(gen)[i].text;
    }
  }
  if (!haveMc15) GTEST_SKIP() << "llvm-mc-15 missing: the RDNA goldens were not re-assembled";
}

// RDNA moved VOP3 from 110100 (GCN) to 110101 and SMEM from 110000 to 111101; 110010 is
// VINTRP on gfx10/10.3 and VOPD on gfx11; 110011 01 / 110011 10 (VINTERP, LDSDIR) exist only
// on gfx11 (llvm-mc-15 -disassemble: "invalid instruction encoding" elsewhere).
TEST(CodeScan, RdnaEncodingsByGeneration) {
  const uint32_t gcnVop3[] = {0xd0000000, 0};
  EXPECT_THROW(gcn::scanInstruction(Gen::Gfx10, gcnVop3, 0), gcn::Error);
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx9, gcnVop3, 0).cls, CodeClass::Vop3);
  const uint32_t x32[] = {0xc8000000, 0x00000000};
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx10_3, x32, 0).cls, CodeClass::Vintrp);
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx10_3, x32, 0).dwords, 1u);
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx11, x32, 0).cls, CodeClass::Vopd);
  const uint32_t ldsdir[] = {0xce000000};
  EXPECT_THROW(gcn::scanInstruction(Gen::Gfx10, ldsdir, 0), gcn::Error);
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx11, ldsdir, 0).cls, CodeClass::Ldsdir);
  const uint32_t cf[] = {0xcf000000, 0};
  EXPECT_THROW(gcn::scanInstruction(Gen::Gfx11, cf, 0), gcn::Error);
  // gfx10's v_madmk_f32 carries K; the opcode means something else after gfx10.
  const uint32_t madmk[] = {0x40000501, 0x41200000};
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx10, madmk, 0).dwords, 2u);
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx10_3, madmk, 0).dwords, 1u);
  // gfx10's VOP3 interpolation keeps attr/channel in SRC0: attr63.w (0xff) is no literal
  // (llvm-mc-15 -mcpu=gfx1030 -disassemble of d7420000 000202ff bf810000: two instructions).
  const uint32_t interp[] = {0xd7420000, 0x000202ff, 0xbf810000};
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx10_3, interp, 0).dwords, 2u);
  EXPECT_EQ(gcn::scanCode(Gen::Gfx10_3, interp).size(), 2u);
  // A VOP3 literal only counts on RDNA: the same operand code on gfx9 has no literal.
  const uint32_t vop3lit[] = {0xd54b0000, 0x040dff01, 0x12345678};
  EXPECT_EQ(gcn::scanInstruction(Gen::Gfx10, vop3lit, 0).dwords, 3u);
}

}  // namespace code_scan_test
