#include "harness/judge/profile.h"

#include <string>

#include "reference/error.h"

namespace gcnprobe::judge {

Profile resolveProfile(std::string_view text, const std::optional<gcn::Chip>& deviceChip) {
  Profile p;
  if (text.empty()) {
    if (deviceChip) {
      p.name = std::string(gcn::genName(deviceChip->gen));
      p.chip = *deviceChip;
    } else {
      p.name = "portable";
      p.portable = true;
      p.chip = gcn::representativeChip(kPortableGen);
    }
    return p;
  }
  if (text == "portable") {
    p.name = "portable";
    p.portable = true;
    p.chip = gcn::representativeChip(kPortableGen);
    return p;
  }
  gcn::Gen gen;
  try {
    gen = gcn::parseGen(text);
  } catch (const gcn::Error&) {
    throw gcn::Error("unknown profile '" + std::string(text) +
                     "' (expected gfx6, gfx7, gfx8, gfx9 or portable)");
  }
  p.name = std::string(gcn::genName(gen));
  p.chip = (deviceChip && deviceChip->gen == gen) ? *deviceChip : gcn::representativeChip(gen);
  return p;
}

}  // namespace gcnprobe::judge
