// Encoder/decoder: bit positions against words llvm-mc 14 printed (pasted below with the
// command that produced them), and decode(encode(x)) == x over every opcode and a random
// sample. The random generator here is shared with assembler_test.cpp, llvm_mc_test.cpp and
// rdna_test.cpp (same test executable; declared in tests/support/random_instruction.h).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/opcodes.h"
#include "tests/support/random_instruction.h"

namespace gcntest {

std::vector<const gcn::OpcodeInfo*> opcodesOn(gcn::Gen gen) {
  std::vector<const gcn::OpcodeInfo*> out;
  for (const gcn::OpcodeInfo& op : gcn::allOpcodes())
    if (gcn::existsOn(op, gen)) out.push_back(&op);
  return out;
}

gcn::Instruction randomInstruction(gcn::Gen gen, const gcn::OpcodeInfo& op, std::mt19937& rng) {
  auto pick = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
  auto chance = [&](unsigned percent) { return pick(100) < percent; };
  gcn::Instruction inst;
  inst.op = &op;
  if (op.kind == gcn::OpKind::Cache) return inst;
  const unsigned sgprs = gcn::sgprCount(gen);
  inst.srsrc = static_cast<uint8_t>(chance(10) ? (sgprs / 4 - 1) * 4 : pick(sgprs / 4) * 4);
  static const uint8_t kSoffsetSpecial[] = {106, 107, 124, 126, 127, 128, 129,
                                            192, 193, 208, 240, 247, 0,   101};
  // GFX10+: also null/m0 (125) and s102..s105.
  static const uint8_t kSoffsetSpecialRdna[] = {106, 107, 124, 125, 126, 127, 128, 129,
                                                192, 193, 208, 240, 247, 248, 0,   105};
  const bool rdna = gcn::isRdna(gen);
  do {
    if (rdna)
      inst.soffset = chance(40) ? kSoffsetSpecialRdna[pick(std::size(kSoffsetSpecialRdna))]
                                : static_cast<uint8_t>(pick(256));
    else
      inst.soffset = chance(40) ? kSoffsetSpecial[pick(std::size(kSoffsetSpecial))]
                                : static_cast<uint8_t>(pick(256));
  } while (!gcn::soffsetLegal(gen, inst.soffset));
  const unsigned o = pick(10);
  inst.offset = static_cast<uint16_t>(o == 0 ? 0 : o == 1 ? 4095 : pick(4096));
  inst.glc = chance(30);
  inst.slc = chance(30);
  if (rdna && op.kind != gcn::OpKind::Atomic) inst.dlc = chance(30);
  if (op.atomic == gcn::AtomicOp::Csub) inst.glc = true;  // only the returning form exists
  if (op.ldsData) {
    inst.lds = true;
    return inst;
  }
  const unsigned mode = pick(gen <= gcn::Gen::Gfx7 ? 5 : 4);
  inst.offen = mode == 1 || mode == 3;
  inst.idxen = mode == 2 || mode == 3;
  inst.addr64 = mode == 4;
  inst.tfe = op.kind != gcn::OpKind::Atomic && chance(20);
  inst.lds = op.ldsCapable && gen != gcn::Gen::Gfx11 && !inst.tfe && chance(30);
  if (op.encoding == gcn::Encoding::Mtbuf && rdna) {
    inst.format = static_cast<uint8_t>(pick(128));
  } else if (op.encoding == gcn::Encoding::Mtbuf) {
    inst.dfmt = static_cast<gcn::Dfmt>(pick(16));
    inst.nfmt = static_cast<gcn::Nfmt>(pick(8));
  }
  const unsigned data = gcn::vdataRegs(op, gcn::representativeChip(gen), inst.tfe);
  inst.vdata = static_cast<uint8_t>(chance(10) ? 256 - data : pick(257 - data));
  if (rdna && inst.lds) inst.vdata = 0;  // a GFX10 load to LDS names no VDATA
  const unsigned addr = gcn::vaddrRegs(inst);
  if (addr > 0) inst.vaddr = static_cast<uint8_t>(chance(10) ? 256 - addr : pick(257 - addr));
  return inst;
}

}  // namespace gcntest

