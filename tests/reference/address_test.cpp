#include "reference/address.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "reference/error.h"

namespace gcn {
namespace address_test {

Policies with(Gen gen, std::initializer_list<const char*> assignments) {
  Policies p = Policies::defaults(gen);
  for (const char* a : assignments)
    p.set(a);
  return p;
}

AccessPlan plan(Gen gen, const VSharp& v, const AddressOperands& in, uint32_t bytes,
                const Policies& p, CheckUnit unit = CheckUnit::Whole, uint32_t align = 1) {
  return planAccess(gen, v, in, bytes, align, unit, p);
}

VSharp raw(uint64_t base, uint32_t numRecords) {
  VSharp v;
  v.base = base;
  v.numRecords = numRecords;
  return v;
}

// ---- linear addressing (CLRX GcnMemHandling)
// -----------------------------------------------------------

// BUFOFFSET = (UINT32)(AINDEX*STRIDE) + AOFFSET; AINDEX = VGPR[V] = 3, AOFFSET = OFFSET 8 +
// VGPR[V+1] 4 = 12 -> 3*16 + 12 = 60; ADDRESS = BASE 0x1000 + SOFFSET 0x20 + 60 = 0x105c.
// Index check: 3 < NUM_RECORDS 100 and 12 < STRIDE 16 -> in range.
TEST(Address, LinearIdxenOffen) {
  VSharp v = raw(0x1000, 100);
  v.stride = 16;
  AddressOperands in;
  in.idxen = in.offen = true;
  in.vaddr = {3, 4};
  in.instOffset = 8;
  in.soffset = 0x20;
  for (Gen gen : kGcnGens) {
    const AccessPlan a = plan(gen, v, in, 4, Policies::defaults(gen));
    EXPECT_EQ(a.index, 3u);
    EXPECT_EQ(a.offset, 12u);
    EXPECT_EQ(a.bufferOffset, 60u);
    ASSERT_EQ(a.pieces.size(), 1u);
    EXPECT_EQ(a.pieces[0].address, 0x105cu);
    EXPECT_EQ(a.pieces[0].size, 4);
    EXPECT_FALSE(a.swizzled);
  }
}

// CLRX GcnMemHandling VADDR table: OFFEN alone reads the offset from VGPR[V]; IDXEN alone the
// index.
TEST(Address, SingleVgprModes) {
  VSharp v = raw(0, 1000);
  v.stride = 8;
  AddressOperands off;
  off.offen = true;
  off.vaddr = {20, 99};
  const AccessPlan a = plan(Gen::Gfx7, v, off, 4, Policies::defaults(Gen::Gfx7));
  EXPECT_EQ(a.index, 0u);
  EXPECT_EQ(a.offset, 20u);
  EXPECT_EQ(a.bufferOffset, 20u);  // 0*8 + 20
  AddressOperands idx;
  idx.idxen = true;
  idx.vaddr = {5, 99};
  const AccessPlan b = plan(Gen::Gfx7, v, idx, 4, Policies::defaults(Gen::Gfx7));
  EXPECT_EQ(b.index, 5u);
  EXPECT_EQ(b.offset, 0u);
  EXPECT_EQ(b.bufferOffset, 40u);  // 5*8 + 0
}

// index-product: STRIDE 0x3fff * AINDEX 0x100001 = 0x3fff03fff; CLRX GcnMemHandling truncates the
// product to 32 bits (0xfff03fff), the GFX9 emulator keeps 64 bits.
TEST(Address, IndexProductPolicy) {
  VSharp v = raw(0, 0xffffffffu);
  v.stride = 0x3fff;
  AddressOperands in;
  in.idxen = true;
  in.vaddr = {0x100001, 0};
  EXPECT_EQ(plan(Gen::Gfx9, v, in, 4, with(Gen::Gfx9, {"index-product=trunc32"})).bufferOffset,
            0xfff03fffull);
  EXPECT_EQ(plan(Gen::Gfx9, v, in, 4, with(Gen::Gfx9, {"index-product=wide64"})).bufferOffset,
            0x3fff03fffull);
  EXPECT_EQ(plan(Gen::Gfx6, v, in, 4, Policies::defaults(Gen::Gfx6)).bufferOffset, 0xfff03fffull);
}

// CLRX GcnMemHandling: AINDEX = (IDXEN ? VGPR_INDEX : 0) + (TID_ENABLE ? LANEID : 0).
// No IDXEN, lane 5, STRIDE 8, OFFSET 4 -> 5*8 + 4 = 44.
// With IDXEN index 10: lane added (CLRX) -> 15*8+4 = 124; not added (gfx950) -> 10*8+4 = 84.
TEST(Address, AddTidAndTidIdxPolicy) {
  VSharp v = raw(0, 1000);
  v.stride = 8;
  v.addTidEnable = true;
  AddressOperands in;
  in.instOffset = 4;
  in.lane = 5;
  EXPECT_EQ(plan(Gen::Gfx7, v, in, 4, Policies::defaults(Gen::Gfx7)).bufferOffset, 44u);
  in.idxen = true;
  in.vaddr = {10, 0};
  EXPECT_EQ(plan(Gen::Gfx7, v, in, 4, with(Gen::Gfx7, {"tid-idx=added"})).bufferOffset, 124u);
  EXPECT_EQ(plan(Gen::Gfx7, v, in, 4, with(Gen::Gfx7, {"tid-idx=notadded"})).bufferOffset, 84u);
}

// ---- ADDR64 (CLRX GcnMemHandling, GFX6/7)
// -------------------------------------------------------------

// ADDRESS = BASE 0x1000 + VGPR_ADDRESS 0x1_00000010 + OFFSET 4 + SGPR_OFFSET 0x100 =
// 0x1_00001114; NUM_RECORDS 0 would reject any checked access, ADDR64 is never checked.
TEST(Address, Addr64Golden) {
  const VSharp v = raw(0x1000, 0);
  AddressOperands in;
  in.addr64 = true;
  in.vaddr = {0x10, 0x1};
  in.instOffset = 4;
  in.soffset = 0x100;
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7}) {
    const AccessPlan a = plan(gen, v, in, 4, Policies::defaults(gen));
    ASSERT_EQ(a.pieces.size(), 1u);
    EXPECT_EQ(a.pieces[0].address, 0x100001114ull);
    EXPECT_TRUE(a.pieces[0].inRange);
  }
  EXPECT_THROW(plan(Gen::Gfx8, v, in, 4, Policies::defaults(Gen::Gfx8)), Error);
  EXPECT_THROW(plan(Gen::Gfx9, v, in, 4, Policies::defaults(Gen::Gfx9)), Error);
  in.idxen = true;
  EXPECT_THROW(plan(Gen::Gfx6, v, in, 4, Policies::defaults(Gen::Gfx6)), Error);
}

