// The wave executor: runs one MUBUF/MTBUF instruction for 64 lanes under an EXEC mask on a
// byte-addressed memory image and an LDS image, and reports per lane what it read, wrote
// and returned. It is the single source of expected values for the harness and for probes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/gen.h"
#include "reference/opcodes.h"
#include "reference/policy.h"
#include "reference/resource.h"

namespace gcn {

inline constexpr unsigned kWaveSize = 64;

struct WaveState {
  // vgpr[r][lane]; 256 registers.
  std::vector<std::array<uint32_t, kWaveSize>> vgpr =
      std::vector<std::array<uint32_t, kWaveSize>>(256);
  std::array<uint32_t, 104> sgpr{};  // the V# sits at sgpr[inst.srsrc .. +3]
  uint32_t m0 = 0;
  uint64_t exec = ~0ull;
};

// Memory as the buffer instruction sees it: bytes at [base, base + bytes.size()).
struct MemoryImage {
  uint64_t base = 0;
  std::vector<uint8_t> bytes;
};

struct LaneAccess {
  uint64_t address = 0;  // byte address (after alignment rules)
  uint8_t size = 0;      // bytes
  bool inRange = false;  // passed the range check
  bool mapped = false;   // inside the memory image (an in-range access outside it is
                         // reported, never performed)
  bool write = false;
};

struct LaneResult {
  bool active = false;  // EXEC bit
  std::vector<LaneAccess> accesses;
  uint8_t vdataCount = 0;                          // registers written back (0 for stores)
  std::array<std::optional<uint32_t>, 5> vdata{};  // values written to v[vdata + i];
                                                   // nullopt = the reference claims no value
  std::string note;                                // why a value is undefined, if one is
};

struct ExecResult {
  std::array<LaneResult, kWaveSize> lanes;
  MemoryImage memory;              // after the instruction
  std::vector<uint8_t> lds;        // after the instruction
  WaveState state;                 // registers after the instruction
  std::vector<std::string> notes;  // wave-wide remarks (policy choices taken, undefined cases)
};

// Throws gcn::Error for an instruction that is invalid on the chip (see validate()).
ExecResult execute(const Chip& chip, const Instruction& inst, const WaveState& state,
                   const MemoryImage& memory, const std::vector<uint8_t>& lds,
                   const Policies& policies);

}  // namespace gcn
