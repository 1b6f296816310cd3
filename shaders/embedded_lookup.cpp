#include <stdexcept>
#include <string>

#include "shaders/embedded.h"

namespace gcnprobe::shaders {

std::span<const uint32_t> get(std::string_view name) {
  for (const Variant& v : all()) {
    if (v.name == name) return v.spirv;
  }
  throw std::out_of_range("no embedded shader variant named '" + std::string(name) + "'");
}

}  // namespace gcnprobe::shaders
