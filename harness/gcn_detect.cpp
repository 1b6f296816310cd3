#include "harness/gcn_detect.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::vk {
namespace {

// PCI device-id ranges of the GCN chips (vendor 0x1002). Source: the pciidlist of Linux's
// amdgpu_drv.c, which Mesa's include/pci_ids (radeonsi_pci_ids.h) and amd_family follow;
// each range spans the ids listed there for the chip (ids inside a range that the list
// leaves out are unassigned, not another chip's). Raven and Picasso share CHIP_RAVEN;
// Raven2 is told apart by revision id, which Vulkan does not report, so it reads as raven.
struct PciRange {
  uint32_t first, last;
  std::string_view chip;  // gcn::parseChip name
};
constexpr PciRange kPciRanges[] = {
    {0x6780, 0x679F, "tahiti"},    {0x6800, 0x6819, "pitcairn"},  {0x6820, 0x683F, "verde"},
    {0x6600, 0x6631, "oland"},     {0x6660, 0x666F, "hainan"},    {0x1304, 0x131D, "kaveri"},
    {0x6640, 0x665F, "bonaire"},   {0x67A0, 0x67BE, "hawaii"},    {0x9830, 0x983F, "kabini"},
    {0x9850, 0x985F, "mullins"},   {0x6900, 0x6907, "iceland"},   {0x6920, 0x6939, "tonga"},
    {0x7300, 0x730F, "fiji"},      {0x9870, 0x9877, "carrizo"},   {0x98E4, 0x98E4, "stoney"},
    {0x67E0, 0x67FF, "polaris11"}, {0x67C0, 0x67DF, "polaris10"}, {0x6980, 0x699F, "polaris12"},
    {0x694C, 0x694F, "vegam"},     {0x6860, 0x687F, "vega10"},    {0x69A0, 0x69AF, "vega12"},
    {0x66A0, 0x66AF, "vega20"},    {0x15DD, 0x15DD, "raven"},     {0x15D8, 0x15D8, "raven"},
    {0x1636, 0x1636, "renoir"},    {0x1638, 0x1638, "renoir"},    {0x164C, 0x164C, "renoir"},
};

std::optional<gcn::Chip> chipByName(std::string_view name) {
  try {
    return gcn::parseChip(name);
  } catch (const gcn::Error&) {
    return std::nullopt;  // a family gcnprobe does not model (e.g. NAVI10, gfx10+)
  }
}

}  // namespace

// The lower-case family of a "RADV <FAMILY>" tag, or "" without one.
static std::string radvFamilyTag(std::string_view deviceName) {
  // RADV names devices "<marketing name> (RADV <FAMILY>)" (radv_physical_device_try_create:
  // "%s (RADV %s%s)" with ac_get_family_name), older releases "AMD RADV <FAMILY>", the null
  // winsys "Null hardware (RADV <FAMILY>)" (measured, Mesa 22.3.6, docs/platform.md).
  constexpr std::string_view kTag = "RADV ";
  size_t at = deviceName.find(kTag);
  if (at == std::string_view::npos) return "";
  size_t begin = at + kTag.size();
  size_t end = begin;
  while (end < deviceName.size() &&
         (std::isalnum(static_cast<unsigned char>(deviceName[end])) || deviceName[end] == '_')) {
    ++end;
  }
  return gcn::asciiLower(deviceName.substr(begin, end - begin));
}

std::optional<gcn::Chip> chipFromDeviceName(std::string_view deviceName) {
  const std::string family = radvFamilyTag(deviceName);
  if (family.empty()) return std::nullopt;
  // Only chip names: generation words ("gfx9", also rows of the chip table) and gfxip
  // names are not RADV family names.
  if (family.rfind("gfx", 0) == 0) return std::nullopt;
  auto chip = chipByName(family);
  if (chip && chip->name != family) return std::nullopt;
  return chip;
}

std::optional<gcn::Chip> rdnaChipFromDeviceName(std::string_view deviceName) {
  const std::string family = radvFamilyTag(deviceName);
  if (family.empty()) return std::nullopt;
  // The generic rows ("gfx10", ...) come first in the table and carry their representative's
  // family names: skip them so that the chip's own row answers.
  for (const gcn::Chip& c : gcn::rdnaChips())
    if (c.name.rfind("gfx", 0) != 0 && (family == c.radvFamily || family == c.radvFamilyMesa22))
      return c;
  return std::nullopt;
}

std::optional<gcn::Chip> chipFromPciId(uint32_t deviceId) {
  for (const PciRange& r : kPciRanges) {
    if (deviceId >= r.first && deviceId <= r.last) return chipByName(r.chip);
  }
  return std::nullopt;
}

std::optional<gcn::Chip> detectChip(uint32_t vendorId, uint32_t deviceId,
                                    std::string_view deviceName) {
  if (vendorId != kAmdVendorId) return std::nullopt;
  // A RADV tag naming a non-GCN family (NAVI10) is authoritative: not GCN.
  if (deviceName.find("RADV ") != std::string_view::npos) return chipFromDeviceName(deviceName);
  return chipFromPciId(deviceId);
}

}  // namespace gcnprobe::vk
