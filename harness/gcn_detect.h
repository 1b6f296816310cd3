// Which GCN chip a Vulkan device is: from RADV's device name ("AMD Radeon RX 580 Series
// (RADV POLARIS10)", "AMD RADV TAHITI", "Null hardware (RADV VEGA10)" ...) or, for AMDVLK and
// other drivers, from the PCI device id (vendor 0x1002). RDNA (gfx10+) and non-AMD
// devices are not GCN: nullopt.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "reference/gen.h"

namespace gcnprobe::vk {

inline constexpr uint32_t kAmdVendorId = 0x1002;

// The chip named by a "RADV <FAMILY>" tag in a device name; nullopt when there is no tag or
// the family is not GCN (e.g. "RADV NAVI10").
std::optional<gcn::Chip> chipFromDeviceName(std::string_view deviceName);

// The chip of an AMD PCI device id (table from Mesa's amd_family / pci_ids); nullopt for
// ids outside the GCN table.
std::optional<gcn::Chip> chipFromPciId(uint32_t deviceId);

// The RDNA chip named by a "RADV <FAMILY>" tag (NAVI10, NAVI31 or Mesa 22.3's GFX1100,
// RAPHAEL_MENDOCINO, ...); nullopt for GCN, other families and names without the tag. The
// parts that model RDNA (the V# self-check) ask this; everything else treats RDNA as non-GCN.
std::optional<gcn::Chip> rdnaChipFromDeviceName(std::string_view deviceName);

// Name first (RADV says exactly what it drives, incl. RADV_FORCE_FAMILY on the null
// device), then the PCI id when vendorId is AMD.
std::optional<gcn::Chip> detectChip(uint32_t vendorId, uint32_t deviceId,
                                    std::string_view deviceName);

}  // namespace gcnprobe::vk