// Property: whatever the V#, operands and policies, ADDR64 never range-checks.
TEST(Address, Addr64NeverRangeChecks) {
  std::mt19937_64 rng(64);
  for (int i = 0; i < 5000; ++i) {
    const Gen gen = (rng() & 1) ? Gen::Gfx6 : Gen::Gfx7;
    Policies p = Policies::defaults(gen);
    for (const PolicyPoint& point : allPolicyPoints())
      p.set(point.id, static_cast<uint8_t>(rng() & 1));
    p.set("unaligned=unaligned");
    VSharp v = raw(rng() & 0xffffffffffffull, static_cast<uint32_t>(rng() % 64));
    v.stride = static_cast<uint16_t>(rng() & 0x3fff);
    v.swizzleEnable = rng() & 1;
    v.addTidEnable = rng() & 1;
    AddressOperands in;
    in.addr64 = true;
    in.vaddr = {static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng())};
    in.instOffset = static_cast<uint16_t>(rng() & 0xfff);
    in.soffset = static_cast<uint32_t>(rng());
    in.lane = static_cast<unsigned>(rng() % 64);
    const uint32_t bytes = 1 + static_cast<uint32_t>(rng() % 16);
    const CheckUnit unit = (rng() & 1) ? CheckUnit::PerDword : CheckUnit::Whole;
    const AccessPlan a = plan(gen, v, in, bytes, p, unit);
    const uint64_t expect =
        v.base + ((uint64_t{in.vaddr[1]} << 32) | in.vaddr[0]) + in.instOffset + in.soffset;
    ASSERT_FALSE(a.pieces.empty());
    EXPECT_EQ(a.pieces[0].address, expect);
    for (const AccessPiece& piece : a.pieces)
      ASSERT_TRUE(piece.inRange) << a.rule;
  }
}

