// GFX10, GFX10.3 and GFX11 in the reference: chips, encodings, the unified formats, the new
// atomics. Golden words are llvm-mc 15's (`llvm-mc-15 -arch=amdgcn -mcpu=gfx1010|gfx1030|gfx1100
// -show-encoding`, run by hand, text quoted per case); tests/reference/llvm_mc_test.cpp checks
// the whole table against llvm-mc 15 where it is installed.
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/assembler.h"
#include "reference/atomic.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/format.h"
#include "reference/gen.h"
#include "reference/opcodes.h"
#include "reference/resource.h"
#include "tests/support/random_instruction.h"

namespace rdna_test {

using gcn::Gen;

struct Golden {
  Gen gen;
  const char* text;  // llvm-mc 15's input and printed form
  uint32_t w0, w1;
};

// Each word pair is llvm-mc 15's encoding of the text on the generation's CPU.
constexpr Golden kGoldens[] = {
    // [0x04,0xd0,0x30,0xe0,0x02,0x01,0x41,0x03]: DLC at bit 15, SLC at dword 1 bit 22
    {Gen::Gfx10, "buffer_load_dword v1, v2, s[4:7], s3 offen offset:4 glc slc dlc", 0xe030d004,
     0x03410102},
    // [0x00,0x20,0x01,0xea,...]: OP [18:16] = 1, FORMAT [25:19] = 64 (BUF_FMT_32_32_FLOAT)
    {Gen::Gfx10, "tbuffer_load_format_xy v[1:2], v2, s[4:7], 0 format:[BUF_FMT_32_32_FLOAT] idxen",
     0xea012000, 0x80010102},
    // [0x00,0x00,0xc4,0xe1,0,0,0,0]: opcode 0x71
    {Gen::Gfx10, "buffer_gl0_inv", 0xe1c40000, 0},
    // [0x00,0x00,0xc8,0xe1,0,0,0,0]: opcode 0x72
    {Gen::Gfx10, "buffer_gl1_inv", 0xe1c80000, 0},
    // [0x00,0x00,0x31,0xe0,0x00,0x00,0x01,0x80]: a load to LDS names no VDATA
    {Gen::Gfx10, "buffer_load_dword off, s[4:7], 0 lds", 0xe0310000, 0x80010000},
    // [0x04,0xd0,0x31,0xe0,0x03,0x00,0x41,0x80]
    {Gen::Gfx10, "buffer_load_dword v3, s[4:7], 0 offen offset:4 glc slc dlc lds", 0xe031d004,
     0x80410003},
    // [0x00,0x00,0x30,0xe0,0x00,0x01,0x01,0x7d]: null is 125 on GFX10
    {Gen::Gfx10, "buffer_load_dword v1, off, s[4:7], null", 0xe0300000, 0x7d010100},
    // [0x00,0x00,0x30,0xe0,0x00,0x01,0x01,0x69]: s105 exists from GFX10 on
    {Gen::Gfx10, "buffer_load_dword v1, off, s[4:7], s105", 0xe0300000, 0x69010100},
    // [0x00,0x00,0xf8,0xe0,0x00,0x01,0x01,0x80]: FCMPSWAP is back (0x3e)
    {Gen::Gfx10, "buffer_atomic_fcmpswap v[1:2], off, s[4:7], 0", 0xe0f80000, 0x80010100},
    // [0x00,0x50,0xd0,0xe0,0x02,0x01,0x01,0x80]: CSUB 0x34, returning form only
    {Gen::Gfx10_3, "buffer_atomic_csub v1, v2, s[4:7], 0 offen glc", 0xe0d05000, 0x80010102},
    // [0x04,0x70,0x50,0xe0,0x02,0x01,0x41,0x03]: SLC 12, DLC 13, GLC 14; OFFEN at dword 1 bit 22
    {Gen::Gfx11, "buffer_load_b32 v1, v2, s[4:7], s3 offen offset:4 glc slc dlc", 0xe0507004,
     0x03410102},
    // [0x00,0x80,0x90,0xe9,0x02,0x01,0x81,0x80]: OP [18:15] = 1, FORMAT 50, IDXEN dword 1 bit 23
    {Gen::Gfx11, "tbuffer_load_format_xy v[1:2], v2, s[4:7], 0 format:[BUF_FMT_32_32_FLOAT] idxen",
     0xe9908000, 0x80810102},
    // [0x00,0x00,0xac,0xe0,0,0,0,0]: opcode 0x2b
    {Gen::Gfx11, "buffer_gl0_inv", 0xe0ac0000, 0},
    // [0x00,0x40,0xdc,0xe0,0x02,0x01,0x41,0x80]: CSUB_U32 0x37
    {Gen::Gfx11, "buffer_atomic_csub_u32 v1, v2, s[4:7], 0 offen glc", 0xe0dc4000, 0x80410102},
    // [0x00,0x00,0x50,0xe0,0x00,0x01,0x01,0x7d]: m0 is 125 on GFX11
    {Gen::Gfx11, "buffer_load_b32 v1, off, s[4:7], m0", 0xe0500000, 0x7d010100},
    // [0x00,0x00,0x50,0xe0,0x00,0x01,0x21,0x80]: TFE at dword 1 bit 21
    {Gen::Gfx11, "buffer_load_b32 v1, off, s[4:7], 0 tfe", 0xe0500000, 0x80210100},
    // [0x00,0x00,0x58,0xe1,0x00,0x01,0x01,0x80]: ADD_F32 0x56
    {Gen::Gfx11, "buffer_atomic_add_f32 v1, off, s[4:7], 0", 0xe1580000, 0x80010100},
    // [0x00,0x00,0x98,0xe0,0x00,0x01,0x01,0x80]: D16_HI format load, 0x26
    {Gen::Gfx11, "buffer_load_d16_hi_format_x v1, off, s[4:7], 0", 0xe0980000, 0x80010100},
};

TEST(Rdna, EncodingMatchesLlvmMc15GoldenWords) {
  for (const Golden& g : kGoldens) {
    SCOPED_TRACE(std::string(gcn::genName(g.gen)) + ": " + g.text);
    const gcn::Instruction inst = gcn::parseInstruction(g.gen, g.text);
    const auto w = gcn::encode(g.gen, inst);
    EXPECT_EQ(w[0], g.w0);
    EXPECT_EQ(w[1], g.w1);
    EXPECT_EQ(gcn::decode(g.gen, g.w0, g.w1), inst);
  }
}

// GFX10's D16 format ops moved to 0x80-0x87: the opcode's bit 7 sits at instruction bit 25
// (MUBUF) and bit 3 of an MTBUF opcode at dword 1 bit 21. llvm-mc 15 -disassemble names
// 0xe2000000 0x80010100 buffer_load_format_d16_x and 0xe8080000 0x80210100
// tbuffer_load_format_d16_x on gfx1010.
// llvm-mc 15 -disassemble -mcpu=gfx1010 reads a set VDATA field of a load to LDS as don't-care:
// e0311000 80010502 prints as `buffer_load_dword v2, s[4:7], 0 offen lds`.
TEST(Rdna, VdataOfALoadToLdsIsDontCare) {
  const gcn::Instruction inst = gcn::decode(Gen::Gfx10, 0xe0311000, 0x80010502);
  EXPECT_EQ(gcn::printInstruction(Gen::Gfx10, inst), "buffer_load_dword v2, s[4:7], 0 offen lds");
  EXPECT_EQ(gcn::encode(Gen::Gfx10, inst)[1], 0x80010002u);
}

// A V# member of a field the generation lacks must be 0 to encode, also where the generation
// has another field of that name (SWIZZLE_ENABLE: 1 bit on GCN/GFX10, 2 bits on GFX11).
TEST(Rdna, SwizzleFieldsOfTheOtherLayoutMustBeZero) {
  gcn::VSharp one;
  one.swizzleEnable = true;
  EXPECT_THROW(gcn::encodeVSharp(Gen::Gfx11, one), gcn::Error);
  gcn::VSharp two;
  two.swizzleEnableGfx11 = 3;
  EXPECT_THROW(gcn::encodeVSharp(Gen::Gfx9, two), gcn::Error);
  EXPECT_EQ(gcn::encodeVSharp(Gen::Gfx11, two)[1], 0xc0000000u);
}

TEST(Rdna, Gfx10OpcodeTopBitLivesApart) {
  EXPECT_EQ(gcn::decode(Gen::Gfx10, 0xe2000000, 0x80010100).op->mnemonic,
            "buffer_load_format_d16_x");
  EXPECT_EQ(gcn::decode(Gen::Gfx10, 0xe8080000, 0x80210100).op->mnemonic,
            "tbuffer_load_format_d16_x");
  // Without the top bit the same words are buffer_load_format_x / tbuffer_load_format_x.
  EXPECT_EQ(gcn::decode(Gen::Gfx10, 0xe0000000, 0x80010100).op->mnemonic, "buffer_load_format_x");
  EXPECT_EQ(gcn::decode(Gen::Gfx10, 0xe8080000, 0x80010100).op->mnemonic, "tbuffer_load_format_x");
}

TEST(Rdna, RoundTripEveryOpcodeAndRandomSample) {
  std::mt19937 rng(20261127);
  size_t checked = 0;
  for (Gen gen : gcn::kRdnaGens) {
    for (const gcn::OpcodeInfo* op : gcntest::opcodesOn(gen)) {
      for (int i = 0; i < 60; ++i) {
        const gcn::Instruction inst = gcntest::randomInstruction(gen, *op, rng);
        const auto w = gcn::encode(gen, inst);
        ASSERT_EQ(gcn::decode(gen, w[0], w[1]), inst) << op->mnemonic;
        ASSERT_EQ(gcn::parseInstruction(gen, gcn::printInstruction(gen, inst)), inst)
            << gcn::printInstruction(gen, inst);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 10000u);
}

TEST(Rdna, ModifiersAndNamesBelongToTheirGenerations) {
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx9, "buffer_load_dword v1, off, s[4:7], 0 dlc"),
               gcn::Error);
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx10, "buffer_load_b32 v1, off, s[4:7], 0"), gcn::Error);
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx9, "buffer_load_dword v1, off, s[4:7], null"),
               gcn::Error);
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx11, "buffer_load_dword off, s[4:7], 0 lds"),
               gcn::Error);
  // A GFX10 load to LDS names no VDATA; llvm-mc 15 rejects one, even v0.
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx10, "buffer_load_dword v0, v2, s[4:7], 0 offen lds"),
               gcn::Error);
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx10, "buffer_atomic_csub v1, off, s[4:7], 0 glc"),
               gcn::Error);  // GFX10.3 and later
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx10_3, "buffer_atomic_csub v1, off, s[4:7], 0"),
               gcn::Error);  // needs glc
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx10, "buffer_wbinvl1"), gcn::Error);
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx10, "buffer_atomic_rsub v1, off, s[4:7], 0"),
               gcn::Error);
  EXPECT_THROW(
      gcn::parseInstruction(Gen::Gfx11, "buffer_atomic_fcmpswap_x2 v[1:4], off, s[4:7], 0"),
      gcn::Error);
  // GFX10 MTBUF takes one unified format, GCN the DFMT/NFMT pair.
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx10,
                                     "tbuffer_load_format_x v1, off, s[4:7], 0 "
                                     "format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]"),
               gcn::Error);
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx9,
                                     "tbuffer_load_format_x v1, off, s[4:7], 0 "
                                     "format:[BUF_FMT_32_FLOAT]"),
               gcn::Error);
  // GFX11 reads the older name and prints its own.
  const gcn::Instruction old =
      gcn::parseInstruction(Gen::Gfx11, "buffer_load_dword v1, off, s[4:7], 0");
  EXPECT_EQ(gcn::printInstruction(Gen::Gfx11, old), "buffer_load_b32 v1, off, s[4:7], 0");
}

