// Shader variants compiled at build time (see shaders/CMakeLists.txt and variants.cmake).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gcnprobe::shaders {

struct Variant {
  std::string_view name;
  std::span<const uint32_t> spirv;
  std::string_view source;   // the GLSL file in shaders/ it was compiled from
  std::string_view defines;  // glslangValidator's -D definitions, "NAME=VALUE ..." (may be "")
};

// Every variant, in the order of variants.cmake.
std::span<const Variant> all();

// The GLSL source files the variants were compiled from, as written.
struct Source {
  std::string_view file;  // "storage_access.comp"
  std::string_view text;
};
std::span<const Source> sources();

// The GLSL a variant was compiled from, as one self-contained text: the source with its
// definitions as #define lines after the #version line (what -D does). Throws
// std::out_of_range naming the variant or the file when either is unknown.
std::string glslOf(std::string_view name);

// The SPIR-V of one variant; throws std::out_of_range naming the variant when it is unknown.
std::span<const uint32_t> get(std::string_view name);

}  // namespace gcnprobe::shaders
