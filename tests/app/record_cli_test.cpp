// The driver record (docs/hardware-record.md) through the command line: `gcnprobe convert`,
// `ref` and `probe` give each modelled row's answer on the chips the row names, and the other
// answer where the record says another generation differs. Expected values come from the
// sources each row quotes, derived in the comments (never from the reference's output).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/cli.h"

namespace record_cli_test {

using gcnprobe::test_support::CliRun;
using gcnprobe::test_support::runGcnprobe;

const std::string kProbes = std::string(GCNPROBE_SOURCE_DIR) + "/probes/";

CliRun ref(const std::string& probe, const std::string& gen) {
  return runGcnprobe("ref " + kProbes + probe + " --gen " + gen);
}

bool has(const CliRun& r, const std::string& text) {
  return r.out.find(text) != std::string::npos;
}

// A probe written for one test (its name + ".probe" in the test's temporary folder), run by
// `gcnprobe ref --gen GEN`.
CliRun refText(const std::string& name, const std::string& text, const std::string& gen) {
  const auto dir = std::filesystem::temp_directory_path() / "gcnprobe-record-cli";
  std::filesystem::create_directories(dir);
  const auto file = dir / (name + ".probe");
  std::ofstream(file) << text;
  return runGcnprobe("ref " + file.string() + " --gen " + gen);
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

// ---- rows already modelled as the default ---------------------------------------------

// R5: the most negative SNORM code reads as -1.0 like the next one up (CLRX: SNORM data
// MIN+1..MAX; radeonsi opencoded_load_format clamps to [-1, 1]).
TEST(RecordCli, R5SnormMinimumIsMinusOne) {
  for (const char* gen : {"gfx6", "gfx7", "gfx8", "gfx9"}) {
    EXPECT_EQ(
        runGcnprobe(std::string("convert --gen ") + gen + " --dfmt 8 --nfmt snorm --load 0x80").out,
        "X 0xbf800000 -1\n")
        << gen;
    EXPECT_EQ(
        runGcnprobe(std::string("convert --gen ") + gen + " --dfmt 8 --nfmt snorm --load 0x81").out,
        "X 0xbf800000 -1\n")
        << gen;
  }
}

// R6: NUM_FORMAT 6 is SNORM_OGL on GFX6/7 ((2c+1)/255: code 0 gives 1/255 = 0x3b808081),
// reserved on GFX8 (refused), UNORM_UINT on GFX9 (no public definition: no value).
TEST(RecordCli, R6NumberFormat6PerGeneration) {
  for (const char* gen : {"gfx6", "gfx7"})
    EXPECT_EQ(runGcnprobe(std::string("convert --gen ") + gen + " --dfmt 8 --nfmt 6 --load 0").out,
              "X 0x3b808081 0.003921569\n")
        << gen;
  const CliRun gfx8 = runGcnprobe("convert --gen gfx8 --dfmt 8 --nfmt 6 --load 0");
  EXPECT_EQ(gfx8.exit, 2) << gfx8.out;
  EXPECT_TRUE(has(gfx8, "number format 6 is reserved on gfx8")) << gfx8.out;
  EXPECT_TRUE(has(runGcnprobe("convert --gen gfx9 --dfmt 8 --nfmt 6 --load 0"), "X undefined"));
  EXPECT_TRUE(has(ref("snorm-ogl-gfx6.probe", "gfx6"), "expect: holds"));
}

// R7: TBUFFER loads ignore the V#'s DST_SEL (RADV lower_load_vs_input: "typed loads using the
// MTBUF instruction format don't support DST_SEL"; CLRX: TBUFFER DST_SEL identity). V# DST_SEL
// wzyx, memory X..W = 1..4 as 32_32_32_32 UINT: TBUFFER reads 1, 2, 3, 4; BUFFER_LOAD_FORMAT
// applies the V#'s DST_SEL: 4, 3, 2, 1.
TEST(RecordCli, R7TbufferIgnoresTheVsharpDstSel) {
  const std::string common =
      "question = DST_SEL\nsource = test\nvsharp = base=0x1000 stride=16 num_records=4 "
      "dfmt=32_32_32_32 nfmt=uint dst_sel=wzyx\nlanes = 1\nv0 = 0\nmem @0 u32 = 1, 2, 3, 4\n";
  for (const char* gen : {"gfx6", "gfx7", "gfx8", "gfx9"}) {
    const CliRun t = refText("r7-tbuffer",
                             "inst = tbuffer_load_format_xyzw v[1:4], v0, s[4:7], 0 "
                             "format:[BUF_DATA_FORMAT_32_32_32_32,BUF_NUM_FORMAT_UINT] idxen\n" +
                                 common,
                             gen);
    EXPECT_TRUE(has(t, "v1=0x1 v2=0x2 v3=0x3 v4=0x4")) << gen << ": " << t.out;
    const CliRun b = refText(
        "r7-buffer", "inst = buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen\n" + common, gen);
    EXPECT_TRUE(has(b, "v1=0x4 v2=0x3 v3=0x2 v4=0x1")) << gen << ": " << b.out;
  }
}

// R9: BUFFER_ATOMIC_FCMPSWAP/FMIN/FMAX exist on GFX6/7 only, BUFFER_ATOMIC_RSUB on GFX6 only
// (CLRX GcnInstrsMubuf opcode tables): elsewhere the probe is refused, naming the opcode.
TEST(RecordCli, R9OpcodesAGenerationLacksAreRefused) {
  const auto atomic = [](const std::string& op, const std::string& gen) {
    return refText("r9-" + op,
                   "question = opcode\nsource = test\ninst = " + op +
                       " v[1:2], v0, s[4:7], 0 offen glc\nvsharp = base=0x1000 num_records=64 "
                       "dfmt=32 nfmt=uint\nlanes = 1\nv0 = 0\n",
                   gen);
  };
  for (const char* gen : {"gfx6", "gfx7"})
    EXPECT_EQ(atomic("buffer_atomic_fcmpswap", gen).exit, 0) << gen;
  for (const char* gen : {"gfx8", "gfx9"}) {
    const CliRun r = atomic("buffer_atomic_fcmpswap", gen);
    EXPECT_EQ(r.exit, 2) << gen << ": " << r.out;
    EXPECT_TRUE(has(r, "buffer_atomic_fcmpswap")) << r.out;
  }
  const auto rsub = [](const std::string& gen) {
    return refText("r9-rsub",
                   "question = opcode\nsource = test\ninst = buffer_atomic_rsub v1, v0, s[4:7], "
                   "0 offen glc\nvsharp = base=0x1000 num_records=64 dfmt=32 nfmt=uint\nlanes = "
                   "1\nv0 = 0\n",
                   gen);
  };
  EXPECT_EQ(rsub("gfx6").exit, 0);
  EXPECT_EQ(rsub("gfx7").exit, 2);
}

// R10: CMPSWAP takes the new value from VDATA[0] and the compare from VDATA[1] and returns the
// old value in VDATA[0] with GLC (CLRX BUFFER_ATOMIC_CMPSWAP). Memory 7, src 9, cmp 7: memory
// becomes 9 and v1 gets 7.
TEST(RecordCli, R10CmpswapDataThenCompare) {
  for (const char* gen : {"gfx6", "gfx8"}) {
    const CliRun r = refText("r10",
                             "question = cmpswap\nsource = test\ninst = buffer_atomic_cmpswap "
                             "v[1:2], v0, s[4:7], 0 offen glc\nvsharp = base=0x1000 "
                             "num_records=64 dfmt=32 nfmt=uint\nlanes = 1\nv0 = 0\nv1 = 9\nv2 = "
                             "7\nmem @0 u32 = 7\nexpect v1 = 7\nexpect mem @0 u32 = 9\n",
                             gen);
    EXPECT_TRUE(has(r, "expect: holds")) << gen << ": " << r.out;
  }
}

// R11: INC wraps to 0 once memory >= the operand; DEC gives the operand when memory is 0 or
// above it (CLRX BUFFER_ATOMIC_INC/DEC). INC with memory 5, operand 5: 0. DEC with memory 0,
// operand 5: 5.
TEST(RecordCli, R11IncDecWrap) {
  const auto run = [](const std::string& op, const std::string& mem, const std::string& want) {
    return refText("r11-" + op,
                   "question = wrap\nsource = test\ninst = " + op +
                       " v1, v0, s[4:7], 0 offen glc\nvsharp = base=0x1000 num_records=64 "
                       "dfmt=32 nfmt=uint\nlanes = 1\nv0 = 0\nv1 = 5\nmem @0 u32 = " +
                       mem + "\nexpect mem @0 u32 = " + want + "\n",
                   "gfx8");
  };
  EXPECT_TRUE(has(run("buffer_atomic_inc", "5", "0"), "expect: holds"));
  EXPECT_TRUE(has(run("buffer_atomic_inc", "4", "5"), "expect: holds"));
  EXPECT_TRUE(has(run("buffer_atomic_dec", "0", "5"), "expect: holds"));
  EXPECT_TRUE(has(run("buffer_atomic_dec", "3", "2"), "expect: holds"));
}

// R16: LDS DMA writes at M0[15:0] + lane * 4 (CLRX); the shipped probe expects the dword at the
// LDS address M0 names with bit 16 set.
TEST(RecordCli, R16LdsStoreUsesM0Low16Bits) {
  EXPECT_TRUE(has(ref("lds-store-m0-high.probe", "gfx9"), "expect: holds"));
}

// R17: ADDR64 exists on GFX6/7 only and is never range-checked (LLVM hasAddr64, CLRX): with
// NUM_RECORDS 0 a GFX7 ADDR64 load still reads memory; GFX8 refuses the modifier.
TEST(RecordCli, R17Addr64OnGfx6And7Unchecked) {
  const std::string text =
      "question = addr64\nsource = test\ninst = buffer_load_dword v1, v[2:3], s[4:7], 0 "
      "addr64\nvsharp = base=0x1000 num_records=0 dfmt=32 nfmt=uint\nlanes = 1\nv2 = 8\nv3 = "
      "0\nmem @0 u32 x4 = 0xe0 + i\nexpect v1 = 0xe2\n";
  for (const char* gen : {"gfx6", "gfx7"})
    EXPECT_TRUE(has(refText("r17", text, gen), "expect: holds")) << gen;
  EXPECT_EQ(refText("r17", text, "gfx8").exit, 2);
}

// R20: 10_11_11 on GCN 1.0 "seemingly doesn't work correctly" (CLRX): no value claimed there.
TEST(RecordCli, R20PackedFloatsUnknownOnGfx6) {
  EXPECT_TRUE(has(ref("fmt-10-11-11-gfx6.probe", "gfx6"), "expect: holds"));
  EXPECT_TRUE(
      has(runGcnprobe("convert --gen gfx6 --dfmt 10_11_11 --nfmt float --load 0"), "X undefined"));
}

// R22: D16 format data is unpacked (one VGPR per component) on gfx801-803 and packed on Stoney
// and GFX9 (LLVM FeatureUnpackedD16VMem): BUFFER_LOAD_FORMAT_D16_XY of 16_16 UINT (1, 2) writes
// v1 = 1, v2 = 2 on Tonga and v1 = 0x00020001 on Stoney and Vega10, whose VDATA is one VGPR.
TEST(RecordCli, R22D16PackingPerChip) {
  const auto text = [](const std::string& vdata) {
    return "question = d16\nsource = test\ninst = buffer_load_format_d16_xy " + vdata +
           ", v0, s[4:7], 0 idxen\nvsharp = base=0x1000 stride=4 num_records=4 dfmt=16_16 "
           "nfmt=uint\nlanes = 1\nv0 = 0\nv1 = 0x99999999\nv2 = 0x99999999\nmem @0 u32 = "
           "0x00020001\n";
  };
  EXPECT_TRUE(has(refText("r22-unpacked", text("v[1:2]"), "tonga"), "v1=0x1 v2=0x2"));
  for (const char* chip : {"stoney", "vega10"}) {
    const CliRun r = refText("r22-packed", text("v1"), chip);
    EXPECT_TRUE(has(r, "v1=0x20001 |")) << chip << ": " << r.out;
  }
  // Two VGPRs on a packed chip: refused, naming the chip.
  const CliRun wrong = refText("r22-wrong", text("v[1:2]"), "stoney");
  EXPECT_EQ(wrong.exit, 2) << wrong.out;
  EXPECT_TRUE(has(wrong, "on stoney (gfx8) takes 1 VGPR(s)")) << wrong.out;
}

// R24: DATA_FORMAT 15 is reserved (no 3-component 8/16-bit format exists): refused.
TEST(RecordCli, R24DataFormat15IsReserved) {
  const CliRun r = runGcnprobe("convert --gen gfx8 --dfmt 15 --nfmt uint --load 0");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_TRUE(has(r, "data format 15 is reserved")) << r.out;
}

// R27: NUM_RECORDS counts bytes on GFX8 without swizzle even with IDXEN (PAL CalcNumRecords,
// radeonsi): the shipped probe expects lanes 2 and 3 (offsets 32 and 48 of a 32-byte buffer)
// out of range.
TEST(RecordCli, R27NumRecordsInBytesOnGfx8) {
  EXPECT_TRUE(has(ref("num-records-units-gfx8.probe", "gfx8"), "expect: holds"));
}

}  // namespace record_cli_test