// ---- swizzled addressing (CLRX GcnMemHandling / AMD RDNA3 ISA)
// ---------------------------------------------

// ELEMSIZE 2<<1 = 4, INDEXSTRIDE 8<<0 = 8, STRIDE 16, AINDEX 9, AOFFSET 6:
// index_msb 1, index_lsb 1, offset_msb 1, offset_lsb 2 -> 2 + 4*1 + 8*(1*16 + 1*4) = 166.
// Gfx8 with ELEMENT_SIZE 0 (2 bytes): offset_msb 3, lsb 0 -> 0 + 2*1 + 8*(16 + 3*2) = 178.
// Gfx9 ignores the field (4 bytes): 166 either way.
TEST(Address, SwizzledGolden) {
  VSharp v = raw(0x10000, 0xffffffffu);
  v.swizzleEnable = true;
  v.stride = 16;
  v.elementSize = 1;
  AddressOperands in;
  in.idxen = in.offen = true;
  in.vaddr = {9, 6};
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7, Gen::Gfx8}) {
    const AccessPlan a = plan(gen, v, in, 4, Policies::defaults(gen));
    EXPECT_TRUE(a.swizzled);
    EXPECT_EQ(a.bufferOffset, 166u) << genName(gen);
    EXPECT_EQ(a.pieces[0].address, 0x10000u + 166u);
  }
  VSharp e0 = v;
  e0.elementSize = 0;
  EXPECT_EQ(plan(Gen::Gfx8, e0, in, 4, Policies::defaults(Gen::Gfx8)).bufferOffset, 178u);
  VSharp g9 = v;
  g9.elementSize = 0;  // not a GFX9 field; the element is 4 bytes
  EXPECT_EQ(plan(Gen::Gfx9, g9, in, 4, Policies::defaults(Gen::Gfx9)).bufferOffset, 166u);
}

// Brute force from the CLRX text: with ELEMSIZE and INDEXSTRIDE powers of two, "/" and "%" are
// shifts and masks; the layout is blocks of INDEXSTRIDE records, each record cut in ELEMSIZE
// pieces, piece j of record (block b, slot s) at b*INDEXSTRIDE*STRIDE + j*ELEMSIZE*INDEXSTRIDE
// + s*ELEMSIZE.
uint64_t bruteSwizzle(uint64_t index, uint64_t offset, uint64_t stride, unsigned elemLog2,
                      unsigned istrideLog2) {
  const uint64_t block = index >> istrideLog2, slot = index & ((1u << istrideLog2) - 1);
  const uint64_t piece = offset >> elemLog2, within = offset & ((1u << elemLog2) - 1);
  return (block << istrideLog2) * stride + (piece << (elemLog2 + istrideLog2)) +
         (slot << elemLog2) + within;
}

TEST(Address, SwizzledMatchesBruteForce) {
  std::mt19937_64 rng(1234);
  for (int i = 0; i < 20000; ++i) {
    const Gen gen = kGcnGens[rng() % 4];
    VSharp v = raw(rng() & 0xffffffffffull, 0xffffffffu);
    v.swizzleEnable = true;
    v.stride = static_cast<uint16_t>(rng() & 0x3fff);
    v.indexStride = static_cast<uint8_t>(rng() & 3);
    if (gen != Gen::Gfx9) v.elementSize = static_cast<uint8_t>(rng() & 3);
    v.addTidEnable = rng() & 1;
    AddressOperands in;
    in.idxen = rng() & 1;
    in.offen = rng() & 1;
    // Small enough that no product exceeds 32 bits (index-product is tested on its own).
    in.vaddr = {static_cast<uint32_t>(rng() & 0xffff), static_cast<uint32_t>(rng() & 0xffff)};
    in.instOffset = static_cast<uint16_t>(rng() & 0xfff);
    in.soffset = static_cast<uint32_t>(rng() & 0xffff);
    in.lane = static_cast<unsigned>(rng() % 64);
    const AccessPlan a = plan(gen, v, in, 4, Policies::defaults(gen));
    // AMD RDNA3 ISA: Index = (idxen ? vgpr_index : 0) + (add_tid_enable ? thread_id : 0).
    const uint64_t index = (in.idxen ? in.vaddr[0] : 0u) + (v.addTidEnable ? in.lane : 0u);
    const uint64_t offset = in.instOffset + (in.offen ? in.vaddr[in.idxen ? 1 : 0] : 0u);
    const unsigned elemLog2 = gen == Gen::Gfx9 ? 2 : 1 + v.elementSize;
    const uint64_t expect = bruteSwizzle(index, offset, v.stride, elemLog2, 3 + v.indexStride);
    ASSERT_EQ(a.bufferOffset, expect) << genName(gen) << " i=" << i;
    // "sgpr_offset is not a part of the offset term ... it's in the base" (AMD RDNA3 ISA).
    ASSERT_EQ(a.pieces[0].address, v.base + in.soffset + expect);
  }
}

