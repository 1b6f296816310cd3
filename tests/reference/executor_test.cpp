// Wave executor: hand-derived golden cases (derivation next to each value, from CLRX and AMD
// documents, docs/gcn-facts.md and CLRX doc/GcnInstrsMubuf.md) and one asserted result per opcode
// and generation. Expected values are never taken from convert.h or address.h.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <string>

#include "reference/atomic.h"
#include "reference/error.h"
#include "reference/executor.h"
#include "reference/resource.h"

namespace gcn {
namespace executor_test {

constexpr uint64_t kBase = 0x10000;

const OpcodeInfo& opNamed(std::string_view m) {
  const OpcodeInfo* op = findOpcode(m);
  if (op == nullptr) throw Error("test: unknown opcode " + std::string(m));
  return *op;
}

// One instruction on one chip: V# in s[4:7], VDATA at v10, VADDR at v2.
struct Rig {
  const Chip* chip;
  Instruction inst;
  WaveState st;
  MemoryImage mem;
  std::vector<uint8_t> lds = std::vector<uint8_t>(1024);
  Policies pol;

  Rig(Gen g, std::string_view mnemonic, size_t memBytes = 1280)
      : chip(&representativeChip(g)), pol(Policies::defaults(g)) {
    inst.op = &opNamed(mnemonic);
    inst.srsrc = 4;
    inst.vdata = 10;
    mem.base = kBase;
    mem.bytes.resize(memBytes);
  }
  void setV(const VSharp& v) { setVsharpWords(st, 4, encodeVSharp(chip->gen, v)); }
  // OFFEN with VGPR offset = lane * step + first.
  void offen(uint32_t step, uint32_t first = 0) {
    inst.offen = true;
    inst.vaddr = 2;
    for (unsigned l = 0; l < kWaveSize; ++l)
      st.vgprMut(2)[l] = first + l * step;
  }
  ExecResult run() const { return execute(*chip, inst, st, mem, lds, pol, {.registers = true}); }
  uint32_t dwordAt(const ExecResult& r, uint64_t off) const {
    uint32_t d;
    std::memcpy(&d, r.memory().bytes.data() + off, 4);
    return d;
  }
  void putDword(uint64_t off, uint32_t d) { std::memcpy(mem.bytes.data() + off, &d, 4); }
};

// A raw buffer V# over the rig's memory; DATA_FORMAT 32/UINT as drivers set for raw
// buffers (GFX6/7 drop untyped accesses through an INVALID one, docs/gcn-facts.md).
VSharp rawV(uint32_t numRecords) {
  VSharp v;
  v.base = kBase;
  v.numRecords = numRecords;
  v.dataFormat = Dfmt::F32;
  v.numFormat = Nfmt::Uint;
  return v;
}

VSharp formatV(uint32_t numRecords, Dfmt d, Nfmt n, std::array<DstSel, 4> sel) {
  VSharp v = rawV(numRecords);
  v.dataFormat = d;
  v.numFormat = n;
  v.dstSel = sel;
  return v;
}

constexpr std::array<DstSel, 4> kXyzw{DstSel::X, DstSel::Y, DstSel::Z, DstSel::W};

// ---- typed loads ----------------------------------------------------------------------

TEST(Executor, LoadDwordReadsTheBytesAtEachLanesOffset) {
  Rig r(Gen::Gfx8, "buffer_load_dword");
  r.setV(rawV(1024));
  r.offen(4);
  for (size_t i = 0; i < r.mem.bytes.size(); ++i)
    r.mem.bytes[i] = static_cast<uint8_t>(i * 3);
  ExecResult out = r.run();
  for (unsigned l = 0; l < kWaveSize; ++l) {
    // CLRX GcnMemHandling: BUFOFFSET = AOFFSET = VGPR offset (STRIDE 0, OFFSET 0); little-endian
    // dword of the bytes 3*i at i = 4l..4l+3.
    const uint32_t b = 4 * l;
    const uint32_t want = static_cast<uint8_t>(3 * b) | static_cast<uint8_t>(3 * (b + 1)) << 8 |
                          static_cast<uint8_t>(3 * (b + 2)) << 16 |
                          static_cast<uint32_t>(static_cast<uint8_t>(3 * (b + 3))) << 24;
    ASSERT_EQ(out.lanes[l].vdataCount, 1);
    EXPECT_EQ(out.lanes[l].vdata[0], want) << "lane " << l;
    EXPECT_EQ(out.state->vgpr(10)[l], want);
    ASSERT_EQ(out.lanes[l].accesses.size(), 1u);
    EXPECT_EQ(out.lanes[l].accesses[0].address, kBase + b);
    EXPECT_TRUE(out.lanes[l].accesses[0].inRange);
    EXPECT_TRUE(out.lanes[l].accesses[0].mapped);
    EXPECT_FALSE(out.lanes[l].accesses[0].write);
  }
}

TEST(Executor, ByteAndShortLoadsZeroOrSignExtend) {
  // CLRX: UBYTE/USHORT zero-extend, SBYTE/SSHORT sign-extend. Memory: 0x80 at 0, 0x8001 at 2.
  struct Case {
    const char* op;
    uint32_t off, want;
  } cases[] = {{"buffer_load_ubyte", 0, 0x00000080u},
               {"buffer_load_sbyte", 0, 0xffffff80u},
               {"buffer_load_ushort", 2, 0x00008001u},
               {"buffer_load_sshort", 2, 0xffff8001u}};
  for (const Case& c : cases) {
    Rig r(Gen::Gfx7, c.op);
    r.setV(rawV(16));
    r.mem.bytes[0] = 0x80;
    r.mem.bytes[2] = 0x01;
    r.mem.bytes[3] = 0x80;
    r.inst.offset = static_cast<uint16_t>(c.off);
    ExecResult out = r.run();
    EXPECT_EQ(out.lanes[5].vdata[0], c.want) << c.op;
  }
}

TEST(Executor, Gfx9D16LoadsWriteOneHalfAndKeepTheOther) {
  // AMD RDNA3 ISA: D16 writes bits 15:0, D16_HI bits 31:16; the other half keeps the VGPR.
  // Old VGPR 0x12345678; memory byte 0x80, short 0xbeef.
  struct Case {
    const char* op;
    uint32_t off, want;
  } cases[] = {{"buffer_load_ubyte_d16", 0, 0x12340080u},
               {"buffer_load_sbyte_d16", 0, 0x1234ff80u},  // 0x80 sign-extended to 16 bits
               {"buffer_load_short_d16", 2, 0x1234beefu},
               {"buffer_load_ubyte_d16_hi", 0, 0x00805678u},
               {"buffer_load_sbyte_d16_hi", 0, 0xff805678u},
               {"buffer_load_short_d16_hi", 2, 0xbeef5678u}};
  for (const Case& c : cases) {
    Rig r(Gen::Gfx9, c.op);
    r.setV(rawV(16));
    r.mem.bytes[0] = 0x80;
    r.mem.bytes[2] = 0xef;
    r.mem.bytes[3] = 0xbe;
    r.inst.offset = static_cast<uint16_t>(c.off);
    for (auto& x : r.st.vgprMut(10))
      x = 0x12345678u;
    ExecResult out = r.run();
    EXPECT_EQ(out.lanes[0].vdata[0], c.want) << c.op;
    // d16-keep=unclaimed (LLVM d16PreservesUnusedBits is false with SRAM-ECC): the register
    // holds an unclaimed half, so no value is claimed for it.
    r.pol.set("d16-keep=unclaimed");
    EXPECT_FALSE(r.run().lanes[0].vdata[0].has_value()) << c.op;
  }
  // A packed D16 format load of two components writes both halves: claimed either way.
  Rig f(Gen::Gfx9, "buffer_load_format_d16_xy");
  f.setV(formatV(16, Dfmt::F16_16, Nfmt::Uint, kXyzw));
  f.putDword(0, 0x00020001u);
  f.pol.set("d16-keep=unclaimed");
  EXPECT_EQ(f.run().lanes[0].vdata[0], 0x00020001u);
}

TEST(Executor, OutOfRangeLoadsReturnZeroAndStoresAreDropped) {
  // CLRX GcnMemHandling, STRIDE 0: out of range when BUFOFFSET >= NUM_RECORDS - SOFFSET(0).
  // NUM_RECORDS 32: lanes 0..7 (offsets 0..28) in range, lanes 8.. out.
  Rig r(Gen::Gfx6, "buffer_load_dword");
  r.setV(rawV(32));
  r.offen(4);
  for (auto& b : r.mem.bytes)
    b = 0xaa;
  ExecResult out = r.run();
  EXPECT_EQ(out.lanes[7].vdata[0], 0xaaaaaaaau);
  EXPECT_EQ(out.lanes[8].vdata[0], 0u);
  EXPECT_FALSE(out.lanes[8].accesses[0].inRange);

  Rig s(Gen::Gfx6, "buffer_store_dword");
  s.setV(rawV(32));
  s.offen(4);
  for (auto& x : s.st.vgprMut(10))
    x = 0x11223344u;
  ExecResult st = s.run();
  EXPECT_EQ(s.dwordAt(st, 28), 0x11223344u);
  EXPECT_EQ(s.dwordAt(st, 32), 0u);  // lane 8: dropped
  EXPECT_EQ(s.dwordAt(st, 252), 0u);
  EXPECT_EQ(st.lanes[8].vdataCount, 0);
}

TEST(Executor, DwordX2StraddlingTheEndFollowsTheStraddlePolicy) {
  // NUM_RECORDS 6, access of 8 bytes at 0. "start": only offset 0 is checked -> both dwords
  // read. "whole": per dword (AMD RDNA3 ISA), dword 1 (bytes 4..7) ends past 6 -> 0.
  for (const char* choice : {"straddle=start", "straddle=whole"}) {
    Rig r(Gen::Gfx9, "buffer_load_dwordx2");
    r.setV(rawV(6));
    r.putDword(0, 0x01020304u);
    r.putDword(4, 0x05060708u);
    r.pol.set(choice);
    ExecResult out = r.run();
    EXPECT_EQ(out.lanes[0].vdata[0], 0x01020304u) << choice;
    EXPECT_EQ(out.lanes[0].vdata[1], std::string(choice) == "straddle=start" ? 0x05060708u : 0u)
        << choice;
  }
}

TEST(Executor, AllZeroVSharpLoadsZeroAndIgnoresStores) {
  // docs/gcn-facts.md / AMD RDNA3 ISA all-zero resource constant: all-zero V# -> loads 0, stores
  // no-op, even with soffset=wraps where NUM_RECORDS - SOFFSET would wrap to "in range".
  Rig r(Gen::Gfx6, "buffer_store_dword", 64);
  r.mem.base = 0;
  r.inst.soffset = 129;  // inline constant 1
  for (auto& x : r.st.vgprMut(10))
    x = 0xffffffffu;
  ExecResult st = r.run();
  for (uint8_t b : st.memory().bytes)
    ASSERT_EQ(b, 0);
  EXPECT_FALSE(st.notes.empty());

  Rig l(Gen::Gfx6, "buffer_load_format_xyzw", 64);
  l.mem.base = 0;
  for (auto& b : l.mem.bytes)
    b = 0x5a;
  ExecResult ld = l.run();
  for (unsigned i = 0; i < 4; ++i)
    EXPECT_EQ(ld.lanes[3].vdata[i], 0u);
}

TEST(Executor, SoffsetInlineConstantsShiftTheAddress) {
  // Operand encoding: 132 = inline 4 (CLRX GcnOperands). ADDR = BASE + SOFFSET +
  // OFFSET: OFFSET 8 with SOFFSET 4 reads byte 12.
  Rig r(Gen::Gfx8, "buffer_load_ubyte");
  r.setV(rawV(64));
  for (size_t i = 0; i < 64; ++i)
    r.mem.bytes[i] = static_cast<uint8_t>(i);
  r.inst.offset = 8;
  r.inst.soffset = 132;
  EXPECT_EQ(r.run().lanes[0].vdata[0], 12u);
  // 193 = -1, i.e. 0xffffffff: SOFFSET is an unsigned 32-bit term added to the 48-bit base
  // (CLRX GcnMemHandling: ADDRESS = BASE + SGPR_OFFSET + ...), so no wrap back to byte 7.
  r.inst.soffset = 193;
  ExecResult out = r.run();
  EXPECT_EQ(out.lanes[0].accesses[0].address, kBase + 0xffffffffull + 8);
}

TEST(Executor, InRangeAccessOutsideTheImageIsReportedNotPerformed) {
  Rig r(Gen::Gfx8, "buffer_load_dword", 16);
  r.setV(rawV(4096));  // the buffer claims 4 KiB, the image holds 16 bytes
  r.offen(4);
  ExecResult out = r.run();
  EXPECT_TRUE(out.lanes[3].vdata[0].has_value());
  EXPECT_FALSE(out.lanes[4].vdata[0].has_value());
  EXPECT_TRUE(out.lanes[4].accesses[0].inRange);
  EXPECT_FALSE(out.lanes[4].accesses[0].mapped);
  EXPECT_FALSE(out.lanes[4].note.empty());
}

TEST(Executor, InactiveLanesDoNothing) {
  Rig r(Gen::Gfx7, "buffer_store_dword");
  r.setV(rawV(1024));
  r.offen(4);
  r.st.exec = 0x5;  // lanes 0 and 2
  for (auto& x : r.st.vgprMut(10))
    x = 0xdeadbeefu;
  ExecResult out = r.run();
  EXPECT_EQ(r.dwordAt(out, 0), 0xdeadbeefu);
  EXPECT_EQ(r.dwordAt(out, 4), 0u);
  EXPECT_EQ(r.dwordAt(out, 8), 0xdeadbeefu);
  EXPECT_FALSE(out.lanes[1].active);
  EXPECT_TRUE(out.lanes[1].accesses.empty());
}

TEST(Executor, LdsDirectLoadWritesLdsNotVgprs) {
  // CLRX GcnMemHandling: LDS_ADDR = (M0 & 0xffff) + LANEID*4; M0 = 0x10008 -> 8 + 4*lane; UBYTE
  // value 0x9c is stored zero-extended as a dword.
  Rig r(Gen::Gfx7, "buffer_load_ubyte");
  r.setV(rawV(64));
  r.mem.bytes[0] = 0x9c;
  r.inst.lds = true;
  r.st.m0 = 0x10008;
  for (auto& x : r.st.vgprMut(10))
    x = 0x77777777u;
  ExecResult out = r.run();
  for (unsigned l = 0; l < kWaveSize; ++l) {
    uint32_t d;
    std::memcpy(&d, out.lds.data() + 8 + 4 * l, 4);
    EXPECT_EQ(d, 0x9cu) << l;
    EXPECT_EQ(out.lanes[l].vdataCount, 0);
    EXPECT_EQ(out.state->vgpr(10)[l], 0x77777777u);
  }
  EXPECT_EQ(out.lds[0], 0);
}

TEST(Executor, TfeDwordIsZeroAfterASuccessfulFetchAndUnclaimedOtherwise) {
  Rig r(Gen::Gfx8, "buffer_load_dword");
  r.setV(rawV(8));
  r.offen(4);
  r.inst.tfe = true;
  ExecResult out = r.run();
  EXPECT_EQ(out.lanes[0].vdataCount, 2);
  EXPECT_EQ(out.lanes[0].vdata[1], 0u);  // LLVM/Mesa: 0 = fetch succeeded
  EXPECT_FALSE(out.lanes[5].vdata[1].has_value());
  EXPECT_FALSE(out.lanes[5].note.empty());
}

// ---- format ops ---------------------------------------------------------------------

TEST(Executor, LoadFormat8888UnormGivesHandComputedFloats) {
  // CLRX GcnMemHandling UNORM: c / 255. 0xff -> 1.0f = 0x3f800000; 0x00 -> 0; 0x80 -> 128/255 =
  // 0.50196..., correctly rounded: 2^-1 * (1 + m/2^23), m = round(2^23 * (256/255 - 1)) =
  // round(32896.502) = 32897 = 0x8081 -> 0x3f008081. DST_SEL WZYX reverses.
  Rig r(Gen::Gfx8, "buffer_load_format_xyzw");
  r.pol.set("norm=exact");
  r.setV(formatV(64, Dfmt::F8_8_8_8, Nfmt::Unorm, {DstSel::W, DstSel::Z, DstSel::Y, DstSel::X}));
  r.mem.bytes[0] = 0xff;  // X
  r.mem.bytes[1] = 0x00;  // Y
  r.mem.bytes[2] = 0x80;  // Z
  r.mem.bytes[3] = 0xff;  // W
  ExecResult out = r.run();
  const auto& v = out.lanes[0].vdata;
  EXPECT_EQ(v[0], 0x3f800000u);  // W
  EXPECT_EQ(v[1], 0x3f008081u);  // Z
  EXPECT_EQ(v[2], 0u);           // Y
  EXPECT_EQ(v[3], 0x3f800000u);  // X
  EXPECT_EQ(out.lanes[0].accesses[0].size, 4);
}

TEST(Executor, ComponentCountMismatchesFollowSeed004) {
  // load_format_x on 32_32_32_32: reads 16 bytes, returns X only.
  Rig a(Gen::Gfx9, "buffer_load_format_x");
  a.setV(formatV(64, Dfmt::F32_32_32_32, Nfmt::Uint, kXyzw));
  a.putDword(0, 111);
  a.putDword(4, 222);
  ExecResult ra = a.run();
  EXPECT_EQ(ra.lanes[0].vdataCount, 1);
  EXPECT_EQ(ra.lanes[0].vdata[0], 111u);
  EXPECT_EQ(ra.lanes[0].accesses[0].size, 16);

  // load_format_xyzw on 32 FLOAT, DST_SEL X,0,0,1: returns X, 0, 0, 1.0f.
  Rig b(Gen::Gfx9, "buffer_load_format_xyzw");
  b.setV(formatV(64, Dfmt::F32, Nfmt::Float, {DstSel::X, DstSel::Zero, DstSel::Zero, DstSel::One}));
  b.putDword(0, 0x40490fdbu);  // pi
  ExecResult rb = b.run();
  EXPECT_EQ(rb.lanes[0].vdata[0], 0x40490fdbu);
  EXPECT_EQ(rb.lanes[0].vdata[1], 0u);
  EXPECT_EQ(rb.lanes[0].vdata[2], 0u);
  EXPECT_EQ(rb.lanes[0].vdata[3], 0x3f800000u);
  EXPECT_EQ(rb.lanes[0].accesses[0].size, 4);

  // store_format_x on 32_32_32_32 UINT, DST_SEL X,0,0,1: 4 dwords X, 0, 0, 1 (UINT one).
  Rig c(Gen::Gfx9, "buffer_store_format_x");
  c.setV(formatV(64, Dfmt::F32_32_32_32, Nfmt::Uint,
                 {DstSel::X, DstSel::Zero, DstSel::Zero, DstSel::One}));
  c.st.exec = 1;
  c.st.vgprMut(10)[0] = 77;
  for (auto& b2 : c.mem.bytes)
    b2 = 0xee;
  ExecResult rc = c.run();
  EXPECT_EQ(c.dwordAt(rc, 0), 77u);
  EXPECT_EQ(c.dwordAt(rc, 4), 0u);
  EXPECT_EQ(c.dwordAt(rc, 8), 0u);
  EXPECT_EQ(c.dwordAt(rc, 12), 1u);
  EXPECT_EQ(c.dwordAt(rc, 16), 0xeeeeeeeeu);

  // store_format_xyzw on 32: stores X only.
  Rig d(Gen::Gfx9, "buffer_store_format_xyzw");
  d.setV(formatV(64, Dfmt::F32, Nfmt::Uint, kXyzw));
  d.st.exec = 1;
  for (unsigned i = 0; i < 4; ++i)
    d.st.vgprMut(10 + i)[0] = 5 + i;
  ExecResult rd = d.run();
  EXPECT_EQ(d.dwordAt(rd, 0), 5u);
  EXPECT_EQ(d.dwordAt(rd, 4), 0u);
}

TEST(Executor, FormatStoreConvertsFloatToUnorm) {
  // CLRX GcnMemHandling: float -> UNORM8 = round(f * 255) to nearest even: 0.5 -> 127.5 -> 128
  // (even), 1.0 -> 255, 0.0 -> 0, 2.0 clamps to 255.
  Rig r(Gen::Gfx7, "buffer_store_format_xyzw");
  r.setV(formatV(64, Dfmt::F8_8_8_8, Nfmt::Unorm, kXyzw));
  r.st.exec = 1;
  r.st.vgprMut(10)[0] = 0x3f000000u;  // 0.5
  r.st.vgprMut(11)[0] = 0x3f800000u;  // 1.0
  r.st.vgprMut(12)[0] = 0u;           // 0.0
  r.st.vgprMut(13)[0] = 0x40000000u;  // 2.0
  ExecResult out = r.run();
  EXPECT_EQ(r.dwordAt(out, 0), 0xff00ff80u);
}

// A BGRA-style V# (DST_SEL Z,Y,X,W, as RADV builds for B8G8R8A8) under both readings of
// policy store-dst-sel. UINT registers R=1, G=2, B=3, A=4 (one byte each, no conversion).
// ignore: bytes in register order 01 02 03 04 -> dword 0x04030201.
// inverse: memory component DST_SEL[i] gets register i: R -> Z (byte 2), G -> Y (byte 1),
// B -> X (byte 0), A -> W (byte 3): bytes 03 02 01 04 -> dword 0x04010203 (Vulkan's BGRA).
// Registers X..W = 1, 2, 3, 4 stored as 8_8_8_8 UINT. DST_SEL ZYXW is its own inverse, so
// inverse and forward agree: bytes 3 2 1 4. DST_SEL YZWX (not an involution): inverse puts
// register i in memory component DST_SEL[i] (mem Y=1, Z=2, W=3, X=4: bytes 4 1 2 3, shadPS4
// StoreBufferFormat); forward puts register DST_SEL[i] in memory component i (bytes 2 3 4 1);
// ignore keeps register order (1 2 3 4).
TEST(Executor, SwizzledFormatStoreFollowsTheStoreDstSelPolicy) {
  struct Row {
    std::array<DstSel, 4> sel;
    const char* option;
    uint32_t dword;
  };
  const std::array<DstSel, 4> zyxw{DstSel::Z, DstSel::Y, DstSel::X, DstSel::W};
  const std::array<DstSel, 4> yzwx{DstSel::Y, DstSel::Z, DstSel::W, DstSel::X};
  for (const Row& row : {Row{zyxw, "store-dst-sel=ignore", 0x04030201u},
                         Row{zyxw, "store-dst-sel=inverse", 0x04010203u},
                         Row{zyxw, "store-dst-sel=forward", 0x04010203u},
                         Row{yzwx, "store-dst-sel=ignore", 0x04030201u},
                         Row{yzwx, "store-dst-sel=inverse", 0x03020104u},
                         Row{yzwx, "store-dst-sel=forward", 0x01040302u}}) {
    for (Gen gen : kGcnGens) {
      Rig r(gen, "buffer_store_format_xyzw");
      r.setV(formatV(64, Dfmt::F8_8_8_8, Nfmt::Uint, row.sel));
      r.pol.set(row.option);
      r.st.exec = 1;
      for (unsigned i = 0; i < 4; ++i)
        r.st.vgprMut(10 + i)[0] = i + 1;
      EXPECT_EQ(r.dwordAt(r.run(), 0), row.dword) << row.option << " " << genName(gen);
    }
  }
  // inverse is every generation's default (CLRX and shadPS4 apply DST_SEL on format stores).
  for (Gen gen : kGcnGens)
    EXPECT_EQ(Policies::defaults(gen).storeDstSel(), policy::StoreDstSel::Inverse);
}

// DATA_FORMAT INVALID on an untyped access: dropped on GFX6/7 (Mesa radeonsi si_compute.c,
// "it cannot be BUF_DATA_FORMAT_INVALID" before GFX8), performed on GFX8/9 (RADV's GFX8+ ring
// descriptors have DATA_FORMAT 0).
TEST(Executor, DataFormatInvalidDropsUntypedAccessesOnGfx6And7Only) {
  for (Gen gen : kGcnGens) {
    const bool dropped = gen == Gen::Gfx6 || gen == Gen::Gfx7;
    VSharp v = rawV(64);
    v.dataFormat = Dfmt::Invalid;
    Rig store(gen, "buffer_store_dword");
    store.setV(v);
    store.offen(4);
    store.st.exec = 1;
    store.st.vgprMut(10)[0] = 0x12345678;
    EXPECT_EQ(store.dwordAt(store.run(), 0), dropped ? 0u : 0x12345678u) << genName(gen);
    Rig load(gen, "buffer_load_dword");
    load.setV(v);
    load.offen(4);
    load.st.exec = 1;
    load.putDword(0, 0xabcdef01);
    EXPECT_EQ(load.run().lanes[0].vdata[0], dropped ? 0u : 0xabcdef01u) << genName(gen);
    Rig atomic(gen, "buffer_atomic_add");
    atomic.setV(v);
    atomic.offen(4);
    atomic.inst.glc = true;
    atomic.st.exec = 1;
    atomic.putDword(0, 10);
    atomic.st.vgprMut(10)[0] = 5;
    const ExecResult out = atomic.run();
    EXPECT_EQ(atomic.dwordAt(out, 0), dropped ? 10u : 15u) << genName(gen);
    EXPECT_EQ(out.lanes[0].vdata[0], dropped ? 0u : 10u) << genName(gen);
  }
}

// ADD_TID_ENABLE on GFX8/9: a MUBUF access reads DATA_FORMAT as STRIDE[17:14] (Mesa
// ac_set_buf_desc_word3). STRIDE 4, DATA_FORMAT 1 (8): lane 1 reads at 4 + 16384 = 16388 there,
// at 4 on GFX6/7; MTBUF takes its format from the instruction and keeps STRIDE 4.
TEST(Executor, AddTidReadsDataFormatAsHighStrideBitsOnGfx8And9Mubuf) {
  for (Gen gen : kGcnGens) {
    const bool wide = gen == Gen::Gfx8 || gen == Gen::Gfx9;
    VSharp v = rawV(1u << 20);
    v.stride = 4;
    v.dataFormat = Dfmt::F8;
    v.addTidEnable = true;
    Rig r(gen, "buffer_load_dword", 20000);
    r.setV(v);
    r.st.exec = 2;  // lane 1
    r.putDword(4, 0x44444444);
    r.putDword(16388, 0x16388);
    EXPECT_EQ(r.run().lanes[1].vdata[0], wide ? 0x16388u : 0x44444444u) << genName(gen);
    Rig t(gen, "tbuffer_load_format_x", 20000);
    t.inst.dfmt = Dfmt::F32;
    t.inst.nfmt = Nfmt::Uint;
    t.setV(v);
    t.st.exec = 2;
    t.putDword(4, 0x44444444);
    t.putDword(16388, 0x16388);
    EXPECT_EQ(t.run().lanes[1].vdata[0], 0x44444444u) << genName(gen);
    // A MUBUF format op there has no data format (the field is stride bits): no value claimed
    // on GFX8/9; on GFX6/7 DATA_FORMAT 8 UINT reads the byte 0x44.
    Rig f(gen, "buffer_load_format_x", 20000);
    VSharp fv = v;
    fv.numFormat = Nfmt::Uint;
    f.setV(fv);
    f.st.exec = 2;
    f.putDword(4, 0x44444444);
    f.putDword(16388, 0x16388);
    const auto got = f.run().lanes[1].vdata[0];
    if (wide) {
      EXPECT_FALSE(got.has_value()) << genName(gen);
    } else {
      EXPECT_EQ(got, 0x44u) << genName(gen);
    }
  }
}

// LLVM AMDGPU splitMUBUFOffset: atomics fail when an address component is unaligned even if
// the sum is aligned; what they do is not recorded, so no value is claimed. VGPR offset 2 +
// OFFSET 2 (sum 4) and SOFFSET 2 + VGPR offset 2: unclaimed; VGPR offset 4 + OFFSET 0: claimed.
TEST(Executor, AtomicWithAnUnalignedAddressComponentClaimsNoValue) {
  struct Row {
    uint32_t voffset, instOffset, soffset;
    bool claimed;
  };
  for (const Row& row :
       {Row{2, 2, 0, false}, Row{2, 0, 2, false}, Row{4, 0, 0, true}, Row{0, 4, 0, true}}) {
    Rig r(Gen::Gfx8, "buffer_atomic_add");
    r.setV(rawV(256));
    r.offen(0, row.voffset);
    r.inst.offset = static_cast<uint16_t>(row.instOffset);
    r.inst.soffset = 20;
    r.st.sgpr[20] = row.soffset;
    r.inst.glc = true;
    r.st.exec = 1;
    r.putDword(4, 7);
    r.st.vgprMut(10)[0] = 1;
    const ExecResult out = r.run();
    EXPECT_EQ(out.lanes[0].vdata[0].has_value(), row.claimed)
        << row.voffset << "+" << row.instOffset;
    if (row.claimed) {
      EXPECT_EQ(out.lanes[0].vdata[0], 7u);
    }
  }
}

TEST(Executor, DataFormatInvalidOnFormatOpsLoadsZero) {
  Rig r(Gen::Gfx8, "buffer_load_format_xy");
  r.setV(formatV(64, Dfmt::Invalid, Nfmt::Uint, kXyzw));
  for (auto& b : r.mem.bytes)
    b = 0x33;
  ExecResult out = r.run();
  EXPECT_EQ(out.lanes[0].vdata[0], 0u);
  EXPECT_EQ(out.lanes[0].vdata[1], 0u);
}

TEST(Executor, UnclaimedValuesAreNulloptWithAReason) {
  // Reserved DST_SEL (2) for Y.
  Rig r(Gen::Gfx8, "buffer_load_format_xy");
  r.setV(
      formatV(64, Dfmt::F16_16, Nfmt::Uint, {DstSel::X, DstSel::Reserved2, DstSel::Z, DstSel::W}));
  ExecResult out = r.run();
  EXPECT_EQ(out.lanes[0].vdata[0], 0u);
  EXPECT_FALSE(out.lanes[0].vdata[1].has_value());
  EXPECT_FALSE(out.lanes[0].note.empty());
  // 10_11_11 on GFX6: CLRX "seemingly doesn't work" -> unknown (docs/gcn-facts.md).
  Rig u(Gen::Gfx6, "buffer_load_format_xyz");
  u.setV(formatV(64, Dfmt::F10_11_11, Nfmt::Float, kXyzw));
  ExecResult ou = u.run();
  for (unsigned i = 0; i < 3; ++i)
    EXPECT_FALSE(ou.lanes[0].vdata[i].has_value());
  EXPECT_FALSE(ou.lanes[0].note.empty());
}

// DATA_FORMAT 15 is reserved: no value and no write is claimed, but the access is planned at
// 16 bytes (the largest element) so that the range check and the reach cover it. A load and a
// store with IDXEN and STRIDE 4: lane n's access starts at 4n.
TEST(Executor, ReservedDataFormatClaimsNothingAndSpansSixteenBytes) {
  for (const char* op : {"buffer_load_format_x", "buffer_store_format_x"}) {
    SCOPED_TRACE(op);
    Rig r(Gen::Gfx8, op);
    VSharp v = formatV(64, Dfmt::Reserved, Nfmt::Uint, kXyzw);
    v.stride = 4;
    r.setV(v);
    r.inst.idxen = true;
    r.inst.vaddr = 2;
    for (unsigned l = 0; l < kWaveSize; ++l)
      r.st.vgprMut(2)[l] = l;
    for (auto& b : r.mem.bytes)
      b = 0x5a;
    const ExecResult out = r.run();
    for (unsigned l : {0u, 3u}) {
      ASSERT_EQ(out.lanes[l].accesses.size(), 1u);
      EXPECT_EQ(out.lanes[l].accesses[0].address, kBase + 4 * l);
      EXPECT_EQ(out.lanes[l].accesses[0].size, 16u);
      EXPECT_NE(out.lanes[l].note.find("DATA_FORMAT 15 is reserved"), std::string::npos);
    }
    if (std::string(op) == "buffer_load_format_x") {
      EXPECT_FALSE(out.lanes[0].vdata[0].has_value());
    } else {
      EXPECT_EQ(out.memory().bytes, r.mem.bytes);  // nothing written is claimed
    }
  }
}

TEST(Executor, MtbufTakesFormatFromTheInstructionAndIgnoresTheResource) {
  // CLRX GcnMemHandling: TBUFFER_* format from the instruction, DST_SEL identity. V# says 8_8_8_8
  // with swapped DST_SEL; the instruction says 16_16 UINT: halves 0x0102, 0x0304.
  Rig r(Gen::Gfx7, "tbuffer_load_format_xy");
  r.setV(formatV(64, Dfmt::F8_8_8_8, Nfmt::Unorm, {DstSel::Y, DstSel::X, DstSel::Z, DstSel::W}));
  r.inst.dfmt = Dfmt::F16_16;
  r.inst.nfmt = Nfmt::Uint;
  r.putDword(0, 0x03040102u);
  ExecResult out = r.run();
  EXPECT_EQ(out.lanes[0].vdata[0], 0x0102u);
  EXPECT_EQ(out.lanes[0].vdata[1], 0x0304u);
}

TEST(Executor, D16FormatLoadsPackPerChip) {
  // 16_16 UINT halves 1 and 2 (AMD RDNA3 ISA: D16 data LSB first). gfx9 (vega10, packed): one
  // VGPR 0x00020001. gfx8 (tonga, gfx802, unpacked): two VGPRs 1 and 2.
  Rig p(Gen::Gfx9, "buffer_load_format_d16_xy");
  p.setV(formatV(64, Dfmt::F16_16, Nfmt::Uint, kXyzw));
  p.putDword(0, 0x00020001u);
  ExecResult rp = p.run();
  EXPECT_EQ(rp.lanes[0].vdataCount, 1);
  EXPECT_EQ(rp.lanes[0].vdata[0], 0x00020001u);

  Rig u(Gen::Gfx8, "buffer_load_format_d16_xy");
  u.setV(formatV(64, Dfmt::F16_16, Nfmt::Uint, kXyzw));
  u.putDword(0, 0x00020001u);
  ExecResult ru = u.run();
  EXPECT_EQ(ru.lanes[0].vdataCount, 2);
  EXPECT_EQ(ru.lanes[0].vdata[0], 1u);
  EXPECT_EQ(ru.lanes[0].vdata[1], 2u);
}

// ---- atomics ------------------------------------------------------------------------

TEST(Executor, AtomicAddReturnsThePreOpValueWithGlc) {
  Rig r(Gen::Gfx8, "buffer_atomic_add");
  r.setV(rawV(256));
  r.offen(4);
  r.inst.glc = true;
  for (unsigned l = 0; l < kWaveSize; ++l) {
    r.putDword(4 * l, 5 + l);
    r.st.vgprMut(10)[l] = 3;
  }
  ExecResult out = r.run();
  for (unsigned l = 0; l < kWaveSize; ++l) {
    EXPECT_EQ(r.dwordAt(out, 4 * l), 8 + l);  // 5 + l + 3
    EXPECT_EQ(out.lanes[l].vdata[0], 5 + l);
  }
  r.inst.glc = false;
  EXPECT_EQ(r.run().lanes[0].vdataCount, 0);
}

TEST(Executor, CmpswapDataIsSourceThenCompare) {
  // CLRX: *VM = *VM == VDATA[1] ? VDATA[0] : *VM. Lane 0: mem 7, src 9, cmp 7 -> 9.
  // Lane 1: mem 7, cmp 8 -> unchanged.
  Rig r(Gen::Gfx7, "buffer_atomic_cmpswap");
  r.setV(rawV(256));
  r.offen(4);
  r.inst.glc = true;
  r.st.exec = 3;
  r.putDword(0, 7);
  r.putDword(4, 7);
  r.st.vgprMut(10)[0] = 9;
  r.st.vgprMut(11)[0] = 7;
  r.st.vgprMut(10)[1] = 9;
  r.st.vgprMut(11)[1] = 8;
  ExecResult out = r.run();
  EXPECT_EQ(r.dwordAt(out, 0), 9u);
  EXPECT_EQ(r.dwordAt(out, 4), 7u);
  EXPECT_EQ(out.lanes[0].vdata[0], 7u);
  EXPECT_EQ(out.lanes[1].vdata[0], 7u);
  EXPECT_EQ(out.lanes[0].vdataCount, 1);
}

TEST(Executor, SameAddressAtomicsApplyInLaneOrderWithANote) {
  // 64 lanes add 1 at offset 0, initial 100: final 164; lane l sees 100 + l (lane order).
  Rig r(Gen::Gfx9, "buffer_atomic_add");
  r.setV(rawV(256));
  r.inst.glc = true;
  r.putDword(0, 100);
  for (auto& x : r.st.vgprMut(10))
    x = 1;
  ExecResult out = r.run();
  EXPECT_EQ(r.dwordAt(out, 0), 164u);
  for (unsigned l = 0; l < kWaveSize; ++l)
    EXPECT_EQ(out.lanes[l].vdata[0], 100 + l);
  bool noted = false;
  for (const auto& n : out.notes)
    noted = noted || n.find("lane order") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(Executor, OutOfRangeAtomicChangesNothingAndReturnsZero) {
  Rig r(Gen::Gfx6, "buffer_atomic_swap");
  r.setV(rawV(4));
  r.offen(4);
  r.inst.glc = true;
  r.putDword(4, 0x55);
  for (auto& x : r.st.vgprMut(10))
    x = 0x99;
  ExecResult out = r.run();
  EXPECT_EQ(r.dwordAt(out, 0), 0x99u);
  EXPECT_EQ(r.dwordAt(out, 4), 0x55u);
  EXPECT_EQ(out.lanes[1].vdata[0], 0u);
}

TEST(Atomic, IncDecWrapPerClrx) {
  // INC: (*VM < VDATA) ? *VM+1 : 0.  DEC: (*VM <= VDATA && *VM != 0) ? *VM-1 : VDATA.
  EXPECT_EQ(applyAtomic(AtomicOp::Inc, false, 2, 3, 0).newValue, 3u);
  EXPECT_EQ(applyAtomic(AtomicOp::Inc, false, 3, 3, 0).newValue, 0u);
  EXPECT_EQ(applyAtomic(AtomicOp::Dec, false, 0, 5, 0).newValue, 5u);
  EXPECT_EQ(applyAtomic(AtomicOp::Dec, false, 6, 5, 0).newValue, 5u);
  EXPECT_EQ(applyAtomic(AtomicOp::Dec, false, 5, 5, 0).newValue, 4u);
  EXPECT_EQ(applyAtomic(AtomicOp::Inc, true, 0xffffffffull, ~0ull, 0).newValue, 0x100000000ull);
  EXPECT_EQ(applyAtomic(AtomicOp::Smin, false, 1, 0xffffffffu, 0).newValue, 0xffffffffu);
  EXPECT_EQ(applyAtomic(AtomicOp::Umin, false, 1, 0xffffffffu, 0).newValue, 1u);
  EXPECT_EQ(applyAtomic(AtomicOp::Rsub, false, 3, 10, 0).newValue, 7u);
  EXPECT_THROW(applyAtomic(AtomicOp::None, false, 0, 0, 0), Error);
}

TEST(Atomic, FloatMinMaxNanAndSignedZeroAreNotClaimed) {
  const uint32_t nan = 0x7fc00000u, one = 0x3f800000u, negZero = 0x80000000u;
  EXPECT_FALSE(applyAtomic(AtomicOp::Fmin, false, nan, one, 0).claimed);
  EXPECT_FALSE(applyAtomic(AtomicOp::Fmax, false, negZero, 0, 0).claimed);
  AtomicOutcome o = applyAtomic(AtomicOp::Fmin, false, one, 0x40000000u /*2.0*/, 0);
  EXPECT_TRUE(o.claimed);
  EXPECT_EQ(o.newValue, one);
  EXPECT_EQ(applyAtomic(AtomicOp::Fmax, false, one, 0x40000000u, 0).newValue, 0x40000000u);
  // FCMPSWAP compares floats: +0 == -0 is true in IEEE, but the reference does not claim it.
  EXPECT_FALSE(applyAtomic(AtomicOp::Fcmpswap, false, 0, 5, negZero).claimed);
  EXPECT_EQ(applyAtomic(AtomicOp::Fcmpswap, false, one, 5, one).newValue, 5u);
}

// ---- errors -------------------------------------------------------------------------

TEST(Executor, IllegalInstructionsRaiseGcnError) {
  Rig r(Gen::Gfx9, "buffer_load_dword");
  r.setV(rawV(64));
  r.inst.addr64 = true;  // gfx6/7 only
  r.inst.vaddr = 2;
  EXPECT_THROW(r.run(), Error);
  Rig s(Gen::Gfx8, "buffer_load_dword");
  s.inst.soffset = 106;  // vcc_lo: legal operand, but not in WaveState
  EXPECT_THROW(s.run(), Error);
  Rig n(Gen::Gfx8, "buffer_load_dword");
  n.inst.op = nullptr;
  EXPECT_THROW(n.run(), Error);
}

// ---- every opcode of every generation -----------------------------------------------

uint8_t patternByte(size_t i) {
  return static_cast<uint8_t>(i * 7 + 3);
}
uint32_t patternDword(size_t off) {
  return patternByte(off) | patternByte(off + 1) << 8 | patternByte(off + 2) << 16 |
         static_cast<uint32_t>(patternByte(off + 3)) << 24;
}
uint32_t dataReg(unsigned r, unsigned lane) {
  return 0x9e3779b9u * (lane + 1) + 0x01010101u * r;
}

// The expected 32/64-bit atomic result, written from CLRX's Operation blocks.
uint64_t expectAtomic(AtomicOp op, bool wide, uint64_t m, uint64_t s, uint64_t c) {
  const uint64_t mask = wide ? ~0ull : 0xffffffffull;
  auto sgn = [&](uint64_t x) {
    return wide ? static_cast<int64_t>(x) : static_cast<int64_t>(static_cast<int32_t>(x));
  };
  auto fl = [&](uint64_t x) {
    return wide ? std::bit_cast<double>(x)
                : static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(x)));
  };
  switch (op) {
    case AtomicOp::Swap:
      return s;
    case AtomicOp::Cmpswap:
      return m == c ? s : m;
    case AtomicOp::Add:
      return (m + s) & mask;
    case AtomicOp::Sub:
      return (m - s) & mask;
    case AtomicOp::Rsub:
      return (s - m) & mask;
    case AtomicOp::Smin:
      return sgn(m) <= sgn(s) ? m : s;
    case AtomicOp::Umin:
      return m <= s ? m : s;
    case AtomicOp::Smax:
      return sgn(m) >= sgn(s) ? m : s;
    case AtomicOp::Umax:
      return m >= s ? m : s;
    case AtomicOp::And:
      return m & s;
    case AtomicOp::Or:
      return m | s;
    case AtomicOp::Xor:
      return m ^ s;
    case AtomicOp::Inc:
      return m < s ? (m + 1) & mask : 0;
    case AtomicOp::Dec:
      return (m <= s && m != 0) ? m - 1 : s;
    case AtomicOp::Fcmpswap:
      return fl(m) == fl(c) ? s : m;
    case AtomicOp::Fmin:
      return fl(s) < fl(m) ? s : m;
    case AtomicOp::Fmax:
      return fl(s) > fl(m) ? s : m;
    // LLVM's GFX12 name sub_clamp_u32: the difference, or 0 where it would go below 0.
    case AtomicOp::Csub:
      return m >= s ? m - s : 0;
    case AtomicOp::Fadd:
      return wide ? std::bit_cast<uint64_t>(fl(m) + fl(s))
                  : std::bit_cast<uint32_t>(static_cast<float>(fl(m) + fl(s)));
    case AtomicOp::None:
      break;
  }
  return m;
}

bool isFloatAtomic(AtomicOp a) {
  return a == AtomicOp::Fcmpswap || a == AtomicOp::Fmin || a == AtomicOp::Fmax;
}

// Format used for a format op in the every-opcode sweep: UINT so register = field, with as
// many components as the op (16-bit fields for D16, 32-bit otherwise). 3-component D16 has
// no 16_16_16 format: 16_16_16_16 with W from DST_SEL = 1.
Dfmt sweepFormat(const OpcodeInfo& op) {
  static constexpr Dfmt k32[] = {Dfmt::F32, Dfmt::F32_32, Dfmt::F32_32_32, Dfmt::F32_32_32_32};
  static constexpr Dfmt k16[] = {Dfmt::F16, Dfmt::F16_16, Dfmt::F16_16_16_16, Dfmt::F16_16_16_16};
  return op.d16 ? k16[op.components - 1] : k32[op.components - 1];
}

void checkOne(Gen gen, const OpcodeInfo& op) {
  SCOPED_TRACE(std::string(op.mnemonic) + " on " + std::string(genName(gen)));
  Rig r(gen, op.mnemonic);
  const Chip& chip = *r.chip;
  for (size_t i = 0; i < r.mem.bytes.size(); ++i)
    r.mem.bytes[i] = patternByte(i);
  const bool isFormat = op.kind == OpKind::LoadFormat || op.kind == OpKind::StoreFormat;
  const Dfmt fmt = isFormat ? sweepFormat(op) : Dfmt::F32;
  const bool w16From1 = op.d16 && op.components == 3;  // 16_16_16_16, W from DST_SEL = 1
  VSharp v = formatV(1280, fmt, Nfmt::Uint,
                     {DstSel::X, DstSel::Y, DstSel::Z, w16From1 ? DstSel::One : DstSel::W});
  r.setV(v);
  if (op.encoding == Encoding::Mtbuf) {
    r.inst.dfmt = fmt;
    r.inst.nfmt = Nfmt::Uint;
  }
  if (op.kind == OpKind::Cache) {
    r.inst = Instruction{};  // validate(): a cache op takes no operands
    r.inst.op = &op;
    ExecResult out = r.run();
    EXPECT_EQ(out.memory().bytes, r.mem.bytes);
    for (const auto& l : out.lanes)
      EXPECT_TRUE(l.accesses.empty());
    return;
  }
  if (op.ldsData) {
    // buffer_store_lds_dword: no VDATA/VADDR; lane 0 only, OFFSET 64, dword from LDS at
    // M0 & 0xffff = 16.
    r.inst.lds = true;
    r.inst.vdata = 0;
    r.inst.offset = 64;
    r.st.exec = 1;
    r.st.m0 = 16;
    const uint32_t d = 0xc0ffee11u;
    std::memcpy(r.lds.data() + 16, &d, 4);
    ExecResult out = r.run();
    EXPECT_EQ(r.dwordAt(out, 64), d);
    return;
  }
  r.offen(16);
  const unsigned regs = vdataRegs(op, chip, false);
  for (unsigned k = 0; k < regs; ++k)
    for (unsigned l = 0; l < kWaveSize; ++l)
      r.st.vgprMut(10 + k)[l] = dataReg(k, l);
  if (op.kind == OpKind::Atomic) {
    r.inst.glc = true;
    const unsigned words = op.wide ? 2 : 1;
    for (unsigned l = 0; l < kWaveSize; ++l) {
      if (isFloatAtomic(op.atomic)) {
        // Ordinary floats so NaN/denormal cases (not claimed) stay out: mem = l + 0.25,
        // src = 20 - l, cmp = mem on even lanes.
        if (op.wide) {
          const uint64_t m = std::bit_cast<uint64_t>(l + 0.25),
                         s = std::bit_cast<uint64_t>(20.0 - l);
          std::memcpy(r.mem.bytes.data() + 16 * l, &m, 8);
          r.st.vgprMut(10)[l] = static_cast<uint32_t>(s);
          r.st.vgprMut(11)[l] = static_cast<uint32_t>(s >> 32);
        } else {
          r.putDword(16 * l, std::bit_cast<uint32_t>(l + 0.25f));
          r.st.vgprMut(10)[l] = std::bit_cast<uint32_t>(20.0f - static_cast<float>(l));
        }
      }
      if (op.atomic == AtomicOp::Cmpswap || op.atomic == AtomicOp::Fcmpswap) {
        for (unsigned w = 0; w < words; ++w)
          if (l % 2 == 0) {
            uint32_t m;
            std::memcpy(&m, r.mem.bytes.data() + 16 * l + 4 * w, 4);
            r.st.vgprMut(10 + words + w)[l] = m;
          } else {
            r.st.vgprMut(10 + words + w)[l] = 0x12345u + w;
          }
      }
    }
  }
  const ExecResult out = r.run();
  for (unsigned l = 0; l < kWaveSize; ++l) {
    SCOPED_TRACE("lane " + std::to_string(l));
    const LaneResult& lr = out.lanes[l];
    const size_t off = 16 * l;
    auto reg = [&](unsigned k) { return r.st.vgpr(10 + k)[l]; };
    switch (op.kind) {
      case OpKind::Load: {
        ASSERT_EQ(lr.vdataCount, std::max(1u, op.memBytes / 4u));
        if (op.memBytes >= 4) {
          for (unsigned k = 0; k < op.memBytes / 4u; ++k)
            EXPECT_EQ(lr.vdata[k], patternDword(off + 4 * k));
          break;
        }
        uint32_t raw = op.memBytes == 1
                           ? patternByte(off)
                           : static_cast<uint32_t>(patternByte(off) | patternByte(off + 1) << 8);
        const unsigned bits = 8 * op.memBytes;
        if (op.signExtend && (raw >> (bits - 1)) & 1) raw |= ~0u << bits;
        if (op.d16) {
          raw &= 0xffffu;
          raw = op.d16Hi ? (reg(0) & 0xffffu) | raw << 16 : (reg(0) & 0xffff0000u) | raw;
        }
        EXPECT_EQ(lr.vdata[0], raw);
        break;
      }
      case OpKind::Store: {
        uint32_t src = op.d16Hi ? reg(0) >> 16 : reg(0);
        for (unsigned b = 0; b < op.memBytes; ++b) {
          const uint8_t want = op.memBytes >= 4 ? static_cast<uint8_t>(reg(b / 4) >> (8 * (b % 4)))
                                                : static_cast<uint8_t>(src >> (8 * b));
          EXPECT_EQ(out.memory().bytes[off + b], want) << "byte " << b;
        }
        if (op.memBytes < 16) {  // the byte after the data is untouched
          EXPECT_EQ(out.memory().bytes[off + op.memBytes], patternByte(off + op.memBytes));
        }
        break;
      }
      case OpKind::LoadFormat: {
        ASSERT_EQ(lr.vdataCount, regs);
        if (!op.d16) {
          for (unsigned i = 0; i < op.components; ++i)
            EXPECT_EQ(lr.vdata[i], patternDword(off + 4 * i));
          break;
        }
        // Component i of a 16-bit-field format: little-endian halfword at byte 2i.
        auto half = [&](unsigned i) {
          return static_cast<uint32_t>(patternByte(off + 2 * i) | patternByte(off + 2 * i + 1)
                                                                      << 8);
        };
        if (op.d16Hi) {
          EXPECT_EQ(lr.vdata[0], (reg(0) & 0xffffu) | half(0) << 16);
        } else if (!chip.d16Packed) {
          for (unsigned i = 0; i < op.components; ++i)
            EXPECT_EQ(lr.vdata[i], half(i));
        } else {
          for (unsigned k = 0; k < regs; ++k) {
            const uint32_t hi = 2 * k + 1 < op.components ? half(2 * k + 1) : reg(k) >> 16;
            EXPECT_EQ(lr.vdata[k], half(2 * k) | hi << 16);
          }
        }
        break;
      }
      case OpKind::StoreFormat: {
        const unsigned fieldBytes = op.d16 ? 2 : 4;
        if (w16From1 && op.encoding == Encoding::Mtbuf) {
          // Identity DST_SEL names W, which the instruction does not supply: not claimed,
          // nothing stored (AMD RDNA3 ISA gives no source for it).
          for (unsigned b = 0; b < 8; ++b)
            EXPECT_EQ(out.memory().bytes[off + b], patternByte(off + b));
          EXPECT_FALSE(lr.note.empty());
          break;
        }
        for (unsigned i = 0; i < op.components; ++i) {
          uint32_t want;
          if (!op.d16)
            want = reg(i);
          else if (op.d16Hi)
            want = reg(0) >> 16;
          else if (!chip.d16Packed)
            want = reg(i) & 0xffffu;
          else
            want = reg(i / 2) >> (16 * (i % 2)) & 0xffffu;
          uint32_t got = 0;
          std::memcpy(&got, out.memory().bytes.data() + off + fieldBytes * i, fieldBytes);
          EXPECT_EQ(got, want) << "component " << i;
        }
        if (w16From1) {
          uint16_t w;
          std::memcpy(&w, out.memory().bytes.data() + off + 6, 2);
          EXPECT_EQ(w, 1u);  // DST_SEL_W = 1, UINT one
        }
        break;
      }
      case OpKind::Atomic: {
        const unsigned words = op.wide ? 2 : 1;
        uint64_t m = 0, s = reg(0), c = 0;
        std::memcpy(&m, r.mem.bytes.data() + off, 4 * words);
        if (op.wide) s |= static_cast<uint64_t>(reg(1)) << 32;
        if (op.atomic == AtomicOp::Cmpswap || op.atomic == AtomicOp::Fcmpswap)
          c = reg(words) | (op.wide ? static_cast<uint64_t>(reg(words + 1)) << 32 : 0);
        uint64_t got = 0;
        std::memcpy(&got, out.memory().bytes.data() + off, 4 * words);
        EXPECT_EQ(got, expectAtomic(op.atomic, op.wide, m, s, c));
        ASSERT_EQ(lr.vdataCount, words);
        EXPECT_EQ(lr.vdata[0], static_cast<uint32_t>(m));
        if (op.wide) {
          EXPECT_EQ(lr.vdata[1], static_cast<uint32_t>(m >> 32));
        }
        break;
      }
      case OpKind::Cache:
        break;
    }
  }
}

TEST(Executor, EveryOpcodeOfEveryGenerationExecutesAsExpected) {
  unsigned checked = 0;
  for (Gen gen : kGcnGens)
    for (const OpcodeInfo& op : allOpcodes()) {
      if (!existsOn(op, gen)) continue;
      checkOne(gen, op);
      ++checked;
    }
  // Sanity: the sweep covered the table (more than one op per generation).
  EXPECT_GT(checked, 4u * 40u);
}

}  // namespace executor_test
}  // namespace gcn
