#include "harness/run/sweep.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>

#include "harness/formats.h"
#include "harness/vulkan/buffer.h"
#include "harness/vulkan/pipeline.h"
#include "reference/convert.h"
#include "reference/convert_table.h"
#include "reference/error.h"
#include "reference/resource.h"
#include "shaders/embedded.h"

namespace gcnprobe::run {
namespace {

constexpr char kChannel[] = {'R', 'G', 'B', 'A'};
constexpr uint32_t kWideValues = 65536;  // values tried for a 32-bit field

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The elements of a sweep: field `channel[i]` of element i runs through its values.
struct Elements {
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> channel;  // the swept field of each element
  std::vector<uint32_t> code;    // its value
};

Elements makeElements(gcn::Dfmt d) {
  const gcn::DfmtInfo& info = gcn::dfmtInfo(d);
  Elements e;
  std::mt19937 rng(0x5eed);
  std::vector<uint8_t> one(info.bytes);
  for (unsigned c = 0; c < info.components; ++c) {
    std::vector<uint32_t> values;
    if (info.bits[c] <= 16) {
      for (uint32_t v = 0; v < (1u << info.bits[c]); ++v)
        values.push_back(v);
    } else {
      values = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x3f800000u, 0x7f800000u};
      while (values.size() < kWideValues)
        values.push_back(rng());
    }
    for (uint32_t v : values) {
      for (unsigned o = 0; o < info.components; ++o) {
        const uint32_t mask = info.bits[o] >= 32 ? ~0u : (1u << info.bits[o]) - 1;
        gcn::insertComponent(d, o, o == c ? v : rng() & mask, one);
      }
      e.bytes.insert(e.bytes.end(), one.begin(), one.end());
      e.channel.push_back(static_cast<uint8_t>(c));
      e.code.push_back(v);
    }
  }
  return e;
}

// Register bits after DST_SEL (reference/convert.h applyDstSel, per element): the table's
// components in, four registers out; false where DST_SEL names nothing defined.
bool selectInto(gcn::Gen gen, const BufferFormat& f, unsigned components, const uint32_t* comp,
                uint32_t* reg) {
  for (unsigned k = 0; k < 4; ++k) {
    const gcn::DstSel s = f.dstSel[k];
    if (s == gcn::DstSel::Zero) {
      reg[k] = 0;
    } else if (s == gcn::DstSel::One) {
      reg[k] = gcn::oneValue(gen, f.nfmt);
    } else if (s >= gcn::DstSel::X && s <= gcn::DstSel::W) {
      const unsigned src = static_cast<unsigned>(s) - static_cast<unsigned>(gcn::DstSel::X);
      if (src >= components) return false;
      reg[k] = comp[src];
    } else {
      return false;
    }
  }
  return true;
}

// The device's result for every element: texelFetch of the whole buffer in one dispatch.
std::vector<uint32_t> runOnDevice(vk::Context& ctx, const BufferFormat& f, const Elements& e) {
  const uint32_t count = static_cast<uint32_t>(e.channel.size());
  vk::HostBuffer data(ctx, e.bytes.size(), VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  std::memcpy(data.bytes().data(), e.bytes.data(), e.bytes.size());
  vk::HostBuffer out(ctx, static_cast<VkDeviceSize>(count) * 16,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  std::memset(out.bytes().data(), 0xee, out.bytes().size());
  vk::BufferView view(ctx, data.buffer(), f.vk, 0, e.bytes.size());
  const vk::Binding bindings[] = {{0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER},
                                  {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
  const std::string variant = std::string("sweep_texel_") + shaderNumericType(f);
  vk::ComputePipeline pipeline(ctx, shaders::get(variant), bindings, 4);
  vk::DescriptorSet set(ctx, pipeline);
  set.writeTexelBuffer(0, view.view());
  set.writeBuffer(1, out.buffer(), 0, VK_WHOLE_SIZE);
  uint8_t push[4];
  std::memcpy(push, &count, 4);
  vk::submitAndWait(ctx, [&](VkCommandBuffer cmd) {
    vk::recordDispatch(cmd, pipeline, set, (count + 63) / 64, push);
    vk::recordHostReadBarrier(cmd);
  });
  std::vector<uint32_t> regs(static_cast<std::size_t>(count) * 4);
  std::memcpy(regs.data(), out.bytes().data(), regs.size() * 4);
  return regs;
}

SweepFormat sweepOne(vk::Context& ctx, const BufferFormat& f, gcn::Gen gen, const SweepOptions& o) {
  SweepFormat r;
  r.format = std::string(f.name);
  if (texelModel(f) != TexelModel::SingleLoad) {
    r.skipped = "not one buffer_load_format on the format's V# (texel model " +
                std::string(texelModelName(texelModel(f))) + ")";
    return r;
  }
  if (f.srgb) {
    r.skipped = "sRGB: the view applies the sRGB EOTF, no GCN buffer conversion does";
    return r;
  }
  if ((ctx.formatProperties(f.vk).bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) ==
      0) {
    r.skipped = "the device offers no uniform texel buffer of it";
    return r;
  }
  // The predictions: the generation's defaults, then each value-only point flipped.
  std::vector<gcn::Policies> pols{gcn::Policies::defaults(gen)};
  std::vector<std::string> names{"exact"};
  for (const gcn::PolicyPoint& point : gcn::allPolicyPoints()) {
    if (point.addressing) continue;
    gcn::Policies p = pols.front();
    p.set(point.id, static_cast<uint8_t>(1 - p.get(point.id)));
    pols.push_back(p);
    names.push_back(std::string(point.name) + "=" +
                    std::string(point.options[p.get(point.id)].name));
  }
  const gcn::FormatLoadTable first(gen, f.dfmt, f.nfmt, pols.front());
  if (!first.defined()) {
    r.skipped = "the reference claims no value: " + std::string(first.reason());
    return r;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const Elements e = makeElements(f.dfmt);
  r.elements = e.channel.size();
  const auto td = std::chrono::steady_clock::now();
  const std::vector<uint32_t> device = runOnDevice(ctx, f, e);
  r.deviceSeconds = since(td);
  const std::size_t n = e.channel.size();
  const unsigned comps = first.components();
  // predicted[v][i * 4 + k]: register k of element i under prediction v (all defined).
  std::vector<std::vector<uint32_t>> predicted(pols.size(), std::vector<uint32_t>(n * 4));
  std::vector<uint32_t> comp(n * 4);
  for (std::size_t v = 0; v < pols.size(); ++v) {
    const gcn::FormatLoadTable table(gen, f.dfmt, f.nfmt, pols[v]);
    if (!table.defined()) continue;  // a flipped point left it undefined: never matches
    table.convert(e.bytes, first.elementBytes(), n, comp);
    for (std::size_t i = 0; i < n; ++i)
      if (!selectInto(gen, f, comps, &comp[i * 4], &predicted[v][i * 4]))
        throw gcn::Error(r.format + ": its DST_SEL names a component the format lacks");
  }
  std::map<std::pair<unsigned, std::string>, SweepGroup> groups;
  for (std::size_t i = 0; i < n; ++i) {
    std::string cls = "mismatch";
    for (std::size_t v = 0; v < pols.size(); ++v)
      if (std::memcmp(&device[i * 4], &predicted[v][i * 4], 16) == 0) {
        cls = names[v];
        break;
      }
    SweepGroup& g = groups[{e.channel[i], cls}];
    g.channel = std::string(1, kChannel[e.channel[i]]);
    g.classification = cls;
    ++g.elements;
    if (cls == "mismatch" && g.examples.size() < o.examples) {
      std::string ex = "element " + std::to_string(i) + " (" + g.channel + " = " + hex(e.code[i]) +
                       "): expected";
      for (unsigned k = 0; k < 4; ++k)
        ex += " " + hex(predicted[0][i * 4 + k]);
      ex += ", device";
      for (unsigned k = 0; k < 4; ++k)
        ex += " " + hex(device[i * 4 + k]);
      g.examples.push_back(ex);
    }
  }
  for (auto& [key, g] : groups)
    r.groups.push_back(std::move(g));
  r.referenceSeconds = since(t0) - r.deviceSeconds;
  return r;
}

}  // namespace

std::vector<SweepFormat> sweepTexelFormats(vk::Context& ctx, const SweepOptions& options,
                                           const std::function<void(const SweepFormat&)>& done) {
  const gcn::Gen gen = ctx.info().chip ? ctx.info().chip->gen : gcn::Gen::Gfx8;
  std::vector<const BufferFormat*> formats;
  if (options.formats.empty()) {
    for (const BufferFormat& f : allBufferFormats())
      if (f.texel && f.dfmt != gcn::Dfmt::Invalid) formats.push_back(&f);
  } else {
    for (const std::string& name : options.formats)
      formats.push_back(&parseBufferFormat(name));
  }
  std::vector<SweepFormat> out;
  for (const BufferFormat* f : formats) {
    SweepFormat r = sweepOne(ctx, *f, gen, options);
    if (done) done(r);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace gcnprobe::run
