// Range checking on RDNA: the V#'s OOB_SELECT chooses the check. Expected verdicts come from
// Mesa's record of the modes (src/amd/common/ac_descriptors.c, ac_set_buf_desc_word3):
//   GFX10: 0 (index >= NUM_RECORDS) || (offset >= STRIDE); 1 index >= NUM_RECORDS;
//          2 NUM_RECORDS == 0; 3 offset >= NUM_RECORDS
//   GFX11: 0 (index >= NUM_RECORDS) || (offset+payload > STRIDE); 1, 2 as GFX10;
//          3 offset+payload > NUM_RECORDS (no swizzle)
// and from the AMD RDNA3 ISA guide: the SGPR offset is part of the base, not of the checked
// offset; out-of-range DST_SEL = 1 components read 1.
#include <gtest/gtest.h>

#include "reference/address.h"
#include "reference/error.h"
#include "reference/policy.h"

namespace gcn {
namespace rdna_address_test {

VSharp rdnaV(uint8_t oob, uint32_t stride, uint32_t numRecords) {
  VSharp v;
  v.base = 0x1000;
  v.stride = stride;
  v.numRecords = numRecords;
  v.oobSelect = oob;
  return v;
}

AddressOperands idx(uint32_t index, uint16_t offset) {
  AddressOperands in;
  in.idxen = true;
  in.vaddr[0] = index;
  in.instOffset = offset;
  return in;
}

AddressOperands offen(uint32_t offset, uint32_t soffset = 0) {
  AddressOperands in;
  in.offen = true;
  in.vaddr[0] = offset;
  in.soffset = soffset;
  return in;
}

std::vector<bool> verdicts(Gen gen, const VSharp& v, const AddressOperands& in, uint32_t bytes,
                           CheckUnit unit, const Policies& p) {
  std::vector<bool> out;
  for (const AccessPiece& piece : planAccess(gen, v, in, bytes, 1, unit, p).pieces)
    out.push_back(piece.inRange);
  return out;
}

bool inRange(Gen gen, const VSharp& v, const AddressOperands& in, uint32_t bytes = 4) {
  const auto r = verdicts(gen, v, in, bytes, CheckUnit::Whole, Policies::defaults(gen));
  return r.at(0);
}

TEST(RdnaAddress, Mode0TestsIndexAndOffsetAgainstStride) {
  for (Gen gen : kRdnaGens) {
    SCOPED_TRACE(genName(gen));
    const VSharp v = rdnaV(0, 16, 4);
    EXPECT_TRUE(inRange(gen, v, idx(3, 0)));
    EXPECT_FALSE(inRange(gen, v, idx(4, 0)));   // index >= NUM_RECORDS
    EXPECT_FALSE(inRange(gen, v, idx(0, 16)));  // offset >= STRIDE
    EXPECT_FALSE(inRange(gen, v, idx(0, 20)));
    EXPECT_TRUE(inRange(gen, v, idx(3, 12)));  // the last dword of the last record
  }
  // A dword at offset 14 of a 16-byte record: GFX10 tests the offset alone (in range), GFX11
  // the offset plus the payload (out).
  const VSharp v = rdnaV(0, 16, 4);
  EXPECT_TRUE(inRange(Gen::Gfx10, v, idx(0, 14)));
  EXPECT_TRUE(inRange(Gen::Gfx10_3, v, idx(0, 14)));
  EXPECT_FALSE(inRange(Gen::Gfx11, v, idx(0, 14)));
}

TEST(RdnaAddress, Mode1TestsTheIndexOnly) {
  for (Gen gen : kRdnaGens) {
    SCOPED_TRACE(genName(gen));
    const VSharp v = rdnaV(1, 16, 4);
    EXPECT_TRUE(inRange(gen, v, idx(0, 20)));  // past STRIDE: no offset test
    EXPECT_TRUE(inRange(gen, v, idx(3, 0)));
    EXPECT_FALSE(inRange(gen, v, idx(4, 0)));
  }
}

TEST(RdnaAddress, Mode2IsOutOfRangeOnlyWithZeroRecords) {
  for (Gen gen : kRdnaGens) {
    SCOPED_TRACE(genName(gen));
    EXPECT_TRUE(inRange(gen, rdnaV(2, 16, 1), idx(1000, 60)));
    EXPECT_TRUE(inRange(gen, rdnaV(2, 0, 1), offen(0x100000)));
    EXPECT_FALSE(inRange(gen, rdnaV(2, 16, 0), idx(0, 0)));
  }
}

TEST(RdnaAddress, Mode3IsRawBytesWithoutSoffset) {
  for (Gen gen : kRdnaGens) {
    SCOPED_TRACE(genName(gen));
    const VSharp v = rdnaV(3, 0, 12);
    EXPECT_TRUE(inRange(gen, v, offen(8)));
    EXPECT_FALSE(inRange(gen, v, offen(12)));
    // SOFFSET is part of the base: the check sees offset 8 < 12 whatever SOFFSET is. GCN
    // (CLRX: BUFOFFSET >= NUMRECORDS - SGPR_OFFSET) puts the same access out of range.
    EXPECT_TRUE(inRange(gen, v, offen(8, 8)));
    // A stride does not make mode 3 structured (without swizzle): the byte rule stays.
    EXPECT_TRUE(inRange(gen, rdnaV(3, 16, 12), offen(8)));
  }
  VSharp g = rdnaV(0, 0, 12);
  g.oobSelect = 0;
  EXPECT_FALSE(inRange(Gen::Gfx9, g, offen(8, 8)));
  // A dwordx2 at byte 8 of 12: GFX10 checks each dword's start (its second at 12 is out only
  // under the payload rule, GFX11's).
  const VSharp v = rdnaV(3, 0, 12);
  const auto d = Policies::defaults(Gen::Gfx10_3);
  EXPECT_EQ(verdicts(Gen::Gfx10_3, v, offen(8), 8, CheckUnit::PerDword, d),
            (std::vector<bool>{true, true}));
  EXPECT_EQ(
      verdicts(Gen::Gfx11, v, offen(8), 8, CheckUnit::PerDword, Policies::defaults(Gen::Gfx11)),
      (std::vector<bool>{true, false}));
  Policies whole = d;
  whole.set("straddle=whole");
  EXPECT_EQ(verdicts(Gen::Gfx10_3, v, offen(8), 8, CheckUnit::PerDword, whole),
            (std::vector<bool>{true, false}));
}

TEST(RdnaAddress, NumRecordsUnitsFollowOobSelect) {
  for (Gen gen : kRdnaGens) {
    EXPECT_FALSE(rdnaNumRecordsInBytes(gen, 0, 16, false)) << genName(gen);
    EXPECT_FALSE(rdnaNumRecordsInBytes(gen, 1, 16, false)) << genName(gen);
    EXPECT_TRUE(rdnaNumRecordsInBytes(gen, 3, 16, false)) << genName(gen);
    EXPECT_TRUE(rdnaNumRecordsInBytes(gen, 3, 0, false)) << genName(gen);
    // The GCN question (stride, SWIZZLE_ENABLE, IDXEN) has no answer on RDNA.
    EXPECT_THROW((void)numRecordsInBytes(gen, 16, false, true), Error) << genName(gen);
  }
  // GFX11's swizzled mode 3 with a stride is structured (records).
  EXPECT_FALSE(rdnaNumRecordsInBytes(Gen::Gfx11, 3, 16, true));
  EXPECT_TRUE(rdnaNumRecordsInBytes(Gen::Gfx10_3, 3, 16, true));
  EXPECT_THROW((void)rdnaNumRecordsInBytes(Gen::Gfx9, 3, 16, false), Error);
}

TEST(RdnaAddress, SwizzledVsharpsAreRefusedWithTheReason) {
  VSharp v = rdnaV(3, 16, 64);
  v.swizzleEnable = true;
  try {
    (void)planAccess(Gen::Gfx10_3, v, idx(0, 0), 4, 1, CheckUnit::Whole,
                     Policies::defaults(Gen::Gfx10_3));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("swizzled addressing on gfx10.3"), std::string::npos)
        << e.what();
  }
}

// The RDNA defaults keep gfx9's choices except where an RDNA source decides.
TEST(RdnaAddress, PolicyDefaultsPerRdnaGeneration) {
  const auto straddle = [](Gen g) { return Policies::defaults(g).rawStraddle(); };
  EXPECT_EQ(straddle(Gen::Gfx10), policy::RawStraddle::StartOnly);
  EXPECT_EQ(straddle(Gen::Gfx10_3), policy::RawStraddle::StartOnly);
  EXPECT_EQ(straddle(Gen::Gfx11), policy::RawStraddle::WholeAccess);
  for (Gen g : kRdnaGens) {
    EXPECT_EQ(Policies::defaults(g).oobDstSelOne(), policy::OobDstSelOne::One) << genName(g);
    Policies p = Policies::defaults(g), q = Policies::defaults(Gen::Gfx9);
    p.set(PolicyId::RawStraddle, 0);
    q.set(PolicyId::RawStraddle, 0);
    p.set(PolicyId::OobDstSelOne, 0);
    q.set(PolicyId::OobDstSelOne, 0);
    EXPECT_EQ(p, q) << genName(g);
  }
}

}  // namespace rdna_address_test
}  // namespace gcn
