// The executor on RDNA: the unified FORMAT (the V#'s for MUBUF format ops, the instruction's
// for MTBUF) names the conversion, OOB_SELECT the range check, and out-of-range DST_SEL = 1
// components read 1 by default (AMD RDNA3 ISA: "out-of-range loads return zero, except
// components with V#.dst_sel = SEL_1, which return 1"). Expected values: UNORM8 0xff is 1.0
// and 0 is 0 under every rounding; a 32-bit UINT reads its bits.
#include <gtest/gtest.h>

#include <cstring>

#include "reference/executor.h"
#include "reference/format.h"
#include "reference/opcodes.h"
#include "reference/resource.h"

namespace gcn {
namespace rdna_executor_test {

constexpr uint64_t kBase = 0x1000;

struct RdnaRig {
  const Chip* chip;
  Instruction inst;
  WaveState st;
  MemoryImage mem;
  Policies pol;
  RdnaRig(Gen g, std::string_view mnemonic)
      : chip(&representativeChip(g)), pol(Policies::defaults(g)) {
    inst.op = findOpcode(mnemonic);
    inst.srsrc = 4;
    inst.vdata = 10;
    inst.vaddr = 2;
    inst.idxen = true;
    mem.base = kBase;
    mem.bytes.resize(256);
    st.exec = 0x3f;
    for (unsigned l = 0; l < 6; ++l)
      st.vgprMut(2)[l] = l;  // lane l reads element l
  }
  void setV(const VSharp& v) { setVsharpWords(st, 4, encodeVSharp(chip->gen, v)); }
  ExecResult run() const {
    return execute(*chip, inst, st, mem, std::vector<uint8_t>(1024), pol, {.registers = true});
  }
};

uint8_t code(Gen g, Dfmt d, Nfmt n) {
  const UnifiedFormat* f = findUnifiedFormat(g, d, n);
  EXPECT_NE(f, nullptr);
  return f != nullptr ? f->code : 0;
}

VSharp texelV(Gen g, uint8_t format, uint32_t stride, uint32_t records, std::array<DstSel, 4> sel) {
  VSharp v;
  v.base = kBase;
  v.stride = stride;
  v.numRecords = records;
  v.format = format;
  v.dstSel = sel;
  v.oobSelect = 0;
  v.resourceLevel = g != Gen::Gfx11;
  return v;
}

constexpr std::array<DstSel, 4> kX001 = {DstSel::X, DstSel::Zero, DstSel::Zero, DstSel::One};

TEST(RdnaExecutor, FormatLoadConvertsWithTheVsharpsUnifiedFormat) {
  for (Gen g : kRdnaGens) {
    SCOPED_TRACE(genName(g));
    RdnaRig r(g, "buffer_load_format_xyzw");
    r.setV(texelV(g, code(g, Dfmt::F8, Nfmt::Unorm), 1, 4, kX001));
    r.mem.bytes[0] = 0x00;
    r.mem.bytes[3] = 0xff;
    const ExecResult res = r.run();
    const auto& x = res.state->vgpr(10);
    const auto& w = res.state->vgpr(13);
    EXPECT_EQ(x[0], 0u);
    EXPECT_EQ(x[3], 0x3f800000u);  // 0xff -> 1.0
    EXPECT_EQ(w[0], 0x3f800000u);  // DST_SEL 1
    // Lanes 4 and 5: index >= NUM_RECORDS (OOB_SELECT 0): X 0, W 1.0 by default.
    EXPECT_EQ(x[4], 0u);
    EXPECT_EQ(w[4], 0x3f800000u);
    EXPECT_EQ(w[5], 0x3f800000u);
    r.pol.set("oob-one=zero");
    EXPECT_EQ(r.run().state->vgpr(13)[4], 0u);
  }
}

TEST(RdnaExecutor, TypedLoadConvertsWithTheInstructionsUnifiedFormat) {
  for (Gen g : kRdnaGens) {
    SCOPED_TRACE(genName(g));
    RdnaRig r(g, "tbuffer_load_format_x");
    r.inst.format = code(g, Dfmt::F32, Nfmt::Uint);
    VSharp v = texelV(g, code(g, Dfmt::F8, Nfmt::Unorm), 4, 4, kX001);  // ignored by MTBUF
    r.setV(v);
    const uint32_t word = 0xdeadbeef;
    std::memcpy(r.mem.bytes.data() + 8, &word, 4);
    const ExecResult res = r.run();
    EXPECT_EQ(res.state->vgpr(10)[2], 0xdeadbeefu);
    EXPECT_EQ(res.state->vgpr(10)[4], 0u);  // index 4 >= NUM_RECORDS 4
    // FORMAT 0 is BUF_FMT_INVALID (LLVM's table, docs/rdna.md): read as DATA_FORMAT INVALID,
    // whose format loads return 0 (docs/gcn-facts.md).
    r.inst.format = 0;
    EXPECT_EQ(r.run().state->vgpr(10)[2], 0u);
  }
}

}  // namespace rdna_executor_test
}  // namespace gcn
