// Chip detection from device names and PCI ids. Golden values: the RADV name forms and the
// device id 0x6920 for tonga were measured here on the RADV null device (Mesa 22.3.6,
// `RADV_FORCE_FAMILY=tonga gcnprobe devices` prints "Null hardware (RADV TONGA)", device
// 0x6920); the other ids are well-known boards (PCI ID database, pci-ids.ucw.cz):
// 0x67DF Radeon RX 470/480/570/580 (Ellesmere = Polaris10), 0x6798 Radeon HD 7970 (Tahiti),
// 0x687F Radeon RX Vega 56/64 (Vega10), 0x731F Radeon RX 5700 XT (Navi10, RDNA: not GCN),
// 0x665C Radeon HD 7790 (Bonaire), 0x15DD Ryzen 2400G graphics (Raven).
#include <gtest/gtest.h>

#include "harness/gcn_detect.h"

namespace gcn_detect_test {

using gcnprobe::vk::chipFromDeviceName;
using gcnprobe::vk::chipFromPciId;
using gcnprobe::vk::detectChip;

TEST(GcnDetect, RadvNames) {
  auto p = chipFromDeviceName("AMD Radeon RX 580 Series (RADV POLARIS10)");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->name, "polaris10");
  EXPECT_EQ(p->gen, gcn::Gen::Gfx8);

  auto t = chipFromDeviceName("AMD RADV TAHITI");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->name, "tahiti");
  EXPECT_EQ(t->gen, gcn::Gen::Gfx6);

  auto v = chipFromDeviceName("Null hardware (RADV VEGA10)");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->name, "vega10");
  EXPECT_EQ(v->gen, gcn::Gen::Gfx9);

  auto h = chipFromDeviceName("AMD Radeon R9 200 Series (RADV HAWAII)");
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->gen, gcn::Gen::Gfx7);
}

// RDNA: the names the null devices of Mesa 22.3 and Mesa 25 gave (each measured with
// RADV_FORCE_FAMILY and `gcnprobe devices`: NAVI10, NAVI21, NAVI31 on Mesa 25, GFX1100 on Mesa
// 22.3, RAPHAEL_MENDOCINO on Mesa 25). Only the RDNA lookup answers for them.
TEST(GcnDetect, RdnaNames) {
  struct Case {
    const char* device;
    const char* chip;
    gcn::Gen gen;
  } const cases[] = {
      {"Null hardware (RADV NAVI10)", "navi10", gcn::Gen::Gfx10},
      {"AMD Radeon RX 6800 (RADV NAVI21)", "navi21", gcn::Gen::Gfx10_3},
      {"Null hardware (RADV NAVI31)", "navi31", gcn::Gen::Gfx11},
      {"Null hardware (RADV GFX1100)", "navi31", gcn::Gen::Gfx11},
      {"Null hardware (RADV RAPHAEL_MENDOCINO)", "raphael", gcn::Gen::Gfx10_3},
  };
  for (const Case& c : cases) {
    const auto chip = gcnprobe::vk::rdnaChipFromDeviceName(c.device);
    ASSERT_TRUE(chip.has_value()) << c.device;
    EXPECT_EQ(chip->name, c.chip) << c.device;
    EXPECT_EQ(chip->gen, c.gen) << c.device;
    EXPECT_FALSE(chipFromDeviceName(c.device).has_value()) << c.device;
  }
  EXPECT_FALSE(gcnprobe::vk::rdnaChipFromDeviceName("Null hardware (RADV VEGA10)").has_value());
  EXPECT_FALSE(
      gcnprobe::vk::rdnaChipFromDeviceName("llvmpipe (LLVM 15.0.6, 256 bits)").has_value());
}

TEST(GcnDetect, NonGcnNamesAreNotGcn) {
  EXPECT_FALSE(chipFromDeviceName("AMD Radeon RX 5700 XT (RADV NAVI10)").has_value());
  EXPECT_FALSE(chipFromDeviceName("llvmpipe (LLVM 15.0.6, 256 bits)").has_value());
  EXPECT_FALSE(chipFromDeviceName("AMD Radeon RX 580 Series").has_value());
  EXPECT_FALSE(chipFromDeviceName("AMD RADV ").has_value());
  // A generation word is not a RADV family name.
  EXPECT_FALSE(chipFromDeviceName("Something (RADV GFX9)").has_value());
}

TEST(GcnDetect, PciIds) {
  struct Case {
    uint32_t id;
    const char* chip;
    gcn::Gen gen;
  };
  const Case cases[] = {
      {0x67DF, "polaris10", gcn::Gen::Gfx8}, {0x6798, "tahiti", gcn::Gen::Gfx6},
      {0x687F, "vega10", gcn::Gen::Gfx9},    {0x6920, "tonga", gcn::Gen::Gfx8},
      {0x665C, "bonaire", gcn::Gen::Gfx7},   {0x15DD, "raven", gcn::Gen::Gfx9},
  };
  for (const Case& c : cases) {
    auto chip = chipFromPciId(c.id);
    ASSERT_TRUE(chip.has_value()) << std::hex << c.id;
    EXPECT_EQ(chip->name, c.chip) << std::hex << c.id;
    EXPECT_EQ(chip->gen, c.gen) << std::hex << c.id;
  }
  EXPECT_FALSE(chipFromPciId(0x731F).has_value());  // Navi10 (RDNA)
  EXPECT_FALSE(chipFromPciId(0x0000).has_value());
}

TEST(GcnDetect, VendorAndNamePrecedence) {
  // Not AMD: never GCN, whatever the id.
  EXPECT_FALSE(detectChip(0x10DE, 0x67DF, "NVIDIA GeForce").has_value());
  EXPECT_FALSE(detectChip(0x10005, 0, "llvmpipe (LLVM 15.0.6, 256 bits)").has_value());
  // AMDVLK-style name without a RADV tag: the PCI id decides.
  auto a = detectChip(gcnprobe::vk::kAmdVendorId, 0x67DF, "Radeon RX 580 Series");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->name, "polaris10");
  // The RADV tag wins over the id: RADV_FORCE_FAMILY changes the name, not necessarily the id.
  auto n = detectChip(gcnprobe::vk::kAmdVendorId, 0x67DF, "Null hardware (RADV VEGA10)");
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->name, "vega10");
  EXPECT_FALSE(detectChip(gcnprobe::vk::kAmdVendorId, 0x67DF, "X (RADV NAVI10)").has_value());
}

}  // namespace gcn_detect_test
