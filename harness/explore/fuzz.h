// Differential fuzzing: random cases the device's Vulkan routes can realise, each a probe file
// (docs/probes.md) run as `gcnprobe probe` runs it and diffed against the reference; a case
// that differs is minimised (fewer lanes, then memory words and data registers zeroed, while
// it still differs) and written as a probe file
// that reproduces it. Everything is a function of (seed, case number): the same seed gives
// the same cases on any machine.
//
// Cases are Vulkan-legal by construction, so that a lavapipe or RADV device can realise them:
// - texel: BUFFER_LOAD_FORMAT_XYZW IDXEN through the V# RADV builds for a texel-buffer view
//   of a random table format (single-load texel model, not sRGB) and 1-64 elements; random
//   element indices, some past the end; random memory;
// - storage: BUFFER_LOAD_{UBYTE,USHORT,DWORD,DWORDX2,DWORDX4} OFFEN with a random instruction
//   OFFSET through RADV's storage-buffer V# of a random range; random aligned offsets, some
//   past the end; random memory;
// - texel-store: BUFFER_STORE_FORMAT_XYZW IDXEN through the same texel V#s: distinct element
//   indices (Vulkan leaves two invocations writing one texel undefined), up to three past the
//   end; data the format's conversion cares about (normalised range, float overflow, integer
//   field boundaries; never NaN, whose fixed-point conversion Vulkan leaves open);
// - storage-store: BUFFER_STORE_{BYTE,SHORT,DWORD,DWORDX2,DWORDX4} OFFEN with an instruction
//   OFFSET through RADV's storage-buffer V#: distinct aligned slots, a few past the end;
//   random data;
// - storage-atomic: BUFFER_ATOMIC_{SWAP,CMPSWAP,ADD,SUB,SMIN,UMIN,SMAX,UMAX,AND,OR,XOR}[_X2]
//   OFFEN GLC through RADV's storage-buffer V#: distinct slots (the order of two lanes'
//   atomics on one place is the device's), a few past the end; random or small signed
//   sources; CMPSWAP compares with the memory's own value on about half the lanes.
// - texel-atomic: the same atomics (32-bit) IDXEN GLC through the V# RADV builds for an R32
//   storage texel buffer view (imageAtomic*): distinct elements, up to two past the end.
// On a GCN device where the raw V# route runs (harness/routes/raw.h), any confined V# can
// reach the hardware, and one case in four is one of:
// - raw-texel: BUFFER_LOAD_FORMAT_XYZW IDXEN through a random V#: DATA_FORMAT, NUM_FORMAT,
//   DST_SEL (reserved selectors included), STRIDE, NUM_RECORDS, sometimes SWIZZLE_ENABLE
//   (INDEX_STRIDE, ELEMENT_SIZE) or ADD_TID; indices around NUM_RECORDS;
// - raw-storage: BUFFER_LOAD_{UBYTE,USHORT,DWORD,DWORDX2,DWORDX4} OFFEN with an OFFSET
//   through such a V#; offsets aligned to the lane shader's element, some past the image;
// - raw-texel-store, raw-storage-store: the same forms as stores, any data bits;
// - raw-atomic: the storage atomics OFFEN GLC through such a V#;
// - binary: any opcode of the generation (cache and LDS ones aside) in a form the binary
//   route's templates host (harness/isa/binary_route.h), through such a V#.
// A raw store or atomic keeps only the lanes whose reach (reference/reach.h) no earlier lane
// touches, as a prefix of the wave (ADD_TID addresses depend on the lane id).
// Raw V#s are small (NUM_RECORDS <= 256, STRIDE <= 64), so every reach is placeable.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "reference/gen.h"
#include "reference/opcodes.h"

namespace gcnprobe::explore {

// One generated case: the fields a probe file spells, kept so that the minimiser can rewrite
// them.
struct FuzzCase {
  uint64_t seed = 0;
  uint64_t number = 0;
  // "texel", "texel-store", "storage", "storage-store", "storage-atomic", "texel-atomic";
  // with raw V#s also "raw-texel", "raw-storage", "raw-texel-store", "raw-storage-store",
  // "raw-atomic", "binary"
  std::string kind;
  std::string format;  // texel: the VkFormat name
  std::string inst;
  std::vector<uint32_t> vsharpWords;  // 4
  uint64_t memoryBytes = 0;
  std::vector<uint32_t> memory;  // memoryBytes / 4 words from the V#'s base
  std::vector<uint32_t> v0;      // one per lane (index or byte offset)
  // The data registers v1, v2, ... (one value per lane each): a store's or atomic's data; a
  // binary load's preset VDATA (the halves a D16 load keeps); empty for the other loads.
  std::vector<std::vector<uint32_t>> data;
};

// The case's opcode (the first word of `inst`).
const gcn::OpcodeInfo& fuzzOpcode(const FuzzCase& c);

// Case `number` of `seed` for a chip of generation `gen` (the device's, else gfx8). With
// rawVsharps (a GCN device where the raw V# route runs) one case in four, chosen from
// (seed, number) alone, is a raw-V# case instead; every other case is the same either way.
FuzzCase makeFuzzCase(gcn::Gen gen, uint64_t seed, uint64_t number, bool rawVsharps = false);

// The probe file text of the case: comments naming the seed and case, question and source
// lines, and every field explicit (V# words, lanes, v0 per lane, memory words).
std::string fuzzProbeText(gcn::Gen gen, const FuzzCase& c, const std::string& finding);

// The same case on the given lanes only (their v0 values, in order).
FuzzCase keepLanes(const FuzzCase& c, const std::vector<unsigned>& lanes);

// What the minimiser did to the memory and the data registers.
struct Simplified {
  FuzzCase c;
  unsigned memoryWordsLeft = 0;  // memory words not zero
  unsigned dataValuesLeft = 0;   // data register values (all lanes) not zero
  unsigned tries = 0;            // calls of `fails`
};

// Zeroes what the difference does not need: memory words in blocks (the whole memory, then
// halves, quarters, ... down to single words; a block stays zero when `fails` still holds for
// the case with it zeroed), then each data register value alone. `fails(c)` must hold for `c`
// itself; every case it accepts fails, so the result does. Deterministic; about
// 2 * words + values calls at most.
Simplified zeroUnneeded(const FuzzCase& c, const std::function<bool(const FuzzCase&)>& fails);

}  // namespace gcnprobe::explore
