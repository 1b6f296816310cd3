// Every bit of a V# survives: decode -> encode is the identity on 128-bit words of every
// generation, including bits no field names (kept as reserved bits), and the text form
// carries them too. The expected value is the input word itself.
#include <gtest/gtest.h>

#include <random>

#include "reference/error.h"
#include "reference/resource.h"

namespace gcn {
namespace vsharp_roundtrip_test {

constexpr auto& kGens = kAllGens;

#if defined(__SANITIZE_ADDRESS__)
constexpr int kWords = 100000;  // the same property, fewer samples under the slow sanitizer
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr int kWords = 100000;
#else
constexpr int kWords = 1000000;
#endif
#else
constexpr int kWords = 1000000;
#endif

std::array<uint32_t, 4> randomWords(std::mt19937_64& rng) {
  const uint64_t a = rng(), b = rng();
  return {static_cast<uint32_t>(a), static_cast<uint32_t>(a >> 32), static_cast<uint32_t>(b),
          static_cast<uint32_t>(b >> 32)};
}

TEST(VSharpRoundTrip, DecodeThenEncodeIsTheIdentityOnRandomWords) {
  for (Gen gen : kGens) {
    std::mt19937_64 rng(0x5eed0000u + static_cast<unsigned>(gen));
    int mismatches = 0;
    for (int n = 0; n < kWords; ++n) {
      const std::array<uint32_t, 4> w = randomWords(rng);
      const std::array<uint32_t, 4> back = encodeVSharp(gen, decodeVSharp(gen, w));
      if (back != w && ++mismatches <= 3)
        ADD_FAILURE() << genName(gen) << std::hex << " 0x" << w[0] << " 0x" << w[1] << " 0x" << w[2]
                      << " 0x" << w[3] << " -> 0x" << back[3];
    }
    EXPECT_EQ(mismatches, 0) << genName(gen);
  }
}

// Words with every bit set and every single bit set: the edges random sampling may miss.
TEST(VSharpRoundTrip, EverySingleBitAndAllOnesSurvive) {
  for (Gen gen : kGens) {
    const std::array<uint32_t, 4> ones{~0u, ~0u, ~0u, ~0u};
    EXPECT_EQ(encodeVSharp(gen, decodeVSharp(gen, ones)), ones) << genName(gen);
    for (unsigned bit = 0; bit < 128; ++bit) {
      std::array<uint32_t, 4> w{};
      w[bit / 32] = 1u << (bit % 32);
      EXPECT_EQ(encodeVSharp(gen, decodeVSharp(gen, w)), w) << genName(gen) << " bit " << bit;
    }
  }
}

TEST(VSharpRoundTrip, TextFormCarriesEveryBit) {
  for (Gen gen : kGens) {
    std::mt19937_64 rng(0x7e470000u + static_cast<unsigned>(gen));
    for (int n = 0; n < 20000; ++n) {
      const std::array<uint32_t, 4> w = randomWords(rng);
      const std::string text = formatVSharp(gen, decodeVSharp(gen, w));
      std::array<uint32_t, 4> back{};
      try {
        back = encodeVSharp(gen, parseVSharp(gen, text));
      } catch (const Error& e) {
        ADD_FAILURE() << genName(gen) << ": '" << text << "': " << e.what();
        break;
      }
      if (back != w) {
        ADD_FAILURE() << genName(gen) << ": '" << text << "' encodes differently";
        break;
      }
    }
  }
}

// gfx9 word 3 names bits 0-23 (selectors, formats, USER_VM_*, INDEX_STRIDE, ADD_TID), 27 (NV)
// and 30-31 (TYPE); 24-26 and 28-29 are nobody's. 0x15000000 sets bits 24, 26 and 28.
TEST(VSharpRoundTrip, Gfx9UnnamedBitsAreReservedAndShown) {
  EXPECT_EQ(vsharpReservedMask(Gen::Gfx9), (std::array<uint32_t, 4>{0, 0, 0, 0x37000000u}));
  // gfx6-8 name every bit of the four words.
  for (Gen gen : {Gen::Gfx6, Gen::Gfx7, Gen::Gfx8})
    EXPECT_EQ(vsharpReservedMask(gen), (std::array<uint32_t, 4>{})) << genName(gen);
  const VSharp v = decodeVSharp(Gen::Gfx9, {0, 0, 0, 0x15000000u});
  EXPECT_EQ(v.reserved[3], 0x15000000u);
  EXPECT_NE(formatVSharp(Gen::Gfx9, v).find("reserved_w3=0x15000000"), std::string::npos)
      << formatVSharp(Gen::Gfx9, v);
  // The text form's default DST_SEL is the identity xyzw: 4 | 5 << 3 | 6 << 6 | 7 << 9 = 0xfac.
  EXPECT_EQ(encodeVSharp(Gen::Gfx9, parseVSharp(Gen::Gfx9, "reserved_w3=0x15000000")),
            (std::array<uint32_t, 4>{0, 0, 0, 0x15000facu}));
}

TEST(VSharpRoundTrip, ReservedBitsThatAFieldNamesAreAnError) {
  // Bit 27 of word 3 is NV on gfx9; on gfx8 word 3 has no reserved bits at all.
  EXPECT_THROW((void)parseVSharp(Gen::Gfx9, "reserved_w3=0x08000000"), Error);
  EXPECT_THROW((void)parseVSharp(Gen::Gfx8, "reserved_w3=0x01000000"), Error);
  EXPECT_THROW((void)parseVSharp(Gen::Gfx9, "reserved_w3=0x100000000"), Error);
  VSharp v;
  v.reserved[0] = 1;  // BASE bit 0
  EXPECT_THROW((void)encodeVSharp(Gen::Gfx9, v), Error);
}

}  // namespace vsharp_roundtrip_test
}  // namespace gcn
