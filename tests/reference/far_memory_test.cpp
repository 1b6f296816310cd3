// Far memory regions (MemoryImage::far): an access inside one is performed there, one that
// no region holds whole is not (in range but unmapped), and a write lands in the region's
// copy. Expected values are the bytes the test put there; the addresses are derived by hand
// from the V# (BASE + OFFSET + VGPR offset).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "reference/error.h"
#include "reference/executor.h"
#include "reference/resource.h"

namespace gcn {
namespace far_memory_test {

constexpr uint64_t kBase = 0x1000;
constexpr uint64_t kFar = kBase + (1ull << 32);  // 4 GiB past the image

const OpcodeInfo& opNamed(std::string_view m) {
  const OpcodeInfo* op = findOpcode(m);
  if (op == nullptr) throw Error("test: unknown opcode " + std::string(m));
  return *op;
}

// A raw dword access with OFFEN: lane l's VGPR offset is offsets[l]; NUM_RECORDS covers 8 GiB
// worth of bytes (0xffffffff), so every access below is in range.
struct Rig {
  const Chip& chip = representativeChip(Gen::Gfx9);
  Instruction inst;
  WaveState st;
  MemoryImage mem{kBase, std::vector<uint8_t>(64)};

  Rig(std::string_view mnemonic, std::initializer_list<uint64_t> offsets) {
    inst.op = &opNamed(mnemonic);
    inst.srsrc = 4;
    inst.vdata = 10;
    inst.vaddr = 2;
    inst.offen = true;
    VSharp v;
    v.base = kBase;
    v.numRecords = 0xffffffffu;
    v.dataFormat = Dfmt::F32;
    v.numFormat = Nfmt::Uint;
    setVsharpWords(st, 4, encodeVSharp(Gen::Gfx9, v));
    st.exec = 0;
    unsigned l = 0;
    for (uint64_t o : offsets) {
      st.vgprMut(2)[l] = static_cast<uint32_t>(o);
      st.vgprMut(10)[l] = 0xc0de0000u + l;
      st.exec |= 1ull << l++;
    }
    for (std::size_t i = 0; i < mem.bytes.size(); ++i)
      mem.bytes[i] = static_cast<uint8_t>(i);
  }
  ExecResult run() const {
    return execute(chip, inst, st, mem, {}, Policies::defaults(Gen::Gfx9), {.registers = true});
  }
};

// A V# BASE just before a far region: the loads read it, not the image.
TEST(FarMemory, LoadsReadTheRegionThatHoldsTheAccess) {
  Rig r("buffer_load_dword", {0, 0, 0});
  r.mem.far.push_back({kBase + 0x100, {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88}});
  VSharp v;
  v.base = kBase + 0x100 - 4;  // lane 0 reads far bytes 0..3 at offset 4
  v.numRecords = 0xffffffffu;
  v.dataFormat = Dfmt::F32;
  v.numFormat = Nfmt::Uint;
  setVsharpWords(r.st, 4, encodeVSharp(Gen::Gfx9, v));
  r.st.vgprMut(2)[0] = 4;
  r.st.vgprMut(2)[1] = 8;   // far bytes 4..7
  r.st.vgprMut(2)[2] = 12;  // far bytes 8..11: past the region's end, so unmapped
  const ExecResult e = r.run();
  EXPECT_EQ(e.lanes[0].vdata[0], 0x44332211u);
  EXPECT_EQ(e.lanes[1].vdata[0], 0x88776655u);
  EXPECT_FALSE(e.lanes[2].vdata[0].has_value()) << "an access no region holds whole is unclaimed";
  ASSERT_FALSE(e.lanes[2].accesses.empty());
  EXPECT_FALSE(e.lanes[2].accesses[0].mapped);
  EXPECT_TRUE(e.lanes[2].accesses[0].inRange);
}

TEST(FarMemory, StoresWriteTheRegionsCopy) {
  Rig r("buffer_store_dword", {0, 4});
  r.mem.far.push_back({kFar, std::vector<uint8_t>(16, 0xee)});
  VSharp v;
  v.base = kFar - 4;  // BASE 4 bytes before the far region
  v.numRecords = 0xffffffffu;
  v.dataFormat = Dfmt::F32;
  v.numFormat = Nfmt::Uint;
  setVsharpWords(r.st, 4, encodeVSharp(Gen::Gfx9, v));
  r.st.vgprMut(2)[0] = 4;  // far bytes 0..3
  r.st.vgprMut(2)[1] = 8;  // far bytes 4..7
  const ExecResult e = r.run();
  const MemoryImage& after = e.memory();
  ASSERT_EQ(after.far.size(), 1u);
  uint32_t w0 = 0, w1 = 0;
  std::memcpy(&w0, after.far[0].bytes.data(), 4);
  std::memcpy(&w1, after.far[0].bytes.data() + 4, 4);
  EXPECT_EQ(w0, 0xc0de0000u);
  EXPECT_EQ(w1, 0xc0de0001u);
  EXPECT_EQ(after.far[0].bytes[8], 0xee);
  EXPECT_EQ(after.bytes, r.mem.bytes) << "the image is untouched";
  EXPECT_EQ(r.mem.far[0].bytes[0], 0xee) << "the caller's copy is untouched";
}

TEST(FarMemory, OverlappingOrEmptyRegionsAreRefused) {
  Rig r("buffer_load_dword", {0});
  r.mem.far.push_back({kBase + 32, std::vector<uint8_t>(8)});  // inside the 64-byte image
  EXPECT_NE(r.mem.layoutProblem().find("overlap"), std::string::npos) << r.mem.layoutProblem();
  EXPECT_THROW((void)r.run(), Error);
  r.mem.far = {{kFar, std::vector<uint8_t>(8)}, {kFar + 4, std::vector<uint8_t>(8)}};
  EXPECT_NE(r.mem.layoutProblem().find("overlap"), std::string::npos);
  r.mem.far = {{kFar, {}}};
  EXPECT_NE(r.mem.layoutProblem().find("no bytes"), std::string::npos);
  r.mem.far = {{~0ull - 3, std::vector<uint8_t>(8)}};
  EXPECT_NE(r.mem.layoutProblem().find("2^64"), std::string::npos);
  r.mem.far = {{kBase + 64, std::vector<uint8_t>(8)}, {kFar, std::vector<uint8_t>(8)}};
  EXPECT_EQ(r.mem.layoutProblem(), "") << "touching the image's end is not overlapping";
}

}  // namespace far_memory_test
}  // namespace gcn
