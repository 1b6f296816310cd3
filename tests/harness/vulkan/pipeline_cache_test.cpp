// The pipeline cache file (harness/vulkan/pipeline_cache.h): what a context saves the next one
// loads, a damaged or foreign file is refused with the reason and never reaches the driver,
// and on RADV (the null device of a GCN family) a pipeline built by a second process comes
// from the saved cache without compiling, as the driver itself reports (creation feedback).
#include "harness/vulkan/pipeline_cache.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harness/vulkan/pipeline.h"
#include "shaders/embedded.h"
#include "tests/support/radv.h"

namespace gcnprobe {
namespace pipeline_cache_test {

namespace fs = std::filesystem;

std::vector<uint8_t> readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const fs::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

uint64_t le64(const std::vector<uint8_t>& b, std::size_t at) {
  uint64_t v = 0;
  for (unsigned i = 0; i < 8; ++i)
    v |= uint64_t{b[at + i]} << (8 * i);
  return v;
}

// FNV-1a, 64 bits (offset basis 14695981039346656037, prime 1099511628211), written here
// from its definition rather than taken from the code under test.
uint64_t fnv1a64(const uint8_t* p, std::size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

void rehash(std::vector<uint8_t>& b) {
  const uint64_t h = fnv1a64(b.data() + 24, b.size() - 24);
  for (unsigned i = 0; i < 8; ++i)
    b[16 + i] = static_cast<uint8_t>(h >> (8 * i));
}

fs::path tempFile(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / "gcnprobe-pipeline-cache";
  fs::create_directories(dir);
  fs::remove(dir / name);
  return dir / name;
}

const vk::Binding kBindings[] = {{0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER},
                                 {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};

TEST(PipelineCacheFile, FnvIsTheStandardHash) {
  // Published FNV-1a 64 test vectors: "" and "a".
  EXPECT_EQ(fnv1a64(nullptr, 0), 0xcbf29ce484222325ull);
  const uint8_t a = 'a';
  EXPECT_EQ(fnv1a64(&a, 1), 0xaf63dc4c8601ec8cull);
}

TEST(PipelineCacheFile, WhatOneContextSavesTheNextLoads) {
  const fs::path file = tempFile("roundtrip.bin");
  {
    auto ctx = vk::Context::open("");
    EXPECT_EQ(ctx->keepPipelineCache(file), "");  // no file yet: nothing to explain
    vk::ComputePipeline p(*ctx, shaders::get("sweep_texel_f"), kBindings, 4);
  }
  const std::vector<uint8_t> bytes = readAll(file);
  ASSERT_GE(bytes.size(), 24u + 32u);  // our header, then at least the Vulkan header
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "GCNPPC01");
  EXPECT_EQ(le64(bytes, 8), bytes.size() - 24);
  EXPECT_EQ(le64(bytes, 16), fnv1a64(bytes.data() + 24, bytes.size() - 24));
  // VkPipelineCacheHeaderVersionOne: header length, then version 1.
  EXPECT_EQ(bytes[28], 1u);
  auto ctx = vk::Context::open("");
  vk::PipelineCacheFile again(*ctx, file);
  EXPECT_TRUE(again.loaded()) << again.note();
  EXPECT_EQ(again.note(), "");
}

// A process whose pipelines the file already holds leaves it alone (no rewrite at every
// start): the same inode after a second process built the same pipeline. A file the driver
// could not use is replaced by the one this process makes.
TEST(PipelineCacheFile, AFileThatHoldsTheDataAlreadyIsNotRewritten) {
  const fs::path file = tempFile("unchanged.bin");
  const auto build = [&] {
    auto ctx = vk::Context::open("");
    (void)ctx->keepPipelineCache(file);
    vk::ComputePipeline p(*ctx, shaders::get("sweep_texel_f"), kBindings, 4);
  };
  build();
  ASSERT_TRUE(fs::exists(file));
  const auto inode = [&] {
    struct stat st {};
    EXPECT_EQ(stat(file.c_str(), &st), 0);
    return st.st_ino;
  };
  const auto first = inode();
  const std::vector<uint8_t> bytes = readAll(file);
  build();
  EXPECT_EQ(inode(), first);
  EXPECT_EQ(readAll(file), bytes);
  // A file that is no cache: replaced by this process's data.
  writeAll(file, {'n', 'o', 'p', 'e'});
  build();
  EXPECT_EQ(readAll(file), bytes);
}

// A process that builds no pipeline (the parent of isolated runs) leaves the file as its
// children saved it, even when it could not use it.
TEST(PipelineCacheFile, AContextThatBuildsNothingLeavesTheFileAlone) {
  const fs::path file = tempFile("untouched.bin");
  const std::vector<uint8_t> garbage = {'n', 'o', 't', ' ', 'a', ' ', 'c', 'a', 'c', 'h', 'e'};
  writeAll(file, garbage);
  {
    auto ctx = vk::Context::open("");
    EXPECT_NE(ctx->keepPipelineCache(file).find("not a gcnprobe pipeline cache"),
              std::string::npos);
  }
  EXPECT_EQ(readAll(file), garbage);
}

TEST(PipelineCacheFile, DamagedOrForeignFilesAreRefusedWithTheReason) {
  const fs::path file = tempFile("damaged.bin");
  auto ctx = vk::Context::open("");
  vk::PipelineCacheFile(*ctx, file).save();
  const std::vector<uint8_t> good = readAll(file);
  ASSERT_GE(good.size(), 24u + 32u);
  struct Damage {
    std::string name;
    std::vector<uint8_t> bytes;
    std::string reason;
  };
  std::vector<Damage> damages;
  {
    auto b = good;
    b[0] = 'X';
    damages.push_back({"magic", b, "not a gcnprobe pipeline cache"});
  }
  {
    auto b = good;
    b.pop_back();
    damages.push_back({"truncated", b, "truncated"});
  }
  {
    auto b = good;
    b[24 + 20] ^= 0x40;  // a byte of the UUID, hash left as it was
    damages.push_back({"bit flip", b, "corrupted"});
  }
  {
    auto b = good;
    b[24 + 8] ^= 0x01;  // vendorID, hash recomputed: a well-formed file of another device
    rehash(b);
    damages.push_back({"foreign", b, "another device"});
  }
  {
    auto b = good;
    b[24 + 4] = 2;  // header version 2 does not exist
    rehash(b);
    damages.push_back({"version", b, "VkPipelineCacheHeaderVersionOne"});
  }
  damages.push_back({"empty", {}, ""});  // an empty file: nothing to load, nothing to explain
  for (const Damage& d : damages) {
    SCOPED_TRACE(d.name);
    writeAll(file, d.bytes);
    vk::PipelineCacheFile cache(*ctx, file);
    EXPECT_FALSE(cache.loaded());
    if (d.reason.empty()) {
      EXPECT_EQ(cache.note(), "");
    } else {
      EXPECT_NE(cache.note().find(d.reason), std::string::npos) << cache.note();
      EXPECT_NE(cache.note().find(file.string()), std::string::npos) << cache.note();
    }
    EXPECT_NE(cache.handle(), VK_NULL_HANDLE);  // an empty cache instead
    cache.save();
    EXPECT_EQ(readAll(file).size(), good.size());  // replaced by a good one
  }
}

TEST(PipelineCacheFile, DefaultPlaceFollowsTheEnvironment) {
  auto ctx = vk::Context::open("");
  const char* saved = std::getenv("GCNPROBE_PIPELINE_CACHE");
  const std::string keep = saved ? saved : "";
  setenv("GCNPROBE_PIPELINE_CACHE", "off", 1);
  EXPECT_TRUE(vk::PipelineCacheFile::defaultFile(*ctx).empty());
  setenv("GCNPROBE_PIPELINE_CACHE", "/some/where.bin", 1);
  EXPECT_EQ(vk::PipelineCacheFile::defaultFile(*ctx), fs::path("/some/where.bin"));
  unsetenv("GCNPROBE_PIPELINE_CACHE");
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const std::string keepXdg = xdg ? xdg : "";
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  const fs::path p = vk::PipelineCacheFile::defaultFile(*ctx);
  EXPECT_EQ(p.parent_path(), fs::path("/xdg/gcnprobe"));
  EXPECT_EQ(p.filename().string().rfind("pipelines-", 0), 0u) << p;
  if (xdg)
    setenv("XDG_CACHE_HOME", keepXdg.c_str(), 1);
  else
    unsetenv("XDG_CACHE_HOME");
  if (saved) setenv("GCNPROBE_PIPELINE_CACHE", keep.c_str(), 1);
}

// RADV keeps machine code in its application cache: the second "process" (a new context on
// the saved file) gets the pipeline without compiling. Mesa's own disk cache is off, so that
// only the file can supply it. (ctest runs each test in its own process: the driver chosen
// for a process stays chosen, harness/vulkan/driver.h.)
TEST(PipelineCacheFile, OnRadvASecondStartTakesThePipelineFromTheFile) {
  if (const auto why = test_support::radvMissing()) GTEST_SKIP() << *why;
  bool firstHit = true, secondHit = false;
  std::size_t size = 0;
  const fs::path file = tempFile("radv.bin");
  {
    const test_support::ScopedRadvNull radv("tonga");
    {
      auto ctx = vk::Context::open("");
      EXPECT_EQ(ctx->keepPipelineCache(file), "");
      vk::ComputePipeline p(*ctx, shaders::get("sweep_texel_f"), kBindings, 4);
      firstHit = p.fromPipelineCache();
    }  // the pipeline goes before the context saves its cache
    size = readAll(file).size();
    auto ctx = vk::Context::open("");
    EXPECT_EQ(ctx->keepPipelineCache(file), "");
    vk::ComputePipeline p(*ctx, shaders::get("sweep_texel_f"), kBindings, 4);
    secondHit = p.fromPipelineCache();
  }
  EXPECT_FALSE(firstHit);
  EXPECT_TRUE(secondHit);
  EXPECT_GT(size, 24u + 32u + 256u);  // the header and the machine code of one shader
}

}  // namespace pipeline_cache_test
}  // namespace gcnprobe
