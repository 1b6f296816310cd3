// Which Vulkan driver files this process uses. One choice per process, made before the Vulkan
// loader reads its configuration, from two environment variables that `gcnprobe --driver` and
// `gcnprobe --radv-null` set (so child processes inherit the same choice):
//   GCNPROBE_DRIVER    "system" (or unset): the loader's own search, i.e. the distribution's
//                      Mesa; or a driver folder as scripts/mesa25.sh writes it: icd.d/*.json
//                      manifests with absolute library paths, VERSION, and LIBDIR naming the
//                      folder with the driver's own libdrm (docs/drivers.md).
//   GCNPROBE_RADV_NULL a RADV family ("tonga"): only that driver's RADV, as the compile-only
//                      null device for the family (RADV_FORCE_FAMILY).
// Every command and every test goes through this module, so a run, `isa`'s null-device
// children and the tests all see the same driver; nothing else names a manifest path.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace gcnprobe::vk {

struct Driver {
  std::string spec;                         // as given: "system" or the folder
  std::filesystem::path folder;             // empty for the system driver
  std::filesystem::path libDir;             // the folder's libraries (libdrm); empty for system
  std::vector<std::filesystem::path> icds;  // the folder's manifests; empty for system
  std::string label;                        // "system" or the folder's VERSION ("Mesa 25.0.7")
  bool system() const { return folder.empty(); }
};

// Reads a driver spec ("system", "" or a folder). Throws gcn::Error naming the folder and
// what it lacks (no icd.d manifests, a manifest whose library does not exist, ...).
Driver parseDriver(const std::string& spec);

// The process's driver: GCNPROBE_DRIVER, read once. Throws gcn::Error as parseDriver.
const Driver& activeDriver();

// RADV's manifest of the active driver: the folder's, or for the system driver the first
// radeon_icd*.json in the loader's system directories. Throws gcn::Error when there is none.
std::filesystem::path radvManifest();

// Mesa's drivers that find devices only through a DRM render node (/dev/dri/renderD*), by
// manifest file name prefix (Mesa's src/<driver>/vulkan/meson.build names them
// "<prefix>.<arch>.json"): intel, intel_hasvk, radeon, nouveau, broadcom, freedreno, panfrost,
// asahi, powervr_mesa, virtio. RADV is kept where RADV_FORCE_FAMILY asks for its null device.
// With no render node they enumerate no device, but the loader still loads them (about 6 ms
// of a one-case run on a 2-core machine without a GPU). The manifests among `manifests` to
// leave out.
std::vector<std::filesystem::path> renderNodeOnlyManifests(
    const std::vector<std::filesystem::path>& manifests, bool radvForced);

// Whether /dev/dri holds a render node (renderD*).
bool hasRenderNode();

// The manifests applyDriver() kept from the loader because the machine has no render node
// (renderNodeOnlyManifests); empty when none were, or the user chose the drivers
// (VK_LOADER_DRIVERS_SELECT or VK_LOADER_DRIVERS_DISABLE set, even empty; for the system
// driver also VK_DRIVER_FILES, VK_ICD_FILENAMES or VK_ADD_DRIVER_FILES). The value gcnprobe
// sets is noted in GCNPROBE_DRIVERS_LEFT_OUT, so that a child process that inherits it decides
// again rather than taking it for the user's.
const std::vector<std::filesystem::path>& skippedManifests();

// Called by loadVulkan() once the loader is loaded, before any instance: a loader older than
// 1.3.234 ignores VK_LOADER_DRIVERS_DISABLE, so there the system driver's drivers are all
// loaded and skippedManifests() is emptied (it would name drivers that were loaded).
void noteLoaderVersion(uint32_t instanceVersion);

// Called by loadVulkan() before the loader starts (idempotent). For a driver folder: points
// the loader at the folder's manifests (VK_DRIVER_FILES, VK_ICD_FILENAMES), disables the
// system Mesa's device-select layer (it is the other Mesa's code), and loads the folder's
// libdrm first, so the driver binds to the libdrm it was built against rather than the
// system's older one. With GCNPROBE_RADV_NULL: only RADV's manifest, RADV_FORCE_FAMILY set,
// and the loader's driver filters (VK_LOADER_DRIVERS_DISABLE/SELECT) cleared.
// Without a render node, drivers that need one are left out (skippedManifests above).
// Throws gcn::Error for a bad folder or family.
void applyDriver();

// The environment a child process needs to use the active driver as RADV's null device for
// `family` (GCNPROBE_DRIVER and GCNPROBE_RADV_NULL; the child applies them itself).
std::map<std::string, std::string> radvNullEnvironment(const std::string& family);

}  // namespace gcnprobe::vk
