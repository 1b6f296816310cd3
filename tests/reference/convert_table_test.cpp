// FormatLoadTable against its oracle, the single-element loadElement (reference/convert.h):
// for every generation, every data format with an element and every number format: under the
// default policies every value of every field of 16 bits or less (the other fields
// pseudo-random); under each value-only policy point flipped on its own every value of fields
// up to 11 bits and 2048 seeded values of 16-bit ones; seeded random and extreme values of
// 32-bit fields throughout. The batch must give the oracle's bits exactly, and be
// undefined exactly where the oracle is.
#include "reference/convert_table.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "reference/error.h"

namespace gcn {
namespace convert_table_test {

// The policy variants a format load can see: the defaults, then each value-only point
// flipped (the addressing points never reach a conversion).
std::vector<Policies> variants(Gen gen) {
  std::vector<Policies> out{Policies::defaults(gen)};
  for (const PolicyPoint& point : allPolicyPoints()) {
    if (point.addressing) continue;
    Policies p = Policies::defaults(gen);
    p.set(point.id, static_cast<uint8_t>(1 - p.get(point.id)));
    out.push_back(p);
  }
  return out;
}

TEST(FormatLoadTable, EqualsLoadElementOnEveryFieldValue) {
  std::mt19937 rng(20261124);
  std::size_t tables = 0, compared = 0;
  for (Gen gen : kGcnGens) {
    for (unsigned dc = 0; dc < 16; ++dc) {
      const Dfmt d = static_cast<Dfmt>(dc);
      const DfmtInfo& info = dfmtInfo(d);
      if (info.bytes == 0) {
        EXPECT_THROW(FormatLoadTable(gen, d, Nfmt::Uint, Policies::defaults(gen)), Error);
        continue;
      }
      for (unsigned nc = 0; nc < 8; ++nc) {
        const Nfmt n = static_cast<Nfmt>(nc);
        const std::vector<Policies> pols = variants(gen);
        for (std::size_t pi = 0; pi < pols.size(); ++pi) {
          const Policies& pol = pols[pi];
          // Every code under the defaults; under a flipped point every code of fields up to
          // 11 bits and 2048 seeded codes of a 16-bit field (the test stays a few seconds).
          const bool exhaustive = pi == 0;
          SCOPED_TRACE(std::string(genName(gen)) + " " + std::string(info.name) + " " +
                       std::string(nfmtName(n, gen)) + " " + pol.describe());
          const FormatLoadTable table(gen, d, n, pol);
          ++tables;
          std::vector<uint8_t> zero(info.bytes, 0);
          const LoadedElement probe = loadElement(gen, d, n, zero, pol);
          ASSERT_EQ(table.defined(), probe.undefinedReason.empty());
          if (!table.defined()) {
            EXPECT_EQ(table.reason(), probe.undefinedReason);
            continue;
          }
          // The elements: per component, every code (fields of 16 bits or less) or 512
          // seeded codes plus extremes (32-bit fields), the other fields random.
          std::vector<uint8_t> bytes;
          for (unsigned c = 0; c < info.components; ++c) {
            std::vector<uint32_t> codes;
            if (info.bits[c] <= 11 || (info.bits[c] <= 16 && exhaustive)) {
              for (uint32_t v = 0; v < (1u << info.bits[c]); ++v)
                codes.push_back(v);
            } else if (info.bits[c] <= 16) {
              for (int k = 0; k < 2048; ++k)
                codes.push_back(rng() & ((1u << info.bits[c]) - 1));
            } else {
              codes = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x7f800001u, 0x3f800000u};
              for (int k = 0; k < 512; ++k)
                codes.push_back(rng());
            }
            for (uint32_t code : codes) {
              std::vector<uint8_t> e(info.bytes);
              for (unsigned o = 0; o < info.components; ++o) {
                const uint32_t mask = info.bits[o] >= 32 ? ~0u : (1u << info.bits[o]) - 1;
                insertComponent(d, o, o == c ? code : rng() & mask, e);
              }
              bytes.insert(bytes.end(), e.begin(), e.end());
            }
          }
          const std::size_t count = bytes.size() / info.bytes;
          std::vector<uint32_t> out(count * 4, 0xdeadbeef);
          table.convert(bytes, info.bytes, count, out);
          for (std::size_t i = 0; i < count; ++i) {
            const LoadedElement want = loadElement(
                gen, d, n, std::span<const uint8_t>(bytes.data() + i * info.bytes, info.bytes),
                pol);
            for (unsigned c = 0; c < info.components; ++c) {
              ASSERT_TRUE(want.reg[c].has_value());
              ASSERT_EQ(out[i * 4 + c], *want.reg[c]) << "element " << i << " component " << c;
            }
            for (unsigned c = info.components; c < 4; ++c)
              ASSERT_EQ(out[i * 4 + c], 0xdeadbeefu);  // left alone
            ++compared;
          }
        }
      }
    }
  }
  EXPECT_GT(tables, 1000u);
  EXPECT_GT(compared, 1000000u);
}

// sameConversion is what lets a sweep skip a policy option: it may say "same" only where
// every code of every field converts alike under both, and must say "different" where one
// code does not. Every generation, data format with fields of 16 bits or less, number format
// and value-only point, against loadComponent code by code.
TEST(FormatLoadTable, SameConversionExactlyWhereEveryCodeAgrees) {
  unsigned same = 0, different = 0;
  for (Gen gen : kGcnGens) {
    for (unsigned dc = 0; dc < 16; ++dc) {
      const Dfmt d = static_cast<Dfmt>(dc);
      const DfmtInfo& info = dfmtInfo(d);
      if (info.bytes == 0 || info.bits[0] > 16) continue;
      for (unsigned nc = 0; nc < 8; ++nc) {
        const Nfmt n = static_cast<Nfmt>(nc);
        const std::vector<Policies> pols = variants(gen);
        const FormatLoadTable base(gen, d, n, pols[0]);
        if (!base.defined()) continue;
        for (std::size_t pi = 1; pi < pols.size(); ++pi) {
          const FormatLoadTable other(gen, d, n, pols[pi]);
          SCOPED_TRACE(std::string(genName(gen)) + " " + std::string(info.name) + " " +
                       std::string(nfmtName(n, gen)) + " " + pols[pi].describe());
          if (!other.defined()) {
            EXPECT_FALSE(base.sameConversion(other));
            continue;
          }
          // The same conversion: every field read from the same bits (packed-order moves the
          // fields of 11_11_10 and 10_10_10_2) and converted alike for every code.
          bool agree = true;
          for (unsigned c = 0; c < info.components; ++c)
            agree = agree && componentOffset(d, c, pols[0]) == componentOffset(d, c, pols[pi]);
          for (unsigned c = 0; c < info.components && agree; ++c)
            for (uint32_t code = 0; code < (1u << info.bits[c]) && agree; ++code)
              agree = loadComponent(gen, d, n, c, code, pols[0]) ==
                      loadComponent(gen, d, n, c, code, pols[pi]);
          ASSERT_EQ(base.sameConversion(other), agree);
          ++(agree ? same : different);
        }
      }
    }
  }
  // Both answers occur: e.g. the reciprocal rounding changes UNORM, not UINT.
  EXPECT_GT(same, 100u);
  EXPECT_GT(different, 10u);
  const Policies def = Policies::defaults(Gen::Gfx8);
  Policies mulrcp = def;
  mulrcp.set(PolicyId::NormToFloat, static_cast<uint8_t>(1 - def.get(PolicyId::NormToFloat)));
  EXPECT_FALSE(FormatLoadTable(Gen::Gfx8, Dfmt::F8, Nfmt::Unorm, def)
                   .sameConversion(FormatLoadTable(Gen::Gfx8, Dfmt::F8, Nfmt::Unorm, mulrcp)));
  EXPECT_TRUE(FormatLoadTable(Gen::Gfx8, Dfmt::F8, Nfmt::Uint, def)
                  .sameConversion(FormatLoadTable(Gen::Gfx8, Dfmt::F8, Nfmt::Uint, mulrcp)));
  EXPECT_FALSE(FormatLoadTable(Gen::Gfx8, Dfmt::F8, Nfmt::Uint, def)
                   .sameConversion(FormatLoadTable(Gen::Gfx8, Dfmt::F8, Nfmt::Sint, def)));
}

TEST(FormatLoadTable, StrideAndBadCallsAreChecked) {
  const Policies pol = Policies::defaults(Gen::Gfx8);
  const FormatLoadTable t(Gen::Gfx8, Dfmt::F8_8, Nfmt::Uint, pol);
  // Two 2-byte elements 3 bytes apart: {1, 2} and {4, 5}.
  const std::vector<uint8_t> bytes = {1, 2, 3, 4, 5};
  std::vector<uint32_t> out(8, 0);
  t.convert(bytes, 3, 2, out);
  EXPECT_EQ(out[0], 1u);
  EXPECT_EQ(out[1], 2u);
  EXPECT_EQ(out[4], 4u);
  EXPECT_EQ(out[5], 5u);
  EXPECT_THROW(t.convert(bytes, 3, 3, out), Error);  // input too short
  EXPECT_THROW(t.convert(bytes, 1, 2, out), Error);  // stride below the element
  std::vector<uint32_t> small(4);
  EXPECT_THROW(t.convert(bytes, 3, 2, small), Error);  // output too short
  Policies undefinedNorm32 = pol;
  undefinedNorm32.set("norm32=undefined");
  const FormatLoadTable undefined(Gen::Gfx8, Dfmt::F32, Nfmt::Unorm, undefinedNorm32);
  EXPECT_FALSE(undefined.defined());
  EXPECT_THROW(undefined.convert(bytes, 4, 1, out), Error);
}

// RegisterMap::fromDstSel against applyDstSel itself on elements of distinct values: every
// selector pattern of the 8 x 8 x 8 x 8 (reserved ones included), every component count.
TEST(RegisterMap, FromDstSelIsApplyDstSel) {
  std::size_t maps = 0, refused = 0;
  for (Gen gen : kGcnGens)
    for (Nfmt n : {Nfmt::Unorm, Nfmt::Uint, Nfmt::Sint, Nfmt::Float})
      for (unsigned comps = 1; comps <= 4; ++comps)
        for (unsigned code = 0; code < 4096; ++code) {
          std::array<DstSel, 4> sel;
          for (unsigned k = 0; k < 4; ++k)
            sel[k] = static_cast<DstSel>((code >> (3 * k)) & 7);
          LoadedElement e;
          e.count = static_cast<uint8_t>(comps);
          for (unsigned c = 0; c < comps; ++c)
            e.reg[c] = 0x1234u + 0x1111u * c;
          const auto want = applyDstSel(gen, n, e, sel);
          const auto map = RegisterMap::fromDstSel(gen, n, comps, sel);
          bool claimsAll = true;
          for (const auto& w : want)
            claimsAll = claimsAll && w.has_value();
          ASSERT_EQ(map.has_value(), claimsAll) << code;
          if (!map) {
            ++refused;
            continue;
          }
          uint32_t comp[4] = {*e.reg[0], e.reg[1].value_or(0), e.reg[2].value_or(0),
                              e.reg[3].value_or(0)};
          uint32_t reg[4];
          map->apply(comp, reg);
          for (unsigned k = 0; k < 4; ++k)
            ASSERT_EQ(reg[k], *want[k]) << code << " register " << k;
          const bool identitySel =
              sel == std::array<DstSel, 4>{DstSel::X, DstSel::Y, DstSel::Z, DstSel::W};
          EXPECT_EQ(map->identity(), identitySel && comps == 4);
          ++maps;
        }
  EXPECT_GT(maps, 10000u);
  EXPECT_GT(refused, 10000u);
}

// differing() is convert() + map + compare: on every data format with an element (number
// formats UNORM, UINT, FLOAT where defined), registers equal to the converted and mapped
// elements except planted differences in one register of chosen elements; with and without
// an element list. The differing elements are exactly the planted ones.
TEST(FormatLoadTable, DifferingFindsExactlyThePlantedDifferences) {
  std::mt19937 rng(99);
  std::size_t checked = 0;
  for (Gen gen : kGcnGens) {
    const Policies pol = Policies::defaults(gen);
    for (unsigned dc = 1; dc < 15; ++dc) {
      const Dfmt d = static_cast<Dfmt>(dc);
      const DfmtInfo& info = dfmtInfo(d);
      if (info.bytes == 0) continue;
      for (Nfmt n : {Nfmt::Unorm, Nfmt::Uint, Nfmt::Float, Nfmt::Sscaled}) {
        const FormatLoadTable t(gen, d, n, pol);
        if (!t.defined()) continue;
        SCOPED_TRACE(std::string(genName(gen)) + " " + std::string(info.name) + " " +
                     std::string(nfmtName(n, gen)));
        constexpr std::size_t kCount = 300, kStride = 20;  // wider than any element
        std::vector<uint8_t> bytes(kCount * kStride);
        for (uint8_t& b : bytes)
          b = static_cast<uint8_t>(rng());
        std::vector<uint32_t> comp(kCount * 4, 0), regs(kCount * 4);
        t.convert(bytes, kStride, kCount, comp);
        // A selector pattern with a constant for every component count: every element size
        // (1..16 bytes) meets the fused path.
        const std::array<DstSel, 4> sel =
            info.components >= 3   ? std::array{DstSel::Z, DstSel::One, DstSel::X, DstSel::Zero}
            : info.components == 2 ? std::array{DstSel::X, DstSel::Y, DstSel::Zero, DstSel::One}
                                   : std::array{DstSel::X, DstSel::Zero, DstSel::One, DstSel::X};
        const auto map = RegisterMap::fromDstSel(gen, n, info.components, sel);
        ASSERT_TRUE(map.has_value());
        for (std::size_t i = 0; i < kCount; ++i)
          map->apply(&comp[i * 4], &regs[i * 4]);
        std::vector<std::size_t> planted;
        for (std::size_t i = 0; i < kCount; i += 1 + rng() % 7) {
          regs[i * 4 + rng() % 4] ^= 1u << (rng() % 32);
          planted.push_back(i);
        }
        std::vector<std::size_t> differ;
        t.differing(bytes, kStride, kCount, regs.data(), *map, {}, differ);
        EXPECT_EQ(differ, planted);
        // Only the odd elements asked about: the planted odd ones.
        std::vector<std::size_t> odd, plantedOdd;
        for (std::size_t i = 1; i < kCount; i += 2)
          odd.push_back(i);
        for (std::size_t i : planted)
          if (i % 2 == 1) plantedOdd.push_back(i);
        t.differing(bytes, kStride, kCount, regs.data(), *map, odd, differ);
        EXPECT_EQ(differ, plantedOdd);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 150u);
  // Bad calls: an element past the count, a map reading a component the format lacks.
  const FormatLoadTable r8(Gen::Gfx8, Dfmt::F8, Nfmt::Unorm, Policies::defaults(Gen::Gfx8));
  const std::vector<uint8_t> one(4, 0);
  std::vector<uint32_t> regs(16, 0);
  std::vector<std::size_t> differ;
  const std::vector<std::size_t> past = {4};
  EXPECT_THROW(r8.differing(one, 1, 4, regs.data(), RegisterMap{}, past, differ), Error);
  RegisterMap wide;
  wide.src = {0, 1, -1, -1};
  EXPECT_THROW(r8.differing(one, 1, 4, regs.data(), wide, {}, differ), Error);
}

}  // namespace convert_table_test
}  // namespace gcn