// The code counts of LLVM's symbolic MTBUF formats (llvm-mc 15 names codes 1..77 on gfx1010 and
// gfx1030 and 1..63 on gfx1100; the next code prints as a number), and spot codes read from its
// -disassemble output.
TEST(Rdna, UnifiedFormatTables) {
  EXPECT_TRUE(gcn::unifiedFormats(Gen::Gfx9).empty());
  EXPECT_EQ(gcn::unifiedFormats(Gen::Gfx10).size(), 77u);
  EXPECT_EQ(gcn::unifiedFormats(Gen::Gfx10_3).size(), 77u);
  EXPECT_EQ(gcn::unifiedFormats(Gen::Gfx11).size(), 63u);
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx10, 0), "BUF_FMT_INVALID");
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx10, 1), "BUF_FMT_8_UNORM");
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx10, 22), "BUF_FMT_32_FLOAT");
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx10, 36), "BUF_FMT_10_11_11_FLOAT");
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx10, 64), "BUF_FMT_32_32_FLOAT");
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx10, 77), "BUF_FMT_32_32_32_32_FLOAT");
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx10, 78), "78");
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx11, 30), "BUF_FMT_10_11_11_FLOAT");
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx11, 32), "BUF_FMT_10_10_10_2_UNORM");
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx11, 50), "BUF_FMT_32_32_FLOAT");
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx11, 63), "BUF_FMT_32_32_32_32_FLOAT");
  EXPECT_EQ(gcn::llvmUnifiedFormatName(Gen::Gfx11, 64), "64");
  // Every named code parses back to itself, and the (data, number) pairs are distinct.
  for (Gen gen : gcn::kRdnaGens) {
    std::set<std::pair<gcn::Dfmt, gcn::Nfmt>> pairs;
    for (const gcn::UnifiedFormat& f : gcn::unifiedFormats(gen)) {
      EXPECT_EQ(gcn::parseUnifiedFormat(gen, gcn::llvmUnifiedFormatName(gen, f.code)), f.code);
      EXPECT_TRUE(pairs.insert({f.dfmt, f.nfmt}).second) << int(f.code);
    }
  }
  EXPECT_THROW(gcn::parseUnifiedFormat(Gen::Gfx11, "BUF_FMT_10_11_11_UNORM"), gcn::Error);
  EXPECT_EQ(gcn::parseUnifiedFormat(Gen::Gfx10, "buf_fmt_10_11_11_unorm"), 30);
  EXPECT_THROW(gcn::parseUnifiedFormat(Gen::Gfx10, "128"), gcn::Error);
}

