// The opcode table against CLRX, LLVM and docs/gcn-facts.md: MTBUF opcodes (CLRX GcnInstrsMtbuf),
// LDS-capable loads and the data-conversion rules (CLRX GcnMemHandling), per-generation presence
// (docs/gcn-facts.md), VDATA/VADDR register counts and validate(). Whole-table facts are checked as
// properties; the exact MUBUF numbering is checked against llvm-mc in llvm_mc_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>
#include <utility>

#include "reference/error.h"
#include "reference/opcodes.h"

namespace opcodes_test {

using gcn::Gen;

const gcn::OpcodeInfo& op(const char* name) {
  const gcn::OpcodeInfo* o = gcn::findOpcode(name);
  if (o == nullptr) throw std::runtime_error(std::string("missing ") + name);
  return *o;
}

// The GCN columns (gfx6..gfx9) of an opcode row.
std::array<int16_t, 4> gcnOpcodes(const gcn::OpcodeInfo& o) {
  return {o.opcode[0], o.opcode[1], o.opcode[2], o.opcode[3]};
}

TEST(Opcodes, MnemonicsUniqueAndOpcodesUniquePerGeneration) {
  std::set<std::string_view> names;
  std::set<std::tuple<int, int, int>> codes;
  for (const gcn::OpcodeInfo& o : gcn::allOpcodes()) {
    EXPECT_TRUE(names.insert(o.mnemonic).second) << o.mnemonic;
    if (!o.gfx11Mnemonic.empty()) {
      EXPECT_TRUE(names.insert(o.gfx11Mnemonic).second) << o.mnemonic;
    }
    // RDNA: MUBUF OP 8 bits (GFX10: 7 plus the top bit apart; GFX11: 8), MTBUF 4 bits.
    for (gcn::Gen gen : gcn::kRdnaGens) {
      const int g = static_cast<int>(gcn::genIndex(gen));
      if (o.opcode[g] < 0) continue;
      EXPECT_TRUE(codes.insert({static_cast<int>(o.encoding), g, o.opcode[g]}).second)
          << o.mnemonic << " " << gcn::genName(gen);
      EXPECT_LT(o.opcode[g], o.encoding == gcn::Encoding::Mubuf ? 256 : 16) << o.mnemonic;
    }
    for (int g = 0; g < 4; ++g) {
      if (o.opcode[g] < 0) continue;
      EXPECT_TRUE(codes.insert({static_cast<int>(o.encoding), g, o.opcode[g]}).second)
          << o.mnemonic << " gfx" << g + 6;
      // Field widths: MUBUF OP 7 bits; MTBUF OP 3 bits on gfx6/7, 4 bits on gfx8/9 (CLRX
      // GcnInstrsMtbuf).
      const int limit = o.encoding == gcn::Encoding::Mubuf ? 128 : (g < 2 ? 8 : 16);
      EXPECT_LT(o.opcode[g], limit) << o.mnemonic;
    }
  }
}

TEST(Opcodes, MtbufOpcodesAreSeed001) {
  // CLRX GcnInstrsMtbuf "Instructions by opcode": 0..7 on all, 8..15 (D16) from GCN 1.2.
  const char* names[] = {"x", "xy", "xyz", "xyzw"};
  for (int i = 0; i < 4; ++i) {
    const std::string s = names[i];
    EXPECT_EQ(gcnOpcodes(op(("tbuffer_load_format_" + s).c_str())),
              (std::array<int16_t, 4>{int16_t(i), int16_t(i), int16_t(i), int16_t(i)}));
    const int16_t st = static_cast<int16_t>(4 + i);
    EXPECT_EQ(gcnOpcodes(op(("tbuffer_store_format_" + s).c_str())),
              (std::array<int16_t, 4>{st, st, st, st}));
    const int16_t dl = static_cast<int16_t>(8 + i), ds = static_cast<int16_t>(12 + i);
    EXPECT_EQ(gcnOpcodes(op(("tbuffer_load_format_d16_" + s).c_str())),
              (std::array<int16_t, 4>{-1, -1, dl, dl}));
    EXPECT_EQ(gcnOpcodes(op(("tbuffer_store_format_d16_" + s).c_str())),
              (std::array<int16_t, 4>{-1, -1, ds, ds}));
  }
  int mtbuf = 0;
  for (const auto& o : gcn::allOpcodes())
    mtbuf += o.encoding == gcn::Encoding::Mtbuf;
  EXPECT_EQ(mtbuf, 16);
}

TEST(Opcodes, LdsCapableIsTheSeed003List) {
  // CLRX GcnMemHandling: "Reading data to LDS directly is working for BUFFER_LOAD_UBYTE, _SBYTE,
  // _SSHORT, _USHORT, _DWORD and BUFFER_LOAD_FORMAT_X"; plus BUFFER_STORE_LDS_DWORD, whose
  // data always comes from LDS.
  std::set<std::string_view> lds;
  for (const auto& o : gcn::allOpcodes())
    if (o.ldsCapable) lds.insert(o.mnemonic);
  EXPECT_EQ(
      lds, (std::set<std::string_view>{
               "buffer_load_ubyte", "buffer_load_sbyte", "buffer_load_ushort", "buffer_load_sshort",
               "buffer_load_dword", "buffer_load_format_x", "buffer_store_lds_dword"}));
}

TEST(Opcodes, ConversionRulesAreSeed003) {
  using FS = gcn::FieldSource;
  for (const auto& o : gcn::allOpcodes()) {
    const std::string n(o.mnemonic);
    std::tuple<FS, FS, FS> want;
    if (n.rfind("tbuffer_", 0) == 0)
      want = {FS::Instruction, FS::Instruction, FS::Identity};
    else if (n.find("_format_") != std::string::npos)
      want = {FS::Resource, FS::Resource, FS::Resource};
    else
      want = {FS::Derived, FS::Derived, FS::Identity};  // <type> loads/stores and atomics
    EXPECT_EQ(std::make_tuple(o.dfmtSource, o.nfmtSource, o.dstSelSource), want) << n;
  }
}

TEST(Opcodes, GenerationDifferencesOfGcnFacts) {
  EXPECT_EQ(gcnOpcodes(op("buffer_atomic_rsub")), (std::array<int16_t, 4>{0x34, -1, -1, -1}));
  for (const char* n :
       {"buffer_atomic_fcmpswap", "buffer_atomic_fmin", "buffer_atomic_fmax",
        "buffer_atomic_fcmpswap_x2", "buffer_atomic_fmin_x2", "buffer_atomic_fmax_x2"}) {
    EXPECT_TRUE(gcn::existsOn(op(n), Gen::Gfx7)) << n;
    EXPECT_FALSE(gcn::existsOn(op(n), Gen::Gfx8)) << n;
  }
  // Atomics 0x30.. -> 0x40.., x2 0x50.. -> 0x60.., cache 0x70/0x71 -> 0x3f/0x3e.
  EXPECT_EQ(gcnOpcodes(op("buffer_atomic_swap")), (std::array<int16_t, 4>{0x30, 0x30, 0x40, 0x40}));
  EXPECT_EQ(gcnOpcodes(op("buffer_atomic_swap_x2")),
            (std::array<int16_t, 4>{0x50, 0x50, 0x60, 0x60}));
  EXPECT_EQ(gcnOpcodes(op("buffer_wbinvl1")), (std::array<int16_t, 4>{0x71, 0x71, 0x3e, 0x3e}));
  EXPECT_TRUE(gcn::existsOn(op("buffer_load_format_d16_x"), Gen::Gfx8));
  EXPECT_FALSE(gcn::existsOn(op("buffer_load_format_d16_x"), Gen::Gfx7));
  EXPECT_FALSE(gcn::existsOn(op("buffer_load_short_d16_hi"), Gen::Gfx8));
  EXPECT_TRUE(gcn::existsOn(op("buffer_load_short_d16_hi"), Gen::Gfx9));
}

TEST(Opcodes, VdataRegs) {
  const gcn::Chip& tonga = gcn::parseChip("tonga");
  const gcn::Chip& stoney = gcn::parseChip("stoney");
  const gcn::Chip& vega = gcn::parseChip("vega10");
  // D16 format: one half per VGPR on gfx802, two on gfx810 and gfx9 (docs/gcn-facts.md).
  EXPECT_EQ(gcn::vdataRegs(op("buffer_load_format_d16_xyzw"), tonga, false), 4u);
  EXPECT_EQ(gcn::vdataRegs(op("buffer_load_format_d16_xyzw"), stoney, false), 2u);
  EXPECT_EQ(gcn::vdataRegs(op("tbuffer_load_format_d16_xyz"), vega, false), 2u);
  EXPECT_EQ(gcn::vdataRegs(op("buffer_load_format_d16_hi_x"), vega, false), 1u);
  // CMPSWAP carries data and compare value: 2, 4 for _X2.
  EXPECT_EQ(gcn::vdataRegs(op("buffer_atomic_cmpswap"), tonga, false), 2u);
  EXPECT_EQ(gcn::vdataRegs(op("buffer_atomic_cmpswap_x2"), tonga, false), 4u);
  EXPECT_EQ(gcn::vdataRegs(op("buffer_atomic_add_x2"), tonga, false), 2u);
  // TFE: one more (CLRX GcnInstrsMtbuf).
  EXPECT_EQ(gcn::vdataRegs(op("buffer_load_dwordx3"), tonga, true), 4u);
  EXPECT_EQ(gcn::vdataRegs(op("buffer_load_ubyte"), tonga, true), 2u);
  EXPECT_EQ(gcn::vdataRegs(op("buffer_wbinvl1"), tonga, false), 0u);
}

TEST(Opcodes, VaddrRegs) {
  gcn::Instruction i;
  EXPECT_EQ(gcn::vaddrRegs(i), 0u);
  i.offen = true;
  EXPECT_EQ(gcn::vaddrRegs(i), 1u);
  i.idxen = true;
  EXPECT_EQ(gcn::vaddrRegs(i), 2u);  // CLRX GcnInstrsMtbuf: both need a 64-bit VADDR
  i = {};
  i.addr64 = true;
  EXPECT_EQ(gcn::vaddrRegs(i), 2u);
}

TEST(Opcodes, ValidateNamesTheReason) {
  auto reason = [](Gen gen, const gcn::Instruction& inst) -> std::string {
    try {
      gcn::validate(gen, inst);
    } catch (const gcn::Error& e) {
      return e.reason();
    }
    return "";
  };
  gcn::Instruction i;
  i.op = &op("buffer_load_dword");
  EXPECT_EQ(reason(Gen::Gfx8, i), "");
  auto with = [&](auto change) {
    gcn::Instruction c = i;
    change(c);
    return c;
  };
  EXPECT_NE(reason(Gen::Gfx8, with([](auto& c) { c.addr64 = true, c.vaddr = 0; })).find("addr64"),
            std::string::npos);
  EXPECT_NE(reason(Gen::Gfx6, with([](auto& c) { c.addr64 = c.offen = true; })).find("addr64"),
            std::string::npos);
  EXPECT_NE(reason(Gen::Gfx8, with([](auto& c) { c.lds = c.tfe = true; })).find("tfe"),
            std::string::npos);
  EXPECT_NE(reason(Gen::Gfx8, with([](auto& c) { c.offset = 4096; })).find("12 bits"),
            std::string::npos);
  EXPECT_NE(reason(Gen::Gfx8, with([](auto& c) { c.srsrc = 2; })).find("multiple of 4"),
            std::string::npos);
  EXPECT_NE(reason(Gen::Gfx8, with([](auto& c) { c.srsrc = 100; })).find("SGPRs"),
            std::string::npos);
  EXPECT_NE(reason(Gen::Gfx8, with([](auto& c) { c.soffset = 255; })).find("SOFFSET"),
            std::string::npos);
  EXPECT_NE(reason(Gen::Gfx8, with([](auto& c) { c.op = &op("buffer_atomic_fmin"); }))
                .find("does not exist"),
            std::string::npos);
  EXPECT_NE(reason(Gen::Gfx8, with([](auto& c) { c.op = &op("buffer_store_dword"), c.lds = true; }))
                .find("lds"),
            std::string::npos);
  EXPECT_NE(
      reason(Gen::Gfx8, with([](auto& c) { c.op = &op("tbuffer_load_format_x"), c.lds = true; }))
          .find("MTBUF"),
      std::string::npos);
  EXPECT_NE(reason(Gen::Gfx8, with([](auto& c) { c.dfmt = gcn::Dfmt::F32; })).find("format"),
            std::string::npos);
  EXPECT_NE(
      reason(Gen::Gfx8, with([](auto& c) { c.op = &op("buffer_load_dwordx4"), c.vdata = 253; }))
          .find("v255"),
      std::string::npos);
}

// Names a suite or route relies on resolve where the list is built; one misspelt name fails
// the whole list, naming it.
TEST(Opcodes, RequireOpcodesResolvesAListOrNamesTheBadName) {
  const auto ops = gcn::requireOpcodes<2>({"buffer_load_dword", "TBUFFER_LOAD_FORMAT_XY"});
  EXPECT_EQ(ops[0]->mnemonic, "buffer_load_dword");
  EXPECT_EQ(ops[1]->mnemonic, "tbuffer_load_format_xy");
  EXPECT_EQ(ops[1]->components, 2);
  try {
    (void)gcn::requireOpcodes<2>({"buffer_load_dword", "buffer_load_dwrd"});
    ADD_FAILURE() << "a misspelt mnemonic resolved";
  } catch (const gcn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("buffer_load_dwrd"), std::string::npos) << e.what();
  }
}