// swizzle-soffset: ELEMSIZE 4, INDEXSTRIDE 8, STRIDE 16, index 0, offset 0, SOFFSET 8.
// base: address = BASE + 8. swizzled: offset 8 -> offset_msb 2 -> 8*(2*4) = 64 -> BASE + 64.
TEST(Address, SwizzleSoffsetPolicy) {
  VSharp v = raw(0x1000, 0xffffffffu);
  v.swizzleEnable = true;
  v.stride = 16;
  v.elementSize = 1;
  AddressOperands in;
  in.soffset = 8;
  EXPECT_EQ(plan(Gen::Gfx8, v, in, 4, with(Gen::Gfx8, {"swizzle-soffset=base"})).pieces[0].address,
            0x1008u);
  EXPECT_EQ(
      plan(Gen::Gfx8, v, in, 4, with(Gen::Gfx8, {"swizzle-soffset=swizzled"})).pieces[0].address,
      0x1040u);
}

// swizzle-multidword: an 8-byte access at index 0, offset 0 (ELEMSIZE 4, INDEXSTRIDE 8,
// STRIDE 16). contiguous: dwords at 0 and 4. perdword: dword 1 is offset 4 -> offset_msb 1 ->
// 8*(1*4) = 32.
TEST(Address, SwizzleMultiDwordPolicy) {
  VSharp v = raw(0, 0xffffffffu);
  v.swizzleEnable = true;
  v.stride = 16;
  v.elementSize = 1;
  AddressOperands in;
  const AccessPlan c =
      plan(Gen::Gfx8, v, in, 8, with(Gen::Gfx8, {"swizzle-multidword=contiguous"}));
  ASSERT_EQ(c.pieces.size(), 2u);
  EXPECT_EQ(c.pieces[1].address, 4u);
  EXPECT_EQ(c.pieces[1].dataOffset, 4u);
  const AccessPlan d = plan(Gen::Gfx8, v, in, 8, with(Gen::Gfx8, {"swizzle-multidword=perdword"}));
  ASSERT_EQ(d.pieces.size(), 2u);
  EXPECT_EQ(d.pieces[0].address, 0u);
  EXPECT_EQ(d.pieces[1].address, 32u);
}

// ---- range checks ----------------------------------------------------------------------------

// CLRX GcnMemHandling, STRIDE 0: out of range when BUFOFFSET >= NUMRECORDS - SGPR_OFFSET.
// NUM_RECORDS 16, SOFFSET 8: offset 7 < 8 in; offset 8 out.
TEST(Address, RawByteCheck) {
  const VSharp v = raw(0, 16);
  AddressOperands in;
  in.offen = true;
  in.soffset = 8;
  for (Gen gen : kGcnGens) {
    in.vaddr = {7, 0};
    EXPECT_TRUE(plan(gen, v, in, 1, Policies::defaults(gen)).pieces[0].inRange);
    in.vaddr = {8, 0};
    EXPECT_FALSE(plan(gen, v, in, 1, Policies::defaults(gen)).pieces[0].inRange);
  }
}