TEST(Rdna, NewAtomics) {
  // CSUB: the difference, clamped at 0.
  EXPECT_EQ(gcn::applyAtomic(gcn::AtomicOp::Csub, false, 10, 3, 0).newValue, 7u);
  EXPECT_EQ(gcn::applyAtomic(gcn::AtomicOp::Csub, false, 3, 10, 0).newValue, 0u);
  EXPECT_EQ(gcn::applyAtomic(gcn::AtomicOp::Csub, false, 0xffffffffu, 0xffffffffu, 0).newValue, 0u);
  // ADD_F32: exact sums of normal numbers are claimed, the rest is not.
  const auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
  const gcn::AtomicOutcome exact =
      gcn::applyAtomic(gcn::AtomicOp::Fadd, false, bits(1.5f), bits(2.25f), 0);
  EXPECT_TRUE(exact.claimed);
  EXPECT_EQ(exact.newValue, bits(3.75f));
  EXPECT_FALSE(gcn::applyAtomic(gcn::AtomicOp::Fadd, false, bits(1.0f), bits(1e-8f), 0).claimed);
  // Exponents 70 apart: the float sum rounds, which an 80-bit long double would hide.
  EXPECT_FALSE(gcn::applyAtomic(gcn::AtomicOp::Fadd, false, bits(1.0f), bits(0x1p-70f), 0).claimed);
  EXPECT_FALSE(gcn::applyAtomic(gcn::AtomicOp::Fadd, false, bits(1e30f), bits(1e-30f), 0).claimed);
}

