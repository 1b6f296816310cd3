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
namespace {

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
  for (Gen gen : kAllGens) {
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
  for (Gen gen : kAllGens) {
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
          bool agree = true;
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
  const FormatLoadTable undefined(Gen::Gfx8, Dfmt::F32, Nfmt::Unorm, pol);
  EXPECT_FALSE(undefined.defined());
  EXPECT_THROW(undefined.convert(bytes, 4, 1, out), Error);
}

}  // namespace
}  // namespace gcn