// straddle: NUM_RECORDS 10, an 8-byte access at offset 4 ([4,12) straddles 10).
// start (CLRX GcnMemHandling): 4 < 10 -> both dwords in. whole, PerDword (AMD RDNA3 ISA): [4,8) in,
// [8,12) out. whole, Whole unit (format ops/atomics): all-or-nothing -> out.
TEST(Address, StraddlePolicy) {
  const VSharp v = raw(0, 10);
  AddressOperands in;
  in.instOffset = 4;
  const AccessPlan s =
      plan(Gen::Gfx6, v, in, 8, with(Gen::Gfx6, {"straddle=start"}), CheckUnit::PerDword);
  ASSERT_EQ(s.pieces.size(), 2u);
  EXPECT_TRUE(s.pieces[0].inRange);
  EXPECT_TRUE(s.pieces[1].inRange);
  const AccessPlan w =
      plan(Gen::Gfx6, v, in, 8, with(Gen::Gfx6, {"straddle=whole"}), CheckUnit::PerDword);
  ASSERT_EQ(w.pieces.size(), 2u);
  EXPECT_TRUE(w.pieces[0].inRange);
  EXPECT_FALSE(w.pieces[1].inRange);
  const AccessPlan a =
      plan(Gen::Gfx6, v, in, 8, with(Gen::Gfx6, {"straddle=whole"}), CheckUnit::Whole);
  ASSERT_EQ(a.pieces.size(), 1u);
  EXPECT_FALSE(a.pieces[0].inRange);
  // Defaults: CLRX rule on gfx6-8, whole access on gfx9 (policy table).
  EXPECT_TRUE(plan(Gen::Gfx8, v, in, 8, Policies::defaults(Gen::Gfx8)).pieces[0].inRange);
  EXPECT_FALSE(plan(Gen::Gfx9, v, in, 8, Policies::defaults(Gen::Gfx9)).pieces[0].inRange);
}

// soffset: NUM_RECORDS 16, SOFFSET 32, offset 0. wraps: 16 - 32 = 0xfffffff0 (unsigned) -> in.
// oob: NUMRECORDS - SGPR_OFFSET negative -> out.
TEST(Address, SoffsetOverflowPolicy) {
  const VSharp v = raw(0, 16);
  AddressOperands in;
  in.soffset = 32;
  EXPECT_TRUE(plan(Gen::Gfx7, v, in, 4, with(Gen::Gfx7, {"soffset=wraps"})).pieces[0].inRange);
  EXPECT_FALSE(plan(Gen::Gfx7, v, in, 4, with(Gen::Gfx7, {"soffset=oob"})).pieces[0].inRange);
}

// stride-noidx: GFX6 STRIDE 16, NUM_RECORDS 2, no IDXEN, offset 8.
// index (CLRX GcnMemHandling): AINDEX 0 < 2 and 8 < 16 -> in. byte: 8 >= 2 -> out.
TEST(Address, StrideWithoutIdxenPolicy) {
  VSharp v = raw(0, 2);
  v.stride = 16;
  AddressOperands in;
  in.instOffset = 8;
  EXPECT_TRUE(plan(Gen::Gfx6, v, in, 4, with(Gen::Gfx6, {"stride-noidx=index"})).pieces[0].inRange);
  EXPECT_FALSE(plan(Gen::Gfx6, v, in, 4, with(Gen::Gfx6, {"stride-noidx=byte"})).pieces[0].inRange);
}

// offset-vs-stride: GFX9 IDXEN, STRIDE 16, NUM_RECORDS 4 (records), index 1, offset 20.
// oob (CLRX GcnMemHandling: OFFSET >= STRIDE) -> out; unchecked (GFX9 emulator) -> in. Index 4 >= 4
// is out under both.
TEST(Address, OffsetVsStridePolicy) {
  VSharp v = raw(0, 4);
  v.stride = 16;
  AddressOperands in;
  in.idxen = in.offen = true;
  in.vaddr = {1, 20};
  EXPECT_FALSE(
      plan(Gen::Gfx9, v, in, 4, with(Gen::Gfx9, {"offset-vs-stride=oob"})).pieces[0].inRange);
  EXPECT_TRUE(
      plan(Gen::Gfx9, v, in, 4, with(Gen::Gfx9, {"offset-vs-stride=unchecked"})).pieces[0].inRange);
  in.vaddr = {4, 0};
  EXPECT_FALSE(
      plan(Gen::Gfx9, v, in, 4, with(Gen::Gfx9, {"offset-vs-stride=unchecked"})).pieces[0].inRange);
}

