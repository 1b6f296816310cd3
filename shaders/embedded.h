// Shader variants compiled at build time (see shaders/CMakeLists.txt and variants.cmake).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace gcnprobe::shaders {

struct Variant {
  std::string_view name;
  std::span<const uint32_t> spirv;
};

// Every variant, in the order of variants.cmake.
std::span<const Variant> all();

// The SPIR-V of one variant; throws std::out_of_range naming the variant when it is unknown.
std::span<const uint32_t> get(std::string_view name);

}  // namespace gcnprobe::shaders
