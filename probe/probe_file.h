// A probe file: one precise question for the silicon (this instruction, this V#, these
// lanes, this memory: what happens?), written by hand in a small line format and parsed into
// plain data. The format is described in docs/probes.md. Parsing is pure text processing:
// instruction and V# texts are kept with their places and interpreted when the probe is
// prepared for a chip (probe/probe_eval.h), so errors there also name the file and line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "probe/expr.h"
#include "reference/error.h"

namespace gcn::probe {

// A value per lane or per element: one expression of the index, or an explicit list.
struct Values {
  std::vector<Expr> list;  // one entry: an expression evaluated for every index
  bool isList = false;     // written as a comma-separated list
  Place place;
};

// An expected value of one lane or element: a number, `*` (anything), or `undef` (the
// reference claims no value there).
struct ExpectItem {
  enum class Kind : uint8_t { Value, Any, Undefined };
  Kind kind = Kind::Value;
  std::optional<Expr> value;
};
// `within N` after the values: an observed value N or fewer codes away from the expected one
// holds (the distance is modular in the value's width, so -1 and 0 are 1 apart); `within N
// ulp`: N or fewer float32 units in the last place apart (32-bit values only; a NaN holds only
// against a NaN).
struct Tolerance {
  uint64_t amount = 0;
  bool ulp = false;
};
struct ExpectValues {
  std::vector<ExpectItem> list;  // one entry: applies to every lane / element
  bool isList = false;
  Place place;
  std::optional<Tolerance> tolerance;
};

struct RegInit {
  unsigned reg = 0;
  Values values;
};

// `mem @OFFSET u32 x4 = ...` (and lds): elements of 1, 2 or 4 bytes from a byte offset.
struct DataWrite {
  bool lds = false;
  bool fill = false;  // `mem fill = ...`: every byte of the image, elementBytes 1
  uint64_t offset = 0;
  unsigned elementBytes = 1;
  std::optional<uint64_t> count;  // xN
  Values values;                  // index variable `i`
};

// `expect device ...` lines check what the device returned (`gcnprobe probe`), the others the
// reference's default prediction.
struct ExpectReg {
  bool device = false;
  unsigned reg = 0;
  ExpectValues values;  // index variable `lane`
};
struct ExpectData {
  bool device = false;
  bool lds = false;
  uint64_t offset = 0;
  unsigned elementBytes = 1;
  std::optional<uint64_t> count;
  ExpectValues values;  // index variable `i`
};

template <class T>
struct Placed {
  T value{};
  Place place;
};

struct Probe {
  std::string file;  // as given to parseProbe, used in every error
  std::string question;
  std::vector<std::string> sources;

  std::optional<Placed<std::string>> gen;   // chip or generation name
  std::optional<Placed<std::string>> inst;  // assembler text
  std::optional<Placed<std::string>> vsharp;
  std::optional<Placed<std::vector<uint64_t>>> vsharpWords;  // `vsharp words = a, b, c, d`

  std::optional<Placed<uint64_t>> lanes;  // 1..64, default 64
  std::optional<Placed<uint64_t>> exec;   // default: the low `lanes` bits
  std::optional<Placed<uint64_t>> m0;
  std::vector<RegInit> vgprs;
  std::vector<Placed<std::pair<unsigned, uint64_t>>> sgprs;  // sN = value (after the V#)

  std::optional<Placed<uint64_t>> memoryBase;  // default: the V#'s BASE
  std::optional<Placed<uint64_t>> memorySize;  // default 256
  // `far @OFF = SIZE`: a further memory region of SIZE bytes at OFF past the image's base (a
  // 64-bit AINDEX * STRIDE lands 4 GiB away); `mem @OFF` writes inside it go there.
  struct FarRegion {
    uint64_t offset = 0;
    uint64_t size = 0;
  };
  std::vector<Placed<FarRegion>> farRegions;
  std::optional<Placed<uint64_t>> ldsSize;  // default 65536
  std::vector<DataWrite> writes;            // in file order

  std::vector<Placed<std::string>> policies;  // "name=option", pinned for every evaluation

  // The route a device runs the probe on (`route = texel`), and a texel view's VkFormat
  // (`format = R8_UNORM`): names checked where the routes are known.
  std::optional<Placed<std::string>> route;
  std::optional<Placed<std::string>> format;

  std::vector<ExpectReg> expectRegs;
  std::vector<ExpectData> expectData;
  std::optional<ExpectValues> expectInRange;  // per lane: 1 = every access in range

  // Expectations of the reference (`expect ...`) and of the device (`expect device ...`).
  bool hasExpect() const { return hasExpectOn(false); }
  bool hasDeviceExpect() const { return hasExpectOn(true); }
  bool hasExpectOn(bool device) const {
    for (const ExpectReg& r : expectRegs)
      if (r.device == device) return true;
    for (const ExpectData& d : expectData)
      if (d.device == device) return true;
    return !device && expectInRange.has_value();
  }
};

// Limits that keep a probe (and a mutated one) small.
inline constexpr uint64_t kMaxMemoryBytes = 16ull << 20;
inline constexpr std::size_t kMaxFarRegions = 4;  // each at most kMaxMemoryBytes
inline constexpr uint64_t kMaxLdsBytes = 64ull << 10;
inline constexpr std::size_t kMaxProbeBytes = 16u << 20;  // the whole file
inline constexpr std::size_t kMaxLineBytes = 64u << 10;   // one line
// Expression work of one evaluation of a probe: the numbers, names and operators evaluated,
// summed over every lane and element of every value, write and expectation. A `mem fill`
// of the largest image with a 16-term expression fits; beyond that a probe would run for
// minutes instead of a moment.
inline constexpr uint64_t kMaxEvalTerms = 1ull << 28;

// Throws gcn::Error with Place{file, line, column} and the reason for any malformed line.
Probe parseProbe(std::string_view text, const std::string& file);
// Reads the file ("-" = standard input) and parses it; errors name the path.
Probe loadProbe(const std::string& path);

// The shipped probe files (probes/*.probe, sorted) of the directory shippedProbesDir() finds
// (probe/probes_dir.h: $GCNPROBE_PROBES_DIR, the installed share/gcnprobe/probes, the source
// tree's probes/). Throws gcn::Error when the directory cannot be read, gcn::InfraError when
// there is none.
std::vector<std::string> shippedProbeFiles();

}  // namespace gcn::probe