// tid-noidx: GFX9 ADD_TID, no IDXEN, STRIDE 16, NUM_RECORDS 2, lane 5 -> AINDEX 5.
// index (CLRX GcnMemHandling) -> 5 >= 2 out; unchecked (GFX9 scratch) -> in.
TEST(Address, TidWithoutIdxenPolicy) {
  VSharp v = raw(0, 2);
  v.stride = 16;
  v.addTidEnable = true;
  AddressOperands in;
  in.lane = 5;
  EXPECT_FALSE(plan(Gen::Gfx9, v, in, 4, with(Gen::Gfx9, {"tid-noidx=index"})).pieces[0].inRange);
  EXPECT_TRUE(
      plan(Gen::Gfx9, v, in, 4, with(Gen::Gfx9, {"tid-noidx=unchecked"})).pieces[0].inRange);
}

// unaligned: BASE 0x1000, offset 3. ignore-low (AMD RDNA3 ISA DWORD mode): a dword access goes to
// 0x1000, a 16-bit one to 0x1002; unaligned: 0x1003.
TEST(Address, UnalignedPolicy) {
  const VSharp v = raw(0x1000, 100);
  AddressOperands in;
  in.instOffset = 3;
  const Policies ignore = with(Gen::Gfx8, {"unaligned=ignore-low"});
  EXPECT_EQ(plan(Gen::Gfx8, v, in, 4, ignore, CheckUnit::Whole, 4).pieces[0].address, 0x1000u);
  EXPECT_EQ(plan(Gen::Gfx8, v, in, 2, ignore, CheckUnit::Whole, 2).pieces[0].address, 0x1002u);
  EXPECT_EQ(plan(Gen::Gfx8, v, in, 1, ignore, CheckUnit::Whole, 1).pieces[0].address, 0x1003u);
  EXPECT_EQ(plan(Gen::Gfx8, v, in, 4, with(Gen::Gfx8, {"unaligned=unaligned"}), CheckUnit::Whole, 4)
                .pieces[0]
                .address,
            0x1003u);
}

// docs/gcn-facts.md "NUM_RECORDS units".
TEST(Address, NumRecordsUnits) {
  VSharp v;
  for (Gen gen : kGcnGens) {
    EXPECT_TRUE(numRecordsInBytes(gen, v, true)) << "STRIDE 0 is bytes everywhere";
    EXPECT_TRUE(numRecordsInBytes(gen, v, false));
  }
  v.stride = 16;
  EXPECT_FALSE(numRecordsInBytes(Gen::Gfx6, v, false));
  EXPECT_FALSE(numRecordsInBytes(Gen::Gfx7, v, true));
  EXPECT_TRUE(numRecordsInBytes(Gen::Gfx8, v, true));  // no swizzle: bytes
  EXPECT_TRUE(numRecordsInBytes(Gen::Gfx9, v, false));
  EXPECT_FALSE(numRecordsInBytes(Gen::Gfx9, v, true));
  v.swizzleEnable = true;
  EXPECT_FALSE(numRecordsInBytes(Gen::Gfx8, v, false));
  EXPECT_FALSE(numRecordsInBytes(Gen::Gfx8, v, true));
}

// The same V# (STRIDE 16, NUM_RECORDS 64, IDXEN, index 4, offset 0) is in range where 64 counts
// records (gfx6/7/9: 4 < 64) and out of range where it counts bytes (gfx8 without swizzle:
// BUFOFFSET 4*16 = 64 >= 64). Index 3 (BUFOFFSET 48) is in range on gfx8.
TEST(Address, NumRecordsUnitsChangeTheVerdict) {
  VSharp v = raw(0, 64);
  v.stride = 16;
  AddressOperands in;
  in.idxen = true;
  in.vaddr = {4, 0};
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7, Gen::Gfx9})
    EXPECT_TRUE(plan(gen, v, in, 4, Policies::defaults(gen)).pieces[0].inRange) << genName(gen);
  EXPECT_FALSE(plan(Gen::Gfx8, v, in, 4, Policies::defaults(Gen::Gfx8)).pieces[0].inRange);
  in.vaddr = {3, 0};
  EXPECT_TRUE(plan(Gen::Gfx8, v, in, 4, Policies::defaults(Gen::Gfx8)).pieces[0].inRange);
  // GFX8 with SWIZZLE_ENABLE counts records again: index 4 < 64.
  v.swizzleEnable = true;
  in.vaddr = {4, 0};
  EXPECT_TRUE(plan(Gen::Gfx8, v, in, 4, Policies::defaults(Gen::Gfx8)).pieces[0].inRange);
}

