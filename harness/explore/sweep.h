// Sweeps: every code of every channel of a texel-buffer format through the device in one
// dispatch, compared with the reference at table speed (reference/convert_table.h) and
// summarised per (format, channel, classification), never a record per element.
//
// Per format (the table's single-load texel rows the device offers as uniform texel buffers),
// the elements hold, channel after channel, every value of that channel's field (fields of
// 16 bits or less; 65536 seeded and extreme values of a 32-bit field) with the other fields
// pseudo-random. shaders/sweep_texel.comp reads element i with texelFetch (on GCN one
// BUFFER_LOAD_FORMAT_XYZW IDXEN through the driver's V#) and writes its register bits. Each
// element is classified against the reference under the generation's default policies
// ("exact"), else under each other option of each value-only policy point ("norm=mulrcp",
// ...), else "mismatch" with the first few examples kept.
//
// An index sweep (SweepOptions::indices) keeps the buffer fixed and sweeps the index
// instead: lane i reads texel FIRST + i of a view of `viewElements` elements, past its end and
// up to 2^32 - 1, predicted lane by lane through the instruction's addressing and range check
// (reference/load_batch.h); groups are per (format, in-range | out-of-range, classification).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/formats.h"
#include "harness/vulkan/buffer.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/pipeline.h"
#include "reference/gen.h"

namespace gcnprobe::explore {

struct SweepGroup {
  // "R", "G", "B", "A" (the swept field, X..W of the element); in an index sweep "in-range" or
  // "out-of-range" (the reference's range check of the lane's index)
  std::string channel;
  std::string classification;  // "exact", "<point>=<option>", "mismatch"
  uint64_t elements = 0;
  std::vector<std::string> examples;  // mismatches only: element, code, expected, device
};

struct SweepFormat {
  std::string format;   // "VK_FORMAT_R8G8B8A8_UNORM"
  std::string skipped;  // why not swept ("" = swept)
  uint64_t elements = 0;
  std::vector<SweepGroup> groups;
  double deviceSeconds = 0;     // pipeline and buffers, dispatches
  double referenceSeconds = 0;  // elements, tables and classification
};

struct SweepOptions {
  std::vector<std::string> formats;  // table names; empty = every single-load texel format
  unsigned examples = 3;             // mismatching elements kept per group
  // Elements per format: at least this many (the plan of codes repeats with fresh random
  // fields elsewhere); 0 = every code once.
  uint64_t elements = 0;
  // Elements per dispatch: memory holds one chunk (its input, results and predictions),
  // whatever the sweep's size.
  std::size_t chunk = std::size_t{1} << 17;
  // An index sweep: texel indices [first, first + count) (first + count <= 2^32) read from a
  // view of viewElements elements holding the start of the code plan.
  struct Indices {
    uint64_t first = 0;
    uint64_t count = 0;
  };
  std::optional<Indices> indices;
  uint32_t viewElements = 1024;
};

// "FIRST:COUNT" -> SweepOptions::Indices; throws gcn::Error naming `place` for anything else, a
// count of 0 or a range past 2^32.
SweepOptions::Indices parseSweepIndices(const std::string& text, const std::string& place);

// One format's device objects for a sweep, built once and reused for every chunk: elements
// are written straight into the texel buffer's mapping (input(), `chunk` elements of the
// format's size) and results read from the output's. Also what bench/sweep_rate.cpp times as
// the raw dispatch rate, so that the limit and the sweep run the same dispatch.
class SweepDispatch {
 public:
  // The view holds viewElements elements (0: `chunk` of them). Throws gcn::Error when that is
  // over the device's maxTexelBufferElements.
  SweepDispatch(vk::Context& ctx, const vk::BufferFormat& f, std::size_t chunk,
                uint32_t viewElements = 0);
  uint8_t* input() { return data_.bytes().data(); }
  // Runs `count` lanes (count <= chunk, else gcn::Error), lane i reading element first + i of
  // the input (wrapping at 2^32); the result of lane i is words [4i, 4i + 4) of the returned
  // array, valid until the next run. With markUnwritten the output is first filled with 0xee
  // bytes, so that a lane the device never wrote cannot pass for an earlier result (the
  // raw-rate benchmark times the dispatch alone, without it).
  const uint32_t* run(uint32_t count, bool markUnwritten = true, uint32_t first = 0);

 private:
  static constexpr vk::Binding kSweepBindings[] = {{0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER},
                                                   {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
  vk::Context& ctx_;
  vk::HostBuffer data_;
  vk::HostBuffer out_;
  vk::BufferView view_;
  vk::ComputePipeline pipeline_;
  vk::DescriptorSet set_;
  std::size_t chunk_;
};

// Sweeps the formats on the context's device, one at a time, a chunk of elements per dispatch
// (memory stays bounded by the chunk). `done` is called after each format. The reference
// generation is the device's chip's, else gfx8 (the portable profile's reference). Throws
// gcn::Error for an unknown format name.
std::vector<SweepFormat> sweepTexelFormats(vk::Context& ctx, const SweepOptions& options,
                                           const std::function<void(const SweepFormat&)>& done);

}  // namespace gcnprobe::explore
