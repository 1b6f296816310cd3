// A VkPipelineCache kept in a file between processes, so that a second cold start of the same
// driver on the same device does not compile its pipelines again (drivers without an on-disk
// shader cache of their own, or runs with Mesa's turned off: MESA_SHADER_CACHE_DISABLE).
//
// The file is gcnprobe's: a 24-byte header (the magic "GCNPPC01", the size and the FNV-1a
// 64-bit hash of the data, little-endian) and then the driver's cache data exactly as
// vkGetPipelineCacheData gave it. On load the file is used only when its header, size and
// hash hold and the data's own Vulkan header (VkPipelineCacheHeaderVersionOne) names this
// device: vendor, device and pipelineCacheUUID. Anything else (a missing, truncated,
// corrupted or foreign file) starts an empty cache with a note saying why; the driver never
// sees bytes gcnprobe did not read back from a driver of the same identity. Saving writes a
// temporary file beside it and renames it over the old one, so concurrent processes never
// read half a file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "harness/vulkan/context.h"

namespace gcnprobe::vk {

class PipelineCacheFile {
 public:
  // Creates the cache from `file` (see above). Throws gcn::Error only when Vulkan cannot
  // create an empty cache either.
  PipelineCacheFile(Context& ctx, std::filesystem::path file);
  // Saves when keep() was called (a pipeline was created through the cache: a process that
  // created none, such as the parent of isolated runs, never overwrites what its children
  // saved), ignoring errors (a destructor must not throw; call save() to see them).
  ~PipelineCacheFile();
  PipelineCacheFile(const PipelineCacheFile&) = delete;
  PipelineCacheFile& operator=(const PipelineCacheFile&) = delete;

  VkPipelineCache handle() const { return cache_; }
  const std::filesystem::path& file() const { return file_; }
  // Whether the file's data was given to the driver.
  bool loaded() const { return loaded_; }
  // Why an existing file was not used ("" when it was, or when there was none).
  const std::string& note() const { return note_; }
  // Keeps what the cache holds now (call it after each pipeline is created): some drivers
  // drop a pipeline's entry from the cache when the pipeline is destroyed (measured: RADV in
  // Mesa 25), so each new entry is merged at once into a second cache; save() writes the
  // fuller of the two.
  void keep();
  // Writes the cache's current data to the file (creating its directory), unless the file
  // holds that data already. Throws gcn::Error naming the file on failure.
  void save();

  // Where the cache of this device lives by default: $GCNPROBE_PIPELINE_CACHE when set ("off"
  // or empty: nowhere, returned as an empty path), else
  // $XDG_CACHE_HOME/gcnprobe (or ~/.cache/gcnprobe) /pipelines-VENDOR-DEVICE-UUID.bin.
  static std::filesystem::path defaultFile(const Context& ctx);

 private:
  VkDevice device_;
  VkPipelineCache cache_ = VK_NULL_HANDLE;  // the one pipelines are created with
  VkPipelineCache kept_ = VK_NULL_HANDLE;   // every entry cache_ had, merged
  std::filesystem::path file_;
  bool loaded_ = false;
  bool added_ = false;  // keep() was called
  // The data the file holds (its size and hash) when it was loaded or last saved: save()
  // leaves a file that already holds its data alone.
  std::optional<std::pair<std::size_t, uint64_t>> fileData_;
  std::string note_;
};

}  // namespace gcnprobe::vk