// AMD RDNA3 ISA: DWORDX2..4 are checked per dword (one piece each); format ops whole.
TEST(Address, PiecesPerDword) {
  const VSharp v = raw(0x100, 1000);
  AddressOperands in;
  const AccessPlan a =
      plan(Gen::Gfx9, v, in, 12, Policies::defaults(Gen::Gfx9), CheckUnit::PerDword);
  ASSERT_EQ(a.pieces.size(), 3u);
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(a.pieces[i].address, 0x100u + 4 * i);
    EXPECT_EQ(a.pieces[i].dataOffset, 4 * i);
    EXPECT_EQ(a.pieces[i].size, 4);
  }
  EXPECT_EQ(plan(Gen::Gfx9, v, in, 12, Policies::defaults(Gen::Gfx9)).pieces.size(), 1u);
}

TEST(Address, RejectsBadArguments) {
  const VSharp v = raw(0, 16);
  const Policies p = Policies::defaults(Gen::Gfx8);
  AddressOperands in;
  EXPECT_THROW(planAccess(Gen::Gfx8, v, in, 0, 1, CheckUnit::Whole, p), Error);
  EXPECT_THROW(planAccess(Gen::Gfx8, v, in, 17, 1, CheckUnit::Whole, p), Error);
  EXPECT_THROW(planAccess(Gen::Gfx8, v, in, 4, 3, CheckUnit::Whole, p), Error);
  in.lane = 64;
  EXPECT_THROW(planAccess(Gen::Gfx8, v, in, 4, 4, CheckUnit::Whole, p), Error);
}

// The same rule for a driver that has a STRIDE and an access kind but no V# yet (texel and
// vertex V# builders): docs/gcn-facts.md "NUM_RECORDS units".
TEST(Address, NumRecordsUnitsWithoutAVSharp) {
  for (Gen gen : kGcnGens)
    EXPECT_TRUE(numRecordsInBytes(gen, 0, false, true)) << "STRIDE 0 is bytes everywhere";
  // A texel fetch / vertex fetch: IDXEN, STRIDE = element size, no SWIZZLE_ENABLE. Bytes on
  // GFX8 only (Mesa radv_make_texel_buffer_descriptor: "gfx_level != GFX8 && stride").
  EXPECT_FALSE(numRecordsInBytes(Gen::Gfx6, 4, false, true));
  EXPECT_FALSE(numRecordsInBytes(Gen::Gfx7, 4, false, true));
  EXPECT_TRUE(numRecordsInBytes(Gen::Gfx8, 4, false, true));
  EXPECT_FALSE(numRecordsInBytes(Gen::Gfx9, 4, false, true));
  EXPECT_FALSE(numRecordsInBytes(Gen::Gfx8, 4, true, false));
  EXPECT_TRUE(numRecordsInBytes(Gen::Gfx9, 4, true, false));
}

