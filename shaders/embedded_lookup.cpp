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

std::string glslOf(std::string_view name) {
  const Variant* variant = nullptr;
  for (const Variant& v : all())
    if (v.name == name) variant = &v;
  if (variant == nullptr)
    throw std::out_of_range("no embedded shader variant named '" + std::string(name) + "'");
  for (const Source& s : sources()) {
    if (s.file != variant->source) continue;
    std::string text(s.text);
    const std::size_t versionEnd = text.find('\n', text.find("#version"));
    std::string defines;
    std::string_view rest = variant->defines;
    while (!rest.empty()) {
      const std::size_t space = rest.find(' ');
      std::string one(rest.substr(0, space));
      rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
      if (one.empty()) continue;
      const std::size_t eq = one.find('=');
      defines += "#define " +
                 (eq == std::string::npos ? one : one.substr(0, eq) + " " + one.substr(eq + 1)) +
                 "\n";
    }
    if (versionEnd == std::string::npos) return defines + text;
    return text.substr(0, versionEnd + 1) + defines + text.substr(versionEnd + 1);
  }
  throw std::out_of_range("shader variant '" + std::string(name) + "': no embedded source " +
                          std::string(variant->source));
}

}  // namespace gcnprobe::shaders