// validationError is validate() without the throw: the same text, nullopt for a valid one.
TEST(Opcodes, ValidationErrorMatchesValidate) {
  gcn::Instruction inst;
  inst.op = gcn::findOpcode("buffer_load_dword");
  EXPECT_FALSE(gcn::validationError(gcn::Gen::Gfx8, inst));
  inst.addr64 = true;
  const std::optional<std::string> why = gcn::validationError(gcn::Gen::Gfx8, inst);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "buffer_load_dword on gfx8: addr64 exists on gfx6/gfx7 only");
  EXPECT_THROW(gcn::validate(gcn::Gen::Gfx8, inst), gcn::Error);
}

}  // namespace opcodes_test

namespace opcodes_test {

// Which instructions write memory and which return data, read from the mnemonics alone (the GCN3
// ISA manual's MUBUF/MTBUF opcode lists: BUFFER_STORE_*, TBUFFER_STORE_* and BUFFER_ATOMIC_*
// write memory; loads return data, atomics only with GLC; BUFFER_WBINVL1* do neither).
TEST(Opcodes, WhatWritesMemoryAndWhatReturnsDataFollowsTheMnemonic) {
  std::size_t writers = 0;
  for (const gcn::OpcodeInfo& o : gcn::allOpcodes()) {
    const std::string_view m = o.mnemonic;
    const bool store = m.starts_with("buffer_store_") || m.starts_with("tbuffer_store_");
    const bool atomic = m.starts_with("buffer_atomic_");
    const bool load = m.starts_with("buffer_load_") || m.starts_with("tbuffer_load_");
    EXPECT_EQ(gcn::writesMemory(o.kind), store || atomic) << m;
    EXPECT_EQ(gcn::returnsData(o.kind, false), load) << m;
    EXPECT_EQ(gcn::returnsData(o.kind, true), load || atomic) << m;
    writers += gcn::writesMemory(o.kind) ? 1 : 0;
  }
  EXPECT_GT(writers, 0u);
}

}  // namespace opcodes_test
