#include "harness/explore/sweep.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <thread>

#include "harness/cases/suite.h"
#include "harness/formats.h"
#include "harness/vulkan/buffer.h"
#include "harness/vulkan/pipeline.h"
#include "reference/convert.h"
#include "reference/convert_table.h"
#include "reference/error.h"
#include "reference/load_batch.h"
#include "reference/opcodes.h"
#include "reference/resource.h"
#include "shaders/embedded.h"

namespace gcnprobe::explore {
namespace {

constexpr char kChannel[] = {'R', 'G', 'B', 'A'};
constexpr uint32_t kWideValues = 65536;  // values tried for a 32-bit field

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Runs work(t, lo, hi) over [0, n) split between `threads` threads (the last on the caller's);
// the first exception is rethrown after all have finished.
void splitWork(unsigned threads, std::size_t n,
               const std::function<void(unsigned, std::size_t, std::size_t)>& work) {
  const std::size_t per = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(threads);
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t lo = std::min(n, t * per), hi = std::min(n, lo + per);
    const auto one = [&, t, lo, hi] {
      try {
        work(t, lo, hi);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    };
    if (t + 1 == threads)
      one();
    else
      pool.emplace_back(one);
  }
  for (std::thread& th : pool)
    th.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

// The bytes of a texel buffer view of `elements` elements; gcn::Error past the device's limit.
VkDeviceSize viewBytes(const vk::Context& ctx, const vk::BufferFormat& f, uint64_t elements) {
  const uint32_t limit = ctx.limits().maxTexelBufferElements;
  if (elements > limit)
    throw gcn::Error(std::string(f.name) + ": a view of " + std::to_string(elements) +
                     " elements is over the device's maxTexelBufferElements (" +
                     std::to_string(limit) + ")");
  return static_cast<VkDeviceSize>(elements) * gcn::dfmtInfo(f.dfmt).bytes;
}

// Which field element i sweeps and with which code: channel after channel, every code of a
// field up to 16 bits, 65536 seeded and extreme values of a 32-bit field; past the end of that
// plan (SweepOptions::elements) it starts again, the other fields drawn afresh.
class Plan {
 public:
  explicit Plan(gcn::Dfmt d) : info_(gcn::dfmtInfo(d)) {
    std::mt19937 rng(0x5eed);
    for (unsigned c = 0; c < info_.components; ++c) {
      start_[c] = size_;
      if (info_.bits[c] <= 16) {
        size_ += uint64_t{1} << info_.bits[c];
      } else {
        wide_ = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x3f800000u, 0x7f800000u};
        while (wide_.size() < kWideValues)
          wide_.push_back(rng());
        size_ += kWideValues;
      }
    }
  }
  uint64_t size() const { return size_; }
  // The swept channel of element i and the position of its value in that channel's list.
  std::pair<unsigned, uint64_t> cursor(uint64_t i) const {
    const uint64_t k = i % size_;
    unsigned c = info_.components - 1;
    while (k < start_[c])
      --c;
    return {c, k - start_[c]};
  }
  // The swept channel and code of element i.
  std::pair<unsigned, uint32_t> at(uint64_t i) const {
    const auto [c, v] = cursor(i);
    return {c, code(c, v)};
  }
  uint32_t code(unsigned c, uint64_t v) const {
    return info_.bits[c] <= 16 ? static_cast<uint32_t>(v) : wide_[v];
  }
  uint64_t values(unsigned c) const {
    return info_.bits[c] <= 16 ? uint64_t{1} << info_.bits[c] : kWideValues;
  }

 private:
  const gcn::DfmtInfo& info_;
  std::array<uint64_t, 4> start_{};
  uint64_t size_ = 0;
  std::vector<uint32_t> wide_;  // the same values for every 32-bit field
};

// The bits of the fields element i does not sweep: splitmix64 of (element, word), so any
// part of a sweep can be written independently and the sweep is the same for any chunking.
uint64_t randomBits(uint64_t element, unsigned word) {
  uint64_t z = element * 4 + word + 0x5eed;
  z *= 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Writes elements [first, first + count) of the plan to `out` (count * bytes): random bits
// everywhere, then the swept field set to its code; channel[j] is element first + j's swept
// channel.
void writeElements(const gcn::DfmtInfo& info, const Plan& plan, uint64_t first, std::size_t count,
                   uint8_t* out, uint8_t* channel) {
  const unsigned bytes = info.bytes;
  auto [c, v] = plan.cursor(first);
  uint64_t left = plan.values(c) - v;  // elements before the next channel
  for (std::size_t j = 0; j < count; ++j, out += bytes) {
    const uint32_t code = plan.code(c, v);
    channel[j] = static_cast<uint8_t>(c);
    if (bytes <= 8) {
      const uint64_t mask = info.bits[c] >= 32 ? 0xffffffffull : (1ull << info.bits[c]) - 1;
      uint64_t e = randomBits(first + j, 0);
      e = (e & ~(mask << info.offset[c])) | (uint64_t{code} << info.offset[c]);
      std::memcpy(out, &e, bytes);  // little-endian host, as reference/convert_table.cpp
    } else {
      for (unsigned w = 0; w < bytes; w += 8) {
        const uint64_t r = randomBits(first + j, w / 8);
        std::memcpy(out + w, &r, std::min(8u, bytes - w));
      }
      std::memcpy(out + info.offset[c] / 8, &code, 4);
    }
    ++v;
    if (--left == 0) {
      c = c + 1 == info.components ? 0 : c + 1;
      v = 0;
      left = plan.values(c);
    }
  }
}

// Adds one thread part's counts and, up to `limit` per group, its mismatch examples (parts
// are merged in element order, so the examples are the first ones).
void mergePart(std::vector<uint64_t>& counts, std::span<std::vector<std::string>> examples,
               const std::vector<uint64_t>& partCounts,
               std::span<std::vector<std::string>> partExamples, unsigned limit) {
  for (std::size_t k = 0; k < counts.size() && k < partCounts.size(); ++k)
    counts[k] += partCounts[k];
  for (std::size_t g = 0; g < examples.size() && g < partExamples.size(); ++g)
    for (std::string& ex : partExamples[g])
      if (examples[g].size() < limit) examples[g].push_back(std::move(ex));
}

// The groups that have elements: group g, class k counted at [g * names.size() + k], named
// labels[g] and names[k]; the last class ("mismatch") takes group g's examples.
void appendGroups(const std::vector<uint64_t>& counts, std::span<std::vector<std::string>> examples,
                  std::span<const std::string> labels, const std::vector<std::string>& names,
                  std::vector<SweepGroup>& out) {
  const std::size_t classes = names.size();
  for (std::size_t g = 0; g < labels.size(); ++g)
    for (std::size_t k = 0; k < classes; ++k) {
      if (counts[g * classes + k] == 0) continue;
      SweepGroup group;
      group.channel = labels[g];
      group.classification = names[k];
      group.elements = counts[g * classes + k];
      if (k == classes - 1) group.examples = std::move(examples[g]);
      out.push_back(std::move(group));
    }
}

// The predictions a sweep classifies by, in order: the generation's defaults ("exact"), then
// each other option of each policy point on its own ("norm=mulrcp"; the addressing points only when
// `addressing`), and the name "mismatch" last (one more name than policies).
void addVariants(const gcn::Chip& chip, bool addressing, std::vector<gcn::Policies>& pols,
                 std::vector<std::string>& names) {
  pols.push_back(gcn::Policies::defaults(chip));
  names.push_back("exact");
  for (const gcn::PolicyPoint& point : gcn::allPolicyPoints()) {
    if (point.addressing && !addressing) continue;
    for (uint8_t o : gcn::otherOptions(point.id, pols.front().get(point.id))) {
      gcn::Policies p = pols.front();
      p.set(point.id, o);
      pols.push_back(p);
      names.push_back(std::string(point.name) + "=" + std::string(point.options()[o].name));
    }
  }
  names.push_back("mismatch");
}

// The predictions an element is classified by: the generation's defaults ("exact"), then each
// other option of each value-only policy point. Tables of those variants are built only when an
// element does not match the defaults: on a device that matches, the sweep builds one table.
class Predictions {
 public:
  Predictions(const gcn::Chip& chip, const vk::BufferFormat& f) : gen_(chip.gen), f_(f) {
    const gcn::Gen gen = chip.gen;
    addVariants(chip, /*addressing=*/false, pols_, names_);
    tables_.resize(pols_.size());
    built_ = std::make_unique<std::once_flag[]>(pols_.size());
    tables_[0] = std::make_unique<gcn::FormatLoadTable>(gen, f.dfmt, f.nfmt, pols_[0]);
    if (!tables_[0]->defined()) return;
    map_ = gcn::RegisterMap::fromDstSel(gen, f.nfmt, tables_[0]->components(), f.dstSel);
    if (!map_)
      throw gcn::Error(std::string(f.name) + ": its DST_SEL names a component the format lacks");
  }
  const gcn::FormatLoadTable& defaults() const { return *tables_[0]; }
  const std::vector<std::string>& names() const { return names_; }  // last: "mismatch"
  // The elements of a chunk (count elements at `bytes`) whose device registers are not what
  // the defaults predict, into `pending`: conversion and comparison fused, at table speed.
  void missDefaults(const uint8_t* bytes, std::size_t count, const uint32_t* device,
                    std::vector<std::size_t>& pending) const {
    const unsigned eb = defaults().elementBytes();
    defaults().differing({bytes, count * eb}, eb, count, device, *map_, {}, pending);
  }
  // Classifies the elements `pending` names (indexes into the chunk), which missed the
  // defaults: cls[i] becomes the first other prediction (index >= 1) that gives the device's
  // registers, else the index of "mismatch". Each prediction checks only the elements still
  // unexplained, and only while there are some.
  void classifyOthers(const uint8_t* bytes, std::size_t count, const uint32_t* device,
                      std::vector<std::size_t>& pending, std::vector<std::size_t>& still,
                      std::vector<uint8_t>& cls) const {
    const unsigned eb = defaults().elementBytes();
    for (std::size_t i : pending)
      cls[i] = static_cast<uint8_t>(names_.size() - 1);
    for (std::size_t v = 1; v < pols_.size() && !pending.empty(); ++v) {
      std::call_once(built_[v], [&] {
        tables_[v] = std::make_unique<gcn::FormatLoadTable>(gen_, f_.dfmt, f_.nfmt, pols_[v]);
      });
      const gcn::FormatLoadTable& t = *tables_[v];
      // Undefined under the other option, or converting as the defaults do (the point does
      // not touch this format): no element that missed the defaults can match it.
      if (!t.defined() || t.sameConversion(defaults())) continue;
      t.differing({bytes, count * eb}, eb, count, device, *map_, pending, still);
      // Both lists ascend: what is in `pending` and not in `still` matched this prediction.
      std::size_t k = 0;
      for (std::size_t i : pending) {
        if (k < still.size() && still[k] == i)
          ++k;
        else
          cls[i] = static_cast<uint8_t>(v);
      }
      pending.swap(still);
    }
  }
  // The registers the defaults predict for one element (the examples of a mismatch).
  void expected(const uint8_t* element, uint32_t* reg) const {
    const unsigned eb = defaults().elementBytes();
    uint32_t comp[4] = {};
    defaults().convert({element, eb}, eb, 1, comp);
    map_->apply(comp, reg);
  }

 private:
  gcn::Gen gen_;
  const vk::BufferFormat& f_;
  std::vector<gcn::Policies> pols_;
  std::vector<std::string> names_;
  mutable std::vector<std::unique_ptr<gcn::FormatLoadTable>> tables_;
  mutable std::unique_ptr<std::once_flag[]> built_;  // tables_[v] is built once, by any thread
  std::optional<gcn::RegisterMap> map_;              // DST_SEL, when the defaults are defined
};

// One thread's workspace for its part of a chunk.
struct Part {
  std::vector<uint8_t> cls;
  std::vector<std::size_t> pending, still;
  std::vector<uint64_t> counts;                      // [channel * classes + class]
  std::array<std::vector<std::string>, 4> examples;  // mismatches, per channel
};

// Why a format is not swept on the device ("" when it is).
std::string skipReason(vk::Context& ctx, const vk::BufferFormat& f) {
  if (texelModel(f) != vk::TexelModel::SingleLoad)
    return "not one buffer_load_format on the format's V# (texel model " +
           std::string(texelModelName(texelModel(f))) + ")";
  if (f.srgb) return "sRGB: the view applies the sRGB EOTF, no GCN buffer conversion does";
  if ((ctx.formatProperties(f.vk).bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) == 0)
    return "the device offers no uniform texel buffer of it";
  return "";
}

SweepFormat sweepOne(vk::Context& ctx, const vk::BufferFormat& f, const gcn::Chip& chip,
                     const SweepOptions& o) {
  SweepFormat r;
  r.format = std::string(f.name);
  r.skipped = skipReason(ctx, f);
  if (!r.skipped.empty()) return r;
  const auto t0 = std::chrono::steady_clock::now();
  Predictions pred(chip, f);
  if (!pred.defaults().defined()) {
    r.skipped = "the reference claims no value: " + std::string(pred.defaults().reason());
    return r;
  }
  const gcn::DfmtInfo& info = gcn::dfmtInfo(f.dfmt);
  const Plan plan(f.dfmt);
  const uint64_t total = std::max<uint64_t>(plan.size(), o.elements);
  // Vulkan guarantees 65535 workgroups of 64 lanes in one dispatch.
  const std::size_t chunk = static_cast<std::size_t>(
      std::min<uint64_t>({total, std::max<std::size_t>(o.chunk, 64), uint64_t{65535} * 64}));
  r.elements = total;
  const auto tb = std::chrono::steady_clock::now();
  SweepDispatch device(ctx, f, chunk);
  r.deviceSeconds += since(tb);
  std::vector<uint8_t> channel(chunk);
  const std::size_t classes = pred.names().size();
  // The chunk is split between threads (the host's cores); each part has its own workspace
  // and the results are merged in element order, so the output is the same for any split.
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::vector<Part> parts(threads);
  std::vector<uint64_t> counts(4 * classes, 0);
  std::vector<std::vector<std::string>> examples(4);
  const auto inParallel = [&](std::size_t n,
                              const std::function<void(Part&, std::size_t, std::size_t)>& work) {
    splitWork(threads, n,
              [&](unsigned t, std::size_t lo, std::size_t hi) { work(parts[t], lo, hi); });
  };
  for (uint64_t first = 0; first < total; first += chunk) {
    const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(chunk, total - first));
    inParallel(n, [&](Part&, std::size_t lo, std::size_t hi) {
      writeElements(info, plan, first + lo, hi - lo, device.input() + lo * info.bytes,
                    channel.data() + lo);
    });
    const auto td = std::chrono::steady_clock::now();
    const uint32_t* got = device.run(static_cast<uint32_t>(n));
    r.deviceSeconds += since(td);
    inParallel(n, [&](Part& w, std::size_t lo, std::size_t hi) {
      const std::size_t m = hi - lo;
      const uint8_t* bytes = device.input() + lo * info.bytes;
      const uint32_t* dev = got + lo * 4;
      w.cls.assign(m, 0);
      w.counts.assign(4 * classes, 0);
      for (auto& e : w.examples)
        e.clear();
      pred.missDefaults(bytes, m, dev, w.pending);
      if (!w.pending.empty()) pred.classifyOthers(bytes, m, dev, w.pending, w.still, w.cls);
      for (std::size_t i = 0; i < m; ++i) {
        const uint8_t c = channel[lo + i];
        ++w.counts[c * classes + w.cls[i]];
        if (w.cls[i] == classes - 1 && w.examples[c].size() < o.examples) {
          const uint64_t element = first + lo + i;
          uint32_t e[4];
          pred.expected(bytes + i * info.bytes, e);
          const uint32_t* d = &dev[i * 4];
          char buf[160];
          std::snprintf(buf, sizeof buf,
                        "element %llu (%c = 0x%08x): expected 0x%08x 0x%08x 0x%08x 0x%08x, "
                        "device 0x%08x 0x%08x 0x%08x 0x%08x",
                        static_cast<unsigned long long>(element), kChannel[c],
                        plan.at(element).second, e[0], e[1], e[2], e[3], d[0], d[1], d[2], d[3]);
          w.examples[c].emplace_back(buf);
        }
      }
    });
    for (Part& w : parts)
      mergePart(counts, examples, w.counts, w.examples, o.examples);
  }
  const std::string channels[] = {{kChannel[0]}, {kChannel[1]}, {kChannel[2]}, {kChannel[3]}};
  appendGroups(counts, examples, channels, pred.names(), r.groups);
  r.referenceSeconds = since(t0) - r.deviceSeconds;
  return r;
}

// The V# a driver builds for an index sweep's view (makeBufferVSharp) in the suites' SRSRC
// registers.
constexpr uint64_t kSweepBase = 0x100000;
gcn::WaveState indexSweepScalars(const gcn::Chip& chip, const vk::BufferFormat& f, uint32_t view) {
  const gcn::VSharp vsharp =
      vk::makeBufferVSharp(chip, kSweepBase, view, f.dfmt, f.nfmt, f.dstSel, f.stride);
  // The lanes are numbered by their place in a thread's part, not by their lane on the device:
  // only a V# without SWIZZLE_ENABLE and ADD_TID_ENABLE (which read the lane) allows it.
  if (vsharp.swizzleEnable || vsharp.addTidEnable)
    throw gcn::Error(std::string(f.name) +
                     ": an index sweep's V# must not read the lane number (swizzle, ADD_TID)");
  gcn::WaveState scalars;
  gcn::setVsharpWords(scalars, cases::kCaseSrsrc, gcn::encodeVSharp(chip.gen, vsharp));
  return scalars;
}

// The device's registers against a prediction: every component the reference claims.
bool matchesPrediction(const gcn::BatchLane& want, const uint32_t* got) {
  for (unsigned c = 0; c < 4; ++c)
    if (((want.claimed >> c) & 1) && want.reg[c] != got[c]) return false;
  return true;
}

std::string indexMismatchText(uint32_t index, const gcn::BatchLane& e, const uint32_t* d) {
  std::string text = "index " + std::to_string(index) + ": expected";
  for (unsigned c = 0; c < 4; ++c) {
    char buf[16];
    std::snprintf(buf, sizeof buf, " 0x%08x", e.reg[c]);
    text += (e.claimed >> c) & 1 ? buf : " any";
  }
  text += ", device";
  for (unsigned c = 0; c < 4; ++c) {
    char buf[16];
    std::snprintf(buf, sizeof buf, " 0x%08x", d[c]);
    text += buf;
  }
  return text;
}

// The predictions of an index sweep: one FormatLoadBatch per policy variant (the defaults
// first), each made when a lane first needs it (from any thread).
class IndexPredictions {
 public:
  IndexPredictions(const gcn::Chip& chip, const gcn::Instruction& inst,
                   const gcn::WaveState& scalars)
      : chip_(chip), inst_(inst), scalars_(scalars) {
    // Every point, addressing ones included: an index moves the access (index-product: is
    // AINDEX * STRIDE truncated to 32 bits, so that a huge index wraps back into range?).
    addVariants(chip, /*addressing=*/true, pols_, names_);
    batches_.resize(pols_.size());
    once_ = std::make_unique<std::once_flag[]>(pols_.size());
  }
  std::size_t variants() const { return pols_.size(); }
  // The variants' names, then "mismatch" (the class of a lane none explains).
  const std::vector<std::string>& names() const { return names_; }
  const gcn::FormatLoadBatch& batch(std::size_t v) {
    std::call_once(once_[v], [&] {
      batches_[v] = std::make_unique<gcn::FormatLoadBatch>(chip_, inst_, scalars_, pols_[v]);
    });
    return *batches_[v];
  }

 private:
  const gcn::Chip& chip_;
  const gcn::Instruction& inst_;
  const gcn::WaveState& scalars_;
  std::vector<gcn::Policies> pols_;
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<gcn::FormatLoadBatch>> batches_;
  std::unique_ptr<std::once_flag[]> once_;
};

// One thread's part of a chunk of an index sweep, with its buffers kept between chunks.
struct IndexWork {
  std::vector<uint32_t> index, pendingIndex;
  std::vector<gcn::BatchLane> lanes, pendingLanes;
  std::vector<std::size_t> pending;
  std::vector<uint8_t> cls;
  std::vector<uint64_t> counts;                      // [range * classes + class]
  std::array<std::vector<std::string>, 2> examples;  // mismatches: in range, out of range

  // Indices first + lo .. first + hi - 1, whose device registers start at got[lo * 4]: each
  // lane's class is the first variant that explains it (the last class: none).
  void classify(IndexPredictions& pred, const gcn::MemoryImage& memory, uint32_t first,
                std::size_t lo, std::size_t hi, const uint32_t* got, std::size_t maxExamples) {
    const std::size_t classes = pred.names().size();
    const std::size_t m = hi - lo;
    index.resize(m);
    for (std::size_t i = 0; i < m; ++i)
      index[i] = first + static_cast<uint32_t>(lo + i);
    lanes.resize(m);
    pred.batch(0).run(memory, index, {}, lanes);
    cls.assign(m, 0);
    counts.assign(2 * classes, 0);
    for (auto& e : examples)
      e.clear();
    pending.clear();
    for (std::size_t i = 0; i < m; ++i)
      if (!matchesPrediction(lanes[i], &got[(lo + i) * 4])) {
        pending.push_back(i);
        cls[i] = static_cast<uint8_t>(classes - 1);
      }
    // The other options, each over the lanes still unexplained.
    for (std::size_t v = 1; v < pred.variants() && !pending.empty(); ++v) {
      const gcn::FormatLoadBatch& b = pred.batch(v);
      if (!b.unclaimedReason().empty()) continue;
      pendingIndex.resize(pending.size());
      for (std::size_t j = 0; j < pending.size(); ++j)
        pendingIndex[j] = index[pending[j]];
      pendingLanes.resize(pending.size());
      b.run(memory, pendingIndex, {}, pendingLanes);
      std::size_t kept = 0;
      for (std::size_t j = 0; j < pending.size(); ++j) {
        const std::size_t i = pending[j];
        if (matchesPrediction(pendingLanes[j], &got[(lo + i) * 4]))
          cls[i] = static_cast<uint8_t>(v);
        else
          pending[kept++] = i;
      }
      pending.resize(kept);
    }
    for (std::size_t i = 0; i < m; ++i) {
      const unsigned outOfRange = lanes[i].inRange ? 0 : 1;
      ++counts[outOfRange * classes + cls[i]];
      if (cls[i] != classes - 1 || examples[outOfRange].size() >= maxExamples) continue;
      examples[outOfRange].push_back(indexMismatchText(index[i], lanes[i], &got[(lo + i) * 4]));
    }
  }
};

// An index sweep of one format: lane i reads texel first + i of a view of viewElements
// elements (the start of the code plan). Each lane is predicted by FormatLoadBatch on the V#
// a driver builds for that view (makeBufferVSharp, the device's chip or gfx8), under the
// defaults, then each other option of each policy point, and grouped by the range verdict under the
// defaults.
SweepFormat sweepIndices(vk::Context& ctx, const vk::BufferFormat& f, const gcn::Chip& chip,
                         const SweepOptions& o) {
  SweepFormat r;
  r.format = std::string(f.name);
  r.skipped = skipReason(ctx, f);
  if (!r.skipped.empty()) return r;
  const auto t0 = std::chrono::steady_clock::now();
  const SweepOptions::Indices range = *o.indices;
  const gcn::DfmtInfo& info = gcn::dfmtInfo(f.dfmt);
  const uint32_t view = std::max<uint32_t>(o.viewElements, 1);
  // The instruction texelFetch is on GCN, on the driver's V# for the view, in the suites'
  // register layout.
  gcn::Instruction inst = cases::caseInstruction(gcn::requireOpcode("buffer_load_format_xyzw"));
  inst.idxen = true;
  const gcn::WaveState scalars = indexSweepScalars(chip, f, view);
  IndexPredictions pred(chip, inst, scalars);
  if (const std::string& why = pred.batch(0).unclaimedReason(); !why.empty()) {
    r.skipped = "the reference claims no value: " + why;
    return r;
  }
  const std::size_t chunk = static_cast<std::size_t>(
      std::min<uint64_t>({range.count, std::max<std::size_t>(o.chunk, 64), uint64_t{65535} * 64}));
  r.elements = range.count;
  const auto tb = std::chrono::steady_clock::now();
  SweepDispatch device(ctx, f, chunk, view);
  r.deviceSeconds += since(tb);
  // The view's elements, and the same bytes as the reference's memory image.
  const Plan plan(f.dfmt);
  std::vector<uint8_t> channel(view);
  writeElements(info, plan, 0, view, device.input(), channel.data());
  gcn::MemoryImage memory;
  memory.base = kSweepBase;
  memory.bytes.assign(device.input(), device.input() + std::size_t{view} * info.bytes);

  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::vector<IndexWork> works(threads);
  std::vector<uint64_t> counts(2 * pred.names().size(), 0);
  std::array<std::vector<std::string>, 2> examples;
  for (uint64_t start = 0; start < range.count; start += chunk) {
    const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(chunk, range.count - start));
    const uint32_t first = static_cast<uint32_t>(range.first + start);  // < 2^32 (parsed so)
    const auto td = std::chrono::steady_clock::now();
    const uint32_t* got = device.run(static_cast<uint32_t>(n), true, first);
    r.deviceSeconds += since(td);
    splitWork(threads, n, [&](unsigned t, std::size_t lo, std::size_t hi) {
      works[t].classify(pred, memory, first, lo, hi, got, o.examples);
    });
    for (IndexWork& w : works) {
      mergePart(counts, examples, w.counts, w.examples, o.examples);
      w.counts.clear();
    }
  }
  const std::string ranges[] = {"in-range", "out-of-range"};
  appendGroups(counts, examples, ranges, pred.names(), r.groups);
  r.referenceSeconds = since(t0) - r.deviceSeconds;
  return r;
}

}  // namespace

SweepOptions::Indices parseSweepIndices(const std::string& text, const std::string& place) {
  const std::size_t colon = text.find(':');
  const auto number = [&](const std::string& part, const char* what) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos ||
        part.size() > 10)
      throw gcn::Error(gcn::Place{place, 0, 0}, "'" + text + "': " + what +
                                                    " is not a decimal number below 2^32 "
                                                    "(expected FIRST:COUNT)");
    return std::stoull(part);
  };
  if (colon == std::string::npos)
    throw gcn::Error(gcn::Place{place, 0, 0}, "'" + text + "': expected FIRST:COUNT");
  SweepOptions::Indices r;
  r.first = number(text.substr(0, colon), "FIRST");
  r.count = number(text.substr(colon + 1), "COUNT");
  if (r.count == 0) throw gcn::Error(gcn::Place{place, 0, 0}, "'" + text + "': COUNT is 0");
  if (r.first + r.count > (uint64_t{1} << 32))
    throw gcn::Error(gcn::Place{place, 0, 0},
                     "'" + text + "': the indices run past 2^32 - 1 (a texel index is 32 bits)");
  return r;
}

