// Evaluating a probe on the reference: prepare the wave (registers, V#, memory, LDS) for a
// chip, run gcn::execute under a set of policies, check the probe's own expectations, and
// explore the policy points (reference/policy.h) to find every distinct prediction.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "probe/probe_file.h"
#include "reference/executor.h"
#include "reference/gen.h"
#include "reference/opcodes.h"
#include "reference/policy.h"
#include "reference/resource.h"

namespace gcn::probe {

struct EvalOptions {
  std::optional<std::string> gen;     // --gen: overrides the file's `gen`
  std::vector<std::string> policies;  // --policy name=option, pinned like the file's `policy`
};

// A probe made concrete for one chip: what gcn::execute takes.
struct ProbeSetup {
  const Chip* chip = nullptr;
  Instruction inst;
  VSharp vsharp;
  WaveState state;
  MemoryImage memory;
  std::vector<uint8_t> lds;
  unsigned lanes = 64;
  Policies policies;             // the generation's defaults with pinned choices applied
  std::vector<PolicyId> pinned;  // points fixed by the file or the command line
  // The probe's `route` and `format` lines (unchecked here), for the device side.
  std::optional<Placed<std::string>> route;
  std::optional<Placed<std::string>> format;
};

// Throws gcn::Error naming the probe file and the line of the offending entry.
ProbeSetup prepare(const Probe& probe, const EvalOptions& options);

// gcn::execute for the setup under `policies`; errors name the probe file and `inst` line.
ExecResult run(const Probe& probe, const ProbeSetup& setup, const Policies& policies);

// Whether two results predict the same thing: every lane's registers, accesses (address,
// size, range verdict) and the memory and LDS images afterwards.
bool samePrediction(const ExecResult& a, const ExecResult& b, unsigned lanes);

struct ExpectFailure {
  Place place;
  std::string what;  // "lane 3 v1: expected 0x1, reference 0x0"
};
// The probe's expectations of one side against one result; empty when all hold (or none are
// given). Reference: the `expect` lines against a reference result. Device: the `expect
// device` lines against what a device returned (registers of active lanes within VDATA and the
// memory image; anything else is "not read back" and holds only against `*`).
enum class ExpectSide : uint8_t { Reference, Device };
std::vector<ExpectFailure> checkExpect(const Probe& probe, const ProbeSetup& setup,
                                       const ExecResult& result,
                                       ExpectSide side = ExpectSide::Reference);

// Every distinct prediction over the policy points that matter for this probe.
struct Prediction {
  ExecResult result;
  Policies policies;                // one representative choice
  std::vector<std::string> labels;  // every combination giving it, e.g. "straddle=whole"
  bool isDefault = false;           // the generation's default (with pinned points)
};
struct Exploration {
  // Points whose choice changed the prediction: from the defaults, or with one other point
  // that matters at another option (a point can matter only together with another).
  std::vector<PolicyId> mattering;
  std::vector<Prediction> predictions;  // distinct; the default first
  bool exhaustive = true;               // false when too many points mattered to combine
};
// Distinct predictions of a store or atomic each keep the memory image after it (up to
// kMaxMemoryBytes, under up to 256 policy combinations): their sum is bounded, so that a
// 16 MiB store probe cannot hold gigabytes. Over the limit, explore throws gcn::Error at the
// probe's `memory size` line (else its `inst` line) with the numbers.
inline constexpr uint64_t kMaxPredictionImageBytes = 256ull << 20;
Exploration explore(const Probe& probe, const ProbeSetup& setup,
                    uint64_t maxImageBytes = kMaxPredictionImageBytes);

// "UNORM" etc.: the register type the instruction returns or takes, for printing values.
RegType dataRegType(const ProbeSetup& setup);

}  // namespace gcn::probe