namespace encoding_test {

using gcn::Gen;

gcn::Instruction make(const char* mnemonic) {
  gcn::Instruction inst;
  inst.op = gcn::findOpcode(mnemonic);
  EXPECT_NE(inst.op, nullptr) << mnemonic;
  return inst;
}

struct Golden {
  Gen gen;
  gcn::Instruction inst;
  uint32_t w0, w1;
  const char* llvmText;  // what llvm-mc 14 assembled into the bytes
};

// Each golden: `echo "<llvmText>" | llvm-mc -arch=amdgcn -mcpu=<tahiti|tonga|gfx900>
// -show-encoding`, bytes little-endian into two dwords. Chosen so that every field sits at a
// distinct non-zero value and each flag is seen set and clear.
std::vector<Golden> goldens() {
  std::vector<Golden> g;
  {  // [0x00,0x00,0x50,0xe0,0x00,0x01,0x01,0x80] tonga
    auto i = make("buffer_load_dword");
    i.vdata = 1;
    i.srsrc = 4;
    g.push_back({Gen::Gfx8, i, 0xe0500000, 0x80010100, "buffer_load_dword v1, off, s[4:7], 0"});
  }
  {  // [0xff,0x5f,0x52,0xe0,0x02,0x01,0x81,0x03] tonga: SLC at bit 17, TFE at bit 55
    auto i = make("buffer_load_dword");
    i.vdata = 1;
    i.vaddr = 2;
    i.srsrc = 4;
    i.soffset = 3;
    i.offset = 4095;
    i.offen = i.glc = i.slc = i.tfe = true;
    g.push_back({Gen::Gfx8, i, 0xe0525fff, 0x03810102,
                 "buffer_load_dword v1, v2, s[4:7], s3 offen offset:4095 glc slc tfe"});
    // [0xff,0x5f,0x30,0xe0,0x02,0x01,0xc1,0x03] tahiti: SLC at bit 54 on gfx6/7
    g.push_back({Gen::Gfx6, i, 0xe0305fff, 0x03c10102,
                 "buffer_load_dword v1, v2, s[4:7], s3 offen offset:4095 glc slc tfe"});
  }
  {  // [0x00,0x80,0x30,0xe0,0x02,0x01,0x01,0xc1] tahiti: ADDR64 at bit 15, soffset -1 = 193
    auto i = make("buffer_load_dword");
    i.vdata = 1;
    i.vaddr = 2;
    i.srsrc = 4;
    i.soffset = 193;
    i.addr64 = true;
    g.push_back(
        {Gen::Gfx6, i, 0xe0308000, 0xc1010102, "buffer_load_dword v1, v[2:3], s[4:7], -1 addr64"});
  }
  {  // [0x00,0x00,0x31,0xe0,0x00,0x01,0x01,0xc0] tahiti and [..,0x51,..] gfx900: LDS bit 16
    auto i = make("buffer_load_dword");
    i.vdata = 1;
    i.srsrc = 4;
    i.soffset = 192;  // 64
    i.lds = true;
    g.push_back(
        {Gen::Gfx6, i, 0xe0310000, 0xc0010100, "buffer_load_dword v1, off, s[4:7], 64 lds"});
    g.push_back(
        {Gen::Gfx9, i, 0xe0510000, 0xc0010100, "buffer_load_dword v1, off, s[4:7], 64 lds"});
  }
  {  // [0x10,0x20,0xa3,0xeb,0x04,0x00,0x02,0x80] tahiti: MTBUF OP[18:16]=3, DFMT 4, NFMT 7
    auto i = make("tbuffer_load_format_xyzw");
    i.vaddr = 4;
    i.srsrc = 8;
    i.idxen = true;
    i.offset = 16;
    i.dfmt = gcn::Dfmt::F32;
    i.nfmt = gcn::Nfmt::Float;
    const char* text =
        "tbuffer_load_format_xyzw v[0:3], v4, s[8:11], 0 "
        "format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] idxen offset:16";
    g.push_back({Gen::Gfx6, i, 0xeba32010, 0x80020004, text});
    // [0x10,0xa0,0xa1,0xeb,...] tonga: OP[18:15]=3 puts a 1 in bit 15
    g.push_back({Gen::Gfx8, i, 0xeba1a010, 0x80020004, text});
  }
  {  // [0x00,0x40,0x0c,0xe8,0x00,0x00,0xc2,0x01] tahiti; [0x00,0x40,0x0a,0xe8,...] tonga
    auto i = make("tbuffer_store_format_x");
    i.srsrc = 8;
    i.soffset = 1;
    i.glc = i.slc = i.tfe = true;
    const char* text = "tbuffer_store_format_x v0, off, s[8:11], s1 glc slc tfe";
    g.push_back({Gen::Gfx6, i, 0xe80c4000, 0x01c20000, text});
    g.push_back({Gen::Gfx8, i, 0xe80a4000, 0x01c20000, text});
  }
  {  // cache ops: tahiti buffer_wbinvl1_sc [..0xc0,0xe1, 0,0,0,0], tonga buffer_wbinvl1 0xe0f80000
    g.push_back({Gen::Gfx6, make("buffer_wbinvl1_sc"), 0xe1c00000, 0, "buffer_wbinvl1_sc"});
    g.push_back({Gen::Gfx7, make("buffer_wbinvl1_vol"), 0xe1c00000, 0, "buffer_wbinvl1_vol"});
    g.push_back({Gen::Gfx8, make("buffer_wbinvl1"), 0xe0f80000, 0, "buffer_wbinvl1"});
    g.push_back({Gen::Gfx9, make("buffer_wbinvl1_vol"), 0xe0fc0000, 0, "buffer_wbinvl1_vol"});
  }
  {  // [0x04,0x00,0xf7,0xe0,0x00,0x00,0x01,0x01] gfx900
    auto i = make("buffer_store_lds_dword");
    i.srsrc = 4;
    i.soffset = 1;
    i.offset = 4;
    i.lds = i.slc = true;
    g.push_back({Gen::Gfx9, i, 0xe0f70004, 0x01010000,
                 "buffer_store_lds_dword s[4:7], s1 offset:4 lds slc"});
  }
  {  // [0x00,0x40,0x84,0xe1,0x00,0x01,0x01,0x80] tonga, [0x00,0x40,0x44,0xe1,...] tahiti
    auto i = make("buffer_atomic_cmpswap_x2");
    i.vdata = 1;
    i.srsrc = 4;
    i.glc = true;
    const char* text = "buffer_atomic_cmpswap_x2 v[1:4], off, s[4:7], 0 glc";
    g.push_back({Gen::Gfx8, i, 0xe1844000, 0x80010100, text});
    g.push_back({Gen::Gfx6, i, 0xe1444000, 0x80010100, text});
  }
  {  // [0x00,0x00,0x98,0xe0,0x00,0x01,0x01,0x80] gfx900
    auto i = make("buffer_load_format_d16_hi_x");
    i.vdata = 1;
    i.srsrc = 4;
    g.push_back(
        {Gen::Gfx9, i, 0xe0980000, 0x80010100, "buffer_load_format_d16_hi_x v1, off, s[4:7], 0"});
  }
  {  // [0x00,0x00,0x30,0xe0,0x00,0xff,0x19,0x80] tahiti: VDATA 255, SRSRC field 25 (s100)
    auto i = make("buffer_load_dword");
    i.vdata = 255;
    i.srsrc = 100;
    g.push_back(
        {Gen::Gfx6, i, 0xe0300000, 0x8019ff00, "buffer_load_dword v255, off, s[100:103], 0"});
  }
  return g;
}

TEST(Encoding, MatchesLlvmMcGoldenWords) {
  for (const Golden& g : goldens()) {
    const auto words = gcn::encode(g.gen, g.inst);
    EXPECT_EQ(words[0], g.w0) << g.llvmText << " on " << gcn::genName(g.gen);
    EXPECT_EQ(words[1], g.w1) << g.llvmText << " on " << gcn::genName(g.gen);
    EXPECT_EQ(gcn::decode(g.gen, g.w0, g.w1), g.inst) << g.llvmText;
  }
}

TEST(Encoding, RoundTripEveryOpcodeAndRandomSample) {
  std::mt19937 rng(20240611);
  size_t checked = 0;
  for (Gen gen : gcn::kGcnGens) {
    for (const gcn::OpcodeInfo* op : gcntest::opcodesOn(gen)) {
      for (int i = 0; i < 60; ++i) {
        const gcn::Instruction inst = gcntest::randomInstruction(gen, *op, rng);
        const auto w = gcn::encode(gen, inst);
        ASSERT_EQ(gcn::decode(gen, w[0], w[1]), inst) << op->mnemonic;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 15000u);
}

TEST(Encoding, OpcodeFieldHoldsTheTableOpcode) {
  // Property over the whole table: OP sits at [24:18] (MUBUF), [18:16] gfx6/7 or [18:15]
  // gfx8/9 (MTBUF, CLRX GcnInstrsMtbuf), ENCODING at [31:26].
  for (Gen gen : gcn::kGcnGens) {
    for (const gcn::OpcodeInfo* op : gcntest::opcodesOn(gen)) {
      gcn::Instruction inst;
      inst.op = op;
      if (op->ldsData) inst.lds = true;
      const uint32_t w0 = gcn::encode(gen, inst)[0];
      const int code = op->opcode[static_cast<int>(gen) - 6];
      if (op->encoding == gcn::Encoding::Mubuf) {
        EXPECT_EQ(w0 >> 26, 0x38u);
        EXPECT_EQ(static_cast<int>((w0 >> 18) & 0x7f), code) << op->mnemonic;
      } else {
        EXPECT_EQ(w0 >> 26, 0x3au);
        const int field = gen <= Gen::Gfx7 ? (w0 >> 16) & 7 : (w0 >> 15) & 15;
        EXPECT_EQ(field, code) << op->mnemonic;
      }
    }
  }
}

// ACO (vega10 null device) emitted e07c4000 05020480: VADDR = 0x80 while no address is read.
// `llvm-mc -arch=amdgcn -mcpu=gfx900 -disassemble` prints it as
// `buffer_store_dwordx4 v[4:7], off, s[8:11], s5 glc` and re-encodes VADDR as 0.
TEST(Encoding, UnreadVaddrIsDontCare) {
  const gcn::Instruction inst = gcn::decode(gcn::Gen::Gfx9, 0xe07c4000u, 0x05020480u);
  ASSERT_NE(inst.op, nullptr);
  EXPECT_EQ(inst.op->mnemonic, "buffer_store_dwordx4");
  EXPECT_EQ(inst.vaddr, 0);
  EXPECT_EQ(inst.vdata, 4);
  EXPECT_EQ(inst.srsrc, 8);
  EXPECT_EQ(inst.soffset, 5);
  EXPECT_TRUE(inst.glc);
  EXPECT_FALSE(inst.offen || inst.idxen);
  const auto words = gcn::encode(gcn::Gen::Gfx9, inst);
  EXPECT_EQ(words[0], 0xe07c4000u);
  EXPECT_EQ(words[1], 0x05020400u);
}

TEST(Encoding, DecodeRejectsForeignAndUndefinedWords) {
  // VOP1 v_mov_b32 (encoding 0x7e000000) is not a buffer instruction.
  EXPECT_THROW(gcn::decode(Gen::Gfx8, 0x7e000280, 0), gcn::Error);
  // MUBUF opcode 0x7f exists on no generation.
  EXPECT_THROW(gcn::decode(Gen::Gfx8, 0xe1fc0000, 0x80000000), gcn::Error);
  // CLRX GcnInstrsMtbuf: the MTBUF opcode is [18:16] on gfx6/7 and [18:15] on gfx8/9, so the same
  // word with only bit 18 set is opcode 4 (tbuffer_store_format_x) on gfx6 and opcode 8
  // (tbuffer_load_format_d16_x) on gfx8.
  EXPECT_EQ(gcn::decode(Gen::Gfx6, 0xe8040000, 0x80000000).op->mnemonic, "tbuffer_store_format_x");
  EXPECT_EQ(gcn::decode(Gen::Gfx8, 0xe8040000, 0x80000000).op->mnemonic,
            "tbuffer_load_format_d16_x");
  // Bit 15 of a gfx8 MUBUF word is undefined (no ADDR64 there).
  EXPECT_THROW(gcn::decode(Gen::Gfx8, 0xe0508000, 0x80010100), gcn::Error);
  // ADDR64 with OFFEN is illegal (CLRX GcnMemHandling).
  EXPECT_THROW(gcn::decode(Gen::Gfx6, 0xe0309000, 0x80010100), gcn::Error);
  // A cache op with operand bits set.
  EXPECT_THROW(gcn::decode(Gen::Gfx8, 0xe0f80000, 0x00000100), gcn::Error);
  // RSUB (0x34) exists on gfx6 only.
  EXPECT_EQ(gcn::decode(Gen::Gfx6, 0xe0d00000, 0x80010100).op->mnemonic, "buffer_atomic_rsub");
  EXPECT_THROW(gcn::decode(Gen::Gfx7, 0xe0d00000, 0x80010100), gcn::Error);
}

TEST(Encoding, EncodeValidates) {
  auto i = make("buffer_load_dword");
  i.addr64 = true;
  i.vaddr = 2;
  EXPECT_THROW(gcn::encode(Gen::Gfx8, i), gcn::Error);
  EXPECT_NO_THROW(gcn::encode(Gen::Gfx7, i));
}

// The field table: on every generation and encoding, no two fields share a bit; the bits they
// cover are the word minus what LLVM BUFInstructions.td leaves unassigned there.
std::array<uint32_t, 2> coveredBits(gcn::Gen gen, gcn::Encoding enc) {
  std::array<uint32_t, 2> seen{};
  for (const gcn::InstField f :
       {gcn::InstField::Offset, gcn::InstField::Offen, gcn::InstField::Idxen, gcn::InstField::Glc,
        gcn::InstField::Addr64, gcn::InstField::Dlc, gcn::InstField::Lds, gcn::InstField::Slc,
        gcn::InstField::Op, gcn::InstField::OpHi, gcn::InstField::Dfmt, gcn::InstField::Nfmt,
        gcn::InstField::Format, gcn::InstField::Encoding, gcn::InstField::Vaddr,
        gcn::InstField::Vdata, gcn::InstField::Srsrc, gcn::InstField::Tfe,
        gcn::InstField::Soffset}) {
    const gcn::InstFieldBits* b = gcn::findInstField(gen, enc, f);
    if (b == nullptr) continue;
    const uint32_t m = ((b->width >= 32 ? 0u : (1u << b->width)) - 1u) << b->lsb;
    EXPECT_EQ(seen[b->dword] & m, 0u) << "overlap at field " << static_cast<int>(f);
    seen[b->dword] |= m;
  }
  return seen;
}

TEST(EncodingFields, TableCoversEachWordOnce) {
  // MUBUF word 0: bit 25 (between OP [24:18] and ENCODING [31:26]) is unassigned everywhere;
  // gfx6/7 also leave bit 17 (SLC moved there on gfx8), gfx8/9 bit 15 (ADDR64 is gone).
  // Word 1: bit 21 (after SRSRC [20:16]) everywhere, and bit 22 (SLC on gfx6/7) on gfx8/9.
  EXPECT_EQ(coveredBits(Gen::Gfx6, gcn::Encoding::Mubuf)[0], 0xfdfdffffu);
  EXPECT_EQ(coveredBits(Gen::Gfx7, gcn::Encoding::Mubuf)[1], 0xffdfffffu);
  EXPECT_EQ(coveredBits(Gen::Gfx8, gcn::Encoding::Mubuf)[0], 0xfdff7fffu);
  EXPECT_EQ(coveredBits(Gen::Gfx9, gcn::Encoding::Mubuf)[1], 0xff9fffffu);
  // MTBUF: gfx6/7 OP [18:16] leaves bit 15 to ADDR64; gfx8/9 OP [18:15]: word 0 is full.
  EXPECT_EQ(coveredBits(Gen::Gfx6, gcn::Encoding::Mtbuf)[0], 0xffffffffu);
  EXPECT_EQ(coveredBits(Gen::Gfx8, gcn::Encoding::Mtbuf)[0], 0xffffffffu);
  EXPECT_EQ(coveredBits(Gen::Gfx9, gcn::Encoding::Mtbuf)[1], 0xffdfffffu);
  // GFX10/10.3 (docs/rdna.md): MUBUF word 0 leaves bit 17 (LDS 16, OP from 18, its top bit at
  // 25), word 1 bit 21; MTBUF is full, the opcode's top bit taking word 1 bit 21.
  for (Gen gen : {Gen::Gfx10, Gen::Gfx10_3}) {
    EXPECT_EQ(coveredBits(gen, gcn::Encoding::Mubuf)[0], 0xfffdffffu);
    EXPECT_EQ(coveredBits(gen, gcn::Encoding::Mubuf)[1], 0xffdfffffu);
    EXPECT_EQ(coveredBits(gen, gcn::Encoding::Mtbuf)[0], 0xffffffffu);
    EXPECT_EQ(coveredBits(gen, gcn::Encoding::Mtbuf)[1], 0xffffffffu);
  }
  // GFX11: MUBUF word 0 leaves bits 15-17 (no LDS bit; OFFEN/IDXEN went to word 1, which is
  // full with TFE 21, OFFEN 22, IDXEN 23); MTBUF is full.
  EXPECT_EQ(coveredBits(Gen::Gfx11, gcn::Encoding::Mubuf)[0], 0xfffc7fffu);
  EXPECT_EQ(coveredBits(Gen::Gfx11, gcn::Encoding::Mubuf)[1], 0xffffffffu);
  EXPECT_EQ(coveredBits(Gen::Gfx11, gcn::Encoding::Mtbuf)[0], 0xffffffffu);
  EXPECT_EQ(coveredBits(Gen::Gfx11, gcn::Encoding::Mtbuf)[1], 0xffffffffu);
}

// The descriptor trace's SRSRC reading: e07c4000 05020480 (ACO, vega10) names s[8:11].
TEST(EncodingFields, SrsrcFirstSgpr) {
  EXPECT_EQ(gcn::srsrcFirstSgpr(Gen::Gfx9, gcn::Encoding::Mubuf, {0xe07c4000u, 0x05020480u}), 8u);
  EXPECT_EQ(gcn::instFieldValue(Gen::Gfx9, gcn::Encoding::Mubuf, gcn::InstField::Soffset,
                                {0xe07c4000u, 0x05020480u}),
            5u);
  EXPECT_FALSE(gcn::instFieldValue(Gen::Gfx9, gcn::Encoding::Mubuf, gcn::InstField::Addr64,
                                   {0xe07c4000u, 0x05020480u}));
}

TEST(EncodingFields, TryDecodeAgreesWithDecode) {
  std::string why;
  EXPECT_FALSE(gcn::tryDecode(Gen::Gfx8, 0x7e000280, 0, &why));
  EXPECT_NE(why.find("ENCODING field is 31"), std::string::npos) << why;
  EXPECT_FALSE(gcn::tryDecode(Gen::Gfx8, 0xe0508000, 0x80010100));
  const std::optional<gcn::Instruction> ok = gcn::tryDecode(Gen::Gfx9, 0xe07c4000u, 0x05020480u);
  ASSERT_TRUE(ok);
  EXPECT_EQ(*ok, gcn::decode(Gen::Gfx9, 0xe07c4000u, 0x05020480u));
}

}  // namespace encoding_test
