#include "harness/vulkan/driver.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include <vulkan/vulkan_core.h>

#include "reference/error.h"
#include "reference/gen.h"
#include "reference/text.h"

namespace gcnprobe::vk {
namespace {

namespace fs = std::filesystem;

std::string envOr(const char* name, const std::string& fallback = "") {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : fallback;
}

std::string firstLine(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  return line;
}

// The library a manifest names (ICD.library_path); throws naming the manifest.
fs::path manifestLibrary(const fs::path& manifest) {
  std::ifstream in(manifest);
  if (!in) throw gcn::Error(gcn::Place{manifest.string(), 0, 0}, "cannot read the ICD manifest");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
    return fs::path(j.at("ICD").at("library_path").get<std::string>());
  } catch (const nlohmann::json::exception& e) {
    throw gcn::Error(gcn::Place{manifest.string(), 0, 0},
                     std::string("not an ICD manifest (ICD.library_path): ") + e.what());
  }
}

// A manifest's library as the loader resolves it: an absolute path, or one relative to the
// manifest when it has a folder in it (Vulkan loader docs, "ICD Manifest File Format").
fs::path resolvedLibrary(const fs::path& manifest) {
  fs::path library = manifestLibrary(manifest);
  if (library.is_relative() && library.has_parent_path())
    library = manifest.parent_path() / library;
  return library;
}

// A driver library's bytes, read once; nullopt when it cannot be read.
std::optional<std::string> libraryBytes(const fs::path& library) {
  std::ifstream in(library, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The RADV_FORCE_FAMILY value for a chip: its one name where Mesa versions agree (every GCN
// chip), else the name (Mesa 25's or Mesa 22.3's) that this RADV library knows. RADV keeps its
// family names (ac_get_family_name) as NUL-ended strings in the library and aborts the process
// on a family it does not know, so an unknown one is refused here.
std::string radvFamilyFor(const gcn::Chip& chip, const fs::path& manifest) {
  if (chip.radvFamilyMesa22 == chip.radvFamily) return std::string(chip.radvFamily);
  const fs::path library = resolvedLibrary(manifest);
  const std::optional<std::string> bytes = libraryBytes(library);
  if (!bytes) return std::string(chip.radvFamily);  // unreadable: RADV decides
  for (const std::string_view candidate : {chip.radvFamily, chip.radvFamilyMesa22}) {
    if (!candidate.empty() &&
        bytes->find('\0' + gcn::asciiUpper(candidate) + '\0') != std::string::npos)
      return std::string(candidate);
  }
  throw gcn::Error(
      gcn::Place{"GCNPROBE_RADV_NULL", 0, 0},
      "this RADV (" + library.string() + ") knows " + std::string(chip.name) +
          " by none of its names (" + gcn::asciiUpper(chip.radvFamily) +
          (chip.radvFamilyMesa22.empty() ? std::string()
                                         : ", " + gcn::asciiUpper(chip.radvFamilyMesa22)) +
          ")");
}

// RADV's manifest: the library it names is RADV's (libvulkan_radeon.so), whatever the file is
// called (meson's radeon_devenv_icd.x86_64.json, an installed radeon_icd.x86_64.json); a manifest
// that cannot be read is judged by its name.
bool isRadvManifest(const fs::path& p) {
  if (p.extension() != ".json") return false;
  try {
    return resolvedLibrary(p).filename().string().find("vulkan_radeon") != std::string::npos;
  } catch (const gcn::Error&) {
    return p.filename().string().rfind("radeon_icd", 0) == 0;
  }
}

// The loader's system manifest directories (Vulkan loader docs, "Linux ICD discovery"),
// highest priority first.
std::vector<fs::path> systemIcdDirs() {
  std::vector<fs::path> dirs;
  auto split = [&](const std::string& list) {
    std::stringstream ss(list);
    std::string d;
    while (std::getline(ss, d, ':'))
      if (!d.empty()) dirs.push_back(fs::path(d) / "vulkan/icd.d");
  };
  split(envOr("XDG_CONFIG_DIRS", "/etc/xdg"));
  dirs.push_back("/etc/vulkan/icd.d");
  split(envOr("XDG_DATA_DIRS", "/usr/local/share:/usr/share"));
  return dirs;
}

std::string joinPaths(const std::vector<fs::path>& ps) {
  std::string out;
  for (const fs::path& p : ps)
    out.append(out.empty() ? "" : ":").append(p.string());
  return out;
}

void setEnv(const char* name, const std::string& value) {
  setenv(name, value.c_str(), 1);
}

// The manifests in the loader's system folders (systemIcdDirs), sorted per folder.
std::vector<fs::path> systemManifests() {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const fs::path& dir : systemIcdDirs()) {
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".json") found.push_back(e.path());
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

// Where gcnprobe notes the VK_LOADER_DRIVERS_DISABLE value it set itself.
constexpr const char* kOwnDisable = "GCNPROBE_DRIVERS_LEFT_OUT";

// Whether the user chose the loader's drivers through its environment (the loader's
// "Driver discovery" and "Filtering" variables); gcnprobe then leaves the choice alone. A
// driver folder sets the discovery variables itself (applyDriver), so there only the
// filtering ones count.
bool userChoseDrivers(bool folder) {
  // gcnprobe's own VK_LOADER_DRIVERS_DISABLE, inherited by a child process (kOwnDisable), is no
  // choice of the user's: the child decides again.
  const char* disable = std::getenv("VK_LOADER_DRIVERS_DISABLE");
  const char* own = std::getenv(kOwnDisable);
  if (disable != nullptr && (own == nullptr || std::string_view(disable) != own)) return true;
  if (std::getenv("VK_LOADER_DRIVERS_SELECT") != nullptr) return true;
  if (folder) return false;
  for (const char* v : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES", "VK_ADD_DRIVER_FILES"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

std::vector<fs::path>& skipped() {
  static std::vector<fs::path> s;
  return s;
}

}  // namespace

std::vector<fs::path> renderNodeOnlyManifests(const std::vector<fs::path>& manifests,
                                              bool radvForced) {
  static constexpr std::string_view kPrefixes[] = {
      "intel_icd",     "intel_hasvk_icd", "radeon_icd", "nouveau_icd",      "broadcom_icd",
      "freedreno_icd", "panfrost_icd",    "asahi_icd",  "powervr_mesa_icd", "virtio_icd"};
  std::vector<fs::path> out;
  for (const fs::path& m : manifests) {
    const std::string name = m.filename().string();
    if (m.extension() != ".json") continue;
    for (std::string_view p : kPrefixes) {
      // "<prefix>.json" or "<prefix>.<arch>.json": not a longer driver name that shares it.
      if (name.rfind(p, 0) != 0 || name[p.size()] != '.') continue;
      if (!(radvForced && p == "radeon_icd")) out.push_back(m);
      break;
    }
  }
  return out;
}

bool hasRenderNode() {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/dev/dri", ec))
    if (e.path().filename().string().rfind("renderD", 0) == 0) return true;
  return false;
}

const std::vector<fs::path>& skippedManifests() {
  return skipped();
}

void noteLoaderVersion(uint32_t instanceVersion) {
  // VK_LOADER_DRIVERS_DISABLE: Vulkan-Loader 1.3.234 (docs/LoaderInterfaceArchitecture.md,
  // "Driver Filtering"). A driver folder's list goes through VK_DRIVER_FILES, which every
  // loader honours.
  if (instanceVersion >= VK_MAKE_API_VERSION(0, 1, 3, 234) || !activeDriver().system() ||
      std::getenv(kOwnDisable) == nullptr)
    return;
  unsetenv("VK_LOADER_DRIVERS_DISABLE");
  unsetenv(kOwnDisable);
  skipped().clear();
}

Driver parseDriver(const std::string& spec) {
  Driver d;
  d.spec = spec.empty() ? "system" : spec;
  if (d.spec == "system") {
    d.label = "system";
    return d;
  }
  const gcn::Place where{"driver " + spec, 0, 0};
  std::error_code ec;
  // A manifest itself, or a folder: scripts/mesa25.sh's (icd.d/), an install prefix
  // (share/vulkan/icd.d/), or a folder holding manifests directly, as a meson build leaves
  // src/amd/vulkan/radeon_devenv_icd.<arch>.json.
  if (fs::is_regular_file(spec, ec) && fs::path(spec).extension() == ".json") {
    const fs::path m = fs::absolute(spec, ec).lexically_normal();
    d.folder = m.parent_path();
    d.icds = {m};
  } else if (fs::is_directory(spec, ec)) {
    d.folder = fs::absolute(spec, ec).lexically_normal();
    for (const fs::path& sub : {fs::path("icd.d"), fs::path("share/vulkan/icd.d"), fs::path()}) {
      for (const auto& e : fs::directory_iterator(d.folder / sub, ec)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() == ".json" &&
            (!sub.empty() || name.find("icd") != std::string::npos))
          d.icds.push_back(e.path());
      }
      if (!d.icds.empty()) break;
    }
  } else {
    throw gcn::Error(where,
                     "is neither a folder nor an ICD manifest (.json): make a folder with "
                     "scripts/mesa25.sh, give a Mesa build or install folder, or say 'system'");
  }
  std::sort(d.icds.begin(), d.icds.end());
  if (d.icds.empty())
    throw gcn::Error(where,
                     "has no ICD manifests (icd.d/*.json, share/vulkan/icd.d/*.json or "
                     "*icd*.json)");
  for (const fs::path& m : d.icds) {
    const fs::path lib = resolvedLibrary(m);
    if (!lib.has_parent_path() || !fs::exists(lib, ec))
      throw gcn::Error(gcn::Place{m.string(), 0, 0},
                       "library_path '" + lib.string() +
                           "' names no existing library file (a bare name would be the system's: "
                           "give a path)");
  }
  const std::string libDir = firstLine(d.folder / "LIBDIR");
  if (!libDir.empty()) d.libDir = libDir;
  d.label = firstLine(d.folder / "VERSION");
  if (d.label.empty()) d.label = d.folder.string();
  return d;
}

const Driver& activeDriver() {
  static std::once_flag once;
  static std::optional<Driver> driver;
  static std::optional<gcn::Error> error;
  std::call_once(once, [] {
    try {
      driver = parseDriver(envOr("GCNPROBE_DRIVER"));
    } catch (const gcn::Error& e) {
      error = e;
    }
  });
  if (error) throw *error;
  return *driver;
}

fs::path radvManifest() {
  const Driver& d = activeDriver();
  if (!d.system()) {
    for (const fs::path& m : d.icds)
      if (isRadvManifest(m)) return m;
    throw gcn::Error("driver " + d.spec + " has no RADV manifest (none names libvulkan_radeon.so)");
  }
  // The system driver under the loader's own choice: VK_DRIVER_FILES or VK_ICD_FILENAMES naming
  // a RADV manifest picks that RADV (a Mesa build of one's own); naming none is refused rather
  // than silently replaced.
  for (const char* v : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES"}) {
    const char* list = std::getenv(v);
    if (list == nullptr || *list == '\0') continue;
    std::string_view rest(list);
    while (!rest.empty()) {
      const std::size_t colon = rest.find(':');
      const fs::path m(std::string(rest.substr(0, colon)));
      if (isRadvManifest(m)) return m;
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
    throw gcn::Error(gcn::Place{v, 0, 0},
                     "names no RADV manifest ('" + std::string(list) +
                         "'), and RADV's null device needs one: name RADV's manifest there, "
                         "give --driver, or unset it");
  }
  for (const fs::path& m : systemManifests())
    if (isRadvManifest(m)) return m;
  throw gcn::Error(
      "RADV's ICD manifest (radeon_icd*.json) is in none of the loader's system folders "
      "(Debian: mesa-vulkan-drivers)");
}

void applyDriver() {
  static std::once_flag once;
  static std::optional<gcn::Error> error;
  std::call_once(once, [] {
    try {
      const Driver& d = activeDriver();
      const std::string family = envOr("GCNPROBE_RADV_NULL");
      std::vector<fs::path> icds = d.icds;
      if (!family.empty()) {
        // GCN and RDNA chips: an RDNA null device serves the parts that model RDNA (the V#
        // self-check); the rest treats it as a device that is not GCN.
        const gcn::Chip& chip = gcn::parseAnyChip(family);
        if (chip.radvFamily.empty())
          throw gcn::Error(gcn::Place{"GCNPROBE_RADV_NULL", 0, 0},
                           "RADV has no family for '" + family + "'");
        const fs::path manifest = radvManifest();
        icds = {manifest};
        setEnv("RADV_FORCE_FAMILY", radvFamilyFor(chip, manifest));
        // VK_DRIVER_FILES names RADV alone below; the loader's filters (ours, inherited from
        // a parent process, or the user's) could only hide it.
        unsetenv("VK_LOADER_DRIVERS_DISABLE");
        unsetenv("VK_LOADER_DRIVERS_SELECT");
        unsetenv(kOwnDisable);
      } else if (!userChoseDrivers(!d.system()) && !hasRenderNode()) {
        const bool radvForced = std::getenv("RADV_FORCE_FAMILY") != nullptr;
        skipped() = renderNodeOnlyManifests(d.system() ? systemManifests() : icds, radvForced);
        if (d.system()) {
          std::string names;
          for (const fs::path& m : skipped())
            names.append(names.empty() ? "" : ",").append(m.filename().string());
          if (!names.empty()) {
            setEnv("VK_LOADER_DRIVERS_DISABLE", names);
            setEnv(kOwnDisable, names);
          }
        } else {
          std::erase_if(icds, [](const fs::path& m) {
            return std::find(skipped().begin(), skipped().end(), m) != skipped().end();
          });
        }
      }
      if (!icds.empty()) {
        setEnv("VK_DRIVER_FILES", joinPaths(icds));
        setEnv("VK_ICD_FILENAMES", joinPaths(icds));  // loaders before 1.3.207 read only this
      }
      if (d.system()) return;
      setEnv("NODEVICE_SELECT", "1");
      // dlopen by absolute path: the driver's own DT_NEEDED "libdrm.so.2" then resolves to
      // the object already loaded under that soname instead of searching the system folders.
      for (const char* lib : {"libdrm.so.2", "libdrm_amdgpu.so.1"}) {
        const fs::path p = d.libDir / lib;
        std::error_code ec;
        if (d.libDir.empty() || !fs::exists(p, ec)) continue;
        if (dlopen(p.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr)
          throw gcn::Error("driver folder " + d.folder.string() + ": cannot load " + p.string() +
                           ": " + dlerror());
      }
    } catch (const gcn::Error& e) {
      error = e;
    }
  });
  if (error) throw *error;
}

std::map<std::string, std::string> radvNullEnvironment(const std::string& family) {
  const Driver& d = activeDriver();
  return {{"GCNPROBE_DRIVER", d.system() ? std::string("system") : d.folder.string()},
          {"GCNPROBE_RADV_NULL", family}};
}

}  // namespace gcnprobe::vk