// offset-carry (LLVM AMDGPU SelectMUBUFScratchOffen: a negative VGPR offset fails the range check
// before GFX9): VGPR offset 0xffffffe0 + OFFSET 48 = 2^32 + 0x10. Under oob (the default) out of
// range; under wraps the 32-bit sum 0x10 is checked and in range. The address is the wrapped
// one either way: 0x1000 + 0x10.
TEST(Address, OffsetCarryPastTwoToThe32) {
  const VSharp v = raw(0x1000, 64);
  AddressOperands in;
  in.offen = true;
  in.vaddr = {0xffffffe0u, 0};
  in.instOffset = 48;
  for (Gen gen : kGcnGens) {
    EXPECT_EQ(Policies::defaults(gen).offsetCarry(), policy::OffsetCarry::OutOfRange);
    const AccessPlan oob = plan(gen, v, in, 4, Policies::defaults(gen));
    ASSERT_EQ(oob.pieces.size(), 1u);
    EXPECT_FALSE(oob.pieces[0].inRange);
    EXPECT_EQ(oob.pieces[0].address, 0x1010u);
    const AccessPlan wraps = plan(gen, v, in, 4, with(gen, {"offset-carry=wraps"}));
    EXPECT_TRUE(wraps.pieces[0].inRange);
    EXPECT_EQ(wraps.pieces[0].address, 0x1010u);
  }
  // No carry: 0xffffffc0 + 48 = 0xfffffff0, out of range under both (>= 64).
  in.vaddr = {0xffffffc0u, 0};
  EXPECT_FALSE(
      plan(Gen::Gfx8, v, in, 4, with(Gen::Gfx8, {"offset-carry=wraps"})).pieces[0].inRange);
  // An index check sees the carry too: IDXEN + OFFEN, STRIDE 16, index 0.
  VSharp s = raw(0x1000, 4);
  s.stride = 16;
  AddressOperands both;
  both.idxen = both.offen = true;
  both.vaddr = {0, 0xfffffff8u};
  both.instOffset = 12;  // 2^32 + 4: below STRIDE once wrapped
  const Policies noOffsetTest = with(Gen::Gfx7, {"offset-vs-stride=unchecked"});
  EXPECT_FALSE(plan(Gen::Gfx7, s, both, 4, noOffsetTest).pieces[0].inRange);
  Policies wrapsToo = noOffsetTest;
  wrapsToo.set("offset-carry=wraps");
  EXPECT_TRUE(plan(Gen::Gfx7, s, both, 4, wrapsToo).pieces[0].inRange);
}

// zero-vsharp (RADV radv_cmd_buffer.c: "On GFX9, it seems bounds checking is disabled if both
// num_records and stride are zero"): GFX9 reads at any offset, GFX6-8 reject every access.
TEST(Address, ZeroStrideAndRecordsIsUncheckedOnGfx9Only) {
  const VSharp v = raw(0x1000, 0);
  AddressOperands in;
  in.offen = true;
  in.vaddr = {0x40, 0};
  for (Gen gen : kGcnGens) {
    const AccessPlan a = plan(gen, v, in, 4, Policies::defaults(gen));
    EXPECT_EQ(a.pieces[0].inRange, gen == Gen::Gfx9) << genName(gen);
    EXPECT_EQ(a.pieces[0].address, 0x1040u);
  }
  EXPECT_FALSE(
      plan(Gen::Gfx9, v, in, 4, with(Gen::Gfx9, {"zero-vsharp=checked"})).pieces[0].inRange);
  EXPECT_TRUE(
      plan(Gen::Gfx6, v, in, 4, with(Gen::Gfx6, {"zero-vsharp=unchecked"})).pieces[0].inRange);
  // NUM_RECORDS 0 with a STRIDE is not the case RADV describes: still checked on GFX9.
  VSharp strided = v;
  strided.stride = 4;
  EXPECT_FALSE(plan(Gen::Gfx9, strided, in, 4, Policies::defaults(Gen::Gfx9)).pieces[0].inRange);
}

// unaligned: GFX6 has no unaligned buffer access (radeonsi: "SI doesn't support unaligned
// loads"; Mesa ac_gpu_info.c has_unaligned_shader_loads = chip_class != GFX6); GFX7-9 honour
// the byte address. A dword at offset 6: 0x1004 on GFX6 (low bits ignored), 0x1006 on GFX7-9.
TEST(Address, UnalignedDwordDefaultsFollowTheDriversRecord) {
  const VSharp v = raw(0x1000, 64);
  AddressOperands in;
  in.offen = true;
  in.vaddr = {6, 0};
  for (Gen gen : kGcnGens) {
    const AccessPlan a = plan(gen, v, in, 4, Policies::defaults(gen), CheckUnit::Whole, 4);
    EXPECT_EQ(a.pieces[0].address, gen == Gen::Gfx6 ? 0x1004u : 0x1006u) << genName(gen);
  }
}

}  // namespace address_test
}  // namespace gcn
