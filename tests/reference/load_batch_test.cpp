// FormatLoadBatch against its oracle, execute() (reference/executor.h), lane by lane: for
// every generation, every data format with an element and every number format, every code of
// fields up to 11 bits (seeded and extreme codes of wider fields) read through one of the
// format-load opcodes, addressing modes (IDXEN, OFFEN with SOFFSET and OFFSET, both, a
// swizzled V#, ADDR64 on gfx6/7), DST_SEL patterns (with constants and a reserved selector)
// and policy variants, with lanes past NUM_RECORDS, lanes in range but outside the memory
// image, and huge indices. Every register value, every claimed/unclaimed component and every
// range verdict must be the oracle's.
#include "reference/load_batch.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "reference/address.h"
#include "reference/convert.h"
#include "reference/error.h"
#include "reference/format.h"

namespace gcn {
namespace load_batch_test {

std::vector<Policies> variants(Gen gen) {
  std::vector<Policies> out{Policies::defaults(gen)};
  for (const PolicyPoint& point : allPolicyPoints()) {
    Policies p = Policies::defaults(gen);
    p.set(point.id, static_cast<uint8_t>(1 - p.get(point.id)));
    out.push_back(p);
  }
  return out;
}

constexpr unsigned kSrsrc = 8, kVaddr = 2, kVdata = 20;
constexpr uint64_t kBase = 0x10000;

enum class Addressing { Idxen, Offen, Both, Swizzled, Addr64, AddTid, SwizzledTid };
constexpr Addressing kModes[] = {Addressing::Idxen,      Addressing::Offen,  Addressing::Both,
                                 Addressing::Swizzled,   Addressing::Addr64, Addressing::AddTid,
                                 Addressing::SwizzledTid};
const char* modeName(Addressing m) {
  static const char* kNames[] = {"idxen",  "offen",   "idxen+offen",     "swizzled",
                                 "addr64", "add-tid", "swizzled+add-tid"};
  return kNames[static_cast<int>(m)];
}

const std::array<DstSel, 4> kSels[] = {
    {DstSel::X, DstSel::Y, DstSel::Z, DstSel::W},
    {DstSel::Z, DstSel::Y, DstSel::X, DstSel::W},
    {DstSel::X, DstSel::Zero, DstSel::One, DstSel::W},
    {DstSel::W, DstSel::Reserved2, DstSel::One, DstSel::X},
};
const char* const kOps[] = {"buffer_load_format_x", "buffer_load_format_xy",
                            "buffer_load_format_xyz", "buffer_load_format_xyzw",
                            "tbuffer_load_format_xyzw"};

struct Lanes {
  Instruction inst;
  WaveState scalars;
  MemoryImage memory;
  std::vector<uint32_t> vaddr0, vaddr1;
};

// Elements whose component c runs through every code of its field (fields up to 11 bits) or
// through extremes and seeded codes; `count` elements.
std::vector<uint8_t> elements(Dfmt d, std::size_t count, std::mt19937& rng) {
  const DfmtInfo& info = dfmtInfo(d);
  std::vector<uint8_t> bytes(count * info.bytes);
  const uint32_t extremes[] = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x7c00u, 0x7e01u};
  for (std::size_t e = 0; e < count; ++e) {
    std::span<uint8_t> el(bytes.data() + e * info.bytes, info.bytes);
    for (unsigned c = 0; c < info.components; ++c) {
      const uint32_t mask = info.bits[c] >= 32 ? ~0u : (1u << info.bits[c]) - 1;
      uint32_t code = info.bits[c] <= 11 ? static_cast<uint32_t>(e) : rng();
      if (info.bits[c] > 11 && e < std::size(extremes)) code = extremes[e];
      insertComponent(d, c, code & mask, el);
    }
  }
  return bytes;
}

// One configuration: lanes read elements 0..count-1 in order and then a tail past the end;
// NUM_RECORDS stops 3 elements short; the image stops 6 elements short (3 lanes are in range
// but unmapped).
Lanes makeLanes(Gen gen, Dfmt d, Nfmt n, const char* mnemonic, Addressing mode,
                const std::array<DstSel, 4>& sel, std::mt19937& rng) {
  const DfmtInfo& info = dfmtInfo(d);
  unsigned maxBits = 0;
  for (unsigned c = 0; c < info.components; ++c)
    maxBits = std::max<unsigned>(maxBits, info.bits[c]);
  const std::size_t count = maxBits <= 8 ? 256 : maxBits <= 11 ? 2048 : 512;
  Lanes s;
  s.inst.op = findOpcode(mnemonic);
  s.inst.vdata = kVdata;
  s.inst.vaddr = kVaddr;
  s.inst.srsrc = kSrsrc;
  const bool typed = s.inst.op->dfmtSource == FieldSource::Instruction;
  if (typed) {
    s.inst.dfmt = d;
    s.inst.nfmt = n;
  }
  VSharp v;
  v.base = kBase;
  v.stride = static_cast<uint16_t>(info.bytes);
  v.dataFormat = typed ? Dfmt::F32 : d;
  v.numFormat = typed ? Nfmt::Uint : n;
  v.dstSel = sel;
  const bool idxen = mode != Addressing::Offen && mode != Addressing::Addr64;
  // ADD_TID_ENABLE adds the lane number to the index: lanes must keep their own numbers.
  v.addTidEnable = mode == Addressing::AddTid || mode == Addressing::SwizzledTid;
  if (mode == Addressing::Swizzled || mode == Addressing::SwizzledTid) {
    v.swizzleEnable = true;
    v.indexStride = 1;                         // 16 lanes
    v.elementSize = gen == Gen::Gfx9 ? 0 : 1;  // 4 bytes (gfx9: fixed)
  }
  const uint32_t shortBy = 3;
  v.numRecords = static_cast<uint32_t>(count - shortBy);
  if (numRecordsInBytes(gen, v.stride, v.swizzleEnable, idxen)) v.numRecords *= info.bytes;
  setVsharpWords(s.scalars, kSrsrc, encodeVSharp(gen, v));
  s.inst.idxen = idxen;
  s.inst.offen = mode == Addressing::Offen || mode == Addressing::Both;
  s.inst.addr64 = mode == Addressing::Addr64;
  if (mode == Addressing::Offen) {
    s.inst.offset = 4;
    s.inst.soffset = 12;  // s12
    s.scalars.sgpr[12] = info.bytes;
  }
  std::vector<uint8_t> all = elements(d, count, rng);
  s.memory.base = kBase;
  s.memory.bytes.assign(all.begin(), all.end() - 6 * info.bytes);
  // Lanes: every element, then past the end and huge values; a multiple of 64.
  const std::size_t lanes = (count + 16 + 63) / 64 * 64;
  s.vaddr0.resize(lanes);
  s.vaddr1.resize(lanes);
  for (std::size_t i = 0; i < lanes; ++i) {
    const uint32_t tail[] = {0xffffffffu, 0x7fffffffu, 0x10000u, static_cast<uint32_t>(count)};
    const uint32_t e = i < count + 8 ? static_cast<uint32_t>(i) : tail[i % 4];
    switch (mode) {
      case Addressing::Idxen:
      case Addressing::Swizzled:
        s.vaddr0[i] = e;
        break;
      case Addressing::AddTid:
      case Addressing::SwizzledTid:
        s.vaddr0[i] = e - static_cast<uint32_t>(i % kWaveSize);
        break;
      case Addressing::Offen:
        // Element bytes before SOFFSET and OFFSET, now and then misaligned.
        s.vaddr0[i] = e * info.bytes - info.bytes - 4 + (i % 7 == 3 ? 1 : 0);
        break;
      case Addressing::Both:
        s.vaddr0[i] = e;
        s.vaddr1[i] = static_cast<uint32_t>(i % 3);
        break;
      case Addressing::Addr64:
        s.vaddr0[i] = e * info.bytes;
        s.vaddr1[i] = 0;
        break;
    }
  }
  return s;
}

// The batch and execute() on the same lanes, compared; the number of lanes compared.
std::size_t compare(const Chip& chip, const Lanes& s, const Policies& pol) {
  const FormatLoadBatch batch(chip, s.inst, s.scalars, pol);
  std::vector<BatchLane> got(s.vaddr0.size());
  batch.run(s.memory, s.vaddr0, s.vaddr1, got);
  const std::vector<uint8_t> lds;
  std::size_t compared = 0;
  for (std::size_t w = 0; w * kWaveSize < got.size(); ++w) {
    WaveState st = s.scalars;
    for (unsigned l = 0; l < kWaveSize; ++l) {
      st.vgprMut(kVaddr)[l] = s.vaddr0[w * kWaveSize + l];
      st.vgprMut(kVaddr + 1)[l] = s.vaddr1[w * kWaveSize + l];
    }
    const ExecResult want = execute(chip, s.inst, st, s.memory, lds, pol);
    for (unsigned l = 0; l < kWaveSize; ++l) {
      const LaneResult& lr = want.lanes[l];
      const BatchLane& b = got[w * kWaveSize + l];
      SCOPED_TRACE("lane " + std::to_string(w * kWaveSize + l) + " (VADDR " +
                   std::to_string(s.vaddr0[w * kWaveSize + l]) + ")");
      EXPECT_EQ(lr.vdataCount, batch.registers());
      bool inRange = !lr.accesses.empty();
      for (const LaneAccess& a : lr.accesses)
        inRange = inRange && a.inRange;
      EXPECT_EQ(b.inRange, inRange);
      for (unsigned c = 0; c < batch.registers(); ++c) {
        const bool claimed = (b.claimed >> c) & 1;
        EXPECT_EQ(claimed, lr.vdata[c].has_value()) << "component " << c;
        if (claimed && lr.vdata[c]) {
          EXPECT_EQ(b.reg[c], *lr.vdata[c]) << "component " << c;
        }
      }
      EXPECT_EQ(b.claimed >> batch.registers(), 0) << "claims past its registers";
      ++compared;
      if (::testing::Test::HasFailure()) return compared;
    }
  }
  return compared;
}

TEST(FormatLoadBatch, EqualsExecuteLaneByLane) {
  std::mt19937 rng(20261126);
  std::size_t configs = 0, lanes = 0, definedConfigs = 0;
  for (Gen gen : kGcnGens) {
    const Chip& chip = representativeChip(gen);
    const std::vector<Policies> pols = variants(gen);
    std::size_t k = 0;
    for (unsigned dc = 1; dc < 15; ++dc) {
      const Dfmt d = static_cast<Dfmt>(dc);
      if (dfmtInfo(d).bytes == 0) continue;
      for (unsigned nc = 0; nc < 8; ++nc, ++k) {
        const Nfmt n = static_cast<Nfmt>(nc);
        // Two configurations per pair, spread so that across the pairs every opcode,
        // addressing mode, DST_SEL pattern and policy variant is met many times.
        for (std::size_t j : {k, k * 7 + 3}) {
          Addressing mode = kModes[j % std::size(kModes)];
          if (mode == Addressing::Addr64 && gen >= Gen::Gfx8) mode = Addressing::Both;
          const char* op = kOps[(j / 2) % std::size(kOps)];
          const std::array<DstSel, 4>& sel = kSels[(j / 3) % std::size(kSels)];
          const Policies& pol = j == k ? pols.front() : pols[j % pols.size()];
          SCOPED_TRACE(std::string(genName(gen)) + " " + std::string(dfmtInfo(d).name) + " " +
                       std::string(nfmtName(n, gen)) + " " + op + " " + modeName(mode) + " " +
                       pol.describe());
          const Lanes s = makeLanes(gen, d, n, op, mode, sel, rng);
          lanes += compare(chip, s, pol);
          ++configs;
          if (HasFailure()) return;
          const FormatLoadBatch b(chip, s.inst, s.scalars, pol);
          definedConfigs += b.unclaimedReason().empty();
        }
      }
    }
  }
  EXPECT_GT(configs, 800u);
  EXPECT_GT(lanes, 500000u);
  EXPECT_GT(definedConfigs, 300u);  // most pairs are defined: values, not only "unclaimed"
}

// Every policy variant (addressing points included) with every DST_SEL pattern and every
// addressing mode, on one 8-bit format: the points that act on out-of-range lanes (oob-one)
// and on addresses meet each selector and mode.
TEST(FormatLoadBatch, EveryPolicyVariantSelectorAndMode) {
  std::mt19937 rng(11);
  std::size_t configs = 0;
  for (Gen gen : kGcnGens) {
    const Chip& chip = representativeChip(gen);
    for (const Policies& pol : variants(gen))
      for (const std::array<DstSel, 4>& sel : kSels)
        for (Addressing mode : kModes) {
          if (mode == Addressing::Addr64 && gen >= Gen::Gfx8) continue;
          SCOPED_TRACE(std::string(genName(gen)) + " " + modeName(mode) + " " + pol.describe());
          const Lanes s = makeLanes(gen, Dfmt::F8_8_8_8, Nfmt::Unorm, "buffer_load_format_xyzw",
                                    mode, sel, rng);
          compare(chip, s, pol);
          ++configs;
          if (HasFailure()) return;
        }
  }
  EXPECT_GT(configs, 1000u);
}

// An all-zero V# reads 0 in every register; DATA_FORMAT INVALID likewise; the reserved data
// format claims nothing. Each as execute() says.
TEST(FormatLoadBatch, SpecialResourcesMatchExecute) {
  std::mt19937 rng(7);
  for (Gen gen : kGcnGens) {
    const Chip& chip = representativeChip(gen);
    Lanes s = makeLanes(gen, Dfmt::F8_8_8_8, Nfmt::Unorm, "buffer_load_format_xyzw",
                        Addressing::Idxen, kSels[0], rng);
    const Policies pol = Policies::defaults(gen);
    setVsharpWords(s.scalars, kSrsrc, {0, 0, 0, 0});
    compare(chip, s, pol);
    VSharp v = decodeVSharp(gen, encodeVSharp(gen, VSharp{}));
    v.base = kBase;
    v.stride = 4;
    v.numRecords = 100;
    for (Dfmt d : {Dfmt::Invalid, Dfmt::Reserved}) {
      v.dataFormat = d;
      setVsharpWords(s.scalars, kSrsrc, encodeVSharp(gen, v));
      compare(chip, s, pol);
    }
    if (HasFailure()) return;
  }
}

TEST(FormatLoadBatch, RefusesWhatItDoesNotModel) {
  const Chip& gfx9 = representativeChip(Gen::Gfx9);
  const Policies pol = Policies::defaults(Gen::Gfx9);
  WaveState st;
  setVsharpWords(st, kSrsrc, {});
  Instruction inst;
  inst.srsrc = kSrsrc;
  inst.idxen = true;
  inst.op = findOpcode("buffer_load_dword");
  EXPECT_THROW(FormatLoadBatch(gfx9, inst, st, pol), Error);
  inst.op = findOpcode("buffer_store_format_x");
  EXPECT_THROW(FormatLoadBatch(gfx9, inst, st, pol), Error);
  inst.op = findOpcode("buffer_load_format_d16_x");
  ASSERT_NE(inst.op, nullptr);
  EXPECT_THROW(FormatLoadBatch(gfx9, inst, st, pol), Error);
  inst.op = findOpcode("buffer_load_format_x");
  inst.tfe = true;
  EXPECT_THROW(FormatLoadBatch(gfx9, inst, st, pol), Error);
  inst.tfe = false;
  inst.lds = true;
  EXPECT_THROW(FormatLoadBatch(gfx9, inst, st, pol), Error);
  inst.lds = false;
  inst.srsrc = 6;  // not a quad
  EXPECT_THROW(FormatLoadBatch(gfx9, inst, st, pol), Error);
  inst.srsrc = kSrsrc;
  inst.offen = true;  // two VADDR registers
  const FormatLoadBatch batch(gfx9, inst, st, pol);
  const MemoryImage mem;
  std::vector<uint32_t> v0(64), v1(63);
  std::vector<BatchLane> out(64);
  EXPECT_THROW(batch.run(mem, v0, v1, out), Error);  // short second VADDR
  v1.resize(64);
  EXPECT_NO_THROW(batch.run(mem, v0, v1, out));
  out.resize(10);
  EXPECT_THROW(batch.run(mem, v0, v1, out), Error);  // lanes out != lanes in
}

}  // namespace load_batch_test
}  // namespace gcn
