// What a case ended as, in the form every results file, baseline, comparison and report reads:
// its verdict, the record of what the device returned against the reference, and a run's
// summary of verdicts. Plain data with no device in it, so that everything done with results
// after a run (results/) builds and is tested without Vulkan.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gcnprobe::results {

// A case the device cannot realise is unsupported, never pass; route-miss is reserved for the ISA
// check. Crash and Timeout come from running batches in child processes (a signal or a lost
// device; no progress within the batch timeout). Flake, ExpectedFail and UnexpectedPass come
// from a baseline (a case that passed on retry; a failure the baseline expects; a case the
// baseline expects to fail that passed).
enum class Verdict : uint8_t {
  Pass,
  Fail,
  Unsupported,
  RouteMiss,
  Error,
  Crash,
  Timeout,
  Flake,
  ExpectedFail,
  UnexpectedPass,
};
inline constexpr std::size_t kVerdictCount = 10;
// "pass", "fail", "unsupported", "route-miss", "error", "crash", "timeout", "flake",
// "expected-fail", "unexpected-pass".
std::string_view verdictName(Verdict v);
// The inverse of verdictName; std::nullopt for any other text.
std::optional<Verdict> verdictFromName(std::string_view name);
// Fail, RouteMiss, Error, Crash and Timeout: the verdicts that fail a run.
bool isRegression(Verdict v);

// One compared component (or memory field) of a failing lane.
struct ComponentDiff {
  int lane = -1;             // -1 when no lane is known (a memory field nobody wrote)
  int64_t element = -1;      // element index (VADDR index for IDXEN), -1 when none
  int64_t byteOffset = -1;   // byte offset in the buffer of the element, -1 when none
  unsigned component = 0;    // 0..3 = X..W (register index for loads)
  bool memoryField = false;  // true: compares stored memory, false: a returned register
  std::string memoryBits;    // raw memory bits of the field (hex), "" when none
  std::string expectedBits, expectedValue;
  std::string actualBits, actualValue;
  bool match = false;
  std::string classification;  // "" for matches
};

struct CaseResult {
  std::string name;
  std::string suite;
  std::string instruction;  // assembler text
  std::string format;       // VkFormat name, "" when untyped
  std::string binding;
  Verdict verdict = Verdict::Error;
  std::string reason;     // unsupported / error / fail summary
  std::string tolerance;  // the tolerance actually applied
  // The V# the case binds: the text form of `gcnprobe vsharp` for the profile's generation and
  // its four dwords as "xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx"; empty when it has none in range.
  std::string vsharp;
  std::string vsharpWords;
  std::string expectation;           // how expected values were obtained (profile, alternatives)
  std::vector<ComponentDiff> diffs;  // every component of every failing lane / field
  std::vector<int64_t> changedGuardBytes;
  std::vector<std::string> notes;
  // Device time: the case's share of its batch's dispatch (route run time / batch size) plus
  // its diff; 0 for cases decided before any dispatch (unsupported, broken).
  double seconds = 0;
  // The ISA digest (isa_digest.h) of the pipeline the driver emitted for the case;
  // std::nullopt where no ISA is visible (lavapipe) or the case never reached a pipeline.
  std::optional<std::string> isaDigest;
  // Every buffer instruction in that pipeline, one line each: the executable, the driver's
  // text, the encoded words and the descriptor its SRSRC holds; empty where none is visible.
  std::vector<std::string> isaLines;
  // What the ISA check proved, one link per line ("instruction: proven ...", "V#: ...",
  // "data path: ..."); empty where no ISA was checked (lavapipe).
  std::vector<std::string> proof;
  // Set where a baseline, a known-flake list or a retry changed the verdict or amended the
  // reason: what the case had before (`verdict` and `reason` then say what the expectations made
  // of it). Written to the case's JSON record as "original" only when set.
  struct Original {
    Verdict verdict = Verdict::Error;
    std::string reason;
  };
  std::optional<Original> original;
};

struct Summary {
  std::array<std::size_t, kVerdictCount> counts{};  // by Verdict
  std::size_t count(Verdict v) const { return counts[static_cast<std::size_t>(v)]; }
  void add(Verdict v) { ++counts[static_cast<std::size_t>(v)]; }
  // "N passed, N failed, N unsupported", then ", N <verdict>" for every other verdict that
  // occurred, in Verdict order (", 3 route-miss, 1 crash").
  std::string line() const;
  bool ok() const;  // no regression (isRegression)
  // Cases not run because `RunOptions::stop` asked the run to end (a signal): 0 otherwise.
  std::size_t notRun = 0;
};

// Where a run hands each case's record as soon as it exists.
using ResultSink = std::function<void(const CaseResult&)>;

}  // namespace gcnprobe::results
