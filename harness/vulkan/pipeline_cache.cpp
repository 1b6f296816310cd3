#include "harness/vulkan/pipeline_cache.h"

#include <unistd.h>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::vk {
namespace {

constexpr char kMagic[8] = {'G', 'C', 'N', 'P', 'P', 'C', '0', '1'};
constexpr std::size_t kHeader = 24;  // magic, data size, FNV-1a 64 of the data
// VkPipelineCacheHeaderVersionOne: header size, version, vendor, device (4 bytes each), then
// pipelineCacheUUID.
constexpr std::size_t kVulkanHeader = 16 + VK_UUID_SIZE;

uint64_t fnv1a(const uint8_t* p, std::size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

uint64_t read64(const uint8_t* p) {
  uint64_t v = 0;
  for (unsigned i = 0; i < 8; ++i)
    v |= uint64_t{p[i]} << (8 * i);
  return v;
}

uint32_t read32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

void write64(uint8_t* p, uint64_t v) {
  for (unsigned i = 0; i < 8; ++i)
    p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// Why `bytes` (a whole file) cannot be given to this device's driver; "" when it can.
std::string whyNot(const std::vector<uint8_t>& bytes, const VkPhysicalDeviceProperties& props) {
  if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return "not a gcnprobe pipeline cache file (no GCNPPC01 header)";
  const uint64_t size = read64(bytes.data() + 8);
  if (size != bytes.size() - kHeader)
    return "truncated or padded: the header says " + std::to_string(size) + " bytes of data, " +
           std::to_string(bytes.size() - kHeader) + " follow";
  const uint8_t* data = bytes.data() + kHeader;
  if (fnv1a(data, size) != read64(bytes.data() + 16)) return "corrupted: the data's hash differs";
  if (size < kVulkanHeader || read32(data) < kVulkanHeader ||
      read32(data + 4) != VK_PIPELINE_CACHE_HEADER_VERSION_ONE)
    return "the data has no VkPipelineCacheHeaderVersionOne";
  if (read32(data + 8) != props.vendorID || read32(data + 12) != props.deviceID ||
      std::memcmp(data + 16, props.pipelineCacheUUID, VK_UUID_SIZE) != 0)
    return "made by another device or driver build (vendor, device or pipelineCacheUUID differ)";
  return "";
}

}  // namespace

PipelineCacheFile::PipelineCacheFile(Context& ctx, std::filesystem::path file)
    : device_(ctx.device()), file_(std::move(file)) {
  std::vector<uint8_t> bytes;
  std::error_code ec;
  if (std::filesystem::exists(file_, ec)) {
    std::ifstream in(file_, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) note_ = "cannot read it";
  }
  VkPhysicalDeviceProperties props{};
  vkGetPhysicalDeviceProperties(ctx.physicalDevice(), &props);
  auto ci = make<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
  if (!bytes.empty() && note_.empty()) {
    note_ = whyNot(bytes, props);
    if (note_.empty()) {
      ci.initialDataSize = bytes.size() - kHeader;
      ci.pInitialData = bytes.data() + kHeader;
    }
  }
  if (!note_.empty()) note_ = file_.string() + ": " + note_ + "; starting an empty pipeline cache";
  if (ci.pInitialData != nullptr &&
      vkCreatePipelineCache(device_, &ci, nullptr, &cache_) == VK_SUCCESS) {
    loaded_ = true;
    fileData_ = {ci.initialDataSize, fnv1a(bytes.data() + kHeader, ci.initialDataSize)};
  } else {
    if (ci.pInitialData != nullptr)
      note_ = file_.string() + ": the driver refused its data; starting an empty pipeline cache";
    ci.initialDataSize = 0;
    ci.pInitialData = nullptr;
    check(vkCreatePipelineCache(device_, &ci, nullptr, &cache_), "vkCreatePipelineCache");
  }
  // The saved cache starts with the same data: entries no pipeline of this run asks for are
  // kept for the next.
  if (vkCreatePipelineCache(device_, &ci, nullptr, &kept_) != VK_SUCCESS) {
    vkDestroyPipelineCache(device_, cache_, nullptr);
    throw gcn::Error("vkCreatePipelineCache failed for the saved pipeline cache");
  }
}

void PipelineCacheFile::keep() {
  vkMergePipelineCaches(device_, kept_, 1, &cache_);  // a failed merge only costs a recompile
  added_ = true;
}

PipelineCacheFile::~PipelineCacheFile() {
  try {
    if (added_) save();
  } catch (const std::exception&) {
    // A cache that cannot be saved costs the next run its compile time, nothing else.
  }
  vkDestroyPipelineCache(device_, kept_, nullptr);
  vkDestroyPipelineCache(device_, cache_, nullptr);
}

void PipelineCacheFile::save() {
  if (file_.empty()) return;
  keep();
  // The fuller of the two: RADV in Mesa 25 keeps every entry in the merged cache (its own
  // holds only the live pipelines'), RADV in Mesa 22.3 keeps them in its own and merges
  // nothing (measured on both, RADV's null device).
  VkPipelineCache from = kept_;
  std::size_t size = 0, ownSize = 0;
  check(vkGetPipelineCacheData(device_, kept_, &size, nullptr), "vkGetPipelineCacheData");
  check(vkGetPipelineCacheData(device_, cache_, &ownSize, nullptr), "vkGetPipelineCacheData");
  if (ownSize > size) {
    from = cache_;
    size = ownSize;
  }
  std::vector<uint8_t> bytes(kHeader + size);
  if (size > 0)
    check(vkGetPipelineCacheData(device_, from, &size, bytes.data() + kHeader),
          "vkGetPipelineCacheData");
  bytes.resize(kHeader + size);
  const uint64_t hash = fnv1a(bytes.data() + kHeader, size);
  if (fileData_ == std::make_pair(size, hash)) return;
  std::memcpy(bytes.data(), kMagic, sizeof kMagic);
  write64(bytes.data() + 8, size);
  write64(bytes.data() + 16, hash);
  std::error_code ec;
  if (file_.has_parent_path()) std::filesystem::create_directories(file_.parent_path(), ec);
  std::filesystem::path tmp = file_;
  tmp += ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::filesystem::remove(tmp, ec);
      throw gcn::Error("pipeline cache " + file_.string() + ": cannot write " + tmp.string());
    }
  }
  std::filesystem::rename(tmp, file_, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw gcn::Error("pipeline cache " + file_.string() + ": cannot replace it: " + ec.message());
  }
  fileData_ = {size, hash};
}

std::filesystem::path PipelineCacheFile::defaultFile(const Context& ctx) {
  if (const char* env = std::getenv("GCNPROBE_PIPELINE_CACHE")) {
    const std::string v = env;
    if (v.empty() || v == "off") return {};
    return v;
  }
  std::filesystem::path dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0')
    dir = xdg;
  else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    dir = std::filesystem::path(home) / ".cache";
  else
    return {};
  VkPhysicalDeviceProperties props{};
  vkGetPhysicalDeviceProperties(ctx.physicalDevice(), &props);
  char name[96];
  std::snprintf(name, sizeof name, "pipelines-%04x-%04x-", props.vendorID, props.deviceID);
  std::string file = name;
  file += gcn::hexDigits(props.pipelineCacheUUID);
  return dir / "gcnprobe" / (file + ".bin");
}

}  // namespace gcnprobe::vk