TEST(Rdna, ChipsAndNames) {
  EXPECT_EQ(gcn::parseAnyGen("navi10"), Gen::Gfx10);
  EXPECT_EQ(gcn::parseAnyGen("navi14"), Gen::Gfx10);
  EXPECT_EQ(gcn::parseAnyGen("navi21"), Gen::Gfx10_3);
  EXPECT_EQ(gcn::parseAnyGen("gfx1034"), Gen::Gfx10_3);
  EXPECT_EQ(gcn::parseAnyGen("RDNA2"), Gen::Gfx10_3);
  EXPECT_EQ(gcn::parseAnyGen("gfx10.3"), Gen::Gfx10_3);
  EXPECT_EQ(gcn::parseAnyGen("navi31"), Gen::Gfx11);
  EXPECT_EQ(gcn::parseAnyGen("gfx1103"), Gen::Gfx11);
  EXPECT_EQ(gcn::parseAnyGen("gfx9"), Gen::Gfx9);
  // The Mesa versions name GFX11 differently on RADV's null device (each tried by hand).
  EXPECT_EQ(gcn::parseAnyChip("navi31").radvFamily, "navi31");
  EXPECT_EQ(gcn::parseAnyChip("navi31").radvFamilyMesa22, "gfx1100");
  EXPECT_EQ(gcn::parseAnyChip("phoenix").radvFamilyMesa22, "gfx1103_r1");
  EXPECT_EQ(gcn::parseAnyChip("navi21").radvFamilyMesa22, "navi21");
  // The GCN-only parser names the reason.
  try {
    gcn::parseChip("navi21");
    FAIL() << "navi21 is RDNA";
  } catch (const gcn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("RDNA"), std::string::npos) << e.what();
  }
  for (const gcn::Chip& c : gcn::rdnaChips()) {
    EXPECT_TRUE(gcn::isRdna(c.gen)) << c.name;
    EXPECT_TRUE(c.d16Packed) << c.name;
  }
  for (const gcn::Chip& c : gcn::gcnChips())
    EXPECT_TRUE(gcn::isGcn(c.gen)) << c.name;
}

}  // namespace rdna_test
