#include "harness/run/fuzz.h"

#include <cstdio>
#include <random>

#include "harness/formats.h"
#include "harness/routes/storage.h"
#include "reference/error.h"
#include "reference/resource.h"

namespace gcnprobe::run {
namespace {

constexpr uint64_t kBase = 0x1000;

struct StorageLoad {
  const char* mnemonic;
  const char* vdata;
  unsigned bytes;
};
constexpr StorageLoad kStorageLoads[] = {{"buffer_load_ubyte", "v1", 1},
                                         {"buffer_load_ushort", "v1", 2},
                                         {"buffer_load_dword", "v1", 4},
                                         {"buffer_load_dwordx2", "v[1:2]", 8},
                                         {"buffer_load_dwordx4", "v[1:4]", 16}};
constexpr unsigned kOffsets[] = {0, 4, 16, 20, 64};

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::vector<const BufferFormat*> texelFormats() {
  std::vector<const BufferFormat*> out;
  for (const BufferFormat& f : allBufferFormats())
    if (f.texel && f.dfmt != gcn::Dfmt::Invalid && !f.srgb &&
        texelModel(f) == TexelModel::SingleLoad)
      out.push_back(&f);
  return out;
}

}  // namespace

FuzzCase makeFuzzCase(gcn::Gen gen, uint64_t seed, uint64_t number) {
  // One stream per case: case n does not depend on the cases before it.
  std::seed_seq sq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                   static_cast<uint32_t>(number), static_cast<uint32_t>(number >> 32)};
  std::mt19937_64 rng(sq);
  const auto below = [&](uint64_t n) { return static_cast<uint32_t>(rng() % n); };
  const gcn::Chip& chip = gcn::representativeChip(gen);
  FuzzCase c;
  c.seed = seed;
  c.number = number;
  const unsigned lanes = 1 + below(64);
  gcn::VSharp v;
  if (below(10) < 6) {
    static const std::vector<const BufferFormat*> formats = texelFormats();
    const BufferFormat& f = *formats[below(formats.size())];
    const uint32_t elements = 1 + below(64);
    c.kind = "texel";
    c.format = std::string(f.name);
    c.inst = "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen";
    v = makeTexelBufferVSharp(chip, kBase, elements, f.vk);
    c.memoryBytes = (static_cast<uint64_t>(elements) * f.stride + 3) / 4 * 4;
    for (unsigned l = 0; l < lanes; ++l)  // about one in eight past the end
      c.v0.push_back(below(8) == 0 ? elements + below(4) : below(elements));
  } else {
    const StorageLoad& s = kStorageLoads[below(std::size(kStorageLoads))];
    const unsigned offset = kOffsets[below(std::size(kOffsets))];
    const uint32_t range = 4 * (1 + below(64));
    c.kind = "storage";
    c.inst = std::string(s.mnemonic) + " " + s.vdata + ", v0, s[4:7], 0 offen" +
             (offset != 0 ? " offset:" + std::to_string(offset) : "");
    v = routes::makeStorageBufferVSharp(kBase, range);
    c.memoryBytes = range;
    const uint32_t slots = range / s.bytes + 2;  // a few past the end
    for (unsigned l = 0; l < lanes; ++l)
      c.v0.push_back(below(slots) * s.bytes);
  }
  const std::array<uint32_t, 4> w = gcn::encodeVSharp(gen, v);
  c.vsharpWords.assign(w.begin(), w.end());
  for (uint64_t i = 0; i < c.memoryBytes / 4; ++i)
    c.memory.push_back(static_cast<uint32_t>(rng()));
  return c;
}

std::string fuzzProbeText(gcn::Gen gen, const FuzzCase& c, const std::string& finding) {
  std::string t;
  t += "# gcnprobe fuzz --seed " + std::to_string(c.seed) + ": case " + std::to_string(c.number) +
       " (" + c.kind + (c.format.empty() ? "" : ", " + c.format) + "), minimised to " +
       std::to_string(c.v0.size()) + " lane(s).\n";
  if (!finding.empty()) t += "# The device differed from the reference: " + finding + "\n";
  t += "question = Does the device load what the reference predicts for this random " + c.kind +
       " case?\n";
  t += "source = gcnprobe fuzz (harness/run/fuzz.h): a random Vulkan-legal case\n";
  t += "gen = " + std::string(gcn::genName(gen)) + "\n";
  t += "inst = " + c.inst + "\n";
  t += "vsharp words = ";
  for (std::size_t i = 0; i < c.vsharpWords.size(); ++i)
    t += (i ? ", " : "") + hex(c.vsharpWords[i]);
  t += "\nmemory base = " + hex(kBase) + "\n";
  t += "memory size = " + std::to_string(c.memoryBytes) + "\n";
  t += "lanes = " + std::to_string(c.v0.size()) + "\n";
  t += "v0 = ";
  for (std::size_t i = 0; i < c.v0.size(); ++i)
    t += (i ? ", " : "") + std::to_string(c.v0[i]);
  t += "\n";
  if (!c.memory.empty()) {
    t += "mem @0 u32 = ";
    for (std::size_t i = 0; i < c.memory.size(); ++i)
      t += (i ? ", " : "") + hex(c.memory[i]);
    t += "\n";
  }
  return t;
}

FuzzCase keepLanes(const FuzzCase& c, const std::vector<unsigned>& lanes) {
  FuzzCase out = c;
  out.v0.clear();
  for (unsigned l : lanes) {
    if (l >= c.v0.size()) throw gcn::Error("fuzz: lane " + std::to_string(l) + " out of range");
    out.v0.push_back(c.v0[l]);
  }
  return out;
}

}  // namespace gcnprobe::run
