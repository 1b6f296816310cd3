// The driver record (docs/hardware-record.md) through the command line: `gcnprobe convert`,
// `ref` and `probe` give each modelled row's answer on the chips the row names, and the other
// answer where the record says another generation differs. Expected values come from the
// sources each row quotes, derived in the comments (never from the reference's output).
#include <gtest/gtest.h>

#include <string>

#include "tests/support/cli.h"

namespace {

using gcnprobe::test_support::CliRun;
using gcnprobe::test_support::runGcnprobe;

const std::string kProbes = std::string(GCNPROBE_SOURCE_DIR) + "/probes/";

CliRun ref(const std::string& probe, const std::string& gen) {
  return runGcnprobe("ref " + kProbes + probe + " --gen " + gen);
}

bool has(const CliRun& r, const std::string& text) {
  return r.out.find(text) != std::string::npos;
}

// Raw 32-bit UNORM/SNORM/USCALED/SSCALED loads (AMD SI ISA on MTBUF, quoted by radeonsi and
// RADV: "Memory reads of data in memory that is 32 or 64 bits do not undergo any format
// conversion"): the register is the memory dword on every generation.
TEST(RecordCli, Norm32LoadsAreRawBits) {
  for (const char* gen : {"gfx6", "gfx7", "gfx8", "gfx9"})
    for (const char* nfmt : {"unorm", "snorm", "uscaled", "sscaled"}) {
      const CliRun r = runGcnprobe(std::string("convert --gen ") + gen + " --dfmt 32 --nfmt " +
                                   nfmt + " --load 0x80000001");
      EXPECT_EQ(r.exit, 0) << r.out;
      EXPECT_EQ(r.out.substr(0, 13), "X 0x80000001 ") << gen << " " << nfmt << ": " << r.out;
    }
}

// A negative VGPR offset fails the range check (LLVM SelectMUBUFScratchOffen, before GFX9;
// "For out-of-bounds MUBUF loads, a 0 is returned"): the probe's expect line (lane 0 reads 0,
// lane 1 at offset 48 reads its dword) holds on GFX6-8.
TEST(RecordCli, NegativeVgprOffsetIsOutOfRange) {
  for (const char* gen : {"gfx6", "gfx7", "gfx8"}) {
    const CliRun r = ref("offset-carry.probe", gen);
    EXPECT_EQ(r.exit, 0) << gen << ": " << r.out;
    EXPECT_TRUE(has(r, "expect: holds")) << gen << ": " << r.out;
  }
}

// radeonsi: before GFX8 DATA_FORMAT "cannot be BUF_DATA_FORMAT_INVALID" for untyped accesses;
// RADV's GFX8/9 ring descriptors store through DATA_FORMAT 0. The probe expects memory kept.
TEST(RecordCli, InvalidDataFormatDropsUntypedStoresBeforeGfx8) {
  for (const char* gen : {"gfx6", "gfx7"}) {
    const CliRun r = ref("invalid-dfmt-untyped-gfx7.probe", gen);
    EXPECT_TRUE(has(r, "expect: holds")) << gen << ": " << r.out;
  }
  for (const char* gen : {"gfx8", "gfx9"}) {
    const CliRun r = ref("invalid-dfmt-untyped-gfx7.probe", gen);
    EXPECT_TRUE(has(r, "expected 0xeeeeeeee, reference 0x12345678")) << gen << ": " << r.out;
  }
}

// Mesa ac_set_buf_desc_word3: "DATA_FORMAT is STRIDE[14:17] for MUBUF with ADD_TID_ENABLE=1"
// (GFX8 and later): STRIDE 4 with DATA_FORMAT 1 is 16388 bytes per lane there, 4 on GFX6/7.
TEST(RecordCli, AddTidReadsDataFormatAsStrideBitsOnGfx8And9) {
  for (const char* gen : {"gfx8", "gfx9"}) {
    const CliRun r = ref("add-tid-stride-gfx8.probe", gen);
    EXPECT_TRUE(has(r, "expect: holds")) << gen << ": " << r.out;
    EXPECT_TRUE(has(r, "lane  1: v1=0xa1000001 | 0x5004+4 in")) << gen << ": " << r.out;
  }
  const CliRun r = ref("add-tid-stride-gfx8.probe", "gfx7");
  EXPECT_TRUE(has(r, "lane  1: v1=0xa0000001 | 0x1004+4 in")) << r.out;
}

// GFX6 has no unaligned buffer access (radeonsi: "SI doesn't support unaligned loads"); GFX7+
// do (Mesa has_unaligned_shader_loads = chip_class != GFX6). The probe fills memory with its
// byte offsets, so lane 1's dword at offset 1 is bytes 1..4 = 0x04030201 when the address is
// honoured and bytes 0..3 = 0x03020100 when its low bits are ignored.
TEST(RecordCli, UnalignedDwordsFollowTheGeneration) {
  EXPECT_TRUE(has(ref("unaligned-dword.probe", "gfx6"), "lane  1: v1=0x3020100 | 0x1000+4 in"));
  for (const char* gen : {"gfx7", "gfx8", "gfx9"})
    EXPECT_TRUE(has(ref("unaligned-dword.probe", gen), "lane  1: v1=0x4030201 | 0x1001+4 in"))
        << gen;
}

// RADV radv_cmd_buffer.c: GFX9 does not bounds-check a V# whose STRIDE and NUM_RECORDS are 0:
// lane 2 reads its dword 0xd0000002 there; GFX6-8 keep CLRX's byte check, which rejects it.
TEST(RecordCli, ZeroStrideAndRecordsAreUncheckedOnGfx9) {
  EXPECT_TRUE(has(ref("zero-records-gfx9.probe", "gfx9"), "lane  2: v1=0xd0000002 | 0x1008+4 in"));
  EXPECT_TRUE(has(ref("zero-records-gfx9.probe", "gfx8"), "lane  2: v1=0x0 | 0x1008+4 oob"));
}

// LLVM splitMUBUFOffset: atomics with an unaligned address component "fail to work correctly";
// the probe expects no claimed value.
TEST(RecordCli, AtomicWithUnalignedComponentsClaimsNoValue) {
  const CliRun r = ref("atomic-unaligned-components.probe", "gfx8");
  EXPECT_TRUE(has(r, "expect: holds")) << r.out;
  EXPECT_TRUE(has(r, "v1=undef")) << r.out;
}

// shadPS4 StoreBufferFormat applies the inverse swizzle: with DST_SEL yzwx, registers
// (1.0, 0, 0.5, 1.0) = ff 00 80 ff land in memory components (Y, Z, W, X): ff ff 00 80.
// `probe` lists the three options, inverse first as the default.
TEST(RecordCli, FormatStoresApplyTheInverseDstSel) {
  const CliRun r = ref("store-dst-sel-direction.probe", "gfx9");
  EXPECT_TRUE(has(r, "-> ff ff 00 80 ff ff 00 80")) << r.out;
  const CliRun p = runGcnprobe("probe " + kProbes + "store-dst-sel-direction.probe");
  EXPECT_TRUE(has(p, "A (default): store-dst-sel=inverse")) << p.out;
  EXPECT_TRUE(has(p, "C: store-dst-sel=forward")) << p.out;
}

// Mesa's alpha adjust (radeonsi si_state.c: the 2-bit alpha is unsigned on "GFX8 and older
// except Stoney"): W code 2 of a 2_10_10_10 SINT load is 2 on Tahiti, Hawaii and Tonga, -2 on
// Stoney and Vega10. `--gen` takes the chip, so the chip's own default applies.
TEST(RecordCli, TwoBitAlphaIsUnsignedOnGfx6To8ButStoney) {
  for (const char* chip : {"tahiti", "hawaii", "tonga", "polaris10"}) {
    const CliRun r = runGcnprobe(std::string("convert --gen ") + chip +
                                 " --dfmt 2_10_10_10 --nfmt sint --load 0x80000000");
    EXPECT_TRUE(has(r, "W 0x00000002 2")) << chip << ": " << r.out;
  }
  for (const char* chip : {"stoney", "vega10"}) {
    const CliRun r = runGcnprobe(std::string("convert --gen ") + chip +
                                 " --dfmt 2_10_10_10 --nfmt sint --load 0x80000000");
    EXPECT_TRUE(has(r, "W 0xfffffffe -2")) << chip << ": " << r.out;
  }
}

}  // namespace