std::vector<SweepFormat> sweepTexelFormats(vk::Context& ctx, const SweepOptions& options,
                                           const std::function<void(const SweepFormat&)>& done) {
  const gcn::Chip& chip =
      ctx.info().chip ? *ctx.info().chip : gcn::representativeChip(gcn::Gen::Gfx8);
  std::vector<const vk::BufferFormat*> formats;
  if (options.formats.empty()) {
    for (const vk::BufferFormat& f : vk::allBufferFormats())
      if (f.texel && f.dfmt != gcn::Dfmt::Invalid) formats.push_back(&f);
  } else {
    for (const std::string& name : options.formats)
      formats.push_back(&vk::parseBufferFormat(name));
  }
  std::vector<SweepFormat> out;
  for (const vk::BufferFormat* f : formats) {
    SweepFormat r =
        options.indices ? sweepIndices(ctx, *f, chip, options) : sweepOne(ctx, *f, chip, options);
    if (done) done(r);
    out.push_back(std::move(r));
  }
  return out;
}

SweepDispatch::SweepDispatch(vk::Context& ctx, const vk::BufferFormat& f, std::size_t chunk,
                             uint32_t viewElements)
    : ctx_(ctx),
      data_(ctx, viewBytes(ctx, f, viewElements != 0 ? viewElements : chunk),
            VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT),
      out_(ctx, static_cast<VkDeviceSize>(chunk) * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT),
      view_(ctx, data_.buffer(), f.vk, 0, data_.size()),
      pipeline_(ctx, shaders::get(std::string("sweep_texel_") + shaderNumericType(f)),
                kSweepBindings, 8),
      set_(ctx, pipeline_),
      chunk_(chunk) {
  set_.writeTexelBuffer(0, view_.view());
  set_.writeBuffer(1, out_.buffer(), 0, VK_WHOLE_SIZE);
}

const uint32_t* SweepDispatch::run(uint32_t count, bool markUnwritten, uint32_t first) {
  if (count > chunk_)
    throw gcn::Error("sweep dispatch of " + std::to_string(count) + " elements into a chunk of " +
                     std::to_string(chunk_));
  if (markUnwritten) std::memset(out_.bytes().data(), 0xee, static_cast<std::size_t>(count) * 16);
  uint8_t push[8];
  std::memcpy(push, &count, 4);
  std::memcpy(push + 4, &first, 4);
  vk::submitAndWait(ctx_, [&](VkCommandBuffer cmd) {
    vk::recordDispatch(cmd, pipeline_, set_, (count + 63) / 64, push);
    vk::recordHostReadBarrier(cmd);
  });
  return reinterpret_cast<const uint32_t*>(out_.bytes().data());
}

}  // namespace gcnprobe::explore
